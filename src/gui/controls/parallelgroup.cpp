#include "parallelgroup.h"

#include "contextparallel.h"
#include "links.h"
#include "moespec.h"
#include "pipeline.h"
#include "scenarioedit.h"
#include "sliderlink.h"
#include "timemodel.h"
#include "ui_parallelgroup.h"

#include <QSignalBlocker>

#include <algorithm>

namespace headroom::gui {

namespace {

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

    // The core's choices for a row, with the scenario's own value kept visible (the core says what is wrong with it).
    template <typename Values>
    QList<int> withOwn(const Values& choices, int own)
    {
        QList<int> list;
        for (auto v : choices)
            list << int(v);
        if (!list.contains(own))
            list << own;
        return list;
    }

    constexpr LinkKind kIntraLinks[] = { LinkKind::Auto,         LinkKind::PcieShm, LinkKind::Pcie4,  LinkKind::Pcie5,
                                         LinkKind::NvlinkBridge, LinkKind::Nvlink3, LinkKind::Nvlink4 };
    constexpr LinkKind kInterLinks[] = { LinkKind::Auto, LinkKind::Ethernet100, LinkKind::InfinibandHdr,
                                         LinkKind::InfinibandNdr };

} // namespace

ParallelGroup::ParallelGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::ParallelGroup>())
{
    m_ui->setupUi(this);
    const std::pair<QComboBox*, Control> combos[] = {
        { m_ui->tpCombo, Control::TensorParallel },         { m_ui->ppCombo, Control::PipelineParallel },
        { m_ui->scheduleCombo, Control::PipelineSchedule }, { m_ui->epCombo, Control::ExpertParallel },
        { m_ui->cpCombo, Control::ContextParallel },        { m_ui->splitCombo, Control::StageSplit },
    };
    for (const auto& [combo, control] : combos)
        editOnChoice(combo, control);
    connect(m_ui->stageCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (syncing())
            return;
        m_shownStage = m_ui->stageCombo->currentData().toInt();
        emit stageShown(m_shownStage);
    });
    connect(m_ui->zeroSlider, &QSlider::valueChanged, this,
            [this](int stage) { edit(Control::ZeroStage, std::int64_t(stage), m_ui->zeroSlider->isSliderDown()); });
    connect(m_ui->zeroSlider, &QSlider::sliderReleased, this,
            [this] { edit(Control::ZeroStage, std::int64_t(m_ui->zeroSlider->value())); });
    linkSliderAndSpin(
        this, m_ui->dpSlider, m_ui->dpSpin, syncingFlag(), [](int p) { return fromLog(p, 1.0); },
        [](int v) { return toLog(v, 1.0); },
        [this](std::int64_t gpus, bool dragging) { edit(Control::DataParallel, gpus, dragging); });
    connect(m_ui->offloadCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::OptimizerOffload, on); });
    setupCluster();
}

ParallelGroup::~ParallelGroup() = default;

void ParallelGroup::setupCluster()
{
    for (LinkKind k : kIntraLinks)
        m_ui->intraLinkCombo->addItem(QString(), int(k));
    for (LinkKind k : kInterLinks)
        m_ui->interLinkCombo->addItem(QString(), int(k));
    m_ui->perNodeSpin->setSpecialValueText(tr("one node"));
    connect(m_ui->spCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::SequenceParallel, on); });
    connect(m_ui->perNodeSpin, &QSpinBox::valueChanged, this,
            [this](int n) { edit(Control::GpusPerNode, std::int64_t(n)); });
    editOnChoice(m_ui->intraLinkCombo, Control::IntraLink);
    editOnChoice(m_ui->interLinkCombo, Control::InterLink);
}

void ParallelGroup::sync(const Scenario& scenario, const Catalog& catalog)
{
    const Shown s { scenario.config, catalog.model(scenario.modelId), catalog.gpu(scenario.gpuId) };
    const TrainingConfig& c = s.config;
    m_ui->zeroSlider->setValue(c.zeroStage);
    m_ui->zeroValue->setText(tr("stage %1").arg(c.zeroStage));
    m_ui->dpSpin->setValue(c.dataParallel);
    m_ui->dpSlider->setValue(toLog(double(c.dataParallel), 1.0));
    m_ui->offloadCheck->setChecked(c.offloadOptimizer);
    syncTensorAndPipeline(s);
    syncExpertsAndContext(s);
    syncCluster(s);
    m_pipeline = c.pipelineParallel > 1;
    m_severalGpus = jobGpus(c) > 1;
    syncVisibility();
}

void ParallelGroup::syncTensorAndPipeline(const Shown& s)
{
    const TrainingConfig& c = s.config;
    const QList<int> tensor = withOwn(tensorParallelChoices(s.model, c), c.tensorParallel);
    const QList<int> stages = withOwn(pipelineChoices(s.model, c), c.pipelineParallel);
    const QList<int> schedules = withOwn(scheduleChoices(s.model, c), int(scheduleValue(c)));
    const QList<int> splits = withOwn(stageSplitChoices(s.model, c), int(stageSplitValue(c)));
    QList<int> shown { -1 };
    for (int k = 0; k < c.pipelineParallel && c.pipelineParallel > 1; ++k)
        shown << k;
    const bool changed = refill(m_ui->tpCombo, tensor) | refill(m_ui->ppCombo, stages)
        | refill(m_ui->scheduleCombo, schedules) | refill(m_ui->stageCombo, shown) | refill(m_ui->splitCombo, splits);
    if (changed || c.pipelineParallel > 1) // the stages' blocks follow the schedule too
        retranslateRows(s);
    const bool adapters = c.finetune.adapters();
    m_ui->tpCombo->setCurrentIndex(std::max(0, m_ui->tpCombo->findData(c.tensorParallel)));
    m_ui->tpCombo->setEnabled(!adapters && tensor.size() > 1);
    m_ui->tpLabel->setEnabled(m_ui->tpCombo->isEnabled());
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
}

void ParallelGroup::syncExpertsAndContext(const Shown& s)
{
    const TrainingConfig& c = s.config;
    const QList<int> experts = withOwn(expertChoices(s.model, c), c.expertParallel);
    const QList<int> contexts = withOwn(contextChoices(s.model, c), c.contextParallel);
    if (refill(m_ui->epCombo, experts) | refill(m_ui->cpCombo, contexts))
        retranslateRows(s);
    m_ui->epCombo->setCurrentIndex(std::max(0, m_ui->epCombo->findData(c.expertParallel)));
    m_ui->epCombo->setEnabled(experts.size() > 1);
    m_moe = s.model && s.model->family == ModelFamily::Transformer && s.model->transformer.moe.any();
    m_ui->cpCombo->setCurrentIndex(std::max(0, m_ui->cpCombo->findData(c.contextParallel)));
    m_ui->cpCombo->setEnabled(contexts.size() > 1);
    m_ui->cpLabel->setEnabled(m_ui->cpCombo->isEnabled());
    m_tokens = s.model && s.model->family == ModelFamily::Transformer
        && s.model->transformer.input == InputKind::Tokens;
}

// Sequence parallelism beside tensor parallelism, and where the job's GPUs sit (src/core/spec/links.h). The links
// set the communication time only; they show once the job has more than one GPU.
void ParallelGroup::syncCluster(const Shown& s)
{
    const TrainingConfig& c = s.config;
    m_ui->spCheck->setChecked(c.sequenceParallel);
    TrainingConfig withSp = c;
    withSp.sequenceParallel = true;
    m_ui->spCheck->setEnabled(c.sequenceParallel
                              || (s.model && c.tensorParallel > 1 && !validateForModel(*s.model, withSp, "window")));
    m_ui->perNodeSpin->setValue(c.cluster.gpusPerNode);
    m_ui->intraLinkCombo->setCurrentIndex(std::max(0, m_ui->intraLinkCombo->findData(int(c.cluster.intraLink))));
    m_ui->interLinkCombo->setCurrentIndex(std::max(0, m_ui->interLinkCombo->findData(int(c.cluster.interLink))));
    m_ui->interLinkCombo->setEnabled(c.cluster.gpusPerNode > 0 && jobGpus(c) > c.cluster.gpusPerNode);
    retranslateLinks(s);
}

void ParallelGroup::setPresentationMode(bool on)
{
    m_presenting = on;
    for (QWidget* w : std::initializer_list<QWidget*> { m_ui->offloadCheck, m_ui->dpLabel, m_ui->dpSlider, m_ui->dpSpin,
                                                        m_ui->tpLabel, m_ui->tpCombo })
        w->setVisible(!on);
    syncVisibility();
}

// Hidden in presentation; the stage row only with stages, the expert row only for a mixture of experts, the context
// row only for token sequences, the nodes and links only for more than one GPU.
void ParallelGroup::syncVisibility()
{
    for (QWidget* w :
         std::initializer_list<QWidget*> { m_ui->ppLabel, m_ui->ppCombo, m_ui->scheduleCombo, m_ui->spCheck })
        w->setVisible(!m_presenting);
    m_ui->splitCombo->setVisible(m_pipeline && !m_presenting);
    m_ui->cpLabel->setVisible(m_tokens && !m_presenting);
    m_ui->cpCombo->setVisible(m_tokens && !m_presenting);
    m_ui->epLabel->setVisible(m_moe && !m_presenting);
    m_ui->epCombo->setVisible(m_moe && !m_presenting);
    m_ui->stageCombo->setVisible(m_pipeline && !m_presenting);
    m_ui->stageLabel->setVisible(m_pipeline && !m_presenting);
    for (QWidget* w : std::initializer_list<QWidget*> { m_ui->perNodeLabel, m_ui->perNodeSpin, m_ui->intraLinkCombo,
                                                        m_ui->interLinkCombo })
        w->setVisible(m_severalGpus && !m_presenting);
}

void ParallelGroup::retranslate()
{
    m_ui->retranslateUi(this);
    m_ui->perNodeSpin->setSpecialValueText(tr("one node"));
    m_linksStale = true;
    // The rows' words are set when they are filled: emptied here, they are filled again when retranslated() has the
    // panel show the scenario.
    for (QComboBox* c : { m_ui->tpCombo, m_ui->ppCombo, m_ui->scheduleCombo, m_ui->stageCombo, m_ui->splitCombo,
                          m_ui->epCombo, m_ui->cpCombo }) {
        const QSignalBlocker blocker(c);
        c->clear();
    }
}

// The rows' entries in the window's language: "1 (no tensor parallelism)", the schedules, the experts and context
// shares, the splits, and each stage with its blocks.
void ParallelGroup::retranslateRows(const Shown& s)
{
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
    for (int i = 0; i < m_ui->cpCombo->count(); ++i) {
        const int cp = m_ui->cpCombo->itemData(i).toInt();
        m_ui->cpCombo->setItemText(i,
                                   cp == 1 ? tr("1 (whole sequences on every GPU)")
                                           : tr("%1 (1/%1 of each sequence per GPU)").arg(cp));
    }
    const int experts = s.model ? s.model->transformer.moe.experts : 0;
    for (int i = 0; i < m_ui->epCombo->count(); ++i) {
        const int ep = m_ui->epCombo->itemData(i).toInt();
        m_ui->epCombo->setItemText(i,
                                   ep == 1 ? tr("1 (all %1 experts on every GPU)").arg(experts)
                                           : tr("%1 (experts per GPU: %2)").arg(ep).arg(experts / ep));
    }
    retranslateSplits(s);
    const int layers = s.model ? s.model->transformer.layers : 0;
    for (int i = 0; i < m_ui->stageCombo->count(); ++i) {
        const int k = m_ui->stageCombo->itemData(i).toInt();
        if (k < 0) {
            m_ui->stageCombo->setItemText(i, tr("the most loaded stage"));
            continue;
        }
        QStringList blocks;
        for (const LayerRange& r : stageLayers(layers, s.config, k))
            blocks << tr("%1–%2").arg(r.first + 1).arg(r.last);
        m_ui->stageCombo->setItemText(i, tr("stage %1 (blocks %2)").arg(k + 1).arg(blocks.join(QStringLiteral(", "))));
    }
}

// Each split as the blocks of its stages, "8 + 8 + 8 + 8", or with more than four stages the runs of equal ones
// counted, "5 + 9 × 3"; the even split says so.
void ParallelGroup::retranslateSplits(const Shown& s)
{
    const int layers = s.model ? s.model->transformer.layers : 0;
    TrainingConfig c = s.config;
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

// The links' entries with their rates; the automatic one says what it resolves to for this job.
void ParallelGroup::retranslateLinks(const Shown& s)
{
    const QString automatic = autoIntraLinkText(s);
    if (!m_linksStale) { // only "auto" follows the job
        if (m_ui->intraLinkCombo->itemText(0) != automatic)
            m_ui->intraLinkCombo->setItemText(0, automatic);
        return;
    }
    m_linksStale = false;
    auto fill = [](QComboBox* combo, const QString& where, const QString& automatic) {
        for (int i = 0; i < combo->count(); ++i) {
            const LinkFigure& f = linkFigure(LinkKind(combo->itemData(i).toInt()));
            combo->setItemText(i,
                               f.kind == LinkKind::Auto
                                   ? automatic
                                   : where.arg(QString::fromLatin1(f.id.data(), qsizetype(f.id.size())))
                                         .arg(f.gbPerSecond, 0, 'f', 1));
        }
    };
    fill(m_ui->intraLinkCombo, tr("In a node: %1, %2 GB/s"), automatic);
    fill(m_ui->interLinkCombo, tr("Between nodes: %1, %2 GB/s per GPU"), tr("Between nodes: InfiniBand HDR"));
}

// What auto resolves to for the job's widest group inside a node (the GPU file's NVLink, PCIe with or without
// peer-to-peer), and its bus bandwidth at the default link efficiency.
QString ParallelGroup::autoIntraLinkText(const Shown& s) const
{
    if (!s.gpu)
        return tr("In a node: the GPU file's links");
    TrainingConfig c = s.config;
    c.cluster.intraLink = LinkKind::Auto;
    const std::int64_t gpus = jobGpus(c);
    const int span = int(std::min<std::int64_t>(gpus, c.cluster.gpusPerNode > 0 ? c.cluster.gpusPerNode : gpus));
    const IntraNodeLink link = resolveIntraNodeLink(*s.gpu, c, span);
    const std::string_view id = toString(link.kind);
    const QString what = !link.gpuFileRate() ? QString::fromLatin1(id.data(), qsizetype(id.size()))
        : link.kind == LinkKind::Pcie4       ? tr("the GPU's PCIe")
                                             : tr("the GPU's own link");
    return tr("In a node: auto (%1, %2 GB/s)")
        .arg(what)
        .arg(collectiveBandwidth(*s.gpu, c, Efficiency {}.link, span) / 1e9, 0, 'f', 1);
}

QSlider* ParallelGroup::zeroSlider() const { return m_ui->zeroSlider; }
QSlider* ParallelGroup::dataParallelSlider() const { return m_ui->dpSlider; }
QSpinBox* ParallelGroup::dataParallelSpin() const { return m_ui->dpSpin; }
QComboBox* ParallelGroup::tensorParallelCombo() const { return m_ui->tpCombo; }
QComboBox* ParallelGroup::pipelineCombo() const { return m_ui->ppCombo; }
QComboBox* ParallelGroup::stageCombo() const { return m_ui->stageCombo; }
QComboBox* ParallelGroup::expertParallelCombo() const { return m_ui->epCombo; }
QComboBox* ParallelGroup::contextParallelCombo() const { return m_ui->cpCombo; }
QComboBox* ParallelGroup::stageSplitCombo() const { return m_ui->splitCombo; }

} // namespace headroom::gui
