#include "precisiongroup.h"

#include "labels.h"
#include "ui_precisiongroup.h"

#include <QSignalBlocker>

#include <utility>

namespace headroom::gui {

namespace {

    // The entries of an enum's combo in the window's language, the one chosen kept.
    template <typename E>
    void fillCombo(QComboBox* combo, std::initializer_list<E> values, QString (*label)(E))
    {
        const QVariant current = combo->currentData();
        const QSignalBlocker blocker(combo);
        combo->clear();
        for (E v : values)
            combo->addItem(label(v), int(v));
        const int i = combo->findData(current);
        if (i >= 0)
            combo->setCurrentIndex(i);
    }

    template <typename E>
    void selectData(QComboBox* combo, E v)
    {
        const int i = combo->findData(int(v));
        if (i >= 0)
            combo->setCurrentIndex(i);
    }

} // namespace

PrecisionGroup::PrecisionGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::PrecisionGroup>())
{
    m_ui->setupUi(this);
    populateChoices();
    const std::pair<QComboBox*, Control> combos[] = {
        { m_ui->precisionCombo, Control::Precision }, { m_ui->styleCombo, Control::MixedStyle },
        { m_ui->optimizerCombo, Control::Optimizer }, { m_ui->checkpointingCombo, Control::Checkpointing },
        { m_ui->attentionCombo, Control::Attention }, { m_ui->loopCombo, Control::Loop },
    };
    for (const auto& [combo, control] : combos)
        editOnChoice(combo, control);
    connect(m_ui->channelsLastCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::ChannelsLast, on); });
}

PrecisionGroup::~PrecisionGroup() = default;

void PrecisionGroup::populateChoices()
{
    fillCombo(m_ui->precisionCombo,
              { Precision::FP32, Precision::TF32, Precision::MixedFP16, Precision::MixedBF16, Precision::PureBF16,
                Precision::MixedFP8 },
              &Labels::precision);
    fillCombo(m_ui->styleCombo, { MixedPrecisionStyle::Autocast, MixedPrecisionStyle::MasterWeights },
              &Labels::mixedStyle);
    fillCombo(m_ui->optimizerCombo,
              { OptimizerKind::AdamW, OptimizerKind::Adam, OptimizerKind::SGD, OptimizerKind::SGDMomentum,
                OptimizerKind::AdamW8bit, OptimizerKind::Adafactor, OptimizerKind::PagedAdamW,
                OptimizerKind::PagedAdamW8bit },
              &Labels::optimizer);
    fillCombo(m_ui->checkpointingCombo, { Checkpointing::None, Checkpointing::Selective, Checkpointing::Full },
              &Labels::checkpointing);
    fillCombo(m_ui->attentionCombo, { AttentionImpl::Eager, AttentionImpl::Fused }, &Labels::attention);
    fillCombo(m_ui->loopCombo, { TrainingLoop::KeepOutputs, TrainingLoop::DropOutputs }, &Labels::loop);
}

void PrecisionGroup::sync(const Scenario& scenario, const Catalog& catalog)
{
    const TrainingConfig& c = scenario.config;
    const ModelSpec* model = catalog.model(scenario.modelId);
    m_vision = model && model->isVision();
    selectData(m_ui->precisionCombo, c.precision);
    selectData(m_ui->styleCombo, c.mixedStyle);
    // Where the weights are kept only means something in mixed precision (not in FP32, TF32 or pure BF16).
    m_ui->styleCombo->setEnabled(isMixed(c.precision));
    m_ui->styleLabel->setEnabled(isMixed(c.precision));
    selectData(m_ui->optimizerCombo, c.optimizer);
    selectData(m_ui->checkpointingCombo, c.checkpointing);
    selectData(m_ui->attentionCombo, c.attention);
    selectData(m_ui->loopCombo, c.loop);
    m_ui->channelsLastCheck->setChecked(c.channelsLast);
    m_ui->channelsLastCheck->setVisible(m_vision && !m_presenting); // only convolutions have a memory format
}

void PrecisionGroup::setPresentationMode(bool on)
{
    m_presenting = on;
    for (QWidget* w :
         std::initializer_list<QWidget*> { m_ui->styleCombo, m_ui->styleLabel, m_ui->loopLabel, m_ui->loopCombo })
        w->setVisible(!on);
    m_ui->channelsLastCheck->setVisible(!on && m_vision);
}

void PrecisionGroup::retranslate()
{
    m_ui->retranslateUi(this);
    populateChoices();
}

QComboBox* PrecisionGroup::precisionCombo() const { return m_ui->precisionCombo; }
QComboBox* PrecisionGroup::optimizerCombo() const { return m_ui->optimizerCombo; }
QComboBox* PrecisionGroup::checkpointingCombo() const { return m_ui->checkpointingCombo; }
QComboBox* PrecisionGroup::attentionCombo() const { return m_ui->attentionCombo; }
QComboBox* PrecisionGroup::loopCombo() const { return m_ui->loopCombo; }

} // namespace headroom::gui
