#include "elidingcombobox.h"

#include <QChildEvent>
#include <QHelpEvent>
#include <QLineEdit>
#include <QPainter>
#include <QStyleOptionComboBox>
#include <QStyleOptionFrame>
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
    if (isEditable()) {
        const QLineEdit* edit = lineEdit();
        return paintsElidedLineEdit() ? edit->fontMetrics().elidedText(edit->text(), Qt::ElideRight, lineEditRoom())
                                      : edit->text();
    }
    return fontMetrics().elidedText(option.currentText, Qt::ElideRight, textRoom(option));
}

// QLineEdit draws its text inside its contents less its text margins and 2 px on either side (qlineedit.cpp
// horizontalMargin).
int ElidingComboBox::lineEditRoom() const
{
    const QLineEdit* edit = lineEdit();
    return std::max(0, edit->contentsRect().width() - edit->textMargins().left() - edit->textMargins().right() - 4);
}

bool ElidingComboBox::cutsText() const
{
    if (!isEditable())
        return displayedText() != currentText();
    const QLineEdit* edit = lineEdit();
    return edit->fontMetrics().horizontalAdvance(edit->text()) > lineEditRoom();
}

// Where the box, not its line edit, draws the entry: editable, cut short, and not being edited.
bool ElidingComboBox::paintsElidedLineEdit() const
{
    return isEditable() && lineEdit() && !lineEdit()->hasFocus() && cutsText();
}

// The line edit's panel as QLineEdit::paintEvent draws it, and its text cut short with an ellipsis where it draws its
// own (left-aligned after its margins, vertically centred).
void ElidingComboBox::paintLineEdit()
{
    QLineEdit* edit = lineEdit();
    QPainter painter(edit);
    QStyleOptionFrame panel;
    panel.initFrom(edit);
    panel.lineWidth = edit->hasFrame() ? edit->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &panel, edit) : 0;
    panel.midLineWidth = 0;
    panel.state |= QStyle::State_Sunken;
    edit->style()->drawPrimitive(QStyle::PE_PanelLineEdit, &panel, &painter, edit);
    QRect text = edit->style()->subElementRect(QStyle::SE_LineEditContents, &panel, edit);
    const QMargins margins = edit->textMargins();
    text.adjust(margins.left() + 2, margins.top(), -margins.right() - 2, -margins.bottom());
    painter.setPen(edit->palette().color(edit->isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::Text));
    painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                     edit->fontMetrics().elidedText(edit->text(), Qt::ElideRight, text.width()));
}

bool ElidingComboBox::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Paint && watched == lineEdit() && paintsElidedLineEdit()) {
        paintLineEdit();
        return true;
    }
    return QComboBox::eventFilter(watched, event);
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

// An entry cut short shows whole in the tooltip, above the box's own tooltip where it has one. The line edit an
// editable box makes is watched for its paint events (eventFilter).
bool ElidingComboBox::event(QEvent* event)
{
    if (event->type() == QEvent::ChildPolished) {
        if (auto* edit = qobject_cast<QLineEdit*>(static_cast<QChildEvent*>(event)->child()))
            edit->installEventFilter(this);
    }
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
