#include "guiapp.h"

#include "appsettings.h"
#include "catalogloader.h"
#include "colourscheme.h"
#include "language.h"
#include "mainwindow.h"
#include "simulationcontroller.h"
#include "tour.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>

namespace headroom {

namespace {

    struct GuiOptions {
        QCommandLineOption scenarioOption, paletteOption, presentationOption, screenshotOption, sizeOption,
            languageOption, tourOption;
    };

    // The window's own options, in the order --help lists them.
    GuiOptions guiOptions()
    {
        const QCommandLineOption scenarioOption({ QStringLiteral("scenario") }, QObject::tr("Open a scenario file."),
                                                QObject::tr("file"));
        const QCommandLineOption paletteOption(
            { QStringLiteral("palette") },
            QObject::tr("Colour scheme: system, light or dark (default: the one chosen in View > Colours)."),
            QObject::tr("scheme"));
        const QCommandLineOption presentationOption({ QStringLiteral("presentation") },
                                                    QObject::tr("Start in presentation mode."));
        const QCommandLineOption screenshotOption({ QStringLiteral("screenshot") },
                                                  QObject::tr("Render the window to a PNG file and quit."),
                                                  QObject::tr("file"));
        const QCommandLineOption sizeOption({ QStringLiteral("size") }, QObject::tr("Window size, e.g. 1280x720."),
                                            QObject::tr("WxH"));
        const QCommandLineOption languageOption({ QStringLiteral("language") },
                                                QObject::tr(
                                                    "User interface language: en or zh_CN (default: the system's)."),
                                                QObject::tr("code"));
        const QCommandLineOption tourOption({ QStringLiteral("tour") },
                                            QObject::tr("Start the guided tour at this step (1 is the first)."),
                                            QObject::tr("step"));
        return { scenarioOption, paletteOption,  presentationOption, screenshotOption,
                 sizeOption,     languageOption, tourOption };
    }

} // namespace

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("headroom"));
    QApplication::setOrganizationName(QStringLiteral("headroom"));
    QApplication::setApplicationDisplayName(QStringLiteral("Headroom"));
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.headroom.Headroom"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.headroom.Headroom"),
                                                 QIcon(QStringLiteral(":/icons/io.github.headroom.Headroom.svg"))));

    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Headroom: GPU memory and bandwidth of a training step. "
                                                 "Run `headroom --help` for the headless commands."));
    const auto [scenarioOption, paletteOption, presentationOption, screenshotOption, sizeOption, languageOption,
                tourOption]
        = guiOptions();
    parser.addOptions({ scenarioOption, paletteOption, presentationOption, screenshotOption, sizeOption, languageOption,
                        tourOption });
    parser.process(app);

    // A screenshot run must not read or change the user's saved window and scenario.
    const bool screenshot = parser.isSet(screenshotOption);
    // A screenshot uses throwaway settings: neither the saved window nor the saved scenario, and nothing written.
    QTemporaryDir scratch;
    std::unique_ptr<gui::AppSettings> owned = screenshot
        ? std::make_unique<gui::AppSettings>(scratch.filePath(QStringLiteral("settings.ini")), nullptr)
        : std::make_unique<gui::AppSettings>();
    gui::AppSettings& settings = *owned;
    gui::ColourScheme colours;
    QString scheme = parser.isSet(paletteOption) ? parser.value(paletteOption) : settings.colourScheme();
    if (scheme == QLatin1String("system"))
        scheme.clear();
    if (!gui::ColourScheme::isValid(scheme)) {
        qWarning("--palette: \"%s\" is not system, light or dark", qPrintable(scheme));
        return 2;
    }
    colours.apply(scheme);
    colours.follow(settings);
    gui::Language language;
    language.apply(parser.isSet(languageOption) ? parser.value(languageOption) : settings.language());
    QObject::connect(&settings, &gui::AppSettings::languageChanged, &language,
                     [&language](const QString& code) { language.apply(code); });
    LoadReport report;
    gui::SimulationController controller(CatalogLoader::withUserData(&report));
    gui::MainWindow window(&controller, &settings);
    QString settingsError;
    const auto last = screenshot ? std::nullopt : settings.lastScenario(&settingsError);
    if (!last || !window.applyScenario(last->scenario))
        window.applyScenario(defaultScenario());
    if (parser.isSet(scenarioOption)) {
        if (auto error = window.openScenarioFile(parser.value(scenarioOption))) {
            qWarning("%s", qPrintable(*error));
            if (screenshot)
                return 1;
            window.statusBar()->showMessage(*error);
        }
    }
    if (!report.errors.isEmpty())
        window.statusBar()->showMessage(
            QObject::tr("Some data files were skipped: %1").arg(report.errors.join(QStringLiteral("; "))));
    else if (!settingsError.isEmpty())
        window.statusBar()->showMessage(QObject::tr("Ignored the saved scenario: %1").arg(settingsError), 10000);
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    if (parser.isSet(presentationOption) || (!screenshot && settings.presentationMode()))
        window.setPresentationMode(true, !screenshot); // a screenshot keeps the --size window
    window.show();
    if (parser.isSet(tourOption)) {
        window.findChild<QAction*>(QStringLiteral("tourAction"))->trigger();
        for (int i = 1; i < parser.value(tourOption).toInt(); ++i)
            window.tour()->next();
    }
    if (screenshot) {
        const QString path = parser.value(screenshotOption);
        // Wait for the background search (longest sequence, suggestions) so that the verdict is complete.
        auto grab = [&window, path] {
            window.grab().save(path, "PNG");
            QApplication::quit();
        };
        QObject::connect(&controller, &gui::SimulationController::backgroundChanged, &window,
                         [grab] { QTimer::singleShot(200, grab); });
        QTimer::singleShot(8000, &window, grab);
    }
    return app.exec();
}

} // namespace headroom
