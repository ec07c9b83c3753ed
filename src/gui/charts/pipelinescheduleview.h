#pragma once

// The pipeline schedule under the memory charts when the job has pipeline stages: one row per stage, each
// micro-batch's forward and backward where the core's pipelineTimeline puts them, the idle time between them (the
// bubble) as the gaps, and the stage the memory charts show picked out. Painted, not a chart: a slider tick replaces
// the spans and repaints.

#include "chartstyle.h"
#include "pipelineschedule.h"

#include <QWidget>

namespace headroom::gui {

class PipelineScheduleView : public QWidget {
    Q_OBJECT

public:
    explicit PipelineScheduleView(QWidget* parent = nullptr);

    // The job's timeline, the stage the charts show, and the step it belongs to; hidden without a pipeline.
    void setTimeline(const PipelineTimeline& timeline, int shownStage, double stepSeconds);
    void setChartStyle(const ChartStyle& style);
    QString summary() const; // the line under the rows, for tests and screen readers

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF rowsArea() const;
    const PipelineSpan* spanAt(const QPointF& pos) const;

    PipelineTimeline m_timeline;
    int m_stages = 0; // rows: the stages the timeline has
    int m_shown = 0;
    double m_stepSeconds = 0.0;
    ChartStyle m_style;
};

} // namespace headroom::gui
