#pragma once

// Undo and redo of every change to the scenario. A slider drag is one step (recorded when the slider is released);
// quick edits of the same control (typing 1, 2, 8 into the batch box) merge into one step. Undo and redo ask the
// window to apply the earlier scenario through applyRequested().

#include "estimate.h"
#include "scenario.h"

#include <QObject>
#include <QUndoStack>

namespace headroom::gui {

class ScenarioHistory : public QObject {
    Q_OBJECT

public:
    explicit ScenarioHistory(QObject* parent = nullptr);

    QUndoStack* stack() { return &m_stack; }
    // Forgets the history; `current` becomes the state undo returns to.
    void reset(const Scenario& current);
    // Records a change that is already shown. `what` names the control ("batch", "gpu", "open", ...).
    void record(const Scenario& now, const QString& what, bool dragging);
    const Scenario& committed() const { return m_committed; }
    bool applying() const { return m_applying; }

    static QString describe(const QString& what);

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
