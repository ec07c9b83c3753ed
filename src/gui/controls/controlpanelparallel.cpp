// The control panel's tensor-, pipeline-, context- and expert-parallel rows: the ways a model's blocks can be split
// (every t up to 64 that divides its attention heads, key/value heads and FFN width; every p up to 64 that divides
// its blocks; the schedules the core accepts at the current micro-batches per step, as validateForModel asks;
// context splits of a token sequence under fused attention; for a mixture of experts every ep that divides the
// data-parallel GPUs and the experts), the choice kept while another control changes, and which stage the memory
// charts show. Tensor and pipeline splits are not modelled with adapters, so those rows are off for LoRA, DoRA and
// QLoRA.

#include "controlpanel.h"

#include "contextparallel.h"
#include "moespec.h"
#include "pipeline.h"
#include "scenario.h"
#include "ui_controlpanel.h"

namespace headroom::gui {

namespace {

    // The tensor-parallel sizes a model accepts, 1 first.
    QList<int> tensorParallelChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { 1 };
        if (!model || model->family != ModelFamily::Transformer)
            return out;
        TrainingConfig c = config;
        c.finetune = {};
        for (int t = 2; t <= 64; t *= 2) {
            c.tensorParallel = t;
            if (!validateForModel(*model, c, "window"))
                out << t;
        }
        return out;
    }

    // Pipeline stages that split the blocks evenly, 1 first.
    QList<int> pipelineChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { 1 };
        if (!model || model->family != ModelFamily::Transformer)
            return out;
        TrainingConfig c = config;
        c.finetune = {};
        c.pipelineSchedule = PipelineSchedule::OneFOneB;
        c.virtualStages = 1;
        c.pipelineStage = 0;
        c.firstStageLayers = c.lastStageLayers = 0; // an even split: uneven stages end when p changes
        for (int p = 2; p <= std::min(64, model->transformer.layers); ++p) {
            c.pipelineParallel = p;
            if (model->transformer.layers % p == 0 && !validateForModel(*model, c, "window"))
                out << p;
        }
        return out;
    }

    // The schedules the core takes here: 1F1B and GPipe always, interleaving two chunks when they split the blocks
    // and p divides the micro-batches per step. The combo's data: the schedule, and v in the high bits.
    QList<int> scheduleChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { int(PipelineSchedule::OneFOneB), int(PipelineSchedule::GPipe) };
        if (!model || config.pipelineParallel < 2)
            return out;
        TrainingConfig c = config;
        c.finetune = {};
        c.pipelineSchedule = PipelineSchedule::Interleaved;
        c.virtualStages = 2;
        c.pipelineStage = 0;
        c.firstStageLayers = c.lastStageLayers = 0; // choosing interleaving ends uneven stages
        if (!validateForModel(*model, c, "window"))
            out << (int(PipelineSchedule::Interleaved) | (2 << 8));
        return out;
    }

    // Expert-parallel sizes for a mixture of experts: every ep up to 64 that divides the data-parallel GPUs and the
    // experts (validateExperts), 1 first.
    QList<int> expertChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { 1 };
        if (!model || model->family != ModelFamily::Transformer || !model->transformer.moe.any())
            return out;
        TrainingConfig c = config;
        for (int ep = 2; ep <= std::min(64, config.dataParallel); ++ep) {
            c.expertParallel = ep;
            if (!validateExperts(*model, c, "window"))
                out << ep;
        }
        return out;
    }

    // Context-parallel sizes, powers of two up to 16 that validateContext takes (fused attention, 2 cp dividing the
    // tokens), 1 first.
    QList<int> contextChoices(const ModelSpec* model, const TrainingConfig& config)
    {
        QList<int> out { 1 };
        if (!model)
            return out;
        TrainingConfig c = config;
        for (int cp = 2; cp <= 16; cp *= 2) {
            c.contextParallel = cp;
            if (!validateContext(*model, c, "window"))
                out << cp;
        }
        return out;
    }

    int scheduleData(const TrainingConfig& c)
    {
        return c.pipelineSchedule == PipelineSchedule::Interleaved ? int(c.pipelineSchedule) | (c.virtualStages << 8)
                                                                   : int(c.pipelineSchedule);
    }

    // Fills a combo with `values` unless it already holds them (a slider tick leaves the list as it is).
    bool refill(QComboBox* combo, const QList<int>& values)
    {
        bool same = combo->count() == values.size();
        for (int i = 0; same && i < values.size(); ++i)
            same = combo->itemData(i).toInt() == values[i];
        if (same)
            return false;
        const QSignalBlocker block(combo);
        combo->clear();
        for (int v : values)
            combo->addItem(QString(), v);
        return true;
    }

} // namespace

void ControlPanel::setupParallel()
{
    connect(m_ui->tpCombo, &QComboBox::currentIndexChanged, this, [this] { edited(QStringLiteral("tensorParallel")); });
    connect(m_ui->ppCombo, &QComboBox::currentIndexChanged, this,
            [this] { edited(QStringLiteral("pipelineParallel")); });
    connect(m_ui->scheduleCombo, &QComboBox::currentIndexChanged, this,
            [this] { edited(QStringLiteral("pipelineSchedule")); });
    connect(m_ui->epCombo, &QComboBox::currentIndexChanged, this, [this] { edited(QStringLiteral("expertParallel")); });
    connect(m_ui->cpCombo, &QComboBox::currentIndexChanged, this,
            [this] { edited(QStringLiteral("contextParallel")); });
    connect(m_ui->stageCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_syncing)
            return;
        m_shownStage = m_ui->stageCombo->currentData().toInt();
        emit stageShown(m_shownStage);
    });
    setupCluster();
}

void ControlPanel::syncParallel(const ModelSpec* model)
{
    const TrainingConfig& c = m_scenario.config;
    QList<int> choices = tensorParallelChoices(model, c);
    if (!choices.contains(c.tensorParallel))
        choices << c.tensorParallel; // a scenario's own value stays visible, and the core says what is wrong with it
    bool same = m_ui->tpCombo->count() == choices.size();
    for (int i = 0; same && i < choices.size(); ++i)
        same = m_ui->tpCombo->itemData(i).toInt() == choices[i];
    if (!same) { // only when the model changes: a slider tick leaves the list as it is
        m_ui->tpCombo->clear();
        for (int t : choices)
            m_ui->tpCombo->addItem(QString::number(t), t);
        retranslateParallel();
    }
    m_ui->tpCombo->setCurrentIndex(std::max(0, m_ui->tpCombo->findData(c.tensorParallel)));
    const bool adapters = c.finetune.adapters();
    m_ui->tpCombo->setEnabled(!adapters && choices.size() > 1);
    m_ui->tpLabel->setEnabled(m_ui->tpCombo->isEnabled());

    QList<int> stages = pipelineChoices(model, c);
    if (!stages.contains(c.pipelineParallel))
        stages << c.pipelineParallel;
    QList<int> schedules = scheduleChoices(model, c);
    if (!schedules.contains(scheduleData(c)))
        schedules << scheduleData(c);
    QList<int> shown { -1 };
    for (int k = 0; k < c.pipelineParallel && c.pipelineParallel > 1; ++k)
        shown << k;
    const bool changed = refill(m_ui->ppCombo, stages) | refill(m_ui->scheduleCombo, schedules)
        | refill(m_ui->stageCombo, shown);
    if (changed || c.pipelineParallel > 1) // the stages' blocks follow the schedule too
        retranslateParallel();
    m_ui->ppCombo->setCurrentIndex(std::max(0, m_ui->ppCombo->findData(c.pipelineParallel)));
    m_ui->scheduleCombo->setCurrentIndex(std::max(0, m_ui->scheduleCombo->findData(scheduleData(c))));
    if (m_ui->stageCombo->findData(m_shownStage) < 0) {
        m_shownStage = -1;
        emit stageShown(m_shownStage);
    }
    m_ui->stageCombo->setCurrentIndex(std::max(0, m_ui->stageCombo->findData(m_shownStage)));
    m_ui->ppCombo->setEnabled(!adapters && stages.size() > 1);
    m_ui->ppLabel->setEnabled(m_ui->ppCombo->isEnabled());
    m_ui->scheduleCombo->setEnabled(c.pipelineParallel > 1);

    QList<int> experts = expertChoices(model, c);
    if (!experts.contains(c.expertParallel))
        experts << c.expertParallel;
    if (refill(m_ui->epCombo, experts))
        retranslateParallel();
    m_ui->epCombo->setCurrentIndex(std::max(0, m_ui->epCombo->findData(c.expertParallel)));
    m_ui->epCombo->setEnabled(experts.size() > 1);
    m_moe = model && model->family == ModelFamily::Transformer && model->transformer.moe.any();

    QList<int> contexts = contextChoices(model, c);
    if (!contexts.contains(c.contextParallel))
        contexts << c.contextParallel;
    if (refill(m_ui->cpCombo, contexts))
        retranslateParallel();
    m_ui->cpCombo->setCurrentIndex(std::max(0, m_ui->cpCombo->findData(c.contextParallel)));
    m_ui->cpCombo->setEnabled(contexts.size() > 1);
    m_ui->cpLabel->setEnabled(m_ui->cpCombo->isEnabled());
    m_tokens = model && model->family == ModelFamily::Transformer && model->transformer.input == InputKind::Tokens;
    syncCluster(model);
    syncParallelVisibility();
}

void ControlPanel::syncParallelVisibility()
{
    const bool pipeline = m_scenario.config.pipelineParallel > 1;
    for (QWidget* w : { static_cast<QWidget*>(m_ui->ppLabel), static_cast<QWidget*>(m_ui->ppCombo),
                        static_cast<QWidget*>(m_ui->scheduleCombo) })
        w->setVisible(!m_presenting);
    m_ui->cpLabel->setVisible(m_tokens && !m_presenting);
    m_ui->cpCombo->setVisible(m_tokens && !m_presenting);
    m_ui->epLabel->setVisible(m_moe && !m_presenting);
    m_ui->epCombo->setVisible(m_moe && !m_presenting);
    m_ui->stageCombo->setVisible(pipeline && !m_presenting);
    m_ui->stageLabel->setVisible(pipeline && !m_presenting);
    syncClusterVisibility();
}

void ControlPanel::editParallel(const QString& control, const ModelSpec* model, bool modelChanged)
{
    TrainingConfig& c = m_scenario.config;
    if (control == QLatin1String("tensorParallel"))
        c.tensorParallel = m_ui->tpCombo->currentData().toInt();
    if (control == QLatin1String("pipelineParallel"))
        c.pipelineParallel = m_ui->ppCombo->currentData().toInt();
    if (control == QLatin1String("pipelineSchedule")) {
        const int data = m_ui->scheduleCombo->currentData().toInt();
        c.pipelineSchedule = PipelineSchedule(data & 0xff);
        c.virtualStages = std::max(1, data >> 8);
    }
    // A schedule the new layout does not take falls back to 1F1B; without a pipeline there is none to choose.
    if (c.pipelineSchedule == PipelineSchedule::Interleaved
        && (c.pipelineParallel < 2 || !scheduleChoices(model, c).contains(scheduleData(c)))) {
        c.pipelineSchedule = PipelineSchedule::OneFOneB;
        c.virtualStages = 1;
    }
    c.pipelineStage = 0;
    // Expert parallelism splits the data-parallel GPUs: when they (or the model) change, the largest split that
    // still divides them and the experts stays.
    if (control == QLatin1String("expertParallel"))
        c.expertParallel = m_ui->epCombo->currentData().toInt();
    else if (const QList<int> experts = expertChoices(model, c); !experts.contains(c.expertParallel)) {
        int kept = 1;
        for (int ep : experts)
            kept = ep <= c.expertParallel ? ep : kept;
        c.expertParallel = kept;
    }
    editCluster(control);
    // Context parallelism needs fused attention and a sequence it splits: another attention or sequence ends it.
    if (control == QLatin1String("contextParallel"))
        c.contextParallel = m_ui->cpCombo->currentData().toInt();
    else if (c.contextParallel != 1 && !contextChoices(model, c).contains(c.contextParallel))
        c.contextParallel = 1;
    // A new model, or adapters, keep only a split that the core accepts there.
    if ((modelChanged || control == QLatin1String("finetuneCombo")) && c.tensorParallel != 1
        && (c.finetune.adapters() || !tensorParallelChoices(model, c).contains(c.tensorParallel)))
        c.tensorParallel = 1;
    if ((modelChanged || control == QLatin1String("finetuneCombo")) && c.pipelineParallel != 1
        && (c.finetune.adapters() || !pipelineChoices(model, c).contains(c.pipelineParallel))) {
        c.pipelineParallel = 1;
        c.pipelineSchedule = PipelineSchedule::OneFOneB;
        c.virtualStages = 1;
    }
    // Uneven stages (a scenario file's first_stage_layers and last_stage_layers) stay while the layout takes them;
    // another p, model or schedule returns to an even split.
    if ((c.firstStageLayers > 0 || c.lastStageLayers > 0)
        && (!model || c.pipelineParallel < 2 || !unevenStagesProblem(model->transformer.layers, c).empty()))
        c.firstStageLayers = c.lastStageLayers = 0;
}

void ControlPanel::retranslateParallel()
{
    retranslateCluster();
    for (int i = 0; i < m_ui->tpCombo->count(); ++i) {
        const int t = m_ui->tpCombo->itemData(i).toInt();
        m_ui->tpCombo->setItemText(i, t == 1 ? tr("1 (no tensor parallelism)") : QString::number(t));
    }
    for (int i = 0; i < m_ui->ppCombo->count(); ++i) {
        const int p = m_ui->ppCombo->itemData(i).toInt();
        m_ui->ppCombo->setItemText(i, p == 1 ? tr("1 (no pipeline)") : QString::number(p));
    }
    for (int i = 0; i < m_ui->scheduleCombo->count(); ++i) {
        const int data = m_ui->scheduleCombo->itemData(i).toInt();
        switch (PipelineSchedule(data & 0xff)) {
        case PipelineSchedule::OneFOneB:
            m_ui->scheduleCombo->setItemText(i, tr("1F1B"));
            break;
        case PipelineSchedule::GPipe:
            m_ui->scheduleCombo->setItemText(i, tr("GPipe"));
            break;
        case PipelineSchedule::Interleaved:
            m_ui->scheduleCombo->setItemText(i, tr("Interleaved ×%1").arg(data >> 8));
            break;
        }
    }
    const ModelSpec* model = m_catalog ? m_catalog->model(m_scenario.modelId) : nullptr;
    for (int i = 0; i < m_ui->cpCombo->count(); ++i) {
        const int cp = m_ui->cpCombo->itemData(i).toInt();
        m_ui->cpCombo->setItemText(i,
                                   cp == 1 ? tr("1 (whole sequences on every GPU)")
                                           : tr("%1 (1/%1 of each sequence per GPU)").arg(cp));
    }
    const int experts = model ? model->transformer.moe.experts : 0;
    for (int i = 0; i < m_ui->epCombo->count(); ++i) {
        const int ep = m_ui->epCombo->itemData(i).toInt();
        m_ui->epCombo->setItemText(i,
                                   ep == 1 ? tr("1 (all %1 experts on every GPU)").arg(experts)
                                           : tr("%1 (experts per GPU: %2)").arg(ep).arg(experts / ep));
    }
    const int layers = model ? model->transformer.layers : 0;
    for (int i = 0; i < m_ui->stageCombo->count(); ++i) {
        const int k = m_ui->stageCombo->itemData(i).toInt();
        if (k < 0) {
            m_ui->stageCombo->setItemText(i, tr("the most loaded stage"));
            continue;
        }
        QStringList blocks;
        for (const LayerRange& r : stageLayers(layers, m_scenario.config, k))
            blocks << tr("%1–%2").arg(r.first + 1).arg(r.last);
        m_ui->stageCombo->setItemText(i, tr("stage %1 (blocks %2)").arg(k + 1).arg(blocks.join(QStringLiteral(", "))));
    }
}

QComboBox* ControlPanel::tensorParallelCombo() const { return m_ui->tpCombo; }
QComboBox* ControlPanel::pipelineCombo() const { return m_ui->ppCombo; }
QComboBox* ControlPanel::stageCombo() const { return m_ui->stageCombo; }
QComboBox* ControlPanel::expertParallelCombo() const { return m_ui->epCombo; }
QComboBox* ControlPanel::contextParallelCombo() const { return m_ui->cpCombo; }

} // namespace headroom::gui
