#pragma once

// The mouse wheel over the control panel scrolls the panel. A combo box, spin box or slider that the pointer passes
// over takes the wheel only once it has keyboard focus (clicked or tabbed to): scrolling down the panel used to
// change every combo it crossed (Qt's default), here the tensor-parallel size.

#include <QObject>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace headroom::gui {

class WheelGuard : public QObject {
    Q_OBJECT

public:
    // Guards every combo box, spin box and slider inside `panel` (the guard is a child of the panel).
    static void install(QWidget* panel);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace headroom::gui
