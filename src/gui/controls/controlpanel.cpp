#include "controlpanel.h"

#include "wheelguard.h"

#include "allocatorgroup.h"
#include "batchgroup.h"
#include "finetunegroup.h"
#include "gpumodelgroup.h"
#include "hostgroup.h"
#include "overridegroup.h"
#include "parallelgroup.h"
#include "precisiongroup.h"
#include "ui_controlpanel.h"

#include <QComboBox>
#include <QEvent>
#include <QSpinBox>

namespace headroom::gui {

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::ControlPanel>())
{
    m_ui->setupUi(this);
    for (ControlGroup* group : groups()) {
        connect(group, &ControlGroup::edited, this, [this](const ScenarioEdit& edit, bool dragging) {
            if (m_catalog)
                emit edited(edit, dragging);
        });
        // A group's words are in the new language: what it shows of the scenario is set again (whichever of the
        // panel and the group had LanguageChange first).
        connect(group, &ControlGroup::retranslated, this, [this, group] {
            if (m_catalog)
                group->showScenario(m_scenario, *m_catalog);
        });
    }
    connect(m_ui->parallelGroup, &ParallelGroup::stageShown, this, &ControlPanel::stageShown);
    connect(m_ui->hardwareGroup, &GpuModelGroup::noteRequested, this, &ControlPanel::noteRequested);
    // A combo's minimum is a short name, not its longest entry ("B300 (HGX B300 ... Blackwell Ultra)"): the panel's
    // minimum width (which the window keeps it from going below) then leaves a 1024-pixel window room for the charts.
    for (QComboBox* c : findChildren<QComboBox*>()) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    WheelGuard::install(this);
}

ControlPanel::~ControlPanel() = default;

std::array<ControlGroup*, 8> ControlPanel::groups() const
{
    return { m_ui->hardwareGroup, m_ui->workloadGroup,  m_ui->precisionGroup, m_ui->finetuneGroup,
             m_ui->parallelGroup, m_ui->allocatorGroup, m_ui->hostGroup,      m_ui->overrideGroup };
}

void ControlPanel::setCatalog(const Catalog* catalog)
{
    m_catalog = catalog;
    m_ui->hardwareGroup->setCatalog(catalog);
    syncFromScenario();
}

void ControlPanel::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    syncFromScenario();
}

void ControlPanel::syncFromScenario()
{
    if (!m_catalog)
        return;
    for (ControlGroup* group : groups())
        group->showScenario(m_scenario, *m_catalog);
    updateRangeNote();
}

// The scenario's values that a control cannot show (a micro-batch past the spin box's range, ...) stay until that
// control is edited, and the note says so.
void ControlPanel::updateRangeNote()
{
    const TrainingConfig& c = m_scenario.config;
    const BatchGroup* batch = m_ui->workloadGroup;
    QStringList beyond;
    auto check = [&](std::int64_t value, const QSpinBox* spin, const QString& what) {
        if (value < spin->minimum() || value > spin->maximum())
            beyond << tr("%1 %2 (the control shows %3)").arg(what).arg(value).arg(spin->value());
    };
    check(c.microBatch, batch->batchSpin(), tr("micro-batch"));
    check(c.sequenceLength, batch->sequenceSpin(), batch->vision() ? tr("image side") : tr("sequence length"));
    check(c.gradientAccumulation, batch->accumulationSpin(), tr("accumulation steps"));
    check(c.dataParallel, m_ui->parallelGroup->dataParallelSpin(), tr("data-parallel GPUs"));
    if (c.finetune.adapters())
        check(c.finetune.loraRank, m_ui->finetuneGroup->rankSpin(), tr("LoRA rank"));
    m_ui->workloadGroup->setRangeNote(
        beyond.isEmpty()
            ? QString()
            : tr("Kept from the scenario, beyond the controls' range: %1. Changing that control replaces it.")
                  .arg(beyond.join(QStringLiteral("; "))));
}

void ControlPanel::setPresentationMode(bool on)
{
    // In front of a class only the essential controls stay: each group says which.
    for (ControlGroup* group : groups())
        group->setPresentationMode(on);
}

void ControlPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        updateRangeNote();
    }
    QWidget::changeEvent(event);
}

std::int64_t ControlPanel::batchFromPosition(int position) const
{
    return m_ui->workloadGroup->batchFromPosition(position);
}
int ControlPanel::positionFromBatch(std::int64_t batch) const { return m_ui->workloadGroup->positionFromBatch(batch); }
QSlider* ControlPanel::batchSlider() const { return m_ui->workloadGroup->batchSlider(); }
QSlider* ControlPanel::sequenceSlider() const { return m_ui->workloadGroup->sequenceSlider(); }
QString ControlPanel::rangeNoteText() const { return m_ui->workloadGroup->rangeNoteText(); }
QSlider* ControlPanel::zeroSlider() const { return m_ui->parallelGroup->zeroSlider(); }
QSlider* ControlPanel::dataParallelSlider() const { return m_ui->parallelGroup->dataParallelSlider(); }
QComboBox* ControlPanel::tensorParallelCombo() const { return m_ui->parallelGroup->tensorParallelCombo(); }
QComboBox* ControlPanel::pipelineCombo() const { return m_ui->parallelGroup->pipelineCombo(); }
QComboBox* ControlPanel::stageCombo() const { return m_ui->parallelGroup->stageCombo(); }
QComboBox* ControlPanel::expertParallelCombo() const { return m_ui->parallelGroup->expertParallelCombo(); }
QComboBox* ControlPanel::contextParallelCombo() const { return m_ui->parallelGroup->contextParallelCombo(); }
QComboBox* ControlPanel::stageSplitCombo() const { return m_ui->parallelGroup->stageSplitCombo(); }
QComboBox* ControlPanel::gpuCombo() const { return m_ui->hardwareGroup->gpuCombo(); }
QComboBox* ControlPanel::modelCombo() const { return m_ui->hardwareGroup->modelCombo(); }
QComboBox* ControlPanel::precisionCombo() const { return m_ui->precisionGroup->precisionCombo(); }
QComboBox* ControlPanel::optimizerCombo() const { return m_ui->precisionGroup->optimizerCombo(); }
QComboBox* ControlPanel::checkpointingCombo() const { return m_ui->precisionGroup->checkpointingCombo(); }
QComboBox* ControlPanel::attentionCombo() const { return m_ui->precisionGroup->attentionCombo(); }
QComboBox* ControlPanel::loopCombo() const { return m_ui->precisionGroup->loopCombo(); }
QComboBox* ControlPanel::finetuneCombo() const { return m_ui->finetuneGroup->methodCombo(); }
QSpinBox* ControlPanel::loraRankSpin() const { return m_ui->finetuneGroup->rankSpin(); }
QComboBox* ControlPanel::loraTargetsCombo() const { return m_ui->finetuneGroup->targetsCombo(); }
QDoubleSpinBox* ControlPanel::loraDropoutSpin() const { return m_ui->finetuneGroup->dropoutSpin(); }
QSpinBox* ControlPanel::frozenLayersSpin() const { return m_ui->finetuneGroup->frozenLayersSpin(); }

} // namespace headroom::gui
