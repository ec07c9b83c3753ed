#pragma once

// The precision and optimizer group: the number format, where mixed precision keeps its weights, the optimizer,
// checkpointing, the attention kernel, the training loop, and channels last for a convolutional network.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class PrecisionGroup;
}

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace headroom::gui {

class PrecisionGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit PrecisionGroup(QWidget* parent = nullptr);
    ~PrecisionGroup() override;

    // In front of a class the weights' keeping, the loop and channels last go.
    void setPresentationMode(bool on) override;

    QComboBox* precisionCombo() const;
    QComboBox* optimizerCombo() const;
    QComboBox* checkpointingCombo() const;
    QComboBox* attentionCombo() const;
    QComboBox* loopCombo() const;

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    void populateChoices();

    std::unique_ptr<Ui::PrecisionGroup> m_ui;
    bool m_presenting = false;
    bool m_vision = false; // a convolutional network: channels last shows
};

} // namespace headroom::gui
