#pragma once

// Undo and redo of every change to the scenario. A slider drag is one step (recorded when the slider is released);
// quick edits of the same control (typing 1, 2, 8 into the batch box) merge into one step. Undo and redo ask the
// window to apply the earlier scenario through applyRequested().

#include "estimate.h"
#include "scenario.h"
#include "scenarioedit.h"

#include <QObject>
#include <QUndoStack>

#include <variant>

namespace headroom::gui {

// What made a change: a control's edit (scenarioedit.h), or one of the window's actions.
enum class Action : std::uint8_t { Open, Example, Fix, Reset, Tour, Plan, Measured };
using Change = std::variant<Control, Action>;

class ScenarioHistory : public QObject {
    Q_OBJECT

public:
    explicit ScenarioHistory(QObject* parent = nullptr);

    QUndoStack* stack() { return &m_stack; }
    // Forgets the history; `current` becomes the state undo returns to.
    void reset(const Scenario& current);
    // Records a change that is already shown.
    void record(const Scenario& now, Change what, bool dragging);
    const Scenario& committed() const { return m_committed; }
    bool applying() const { return m_applying; }

    // The undo action's words ("Undo micro-batch"): every control and action has its own.
    static QString describe(Change what);

signals:
    void applyRequested(const headroom::Scenario& scenario);

private:
    friend class ScenarioCommand;
    void apply(const Scenario& s);

    QUndoStack m_stack;
    Scenario m_committed;
    bool m_hasCommitted = false;
    bool m_applying = false;
};

} // namespace headroom::gui
