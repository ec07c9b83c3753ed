#pragma once

// The host group: how fast the CPU that issues the kernels runs eager PyTorch, and whether the step is replayed as
// a CUDA graph (src/core/estimate/timemodel.h). Time only.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class HostGroup;
}

namespace headroom::gui {

class HostGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit HostGroup(QWidget* parent = nullptr);
    ~HostGroup() override;

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    std::unique_ptr<Ui::HostGroup> m_ui;
};

} // namespace headroom::gui
