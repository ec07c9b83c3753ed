#include "stackedareas.h"

#include "chartstyle.h"
#include "labels.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>

namespace headroom::gui {

StackedAreas::StackedAreas(QChart* chart, QAbstractAxis* x, QAbstractAxis* y)
{
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        m_upper[c] = new QLineSeries(chart);
        m_areas[c] = new QAreaSeries(m_upper[c], c > 0 ? m_upper[c - 1] : nullptr);
        m_areas[c]->setName(Labels::category(MemoryCategory(c)));
        const QColor color = categoryColor(MemoryCategory(c));
        m_areas[c]->setColor(color);
        m_areas[c]->setBorderColor(color.darker(120));
        chart->addSeries(m_areas[c]);
        m_areas[c]->attachAxis(x);
        m_areas[c]->attachAxis(y);
    }
}

void StackedAreas::setData(const QList<double>& x, const std::array<QList<double>, kMemoryCategoryCount>& values,
                           double scale)
{
    m_scale = scale;
    QList<double> cumulative(x.size(), 0.0);
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        QList<QPointF> pts;
        pts.reserve(x.size());
        for (qsizetype i = 0; i < x.size(); ++i) {
            cumulative[i] += std::max(0.0, values[c].value(i)) / scale;
            pts.append(QPointF(x[i], cumulative[i]));
        }
        m_upper[c]->replace(pts);
    }
}

void StackedAreas::setLineWidth(qreal w)
{
    for (auto* a : m_areas) {
        QPen p = a->pen();
        p.setWidthF(w * 0.5);
        a->setPen(p);
    }
}

double StackedAreas::topAt(int i) const
{
    const QLineSeries* top = m_upper[kMemoryCategoryCount - 1];
    return i < top->count() ? top->at(i).y() * m_scale : 0.0;
}

} // namespace headroom::gui
