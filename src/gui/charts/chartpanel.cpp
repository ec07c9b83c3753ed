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
    // Full updates keep text items and series consistent when only parts change.
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
}

void ChartPanel::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle(chart(), style);
    cacheStaticItems();
}

void ChartPanel::cacheStaticItems()
{
    if (!scene() || !m_itemCaching)
        return;
    for (QGraphicsItem* item : scene()->items()) {
        // Axis labels, titles and grid lines; our own annotations change with every tick and would only churn a
        // cache.
        if (item->cacheMode() != QGraphicsItem::NoCache)
            continue;
        if (item->type() == QGraphicsTextItem::Type || item->type() == QGraphicsLineItem::Type)
            item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    }
}

void ChartPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

QString ChartPanel::title() const { return chart()->title(); }

} // namespace headroom::gui
