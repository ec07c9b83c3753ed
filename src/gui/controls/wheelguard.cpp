#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace headroom::gui {

void WheelGuard::install(QWidget* panel)
{
    auto* guard = new WheelGuard(panel);
    for (QWidget* w : panel->findChildren<QWidget*>()) {
        if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QAbstractSlider*>(w)) {
            // A wheel turn must not give focus either, or the next turn would change the value.
            w->setFocusPolicy(Qt::StrongFocus);
            w->installEventFilter(guard);
        }
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Wheel) {
        const auto* w = qobject_cast<QWidget*>(watched);
        if (w && !w->hasFocus()) {
            // Given to the scroll area the panel sits in (or, without one, ignored for the parents to take).
            for (QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
                if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
                    QCoreApplication::sendEvent(area->viewport(), event);
                    return true;
                }
            }
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace headroom::gui
