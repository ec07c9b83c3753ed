// The control panel's cluster rows: sequence parallelism beside tensor parallelism, and where the job's GPUs sit
// (GPUs per node, the link inside a node and the one between nodes; src/core/spec/links.h). The links set the
// communication time only; they show once the job has more than one GPU.

#include "controlpanel.h"

#include "catalog.h"
#include "links.h"
#include "pipeline.h"
#include "scenario.h"
#include "timemodel.h"
#include "ui_controlpanel.h"

namespace headroom::gui {

namespace {

    constexpr LinkKind kIntraLinks[] = { LinkKind::Auto,         LinkKind::PcieShm, LinkKind::Pcie4,  LinkKind::Pcie5,
                                         LinkKind::NvlinkBridge, LinkKind::Nvlink3, LinkKind::Nvlink4 };
    constexpr LinkKind kInterLinks[] = { LinkKind::Auto, LinkKind::Ethernet100, LinkKind::InfinibandHdr,
                                         LinkKind::InfinibandNdr };

} // namespace

void ControlPanel::setupCluster()
{
    for (LinkKind k : kIntraLinks)
        m_ui->intraLinkCombo->addItem(QString(), int(k));
    for (LinkKind k : kInterLinks)
        m_ui->interLinkCombo->addItem(QString(), int(k));
    m_ui->perNodeSpin->setSpecialValueText(tr("one node"));
    connect(m_ui->spCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::SequenceParallel, on); });
    connect(m_ui->perNodeSpin, &QSpinBox::valueChanged, this,
            [this](int n) { edit(Control::GpusPerNode, std::int64_t(n)); });
    connect(m_ui->intraLinkCombo, &QComboBox::currentIndexChanged, this,
            [this] { edit(Control::IntraLink, std::int64_t(m_ui->intraLinkCombo->currentData().toInt())); });
    connect(m_ui->interLinkCombo, &QComboBox::currentIndexChanged, this,
            [this] { edit(Control::InterLink, std::int64_t(m_ui->interLinkCombo->currentData().toInt())); });
}

void ControlPanel::syncCluster(const ModelSpec* model)
{
    const TrainingConfig& c = m_scenario.config;
    m_ui->spCheck->setChecked(c.sequenceParallel);
    TrainingConfig withSp = c;
    withSp.sequenceParallel = true;
    m_ui->spCheck->setEnabled(c.sequenceParallel
                              || (model && c.tensorParallel > 1 && !validateForModel(*model, withSp, "window")));
    m_ui->perNodeSpin->setValue(c.cluster.gpusPerNode);
    m_ui->intraLinkCombo->setCurrentIndex(std::max(0, m_ui->intraLinkCombo->findData(int(c.cluster.intraLink))));
    m_ui->interLinkCombo->setCurrentIndex(std::max(0, m_ui->interLinkCombo->findData(int(c.cluster.interLink))));
    m_ui->interLinkCombo->setEnabled(c.cluster.gpusPerNode > 0 && jobGpus(c) > c.cluster.gpusPerNode);
    m_ui->intraLinkCombo->setItemText(0, autoIntraLinkText());
}

// What auto resolves to for the job's widest group inside a node (the GPU file's NVLink, PCIe with or without
// peer-to-peer), and its bus bandwidth at the default link efficiency.
QString ControlPanel::autoIntraLinkText() const
{
    const GpuSpec* gpu = m_catalog ? m_catalog->gpu(m_scenario.gpuId) : nullptr;
    if (!gpu)
        return tr("In a node: the GPU file's links");
    TrainingConfig c = m_scenario.config;
    c.cluster.intraLink = LinkKind::Auto;
    const std::int64_t gpus = jobGpus(c);
    const int span = int(std::min<std::int64_t>(gpus, c.cluster.gpusPerNode > 0 ? c.cluster.gpusPerNode : gpus));
    const IntraNodeLink link = resolveIntraNodeLink(*gpu, c, span);
    const std::string_view id = toString(link.kind);
    const QString what = !link.gpuFileRate() ? QString::fromLatin1(id.data(), qsizetype(id.size()))
        : link.kind == LinkKind::Pcie4       ? tr("the GPU's PCIe")
                                             : tr("the GPU's own link");
    return tr("In a node: auto (%1, %2 GB/s)")
        .arg(what)
        .arg(collectiveBandwidth(*gpu, c, Efficiency {}.link, span) / 1e9, 0, 'f', 1);
}

void ControlPanel::syncClusterVisibility()
{
    const bool several = jobGpus(m_scenario.config) > 1;
    m_ui->spCheck->setVisible(!m_presenting);
    for (QWidget* w : { static_cast<QWidget*>(m_ui->perNodeLabel), static_cast<QWidget*>(m_ui->perNodeSpin),
                        static_cast<QWidget*>(m_ui->intraLinkCombo), static_cast<QWidget*>(m_ui->interLinkCombo) })
        w->setVisible(several && !m_presenting);
}

void ControlPanel::retranslateCluster()
{
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
    fill(m_ui->intraLinkCombo, tr("In a node: %1, %2 GB/s"), autoIntraLinkText());
    fill(m_ui->interLinkCombo, tr("Between nodes: %1, %2 GB/s per GPU"), tr("Between nodes: InfiniBand HDR"));
}

} // namespace headroom::gui
