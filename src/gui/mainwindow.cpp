#include "mainwindow.h"

#include "appsettings.h"
#include "batchsweepview.h"
#include "catalogloader.h"
#include "categorylegend.h"
#include "controlpanel.h"
#include "explainer.h"
#include "labels.h"
#include "memorychartview.h"
#include "rooflineview.h"
#include "simulationcontroller.h"
#include "timelineview.h"
#include "ui_mainwindow.h"
#include "verdictwidget.h"

#include <QCloseEvent>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>
#include <QTextBrowser>

namespace headroom::gui {

MainWindow::MainWindow(SimulationController* controller, AppSettings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_ui(std::make_unique<Ui::MainWindow>())
    , m_controller(controller)
    , m_settings(settings)
{
    m_ui->setupUi(this);
    m_legend = new CategoryLegend(m_ui->results);
    m_ui->resultsLayout->insertWidget(1, m_legend);
    m_ui->explainDock->hide();
    m_ui->splitter->setStretchFactor(0, 0);
    m_ui->splitter->setStretchFactor(1, 1);
    m_ui->controls->setCatalog(&m_controller->catalog());
    for (ChartPanel* c : charts()) {
        c->setMinimumSize(320, 240);
        connect(c, &ChartPanel::explainRequested, this, &MainWindow::explain);
    }
    connect(m_ui->controls, &ControlPanel::scenarioEdited, this, &MainWindow::onScenarioEdited);
    connect(m_controller, &SimulationController::resultChanged, this, &MainWindow::onResultChanged);
    connect(m_controller, &SimulationController::backgroundChanged, this, &MainWindow::onBackgroundChanged);
    connect(m_ui->verdict, &VerdictWidget::fixRequested, this, [this](const TrainingConfig& config) {
        Scenario s = m_controller->scenario();
        s.config = config;
        applyScenario(s);
    });
    connect(m_ui->presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
    connect(m_ui->explainAction, &QAction::triggered, this, [this] { m_ui->explainDock->show(); });
    connect(m_ui->quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_ui->openAction, &QAction::triggered, this, &MainWindow::openScenario);
    connect(m_ui->saveAction, &QAction::triggered, this, &MainWindow::saveScenario);
    connect(m_ui->resetAction, &QAction::triggered, this, [this] { applyScenario(defaultScenario()); });
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
}

MainWindow::~MainWindow() = default;

ControlPanel* MainWindow::controls() const { return m_ui->controls; }
VerdictWidget* MainWindow::verdict() const { return m_ui->verdict; }
MemoryChartView* MainWindow::memoryChart() const { return m_ui->memoryChart; }
BatchSweepView* MainWindow::sweepChart() const { return m_ui->sweepChart; }
TimelineView* MainWindow::timelineChart() const { return m_ui->timelineChart; }
RooflineView* MainWindow::rooflineChart() const { return m_ui->rooflineChart; }
QList<ChartPanel*> MainWindow::charts() const
{
    return { m_ui->memoryChart, m_ui->sweepChart, m_ui->timelineChart, m_ui->rooflineChart };
}

bool MainWindow::applyScenario(const Scenario& scenario)
{
    if (!m_controller->setScenario(scenario))
        return false;
    m_ui->controls->setScenario(m_controller->scenario());
    return true;
}

void MainWindow::onScenarioEdited(const Scenario& scenario, const QString&, bool)
{
    if (!m_controller->setScenario(scenario))
        statusBar()->showMessage(tr("Unknown GPU or model"), 4000);
}

void MainWindow::onResultChanged()
{
    const auto shared = m_controller->sharedResult();
    const SimulationResult& r = *shared;
    for (ChartPanel* c : charts()) {
        c->setResult(shared);
        c->cacheStaticItems(); // grid and label items that a changed axis range created
    }
    m_ui->verdict->setResult(shared);
    m_ui->verdict->setBackground(m_controller->background(), m_controller->backgroundPending());
    setWindowTitle(tr("%1 on %2 — Headroom").arg(QString::fromStdString(r.model->name), QString::fromStdString(r.gpu->name)));
    if (m_explainShown)
        m_ui->explainText->setHtml(Explainer::html(m_lastExplain, r));
}

void MainWindow::onBackgroundChanged()
{
    m_ui->verdict->setBackground(m_controller->background(), m_controller->backgroundPending());
}

void MainWindow::explain(const ExplainRequest& request)
{
    m_lastExplain = request;
    m_explainShown = true;
    m_ui->explainText->setHtml(Explainer::html(request, m_controller->result()));
    m_ui->explainDock->show();
}

QString MainWindow::explainHtml() const { return m_ui->explainText->toHtml(); }

void MainWindow::restyle()
{
    const ChartStyle style = chartStyle(palette(), m_presentation);
    for (ChartPanel* c : charts())
        c->setChartStyle(style);
}

void MainWindow::setPresentationMode(bool on)
{
    m_presentation = on;
    m_ui->presentationAction->setChecked(on);
    m_ui->controls->setPresentationMode(on);
    m_ui->verdict->setPresentationMode(on);
    m_legend->setPresentationMode(on);
    if (on)
        showFullScreen();
    else
        showNormal();
    restyle();
    if (m_controller->result().model)
        onResultChanged();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        restyle();
        if (m_controller->result().model)
            onResultChanged();
    } else if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        if (m_controller->result().model)
            onResultChanged();
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    ScenarioDocument doc;
    doc.scenario = m_controller->scenario();
    m_settings->setLastScenario(doc);
    event->accept();
}

bool MainWindow::openScenarioFile(const QString& path, QString* error)
{
    QByteArray text;
    if (auto e = CatalogLoader::readFile(path, &text, 4 << 20)) {
        *error = *e;
        return false;
    }
    auto doc = parseScenario(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
    if (!doc) {
        *error = QString::fromStdString(doc.error().toString());
        return false;
    }
    if (doc->embeddedModel)
        m_controller->addModel(*doc->embeddedModel);
    if (!m_controller->catalog().gpu(doc->scenario.gpuId)) {
        *error = tr("%1: gpu: unknown GPU \"%2\"").arg(path, QString::fromStdString(doc->scenario.gpuId));
        return false;
    }
    if (!m_controller->catalog().model(doc->scenario.modelId)) {
        *error = tr("%1: model: unknown model \"%2\"").arg(path, QString::fromStdString(doc->scenario.modelId));
        return false;
    }
    m_ui->controls->setCatalog(&m_controller->catalog());
    applyScenario(doc->scenario);
    m_settings->addRecentFile(path);
    return true;
}

bool MainWindow::saveScenarioFile(const QString& path, QString* error)
{
    ScenarioDocument doc;
    doc.scenario = m_controller->scenario();
    if (const ModelSpec* m = m_controller->catalog().model(doc.scenario.modelId); m && !CatalogLoader::bundled().model(m->id))
        doc.embeddedModel = *m;
    const std::string text = serializeScenario(doc);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.commit()) {
        *error = tr("%1: %2").arg(path, f.errorString());
        return false;
    }
    m_settings->addRecentFile(path);
    return true;
}

void MainWindow::openScenario()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Headroom scenarios (*.headroom.json *.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openScenarioFile(path, &error))
        QMessageBox::warning(this, tr("Cannot open the scenario"), error);
}

void MainWindow::saveScenario()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), QStringLiteral("scenario.headroom.json"),
                                                tr("Headroom scenarios (*.headroom.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".headroom.json");
    QString error;
    if (!saveScenarioFile(path, &error))
        QMessageBox::warning(this, tr("Cannot save the scenario"), error);
}

} // namespace headroom::gui
