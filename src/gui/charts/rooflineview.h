#pragma once

// The roofline (Williams, Waterman & Patterson 2009) of the training step on a log-log plot: the memory-bandwidth
// slope labelled with its value, one compute roof per precision the GPU has, the ridge point of the precision in
// use, the step's operators as dots (area by share of step time, colour by kind) and the whole step as a star.

#include "chartpanel.h"

#include <QMargins>
#include <QPolygonF>

#include <array>
#include <vector>

QT_BEGIN_NAMESPACE
class QGraphicsEllipseItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace headroom::gui {

class DotsItem;

class RooflineView : public ChartPanel {
    Q_OBJECT

public:
    explicit RooflineView(QWidget* parent = nullptr);

    void setResult(const std::shared_ptr<const SimulationResult>& result) override;
    void setChartStyle(const ChartStyle& style) override;

    // For tests: the slope of the bandwidth roof (FLOP/s per FLOP/byte = bytes/s), a compute roof's height,
    // the dots of one operator kind, the whole-step marker.
    double bandwidthSlope() const;
    double computeRoof(MathUnit unit) const; // 0 when not drawn
    QList<QPointF> dots(OpKind kind) const;
    QPointF stepMarker() const;
    QList<QPointF> baselineDots() const; // empty without a baseline
    QString bandwidthLabel() const;
    double linkSlope() const;   // the communication roof's bytes/s; 0 on one GPU (rooflinelink.cpp)
    QPointF linkMarker() const; // the step at its FLOPs per byte sent
    QList<QRectF> dataRects() const override;

protected:
    void retranslate() override;

private:
    void placeLabels() override;       // rooflinelabels.cpp
    void setupLinkRoof(QChart* chart); // rooflinelink.cpp
    void styleLinkRoof();
    void updateLinkRoof(const Estimate& e, double peak, double xmin, double ymin);
    // The places a label may take, with what it must not cover: the texts placed before it and the data.
    struct Obstacles {
        QRectF inside; // the plot, a pixel larger
        std::vector<QPolygonF> texts;
        std::vector<QRectF> data;
        bool clear(const QPolygonF& shape) const;
    };
    struct Placed {
        bool roof = false;   // the roof in use is named where it covers nothing
        bool legend = false; // the legend is inside the plot
    };
    Placed placeAllLabels(bool legendInside);
    void placeLegendBelow(bool below);
    QRectF arrangeLegend(int columns, double width = 0.0);
    double legendRow() const;
    double legendItemWidth() const;
    void placeLinkLabel(Obstacles& free);
    bool placeRoofLabels(const QRectF& plot, Obstacles& free);
    void placeRidgeLabel(const QRectF& plot, Obstacles& free);
    bool placeBandwidthLabel(Obstacles& free);
    bool placeLegend(const QRectF& plot, Obstacles& free);
    std::vector<QRectF> dataInChart() const; // the dots and stars, in the chart's coordinates
    void applyRoofStyle();
    void updateRoofs(const Estimate& e, double xmax);
    void showDotTooltip(int operatorIndex);

    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_bandwidth = nullptr;
    QLineSeries* m_ridge = nullptr;
    std::array<QLineSeries*, kMathUnitCount> m_roofs {};
    DotsItem* m_dots = nullptr; // one dot per operator group, area proportional to its share of step time
    QScatterSeries* m_step = nullptr;
    DotsItem* m_baselineDots = nullptr; // the baseline's operators, hollow
    QScatterSeries* m_baselineStep = nullptr;
    QGraphicsSimpleTextItem* m_bandwidthLabel = nullptr;
    QString m_bandwidthText;  // "392 GB/s (what-if)"
    QString m_bandwidthShort; // "392 GB/s", where the chart has no room for the rest
    QGraphicsSimpleTextItem* m_ridgeLabel = nullptr;
    QLineSeries* m_link = nullptr;        // the communication roof
    QScatterSeries* m_linkStep = nullptr; // the step at its communication intensity
    QGraphicsSimpleTextItem* m_linkLabel = nullptr;
    QString m_linkText;
    std::array<QGraphicsSimpleTextItem*, kMathUnitCount> m_roofLabels {};
    std::array<bool, kMathUnitCount> m_roofDrawn {}; // one roof per distinct peak
    std::array<QString, kMathUnitCount> m_roofText;  // "FP16/BF16 47.2 TFLOP/s"
    std::array<QString, kMathUnitCount> m_roofShort; // "47.2 TFLOP/s", where a narrow chart has no room for more
    // Plates in the plot's colour behind the roof and ridge labels, so that a roof line or an operator's dot
    // passing under a label does not make it unreadable.
    std::array<QGraphicsRectItem*, kMathUnitCount> m_roofPlates {};
    QGraphicsRectItem* m_ridgePlate = nullptr;
    QGraphicsRectItem* m_legendBox = nullptr;
    std::array<QGraphicsEllipseItem*, kOpKindCount> m_legendDots {};
    std::array<QGraphicsSimpleTextItem*, kOpKindCount> m_legendTexts {};
    std::array<bool, kOpKindCount> m_kindShown {};
    std::shared_ptr<const SimulationResult> m_result;
    double m_bandwidthBytes = 0.0;
    double m_ymin = 1.0, m_ymax = 10.0; // the y axis before any headroom for the legend
    bool m_placing = false;
    QMargins m_baseMargins; // the chart's own, before the legend below it takes its height
    QSizeF m_minimumWithoutLegend;
    MathUnit m_activeUnit = MathUnit::Fp32Vector;
};

} // namespace headroom::gui
