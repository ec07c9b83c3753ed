#pragma once

// Where the memory goes: one stacked bar per phase of the training step (the highest point of the forward pass,
// of the backward pass and of the optimizer step), split by category, against the GPU's capacity line, with the
// headroom or the overflow written above the tallest bar.

#include "chartpanel.h"

#include <array>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QGraphicsPathItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace headroom::gui {

class StackedBarsItem;

class MemoryChartView : public ChartPanel {
    Q_OBJECT

public:
    explicit MemoryChartView(QWidget* parent = nullptr);

    void setResult(const std::shared_ptr<const SimulationResult>& result) override;
    void setChartStyle(const ChartStyle& style) override;
    // The one answer to "does it fit?" (fitVerdict: the caching allocator replayed under the capacity), once the
    // background search has it; until then the label says what the peak says. Above each bar, outlined, what the
    // allocator holds besides the tensors at that phase's peak (`replay`'s reserved + context, less the bar): where
    // the verdict says "over" with every bar under the capacity line, this is what crosses it.
    void setFitVerdict(const FitVerdict& verdict, const AllocatorEstimate& replay);

    // Read back for tests: bytes of a category in a phase's bar, the capacity line's height, the verdict label.
    double barValue(Phase phase, MemoryCategory category) const;
    double baselineBarValue(Phase phase, MemoryCategory category) const; // 0 without a baseline
    double capacityLine() const;
    QString verdictText() const;
    bool overflowShown() const;
    double cacheTop(Phase phase) const; // bytes up to which the allocator's outline reaches; 0 where none is drawn
    QList<QRectF> dataRects() const override; // the bars and the capacity line, in scene coordinates

private:
    void placeLabels() override;
    void fitPhaseNames();
    bool placeVerdict(); // false where no place is clear of the other labels and the bars
    bool makeRoomForVerdict();
    void retranslate() override;
    void applyOverflowStyle();
    void showFit(bool fits, double freeBytes, bool byCache = false, int failedPhase = -1);
    void placeCache();
    void fitAxis(double atLeast);

    StackedBarsItem* m_bars = nullptr;
    StackedBarsItem* m_ghost = nullptr; // the baseline's bars
    QGraphicsSimpleTextItem* m_baselineLabel = nullptr;
    bool m_baselineKeyWanted = false; // a baseline is shown: its key, unless the verdict needs its place
    QLineSeries* m_capacity = nullptr;
    QCategoryAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QGraphicsSimpleTextItem* m_verdict = nullptr;
    QString m_verdictText;  // on one line; the item's text may be wrapped
    QString m_capacityText; // "12.0 GiB capacity"
    std::array<QString, 3> m_phaseNames;
    std::array<QString, 3> m_phaseShort; // "Fwd", where a narrow chart has no room for "Forward"
    QGraphicsSimpleTextItem* m_capacityLabel = nullptr;
    std::array<double, 3> m_totals {};
    std::array<double, 3> m_baseTotals {}; // the baseline's bars, zero without one
    std::array<double, 3> m_device {};     // what the device holds at each phase's peak (the replay), 0 unknown
    QGraphicsPathItem* m_cache = nullptr;  // the outlines from each bar's top up to m_device
    double m_barWidth = 0.6, m_barOffset = 0.0;
    void placeCapacityLabel();
    QList<QRectF> barRects() const;
    QRectF capacityBand() const;
    int m_tallest = 0;
    double m_capacityBytes = 0.0;
    bool m_overflow = false;
};

} // namespace headroom::gui
