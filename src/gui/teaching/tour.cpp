#include "tour.h"

#include "formatting.h"
#include "labels.h"
#include "verdictwidget.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace headroom::gui {

// ---- highlight frame ----------------------------------------------------------------------------------------

HighlightFrame::HighlightFrame(QWidget* parent)
    : QWidget(parent)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    hide();
}

void HighlightFrame::setTarget(QWidget* target)
{
    if (m_target)
        m_target->removeEventFilter(this);
    m_target = target;
    if (!target) {
        hide();
        return;
    }
    setParent(target->parentWidget());
    target->installEventFilter(this);
    follow();
    show();
    raise();
}

void HighlightFrame::follow()
{
    if (m_target)
        setGeometry(m_target->geometry().adjusted(-3, -3, 3, 3));
}

bool HighlightFrame::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_target && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        follow();
    return QWidget::eventFilter(watched, event);
}

void HighlightFrame::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(0xE6, 0x9F, 0x00), 5.0)); // Okabe-Ito orange: visible on light and dark, from the back row
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(rect()).adjusted(2.5, 2.5, -2.5, -2.5), 6, 6);
}

// ---- tour ---------------------------------------------------------------------------------------------------

namespace {

    Scenario explainerScenario(const char* model, std::int64_t batch, std::int64_t sequence, Precision precision)
    {
        Scenario s = defaultScenario(); // the RTX A3000 12 GB with the explainer's 392 GB/s
        s.modelId = model;
        s.config = TrainingConfig {};
        s.config.microBatch = batch;
        s.config.sequenceLength = sequence;
        s.config.precision = precision;
        return s;
    }

    double stateBytes(const Estimate& e)
    {
        return e.components[index(MemoryCategory::Weights)] + e.components[index(MemoryCategory::WeightCopies)]
            + e.components[index(MemoryCategory::Gradients)] + e.components[index(MemoryCategory::OptimizerStates)];
    }

    QString verdictWords(const Estimate& e)
    {
        return e.fits ? GuidedTour::tr("it fits, with %1 free").arg(formatBytes(e.headroomBytes))
                      : GuidedTour::tr("it does not fit: %1 over").arg(formatBytes(-e.headroomBytes));
    }

    // What the step needs against the capacity as the verdict counts it, which the free bytes of verdictWords are
    // counted from: the peak, or, once the allocator replay has run, what the device holds with PyTorch's caching
    // allocator (the tour said "Peak 10.11 GiB of 12.00 GiB: it fits, with 1.71 GiB free").
    QString needWords(const SimulationResult& r)
    {
        const Estimate& e = r.estimate;
        if (r.verdict.decidedBy == FitRule::Allocator)
            return GuidedTour::
                tr("With PyTorch's caching allocator the step holds %1 of %2 (its tensors with the CUDA context peak at %3)")
                    .arg(formatBytes(r.verdict.neededBytes), formatBytes(e.capacityBytes), formatBytes(e.peakBytes));
        return GuidedTour::tr("Peak %1 of %2").arg(formatBytes(e.peakBytes), formatBytes(e.capacityBytes));
    }

} // namespace

GuidedTour::GuidedTour(TourHost* host, QWidget* parent)
    : QWidget(parent)
    , m_host(host)
    , m_frame(new HighlightFrame(host->tourParent()))
{
    auto* layout = new QVBoxLayout(this);
    m_counter = new QLabel(this);
    m_title = new QLabel(this);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.3);
    m_title->setFont(f);
    m_title->setWordWrap(true);
    m_text = new QTextBrowser(this);
    m_text->setOpenLinks(false);
    auto* buttons = new QHBoxLayout;
    m_back = new QPushButton(this);
    m_next = new QPushButton(this);
    m_end = new QPushButton(this);
    m_next->setDefault(true);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addStretch(1);
    buttons->addWidget(m_end);
    layout->addWidget(m_counter);
    layout->addWidget(m_title);
    layout->addWidget(m_text, 1);
    layout->addLayout(buttons);
    connect(m_back, &QPushButton::clicked, this, &GuidedTour::back);
    connect(m_next, &QPushButton::clicked, this, &GuidedTour::next);
    connect(m_end, &QPushButton::clicked, this, &GuidedTour::stop);
    // From the keyboard, as a presenter's clicker sends it: Right and Page Down go on, Left and Page Up back, Escape
    // ends the tour (the card's buttons alone took only Space and Enter).
    const std::pair<QKeySequence, void (GuidedTour::*)()> keys[] = {
        { QKeySequence(Qt::Key_Right), &GuidedTour::next },  { QKeySequence(Qt::Key_PageDown), &GuidedTour::next },
        { QKeySequence(Qt::Key_Left), &GuidedTour::back },   { QKeySequence(Qt::Key_PageUp), &GuidedTour::back },
        { QKeySequence(Qt::Key_Escape), &GuidedTour::stop },
    };
    for (const auto& [key, slot] : keys) {
        auto* shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, slot);
    }
    buildSteps();
    changeEvent(nullptr);
}

GuidedTour::~GuidedTour() = default;

// The first lessons: what fills the memory of one GPU and the changes that make a step fit on it.
std::vector<GuidedTour::Step> GuidedTour::memorySteps()
{
    return {
        { [] { return tr("What fills 12 GB?"); },
          [](const Scenario&) { return explainerScenario("bert-base", 16, 512, Precision::FP32); },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>BERT-base (%1 parameters) trained in FP32 with AdamW on the RTX A3000 laptop GPU, 16 sequences "
                        "of 512 tokens.</p><p><b>Model states</b>: every parameter has a weight (4 bytes), a gradient (4) and "
                        "AdamW's two moments (8): 16 bytes per parameter, <b>%2</b> in all. They do not depend on the batch.</p>"
                        "<p><b>Activations</b>: what the forward pass keeps for the backward pass, <b>%3</b> at the peak, "
                        "plus temporaries of %4. They grow with the batch and the sequence.</p><p>%5: %6.</p>")
                  .arg(formatCount(e.parameters), formatBytes(stateBytes(e)),
                       formatBytes(e.atPeak[index(MemoryCategory::Activations)]),
                       formatBytes(e.atPeak[index(MemoryCategory::Transient)]), needWords(r), verdictWords(e));
          },
          [] { return TourHost::Target::MemoryChart; } },
        { [] { return tr("Why the batch size hits the wall"); },
          [](const Scenario&) { return explainerScenario("bert-base", 32, 512, Precision::FP32); },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              // Once the allocator replay decides, the largest batch is where its dashed curve crosses the line.
              const QString text = r.verdict.decidedBy == FitRule::Allocator
                  ? tr("<p>Doubling the micro-batch to %1 doubles the activations, while the model states stay the "
                       "same. The chart shows memory against the micro-batch: the dashed curve, the tensors with what "
                       "PyTorch's caching allocator holds besides, crosses the %2 line at the largest batch that fits, "
                       "<b>%3</b>.</p><p>At %1: %4.</p>")
                  : tr("<p>Doubling the micro-batch to %1 doubles the activations, while the model states stay the "
                       "same. The chart shows memory against the micro-batch: the curve crosses the %2 line at the "
                       "largest batch that fits, <b>%3</b>.</p><p>At %1: %4.</p>");
              return text.arg(e.config.microBatch)
                  .arg(formatBytes(e.capacityBytes))
                  .arg(e.maxMicroBatch)
                  .arg(verdictWords(e));
          },
          [] { return TourHost::Target::SweepChart; } },
        { [] { return tr("Mixed precision"); },
          [](const Scenario&) { return explainerScenario("bert-base", 32, 512, Precision::MixedFP16); },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>With FP16 mixed precision (torch.autocast) most activations are stored in 2 bytes instead of 4, "
                        "and the matrix multiplications run on the tensor cores. The FP32 weights stay, and FP16 copies "
                        "of them are added (weight copies).</p><p>Largest micro-batch now <b>%1</b>; at %2: %3. A step takes "
                        "%4, %5.</p>")
                  .arg(e.maxMicroBatch)
                  .arg(e.config.microBatch)
                  .arg(verdictWords(e), formatSeconds(e.stepSeconds), formatRate(e.throughputPerSecond, tr("tokens")));
          },
          [] { return TourHost::Target::MemoryChart; } },
        { [] { return tr("Activation checkpointing"); },
          [](const Scenario&) {
              Scenario s = explainerScenario("bert-base", 32, 512, Precision::MixedFP16);
              s.config.checkpointing = Checkpointing::Full;
              return s;
          },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>Full checkpointing keeps only each layer's input and recomputes the layer in the backward "
                        "pass. The timeline shows the activations staying low through the forward pass.</p><p>Now %1; the "
                        "largest micro-batch is <b>%2</b>. The price is time: the forward pass runs twice, a step takes %3.</p>")
                  .arg(verdictWords(e))
                  .arg(e.maxMicroBatch)
                  .arg(formatSeconds(e.stepSeconds));
          },
          [] { return TourHost::Target::TimelineChart; } },
    };
}

// Then beyond one GPU: a model too big for it, ZeRO, a bigger GPU, and what limits the speed.
std::vector<GuidedTour::Step> GuidedTour::scaleSteps()
{
    return {
        { [] { return tr("A model too big for one GPU"); },
          [](const Scenario&) { return explainerScenario("gpt2-xl", 1, 1024, Precision::MixedFP16); },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>GPT-2 XL has %1 parameters. Its weights, gradients and optimizer states alone take %2, more "
                        "than the whole GPU: even one sequence does not fit (%3).</p>")
                  .arg(formatCount(e.parameters), formatBytes(stateBytes(e)), verdictWords(e));
          },
          [] { return TourHost::Target::MemoryChart; } },
        { [] { return tr("ZeRO: split the model states across GPUs"); },
          [](const Scenario&) {
              Scenario s = explainerScenario("gpt2-xl", 1, 1024, Precision::MixedFP16);
              s.config.zeroStage = 3;
              s.config.dataParallel = 4;
              s.config.checkpointing = Checkpointing::Full;
              return s;
          },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>ZeRO stage 3 over %1 data-parallel GPUs partitions the weights, gradients and optimizer states: "
                        "each GPU holds a quarter and gathers the rest layer by layer. With checkpointing, %2 per GPU.</p>"
                        "<p>The cost is communication: %3 per step on this GPU's links.</p>")
                  .arg(e.config.dataParallel)
                  .arg(verdictWords(e), formatSeconds(e.communicationSeconds));
          },
          [] { return TourHost::Target::MemoryChart; } },
        { [] { return tr("A bigger GPU"); },
          [](const Scenario&) {
              Scenario s = explainerScenario("gpt2-xl", 4, 1024, Precision::MixedBF16);
              s.gpuId = "a100-sxm4-80gb";
              s.overrides = {};
              return s;
          },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>On an A100 with 80 GB the same model trains on one GPU at micro-batch %1: %2. The GPU "
                        "comparison below puts the RTX A3000, RTX 3090, A100 and H100 side by side for this setting: "
                        "capacity, largest micro-batch, step time and time per epoch.</p>")
                  .arg(e.config.microBatch)
                  .arg(verdictWords(e));
          },
          [] { return TourHost::Target::GpuComparison; } },
        { [] { return tr("The roofline: compute or bandwidth?"); },
          [](const Scenario&) { return explainerScenario("bert-base", 16, 512, Precision::MixedFP16); },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              const double peak = e.gpu.peakFlopsPerSecond[std::size_t(e.mfuUnit)];
              const double ridge = e.gpu.bandwidthBytesPerSecond > 0 ? peak / e.gpu.bandwidthBytesPerSecond : 0.0;
              return tr("<p>Each dot is an operator of the training step: how many FLOPs it does per byte it moves (x) "
                        "against the FLOP/s it reaches (y). Left of the ridge at %1 FLOP/byte an operator is limited by "
                        "the memory bandwidth (the slope, %2); right of it by the %3 peak (%4).</p><p>The matrix "
                        "multiplications sit near the compute roof; normalization, softmax, GELU, dropout and the "
                        "optimizer sit on the bandwidth slope. Drag the batch slider and watch the GEMMs move.</p>")
                  .arg(QLocale().toString(ridge, 'f', 0), formatBandwidth(e.gpu.bandwidthBytesPerSecond),
                       Labels::unit(e.mfuUnit), formatFlopsPerSecond(peak));
          },
          [] { return TourHost::Target::RooflineChart; } },
        { [] { return tr("What bandwidth costs"); },
          [](const Scenario&) {
              Scenario s = explainerScenario("bert-base", 16, 512, Precision::MixedFP16);
              s.overrides = {}; // the datasheet's 336 GB/s instead of the explainer's 392 GB/s
              return s;
          },
          [](const SimulationResult& r) {
              const Estimate& e = r.estimate;
              return tr("<p>The explainer assumes 392 GB/s; the RTX A3000 laptop GPU's datasheet says %1. With the "
                        "datasheet figure the bandwidth-bound operators slow down and a step takes %2 (%3). Use the "
                        "what-if fields to try any bandwidth, capacity or peak.</p><p>That is the tour. <i>Finish</i> "
                        "returns to where you were; <i>Edit › Undo</i> steps back through the tour.</p>")
                  .arg(formatBandwidth(e.gpu.bandwidthBytesPerSecond), formatSeconds(e.stepSeconds),
                       formatRate(e.throughputPerSecond, tr("tokens")));
          },
          [] { return TourHost::Target::RooflineChart; } },
    };
}

void GuidedTour::buildSteps()
{
    m_steps = memorySteps();
    for (Step& step : scaleSteps())
        m_steps.push_back(std::move(step));
}

int GuidedTour::stepCount() const { return int(m_steps.size()); }

QString GuidedTour::stepTitle() const { return m_step >= 0 ? m_steps[std::size_t(m_step)].title() : QString(); }

QString GuidedTour::stepText() const
{
    if (m_step < 0)
        return {};
    return m_steps[std::size_t(m_step)].text(m_host->tourResult());
}

QWidget* GuidedTour::highlighted() const { return m_frame->isVisible() ? m_frame->target() : nullptr; }

void GuidedTour::start()
{
    if (!running())
        m_startScenario = m_host->tourScenario();
    show(0);
}

void GuidedTour::next()
{
    if (m_step + 1 < stepCount())
        show(m_step + 1);
    else
        stop();
}

void GuidedTour::back()
{
    if (m_step > 0)
        show(m_step - 1);
}

void GuidedTour::stop()
{
    m_step = -1;
    if (m_openedComparison)
        m_host->setGpuComparisonShown(false);
    m_openedComparison = false;
    m_frame->setTarget(nullptr);
    if (m_startScenario)
        m_host->applyTourScenario(*m_startScenario);
    m_startScenario.reset();
    emit finished();
}

void GuidedTour::show(int index)
{
    m_step = index;
    const Step& s = m_steps[std::size_t(index)];
    m_host->applyTourScenario(s.scenario(m_host->tourScenario()));
    const TourHost::Target target = s.target();
    if (target == TourHost::Target::GpuComparison) {
        if (!m_host->gpuComparisonShown())
            m_openedComparison = true;
        m_host->setGpuComparisonShown(true);
    } else if (m_openedComparison) {
        m_host->setGpuComparisonShown(false);
        m_openedComparison = false;
    }
    m_frame->setTarget(m_host->tourTarget(target));
    refreshText();
}

void GuidedTour::refreshText()
{
    if (m_step < 0)
        return;
    m_counter->setText(tr("Step %1 of %2").arg(m_step + 1).arg(stepCount()));
    m_title->setText(stepTitle());
    m_text->setHtml(stepText());
    m_back->setEnabled(m_step > 0);
    m_next->setText(m_step + 1 < stepCount() ? tr("&Next") : tr("&Finish"));
}

void GuidedTour::changeEvent(QEvent* event)
{
    if (!event || event->type() == QEvent::LanguageChange) {
        m_back->setText(tr("&Back"));
        m_next->setText(tr("&Next"));
        m_end->setText(tr("&End Tour"));
        refreshText();
    }
    if (event)
        QWidget::changeEvent(event);
}

} // namespace headroom::gui
