#pragma once

// View › Plan a Multi-GPU Layout: `headroom plan` in the window. For the scenario's GPU, model, sequence and
// precision and the job's GPUs, GPUs per node and global batch, every layout (t, p, cp, dp, ep, schedule, SP, ZeRO,
// checkpointing, micro-batch, and when nothing fits without them the levers: precision, optimizer, offload) is
// simulated on a worker, and the view shows those that fit, fastest first, the
// Pareto front of memory per GPU against step time, and why the others were rejected. Double-clicking a layout
// asks the window to apply it (layoutRequested).
//
// The plan is recomputed a moment after the last change while the view is visible; a result that arrives after a
// newer change is dropped.

#include "chartstyle.h"
#include "planner.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QTimer;
class QValueAxis;
template <typename T>
class QFutureWatcher;
QT_END_NAMESPACE

#include <optional>
#include <string>

namespace headroom::gui {

class PlanView : public QWidget {
    Q_OBJECT

public:
    explicit PlanView(const Catalog& catalog, QWidget* parent = nullptr);
    ~PlanView() override;

    // The last plan shown, and whether one is being computed.
    const PlanResult& result() const { return m_result; }
    bool busy() const;
    QTableWidget* table() const { return m_table; }
    QSpinBox* gpusSpin() const { return m_gpus; }
    QString status() const;
    void setChartStyle(const ChartStyle& style);
    // A rejection of the planner in the window's language, by its kind (a switch that -Wswitch keeps complete); a
    // layout the simulator refused keeps the simulator's message.
    static QString reasonText(const PlanRejection& rejection);
    // The levers the view allows: `headroom plan`'s default (precision, optimizer and offload, pulled only when no
    // layout fits without them).
    static PlanLevers windowLevers();

public slots:
    void setScenario(const headroom::Scenario& scenario);
    void refresh(); // starts a plan now if anything changed

signals:
    void layoutRequested(const headroom::TrainingConfig& config);
    void planShown(); // after a result is on screen

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Outcome {
        PlanResult result;
        QString error;
        unsigned generation = 0;
    };
    void start();
    void show(const Outcome& outcome);
    void retranslate();

    const Catalog& m_catalog;
    Scenario m_scenario;
    bool m_dirty = false;
    unsigned m_generation = 0;
    PlanResult m_result;
    QString m_error;
    QTimer* m_debounce = nullptr;
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    QSpinBox* m_gpus = nullptr;
    QSpinBox* m_perNode = nullptr;
    QSpinBox* m_globalBatch = nullptr;
    QLabel* m_gpusLabel = nullptr;
    QLabel* m_perNodeLabel = nullptr;
    QLabel* m_batchLabel = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_rejected = nullptr;
    QTableWidget* m_table = nullptr;
    QChart* m_chart = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QScatterSeries* m_layouts = nullptr;
    QLineSeries* m_front = nullptr;
};

} // namespace headroom::gui
