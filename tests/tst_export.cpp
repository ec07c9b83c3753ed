// Exports for reports: figures of the requested type and size (the PNG's pixels, the SVG parsed back, the PDF's
// header, page count and page size), vector text in SVG and PDF (no bitmaps of cached items), the caption naming
// the scenario, the headless `headroom export` writing the same file as the window, the one-page report, the CSV
// breakdown, bad options refused without touching existing files, undo/redo, and the bundled examples.

#include "appsettings.h"
#include "baselinetable.h"
#include "batchsweepview.h"
#include "catalogloader.h"
#include "chartstyle.h"
#include "controlpanel.h"
#include "estimatecommand.h"
#include "exportcommand.h"
#include "exportdialog.h"
#include "figure.h"
#include "formatting.h"
#include "mainwindow.h"
#include "memorychartview.h"
#include "rooflineview.h"
#include "scenario.h"
#include "scenariohistory.h"
#include "simulationcontroller.h"
#include "timelineview.h"
#include "verdictwidget.h"

#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QXmlStreamReader>

using namespace headroom;
using namespace headroom::gui;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Page objects of a PDF: "/Type /Page" not followed by "s" (that would be the /Pages tree).
int pdfPageCount(const QByteArray& pdf)
{
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?!s)"));
    return int(QString::fromLatin1(pdf).count(page));
}

QSizeF pdfMediaBox(const QByteArray& pdf)
{
    static const QRegularExpression box(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

int runExport(QStringList args)
{
    args.prepend(QStringLiteral("export"));
    args.prepend(QStringLiteral("headroom"));
    return exportFromArguments(args);
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void pngHasTheRequestedPixels();
    void svgParsesWithVectorText();
    void pdfIsOnePageOfTheRequestedSize();
    void captionStatesTheScenario();
    void figureGivesTheEstimatesVerdict();
    void headlessExportEqualsWindowExport_data();
    void headlessExportEqualsWindowExport();
    void reportIsOneA4Page();
    void reportStatesWhatPyTorchWouldReportAndAMeasurement();
    void csvBreakdownAddsUpToThePeak();
    void badOptionsAreRefusedAndKeepExistingFiles();
    void exportDialogShowsTheCommandLine();
    void exportDialogCommandWritesTheSameFile();
    void undoRedoTreatsADragAsOneStep();
    void corruptScenarioKeepsStateAndHistory();
    void examplesOpenAndTheirTitlesHoldTrue();
    void baselineIsShownBesideTheCurrentScenario();
    void presentationModeShowsTwoLargeCharts();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SimulationController> m_controller;
    std::unique_ptr<MainWindow> m_window;
    QString path(const char* name) const { return m_dir->filePath(QString::fromLatin1(name)); }
};

void TestExport::initTestCase()
{
    // Headless exports read the user's data directory too; keep it empty and apart from the real one.
    QStandardPaths::setTestModeEnabled(true);
}

void TestExport::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(QStringLiteral("settings.ini")), nullptr);
    m_controller = std::make_unique<SimulationController>(CatalogLoader::withUserData());
    m_window = std::make_unique<MainWindow>(m_controller.get(), m_settings.get());
    QVERIFY(m_window->applyScenario(defaultScenario()));
    m_window->history()->reset(m_controller->scenario());
}

void TestExport::cleanup()
{
    m_window.reset();
    m_controller.reset();
    m_settings.reset();
    m_dir.reset();
}

void TestExport::pngHasTheRequestedPixels()
{
    FigureOptions o;
    o.chart = FigureChart::Memory;
    o.size = QSize(800, 600);
    o.scale = 2.0;
    QVERIFY(!m_window->exportFigure(path("memory.png"), o));
    QImageReader reader(path("memory.png"));
    QCOMPARE(reader.format(), QByteArray("png"));
    QCOMPARE(reader.size(), QSize(1600, 1200));
    const QImage image = reader.read();
    QVERIFY(image.text(QStringLiteral("Title")).contains(QStringLiteral("RTX A3000")));
    // Not blank: the bars put many colours on the page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

void TestExport::svgParsesWithVectorText()
{
    FigureOptions o;
    o.size = QSize(1200, 800);
    QVERIFY(!m_window->exportFigure(path("all.svg"), o));
    const QByteArray svg = readAll(path("all.svg"));
    QXmlStreamReader xml(svg);
    int texts = 0, images = 0;
    QString viewBox, title;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("svg"))
            viewBox = xml.attributes().value(QLatin1String("viewBox")).toString();
        else if (xml.name() == QLatin1String("text"))
            ++texts;
        else if (xml.name() == QLatin1String("image"))
            ++images;
        else if (xml.name() == QLatin1String("title"))
            title = xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(viewBox, QStringLiteral("0 0 1200 800"));
    QVERIFY(title.contains(QStringLiteral("BERT")));
    QVERIFY2(texts > 40, qPrintable(QString::number(texts))); // axis labels, titles, legend, caption
    QCOMPARE(images, 0); // no text or grid item reached the file as a cached bitmap
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox(), QRect(0, 0, 1200, 800));
}

void TestExport::pdfIsOnePageOfTheRequestedSize()
{
    FigureOptions o;
    o.chart = FigureChart::Roofline;
    o.size = QSize(1000, 640);
    QVERIFY(!m_window->exportFigure(path("roofline.pdf"), o));
    const QByteArray pdf = readAll(path("roofline.pdf"));
    QVERIFY(pdf.startsWith("%PDF-1."));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QCOMPARE(pdfPageCount(pdf), 1);
    // 96 logical pixels per inch, 72 points per inch.
    const QSizeF box = pdfMediaBox(pdf);
    QVERIFY2(qAbs(box.width() - 750.0) < 0.5 && qAbs(box.height() - 480.0) < 0.5,
             qPrintable(QStringLiteral("%1 x %2").arg(box.width()).arg(box.height())));
}

void TestExport::captionStatesTheScenario()
{
    Scenario s = defaultScenario();
    s.config.microBatch = 24;
    s.config.zeroStage = 2;
    s.config.dataParallel = 4;
    s.config.checkpointing = Checkpointing::Full;
    QVERIFY(m_window->applyScenario(s));
    Figure f(FigureOptions {});
    f.setResult(m_controller->sharedResult());
    const QString caption = f.captionLines().join(QLatin1Char('\n'));
    for (const char* expected : { "RTX A3000", "BERT", "micro-batch 24", "sequence 512", "FP16", "ZeRO stage 2",
                                  "4 data-parallel GPUs", "Full", "392 GB/s", "largest micro-batch" })
        QVERIFY2(caption.contains(QLatin1String(expected)), expected);
}

// Issue 28's one answer to "does it fit?" in a figure too. At micro-batch 16 the default scenario's peak leaves
// 4.34 GiB of the A3000's 12 GiB and allows 27 by itself; the caching allocator replayed under the capacity
// (reserved + CUDA context, what `headroom estimate` and the window's verdict say) leaves 3.71 GiB and allows 26.
// The exported caption used the peak's.
void TestExport::figureGivesTheEstimatesVerdict()
{
    QVERIFY(m_window->applyScenario(defaultScenario()));
    const auto r = m_controller->sharedResult();
    const SearchResult fit = searchFits(*r);
    QVERIFY(fit.maxMicroBatch != r->estimate.maxMicroBatch); // the scenario tells the two rules apart
    Figure f(FigureOptions {});
    f.setResult(r);
    const QString caption = f.captionLines().join(QLatin1Char('\n'));
    QVERIFY2(caption.contains(QStringLiteral("largest micro-batch %1").arg(fit.maxMicroBatch)), qPrintable(caption));
    QVERIFY2(!caption.contains(QStringLiteral("largest micro-batch %1").arg(r->estimate.maxMicroBatch)),
             qPrintable(caption));
}

void TestExport::headlessExportEqualsWindowExport_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("svg all") << QStringLiteral("fig.svg") << QStringList();
    QTest::newRow("png roofline 2x dark")
        << QStringLiteral("fig.png")
        << QStringList { QStringLiteral("--chart"), QStringLiteral("roofline"),  QStringLiteral("--scale"),
                         QStringLiteral("2"),       QStringLiteral("--palette"), QStringLiteral("dark") };
    QTest::newRow("png timeline no caption")
        << QStringLiteral("fig.png")
        << QStringList { QStringLiteral("--chart"), QStringLiteral("timeline"), QStringLiteral("--no-caption"),
                         QStringLiteral("--width"), QStringLiteral("900"),      QStringLiteral("--height"),
                         QStringLiteral("500") };
}

void TestExport::headlessExportEqualsWindowExport()
{
    QFETCH(QString, file);
    QFETCH(QStringList, options);
    // A scenario unlike the default, set through the window's controls.
    Scenario s = defaultScenario();
    s.modelId = "gpt2";
    s.config.microBatch = 6;
    s.config.sequenceLength = 1024;
    s.config.precision = Precision::MixedBF16;
    s.config.checkpointing = Checkpointing::Selective;
    s.overrides = {};
    s.gpuId = "rtx-3090";
    QVERIFY(m_window->applyScenario(s));

    // The dialog's options from the same flags the command line takes.
    FigureOptions o;
    for (int i = 0; i < options.size(); ++i) {
        if (options[i] == QLatin1String("--chart"))
            o.chart = *figureChartFromString(options[++i]);
        else if (options[i] == QLatin1String("--scale"))
            o.scale = options[++i].toDouble();
        else if (options[i] == QLatin1String("--palette"))
            o.dark = options[++i] == QLatin1String("dark");
        else if (options[i] == QLatin1String("--no-caption"))
            o.caption = false;
        else if (options[i] == QLatin1String("--width"))
            o.size.setWidth(options[++i].toInt());
        else if (options[i] == QLatin1String("--height"))
            o.size.setHeight(options[++i].toInt());
    }
    const QString windowFile = m_dir->filePath(QStringLiteral("window-") + file);
    const QString headlessFile = m_dir->filePath(QStringLiteral("headless-") + file);
    QVERIFY(!m_window->exportFigure(windowFile, o));
    QCOMPARE(runExport(scenarioToArguments(m_controller->scenario()) + options
                       + QStringList { QStringLiteral("--out"), headlessFile }),
             0);
    const QByteArray a = readAll(windowFile), b = readAll(headlessFile);
    QVERIFY(a.size() > 1000);
    if (file.endsWith(QLatin1String(".png"))) {
        const QImage ia = QImage::fromData(a), ib = QImage::fromData(b);
        QCOMPARE(ia.size(), ib.size());
        QVERIFY(ia.convertToFormat(QImage::Format_ARGB32) == ib.convertToFormat(QImage::Format_ARGB32));
    } else {
        QCOMPARE(a, b);
    }
}

void TestExport::reportIsOneA4Page()
{
    QVERIFY(!m_window->exportReport(path("report.pdf")));
    const QByteArray pdf = readAll(path("report.pdf"));
    QVERIFY(pdf.startsWith("%PDF-1."));
    QCOMPARE(pdfPageCount(pdf), 1);
    // A4 is 210 x 297 mm = 595.3 x 841.9 pt (ISO 216).
    const QSizeF box = pdfMediaBox(pdf);
    QVERIFY2(qAbs(box.width() - 595.3) < 1.0 && qAbs(box.height() - 841.9) < 1.0,
             qPrintable(QStringLiteral("%1 x %2").arg(box.width()).arg(box.height())));
    // The headless report is a valid one-page PDF too.
    QCOMPARE(runExport({ QStringLiteral("--chart"), QStringLiteral("report"), QStringLiteral("--out"),
                         path("cli-report.pdf") }),
             0);
    QCOMPARE(pdfPageCount(readAll(path("cli-report.pdf"))), 1);
}

// The report's text, as poppler's pdftotext reads it back: what torch.cuda would report (the caching allocator
// replayed), and with --measured a probe's measurement beside the prediction. ResNet-50 on the CPU: its saved
// activations are PyTorch's own figure (tests/data/measured/), which the prediction meets byte for byte.
void TestExport::reportStatesWhatPyTorchWouldReportAndAMeasurement()
{
    const QString file = QStringLiteral(HEADROOM_SOURCE_DIR)
        + QStringLiteral("/tests/data/measured/resnet50-cpu-b2-s64-fp32.headroom-measured.json");
    QCOMPARE(runExport({ QStringLiteral("--chart"), QStringLiteral("report"), QStringLiteral("--measured"), file,
                         QStringLiteral("--language"), QStringLiteral("en"), QStringLiteral("--out"),
                         path("measured.pdf") }),
             0);
    QCOMPARE(pdfPageCount(readAll(path("measured.pdf"))), 1);
    // A measurement belongs in the report only; a file that cannot be read is named.
    QCOMPARE(runExport({ QStringLiteral("--chart"), QStringLiteral("memory"), QStringLiteral("--measured"), file,
                         QStringLiteral("--out"), path("measured.png") }),
             2);
    QCOMPARE(runExport({ QStringLiteral("--chart"), QStringLiteral("report"), QStringLiteral("--measured"),
                         path("none.json"), QStringLiteral("--out"), path("none.pdf") }),
             2);
    QVERIFY(!QFile::exists(path("none.pdf")));
    QProcess text;
    text.start(QStringLiteral("pdftotext"), { path("measured.pdf"), QStringLiteral("-") });
    if (!text.waitForFinished(60000) || text.exitCode() != 0)
        QSKIP("pdftotext (poppler-utils) is not installed: the report's text is not read back");
    // Lines joined: where the page wraps a sentence depends on the font's widths.
    const QString words = QString::fromUtf8(text.readAllStandardOutput()).replace(QLatin1Char('\n'), QLatin1Char(' '));
    QVERIFY2(words.contains(QStringLiteral("PyTorch: max_memory_allocated")), qPrintable(words));
    QVERIFY2(words.contains(QStringLiteral("saved activations 13.5 MiB (predicted +0.0 %)")), qPrintable(words));
    QVERIFY2(words.contains(QStringLiteral("on the CPU (not compared)")), qPrintable(words));
    // No ligature glyphs, which a PDF maps back to U+FB01 and U+FB02: "Fits" must search and copy as typed.
    QVERIFY2(!words.contains(QChar(0xFB01)) && !words.contains(QChar(0xFB02)), qPrintable(words));
}

// BERT-base at micro-batch 26 on the A3000: the window says "Does not fit: needs 12.16 GiB" (the replay: reserved +
// context); the CSV and the PDF said "Needed (the verdict's figure) 11.31 GiB", the simulated result's own verdict
// from before the searches ran. Both files now carry the window's.
void TestExport::csvBreakdownAddsUpToThePeak()
{
    Scenario s = defaultScenario();
    s.config.microBatch = 26;
    QVERIFY(m_window->applyScenario(s));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 60000);
    QVERIFY(!m_window->exportBreakdownCsv(path("breakdown.csv")));
    const QStringList lines
        = QString::fromUtf8(readAll(path("breakdown.csv"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QStringLiteral("category,label,steady_bytes,at_peak_bytes,at_peak_gib,share_of_peak"));
    QCOMPARE(lines.size(), 1 + kMemoryCategoryCount + 3); // header, categories, total, needed, capacity
    double sum = 0.0, total = 0.0, capacity = 0.0, needed = 0.0;
    for (const QString& line : lines.mid(1)) {
        const QStringList f = line.split(QLatin1Char(','));
        QCOMPARE(f.size(), 6);
        bool ok = false;
        const double atPeak = f[3].toDouble(&ok);
        QVERIFY2(ok, qPrintable(line)); // C-locale numbers, whatever the UI language
        if (f[0] == QLatin1String("total"))
            total = atPeak;
        else if (f[0] == QLatin1String("capacity"))
            capacity = atPeak;
        else if (f[0] == QLatin1String("needed"))
            needed = atPeak;
        else
            sum += atPeak;
    }
    QVERIFY(qAbs(sum - total) <= 8.0); // each row rounded to a byte
    QCOMPARE(total, std::round(m_controller->result().estimate.peakBytes));
    // The RTX A3000 Laptop's 12 GB as the driver reports it: 12288 MiB (the GPU file's reported_mib).
    QCOMPARE(capacity, 12288.0 * 1048576.0);
    // The verdict's figure, so that the file says whether it fits as the window does: at least the tensors' peak
    // (the allocator's cache comes on top), and over the capacity exactly when the verdict says it does not fit.
    const FitVerdict& verdict = m_controller->background().verdict;
    QCOMPARE(verdict.decidedBy, FitRule::Allocator);
    QVERIFY(!verdict.fits);
    QCOMPARE(needed, std::round(verdict.neededBytes));
    QCOMPARE_GE(needed, total);
    QCOMPARE(needed <= capacity, verdict.fits);
    QVERIFY2(m_window->verdict()->headline().contains(formatBytes(verdict.neededBytes)),
             qPrintable(m_window->verdict()->headline()));
}

void TestExport::badOptionsAreRefusedAndKeepExistingFiles()
{
    const QString existing = path("keep.svg");
    {
        QFile f(existing);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious");
    }
    const QList<QStringList> bad {
        { QStringLiteral("--width"), QStringLiteral("10"), QStringLiteral("--out"), existing },
        { QStringLiteral("--scale"), QStringLiteral("nan"), QStringLiteral("--out"), existing },
        { QStringLiteral("--chart"), QStringLiteral("pie"), QStringLiteral("--out"), existing },
        { QStringLiteral("--batch"), QStringLiteral("-3"), QStringLiteral("--out"), existing },
        { QStringLiteral("--scenario"), path("missing.headroom.json"), QStringLiteral("--out"), existing },
        { QStringLiteral("--chart"), QStringLiteral("report"), QStringLiteral("--out"), existing },
        { QStringLiteral("--out"), path("figure.bmp") },
        { QStringLiteral("--language"), QStringLiteral("klingon"), QStringLiteral("--out"), existing },
        {},
    };
    for (const QStringList& args : bad) {
        QCOMPARE(runExport(args), 2);
        QCOMPARE(readAll(existing), QByteArray("precious"));
    }
    QVERIFY(!QFile::exists(path("figure.bmp")));
    // An unwritable place: the message names the path and nothing half-written is left behind.
    const QString nowhere = path("no/such/folder/fig.svg");
    const auto e = m_window->exportFigure(nowhere, FigureOptions {});
    QVERIFY(e);
    QVERIFY2(e->contains(nowhere), qPrintable(*e));
    QVERIFY(!QFile::exists(nowhere));
}

void TestExport::exportDialogShowsTheCommandLine()
{
    ExportDialog d(m_controller->scenario());
    d.setPath(path("fig.png"));
    FigureOptions o;
    o.chart = FigureChart::Sweep;
    o.size = QSize(1000, 700);
    o.scale = 2.0;
    d.setOptions(o);
    QVERIFY(d.problem().isEmpty());
    const QString cmd = d.commandLine();
    for (const char* part :
         { "headroom export", "--gpu rtx-a3000-12gb-laptop", "--model bert-base", "--batch 16", "--precision fp16",
           "--bandwidth-gbps 392", "--chart sweep", "--width 1000", "--scale 2" })
        QVERIFY2(cmd.contains(QLatin1String(part)), part);
    QVERIFY(!cmd.contains(QLatin1String("--language"))); // the window follows the system, and so does the command
    d.setLanguage(QStringLiteral("zh_CN"));
    QVERIFY(d.commandLine().contains(QLatin1String("--language zh_CN")));
    d.setPath(path("fig.bmp"));
    QVERIFY(!d.problem().isEmpty());
}

void TestExport::exportDialogCommandWritesTheSameFile()
{
    // A baseline pinned, a LoRA fine-tune, and a folder whose name a shell must have quoted.
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->setBaselinePinned(true);
    Scenario s = m_controller->scenario();
    s.config.precision = Precision::FP32;
    s.config.microBatch = 24;
    s.config.finetune.method = FinetuneMethod::LoRA;
    s.config.finetune.loraRank = 16;
    QVERIFY(m_window->applyScenario(s));
    QVERIFY(m_window->baseline());
    const QString folder = m_dir->filePath(QStringLiteral("it's a folder"));
    QVERIFY(QDir().mkpath(folder));

    ExportDialog d(m_controller->scenario());
    d.setBaseline(m_window->baseline()->scenario);
    d.setPath(folder + QStringLiteral("/figure.svg"));
    FigureOptions o;
    o.chart = FigureChart::All;
    o.size = QSize(1200, 800);
    d.setOptions(o);
    QVERIFY(d.problem().isEmpty());
    // What Save does: the baseline beside the figure, then the figure.
    QVERIFY(!m_window->writeScenarioDocument(d.baselinePath(), m_window->baseline()->scenario));
    QVERIFY(!m_window->exportFigure(d.path(), d.options()));
    const QByteArray fromWindow = readAll(d.path());
    QVERIFY(QFile::remove(d.path()));

    // The command, read back as a POSIX shell splits it.
    QStringList words;
    QString word;
    bool quoted = false, inWord = false;
    const QString command = d.commandLine();
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QChar c = command[i];
        if (c == QLatin1Char('\'')) {
            quoted = !quoted;
            inWord = true;
        } else if (c == QLatin1Char('\\') && !quoted && i + 1 < command.size()) {
            word += command[++i]; // an escaped character outside quotes stands for itself
            inWord = true;
        } else if (c == QLatin1Char(' ') && !quoted) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    QVERIFY(!quoted);
    QCOMPARE(words.mid(0, 2), (QStringList { QStringLiteral("headroom"), QStringLiteral("export") }));
    QVERIFY(words.contains(QStringLiteral("--baseline")));
    QCOMPARE(words.at(words.indexOf(QStringLiteral("--out")) + 1), d.path());
    QCOMPARE(runExport(words.mid(2)), 0);
    QCOMPARE(readAll(d.path()), fromWindow);

    // Copy puts the command on the clipboard.
    auto* copy = d.findChild<QPushButton*>(QStringLiteral("copyButton"));
    QVERIFY(copy);
    copy->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), d.commandLine());
}

void TestExport::undoRedoTreatsADragAsOneStep()
{
    QUndoStack* stack = m_window->history()->stack();
    QCOMPARE(stack->count(), 0);
    auto* slider = m_window->controls()->findChild<QSlider*>(QStringLiteral("batchSlider"));
    auto* spin = m_window->controls()->findChild<QSpinBox*>(QStringLiteral("batchSpin"));
    QVERIFY(slider && spin);
    const std::int64_t before = m_controller->scenario().config.microBatch;
    // One drag through several values (a value per singleStep positions near the anchor: BatchScale).
    slider->setSliderDown(true);
    for (int step = 1; step <= 5; ++step)
        slider->setValue(slider->value() + slider->singleStep());
    QCOMPARE(stack->count(), 0); // nothing recorded while the slider is held
    slider->setSliderDown(false);
    emit slider->sliderReleased();
    const std::int64_t after = m_controller->scenario().config.microBatch;
    QVERIFY(after > before);
    QCOMPARE(stack->count(), 1);
    // A second, separate change: the precision.
    auto* precision = m_window->controls()->findChild<QComboBox*>(QStringLiteral("precisionCombo"));
    QVERIFY(precision);
    precision->setCurrentIndex(precision->findData(int(Precision::FP32)));
    QVERIFY(m_controller->scenario().config.precision == Precision::FP32);
    QCOMPARE(stack->count(), 2);

    stack->undo();
    QVERIFY(m_controller->scenario().config.precision == Precision::MixedFP16);
    QCOMPARE(precision->currentData().toInt(), int(Precision::MixedFP16)); // the controls follow
    stack->undo();
    QCOMPARE(m_controller->scenario().config.microBatch, before);
    QCOMPARE(spin->value(), int(before));
    stack->redo();
    QCOMPARE(m_controller->scenario().config.microBatch, after);
    stack->redo();
    QVERIFY(m_controller->scenario().config.precision == Precision::FP32);
    QCOMPARE(stack->count(), 2); // undo and redo record nothing new
}

void TestExport::corruptScenarioKeepsStateAndHistory()
{
    Scenario s = defaultScenario();
    s.config.microBatch = 7;
    QVERIFY(m_window->applyScenario(s));
    const int steps = m_window->history()->stack()->count();
    const QList<QByteArray> corrupt {
        "{ not json",
        R"({"format":"headroom-scenario","version":1,"gpu":"rtx-a3000-12gb-laptop","model":"bert-base","micro_batch":-4,"sequence_length":512})",
        R"({"format":"headroom-scenario","version":1,"gpu":"no-such-gpu","model":"bert-base","micro_batch":4,"sequence_length":512})",
        R"({"format":"headroom-scenario","version":99,"gpu":"rtx-a3000-12gb-laptop","model":"bert-base","micro_batch":4,"sequence_length":512})",
    };
    for (const QByteArray& text : corrupt) {
        QFile f(path("bad.headroom.json"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        const QString error = m_window->openScenarioFile(path("bad.headroom.json")).value_or(QString());
        QVERIFY2(error.contains(QLatin1String("bad.headroom.json")), qPrintable(error));
        QVERIFY(m_controller->scenario() == s);
        QCOMPARE(m_window->history()->stack()->count(), steps);
    }
    QVERIFY(m_settings->recentFiles().isEmpty()); // a file that failed is not "recent"
}

void TestExport::examplesOpenAndTheirTitlesHoldTrue()
{
    const QStringList examples = MainWindow::examplePaths();
    QVERIFY(examples.size() >= 7);
    for (const QString& p : examples) {
        const auto error = m_window->openScenarioFile(p, Action::Example);
        QVERIFY2(!error, qPrintable(error.value_or(QString())));
        QFile f(p);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto doc = parseScenario(f.readAll().toStdString(), p.toStdString());
        QVERIFY(doc);
        QVERIFY2(m_controller->scenario() == doc->scenario, qPrintable(p));
        // Each title says whether it fits; the one verdict (the caching allocator replayed under the capacity, as the
        // window and the CLI give it) must agree, not the peak alone: example 8 said "fits at batch 4" with a peak of
        // 11.21 GiB while the replay needs 13.95 GiB of the 12 and the window said "Does not fit".
        const QString title = QString::fromStdString(doc->title);
        const bool fits = verdictOnDevice(m_controller->result()).fits;
        if (title.contains(QLatin1String("does not fit")))
            QVERIFY2(!fits, qPrintable(title));
        else if (title.contains(QLatin1String("fits")))
            QVERIFY2(fits, qPrintable(title));
        // The explainer's lessons happen on its GPU.
        QVERIFY(doc->scenario.gpuId == "rtx-a3000-12gb-laptop");
    }
    QVERIFY(m_settings->recentFiles().isEmpty()); // bundled examples are not recent files
}

void TestExport::baselineIsShownBesideTheCurrentScenario()
{
    // Pin FP16 at batch 16, then switch to FP32 at batch 24: every chart shows both.
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const Estimate pinned = m_controller->result().estimate;
    m_window->setBaselinePinned(true);
    Scenario s = m_controller->scenario();
    s.config.precision = Precision::FP32;
    s.config.microBatch = 24;
    QVERIFY(m_window->applyScenario(s));
    const Estimate now = m_controller->result().estimate;
    QVERIFY(now.peakBytes > pinned.peakBytes);

    // Memory bars: the baseline's weights are FP32 in both (autocast keeps FP32 weights), its activations are not.
    const MemoryChartView* memory = m_window->memoryChart();
    QCOMPARE(memory->baselineBarValue(Phase::Forward, MemoryCategory::Weights) / 1e6,
             memory->barValue(Phase::Forward, MemoryCategory::Weights) / 1e6);
    QVERIFY(memory->baselineBarValue(Phase::Backward, MemoryCategory::Activations)
            < memory->barValue(Phase::Backward, MemoryCategory::Activations));
    // The sweep shows the baseline's peak curve; at the pinned batch it is the pinned peak.
    const QList<QPointF> curve = m_window->sweepChart()->baselineCurve();
    QVERIFY(!curve.isEmpty());
    bool found = false;
    for (const QPointF& p : curve) {
        if (p.x() == double(pinned.config.microBatch)) {
            QVERIFY(qAbs(p.y() - pinned.peakBytes) < 1.0);
            found = true;
        }
    }
    QVERIFY(found);
    // The roofline shows the baseline's operators as a second marker set.
    QVERIFY(!m_window->rooflineChart()->baselineDots().isEmpty());
    // The table of differences: the peak row holds both peaks.
    const QString table = m_window->baselineTable()->text();
    QVERIFY2(table.contains(formatBytes(pinned.peakBytes)) && table.contains(formatBytes(now.peakBytes)),
             qPrintable(table));

    // Unpinning removes the comparison everywhere.
    m_window->setBaselinePinned(false);
    QVERIFY(m_window->sweepChart()->baselineCurve().isEmpty());
    QVERIFY(m_window->rooflineChart()->baselineDots().isEmpty());
    QCOMPARE(memory->baselineBarValue(Phase::Forward, MemoryCategory::Weights), 0.0);
}

void TestExport::presentationModeShowsTwoLargeCharts()
{
    m_window->resize(1280, 720);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QCOMPARE(m_window->visibleCharts().size(), 4);
    const qreal normalFont = m_window->memoryChart()->chartStyle().labelFont.pointSizeF();
    const qreal normalLine = m_window->memoryChart()->chartStyle().lineWidth;
    m_window->setPresentationMode(true, false);
    // The explainer's two views side by side, larger text and thicker lines, high contrast.
    QCOMPARE(m_window->visibleCharts(), (QList<ChartPanel*> { m_window->memoryChart(), m_window->rooflineChart() }));
    const ChartStyle& big = m_window->memoryChart()->chartStyle();
    QVERIFY(big.labelFont.pointSizeF() >= 1.4 * normalFont);
    QVERIFY(big.lineWidth > normalLine);
    QVERIFY(big.background == QColor(Qt::white) || big.background == QColor(Qt::black));
    m_window->showNextChartPair();
    QCOMPARE(m_window->visibleCharts(), (QList<ChartPanel*> { m_window->sweepChart(), m_window->timelineChart() }));
    m_window->setPresentationMode(false);
    QCOMPARE(m_window->visibleCharts().size(), 4);
    QCOMPARE(m_window->memoryChart()->chartStyle().labelFont.pointSizeF(), normalFont);
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
