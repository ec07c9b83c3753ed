#pragma once

// View › Plan a Multi-GPU Layout: `headroom plan` in the window. For the scenario's GPU, model, sequence and
// precision and the job's GPUs, GPUs per node and global batch, every layout (t, p, cp, dp, ep, schedule, SP, ZeRO,
// checkpointing, micro-batch, and when nothing fits without them the levers: precision, optimizer, offload) is
// simulated on a worker, and the view shows those that fit, fastest first, the
// Pareto front of memory per GPU against step time, and why the others were rejected. Double-clicking a layout
// asks the window to apply it (layoutRequested).
//
// Its second tab answers "what should I rent?" (issue 31): the same job on each GPU type the user ticks, with the
// time to train a number of tokens, the GPU-hours and the fastest layout of each (planGpuTypes, `headroom plan
// --gpu a,b,c --tokens N`), and the cost where the user types a price per GPU-hour (`--price id=USD`).
// Double-clicking a type applies that GPU with its layout (gpuLayoutRequested).
//
// Each tab's plan is a LazyJob: computed on a worker a moment after the last change while its tab is visible, at
// once when the tab is raised. A change cancels the plan running (PlanProgress), whose result would be out of date,
// and the newer one computes next; a plan that runs longer than a moment shows a progress bar.

#include "chartstyle.h"
#include "lazyjob.h"
#include "planner.h"

#include <QElapsedTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QDoubleSpinBox;
class QMenu;
class QProgressBar;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QHBoxLayout;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QToolButton;
class QAbstractAxis;
class QTimer;
class QValueAxis;
QT_END_NAMESPACE

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace headroom::gui {

class PlanView : public QWidget {
    Q_OBJECT

public:
    explicit PlanView(const Catalog& catalog, QWidget* parent = nullptr);
    ~PlanView() override; // cancels the running plans: closing the window does not wait for them

    // The last plan shown, and whether one is being computed.
    const PlanResult& result() const { return m_result; }
    bool busy() const;
    QTableWidget* table() const { return m_table; }
    QProgressBar* progressBar() const { return m_layoutsRun.bar; } // the first tab's, shown while a plan runs long
    QAbstractAxis* layoutAxisY() const { return m_layoutChart.y; } // the layouts' step time (logarithmic)
    // The progress of the layouts' last plan started (its worker counts into it), for tests.
    std::shared_ptr<const PlanProgress> layoutsProgress() const { return m_layoutsRun.progress; }
    QSpinBox* gpusSpin() const { return m_gpus; }
    QString status() const;
    // The GPU-types tab: the plans shown (fastest first), the GPU ids ticked, the tokens to train.
    const std::vector<GpuTypePlan>& typePlans() const { return m_types; }
    std::vector<std::string> typeIds() const;
    void setTypeIds(const std::vector<std::string>& ids);
    double tokens() const;
    QTableWidget* typesTable() const { return m_typesTable; }
    QTabWidget* tabs() const { return m_tabs; }
    // The GPU types' chart: a dot per type that fits, the front through those on it, the x axis (cost or GPU-hours).
    QScatterSeries* typeDots() const { return m_typeChart.points; }
    QLineSeries* typeFrontLine() const { return m_typeChart.front; }
    QAbstractAxis* typeAxisX() const { return m_typeChart.x; }
    QStringList typeNamesShown() const;
    // The GPUs the tab compares at first: the explainer's question, what an RTX 3090, A100 or H100 buys over the
    // scenario's own GPU.
    static std::vector<std::string> defaultTypeIds();
    // What a GPU-hour of a type costs, as typed into the table (USD); the cost column is the GPU-hours times it.
    void setPrice(const std::string& gpuId, const QString& typed);
    std::optional<double> price(const std::string& gpuId) const;
    void setChartStyle(const ChartStyle& style);
    // A rejection of the planner in the window's language, by its kind (a switch that -Wswitch keeps complete); a
    // layout the simulator refused keeps the simulator's message.
    static QString reasonText(const PlanRejection& rejection);
    // The levers the view allows: `headroom plan`'s default (precision, optimizer and offload, pulled only when no
    // layout fits without them).
    static PlanLevers windowLevers();

public slots:
    void setScenario(const headroom::Scenario& scenario);
    void refresh(); // starts the shown tab's plan now (on a worker) if anything changed

signals:
    void layoutRequested(const headroom::TrainingConfig& config);
    void gpuLayoutRequested(const QString& gpuId, const headroom::TrainingConfig& config);
    void planShown();      // after a result is on screen
    void typePlansShown(); // after the GPU types' plans are on screen

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    LazyJob::Work layoutsJob();
    void fillLayouts();
    void retranslate();
    PlanRequest request() const;
    void changed();
    bool typesVisible() const;
    LazyJob::Work typesJob();
    void fillTypes();
    QString typesStatus() const;
    QString priceText(const std::string& gpuId) const;
    QString costText(const GpuTypePlan& type) const;
    void buildTypesTab();
    void fillTypeMenu();
    void showTypeCount();

    const Catalog& m_catalog;
    Scenario m_scenario;
    LazyJob* m_layoutsJob = nullptr; // the first tab's plan
    LazyJob* m_typesJob = nullptr;   // the GPU types' plans
    // A tab's running plan: its progress (the worker counts and reads the cancel flag) and its bar.
    struct Run {
        std::shared_ptr<PlanProgress> progress;
        QElapsedTimer since;
        QProgressBar* bar = nullptr;
    };
    Run m_layoutsRun, m_typesRun;
    QTimer* m_progressTimer = nullptr;
    PlanRequest startRun(Run& run);
    void cancelRuns();
    void showProgress();
    PlanResult m_result;
    QString m_error;
    bool m_planned = false; // a plan is on screen
    QSpinBox* m_gpus = nullptr;
    QSpinBox* m_perNode = nullptr;
    QSpinBox* m_globalBatch = nullptr;
    QLabel* m_gpusLabel = nullptr;
    QLabel* m_perNodeLabel = nullptr;
    QLabel* m_batchLabel = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_rejected = nullptr;
    QTableWidget* m_table = nullptr;
    // A chart of points and their Pareto front: the layouts' (memory per GPU against step time, the time on a
    // logarithmic axis: a large plan's layouts span hours), the GPU types' (cost or GPU-hours against the time to
    // train, each dot named, both axes logarithmic: the types lie decades apart).
    struct FrontChart {
        QChart* chart = nullptr;
        QAbstractAxis* x = nullptr; // a QValueAxis, or a QLogValueAxis (logarithmic)
        QAbstractAxis* y = nullptr;
        QScatterSeries* points = nullptr;
        QLineSeries* front = nullptr;
        QString title; // as written; the chart shows it wrapped to its width (fitFrontTitle)
    };
    static void fitFrontTitle(const FrontChart& f);
    static FrontChart buildFrontChart(QWidget* page, const char* objectName, QHBoxLayout* into, bool logX, bool logY);
    void showTypeChart();
    void placeTypeNames();
    void fitLayoutTicks(); // as many of the layout chart's ticks as its labels have room for
    FrontChart m_layoutChart;

    QTabWidget* m_tabs = nullptr;
    std::vector<GpuTypePlan> m_types;
    QString m_typesError;
    QDoubleSpinBox* m_tokens = nullptr;
    QLabel* m_tokensLabel = nullptr;
    QToolButton* m_typeButton = nullptr;
    QMenu* m_typeMenu = nullptr;
    std::vector<std::string> m_typeIds;
    GpuPrices m_prices; // USD per GPU-hour, by GPU id
    QLabel* m_typesStatus = nullptr;
    QTableWidget* m_typesTable = nullptr;
    FrontChart m_typeChart;
    GpuTypeFront m_typeFront;
    std::vector<QGraphicsSimpleTextItem*> m_typeNames; // beside each dot, the GPU's name
    std::vector<QGraphicsLineItem*> m_typeLeaders;     // from a name placed away from its dot to the dot
};

} // namespace headroom::gui
