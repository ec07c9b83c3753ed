#include "controlgroup.h"

#include <QComboBox>
#include <QEvent>
#include <QScopedValueRollback>

namespace headroom::gui {

void ControlGroup::showScenario(const Scenario& scenario, const Catalog& catalog)
{
    const QScopedValueRollback<bool> syncing(m_syncing, true);
    sync(scenario, catalog);
}

void ControlGroup::edit(Control control, EditValue value, bool dragging)
{
    if (!m_syncing)
        emit edited(ScenarioEdit { control, std::move(value) }, dragging);
}

void ControlGroup::editOnChoice(QComboBox* combo, Control control)
{
    connect(combo, &QComboBox::currentIndexChanged, this,
            [this, combo, control] { edit(control, std::int64_t(combo->currentData().toLongLong())); });
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
