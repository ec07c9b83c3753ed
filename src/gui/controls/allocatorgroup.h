#pragma once

// The PyTorch allocator group: the caching allocator with expandable segments, and the workspace each cuDNN
// convolution call takes (src/core/estimate/allocator.h). They change what torch.cuda would report, not the tensors.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class AllocatorGroup;
}

namespace headroom::gui {

class AllocatorGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit AllocatorGroup(QWidget* parent = nullptr);
    ~AllocatorGroup() override;

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    std::unique_ptr<Ui::AllocatorGroup> m_ui;
};

} // namespace headroom::gui
