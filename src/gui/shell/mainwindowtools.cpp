// MainWindow's tools: the baseline comparison, the GPU comparison, the model and GPU editors, model import (menu
// and drag and drop of a config.json, a checkpoint folder, a .safetensors file or a scenario).

#include "mainwindow.h"

#include "baselinetable.h"
#include "catalogloader.h"
#include "controlpanel.h"
#include "gpucomparisonview.h"
#include "gpueditordialog.h"
#include "inferenceview.h"
#include "modeleditordialog.h"
#include "modelimport.h"
#include "planview.h"
#include "scalingview.h"
#include "simulationcontroller.h"
#include "tour.h"
#include "tourhost.h"
#include "ui_mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace headroom::gui {

namespace {

    // The tour's view of the window (tourhost.h).
    class WindowTourHost final : public TourHost {
    public:
        explicit WindowTourHost(MainWindow* window)
            : m_window(window)
        {
        }
        QWidget* tourParent() override { return m_window; }
        const Scenario& tourScenario() const override { return m_window->controller()->scenario(); }
        // The result on screen with the one answer to "does it fit?" once the background search has it (the
        // allocator replayed under the capacity), so that the tour's sentences say what the verdict says.
        const SimulationResult& tourResult() const override
        {
            const SimulationController* c = m_window->controller();
            if (c->backgroundPending() || !c->background().allocator.computed)
                return c->result();
            m_withFit = c->result();
            Estimate& e = m_withFit.estimate;
            const SearchResult& fit = c->background();
            e.fits = fit.verdict.fits;
            e.fitDecidedBy = fit.verdict.decidedBy;
            e.headroomBytes = fit.verdict.freeBytes();
            e.maxMicroBatch = fit.maxMicroBatch;
            m_withFit.verdict = fit.verdict;
            m_withFit.allocator = fit.allocator;
            return m_withFit;
        }
        void applyTourScenario(const Scenario& scenario) override { m_window->applyScenario(scenario, Action::Tour); }
        QWidget* tourTarget(Target target) override
        {
            QWidget* shown = nullptr;
            switch (target) {
            case Target::MemoryChart:
                shown = m_window->memoryChart();
                break;
            case Target::SweepChart:
                shown = m_window->sweepChart();
                break;
            case Target::TimelineChart:
                shown = m_window->timelineChart();
                break;
            case Target::RooflineChart:
                shown = m_window->rooflineChart();
                break;
            case Target::GpuComparison:
                shown = m_window->gpuComparison();
                break;
            }
            // The chart in view, with the tour's card beside it, before the frame is drawn around it: in
            // presentation mode a hidden chart's stale place framed the verdict.
            m_window->showChart(shown, true);
            return shown;
        }
        bool gpuComparisonShown() const override { return m_window->gpuComparisonShown(); }
        void setGpuComparisonShown(bool shown) override
        {
            if (shown)
                m_window->showGpuComparison();
            else
                m_window->hideGpuComparison();
        }

    private:
        MainWindow* m_window;
        mutable SimulationResult m_withFit;
    };

    // A dock's widget in a scroll area: the panel keeps its natural size and scrolls, instead of forcing its
    // minimum height on the window (the GPU comparison made a 1280x800 window 1036 pixels tall).
    QScrollArea* scrolled(QWidget* panel, QWidget* parent)
    {
        auto* area = new QScrollArea(parent);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(panel);
        return area;
    }

} // namespace

void MainWindow::setupTools()
{
    setAcceptDrops(true);

    m_baselineTable = new BaselineTable(this);
    m_baselineDock = new QDockWidget(this);
    m_baselineDock->setObjectName(QStringLiteral("baselineDock"));
    m_baselineDock->setWidget(m_baselineTable);
    addDockWidget(Qt::RightDockWidgetArea, m_baselineDock);
    m_baselineDock->hide();
    connect(m_ui->baselineAction, &QAction::toggled, this, &MainWindow::setBaselinePinned);
    connect(m_baselineDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        // Closing the dock ends the comparison.
        if (!visible && m_baseline && !m_baselineDock->isVisible() && isVisible())
            m_ui->baselineAction->setChecked(false);
    });

    // The bottom panels: hidden at first; their action toggles them (Ctrl+G, Ctrl+Shift+I, as F1 does Explain).
    auto bottomPanel = [this](QWidget* panel, const char* name, QAction* action, void (MainWindow::*show)()) {
        auto* dock = new QDockWidget(this);
        dock->setObjectName(QLatin1String(name));
        dock->setWidget(scrolled(panel, dock));
        addDockWidget(Qt::BottomDockWidgetArea, dock);
        dock->hide();
        connect(action, &QAction::triggered, this, [this, dock, show] {
            if (dock->isVisible())
                dock->hide();
            else
                (this->*show)();
        });
        return dock;
    };
    m_comparison = new GpuComparisonView(m_controller->catalog(), this);
    m_comparisonDock = bottomPanel(m_comparison, "comparisonDock", m_ui->gpuComparisonAction,
                                   &MainWindow::showGpuComparison);
    m_inference = new InferenceView(m_controller->catalog(), this);
    m_inferenceDock = bottomPanel(m_inference, "inferenceDock", m_ui->inferenceAction, &MainWindow::showInference);
    // A panel's text wraps to its width only once laid out: the dock, fitted before, grows then if the panel scrolls.
    auto refitWhenScrolling = [this](QDockWidget* dock) {
        QTimer::singleShot(0, this, [this, dock] {
            if (const auto* area = qobject_cast<QScrollArea*>(dock->widget());
                area && area->verticalScrollBar()->maximum() > 0)
                fitBottomDock(dock);
        });
    };
    connect(m_inference, &InferenceView::minimumHeightChanged, this,
            [this, refitWhenScrolling] { refitWhenScrolling(m_inferenceDock); });
    connect(m_comparison, &GpuComparisonView::minimumHeightChanged, this,
            [this, refitWhenScrolling] { refitWhenScrolling(m_comparisonDock); });
    m_scaling = new ScalingView(m_controller->catalog(), this);
    m_scalingDock = bottomPanel(m_scaling, "scalingDock", m_ui->scalingAction, &MainWindow::showScaling);
    m_plan = new PlanView(m_controller->catalog(), this);
    m_planDock = bottomPanel(m_plan, "planDock", m_ui->planAction, &MainWindow::showPlan);
    // Bottom panels share one area as tabs, and the baseline shares the Explain panel's: side by side they left the
    // charts no room (five docks open took even a 1920 px window).
    for (QDockWidget* dock : { m_inferenceDock, m_scalingDock, m_planDock })
        tabifyDockWidget(m_comparisonDock, dock);
    tabifyDockWidget(m_ui->explainDock, m_baselineDock);
    connect(m_plan, &PlanView::layoutRequested, this, [this](const TrainingConfig& config) {
        Scenario s = m_controller->scenario();
        s.config = config;
        applyScenario(s, Action::Plan);
    });
    connect(m_plan, &PlanView::gpuLayoutRequested, this, [this](const QString& id, const TrainingConfig& config) {
        Scenario s = m_controller->scenario();
        if (s.gpuId != id.toStdString())
            s.overrides = {}; // what-if figures belong to the GPU they were set for (planGpuTypes drops them too)
        s.gpuId = id.toStdString();
        s.config = config;
        applyScenario(s, Action::Plan);
    });

    // The tour is a card in the chart grid beside the chart it talks about (arrangeCharts), not a dock: a dock's
    // minimum width grew a 1024 x 768 presentation window past its screen.
    m_tourHost = std::make_unique<WindowTourHost>(this);
    auto* card = new QFrame(m_ui->results);
    card->setObjectName(QStringLiteral("tourCard"));
    card->setFrameShape(QFrame::StyledPanel);
    card->setAutoFillBackground(true);
    m_tour = new GuidedTour(m_tourHost.get(), card);
    auto* cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(4, 4, 4, 4);
    cardLayout->addWidget(m_tour);
    card->hide();
    m_tourCard = card;
    connect(m_ui->tourAction, &QAction::triggered, this, [this] { m_tour->start(); });
    connect(m_tour, &GuidedTour::finished, this, [this] {
        m_tourChart = nullptr;
        arrangeCharts();
    });
    connect(m_comparison, &GpuComparisonView::gpuRequested, this, [this](const QString& id) {
        Scenario s = m_controller->scenario();
        s.gpuId = id.toStdString();
        s.overrides = {}; // what-if figures belong to the GPU they were set for
        applyScenario(s, Control::Gpu);
    });

    retranslateTools();
    connect(m_ui->editModelAction, &QAction::triggered, this, [this] { editModel(); });
    connect(m_ui->editGpuAction, &QAction::triggered, this, &MainWindow::editGpu);
    connect(m_ui->importModelAction, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import Model"), QString(),
                                                          tr("Model files (config.json *.json *.safetensors)"));
        if (path.isEmpty())
            return;
        if (auto error = importModel(path))
            QMessageBox::warning(this, tr("Cannot import the model"), *error);
    });
    connectMeasured();
}

void MainWindow::setToolFontScale(double scale)
{
    for (QWidget* w :
         std::initializer_list<QWidget*> { m_tour, m_comparison, m_inference, m_scaling, m_plan, m_baselineTable }) {
        QFont f = QApplication::font();
        f.setPointSizeF(f.pointSizeF() * scale);
        w->setFont(f);
    }
}

void MainWindow::showGpuComparison()
{
    m_comparison->setScenario(m_controller->scenario());
    m_comparisonDock->show();
    m_comparisonDock->raise();
    QTimer::singleShot(0, this, [this] { fitBottomDock(m_comparisonDock); }); // once the dock is laid out
}

void MainWindow::hideGpuComparison() { m_comparisonDock->hide(); }

bool MainWindow::gpuComparisonShown() const { return m_comparisonDock->isVisible(); }

void MainWindow::retranslateTools()
{
    m_baselineDock->setWindowTitle(tr("Baseline Comparison"));
    m_comparisonDock->setWindowTitle(tr("GPU Comparison"));
    m_inferenceDock->setWindowTitle(tr("Serving (Inference)"));
    m_scalingDock->setWindowTitle(tr("Scaling over GPUs"));
    m_planDock->setWindowTitle(tr("Plan a Multi-GPU Layout"));
}

void MainWindow::showInference()
{
    m_inferenceDock->show();
    m_inferenceDock->raise();
    QTimer::singleShot(0, this, [this] { fitBottomDock(m_inferenceDock); }); // once the dock is laid out
    m_inference->refresh();
}

void MainWindow::showScaling()
{
    m_scaling->setScenario(m_controller->scenario());
    m_scalingDock->show();
    m_scalingDock->raise();
    QTimer::singleShot(0, this, [this] { fitBottomDock(m_scalingDock); }); // once the dock is laid out
    m_scaling->refresh();
}

void MainWindow::showPlan()
{
    m_plan->setScenario(m_controller->scenario());
    m_planDock->show();
    m_planDock->raise();
    QTimer::singleShot(0, this, [this] { fitBottomDock(m_planDock); }); // once the dock is laid out
    m_plan->refresh();
}

void MainWindow::setBaselinePinned(bool on)
{
    m_baseline = on ? m_controller->sharedResult() : nullptr;
    // The verdict's answer for it: the worker's where it has answered for this result, else searched now (once).
    if (m_baseline)
        m_baselineFit = m_controller->backgroundPending()
            ? searchFits(*m_baseline)
            : static_cast<const SearchResult&>(m_controller->background());
    m_baselineWidthAsked = 0; // a dock shown again is widened again
    if (m_ui->baselineAction->isChecked() != on)
        m_ui->baselineAction->setChecked(on);
    m_baselineDock->setVisible(on);
    if (m_controller->result().model) {
        onResultChanged();
        // Once the dock is laid out: asked while it was being shown, it opened a column wide (the Llama QLoRA
        // example at 1024x768) and widened only at the first change.
        QTimer::singleShot(0, this, [this] {
            if (m_baseline) {
                m_baselineWidthAsked = 0;
                fitBaselineDock();
            }
        });
    }
    statusBar()->showMessage(on ? tr("Pinned this scenario as the baseline: change anything to compare") : QString(),
                             5000);
}

// The baseline against the result on screen, with each side's one answer to "does it fit?" (the current one's once the
// worker has it, as the verdict above shows it).
void MainWindow::showBaselineComparison(const std::shared_ptr<const SimulationResult>& result)
{
    const bool pending = m_controller->backgroundPending();
    m_baselineTable->setResults(m_baseline, &m_baselineFit, result, pending ? nullptr : &m_controller->background());
    fitBaselineDock();
}

void MainWindow::fitBaselineDock()
{
    // Wide enough for the table where the window has room, asked once per new width (not on every tick):
    // resizeDocks() never grows the window, and the charts keep their readable width (at 1024x768 the table takes
    // what they leave and scrolls sideways for the rest).
    const int need = m_baselineTable->neededWidth();
    if (m_baselineDock->isVisible() && need != m_baselineWidthAsked && m_baselineTable->width() < need) {
        const int room = std::max(0, chartArea().width() - readableChartSize().width() - m_ui->chartGrid->spacing());
        if (const int grow = std::min(need - m_baselineTable->width(), room); grow > 0)
            resizeDocks({ m_baselineDock }, { m_baselineDock->width() + grow }, Qt::Horizontal);
        m_baselineWidthAsked = need;
    }
}

void MainWindow::refreshTools(const std::shared_ptr<const SimulationResult>& result)
{
    if (m_baseline)
        showBaselineComparison(result);
    m_comparison->setScenario(result->scenario);
    m_inference->setScenario(result->scenario);
    m_scaling->setScenario(result->scenario);
    m_plan->setScenario(result->scenario);
    m_tour->refreshText(); // its text quotes the result on screen
}

void MainWindow::catalogChanged()
{
    m_ui->controls->setCatalog(&m_controller->catalog());
    m_comparison->reloadGpus();
}

void MainWindow::editModel(const QStringList& checkpoint)
{
    ModelEditorDialog dialog(m_controller->catalog(), m_controller->result().model, this);
    if (!checkpoint.isEmpty()) {
        if (auto e = dialog.compareWithCheckpoint(checkpoint))
            statusBar()->showMessage(*e, 8000);
    }
    connect(&dialog, &ModelEditorDialog::deleted, this, [this](const QString& id) {
        m_controller->removeModel(id.toStdString(), CatalogLoader::bundledShared().model(id.toStdString()));
        if (!m_controller->catalog().model(m_controller->scenario().modelId)) {
            Scenario s = m_controller->scenario();
            s.modelId = defaultScenario().modelId;
            applyScenario(s, Control::Model);
        }
        catalogChanged();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ModelSpec model = dialog.model();
    m_controller->addModel(model);
    catalogChanged();
    Scenario s = m_controller->scenario();
    s.modelId = model.id;
    applyScenario(s, Control::Model);
}

void MainWindow::editGpu()
{
    GpuEditorDialog dialog(m_controller->catalog(), m_controller->result().gpu, this);
    connect(&dialog, &GpuEditorDialog::deleted, this, [this](const QString& id) {
        m_controller->removeGpu(id.toStdString(), CatalogLoader::bundledShared().gpu(id.toStdString()));
        if (!m_controller->catalog().gpu(m_controller->scenario().gpuId)) {
            Scenario s = m_controller->scenario();
            s.gpuId = defaultScenario().gpuId;
            s.overrides = {};
            applyScenario(s, Control::Gpu);
        }
        catalogChanged();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    const GpuSpec gpu = dialog.gpu();
    m_controller->addGpu(gpu);
    catalogChanged();
    Scenario s = m_controller->scenario();
    s.gpuId = gpu.id;
    s.overrides = {};
    applyScenario(s, Control::Gpu);
}

std::optional<QString> MainWindow::importModel(const QString& path)
{
    const QFileInfo info(path);
    if (info.suffix().compare(QLatin1String("safetensors"), Qt::CaseInsensitive) == 0) {
        // A checkpoint's header: its exact count beside the current model's, in the model editor.
        editModel({ path });
        return std::nullopt;
    }
    if (path.endsWith(QLatin1String(".headroom.json")))
        return openScenarioFile(path);
    ModelSpec model;
    if (auto e = importModelFile(path, &model))
        return e;
    m_controller->addModel(model);
    catalogChanged();
    Scenario s = m_controller->scenario();
    s.modelId = model.id;
    s.config.sequenceLength = std::min<std::int64_t>(s.config.sequenceLength, model.defaultSequence);
    applyScenario(s, Control::Model);
    statusBar()->showMessage(
        tr("Imported %1 from %2").arg(QString::fromStdString(model.name), QDir::toNativeSeparators(path)), 6000);
    return std::nullopt;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) {
        const QFileInfo f(urls.front().toLocalFile());
        if (f.isDir() || f.suffix() == QLatin1String("json") || f.suffix() == QLatin1String("safetensors")) {
            event->acceptProposedAction();
            return;
        }
    }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = event->mimeData()->urls().value(0).toLocalFile();
    if (auto error = importModel(path))
        QMessageBox::warning(this, tr("Cannot open the dropped file"), *error);
    event->acceptProposedAction();
}

} // namespace headroom::gui
