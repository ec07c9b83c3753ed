// The roofline's communication roof: with more than one GPU, the rate the step's collectives cross the links at
// (Estimate::linkBytesPerSecond) as a second slope, and the step placed against it at its communication intensity,
// the FLOPs it does per byte it sends. A step near that slope waits on its links, as a GeForce box without
// peer-to-peer does; one far below it has links to spare.

#include "rooflineview.h"

#include "formatting.h"

#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>

#include <cmath>

namespace headroom::gui {

void RooflineView::setupLinkRoof(QChart* chart)
{
    m_link = new QLineSeries(chart);
    m_link->append({ QPointF(1, 1), QPointF(10, 10) });
    m_linkStep = new QScatterSeries(chart);
    m_linkStep->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_linkStep->append(QPointF(1, 1));
    for (QXYSeries* s : { static_cast<QXYSeries*>(m_link), static_cast<QXYSeries*>(m_linkStep) }) {
        chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
        s->setVisible(false);
    }
    m_linkLabel = new QGraphicsSimpleTextItem(chart);
    m_linkLabel->setZValue(20);
    m_linkLabel->setVisible(false);
    connect(m_linkStep, &QScatterSeries::hovered, this, [this](const QPointF&, bool on) {
        if (!on || !m_result) {
            QToolTip::hideText();
            return;
        }
        const Estimate& e = m_result->estimate;
        QToolTip::showText(QCursor::pos(),
                           tr("<b>The step against its links</b><br>%1 sent per step at %2, %3 FLOP per byte "
                              "sent<br>communication %4 of the %5 step, %6 of it not hidden")
                               .arg(formatBytes(e.communicationBytes()), formatBandwidth(e.linkBytesPerSecond()))
                               .arg(e.flopsPerByteSent(), 0, 'f', 0)
                               .arg(formatSeconds(e.communicationSeconds), formatSeconds(e.stepSeconds),
                                    formatSeconds(e.exposedCommunicationSeconds)),
                           this);
    });
}

void RooflineView::styleLinkRoof()
{
    QPen pen(m_style.foreground, m_style.lineWidth, Qt::DashDotLine);
    m_link->setPen(pen);
    m_linkStep->setColor(m_style.foreground);
    m_linkStep->setBorderColor(m_style.background);
    m_linkStep->setMarkerSize(12.0 * m_style.markerScale);
    m_linkLabel->setFont(m_style.annotationFont);
    m_linkLabel->setBrush(m_style.foreground);
}

void RooflineView::updateLinkRoof(const Estimate& e, double peak, double xmin, double ymin)
{
    const double link = e.linkBytesPerSecond();
    const double intensity = e.flopsPerByteSent();
    const bool shown = link > 0.0 && intensity > 0.0;
    m_link->setVisible(shown);
    m_linkStep->setVisible(shown);
    m_linkLabel->setVisible(shown);
    if (!shown)
        return;
    replaceIfChanged(m_linkStep, { QPointF(intensity, e.wholeStep.achievedFlopsPerSecond()) });
    // From the plot's bottom or left edge to where the link meets the peak of the unit in use; both ends inside the
    // axes (a log axis does not clip a segment that leaves its range).
    const double x0 = std::max(xmin, ymin / link);
    replaceIfChanged(m_link, { QPointF(x0, x0 * link), QPointF(peak / link, peak) });
    m_linkText = tr("links %1").arg(formatBandwidth(link));
}

void RooflineView::placeLinkLabel(Obstacles& free)
{
    if (!m_link->isVisible())
        return;
    // Along the slope, a third of the way up the part inside the plot, on its lower right side (the step's marker
    // and the compute roofs' labels are at its upper end), or the nearest place along it, either side, that covers
    // no text and no dot; nowhere where there is none.
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    const QPointF a = c->mapToPosition(m_link->at(0), m_link);
    const QPointF b = c->mapToPosition(m_link->at(1), m_link);
    double t0 = 1.0, t1 = 0.0;
    for (int i = 0; i <= 200; ++i) {
        if (plot.contains(a + (b - a) * (i / 200.0))) {
            t0 = std::min(t0, i / 200.0);
            t1 = std::max(t1, i / 200.0);
        }
    }
    m_linkLabel->setVisible(false);
    if (t1 <= t0)
        return;
    setTextIfChanged(m_linkLabel, m_linkText);
    const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
    m_linkLabel->setRotation(angle * 180.0 / M_PI);
    // The label's top-left corner, moved off the line towards the lower right by a little more than nothing, or
    // lifted above it by its height.
    const QPointF normal(-std::sin(angle), std::cos(angle));
    const double height = m_linkLabel->boundingRect().height();
    for (const double side : { 3.0, -height - 3.0 }) {
        for (const double f : { 1.0 / 3.0, 0.25, 0.45, 0.15, 0.55, 0.05 }) {
            m_linkLabel->setPos(a + (b - a) * (t0 + (t1 - t0) * f) + normal * side);
            const QPolygonF shape = m_linkLabel->mapToScene(m_linkLabel->boundingRect());
            if (free.clear(shape)) {
                m_linkLabel->setVisible(true);
                free.texts.push_back(shape);
                return;
            }
        }
    }
}

double RooflineView::linkSlope() const
{
    if (!m_link->isVisible() || m_link->count() < 2)
        return 0.0;
    const QPointF a = m_link->at(0), b = m_link->at(1);
    return (b.y() - a.y()) / (b.x() - a.x());
}

QPointF RooflineView::linkMarker() const { return m_linkStep->isVisible() ? m_linkStep->at(0) : QPointF(); }

} // namespace headroom::gui
