#include "elidingcombobox.h"

#include <QHelpEvent>
#include <QLineEdit>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <QToolTip>

namespace headroom::gui {

// The width of the field the label is drawn in (QStyle::SC_ComboBoxEditField), less the pixel QCommonStyle's
// CE_ComboBoxLabel leaves on each side and the current entry's icon with its gap.
int ElidingComboBox::textRoom(const QStyleOptionComboBox& option) const
{
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    int room = field.width() - 2;
    if (!option.currentIcon.isNull())
        room -= option.iconSize.width() + 4;
    return std::max(0, room);
}

QString ElidingComboBox::displayedText() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    if (isEditable())
        return option.currentText;
    return fontMetrics().elidedText(option.currentText, Qt::ElideRight, textRoom(option));
}

bool ElidingComboBox::cutsText() const
{
    if (!isEditable())
        return displayedText() != currentText();
    const QLineEdit* edit = lineEdit();
    // QLineEdit draws its text inside its contents less its text margins and 2 px on either side (qlineedit.cpp
    // horizontalMargin).
    const int room = edit->contentsRect().width() - edit->textMargins().left() - edit->textMargins().right() - 4;
    return edit->fontMetrics().horizontalAdvance(edit->text()) > room;
}

// QComboBox::paintEvent with the label's text elided to its field.
void ElidingComboBox::paintEvent(QPaintEvent* event)
{
    if (isEditable()) {
        QComboBox::paintEvent(event);
        return;
    }
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    if (currentIndex() < 0 && !placeholderText().isEmpty()) {
        option.palette.setBrush(QPalette::ButtonText, option.palette.placeholderText());
        option.currentText = placeholderText();
    }
    option.currentText = fontMetrics().elidedText(option.currentText, Qt::ElideRight, textRoom(option));
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

// An entry cut short shows whole in the tooltip, above the box's own tooltip where it has one.
bool ElidingComboBox::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && cutsText()) {
        const QString own = toolTip();
        const QString whole = currentText().toHtmlEscaped();
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                           own.isEmpty() ? whole : QStringLiteral("<b>%1</b><br>%2").arg(whole, own), this);
        return true;
    }
    return QComboBox::event(event);
}

} // namespace headroom::gui
