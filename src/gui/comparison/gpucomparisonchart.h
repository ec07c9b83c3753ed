#pragma once

// Two small horizontal bar charts for the GPU comparison, painted directly (a handful of bars does not need a
// QChart, and painting keeps the chart code in this one class): time per epoch per GPU, and the step's peak
// memory against each GPU's capacity, with the part that does not fit in the overflow colour. A GPU where the
// step does not fit gets no epoch bar but the words "does not fit", so that colour is never the only signal.

#include "chartstyle.h"
#include "comparison.h"

#include <QWidget>

#include <vector>

namespace headroom::gui {

class GpuComparisonChart : public QWidget {
    Q_OBJECT

public:
    explicit GpuComparisonChart(QWidget* parent = nullptr);

    void setRows(const std::vector<GpuComparisonRow>& rows);
    void setChartStyle(const ChartStyle& style);
    const ChartStyle& chartStyle() const { return m_style; }

    // For tests: the epoch bars' values in seconds (0 where the step does not fit) and the memory scale's top.
    QList<double> epochBars() const;
    double memoryScaleTop() const { return m_memoryTop; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The colour of "fits" everywhere in the comparison: Okabe & Ito's bluish green, as in the verdict line.
    static QColor fitsColor();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Bar {
        QString label;
        double capacityBytes = 0.0;
        double peakBytes = 0.0;
        double epochSeconds = 0.0;
        bool fits = false;
    };
    int rowHeight() const;
    int minimumRowHeight() const; // a label's line: what a row needs to be read
    void paintPanel(QPainter& p, const QRect& area, int rowHeight, bool epoch) const;

    std::vector<Bar> m_bars;
    ChartStyle m_style;
    double m_epochTop = 0.0;
    double m_memoryTop = 0.0;
};

} // namespace headroom::gui
