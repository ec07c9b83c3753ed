#include "allocatorgroup.h"

#include "ui_allocatorgroup.h"
#include "units.h"

#include <cmath>

namespace headroom::gui {

AllocatorGroup::AllocatorGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::AllocatorGroup>())
{
    m_ui->setupUi(this);
    connect(m_ui->expandableCheck, &QCheckBox::toggled, this,
            [this](bool on) { edit(Control::ExpandableSegments, on); });
    connect(m_ui->cudnnSpin, &QSpinBox::valueChanged, this,
            [this](int mib) { edit(Control::CudnnWorkspace, units::fromMiB(mib)); });
}

AllocatorGroup::~AllocatorGroup() = default;

void AllocatorGroup::sync(const Scenario& scenario, const Catalog& catalog)
{
    const ModelSpec* model = catalog.model(scenario.modelId);
    const TrainingConfig& c = scenario.config;
    m_ui->expandableCheck->setChecked(c.expandableSegments);
    m_ui->cudnnSpin->setValue(int(std::lround(units::toMiB(c.cudnnWorkspaceBytes))));
    // Only convolutions take a cuDNN workspace.
    const bool vision = model && model->isVision();
    m_ui->cudnnLabel->setVisible(vision);
    m_ui->cudnnSpin->setVisible(vision);
}

void AllocatorGroup::retranslate() { m_ui->retranslateUi(this); }

} // namespace headroom::gui
