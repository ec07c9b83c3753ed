#pragma once

// The explorer window: controls on the left; the verdict and four live charts (memory by phase, memory against
// micro-batch, the memory timeline, the roofline) on the right; an Explain panel for any number clicked.

#include "chartpanel.h"
#include "scenario.h"

#include <QMainWindow>

#include <memory>

namespace Ui {
class MainWindow;
}

namespace headroom::gui {

class AppSettings;
class BatchSweepView;
class CategoryLegend;
class ControlPanel;
class MemoryChartView;
class RooflineView;
class SimulationController;
class TimelineView;
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
    RooflineView* rooflineChart() const;
    QList<ChartPanel*> charts() const;

    // Shows a scenario in every view; returns false when it names an unknown GPU or model.
    bool applyScenario(const Scenario& scenario);
    void setPresentationMode(bool on);
    bool presentationMode() const { return m_presentation; }
    QString explainHtml() const;

    bool openScenarioFile(const QString& path, QString* error);
    bool saveScenarioFile(const QString& path, QString* error);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void onScenarioEdited(const Scenario& scenario, const QString& control, bool dragging);
    void onResultChanged();
    void onBackgroundChanged();
    void explain(const ExplainRequest& request);
    void restyle();
    void openScenario();
    void saveScenario();

    std::unique_ptr<Ui::MainWindow> m_ui;
    CategoryLegend* m_legend = nullptr;
    SimulationController* m_controller;
    AppSettings* m_settings;
    ExplainRequest m_lastExplain;
    bool m_explainShown = false;
    bool m_presentation = false;
};

} // namespace headroom::gui
