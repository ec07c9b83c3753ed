#include "exportcommand.h"

#include "catalogloader.h"
#include "estimatecommand.h"
#include "figure.h"
#include "language.h"
#include "pdfreport.h"
#include "report.h"
#include "scenariotext.h"
#include "simulate.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTextStream>

namespace headroom {

namespace {

    QTextStream& err()
    {
        static QTextStream s(stderr);
        return s;
    }

    std::optional<QString> readInt(const QCommandLineParser& p, const QString& name, int min, int max, int* v)
    {
        if (!p.isSet(name))
            return std::nullopt;
        bool ok = false;
        const int n = p.value(name).toInt(&ok);
        if (!ok || n < min || n > max)
            return QStringLiteral("--%1: \"%2\" is not a whole number between %3 and %4")
                .arg(name, p.value(name))
                .arg(min)
                .arg(max);
        *v = n;
        return std::nullopt;
    }

    // The command's own options: they do not say which scenario a --measured file is compared in.
    QList<QCommandLineOption> exportOptions()
    {
        return {
            { QStringLiteral("chart"), QStringLiteral("memory, sweep, timeline, roofline, all (default) or report."),
              QStringLiteral("which") },
            { QStringLiteral("out"), QStringLiteral("Output file; its suffix picks the type."),
              QStringLiteral("file") },
            { QStringLiteral("width"), QStringLiteral("Figure width in logical pixels (default 1600)."),
              QStringLiteral("px") },
            { QStringLiteral("height"), QStringLiteral("Figure height in logical pixels (default 1000)."),
              QStringLiteral("px") },
            { QStringLiteral("scale"), QStringLiteral("PNG pixels per logical pixel, e.g. 2 for HiDPI (default 1)."),
              QStringLiteral("factor") },
            { QStringLiteral("no-caption"), QStringLiteral("Leave out the caption that states the scenario.") },
            { QStringLiteral("palette"), QStringLiteral("light (default) or dark."), QStringLiteral("scheme") },
            { QStringLiteral("presentation"), QStringLiteral("Large fonts and thick lines, for slides.") },
            { QStringLiteral("baseline"),
              QStringLiteral("Show this scenario file beside the result, as the window's baseline comparison does."),
              QStringLiteral("file") },
            { QStringLiteral("language"),
              QStringLiteral("Language of the figure's text: en or zh_CN (default: the system's, as the window)."),
              QStringLiteral("code") },
            { QStringLiteral("measured"),
              QStringLiteral("The report states this headroom-probe measurement beside the prediction (as "
                             "`headroom estimate --measured`; alone, it gives the scenario)."),
              QStringLiteral("file") },
        };
    }

    // Size, scale, caption, palette and presentation of the figure.
    std::optional<QString> readFigureOptions(const QCommandLineParser& p, gui::FigureOptions& fo)
    {
        int w = fo.size.width(), h = fo.size.height();
        if (auto e = readInt(p, QStringLiteral("width"), 1, 1 << 20, &w))
            return e;
        if (auto e = readInt(p, QStringLiteral("height"), 1, 1 << 20, &h))
            return e;
        fo.size = QSize(w, h);
        if (p.isSet(QStringLiteral("scale"))) {
            bool ok = false;
            fo.scale = p.value(QStringLiteral("scale")).toDouble(&ok);
            if (!ok)
                return QStringLiteral("--scale: \"%1\" is not a number").arg(p.value(QStringLiteral("scale")));
        }
        fo.caption = !p.isSet(QStringLiteral("no-caption"));
        const QString palette = p.isSet(QStringLiteral("palette")) ? p.value(QStringLiteral("palette"))
                                                                   : QStringLiteral("light");
        if (palette != QLatin1String("light") && palette != QLatin1String("dark"))
            return QStringLiteral("--palette: unknown scheme \"%1\"; valid: light, dark").arg(palette);
        fo.dark = palette == QLatin1String("dark");
        fo.presentation = p.isSet(QStringLiteral("presentation"));
        return std::nullopt;
    }

    // The --baseline scenario's result, its model and GPU in baseCatalog (a copy of the catalog).
    std::optional<QString> simulateBaseline(const QString& path, const Catalog& catalog, Catalog& baseCatalog,
                                            std::shared_ptr<const SimulationResult>& out)
    {
        QCommandLineParser bp;
        addScenarioOptions(bp);
        bp.parse({ QStringLiteral("headroom"), QStringLiteral("--scenario"), path });
        baseCatalog = catalog;
        ResolvedScenario b;
        if (auto e = resolveScenario(bp, baseCatalog, &b))
            return QStringLiteral("--baseline: %1").arg(*e);
        auto base = simulate(baseCatalog, b.scenario, SimulateOptions::interactive());
        if (!base)
            return QStringLiteral("--baseline: %1").arg(QString::fromStdString(base.error().toString()));
        out = std::make_shared<const SimulationResult>(std::move(*base));
        return std::nullopt;
    }

    // The --measured probe file the report states beside the prediction; it may set the scenario (r).
    std::optional<QString> readMeasured(const QCommandLineParser& p, const QList<QCommandLineOption>& own, bool report,
                                        Catalog& catalog, ResolvedScenario& r, std::shared_ptr<const Measured>& out)
    {
        if (!report)
            return QStringLiteral("--measured: only the report (--chart report) states a measurement");
        Measured m;
        QStringList ownNames;
        for (const QCommandLineOption& o : own)
            ownNames << o.names();
        if (auto e = readMeasuredOption(p, p.value(QStringLiteral("measured")), ownNames, catalog, &r, &m))
            return e;
        out = std::make_shared<const Measured>(std::move(m));
        return std::nullopt;
    }

    struct ExportTarget {
        QString out;    // the file
        QString suffix; // its suffix, lower case
        bool report = false;
        bool figure = false; // .png, .svg or .pdf of charts
    };

    // Writes the report, the figure, the breakdown (.csv) or the whole result (.json).
    std::optional<QString> writeExport(const ExportTarget& t, const gui::FigureOptions& fo, const Catalog& catalog,
                                       const Scenario& scenario, const std::shared_ptr<const SimulationResult>& result,
                                       const std::shared_ptr<const SimulationResult>& baseline,
                                       const std::shared_ptr<const Measured>& measured)
    {
        if (t.report) {
            gui::ReportInputs in;
            in.result = result;
            in.dark = fo.dark;
            in.measured = measured;
            return gui::writePdfReport(t.out, in);
        } else if (t.figure) {
            gui::Figure f(fo);
            f.setBaseline(baseline);
            f.setResult(result);
            return f.write(t.out);
        } else if (t.suffix == QLatin1String("csv")) {
            return CatalogLoader::writeFile(t.out, gui::ScenarioText::breakdownCsv(*result).toUtf8());
        } else {
            // Every field, as `headroom estimate --json` writes it.
            SimulateOptions full;
            full.sweep = false;
            const auto complete = simulate(catalog, scenario, full);
            return complete ? CatalogLoader::writeFile(t.out, QByteArray::fromStdString(resultToJson(*complete)))
                            : std::optional<QString>(QString::fromStdString(complete.error().toString()));
        }
    }

} // namespace

int exportFromArguments(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Render the charts of a scenario without a display: a figure (.png, .svg, .pdf), the one-page report\n"
        "(--chart report with a .pdf), the memory breakdown (.csv) or the whole result (.json).\n"
        "The window's File > Export writes the same figure for the same scenario and options."));
    p.addHelpOption();
    addScenarioOptions(p);
    const QList<QCommandLineOption> own = exportOptions();
    p.addOptions(own);
    p.addPositionalArgument(QStringLiteral("export"), QStringLiteral("The command."));
    if (!p.parse(arguments)) {
        err() << "headroom export: " << p.errorText() << "\n";
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << p.helpText();
        return 0;
    }
    auto fail = [](const QString& message) {
        err() << "headroom export: " << message << "\n";
        err().flush();
        return 2;
    };
    if (p.positionalArguments().size() > 1)
        return fail(QStringLiteral("unexpected argument \"%1\"").arg(p.positionalArguments().at(1)));
    const QString out = p.value(QStringLiteral("out"));
    if (out.isEmpty())
        return fail(QStringLiteral("--out: say where to write, e.g. --out figure.svg"));

    gui::FigureOptions fo;
    const QString chart = p.isSet(QStringLiteral("chart")) ? p.value(QStringLiteral("chart")) : QStringLiteral("all");
    const bool report = chart == QLatin1String("report");
    if (!report) {
        const auto c = gui::figureChartFromString(chart);
        if (!c)
            return fail(
                QStringLiteral("--chart: unknown chart \"%1\"; valid: memory, sweep, timeline, roofline, all, report")
                    .arg(chart));
        fo.chart = *c;
    }
    if (auto e = readFigureOptions(p, fo))
        return fail(*e);
    if (auto e = fo.validate())
        return fail(QStringLiteral("--width/--height/--scale: %1").arg(*e));
    // The figure's language: the one asked for, else the system's (what the window shows by default).
    const QString language = p.value(QStringLiteral("language"));
    if (p.isSet(QStringLiteral("language")) && !gui::Language::available().contains(language))
        return fail(QStringLiteral("--language: unknown \"%1\"; known: %2")
                        .arg(language, gui::Language::available().join(QStringLiteral(", "))));
    gui::Language translation;
    if (!translation.apply(language))
        return fail(QStringLiteral("--language %1: the translation cannot be loaded").arg(language));

    const QString suffix = QFileInfo(out).suffix().toLower();
    const bool figure = gui::figureFormatForPath(out).has_value();
    if (report && suffix != QLatin1String("pdf"))
        return fail(QStringLiteral("--out %1: the report is a PDF; name the file .pdf").arg(out));
    if (!report && !figure && suffix != QLatin1String("csv") && suffix != QLatin1String("json"))
        return fail(QStringLiteral("--out %1: unknown type; use .png, .svg, .pdf, .csv or .json").arg(out));

    LoadReport loadReport;
    Catalog catalog = CatalogLoader::withUserData(&loadReport);
    for (const QString& e : loadReport.errors)
        err() << "warning: " << e << "\n";
    ResolvedScenario r;
    if (auto e = resolveScenario(p, catalog, &r))
        return fail(*e);
    std::shared_ptr<const Measured> measured;
    if (p.isSet(QStringLiteral("measured"))) {
        if (auto e = readMeasured(p, own, report, catalog, r, measured))
            return fail(*e);
    }
    // The window's own result for this scenario (SimulateOptions::interactive), so that the file is the window's.
    auto simulated = simulate(catalog, r.scenario, SimulateOptions::interactive());
    if (!simulated)
        return fail(QString::fromStdString(simulated.error().toString()));
    const auto result = std::make_shared<const SimulationResult>(std::move(*simulated));
    std::shared_ptr<const SimulationResult> baseline;
    Catalog baseCatalog; // the baseline's model and GPU point into it
    if (p.isSet(QStringLiteral("baseline"))) {
        if (auto e = simulateBaseline(p.value(QStringLiteral("baseline")), catalog, baseCatalog, baseline))
            return fail(*e);
    }
    if (auto e = writeExport({ out, suffix, report, figure }, fo, catalog, r.scenario, result, baseline, measured))
        return fail(*e);
    return 0;
}

int runExport(int argc, char** argv)
{
    // Same figure with or without a display: always the offscreen platform, unless the caller chose one.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("headroom"));
    QApplication::setOrganizationName(QStringLiteral("headroom"));
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    return exportFromArguments(QApplication::arguments());
}

} // namespace headroom
