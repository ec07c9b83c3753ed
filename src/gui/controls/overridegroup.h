#pragma once

// The what-if group: the GPU's memory, bandwidth and peak replaced by figures typed in, each while its box is
// ticked, and the framework overhead as shown (the CUDA context with the cuBLAS workspace; the core stores the GPU's
// figure it stands for, scenarioedit.h). An active what-if is marked so that nobody mistakes it for the datasheet.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class OverrideGroup;
}

namespace headroom::gui {

class OverrideGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit OverrideGroup(QWidget* parent = nullptr);
    ~OverrideGroup() override;

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    void updateMarks(const std::string& note);

    std::unique_ptr<Ui::OverrideGroup> m_ui;
};

} // namespace headroom::gui
