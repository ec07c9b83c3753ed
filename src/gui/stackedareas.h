#pragma once

// Stacked area series for the seven memory categories, shared by the batch-sweep and timeline charts. Each
// category's upper edge is a cumulative QLineSeries; its area's lower edge is the previous category's upper edge,
// so an update replaces seven point lists and nothing is rebuilt.

#include "types.h"

#include <QList>
#include <QPointF>

#include <array>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace headroom::gui {

class StackedAreas {
public:
    StackedAreas(QChart* chart, QAbstractAxis* x, QAbstractAxis* y);

    // values[c][i] is category c at x[i]; y is divided by `scale` for display.
    void setData(const QList<double>& x, const std::array<QList<double>, kMemoryCategoryCount>& values, double scale);
    void setLineWidth(qreal w);
    QAreaSeries* area(MemoryCategory c) const { return m_areas[index(c)]; }
    QLineSeries* upper(MemoryCategory c) const { return m_upper[index(c)]; }
    // Read back the stacked top at point i (for tests).
    double topAt(int i) const;

private:
    std::array<QLineSeries*, kMemoryCategoryCount> m_upper {};
    std::array<QAreaSeries*, kMemoryCategoryCount> m_areas {};
    double m_scale = 1.0;
};

} // namespace headroom::gui
