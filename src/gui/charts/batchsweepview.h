#pragma once

// Memory at the peak against micro-batch: the breakdown stacked by category for batch sizes from 1 up past the
// largest that fits, with the capacity line and a marker at the current batch, so that the point where the run
// stops fitting is visible.

#include "chartpanel.h"

#include <cstdint>
#include <memory>

QT_BEGIN_NAMESPACE
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace headroom::gui {

class PolylineItem;
class StackedAreasItem;

class BatchSweepView : public ChartPanel {
    Q_OBJECT

public:
    explicit BatchSweepView(QWidget* parent = nullptr);
    ~BatchSweepView() override;

    void setResult(const std::shared_ptr<const SimulationResult>& result) override;
    void setChartStyle(const ChartStyle& style) override;
    // The largest micro-batch whose allocator replay completes, once the background search has it (the verdict's);
    // until then the one whose peak fits.
    void setLargestFitting(std::int64_t microBatch);
    // What the device holds at each batch of the shown sweep by the allocator replay (SearchResult::
    // allocatorCurve), drawn dashed over the peak's areas: the curve whose crossing of the capacity "largest that
    // fits" is. Hidden until the background search gives it for the shown result.
    void setAllocatorCurve(const std::vector<std::pair<double, double>>& curve);
    QList<QPointF> allocatorCurve() const; // (micro-batch, bytes); empty while hidden

    // For tests: the stacked peak at the i-th batch, the batches, the marker and the capacity line.
    double peakAt(int i) const;
    QList<double> batches() const { return m_batches; }
    QPointF marker() const;
    double largestFitting() const { return m_maxBatch; } // where "largest that fits" points
    // The tick across the capacity line at the largest micro-batch that fits, in the chart's coordinates; empty
    // while it is hidden (nothing fits, or the largest lies outside the axis).
    QLineF largestFittingMark() const;
    QRectF largestFittingLabel() const; // the label, chart coordinates
    QRectF largestFittingPlate() const; // the plate under it, chart coordinates
    QRectF allocatorKeyRect() const;    // "- - with PyTorch's allocator", chart coordinates; empty when hidden
    QRectF allocatorKeyPlate() const;   // the plate under it where the current batch's line crosses it; else empty
    double cursorX() const;             // the current batch's dotted line, chart coordinates
    double capacityLine() const;
    QList<QPointF> baselineCurve() const; // GiB against micro-batch; empty without a baseline

protected:
    void retranslate() override;

private:
    void placeLabels() override;

    StackedAreasItem* m_areas = nullptr;
    QLineSeries* m_capacity = nullptr;       // anchors the plot items to the axes; drawn by m_capacityLine
    PolylineItem* m_capacityLine = nullptr;  // above the stacked areas
    PolylineItem* m_baselineCurve = nullptr; // the baseline's peak against micro-batch, dash-dotted
    PolylineItem* m_allocatorLine = nullptr; // what the device holds by the allocator replay, dashed
    QGraphicsSimpleTextItem* m_allocatorKey = nullptr;
    QLineSeries* m_cursor = nullptr;
    QScatterSeries* m_marker = nullptr;
    QLogValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QGraphicsSimpleTextItem* m_label = nullptr;
    // The label names a micro-batch: the tick marks it on the capacity line, where the label may stand aside from
    // the current batch's dotted line ("largest that fits: 12" beside the line at 4, nothing at 12).
    QGraphicsLineItem* m_fitMark = nullptr;
    QGraphicsRectItem* m_keyPlate = nullptr; // under the key where the current batch's line crosses it
    QGraphicsRectItem* m_labelPlate = nullptr;
    QList<double> m_batches;
    double m_capacityBytes = 0.0;
    double m_maxBatch = 0.0;
};

} // namespace headroom::gui
