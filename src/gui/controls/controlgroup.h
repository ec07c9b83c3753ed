#pragma once

// One group of the control panel, with its own .ui: it shows a scenario and turns each change of one of its
// controls into a typed edit (scenarioedit.h). Like the panel, it holds no rule and never changes the scenario: the
// panel forwards the edit, and the window gives every group the result.

#include "catalog.h"
#include "scenario.h"
#include "scenarioedit.h"

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace headroom::gui {

class ControlGroup : public QGroupBox {
    Q_OBJECT

public:
    using QGroupBox::QGroupBox;

    // Sets the controls from `scenario` (its model and GPU looked up in `catalog`) without emitting.
    void showScenario(const Scenario& scenario, const Catalog& catalog);
    // In front of a class only the essential controls stay (by default the whole group).
    virtual void setPresentationMode(bool on) { setVisible(!on); }

signals:
    // A control changed: the edit to apply. `dragging` while a slider is held (one undo step per drag).
    void edited(const headroom::ScenarioEdit& edit, bool dragging);
    // The group's texts are in the window's new language; what depends on the scenario needs showScenario again
    // (the panel's LanguageChange may have come first).
    void retranslated();

protected:
    virtual void sync(const Scenario& scenario, const Catalog& catalog) = 0;
    virtual void retranslate() = 0;            // the group's .ui again, in the window's language
    bool syncing() const { return m_syncing; } // the controls are being set from a scenario
    const bool* syncingFlag() const { return &m_syncing; }
    // Emits edited() unless the controls are being set from a scenario.
    void edit(Control control, EditValue value, bool dragging = false);
    // Each choice of `combo` is an edit of `control` to the chosen item's data (an integer: an enum, a count).
    void editOnChoice(QComboBox* combo, Control control);
    void changeEvent(QEvent* event) override;

private:
    bool m_syncing = false;
};

} // namespace headroom::gui
