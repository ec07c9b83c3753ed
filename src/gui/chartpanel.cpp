#include "chartpanel.h"

#include <QChart>

namespace headroom::gui {

ChartPanel::ChartPanel(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    // Full updates keep text items and series consistent when only parts change.
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
}

void ChartPanel::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle(chart(), style);
}

QString ChartPanel::title() const { return chart()->title(); }

} // namespace headroom::gui
