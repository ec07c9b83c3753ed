#include "mainwindow.h"

#include "tourhost.h"

#include "appsettings.h"
#include "batchsweepview.h"
#include "catalogloader.h"
#include "categorylegend.h"
#include "controlpanel.h"
#include "explainer.h"
#include "inferenceview.h"
#include "labels.h"
#include "measured.h"
#include "memorychartview.h"
#include "pipelinescheduleview.h"
#include "planview.h"
#include "rooflineview.h"
#include "scalingview.h"
#include "scenariohistory.h"
#include "simulationcontroller.h"
#include "timelineview.h"
#include "tour.h"
#include "ui_mainwindow.h"
#include "verdictwidget.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QGridLayout>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTextBrowser>
#include <QTimer>

#include <utility>

namespace headroom::gui {

MainWindow::MainWindow(SimulationController* controller, AppSettings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_ui(std::make_unique<Ui::MainWindow>())
    , m_controller(controller)
    , m_settings(settings)
    , m_history(new ScenarioHistory(this))
{
    m_ui->setupUi(this);
    m_legend = new CategoryLegend(m_ui->results);
    m_ui->resultsLayout->insertWidget(1, m_legend);
    m_ui->explainDock->hide();
    m_ui->splitter->setStretchFactor(0, 0);
    m_ui->splitter->setStretchFactor(1, 1);
    m_ui->controls->setCatalog(&m_controller->catalog());
    fitControlsWidth();
    setupChartArea();
    for (ChartPanel* c : charts()) {
        // Small enough that two charts, the controls and a dock fit a 1024 px window: at 320 px a dock opened there
        // grew the window past the screen. Where there is less room than readableChartSize() for all four, fewer
        // show (arrangeCharts), so this minimum is only reached in a window too small for one readable chart.
        c->setMinimumSize(220, 150);
        connect(c, &ChartPanel::explainRequested, this, &MainWindow::explain);
    }
    connect(m_ui->controls, &ControlPanel::edited, this, &MainWindow::onScenarioEdited);
    connect(m_ui->controls, &ControlPanel::noteRequested, this,
            [this](const QString& note) { statusBar()->showMessage(note, 6000); });
    connect(m_ui->verdict, &VerdictWidget::explainRequested, this, [this](const QString& topic) {
        ExplainRequest r;
        if (topic == QLatin1String("time"))
            r.topic = ExplainRequest::Topic::StepTime;
        else if (topic == QLatin1String("allocator"))
            r.topic = ExplainRequest::Topic::Allocator;
        else
            return;
        explain(r);
    });
    // A new entry in a combo box may need a wider panel (not on every slider tick: only the combos' text counts).
    for (QComboBox* c : m_ui->controls->findChildren<QComboBox*>())
        connect(c, &QComboBox::currentTextChanged, this,
                [this] { QTimer::singleShot(0, this, &MainWindow::fitControlsWidth); });
    connect(m_controller, &SimulationController::resultChanged, this, &MainWindow::onResultChanged);
    connect(m_ui->controls, &ControlPanel::stageShown, m_controller, &SimulationController::setShownStage);
    connect(m_controller, &SimulationController::backgroundChanged, this, &MainWindow::onBackgroundChanged);
    connect(m_ui->verdict, &VerdictWidget::fixRequested, this, [this](const TrainingConfig& config) {
        Scenario s = m_controller->scenario();
        s.config = config;
        applyScenario(s, Action::Fix);
    });
    connect(m_history, &ScenarioHistory::applyRequested, this, [this](const Scenario& s) {
        if (m_controller->setScenario(s))
            m_ui->controls->setScenario(m_controller->scenario());
    });
    addUndoActions();
    m_ui->editMenu->insertSeparator(m_ui->copyFigureAction);
    connect(m_ui->presentationAction, &QAction::toggled, this, [this](bool on) {
        if (on != m_presentation) // not the echo of setPresentationMode() checking the action
            setPresentationMode(on);
    });
    connect(m_ui->nextChartsAction, &QAction::triggered, this, &MainWindow::showNextChartPair);
    m_ui->nextChartsAction->setEnabled(false); // until the charts lack room for all four (arrangeCharts)
    // F1 toggles the panel. Opened before anything was clicked, it explains where most of the memory at the peak goes
    // rather than showing an empty page.
    connect(m_ui->explainAction, &QAction::triggered, this, [this] {
        if (m_ui->explainDock->isVisible()) {
            m_ui->explainDock->hide();
        } else if (m_explainShown || !m_controller->result().model) {
            m_ui->explainDock->show();
        } else {
            const CategoryBytes& atPeak = m_controller->result().estimate.atPeak;
            ExplainRequest request;
            request.category = MemoryCategory(std::max_element(atPeak.begin(), atPeak.end()) - atPeak.begin());
            explain(request);
        }
    });
    connect(m_ui->quitAction, &QAction::triggered, this, &QWidget::close);
    setupFileMenu();
    setupTools();
    connect(m_ui->resetAction, &QAction::triggered, this, [this] { applyScenario(defaultScenario(), Action::Reset); });
    connect(m_ui->aboutAction, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Headroom"),
                           tr("<h3>Headroom %1</h3><p>Explores the GPU memory and bandwidth of one neural-network "
                              "training step: where the memory goes, whether it fits, and where each operator sits on "
                              "the roofline.</p><p>Every figure comes from a simulation of the PyTorch training step; "
                              "click any chart element for its formula and source.</p>")
                               .arg(QStringLiteral(HEADROOM_VERSION)));
    });
    restyle();
    if (!m_settings->windowGeometry().isEmpty())
        restoreGeometry(m_settings->windowGeometry());
    if (!m_settings->windowState().isEmpty())
        restoreState(m_settings->windowState());
    // A restored layout keeps where the panels were, not whether a comparison was running.
    m_baselineDock->hide();
}

MainWindow::~MainWindow()
{
    // ~QWidget hides the docks, and their visibilityChanged handlers read this window, which by then is no
    // MainWindow any more (UBSan: member access within a QWidget): they go first.
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        disconnect(dock, nullptr, this, nullptr);
    // Likewise the resizes that re-arrange the charts (mainwindowcharts.cpp).
    m_ui->results->removeEventFilter(this);
    m_ui->verdict->removeEventFilter(this);
}

ControlPanel* MainWindow::controls() const { return m_ui->controls; }
VerdictWidget* MainWindow::verdict() const { return m_ui->verdict; }
MemoryChartView* MainWindow::memoryChart() const { return m_ui->memoryChart; }
BatchSweepView* MainWindow::sweepChart() const { return m_ui->sweepChart; }
TimelineView* MainWindow::timelineChart() const { return m_ui->timelineChart; }
PipelineScheduleView* MainWindow::pipelineSchedule() const { return m_ui->pipelineSchedule; }
RooflineView* MainWindow::rooflineChart() const { return m_ui->rooflineChart; }
QList<ChartPanel*> MainWindow::charts() const
{
    return { m_ui->memoryChart, m_ui->sweepChart, m_ui->timelineChart, m_ui->rooflineChart };
}

bool MainWindow::applyScenario(const Scenario& scenario, Change what)
{
    if (!m_controller->setScenario(scenario))
        return false;
    m_ui->controls->setScenario(m_controller->scenario());
    m_history->record(m_controller->scenario(), what, false);
    return true;
}

void MainWindow::onScenarioEdited(const ScenarioEdit& edit, bool dragging)
{
    auto edited = applyEdit(m_controller->scenario(), edit, m_controller->catalog());
    if (!edited) {
        statusBar()->showMessage(Labels::error(edited.error()), 6000);
        m_ui->controls->setScenario(m_controller->scenario()); // the control shows what is simulated
        return;
    }
    // A CPU measurement's scenario is predicted with the CPU kernels' saved dtypes while it is the one shown; any
    // other with CUDA's (measured.h applyMeasuredScenario).
    Scenario& scenario = *edited;
    if (m_measured && measuredOnCpu(*m_measured))
        scenario.config.kernels = checkMeasuredScenario(*m_measured, scenario.modelId, scenario.config, "measurement")
            ? KernelBackend::Cuda
            : KernelBackend::Cpu;
    if (!m_controller->setScenario(scenario))
        statusBar()->showMessage(tr("The simulator refuses this value: the last one that it took stays"), 6000);
    m_ui->controls->setScenario(m_controller->scenario());
    m_history->record(m_controller->scenario(), edit.control, dragging);
}

void MainWindow::onResultChanged()
{
    const auto shared = m_controller->sharedResult();
    const SimulationResult& r = *shared;
    for (ChartPanel* c : charts()) {
        c->setBaseline(m_baseline);
        c->setResult(shared);
    }
    refreshTools(shared);
    m_ui->pipelineSchedule->setTimeline(r.pipeline, r.estimate.config.pipelineStage, r.estimate.stepSeconds);
    m_ui->verdict->setResult(shared);
    showBackgroundFit();
    setWindowTitle(
        tr("%1 on %2 — Headroom").arg(QString::fromStdString(r.model->name), QString::fromStdString(r.gpu->name)));
    if (m_explainShown)
        m_ui->explainText->setHtml(explainHtmlFor(m_lastExplain));
    showMeasured(r);
}

// The verdict, the memory chart's label and the sweep's "largest that fits" give the background's one answer (the
// allocator replayed under the capacity) as soon as it is there, the peak's until then.
void MainWindow::showBackgroundFit()
{
    const bool pending = m_controller->backgroundPending();
    const BackgroundResult& background = m_controller->background();
    m_ui->verdict->setBackground(background, pending);
    if (pending || !background.allocator.computed)
        return;
    memoryChart()->setFitVerdict(background.verdict, background.allocator);
    timelineChart()->setFitVerdict(background.verdict);
    sweepChart()->setLargestFitting(background.maxMicroBatch);
    sweepChart()->setAllocatorCurve(background.allocatorCurve);
}

void MainWindow::onBackgroundChanged()
{
    showBackgroundFit();
    if (m_baseline)
        showBaselineComparison(m_controller->sharedResult()); // its "does it fit?" is the verdict's
    if (m_tour)
        m_tour->refreshText(); // it quotes the verdict's answer
    if (m_explainShown
        && (m_lastExplain.topic == ExplainRequest::Topic::StepTime
            || m_lastExplain.topic == ExplainRequest::Topic::Allocator))
        m_ui->explainText->setHtml(explainHtmlFor(m_lastExplain));
}

// The step time's range and the allocator replay come with the background search; everything else is in the result.
QString MainWindow::explainHtmlFor(const ExplainRequest& request) const
{
    if (request.topic == ExplainRequest::Topic::StepTime)
        return Explainer::stepTime(m_controller->result(), m_controller->background().timeRange);
    if (request.topic == ExplainRequest::Topic::Allocator)
        return Explainer::allocator(m_controller->result(), m_controller->background().allocator);
    return Explainer::html(request, m_controller->result());
}

void MainWindow::explain(const ExplainRequest& request)
{
    m_lastExplain = request;
    m_explainShown = true;
    m_ui->explainText->setHtml(explainHtmlFor(request));
    m_ui->explainDock->show();
}

QString MainWindow::explainHtml() const { return m_ui->explainText->toHtml(); }

void MainWindow::restyle()
{
    m_appliedScale = presentationScale();
    // The controls grow with the charts in presentation mode, less than they do (the panel must fit without
    // scrolling): 1.6x at 1920x1080, about 1.16x at 1280x720; at 1024x768 the panel's rows fill the height at the
    // desktop size already (tst_realwindow presentationNeedsNoScrolling), so they stay at it there.
    const QFont controlsFont = m_presentation
        ? scaledFont(QApplication::font(), std::clamp(m_appliedScale * 0.8, 1.0, 1.6))
        : QApplication::font();
    if (m_ui->controls->font() != controlsFont) {
        m_ui->controls->setFont(controlsFont);
        QTimer::singleShot(0, this, &MainWindow::fitControlsWidth);
    }
    // The chart tabs with them: at the desktop size under presentation titles they read 11 px from the back row.
    if (m_chartTabs && m_chartTabs->font() != controlsFont)
        m_chartTabs->setFont(controlsFont);
    const ChartStyle style = chartStyle(palette(), m_presentation, m_appliedScale);
    for (ChartPanel* c : charts())
        c->setChartStyle(style);
    m_ui->pipelineSchedule->setChartStyle(style);
    if (m_inference)
        m_inference->setChartStyle(style);
    if (m_scaling)
        m_scaling->setChartStyle(style);
    if (m_plan)
        m_plan->setChartStyle(style);
}

qreal MainWindow::presentationScale() const
{
    // Readable from the back of a room whatever the projector: 1.45x at 1280x720, about 2.2x at 1920x1080.
    const QSize size = this->size();
    return std::clamp(std::min(size.width() / 1280.0, size.height() / 720.0) * 1.45, 1.15, 2.6);
}

void MainWindow::setPresentationMode(bool on, bool fullScreen)
{
    m_presentation = on;
    m_settings->setPresentationMode(on);
    m_ui->presentationAction->setChecked(on);
    m_ui->controls->setPresentationMode(on);
    if (!on && m_ui->splitter->sizes().size() == 2)
        m_autoPanelWidth = m_ui->splitter->sizes()[0]; // back to the width the panel's combo boxes need
    m_ui->verdict->setPresentationMode(on);
    m_legend->setPresentationMode(on);
    setToolFontScale(on ? 1.6 : 1.0);
    fitControlsWidth();
    if (on && fullScreen)
        showFullScreen();
    else if (!on && isFullScreen())
        showNormal();
    restyle();
    m_arrangement.clear(); // the readable size changed with the fonts
    arrangeCharts();
    if (!on) {
        endOverlay();
        for (QDockWidget* d : std::exchange(m_displacedDocks, {}))
            d->show(); // docked again, among the others, as before presentation mode
    }
    // A panel open at the change gets the room (or the overlay) the new fonts leave it.
    QTimer::singleShot(0, this, &MainWindow::fitBottomDocks);
    if (m_controller->result().model)
        onResultChanged();
}

void MainWindow::fitControlsWidth()
{
    // The panel scrolls vertically only, so the splitter must never make it narrower than its widgets need:
    // squeezed, its spin boxes and combo arrows were cut off at the right edge with no way to reach them.
    const QScrollArea* area = m_ui->controlsScroll;
    const int need = std::max(300,
                              m_ui->controls->minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width()
                                  + 2 * area->frameWidth());
    // A panel the user never resized (at its old minimum, or where this put it) follows the new minimum, as a fresh
    // window would lay it out, rather than keeping the width the other language needed; in a wide window it takes
    // up to a fifth of it where a combo box cuts its current entry ("torch.autocast (FP32...").
    QList<int> sizes = m_ui->splitter->sizes();
    const bool untouched = sizes.size() == 2 && (sizes[0] <= area->minimumWidth() + 1 || sizes[0] == m_autoPanelWidth);
    m_ui->controlsScroll->setMinimumWidth(need);
    if (!isVisible() || sizes.size() != 2 || (!untouched && !m_presentation))
        return;
    int target = need;
    if (m_presentation) {
        // The controls keep about a quarter of the width, at every window size; the charts get the rest.
        target = std::max(need, int(width() * 0.28));
    } else {
        int shortfall = 0;
        for (const QComboBox* c : m_ui->controls->findChildren<QComboBox*>()) {
            if (!c->isVisible())
                continue;
            QStyleOptionComboBox option;
            option.initFrom(c);
            const QSize text(c->fontMetrics().horizontalAdvance(c->currentText()) + 8, c->height());
            shortfall = std::max(shortfall,
                                 c->style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, c).width()
                                     - c->width());
        }
        target = std::max(need, std::min(sizes[0] + shortfall, width() / 5));
    }
    if (sizes[0] != target) {
        sizes[1] += sizes[0] - target;
        sizes[0] = target;
        m_ui->splitter->setSizes(sizes);
    }
    m_autoPanelWidth = target;
}

void MainWindow::moveEvent(QMoveEvent* event)
{
    QMainWindow::moveEvent(event);
    placeOverlay();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    fitControlsWidth();
    // A panel open gets back the room its content asks for where the charts have it to spare: enlarging and shrinking
    // the window again left the Plan dock 18 px short of it, its chart's axis title below the fold. Once this resize
    // is laid out: resizing docks inside it would re-enter the window's layout.
    if (!m_presentation)
        QTimer::singleShot(0, this, &MainWindow::fitBottomDocks);
    // The presentation fonts follow the window (full screen: the projector's resolution).
    if (m_presentation && qAbs(presentationScale() - m_appliedScale) > 0.05) {
        m_appliedScale = presentationScale();
        restyle();
        if (m_controller->result().model)
            onResultChanged();
    }
}

// Edit > Undo and Redo from the history's stack, in the current language (replacing the ones made before a switch).
void MainWindow::addUndoActions()
{
    QAction* oldUndo = findChild<QAction*>(QStringLiteral("undoAction"));
    QAction* oldRedo = findChild<QAction*>(QStringLiteral("redoAction"));
    QAction* undo = m_history->stack()->createUndoAction(this);
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_history->stack()->createRedoAction(this);
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcut(QKeySequence::Redo);
    m_ui->editMenu->insertActions(oldUndo ? oldUndo : m_ui->editMenu->actions().value(0), { undo, redo });
    delete oldUndo;
    delete oldRedo;
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        restyle();
        m_arrangement.clear(); // the tabs' colours (placeChartWidgets) follow the palette
        arrangeCharts();
        if (m_controller->result().model)
            onResultChanged();
    } else if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        addUndoActions(); // QUndoStack writes its "Undo %1" prefix once, when it makes the action
        // Chinese labels are wider or narrower than the English. Measured once the panel has retranslated: a
        // widget gets LanguageChange before its children do.
        QTimer::singleShot(0, this, &MainWindow::fitControlsWidth);
        retranslateTools();
        // The tabs name the charts in the new language: once they have it (a widget gets LanguageChange before its
        // children do, and the verdict's new height can arrange the charts before that).
        QTimer::singleShot(0, this, [this] {
            m_arrangement.clear();
            arrangeCharts();
        });
        populateExamplesMenu();
        populateLanguageMenu();
        populateColoursMenu();
        if (m_controller->result().model)
            onResultChanged();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    endOverlay(); // the panel is saved docked, where it belongs outside presentation mode
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    ScenarioDocument doc;
    doc.scenario = m_controller->scenario();
    m_settings->setLastScenario(doc);
    event->accept();
}

} // namespace headroom::gui
