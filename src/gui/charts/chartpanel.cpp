#include "chartpanel.h"

#include <QChart>
#include <QEvent>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>

namespace headroom::gui {

ChartPanel::ChartPanel(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing, false);
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    // Repaints only what changed. The chart's text and grid items are not cached as pixmaps: Qt Charts moves and
    // re-creates them on every layout (a resize, a dock opening, a new axis range), and a cached item then kept
    // painting its old pixmap or nothing, so titles and tick labels vanished after the first resize (issue 8).
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
}

void ChartPanel::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle(chart(), style);
}

void ChartPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

QString ChartPanel::title() const { return chart()->title(); }

} // namespace headroom::gui
