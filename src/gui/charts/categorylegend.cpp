#include "categorylegend.h"

#include "chartstyle.h"
#include "labels.h"

#include <QApplication>
#include <QEvent>
#include <QPainter>

#include <limits>

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
    fitHeight();
    update();
}

QSize CategoryLegend::sizeHint() const
{
    // Every category on one row.
    const QList<QRect> rects = itemRects(std::numeric_limits<int>::max() / 2);
    return { rects.back().right() + 8, rowHeight() + 8 };
}

QSize CategoryLegend::minimumSizeHint() const { return { 100, rowHeight() + 8 }; }

int CategoryLegend::rowHeight() const { return QFontMetrics(font()).height() + 2; }

// Swatch and name of each category, in rows: a narrow window wraps the legend onto more rows instead of cutting
// the last categories off ("Temporarie").
QList<QRect> CategoryLegend::itemRects(int width) const
{
    const QFontMetrics fm(font());
    const int box = fm.height() - 4;
    QList<QRect> rects;
    int x = 8, y = 4;
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        const int w = box + 6 + fm.horizontalAdvance(Labels::category(MemoryCategory(c))) + 2;
        if (x > 8 && x + w > width - 4) {
            x = 8;
            y += rowHeight();
        }
        rects << QRect(x, y, w, rowHeight());
        x += w + 16;
    }
    return rects;
}

void CategoryLegend::fitHeight()
{
    const QList<QRect> rects = itemRects(width());
    const int h = rects.isEmpty() ? rowHeight() + 8 : rects.back().bottom() + 5;
    if (height() != h || minimumHeight() != h)
        setFixedHeight(h);
}

void CategoryLegend::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

void CategoryLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const int box = fm.height() - 4;
    const QList<QRect> rects = itemRects(width());
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        const QRect& r = rects[c];
        const QColor color = categoryColor(MemoryCategory(c));
        p.setPen(color.darker(120));
        p.setBrush(color);
        p.drawRect(r.x(), r.y() + (r.height() - box) / 2, box, box);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(r.adjusted(box + 6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, Labels::category(MemoryCategory(c)));
    }
}

void CategoryLegend::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        fitHeight();
    }
    QWidget::changeEvent(event);
}

} // namespace headroom::gui
