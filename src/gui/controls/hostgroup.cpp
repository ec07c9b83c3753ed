#include "hostgroup.h"

#include "ui_hostgroup.h"

namespace headroom::gui {

HostGroup::HostGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::HostGroup>())
{
    m_ui->setupUi(this);
    connect(m_ui->hostSpeedSpin, &QDoubleSpinBox::valueChanged, this,
            [this](double speed) { edit(Control::HostSpeed, speed); });
    connect(m_ui->cudaGraphsCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::CudaGraphs, on); });
}

HostGroup::~HostGroup() = default;

void HostGroup::sync(const Scenario& scenario, const Catalog&)
{
    const TrainingConfig& c = scenario.config;
    m_ui->hostSpeedSpin->setValue(c.host.speed);
    m_ui->cudaGraphsCheck->setChecked(c.host.execution == Execution::CudaGraphs);
}

void HostGroup::retranslate() { m_ui->retranslateUi(this); }

} // namespace headroom::gui
