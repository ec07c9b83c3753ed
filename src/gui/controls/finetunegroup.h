#pragma once

// The fine-tuning group: the method, and the LoRA rank, target modules and dropout or the frozen layers it uses.
// Each control writes only its own field, so a scenario's values that no control shows (lora_alpha, a list of module
// names) survive the editing of every other control.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class FinetuneGroup;
}

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace headroom::gui {

class FinetuneGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit FinetuneGroup(QWidget* parent = nullptr);
    ~FinetuneGroup() override;

    // In front of a class the method and the rank stay; the finer LoRA settings go.
    void setPresentationMode(bool on) override;

    QComboBox* methodCombo() const;
    QSpinBox* rankSpin() const;
    QComboBox* targetsCombo() const;
    QDoubleSpinBox* dropoutSpin() const;
    QSpinBox* frozenLayersSpin() const;

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    void populateMethods();
    void syncTargets(const FinetuneConfig& f, const ModelSpec* model);

    std::unique_ptr<Ui::FinetuneGroup> m_ui;
    QString m_methodToolTip; // the method combo's own, before a CNN's reason is added to it
};

} // namespace headroom::gui
