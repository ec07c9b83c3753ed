// The control panel's allocator rows: PyTorch's caching allocator with expandable segments, and the workspace each
// cuDNN convolution call takes (src/core/estimate/allocator.h). They change what torch.cuda would report, not the
// tensors. And the host rows: the CPU that issues the kernels and whether the step is replayed as a CUDA graph (time
// only).

#include "controlpanel.h"

#include "ui_controlpanel.h"
#include "units.h"

namespace headroom::gui {

void ControlPanel::setupAllocator()
{
    connect(m_ui->expandableCheck, &QCheckBox::toggled, this,
            [this](bool on) { edit(Control::ExpandableSegments, on); });
    connect(m_ui->cudnnSpin, &QSpinBox::valueChanged, this,
            [this](int mib) { edit(Control::CudnnWorkspace, units::fromMiB(mib)); });
    connect(m_ui->hostSpeedSpin, &QDoubleSpinBox::valueChanged, this,
            [this](double speed) { edit(Control::HostSpeed, speed); });
    connect(m_ui->cudaGraphsCheck, &QCheckBox::toggled, this, [this](bool on) { edit(Control::CudaGraphs, on); });
}

void ControlPanel::syncAllocator()
{
    const TrainingConfig& c = m_scenario.config;
    m_ui->expandableCheck->setChecked(c.expandableSegments);
    m_ui->cudnnSpin->setValue(int(std::lround(units::toMiB(c.cudnnWorkspaceBytes))));
    // Only convolutions take a cuDNN workspace.
    m_ui->cudnnLabel->setVisible(m_vision);
    m_ui->cudnnSpin->setVisible(m_vision);
    m_ui->allocatorGroup->setVisible(!m_presenting);
    // The host that issues the kernels (timemodel.h): time only.
    m_ui->hostSpeedSpin->setValue(c.host.speed);
    m_ui->cudaGraphsCheck->setChecked(c.host.execution == Execution::CudaGraphs);
    m_ui->hostGroup->setVisible(!m_presenting);
}

} // namespace headroom::gui
