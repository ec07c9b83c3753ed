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

#include <algorithm>
#include <cmath>

namespace headroom::gui {

namespace {

    QPolygonF sceneShape(const QGraphicsItem* item) { return item->mapToScene(item->boundingRect()); }

    bool overlaps(const QPolygonF& a, const QPolygonF& b)
    {
        const QRectF r = a.intersected(b).boundingRect();
        return r.width() > 0.5 && r.height() > 0.5;
    }

} // namespace

void RooflineView::placeLabels()
{
    // Every decade labelled where there is room for its widest label ("10000"), every second one where not.
    fitLogTicks(m_axisX, { 10.0, 100.0, 1000.0, 10000.0 }, QStringLiteral("10000"));
    fitLogTicks(m_axisY, { 10.0, 100.0, 1000.0 }, QStringLiteral("1e+13"));
    const QRectF plot = chart()->plotArea();
    std::vector<QPolygonF> texts;
    placeRoofLabels(plot, texts);
    placeRidgeLabel(plot, texts);
    // The bandwidth is the chart's point: its label is placed before the legend, which takes what is left.
    placeBandwidthLabel(plot, texts);
    placeLinkLabel(plot);
    placeLegend(plot, texts);
}

// Roof labels sit above their roof at the right edge; roofs close together push the lower labels below their line
// so that no two overlap. A plot too narrow for every label keeps only the roof of the precision in use, named by
// its figure alone where its whole label does not fit either.
void RooflineView::placeRoofLabels(const QRectF& plot, std::vector<QPolygonF>& texts)
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
    for (int u = 0; u < kMathUnitCount; ++u)
        m_roofLabels[u]->setVisible(std::find(order.begin(), order.end(), u) != order.end());
    std::sort(order.begin(), order.end(),
              [this](int a, int b) { return m_roofs[a]->at(0).y() > m_roofs[b]->at(0).y(); });
    double nextTop = -1e9;
    for (int u : order) {
        setTextIfChanged(m_roofLabels[u],
                         allFit || fm.horizontalAdvance(m_roofText[u]) <= room ? m_roofText[u] : m_roofShort[u]);
        const QPointF right = c->mapToPosition(m_roofs[u]->at(1), m_roofs[u]);
        const QRectF br = m_roofLabels[u]->boundingRect();
        double y = right.y() - br.height() - 1.0;
        if (y < nextTop)
            y = std::max(nextTop, right.y() + 1.0);
        m_roofLabels[u]->setPos(std::max(plot.left() + 2.0, right.x() - br.width() - 4.0), y);
        nextTop = y + br.height();
    }
    for (int u = 0; u < kMathUnitCount; ++u) {
        m_roofPlates[u]->setVisible(m_roofLabels[u]->isVisible());
        m_roofPlates[u]->setRect(
            m_roofLabels[u]->mapRectToParent(m_roofLabels[u]->boundingRect()).adjusted(-2, 0, 2, 0));
        if (m_roofLabels[u]->isVisible())
            texts.push_back(sceneShape(m_roofLabels[u]));
    }
}

// Right of the ridge line, or left of it where the plot ends first, just above the x axis.
void RooflineView::placeRidgeLabel(const QRectF& plot, std::vector<QPolygonF>& texts)
{
    if (m_ridge->count() != 2)
        return;
    const QPointF bottom = chart()->mapToPosition(m_ridge->at(0), m_ridge);
    const QRectF br = m_ridgeLabel->boundingRect();
    const double x = bottom.x() + 3.0 + br.width() > plot.right() - 2.0 ? bottom.x() - 3.0 - br.width()
                                                                        : bottom.x() + 3.0;
    m_ridgeLabel->setPos(std::max(plot.left() + 2.0, x), plot.bottom() - br.height() - 2.0);
    m_ridgePlate->setRect(m_ridgeLabel->mapRectToParent(br).adjusted(-2, 0, 2, 0));
    texts.push_back(sceneShape(m_ridgeLabel));
}

// Along the slope, a third of the way up, or the nearest place along it, above the line or below, that no other
// label or the legend covers.
bool RooflineView::placeBandwidthLabel(const QRectF& plot, std::vector<QPolygonF>& texts)
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
    const QRectF inside = plot.adjusted(-1, -1, 1, 1);
    const std::vector<QRectF> dots = dotRects();
    // The whole label clear of the dots, or only the figure where a small chart has no room for "(what-if)"; where
    // the operators crowd the whole slope, over dots but never over text.
    for (const bool overDots : { false, true }) {
        for (const QString& text : { m_bandwidthText, m_bandwidthShort }) {
            setTextIfChanged(m_bandwidthLabel, text);
            for (const double raise : { 1.0, 1.7, 2.4, 0.0 }) {
                for (const double f : { 0.35, 0.25, 0.45, 0.15, 0.55, 0.05, 0.65, 0.75 }) {
                    const QPolygonF shape = placeAt(f, raise);
                    const bool clear = inside.contains(shape.boundingRect())
                        && std::none_of(texts.begin(), texts.end(),
                                        [&](const QPolygonF& o) { return overlaps(shape, o); })
                        && (overDots || std::none_of(dots.begin(), dots.end(), [&](const QRectF& d) {
                                           return overlaps(shape, QPolygonF(d));
                                       }));
                    if (clear) {
                        texts.push_back(shape);
                        return true;
                    }
                }
            }
        }
    }
    // No room anywhere along the slope: the figure stays in the tooltip and Explain.
    m_bandwidthLabel->setVisible(false);
    return false;
}

// The kinds present, one per row, inside the plot: top left is above the bandwidth roof, where no operator can be;
// where the labels reach there too (a narrow or large-font chart), the first place along the plot's edges that
// covers no text and the fewest dots. A plot with no such place (a chart beside an open dock) shows no legend: the
// dots' tooltips name their kind.
bool RooflineView::placeLegend(const QRectF& plot, std::vector<QPolygonF>& texts)
{
    // A row is as tall as its tallest text: Chinese glyphs come from a fallback font taller than the font's own
    // line height, and rows of that height overlapped.
    double row = QFontMetricsF(m_style.annotationFont).height();
    for (QGraphicsSimpleTextItem* t : m_legendTexts) {
        t->setFont(m_style.annotationFont);
        t->setBrush(m_style.foreground);
        row = std::max(row, t->boundingRect().height());
    }
    const double dot = row * 0.6;
    std::vector<int> kinds;
    double itemWidth = 0.0;
    for (int k = 0; k < kOpKindCount; ++k) {
        m_legendDots[k]->setVisible(m_kindShown[k]);
        m_legendTexts[k]->setVisible(m_kindShown[k]);
        if (m_kindShown[k]) {
            kinds.push_back(k);
            itemWidth = std::max(itemWidth, 12.0 + dot + m_legendTexts[k]->boundingRect().width());
        }
    }
    QColor fill = m_style.plotBackground;
    fill.setAlpha(220);
    m_legendBox->setBrush(fill);
    m_legendBox->setPen(QPen(m_style.grid));
    const std::vector<QRectF> dots = dotRects();
    const QRectF inside = plot.adjusted(-1, -1, 1, 1);
    const double m = 4.0;
    const double ridge = m_ridgeLabel->boundingRect().height() + 2.0;
    // One kind to a row, or two where a short plot has no place for the one column.
    for (const int columns : { 1, 2 }) {
        if (kinds.empty())
            break;
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            const std::size_t line = i / columns; // the legend fills its rows left to right
            const double x = 4.0 + double(i % columns) * itemWidth, y = 2.0 + double(line) * row;
            m_legendDots[kinds[i]]->setRect(x, y + (row - dot) / 2.0, dot, dot);
            m_legendTexts[kinds[i]]->setPos(x + 4.0 + dot, y);
        }
        const std::size_t lines = (kinds.size() + columns - 1) / columns;
        const QRectF box(0, 0, columns * itemWidth, double(lines) * row + 4.0);
        const double left = plot.left() + m, right = plot.right() - box.width() - m;
        const double top = plot.top() + m, bottom = plot.bottom() - box.height() - ridge - m;
        // The corners first (top left, bottom right, top right, bottom left), then along the edges.
        std::vector<QPointF> places = { { left, top }, { right, bottom }, { right, top }, { left, bottom } };
        for (const double f : { 0.5, 0.25, 0.75 }) {
            places.emplace_back(left + (right - left) * f, top);
            places.emplace_back(left + (right - left) * f, bottom);
            places.emplace_back(left, top + (bottom - top) * f);
            places.emplace_back(right, top + (bottom - top) * f);
        }
        QPointF best;
        long bestDots = -1;
        for (const QPointF& at : places) {
            const QRectF r = box.translated(at);
            const QPolygonF shape(r);
            if (!inside.contains(r)
                || std::any_of(texts.begin(), texts.end(), [&](const QPolygonF& t) { return overlaps(shape, t); }))
                continue;
            const long covered = std::count_if(dots.begin(), dots.end(),
                                               [&](const QRectF& d) { return d.intersects(r); });
            if (bestDots < 0 || covered < bestDots) {
                bestDots = covered;
                best = at;
            }
            if (covered == 0)
                break;
        }
        if (bestDots >= 0) {
            m_legendBox->setRect(box);
            m_legendBox->setPos(best);
            m_legendBox->setVisible(true);
            texts.emplace_back(box.translated(best));
            return true;
        }
    }
    m_legendBox->setVisible(false);
    return false;
}

// Where each operator's dot is drawn, in the chart's coordinates.
std::vector<QRectF> RooflineView::dotRects() const
{
    std::vector<QRectF> rects;
    for (const auto& d : m_dots->dots()) {
        const QPointF at = chart()->mapToPosition(d.at, m_bandwidth);
        rects.emplace_back(at.x() - d.diameter / 2, at.y() - d.diameter / 2, d.diameter, d.diameter);
    }
    return rects;
}

} // namespace headroom::gui
