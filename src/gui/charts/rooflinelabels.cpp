// Where the roofline's own labels go: the roof labels at the right edge, the bandwidth written along its slope, the
// ridge label at the bottom and the operator-kind legend, each placed where it covers no other text, stays inside
// the plot and (the legend) covers as few dots as it can.

#include "plotitems.h"
#include "rooflineview.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QScopedValueRollback>

#include <algorithm>
#include <cmath>
#include <optional>

namespace headroom::gui {

namespace {

    QPolygonF sceneShape(const QGraphicsItem* item) { return item->mapToScene(item->boundingRect()); }

    // A rectangle mapped without rotation: each edge horizontal or vertical.
    bool upright(const QPolygonF& p)
    {
        for (qsizetype i = 1; i < p.size(); ++i)
            if (std::abs(p[i].x() - p[i - 1].x()) > 1e-6 && std::abs(p[i].y() - p[i - 1].y()) > 1e-6)
                return false;
        return true;
    }

    // More than half a pixel each way in common. Upright rectangles (all but the rotated slope labels) by their
    // rectangles: a polygon clip costs tens of microseconds, and a label tries dozens of places against every dot.
    bool overlaps(const QPolygonF& a, const QPolygonF& b)
    {
        const QRectF ra = a.boundingRect(), rb = b.boundingRect();
        QRectF r = ra.intersected(rb);
        if (r.width() <= 0.5 || r.height() <= 0.5)
            return false;
        if (!upright(a) || !upright(b))
            r = a.intersected(b).boundingRect();
        return r.width() > 0.5 && r.height() > 0.5;
    }

    // The most decades the y axis grows above the highest roof to give the roof in use a free place for its label.
    constexpr int kHeadroomDecades = 4;
    // The shortest plot the legend may leave when it goes below the chart.
    constexpr double kLeastPlot = 80.0;

    // Points every few pixels along a line, as small squares: a line the legend must not hide.
    void addLine(std::vector<QRectF>& data, const QPointF& a, const QPointF& b)
    {
        const int steps = std::max(1, int(std::hypot(b.x() - a.x(), b.y() - a.y()) / 6.0));
        for (int i = 0; i <= steps; ++i) {
            const QPointF p = a + (b - a) * (double(i) / steps);
            data.emplace_back(p.x() - 1.0, p.y() - 1.0, 2.0, 2.0);
        }
    }

    double maxHalfHeight(const std::vector<QRectF>& data)
    {
        double h = 0.0;
        for (const QRectF& r : data)
            h = std::max(h, r.height() / 2.0);
        return h;
    }

} // namespace

bool RooflineView::Obstacles::clear(const QPolygonF& shape) const
{
    // Two pixels between texts, and between a text and the data: a glyph's ink can pass its advance by one (a roof's
    // label that touched the step's star read as running into it).
    const QPolygonF apart = upright(shape) ? QPolygonF(shape.boundingRect().adjusted(-2, -2, 2, 2)) : shape;
    return inside.contains(shape.boundingRect())
        && std::none_of(texts.begin(), texts.end(), [&](const QPolygonF& t) { return overlaps(apart, t); })
        && std::none_of(data.begin(), data.end(), [&](const QRectF& d) { return overlaps(apart, QPolygonF(d)); });
}

// Every label where it covers no other text and no data. The legend goes inside the plot where it has a free place,
// else below the chart (placeLegendBelow). The label of the roof in use needs room above its roof, where the GEMMs
// near their peak sit: where it has none, the y axis grows a decade at a time above the highest roof (at most
// four), opening a strip above the data; where even that leaves none, the label stays at the right edge on its
// plate.
void RooflineView::placeLabels()
{
    if (m_placing) // a range set below lays the chart out again
        return;
    const QScopedValueRollback<bool> once(m_placing, true);
    bool below = false;
    Placed placed;
    for (int decades = 0; decades <= kHeadroomDecades && !placed.roof; ++decades) {
        m_axisY->setRange(m_ymin, m_ymax * std::pow(10.0, decades));
        placed = placeAllLabels(!below);
        if (!below && !placed.legend) {
            below = true;
            placed = placeAllLabels(false);
        }
    }
    if (!placed.roof) {
        m_axisY->setRange(m_ymin, m_ymax);
        placeAllLabels(!below);
    }
    placeLegendBelow(below);
}

RooflineView::Placed RooflineView::placeAllLabels(bool legendInside)
{
    // Every decade labelled where there is room for its widest label ("10000"), every second one where not.
    fitLogTicks(m_axisX, { 10.0, 100.0, 1000.0, 10000.0 }, QStringLiteral("10000"));
    fitLogTicks(m_axisY, { 10.0, 100.0, 1000.0 }, QStringLiteral("1e+13"));
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    Obstacles free;
    free.inside = c->mapRectToScene(plot.adjusted(-1, -1, 1, 1));
    for (const QRectF& r : dataInChart())
        free.data.push_back(c->mapRectToScene(r));
    const bool roofFree = placeRoofLabels(plot, free);
    placeRidgeLabel(plot, free);
    // The bandwidth is the chart's point: its label is placed before the legend, which takes what is left.
    placeBandwidthLabel(free);
    placeLinkLabel(free);
    if (!legendInside)
        return { roofFree, false };
    // Nor may the legend hide the roofs, the ridge or the slope.
    for (const QLineSeries* line : m_roofs)
        if (line->isVisible() && line->count() == 2)
            addLine(free.data, c->mapToScene(c->mapToPosition(line->at(0), m_bandwidth)),
                    c->mapToScene(c->mapToPosition(line->at(1), m_bandwidth)));
    if (m_ridge->count() == 2)
        addLine(free.data, c->mapToScene(c->mapToPosition(m_ridge->at(0), m_bandwidth)),
                c->mapToScene(c->mapToPosition(m_ridge->at(1), m_bandwidth)));
    if (m_bandwidth->count() == 2)
        addLine(free.data, c->mapToScene(c->mapToPosition(m_bandwidth->at(0), m_bandwidth)),
                c->mapToScene(c->mapToPosition(m_bandwidth->at(1), m_bandwidth)));
    return { roofFree, placeLegend(plot, free) };
}

// A roof's label sits above its roof at the right edge, or the first place leftwards along it, above or below it
// (then further off, clear of the dots on the roof), that covers no dot and no other label. The roof of the
// precision in use is named first; where it has no such place its label stays at the right edge and the answer is
// false (placeLabels then opens headroom above the roofs). Another precision's roof with no free place goes unnamed
// (Explain names it on a click). A plot too narrow for every label keeps only the roof in use, named by its figure
// alone where its whole label does not fit either.
bool RooflineView::placeRoofLabels(const QRectF& plot, Obstacles& free)
{
    QChart* c = chart();
    const double room = plot.width() - 6.0;
    const QFontMetricsF fm(m_style.annotationFont);
    std::vector<int> order;
    bool allFit = true;
    for (int u = 0; u < kMathUnitCount; ++u) {
        if (m_roofDrawn[u] && m_roofs[u]->count() >= 2) {
            order.push_back(u);
            allFit = allFit && fm.horizontalAdvance(m_roofText[u]) <= room;
        }
    }
    if (!allFit)
        std::erase_if(order, [this](int u) { return MathUnit(u) != m_activeUnit; });
    std::stable_sort(order.begin(), order.end(),
                     [this](int a, int b) { return MathUnit(a) == m_activeUnit && MathUnit(b) != m_activeUnit; });
    for (int u = 0; u < kMathUnitCount; ++u)
        m_roofLabels[u]->setVisible(std::find(order.begin(), order.end(), u) != order.end());
    // Just above the roof or just below it, then clear of the dots sitting on it (a GEMM near its peak).
    const double lift = maxHalfHeight(free.data) + 1.0;
    bool activeFree = true;
    for (int u : order) {
        QGraphicsSimpleTextItem* label = m_roofLabels[u];
        setTextIfChanged(label, allFit || fm.horizontalAdvance(m_roofText[u]) <= room ? m_roofText[u] : m_roofShort[u]);
        const QPointF right = c->mapToPosition(m_roofs[u]->at(1), m_roofs[u]);
        const QRectF br = label->boundingRect();
        const bool active = MathUnit(u) == m_activeUnit;
        // Another precision's label reaches at least a little way over its own roof, not floating by the slope.
        const double leftmost = active
            ? plot.left() + 2.0
            : std::max(plot.left() + 2.0, c->mapToPosition(m_roofs[u]->at(0)).x() + 16.0 - br.width());
        const QPointF edge(std::max(plot.left() + 2.0, right.x() - br.width() - 4.0), right.y() - br.height() - 1.0);
        std::optional<QPointF> at;
        for (const double top :
             { right.y() - br.height() - 1.0, right.y() + 1.0, right.y() - br.height() - lift, right.y() + lift }) {
            for (double x = edge.x(); !at && x >= leftmost; x -= br.width() / 8.0) {
                label->setPos(x, top);
                if (free.clear(sceneShape(label)))
                    at = label->pos();
            }
        }
        if (!at && !active) {
            label->setVisible(false);
            continue;
        }
        activeFree = activeFree && (at || !active);
        label->setPos(at.value_or(edge));
        free.texts.push_back(sceneShape(label));
    }
    for (int u = 0; u < kMathUnitCount; ++u) {
        m_roofPlates[u]->setVisible(m_roofLabels[u]->isVisible());
        m_roofPlates[u]->setRect(
            m_roofLabels[u]->mapRectToParent(m_roofLabels[u]->boundingRect()).adjusted(-2, 0, 2, 0));
    }
    return activeFree;
}

// Just above the x axis, right of the ridge line or left of it, raised where dots lie there; nowhere where dots
// lie at every place (Explain names the ridge).
void RooflineView::placeRidgeLabel(const QRectF& plot, Obstacles& free)
{
    m_ridgeLabel->setVisible(false);
    m_ridgePlate->setVisible(false);
    if (m_ridge->count() != 2)
        return;
    const QPointF bottom = chart()->mapToPosition(m_ridge->at(0), m_ridge);
    const QRectF br = m_ridgeLabel->boundingRect();
    const double rightOf = bottom.x() + 3.0, leftOf = bottom.x() - 3.0 - br.width();
    const double first = rightOf + br.width() > plot.right() - 2.0 ? leftOf : rightOf;
    for (int raise = 0; raise < 4; ++raise) {
        for (const double x : { first, first == rightOf ? leftOf : rightOf }) {
            m_ridgeLabel->setPos(x, plot.bottom() - br.height() - 2.0 - raise * br.height());
            if (free.clear(sceneShape(m_ridgeLabel))) {
                m_ridgeLabel->setVisible(true);
                m_ridgePlate->setVisible(true);
                m_ridgePlate->setRect(m_ridgeLabel->mapRectToParent(br).adjusted(-2, 0, 2, 0));
                free.texts.push_back(sceneShape(m_ridgeLabel));
                return;
            }
        }
    }
}

// Along the slope, a third of the way up, or the nearest place along it, above the line or below, that covers no
// other label and no dot; where the operators crowd the whole slope, nowhere (the figure stays in the tooltip and
// Explain).
bool RooflineView::placeBandwidthLabel(Obstacles& free)
{
    m_bandwidthLabel->setVisible(m_bandwidth->count() == 2);
    if (m_bandwidth->count() != 2)
        return true;
    QChart* c = chart();
    const QPointF a = c->mapToPosition(m_bandwidth->at(0), m_bandwidth);
    const QPointF b = c->mapToPosition(m_bandwidth->at(1), m_bandwidth);
    const double angle = std::atan2(b.y() - a.y(), b.x() - a.x()) * 180.0 / M_PI;
    m_bandwidthLabel->setRotation(angle);
    // The part of the slope inside the plot (the series runs past the axes' ends).
    const QRectF plot = c->plotArea();
    double t0 = 1.0, t1 = 0.0;
    for (int i = 0; i <= 100; ++i) {
        if (plot.contains(a + (b - a) * (i / 100.0))) {
            t0 = std::min(t0, i / 100.0);
            t1 = std::max(t1, i / 100.0);
        }
    }
    // Above the line, the label's top-left corner is lifted by its height along the line's normal.
    const double radians = angle * M_PI / 180.0;
    const QPointF normal(std::sin(radians), -std::cos(radians));
    // `raise` in label heights: 1 sits the label on the line, more lifts it clear of the dots on the slope (none
    // can be above it), 0 hangs it below.
    auto placeAt = [&](double f, double raise) {
        const double lift = m_bandwidthLabel->boundingRect().height() * raise;
        m_bandwidthLabel->setPos(a + (b - a) * (t0 + (t1 - t0) * f) + normal * lift);
        return sceneShape(m_bandwidthLabel);
    };
    // The whole label, or only the figure where a small chart has no room for "(what-if)".
    for (const QString& text : { m_bandwidthText, m_bandwidthShort }) {
        setTextIfChanged(m_bandwidthLabel, text);
        for (const double raise : { 1.0, 1.7, 2.4, 3.2, 4.0, 0.0 }) {
            for (const double f : { 0.35, 0.25, 0.45, 0.15, 0.55, 0.05, 0.65, 0.75 }) {
                const QPolygonF shape = placeAt(f, raise);
                if (free.clear(shape)) {
                    free.texts.push_back(shape);
                    return true;
                }
            }
        }
    }
    m_bandwidthLabel->setVisible(false);
    return false;
}

// The legend's items in rows of `columns`, each as wide as the widest, or (`columns` 0) each as wide as its own
// text, wrapped at `width`: its box, in the box's coordinates.
QRectF RooflineView::arrangeLegend(int columns, double width)
{
    const double row = legendRow();
    const double dot = row * 0.6;
    const double itemWidth = legendItemWidth();
    double x = 4.0, y = 2.0, right = 0.0;
    int i = 0;
    for (int k = 0; k < kOpKindCount; ++k) {
        m_legendDots[k]->setVisible(m_kindShown[k]);
        m_legendTexts[k]->setVisible(m_kindShown[k]);
        if (!m_kindShown[k])
            continue;
        const double w = columns > 0 ? itemWidth : 12.0 + dot + m_legendTexts[k]->boundingRect().width();
        if (i > 0 && (columns > 0 ? i % columns == 0 : x + w > width)) {
            x = 4.0;
            y += row;
        }
        m_legendDots[k]->setRect(x, y + (row - dot) / 2.0, dot, dot);
        m_legendTexts[k]->setPos(x + 4.0 + dot, y);
        x += w;
        right = std::max(right, x);
        ++i;
    }
    QColor fill = m_style.plotBackground;
    fill.setAlpha(220);
    m_legendBox->setBrush(fill);
    m_legendBox->setPen(QPen(m_style.grid));
    return { 0, 0, right - 4.0 + (columns > 0 ? 0.0 : 4.0), y + row + 2.0 };
}

// A row is as tall as its tallest text: Chinese glyphs come from a fallback font taller than the font's own line
// height, and rows of that height overlapped.
double RooflineView::legendRow() const
{
    double row = QFontMetricsF(m_style.annotationFont).height();
    for (const QGraphicsSimpleTextItem* t : m_legendTexts)
        row = std::max(row, t->boundingRect().height());
    return row;
}

double RooflineView::legendItemWidth() const
{
    const double dot = 0.6 * legendRow();
    double width = 0.0;
    for (int k = 0; k < kOpKindCount; ++k)
        if (m_kindShown[k])
            width = std::max(width, 12.0 + dot + m_legendTexts[k]->boundingRect().width());
    return width;
}

// The kinds present, one per row (or two or three to a row where the plot is short), inside the plot: top left is
// above the bandwidth roof, where no operator can be; else the first place along the plot's edges that covers no
// text, no dot and no line. False where there is none.
bool RooflineView::placeLegend(const QRectF& plot, Obstacles& free)
{
    const bool any = std::find(m_kindShown.begin(), m_kindShown.end(), true) != m_kindShown.end();
    m_legendBox->setVisible(any);
    if (!any)
        return true;
    const double m = 4.0;
    const double ridge = m_ridgeLabel->boundingRect().height() + 2.0;
    for (const int columns : { 1, 2, 3 }) {
        const QRectF box = arrangeLegend(columns);
        const double left = plot.left() + m, right = plot.right() - box.width() - m;
        const double top = plot.top() + m, bottom = plot.bottom() - box.height() - ridge - m;
        // The corners first (top left, bottom right, top right, bottom left), then along the edges.
        std::vector<QPointF> places = { { left, top }, { right, bottom }, { right, top }, { left, bottom } };
        for (const double f : { 0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875 }) {
            places.emplace_back(left + (right - left) * f, top);
            places.emplace_back(left + (right - left) * f, bottom);
            places.emplace_back(left, top + (bottom - top) * f);
            places.emplace_back(right, top + (bottom - top) * f);
        }
        for (const QPointF& at : places) {
            const QPolygonF shape = chart()->mapToScene(box.translated(at));
            // Two pixels clear of the dots and lines too: a box edge touching a dot reads as covering it.
            if (free.clear(chart()->mapToScene(box.translated(at).adjusted(-2, -2, 2, 2)))) {
                m_legendBox->setRect(box);
                m_legendBox->setPos(at);
                free.texts.push_back(shape);
                return true;
            }
        }
    }
    m_legendBox->setVisible(false);
    return false;
}

// Below the axis title, in rows as wide as the chart: the chart's bottom margin grows by the
// legend's height, and the chart, laid out again, calls placeLabels on its shorter plot. Where that would leave the
// plot under kLeastPlot pixels tall there is no legend (the dots' tooltips name their kind). With `below` false the
// margin goes back to the chart's own.
void RooflineView::placeLegendBelow(bool below)
{
    QChart* c = chart();
    QMargins margins = m_baseMargins;
    const bool any = std::find(m_kindShown.begin(), m_kindShown.end(), true) != m_kindShown.end();
    if (below && any) {
        const QRectF area = c->rect().adjusted(m_baseMargins.left(), 0, -m_baseMargins.right(),
                                               -m_baseMargins.bottom());
        const QRectF box = arrangeLegend(0, area.width() - 8.0);
        const int extra = int(std::ceil(box.height())) + 4;
        const double plotWithout = c->plotArea().height() + c->margins().bottom() - m_baseMargins.bottom();
        m_legendBox->setVisible(plotWithout - extra >= kLeastPlot);
        if (m_legendBox->isVisible()) {
            m_legendBox->setRect(box);
            m_legendBox->setPos(area.center().x() - box.width() / 2.0, area.bottom() - box.height());
            margins.setBottom(m_baseMargins.bottom() + extra);
        }
    }
    if (c->margins() == margins)
        return;
    // The legend's height comes out of the plot, not out of the window: the chart keeps the minimum size it has
    // without the legend (QChartView grows its own minimum to its chart's, and the window with it).
    if (c->margins() == m_baseMargins)
        m_minimumWithoutLegend = c->effectiveSizeHint(Qt::MinimumSize);
    c->setMinimumSize(margins == m_baseMargins ? QSizeF(-1, -1) : m_minimumWithoutLegend);
    c->setMargins(margins);
}

// Where the operators' dots and the steps' stars are drawn, in the chart's coordinates.
std::vector<QRectF> RooflineView::dataInChart() const
{
    std::vector<QRectF> rects;
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    for (const DotsItem* item : { m_dots, m_baselineDots }) {
        if (!item->isVisible())
            continue;
        for (const auto& d : item->dots()) {
            // As DotsItem paints them: a dot outside the axes' ranges not at all, the others clipped to the plot.
            const QPointF at = c->mapToPosition(d.at, m_bandwidth);
            if (plot.contains(at))
                rects.push_back(
                    QRectF(at.x() - d.diameter / 2, at.y() - d.diameter / 2, d.diameter, d.diameter).intersected(plot));
        }
    }
    for (const QScatterSeries* star : { m_step, m_baselineStep, m_linkStep }) {
        if (!star->isVisible() || star->count() == 0)
            continue;
        const QPointF at = c->mapToPosition(star->at(0), m_bandwidth);
        const double size = star->markerSize();
        rects.emplace_back(at.x() - size / 2, at.y() - size / 2, size, size);
    }
    return rects;
}

QList<QRectF> RooflineView::dataRects() const
{
    QList<QRectF> rects;
    for (const QRectF& r : dataInChart())
        rects.append(chart()->mapRectToScene(r));
    return rects;
}

} // namespace headroom::gui
