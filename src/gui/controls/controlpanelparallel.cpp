// The control panel's tensor-, pipeline-, context- and expert-parallel rows, and which stage the memory charts show.
// The values each row offers, and which choice stays while another control changes, are the core's
// (scenarioedit.h: tensorParallelChoices, ..., applyEdit); the rows show them. Tensor and pipeline splits are not
// modelled with adapters, so those rows are off for LoRA, DoRA and QLoRA.

#include "controlpanel.h"

#include "contextparallel.h"
#include "moespec.h"
#include "pipeline.h"
#include "scenario.h"
#include "scenarioedit.h"
#include "ui_controlpanel.h"

namespace headroom::gui {

namespace {

    QList<int> toList(const std::vector<int>& v) { return QList<int>(v.begin(), v.end()); }

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
    const std::pair<QComboBox*, Control> combos[] = {
        { m_ui->tpCombo, Control::TensorParallel },         { m_ui->ppCombo, Control::PipelineParallel },
        { m_ui->scheduleCombo, Control::PipelineSchedule }, { m_ui->epCombo, Control::ExpertParallel },
        { m_ui->cpCombo, Control::ContextParallel },        { m_ui->splitCombo, Control::StageSplit },
    };
    for (const auto& [combo, control] : combos) {
        connect(combo, &QComboBox::currentIndexChanged, this,
                [this, c = combo, what = control] { edit(what, std::int64_t(c->currentData().toLongLong())); });
    }
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
    QList<int> choices = toList(tensorParallelChoices(model, c));
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

    QList<int> stages = toList(pipelineChoices(model, c));
    if (!stages.contains(c.pipelineParallel))
        stages << c.pipelineParallel;
    QList<int> schedules;
    for (std::int64_t v : scheduleChoices(model, c))
        schedules << int(v);
    if (!schedules.contains(int(scheduleValue(c))))
        schedules << int(scheduleValue(c));
    QList<int> shown { -1 };
    for (int k = 0; k < c.pipelineParallel && c.pipelineParallel > 1; ++k)
        shown << k;
    QList<int> splits;
    for (std::int64_t v : stageSplitChoices(model, c))
        splits << int(v);
    if (!splits.contains(int(stageSplitValue(c))))
        splits << int(stageSplitValue(c));
    const bool changed = refill(m_ui->ppCombo, stages) | refill(m_ui->scheduleCombo, schedules)
        | refill(m_ui->stageCombo, shown) | refill(m_ui->splitCombo, splits);
    if (changed || c.pipelineParallel > 1) // the stages' blocks follow the schedule too
        retranslateParallel();
    m_ui->ppCombo->setCurrentIndex(std::max(0, m_ui->ppCombo->findData(c.pipelineParallel)));
    m_ui->scheduleCombo->setCurrentIndex(std::max(0, m_ui->scheduleCombo->findData(int(scheduleValue(c)))));
    if (m_ui->stageCombo->findData(m_shownStage) < 0) {
        m_shownStage = -1;
        emit stageShown(m_shownStage);
    }
    m_ui->stageCombo->setCurrentIndex(std::max(0, m_ui->stageCombo->findData(m_shownStage)));
    m_ui->ppCombo->setEnabled(!adapters && stages.size() > 1);
    m_ui->ppLabel->setEnabled(m_ui->ppCombo->isEnabled());
    m_ui->scheduleCombo->setEnabled(c.pipelineParallel > 1);
    m_ui->splitCombo->setCurrentIndex(std::max(0, m_ui->splitCombo->findData(int(stageSplitValue(c)))));
    m_ui->splitCombo->setEnabled(c.pipelineParallel > 1 && splits.size() > 1);

    QList<int> experts = toList(expertChoices(model, c));
    if (!experts.contains(c.expertParallel))
        experts << c.expertParallel;
    if (refill(m_ui->epCombo, experts))
        retranslateParallel();
    m_ui->epCombo->setCurrentIndex(std::max(0, m_ui->epCombo->findData(c.expertParallel)));
    m_ui->epCombo->setEnabled(experts.size() > 1);
    m_moe = model && model->family == ModelFamily::Transformer && model->transformer.moe.any();

    QList<int> contexts = toList(contextChoices(model, c));
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
    m_ui->splitCombo->setVisible(pipeline && !m_presenting);
    m_ui->cpLabel->setVisible(m_tokens && !m_presenting);
    m_ui->cpCombo->setVisible(m_tokens && !m_presenting);
    m_ui->epLabel->setVisible(m_moe && !m_presenting);
    m_ui->epCombo->setVisible(m_moe && !m_presenting);
    m_ui->stageCombo->setVisible(pipeline && !m_presenting);
    m_ui->stageLabel->setVisible(pipeline && !m_presenting);
    syncClusterVisibility();
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
    retranslateSplits(layers);
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

// Each split as the blocks of its stages, "8 + 8 + 8 + 8", or with more than four stages the runs of equal ones
// counted, "5 + 9 × 3"; the even split says so.
void ControlPanel::retranslateSplits(int layers)
{
    TrainingConfig c = m_scenario.config;
    for (int i = 0; i < m_ui->splitCombo->count(); ++i) {
        const int value = m_ui->splitCombo->itemData(i).toInt();
        setStageSplit(c, value);
        const int p = std::max(1, c.pipelineParallel);
        QList<int> counts;
        for (int k = 0; k < p; ++k) {
            int n = 0;
            for (const LayerRange& r : stageLayers(layers, c, k))
                n += r.last - r.first;
            counts << n;
        }
        QStringList parts;
        for (int k = 0; k < counts.size();) {
            int run = 1;
            while (k + run < counts.size() && counts[k + run] == counts[k])
                ++run;
            const bool spell = counts.size() <= 4 || run == 1;
            for (int r = 0; r < (spell ? run : 1); ++r)
                parts << (spell ? QString::number(counts[k]) : tr("%1 × %2").arg(counts[k]).arg(run));
            k += run;
        }
        const QString blocks = parts.join(QStringLiteral(" + "));
        const bool equal = std::all_of(counts.begin(), counts.end(), [&](int n) { return n == counts.front(); });
        m_ui->splitCombo->setItemText(i,
                                      value != 0  ? blocks
                                          : equal ? tr("even (%1)").arg(blocks)
                                                  : tr("default (%1)").arg(blocks));
    }
}

QComboBox* ControlPanel::tensorParallelCombo() const { return m_ui->tpCombo; }
QComboBox* ControlPanel::pipelineCombo() const { return m_ui->ppCombo; }
QComboBox* ControlPanel::stageCombo() const { return m_ui->stageCombo; }
QComboBox* ControlPanel::expertParallelCombo() const { return m_ui->epCombo; }
QComboBox* ControlPanel::contextParallelCombo() const { return m_ui->cpCombo; }
QComboBox* ControlPanel::stageSplitCombo() const { return m_ui->splitCombo; }

} // namespace headroom::gui
