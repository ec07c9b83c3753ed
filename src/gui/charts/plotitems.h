#pragma once

// Data drawn straight into a QChart's plot area, for the parts that must update on every slider tick. Qt Charts'
// own bar, area and scatter series rebuild a graphics item per bar or marker and stroke every outline on each
// change, which alone costs several milliseconds a tick; these items paint their shapes in one pass, in data
// coordinates mapped through the chart's axes (via an anchor series attached to them), and report hover and
// clicks. Axes, grid, titles and thin lines stay Qt Charts'.

#include "types.h"

#include <QColor>
#include <QGraphicsObject>
#include <QList>
#include <QPen>
#include <QPixmap>
#include <QPointF>

#include <array>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
QT_END_NAMESPACE

namespace headroom::gui {

class PlotItem : public QGraphicsObject {
    Q_OBJECT

public:
    PlotItem(QChart* chart, QAbstractSeries* anchor);
    QRectF boundingRect() const override;
    // Call after the chart's geometry or axes change.
    void relayout();

protected:
    QPointF map(double x, double y) const;
    QPointF unmap(const QPointF& position) const;

    // map() for many points: the chart's axes as two affine maps (of the logarithm on a log axis), taken once from
    // map() itself. QChart::mapToPosition() looks up the series' domain on every call, a third of a microsecond; a
    // sweep of seven stacked areas maps a few thousand points a repaint.
    class Mapping {
    public:
        explicit Mapping(const PlotItem* item);
        QPointF operator()(double x, double y) const;

    private:
        struct Axis {
            bool log = false;
            double a = 0.0, b = 1.0;
            bool maps(double v) const { return std::isfinite(v) && (!log || v > 0.0); }
            double operator()(double v) const { return a + b * (log ? std::log(v) : v); }
        };
        const PlotItem* m_item;
        Axis m_x, m_y;
    };

    QChart* m_chart;
    QAbstractSeries* m_anchor;
    QRectF m_plot;
};

// Stacked bars of memory categories: one bar per phase.
class StackedBarsItem : public PlotItem {
    Q_OBJECT

public:
    StackedBarsItem(QChart* chart, QAbstractSeries* anchor, int bars);
    void setValues(int bar, const CategoryBytes& values, double scale);
    double value(int bar, MemoryCategory c) const { return m_values[bar][index(c)]; }
    void setBarWidth(double w) { m_width = w; }
    // Bars centred at index + offset; a ghost is painted faintly with an outline (a baseline to compare with).
    void setOffset(double dx) { m_offset = dx; }
    void setGhost(bool on) { m_ghost = on; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

signals:
    void hovered(int bar, int category, bool on);
    void clicked(int bar, int category);

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    bool hit(const QPointF& pos, int* bar, int* category) const;

    std::vector<CategoryBytes> m_values; // in display units
    double m_width = 0.6;
    double m_offset = 0.0;
    bool m_ghost = false;
    int m_hoverBar = -1, m_hoverCategory = -1;
};

// Stacked areas of memory categories against x.
class StackedAreasItem : public PlotItem {
    Q_OBJECT

public:
    using PlotItem::PlotItem;
    // values[c][i]: category c at x[i], in display units.
    void setData(const QList<double>& x, const std::array<QList<double>, kMemoryCategoryCount>& values);
    int count() const { return int(m_x.size()); }
    double topAt(int i) const { return i < count() ? m_top[kMemoryCategoryCount - 1][i] : 0.0; }
    double xAt(int i) const { return i < count() ? m_x[std::size_t(i)] : 0.0; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

signals:
    void clicked(int category);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    std::vector<double> m_x;
    std::array<std::vector<double>, kMemoryCategoryCount> m_top; // cumulative
};

// A line through data points drawn above the data items (Qt Charts' own line series can end up beneath them):
// capacity lines and the baseline's outline.
class PolylineItem : public PlotItem {
    Q_OBJECT

public:
    PolylineItem(QChart* chart, QAbstractSeries* anchor);
    void setPoints(const QList<QPointF>& points);
    const QList<QPointF>& points() const { return m_points; }
    void setPen(const QPen& pen);
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

private:
    QList<QPointF> m_points;
    QPen m_pen;
};

// Dots of given data position, diameter and colour; reports the dot under the cursor.
class DotsItem : public PlotItem {
    Q_OBJECT

public:
    struct Dot {
        QPointF at;      // data coordinates
        double diameter; // pixels
        QColor color;
        int id;
    };
    using PlotItem::PlotItem;
    void setDots(std::vector<Dot> dots);
    const std::vector<Dot>& dots() const { return m_dots; }
    // Hollow dots: outlines only, for a baseline beside the current dots.
    void setHollow(bool on) { m_hollow = on; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override;

signals:
    void hovered(int id, bool on);
    void clicked(int id);

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

private:
    int dotAt(const QPointF& pos) const;
    // How dot `i` is drawn: its fill and outline.
    QBrush brushOf(std::size_t i) const;
    QPen penOf(std::size_t i) const;
    // Dot `i` drawn once into a pixmap, kept for the next repaint (the raster engine fills an antialiased ellipse as
    // a path, a few microseconds a dot; a pixmap is a copy).
    const QPixmap& sprite(std::size_t i, qreal pixelRatio);

    std::vector<Dot> m_dots;
    int m_hover = -1;
    bool m_hollow = false;
    // By fill, outline colour, hollow, diameter and pixel ratio (the last two in 1/64 pixels).
    std::map<std::tuple<QRgb, QRgb, bool, int, int>, QPixmap> m_sprites;
};

} // namespace headroom::gui
