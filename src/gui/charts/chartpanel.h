#pragma once

// Base of every chart view: a QChartView that receives the simulation result and a style, and updates its series
// in place. Subclasses create their chart, axes and series once; setResult() only replaces points and values, so
// a slider tick never rebuilds a QChart.

#include "chartstyle.h"
#include "simulate.h"

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
    // A pinned earlier result drawn faintly beside the current one (ghosted bars, a dashed outline, hollow dots);
    // null to stop comparing. Takes effect with the next setResult().
    void setBaseline(const std::shared_ptr<const SimulationResult>& baseline) { m_baseline = baseline; }
    virtual void setChartStyle(const ChartStyle& style);
    const ChartStyle& chartStyle() const { return m_style; }
    QString title() const;

signals:
    void explainRequested(const headroom::gui::ExplainRequest& request);

protected:
    // Sets the texts that do not depend on the result (titles, axis names); called again on a language change,
    // before the window passes the result again.
    virtual void retranslate() {}
    void changeEvent(QEvent* event) override;

    ChartStyle m_style;
    std::shared_ptr<const SimulationResult> m_baseline;
};

} // namespace headroom::gui
