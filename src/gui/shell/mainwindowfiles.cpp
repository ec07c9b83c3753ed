// MainWindow's File menu: scenarios (open, recent, examples, save) and exports (figure, report, CSV, JSON,
// clipboard). The window's exports go through the same Figure and report code as `headroom export`.

#include "mainwindow.h"

#include "appsettings.h"
#include "catalogloader.h"
#include "controlpanel.h"
#include "exportdialog.h"
#include "finetune.h"
#include "labels.h"
#include "language.h"
#include "pdfreport.h"
#include "report.h"
#include "scenariotext.h"
#include "simulationcontroller.h"
#include "ui_mainwindow.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>

namespace headroom::gui {

namespace {

    // An example by its file's title in the window's language (title_zh in Chinese), the file name only when the
    // file has no title.
    QString exampleName(const QString& path)
    {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
            // Language::apply sets the default locale to the window's language (or the system's).
            const QString zh = o.value(QStringLiteral("title_zh")).toString();
            QString title = QLocale().language() == QLocale::Chinese && !zh.isEmpty()
                ? zh
                : o.value(QStringLiteral("title")).toString();
            if (!title.isEmpty())
                return title;
        }
        return QFileInfo(path).fileName().section(QStringLiteral(".headroom"), 0, 0);
    }

} // namespace

QStringList MainWindow::examplePaths()
{
    QStringList paths;
    const QDir dir(QStringLiteral(":/scenarios"));
    for (const QString& f : dir.entryList({ QStringLiteral("*.headroom.json") }, QDir::Files, QDir::Name))
        paths << dir.filePath(f);
    return paths;
}

void MainWindow::setupFileMenu()
{
    connect(m_ui->openAction, &QAction::triggered, this, &MainWindow::openScenario);
    connect(m_ui->saveAction, &QAction::triggered, this, &MainWindow::saveScenario);
    connect(m_ui->exportFigureAction, &QAction::triggered, this, &MainWindow::exportFigureDialog);
    connect(m_ui->exportReportAction, &QAction::triggered, this, [this] { exportDataDialog(QStringLiteral("pdf")); });
    connect(m_ui->exportCsvAction, &QAction::triggered, this, [this] { exportDataDialog(QStringLiteral("csv")); });
    connect(m_ui->exportJsonAction, &QAction::triggered, this, [this] { exportDataDialog(QStringLiteral("json")); });
    connect(m_ui->copyFigureAction, &QAction::triggered, this, [this] {
        copyFigure(m_settings->exportOptions());
        statusBar()->showMessage(tr("Copied the figure to the clipboard"), 3000);
    });
    populateExamplesMenu();
    connect(m_ui->recentMenu, &QMenu::aboutToShow, this, &MainWindow::populateRecentMenu);
    populateRecentMenu();
    populateLanguageMenu();
    populateColoursMenu();
}

void MainWindow::populateExamplesMenu()
{
    m_ui->examplesMenu->clear();
    for (const QString& path : examplePaths()) {
        m_ui->examplesMenu->addAction(exampleName(path), this, [this, path] {
            if (auto error = openScenarioFile(path, Action::Example))
                QMessageBox::warning(this, tr("Cannot open the example"), *error);
        });
    }
}

void MainWindow::populateLanguageMenu()
{
    m_ui->languageMenu->clear();
    auto* group = new QActionGroup(m_ui->languageMenu);
    // The language in force, which `headroom --language` may have chosen for this run over the stored one.
    const QString chosen = Language::activeSetting();
    auto add = [&](const QString& code, const QString& text) {
        QAction* a = m_ui->languageMenu->addAction(text);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        a->setData(code);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] { m_settings->setLanguage(code); });
    };
    add(QString(), tr("System Default"));
    for (const QString& code : Language::available())
        add(code, Language::nativeName(code)); // each language in its own name, readable whatever is shown now
}

void MainWindow::populateColoursMenu()
{
    m_ui->coloursMenu->clear();
    auto* group = new QActionGroup(m_ui->coloursMenu);
    const QString chosen = m_settings->colourScheme();
    const std::pair<QString, QString> schemes[] = { { QString(), tr("System Default") },
                                                    { QStringLiteral("light"), tr("Light") },
                                                    { QStringLiteral("dark"), tr("Dark") } };
    for (const auto& [scheme, text] : schemes) {
        QAction* a = m_ui->coloursMenu->addAction(text);
        a->setCheckable(true);
        a->setChecked(scheme == chosen);
        a->setData(scheme);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, scheme = scheme] { m_settings->setColourScheme(scheme); });
    }
}

void MainWindow::populateRecentMenu()
{
    m_ui->recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (const QString& path : files) {
        m_ui->recentMenu->addAction(QDir::toNativeSeparators(path), this, [this, path] {
            if (auto error = openScenarioFile(path))
                QMessageBox::warning(this, tr("Cannot open the scenario"), *error);
        });
    }
    m_ui->recentMenu->setEnabled(!files.isEmpty());
}

std::optional<QString> MainWindow::openScenarioFile(const QString& path, Change what)
{
    QByteArray text;
    if (auto e = CatalogLoader::readFile(path, &text, 4 << 20))
        return e;
    auto doc = parseScenario(std::string_view(text.constData(), std::size_t(text.size())), path.toStdString());
    if (!doc)
        return Labels::error(doc.error());
    // Every check before any change: a file that cannot be shown leaves the window as it was.
    if (!m_controller->catalog().gpu(doc->scenario.gpuId))
        return tr("%1: gpu: unknown GPU \"%2\"").arg(path, QString::fromStdString(doc->scenario.gpuId));
    if (!doc->embeddedModel && !m_controller->catalog().model(doc->scenario.modelId))
        return tr("%1: model: unknown model \"%2\"").arg(path, QString::fromStdString(doc->scenario.modelId));
    // A method or task head the model refuses (LoRA on a CNN, more frozen layers than it has) would leave the window
    // unchanged without a word.
    const ModelSpec& model = doc->embeddedModel ? *doc->embeddedModel
                                                : *m_controller->catalog().model(doc->scenario.modelId);
    if (auto e = validateFinetune(model, doc->scenario.config, path.toStdString()))
        return Labels::error(*e);
    if (doc->embeddedModel) {
        m_controller->addModel(*doc->embeddedModel);
        m_ui->controls->setCatalog(&m_controller->catalog());
    }
    applyScenario(doc->scenario, what);
    if (!path.startsWith(QLatin1Char(':')))
        m_settings->addRecentFile(path);
    return std::nullopt;
}

std::optional<QString> MainWindow::writeScenarioDocument(const QString& path, const Scenario& scenario) const
{
    ScenarioDocument doc;
    doc.scenario = scenario;
    if (const ModelSpec* m = m_controller->catalog().model(doc.scenario.modelId);
        m && !CatalogLoader::bundledShared().model(m->id))
        doc.embeddedModel = *m; // a model of the user's own travels with the scenario
    return CatalogLoader::writeFile(path, QByteArray::fromStdString(serializeScenario(doc)));
}

std::optional<QString> MainWindow::saveScenarioFile(const QString& path)
{
    if (auto e = writeScenarioDocument(path, m_controller->scenario()))
        return e;
    m_settings->addRecentFile(path);
    return std::nullopt;
}

void MainWindow::openScenario()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Headroom scenarios (*.headroom.json *.json)"));
    if (path.isEmpty())
        return;
    if (auto error = openScenarioFile(path))
        QMessageBox::warning(this, tr("Cannot open the scenario"), *error);
}

void MainWindow::saveScenario()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario"), QStringLiteral("scenario.headroom.json"),
                                                tr("Headroom scenarios (*.headroom.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".headroom.json");
    if (auto error = saveScenarioFile(path))
        QMessageBox::warning(this, tr("Cannot save the scenario"), *error);
}

std::shared_ptr<const SimulationResult> MainWindow::currentResult() const { return m_controller->sharedResult(); }

// The background search's answer once it has come (else an export computes it).
const SearchResult* MainWindow::currentSearch() const
{
    return m_controller->backgroundPending() ? nullptr : &m_controller->background();
}

std::optional<QString> MainWindow::exportFigure(const QString& path, const FigureOptions& options) const
{
    if (auto e = options.validate())
        return QStringLiteral("%1: %2").arg(path, *e);
    Figure figure(options);
    figure.setBaseline(m_baseline);
    figure.setResult(currentResult(), currentSearch());
    return figure.write(path);
}

std::optional<QString> MainWindow::exportReport(const QString& path) const
{
    ReportInputs in;
    in.result = currentResult();
    if (!m_controller->backgroundPending())
        in.background = m_controller->background();
    in.measured = m_measured;
    return writePdfReport(path, in);
}

std::optional<QString> MainWindow::exportBreakdownCsv(const QString& path) const
{
    return CatalogLoader::writeFile(path, ScenarioText::breakdownCsv(*currentResult(), currentSearch()).toUtf8());
}

std::optional<QString> MainWindow::exportResultJson(const QString& path) const
{
    // The window skips the searches on each tick; the exported result has every field, as `headroom estimate
    // --json` writes it.
    SimulateOptions full;
    full.sweep = false;
    const auto complete = simulate(m_controller->catalog(), currentResult()->scenario, full);
    if (!complete)
        return Labels::error(complete.error());
    return CatalogLoader::writeFile(path, QByteArray::fromStdString(resultToJson(*complete)));
}

void MainWindow::copyFigure(const FigureOptions& options)
{
    Figure figure(options);
    figure.setBaseline(m_baseline);
    figure.setResult(currentResult(), currentSearch());
    auto* mime = new QMimeData;
    mime->setImageData(figure.toImage());
    mime->setData(QStringLiteral("image/svg+xml"), figure.toSvg());
    mime->setText(figure.captionLines().join(QLatin1Char('\n')));
    QGuiApplication::clipboard()->setMimeData(mime);
}

void MainWindow::exportFigureDialog()
{
    ExportDialog dialog(m_controller->scenario(), this);
    dialog.setOptions(m_settings->exportOptions());
    dialog.setLanguage(Language::activeSetting());
    if (m_baseline)
        dialog.setBaseline(m_baseline->scenario);
    QString dir = m_settings->exportDirectory();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    dialog.setPath(QDir(dir).filePath(
        QStringLiteral("headroom-%1.svg").arg(QString::fromStdString(m_controller->scenario().modelId))));
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_settings->setExportOptions(dialog.options());
    m_settings->setExportDirectory(QFileInfo(dialog.path()).absolutePath());
    // The baseline the figure shows, as a scenario file beside it: what the dialog's command reads.
    if (m_baseline) {
        if (auto e = writeScenarioDocument(dialog.baselinePath(), m_baseline->scenario)) {
            QMessageBox::warning(this, tr("Cannot export the figure"), *e);
            return;
        }
    }
    if (auto e = exportFigure(dialog.path(), dialog.options()))
        QMessageBox::warning(this, tr("Cannot export the figure"), *e);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(dialog.path())), 5000);
}

void MainWindow::exportDataDialog(const QString& suffix)
{
    QString dir = m_settings->exportDirectory();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    const QString model = QString::fromStdString(m_controller->scenario().modelId);
    const QString name = suffix == QLatin1String("pdf") ? QStringLiteral("headroom-%1-report.pdf").arg(model)
        : suffix == QLatin1String("csv")                ? QStringLiteral("headroom-%1-breakdown.csv").arg(model)
                                                        : QStringLiteral("headroom-%1.json").arg(model);
    const QString filter = suffix == QLatin1String("pdf") ? tr("PDF (*.pdf)")
        : suffix == QLatin1String("csv")                  ? tr("CSV (*.csv)")
                                                          : tr("JSON (*.json)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), QDir(dir).filePath(name), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    m_settings->setExportDirectory(QFileInfo(path).absolutePath());
    const auto e = suffix == QLatin1String("pdf") ? exportReport(path)
        : suffix == QLatin1String("csv")          ? exportBreakdownCsv(path)
                                                  : exportResultJson(path);
    if (e)
        QMessageBox::warning(this, tr("Cannot export"), *e);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace headroom::gui
