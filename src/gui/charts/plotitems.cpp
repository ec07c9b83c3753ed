#include "plotitems.h"

#include "chartstyle.h"

#include <QAbstractSeries>
#include <QChart>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QLogValueAxis>
#include <QPaintEngine>
#include <QPainter>
#include <QPolygonF>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace headroom::gui {

PlotItem::PlotItem(QChart* chart, QAbstractSeries* anchor)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
{
    // Above the grid and the axes (Qt Charts' GridZValue 2, AxisZValue 3), below its line series (5) and scatter
    // markers (8), so that capacity lines and markers stay visible on top of the data.
    setZValue(4.5);
    setAcceptHoverEvents(true);
    setFlag(QGraphicsItem::ItemClipsToShape);
    connect(chart, &QChart::plotAreaChanged, this, [this] { relayout(); });
    // A new axis range moves what this item draws though the plot area stays: repainted with it. Without, a range
    // set after the item had painted (the phase chart's top, once the fit search came back) left the old bars on
    // screen except in the bands Qt Charts repainted for its grid and labels (the tour's third step at 1920x1080).
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal | Qt::Vertical, anchor)) {
        if (auto* value = qobject_cast<QValueAxis*>(axis))
            connect(value, &QValueAxis::rangeChanged, this, [this] { update(); });
        else if (auto* log = qobject_cast<QLogValueAxis*>(axis))
            connect(log, &QLogValueAxis::rangeChanged, this, [this] { update(); });
    }
}

QRectF PlotItem::boundingRect() const { return m_plot; }

void PlotItem::relayout()
{
    prepareGeometryChange();
    m_plot = m_chart->plotArea();
    update();
}

QPointF PlotItem::map(double x, double y) const { return m_chart->mapToPosition(QPointF(x, y), m_anchor); }
QPointF PlotItem::unmap(const QPointF& position) const { return m_chart->mapToValue(position, m_anchor); }

PlotItem::Mapping::Mapping(const PlotItem* item)
    : m_item(item)
{
    // Two values on each axis, positive on a log axis, and the positions map() gives them.
    auto reference = [item](Qt::Orientation o, Axis& axis) -> std::pair<double, double> {
        const QList<QAbstractAxis*> axes = item->m_chart->axes(o, item->m_anchor);
        const auto* log = axes.isEmpty() ? nullptr : qobject_cast<const QLogValueAxis*>(axes.front());
        axis.log = log && log->min() > 0.0 && log->max() > log->min();
        return axis.log ? std::pair(log->min(), log->max()) : std::pair(0.0, 1.0);
    };
    const auto [x0, x1] = reference(Qt::Horizontal, m_x);
    const auto [y0, y1] = reference(Qt::Vertical, m_y);
    const QPointF p00 = item->map(x0, y0), p10 = item->map(x1, y0), p01 = item->map(x0, y1);
    auto fit = [](Axis& axis, double v0, double v1, double at0, double at1) {
        const double f0 = axis.log ? std::log(v0) : v0, f1 = axis.log ? std::log(v1) : v1;
        axis.b = (at1 - at0) / (f1 - f0);
        axis.a = at0 - axis.b * f0;
    };
    fit(m_x, x0, x1, p00.x(), p10.x());
    fit(m_y, y0, y1, p00.y(), p01.y());
}

QPointF PlotItem::Mapping::operator()(double x, double y) const
{
    if (!m_x.maps(x) || !m_y.maps(y))
        return m_item->map(x, y); // what Qt Charts does with a value a log axis cannot show
    return { m_x(x), m_y(y) };
}

// ---- stacked bars -------------------------------------------------------------------------------------------

StackedBarsItem::StackedBarsItem(QChart* chart, QAbstractSeries* anchor, int bars)
    : PlotItem(chart, anchor)
    , m_values(std::size_t(bars), CategoryBytes {})
{
}

void StackedBarsItem::setValues(int bar, const CategoryBytes& values, double scale)
{
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        m_values[bar][c] = std::max(0.0, values[c]) / scale;
    update();
}

void StackedBarsItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    const Mapping to(this);
    p->setClipRect(m_plot);
    for (std::size_t b = 0; b < m_values.size(); ++b) {
        const double x = double(b) + m_offset;
        double bottom = 0.0;
        for (int c = 0; c < kMemoryCategoryCount; ++c) {
            const double top = bottom + m_values[b][c];
            const QPointF lo = to(x - m_width / 2.0, bottom);
            const QPointF hi = to(x + m_width / 2.0, top);
            QColor color = categoryColor(MemoryCategory(c));
            if (int(b) == m_hoverBar && c == m_hoverCategory)
                color = color.lighter(125);
            if (m_ghost)
                color.setAlphaF(0.35);
            p->fillRect(QRectF(lo, hi).normalized(), color);
            bottom = top;
        }
        if (m_ghost && bottom > 0.0) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(QColor(128, 128, 128), 1.0, Qt::DashLine));
            p->drawRect(QRectF(to(x - m_width / 2.0, 0.0), to(x + m_width / 2.0, bottom)).normalized());
        }
    }
}

bool StackedBarsItem::hit(const QPointF& pos, int* bar, int* category) const
{
    const QPointF v = unmap(pos);
    const int b = int(std::lround(v.x() - m_offset));
    if (b < 0 || b >= int(m_values.size()) || std::abs(v.x() - m_offset - b) > m_width / 2.0)
        return false;
    double bottom = 0.0;
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        const double top = bottom + m_values[b][c];
        if (v.y() >= bottom && v.y() < top) {
            *bar = b;
            *category = c;
            return true;
        }
        bottom = top;
    }
    return false;
}

void StackedBarsItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    int b = -1, c = -1;
    hit(event->pos(), &b, &c);
    if (b == m_hoverBar && c == m_hoverCategory)
        return;
    if (m_hoverBar >= 0)
        emit hovered(m_hoverBar, m_hoverCategory, false);
    m_hoverBar = b;
    m_hoverCategory = c;
    if (b >= 0)
        emit hovered(b, c, true);
    update();
}

void StackedBarsItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*)
{
    if (m_hoverBar >= 0)
        emit hovered(m_hoverBar, m_hoverCategory, false);
    m_hoverBar = m_hoverCategory = -1;
    update();
}

void StackedBarsItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    int b = -1, c = -1;
    if (hit(event->pos(), &b, &c))
        emit clicked(b, c);
    else
        event->ignore();
}

// ---- polyline ---------------------------------------------------------------------------------------------------

PolylineItem::PolylineItem(QChart* chart, QAbstractSeries* anchor)
    : PlotItem(chart, anchor)
{
    setZValue(6.0);
    setAcceptHoverEvents(false);
    setAcceptedMouseButtons(Qt::NoButton);
}

void PolylineItem::setPoints(const QList<QPointF>& points)
{
    if (points == m_points)
        return;
    m_points = points;
    update();
}

void PolylineItem::setPen(const QPen& pen)
{
    m_pen = pen;
    update();
}

void PolylineItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_points.size() < 2)
        return;
    const Mapping to(this);
    p->setClipRect(m_plot);
    p->setRenderHint(QPainter::Antialiasing, true);
    QPolygonF line;
    line.reserve(m_points.size());
    for (const QPointF& v : m_points)
        line << to(v.x(), v.y());
    p->setBrush(Qt::NoBrush);
    p->setPen(m_pen);
    p->drawPolyline(line);
}

// ---- stacked areas ------------------------------------------------------------------------------------------

void StackedAreasItem::setData(const QList<double>& x, const std::array<QList<double>, kMemoryCategoryCount>& values)
{
    m_x.assign(x.begin(), x.end());
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        m_top[c].resize(m_x.size());
        for (std::size_t i = 0; i < m_x.size(); ++i)
            m_top[c][i] = (c > 0 ? m_top[c - 1][i] : 0.0) + std::max(0.0, values[c].value(qsizetype(i)));
    }
    update();
}

void StackedAreasItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_x.empty())
        return;
    const Mapping to(this);
    p->setClipRect(m_plot);
    p->setPen(Qt::NoPen);
    const std::size_t n = m_x.size();
    // Positions of every cumulative edge, the baseline first.
    std::vector<double> px(n);
    for (std::size_t i = 0; i < n; ++i)
        px[i] = to(m_x[i], 0.0).x();
    std::vector<double> lower(n, to(m_x[0], 0.0).y());
    std::vector<double> upper(n);
    QPolygonF poly;
    poly.reserve(2 * qsizetype(n));
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        for (std::size_t i = 0; i < n; ++i)
            upper[i] = to(m_x[i], m_top[c][i]).y();
        poly.clear();
        for (std::size_t i = 0; i < n; ++i)
            poly.append(QPointF(px[i], upper[i]));
        for (std::size_t i = n; i-- > 0;)
            poly.append(QPointF(px[i], lower[i]));
        p->setBrush(categoryColor(MemoryCategory(c)));
        p->drawPolygon(poly);
        std::swap(lower, upper);
    }
}

void StackedAreasItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    const QPointF v = unmap(event->pos());
    if (m_x.empty()) {
        event->ignore();
        return;
    }
    const auto it = std::lower_bound(m_x.begin(), m_x.end(), v.x());
    const std::size_t i = std::min<std::size_t>(std::size_t(it - m_x.begin()), m_x.size() - 1);
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        if (v.y() <= m_top[c][i] && v.y() >= (c > 0 ? m_top[c - 1][i] : 0.0)) {
            emit clicked(c);
            return;
        }
    }
    event->ignore();
}

// ---- dots ---------------------------------------------------------------------------------------------------

void DotsItem::setDots(std::vector<Dot> dots)
{
    // Larger dots first, so that small ones stay visible on top.
    std::stable_sort(dots.begin(), dots.end(), [](const Dot& a, const Dot& b) { return a.diameter > b.diameter; });
    m_dots = std::move(dots);
    m_hover = -1;
    update();
}

QBrush DotsItem::brushOf(std::size_t i) const
{
    if (m_hollow)
        return Qt::NoBrush;
    QColor fill = m_dots[i].color;
    fill.setAlphaF(0.85);
    return int(i) == m_hover ? fill.lighter(130) : fill;
}

QPen DotsItem::penOf(std::size_t i) const
{
    return m_hollow ? QPen(m_dots[i].color, 1.5, Qt::SolidLine) : QPen(m_dots[i].color.darker(150), 0.0);
}

const QPixmap& DotsItem::sprite(std::size_t i, qreal pixelRatio)
{
    const QBrush brush = brushOf(i);
    const QPen pen = penOf(i);
    const double diameter = m_dots[i].diameter;
    const auto key = std::make_tuple(brush.style() == Qt::NoBrush ? QRgb(0) : brush.color().rgba(), pen.color().rgba(),
                                     m_hollow, int(std::lround(diameter * 64)), int(std::lround(pixelRatio * 64)));
    if (const auto known = m_sprites.find(key); known != m_sprites.end())
        return known->second;
    if (m_sprites.size() > 256) // colours and sizes vary little; a hover or a zoom must not grow this for ever
        m_sprites.clear();
    const int side = int(std::ceil(diameter + 4.0));
    QPixmap pixmap(QSize(side, side) * pixelRatio);
    pixmap.setDevicePixelRatio(pixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(brush);
    p.setPen(pen);
    p.drawEllipse(QPointF(side / 2.0, side / 2.0), diameter / 2.0, diameter / 2.0);
    p.end();
    return m_sprites.emplace(key, std::move(pixmap)).first->second;
}

void DotsItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    p->setClipRect(m_plot);
    p->setRenderHint(QPainter::Antialiasing, true);
    // On screen (raster, unscaled) each dot is a cached pixmap; in a vector or scaled export, an ellipse.
    const bool sprites = p->paintEngine()->type() == QPaintEngine::Raster
        && p->transform().type() <= QTransform::TxTranslate;
    const qreal ratio = p->device()->devicePixelRatioF();
    const Mapping to(this);
    for (std::size_t i = 0; i < m_dots.size(); ++i) {
        const Dot& d = m_dots[i];
        const QPointF c = to(d.at.x(), d.at.y());
        // Outside the axes' ranges: not drawn at all, since QSvgGenerator writes no clip and the SVG would show it.
        if (!m_plot.contains(c))
            continue;
        if (sprites) {
            const QPixmap& s = sprite(i, ratio);
            const double half = s.width() / ratio / 2.0;
            p->drawPixmap(QPointF(std::round(c.x() - half), std::round(c.y() - half)), s);
            continue;
        }
        p->setBrush(brushOf(i));
        p->setPen(penOf(i));
        p->drawEllipse(c, d.diameter / 2.0, d.diameter / 2.0);
    }
}

int DotsItem::dotAt(const QPointF& pos) const
{
    // The smallest dot under the cursor (small dots are drawn on top).
    for (std::size_t i = m_dots.size(); i-- > 0;) {
        const QPointF c = map(m_dots[i].at.x(), m_dots[i].at.y());
        const double r = std::max(4.0, m_dots[i].diameter / 2.0);
        if (m_plot.contains(c) && QLineF(c, pos).length() <= r) // a dot not drawn is not under the cursor
            return int(i);
    }
    return -1;
}

void DotsItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event)
{
    const int i = dotAt(event->pos());
    if (i == m_hover)
        return;
    if (m_hover >= 0)
        emit hovered(m_dots[m_hover].id, false);
    m_hover = i;
    if (i >= 0)
        emit hovered(m_dots[i].id, true);
    update();
}

void DotsItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*)
{
    if (m_hover >= 0)
        emit hovered(m_dots[m_hover].id, false);
    m_hover = -1;
    update();
}

void DotsItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    const int i = dotAt(event->pos());
    if (i >= 0)
        emit clicked(m_dots[i].id);
    else
        event->ignore();
}

} // namespace headroom::gui
