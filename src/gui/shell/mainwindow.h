#pragma once

// The explorer window: controls on the left; the verdict and four live charts (memory by phase, memory against
// micro-batch, the memory timeline, the roofline) on the right; an Explain panel for any number clicked.

#include "chartpanel.h"
#include "figure.h"
#include "scenario.h"
#include "scenariohistory.h"

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QDockWidget;
QT_END_NAMESPACE

#include <memory>

namespace Ui {
class MainWindow;
}

namespace headroom {
struct Measured;
}

namespace headroom::gui {

class AppSettings;
class BaselineTable;
class BatchSweepView;
class GpuComparisonView;
class ScalingView;
class PlanView;
class InferenceView;
class GuidedTour;
class CategoryLegend;
class ControlPanel;
class MemoryChartView;
class RooflineView;
class ScenarioHistory;
class SimulationController;
class TimelineView;
class PipelineScheduleView;
class TourHost;
class VerdictWidget;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    MainWindow(SimulationController* controller, AppSettings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    ControlPanel* controls() const;
    VerdictWidget* verdict() const;
    MemoryChartView* memoryChart() const;
    BatchSweepView* sweepChart() const;
    TimelineView* timelineChart() const;
    PipelineScheduleView* pipelineSchedule() const;
    RooflineView* rooflineChart() const;
    QList<ChartPanel*> charts() const;

    // Shows a scenario in every view and makes it one undo step (`what` names the step); returns false when it
    // names an unknown GPU or model.
    bool applyScenario(const Scenario& scenario, Change what = Action::Open);
    ScenarioHistory* history() const { return m_history; }
    // Full screen (unless `fullScreen` is false, for screenshots), large fonts and thick lines sized to the screen,
    // high contrast, the essential controls, and two charts at a time (F10 shows the next pair).
    void setPresentationMode(bool on, bool fullScreen = true);
    // F10: the next chart or pair of charts where not all four have room (presentation mode, or docks beside them).
    void showNextChartPair();
    QList<ChartPanel*> visibleCharts() const;
    // The size below which a chart's ticks thin out and its titles wrap: the charts go to fewer columns, then to
    // tabs, rather than shrink under it (mainwindowcharts.cpp). Grows with presentation mode's fonts.
    QSize readableChartSize() const;
    // Brings `chart` into view (the pair or the tab that holds it); `forTour`: the tour's card goes beside it.
    void showChart(QWidget* chart, bool forTour = false);
    bool presentationMode() const { return m_presentation; }
    QString explainHtml() const;

    // File actions return the error, if any, naming the file and the field (the window's one error style, as the
    // exports below and the core's Expected<T>).
    std::optional<QString> openScenarioFile(const QString& path, Change what = Action::Open);
    std::optional<QString> saveScenarioFile(const QString& path);
    // A scenario file for `scenario` (with the user's own model embedded), written atomically.
    std::optional<QString> writeScenarioDocument(const QString& path, const Scenario& scenario) const;

    // Exports of the current result; each returns the error message, if any, naming the path.
    std::optional<QString> exportFigure(const QString& path, const FigureOptions& options) const;
    std::optional<QString> exportReport(const QString& path) const;
    std::optional<QString> exportBreakdownCsv(const QString& path) const;
    std::optional<QString> exportResultJson(const QString& path) const;
    // Puts the figure on the clipboard as an image (with the caption as text alongside).
    void copyFigure(const FigureOptions& options);
    // Bundled example scenarios (resource paths), in menu order.
    static QStringList examplePaths();

    // Compare with a pinned copy of the current result (Edit > Compare with a Baseline).
    void setBaselinePinned(bool on);
    BaselineTable* baselineTable() const { return m_baselineTable; }
    // The pinned baseline's result, null when none is pinned.
    const std::shared_ptr<const SimulationResult>& baseline() const { return m_baseline; }
    GpuComparisonView* gpuComparison() const { return m_comparison; }
    void showGpuComparison();
    void hideGpuComparison();
    bool gpuComparisonShown() const;
    InferenceView* inference() const { return m_inference; }
    ScalingView* scalingView() const { return m_scaling; }
    PlanView* planView() const { return m_plan; }
    void showInference();
    void showScaling();
    void showPlan();
    GuidedTour* tour() const { return m_tour; }
    SimulationController* controller() const { return m_controller; }
    // A Hugging Face config.json or checkpoint folder becomes the current model; a .safetensors file opens the
    // model editor with its exact count; a .headroom.json opens as a scenario.
    std::optional<QString> importModel(const QString& path);
    // A .headroom-measured.json: its scenario applied, the verdict stating measured against predicted.
    std::optional<QString> openMeasuredFile(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showBackgroundFit();
    void addUndoActions();
    void connectMeasured(); // mainwindowmeasured.cpp
    void showMeasured(const SimulationResult& r);
    QString explainHtmlFor(const ExplainRequest& request) const;
    void onScenarioEdited(const ScenarioEdit& edit, bool dragging);
    void onResultChanged();
    void onBackgroundChanged();
    void explain(const ExplainRequest& request);
    void restyle();
    void fitControlsWidth();
    void openScenario();
    void saveScenario();
    void setupFileMenu();
    void populateRecentMenu();
    void populateExamplesMenu();
    void populateLanguageMenu();
    void populateColoursMenu();
    void exportFigureDialog();
    void exportDataDialog(const QString& suffix);
    std::shared_ptr<const SimulationResult> currentResult() const;
    const SearchResult* currentSearch() const;
    void setupTools();
    void retranslateTools();
    void setToolFontScale(double scale); // the tour and comparison panels, readable on a projector
    void refreshTools(const std::shared_ptr<const SimulationResult>& result);
    void catalogChanged();
    void editModel(const QStringList& checkpoint = {});
    void editGpu();

    std::unique_ptr<Ui::MainWindow> m_ui;
    CategoryLegend* m_legend = nullptr;
    SimulationController* m_controller;
    AppSettings* m_settings;
    ScenarioHistory* m_history = nullptr;
    std::shared_ptr<const SimulationResult> m_baseline;
    SearchResult m_baselineFit; // the baseline's one answer to "does it fit?", searched when it was pinned
    BaselineTable* m_baselineTable = nullptr;
    QDockWidget* m_baselineDock = nullptr;
    int m_baselineWidthAsked = 0;               // the table width the dock was last widened for
    int m_autoPanelWidth = 0;                   // the control panel's width as fitControlsWidth last set it
    std::shared_ptr<const Measured> m_measured; // File > Compare with a Measurement
    GpuComparisonView* m_comparison = nullptr;
    QDockWidget* m_comparisonDock = nullptr;
    InferenceView* m_inference = nullptr;
    QDockWidget* m_inferenceDock = nullptr;
    ScalingView* m_scaling = nullptr;
    QDockWidget* m_scalingDock = nullptr;
    PlanView* m_plan = nullptr;
    QDockWidget* m_planDock = nullptr;
    std::unique_ptr<TourHost> m_tourHost;
    GuidedTour* m_tour = nullptr;
    QWidget* m_tourCard = nullptr;        // the tour, in the chart grid beside the chart it talks about
    QWidget* m_tourChart = nullptr;       // that chart; null while no tour runs or it talks about a dock
    class QTabBar* m_chartTabs = nullptr; // which chart shows, where not all four have room
    int m_chartFocus = 0;                 // the chart the tabs or the tour chose
    int m_chartCapacity = 4;              // how many charts the last arrangement had room for
    QString m_arrangement;                // what arrangeCharts() last laid out, to skip a layout that is the same
    QSize m_foldedAt;                     // the results' size foldSuggestions() last saw
    bool m_foldForCharts = false;         // the suggestions fold at this size: unfolded they took a row of charts
    QSize chartArea() const;
    ExplainRequest m_lastExplain;
    bool m_explainShown = false;
    bool m_presentation = false;
    int m_chartPair = 0; // which two charts show where two have room
    qreal m_appliedScale = 1.0;
    qreal presentationScale() const;
    void setupChartArea(); // mainwindowcharts.cpp: the tabs, and the resizes that re-arrange the charts
    void arrangeCharts();
    void foldSuggestions(bool laidOut, int chartHeight); // where they would take a row of charts away
    int verdictHeight() const;
    void placeChartWidgets(const QList<QWidget*>& shown, int columns);
    void shrinkSideDocks();
    void fitBottomDock(QDockWidget* dock);
    void fitBottomDocks(); // each bottom panel open
    void showBaselineComparison(const std::shared_ptr<const SimulationResult>& result);
    void fitBaselineDock(); // as wide as its table where the charts leave room
    int dockTabBarHeight(QDockWidget* dock) const;
    // Presentation mode at a small screen: a bottom panel floats over the charts rather than squeezing them (and
    // itself) under the projector's verdict; it docks again when presentation mode ends or it is shown outside it.
    QDockWidget* m_overlaidDock = nullptr;
    // Panels another took the place over the charts from, in presentation mode: open again when it ends (entering it
    // with four panels open left one of them open after it).
    QList<QDockWidget*> m_displacedDocks;
    void placeOverlay();
    void endOverlay();
};

} // namespace headroom::gui
