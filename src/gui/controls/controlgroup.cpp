#include "controlgroup.h"

#include <QEvent>
#include <QScopedValueRollback>

namespace headroom::gui {

void ControlGroup::showScenario(const Scenario& scenario, const ModelSpec* model)
{
    const QScopedValueRollback<bool> syncing(m_syncing, true);
    sync(scenario, model);
}

void ControlGroup::edit(Control control, EditValue value, bool dragging)
{
    if (!m_syncing)
        emit edited(ScenarioEdit { control, std::move(value) }, dragging);
}

void ControlGroup::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        emit retranslated();
    }
    QGroupBox::changeEvent(event);
}

} // namespace headroom::gui
