#pragma once

// Base of every chart view: a QChartView that receives the simulation result and a style, and updates its series
// in place. Subclasses create their chart, axes and series once; setResult() only replaces points and values, so
// a slider tick never rebuilds a QChart.

#include "chartstyle.h"
#include "simulationcontroller.h"

#include <QChartView>

namespace headroom::gui {

// What a click on a chart element asks the explain panel to show.
struct ExplainRequest {
    enum class Topic { Category, Operator, Roof, Timeline, Capacity } topic = Topic::Category;
    MemoryCategory category = MemoryCategory::Weights;
    int operatorIndex = -1; // into Estimate::operatorPoints
    MathUnit unit = MathUnit::Fp32Vector;
    int step = -1; // timeline step
};

class ChartPanel : public QChartView {
    Q_OBJECT

public:
    explicit ChartPanel(QWidget* parent = nullptr);

    virtual void setResult(const std::shared_ptr<const SimulationResult>& result) = 0;
    virtual void setChartStyle(const ChartStyle& style);
    // Caches the chart's text and grid items as pixmaps: axis labels are rich-text documents that Qt Charts lays
    // out again on every paint otherwise. Call after the chart's items exist (and after a style change).
    void cacheStaticItems();
    const ChartStyle& chartStyle() const { return m_style; }
    QString title() const;

signals:
    void explainRequested(const headroom::gui::ExplainRequest& request);

protected:
    ChartStyle m_style;
};

} // namespace headroom::gui
