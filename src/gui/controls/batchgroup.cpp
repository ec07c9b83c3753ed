#include "batchgroup.h"

#include "sliderlink.h"
#include "ui_batchgroup.h"

#include <QStyle>

#include <algorithm>
#include <cmath>

namespace headroom::gui {

namespace {

    constexpr double kSeqMinTokens = 64.0; // slider range 64 .. 131072 tokens
    constexpr double kSeqMinPixels = 32.0; // 32 .. 4096 pixels for vision models
    constexpr int kSeqSpinMax = 1048576;   // ui/batchgroup.ui's seqSpin

} // namespace

BatchGroup::BatchGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::BatchGroup>())
{
    m_ui->setupUi(this);
    m_ui->batchSlider->setRange(0, BatchScale::kPositions);
    m_ui->batchSlider->setPageStep(BatchScale::kPositions / 12); // one doubling on the logarithmic part
    auto send = [this](Control control) {
        return [this, control](std::int64_t value, bool dragging) { edit(control, value, dragging); };
    };
    linkSliderAndSpin(
        this, m_ui->batchSlider, m_ui->batchSpin, syncingFlag(), [this](int p) { return batchFromPosition(p); },
        [this](int v) { return positionFromBatch(v); }, send(Control::MicroBatch));
    linkSliderAndSpin(
        this, m_ui->seqSlider, m_ui->seqSpin, syncingFlag(),
        [this](int p) { return fromLog(p, m_vision ? kSeqMinPixels : kSeqMinTokens); },
        [this](int v) { return toLog(v, m_vision ? kSeqMinPixels : kSeqMinTokens); }, send(Control::SequenceLength));
    connect(m_ui->accumSpin, &QSpinBox::valueChanged, this,
            [this](int steps) { edit(Control::Accumulation, std::int64_t(steps)); });
    m_ui->rangeNote->setVisible(false);
}

BatchGroup::~BatchGroup() = default;

void BatchGroup::sync(const Scenario& scenario, const Catalog& catalog)
{
    const TrainingConfig& c = scenario.config;
    updateSequenceMode(catalog.model(scenario.modelId));
    m_ui->batchSpin->setValue(int(std::min<std::int64_t>(c.microBatch, m_ui->batchSpin->maximum())));
    syncBatchSlider(c.microBatch);
    m_ui->seqSpin->setValue(int(std::min<std::int64_t>(c.sequenceLength, m_ui->seqSpin->maximum())));
    m_ui->seqSlider->setValue(toLog(double(c.sequenceLength), m_vision ? kSeqMinPixels : kSeqMinTokens));
    m_ui->accumSpin->setValue(c.gradientAccumulation);
}

void BatchGroup::syncBatchSlider(std::int64_t batch)
{
    QSlider* s = m_ui->batchSlider;
    if (s->isSliderDown()) {
        // Held: the scale stays anchored where the drag started; the handle only follows a value set elsewhere.
        if (batchFromPosition(s->value()) != batch)
            s->setValue(positionFromBatch(batch));
        return;
    }
    // A few pixels per value in the linear zone, whatever the slider's width (presentation fonts widen it).
    const int groove = std::max(60, s->width() - s->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, s));
    // At most a quarter of the slider per side for the linear zone (a narrow or hidden slider): the logarithmic
    // ends keep room to reach every value near the anchor and 1 and 4096.
    const int step = std::clamp(int(std::lround(6.0 * BatchScale::kPositions / groove)), 2,
                                BatchScale::kPositions / (4 * BatchScale::kFineValues));
    // The handle stays where the keyboard or a drag left it when that still shows this value.
    m_batchScale.anchor(batch, batchFromPosition(s->value()) == batch ? s->value() : -1, step);
    s->setSingleStep(m_batchScale.positionsPerValue()); // an arrow key: one more or one fewer
    if (s->value() != positionFromBatch(batch))
        s->setValue(positionFromBatch(batch));
}

void BatchGroup::updateSequenceMode(const ModelSpec* m)
{
    m_vision = m && m->isVision();
    m_ui->seqLabel->setText(m_vision ? tr("&Image size (pixels)") : tr("&Sequence length (tokens)"));
    // Learned positions end the range: GPT-2 has no embedding for a token after its 1024th, and the core refuses it.
    int sliderMax = m_vision ? 70 : 110;
    int spinMax = kSeqSpinMax;
    if (m && !m_vision && m->family == ModelFamily::Transformer && m->transformer.position == PositionKind::Learned) {
        const double limit = double(m->transformer.maxPositions);
        sliderMax = std::clamp(int(std::floor(10.0 * std::log2(limit / kSeqMinTokens))), 0, sliderMax);
        spinMax = int(std::min<double>(limit, kSeqSpinMax));
    }
    m_ui->seqSlider->setMaximum(sliderMax);
    if (m_ui->seqSpin->maximum() != spinMax) // QSpinBox re-lays out the whole window on every setMaximum
        m_ui->seqSpin->setMaximum(spinMax);
}

void BatchGroup::setPresentationMode(bool on)
{
    m_ui->accumSpin->setVisible(!on);
    m_ui->accumLabel->setVisible(!on);
}

void BatchGroup::retranslate()
{
    m_ui->retranslateUi(this); // the sequence row's label is the model's: retranslated() has it shown again
}

void BatchGroup::setRangeNote(const QString& note)
{
    if (m_ui->rangeNote->text() != note)
        m_ui->rangeNote->setText(note);
    m_ui->rangeNote->setVisible(!note.isEmpty());
}

QString BatchGroup::rangeNoteText() const
{
    return m_ui->rangeNote->isVisibleTo(this) ? m_ui->rangeNote->text() : QString();
}

QSlider* BatchGroup::batchSlider() const { return m_ui->batchSlider; }
QSlider* BatchGroup::sequenceSlider() const { return m_ui->seqSlider; }
QSpinBox* BatchGroup::batchSpin() const { return m_ui->batchSpin; }
QSpinBox* BatchGroup::sequenceSpin() const { return m_ui->seqSpin; }
QSpinBox* BatchGroup::accumulationSpin() const { return m_ui->accumSpin; }

} // namespace headroom::gui
