#pragma once

// Memory over one training step: the simulated allocation timeline (forward, backward with recomputation, the
// optimizer step) stacked by category against time, with the phases marked, the capacity line, and the peak
// marked and named ("peak in the backward of layer 3: 11.4 GiB").

#include "chartpanel.h"

#include <array>
#include <memory>

QT_BEGIN_NAMESPACE
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace headroom::gui {

class PolylineItem;
class StackedAreasItem;

class TimelineView : public ChartPanel {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setResult(const std::shared_ptr<const SimulationResult>& result) override;
    void setChartStyle(const ChartStyle& style) override;
    // What headroom-probe measured (torch.cuda.max_memory_allocated), dotted across the step; none to hide it.
    void setMeasuredPeak(std::optional<double> bytes);
    // The verdict once the background search has it: where the caching allocator's replay decided, the peak's label
    // adds what the device holds with it ("peak ...: 10.60 GiB; 12.39 GiB with PyTorch's allocator"): the timeline
    // draws the tensors, and stayed under the line while the verdict said "over".
    void setFitVerdict(const FitVerdict& verdict);

    // For tests.
    int pointCount() const;
    double topAt(int i) const;
    QPointF peakMarker() const; // (ms, bytes)
    QString peakText() const;
    QString peakLabelShown() const;        // as the chart shows it: wrapped, or shortened to the plot's width
    QString lengthShown() const;           // how long 100 % is, as the chart shows it
    QString measuredText() const;          // empty when no measurement is shown
    QList<QRectF> phaseLabelRects() const; // forward, backward, optimizer: where their names stand, chart coordinates
    QStringList phaseLabelTexts() const;   // as shown: a name standing before its phase ends in an arrow to it
    QList<double> phaseBoundaries() const; // x of the dotted lines between the phases, chart coordinates
    QRectF peakLabelRect() const;          // the peak's label, chart coordinates
    QRectF peakMarkerRect() const;         // the square the peak's marker is drawn in, chart coordinates
    QList<QRectF> fillRects() const;       // the filled areas under the curve, in strips, chart coordinates
    static constexpr int kMaxPoints = 160; // the timeline is bucketed to this many points, keeping each bucket's peak

protected:
    void retranslate() override;

private:
    void placeLabels() override;
    QString timeAxisTitle() const;
    bool wholeStep() const; // the timeline is the whole step: no accumulation, exposed communication or bubble
    std::array<QString, 2> lengthTexts() const;
    void placeLengthLabel();

    StackedAreasItem* m_areas = nullptr;
    QLineSeries* m_capacity = nullptr;      // anchors the plot items to the axes; drawn by m_capacityLine
    PolylineItem* m_capacityLine = nullptr; // above the stacked areas
    PolylineItem* m_baselineLine = nullptr; // the baseline's total memory over its step, dash-dotted
    PolylineItem* m_measuredLine = nullptr; // the measured peak, dotted
    QGraphicsSimpleTextItem* m_measuredLabel = nullptr;
    std::optional<double> m_measuredBytes;
    QLineSeries* m_phaseLines = nullptr;
    QScatterSeries* m_peak = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QGraphicsSimpleTextItem* m_peakLabel = nullptr;
    QGraphicsRectItem* m_peakPlate = nullptr; // under the peak's label, where a small plot leaves it over the fill
    QGraphicsSimpleTextItem* m_lengthLabel = nullptr; // how long 100 % is, under the x axis's title
    std::array<QString, 2> m_lengthTexts;             // its text, whole and brief, before it is cut to the chart
    QMargins m_baseMargins;                           // the chart's margins without the line for it
    QString m_peakText;                               // the label unwrapped
    QString m_peakBase;                               // the label without the verdict's figure
    QString m_peakShort;                              // the size alone, where no allocator replay decided the verdict
    // Between the two: the size and, where the allocator replay decided the verdict, what it holds (at 1024x768 the
    // size alone read "peak 11.31 GiB" under a headline of "needs 12.16 GiB").
    QString m_peakSizes;
    QString m_peakCounted; // the shortest: what the verdict counts alone ("needs 12.16 GiB"), else the size
    QString m_peakBytes;   // the size, formatted
    std::array<QGraphicsSimpleTextItem*, 3> m_phaseLabels {};
    std::array<QString, 3> m_phaseNames;    // in the language shown
    std::array<double, 4> m_phaseBounds {}; // ms: forward start, backward start, optimizer start, end
    int m_points = 0;
    double m_stepSeconds = 0.0;      // what the timeline spans (one micro-batch and the optimizer), for the axis title
    double m_wholeStepSeconds = 0.0; // the whole step: every micro-batch, exposed communication, the bubble
    int m_microBatches = 1;          // gradient accumulation steps
};

} // namespace headroom::gui
