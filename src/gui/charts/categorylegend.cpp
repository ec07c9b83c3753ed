#include "categorylegend.h"

#include "chartstyle.h"
#include "labels.h"

#include <QApplication>
#include <QEvent>
#include <QPainter>

namespace headroom::gui {

CategoryLegend::CategoryLegend(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CategoryLegend::setPresentationMode(bool on)
{
    m_scale = on ? 1.6 : 1.0;
    QFont f = QWidget::font();
    f.setPointSizeF(QApplication::font().pointSizeF() * m_scale);
    setFont(f);
    updateGeometry();
    update();
}

QSize CategoryLegend::sizeHint() const
{
    const QFontMetrics fm(font());
    int w = 0;
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        w += fm.height() + 6 + fm.horizontalAdvance(Labels::category(MemoryCategory(c))) + 18;
    return { w, fm.height() + 8 };
}

QSize CategoryLegend::minimumSizeHint() const { return { 100, QFontMetrics(font()).height() + 8 }; }

void CategoryLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    // Shrink the font rather than cut the last categories off in a narrow window.
    QFont f = font();
    const int needed = sizeHint().width();
    if (needed > width() && needed > 0)
        f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.94 * width() / needed));
    p.setFont(f);
    const QFontMetrics fm(f);
    const int box = fm.height() - 4;
    int x = 8;
    const int y = (height() - box) / 2;
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        const QString text = Labels::category(MemoryCategory(c));
        const QColor color = categoryColor(MemoryCategory(c));
        p.setPen(color.darker(120));
        p.setBrush(color);
        p.drawRect(x, y, box, box);
        x += box + 6;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x, 0, fm.horizontalAdvance(text) + 2, height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += fm.horizontalAdvance(text) + 18;
    }
}

void CategoryLegend::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        updateGeometry();
    QWidget::changeEvent(event);
}

} // namespace headroom::gui
