#include "guiapp.h"

#include "appsettings.h"
#include "catalogloader.h"
#include "mainwindow.h"
#include "simulationcontroller.h"

#include <QApplication>
#include <QStatusBar>

namespace headroom {

int runGui(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("headroom"));
    QApplication::setOrganizationName(QStringLiteral("headroom"));
    QApplication::setApplicationDisplayName(QStringLiteral("Headroom"));
    QApplication::setApplicationVersion(QStringLiteral(HEADROOM_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.headroom.Headroom"));

    gui::AppSettings settings;
    LoadReport report;
    gui::SimulationController controller(CatalogLoader::withUserData(&report));
    gui::MainWindow window(&controller, &settings);
    QString settingsError;
    const auto last = settings.lastScenario(&settingsError);
    if (!last || !window.applyScenario(last->scenario))
        window.applyScenario(defaultScenario());
    if (!report.errors.isEmpty())
        window.statusBar()->showMessage(QObject::tr("Some data files were skipped: %1").arg(report.errors.join(QStringLiteral("; "))));
    else if (!settingsError.isEmpty())
        window.statusBar()->showMessage(QObject::tr("Ignored the saved scenario: %1").arg(settingsError), 10000);
    if (settings.presentationMode())
        window.setPresentationMode(true);
    window.show();
    return app.exec();
}

} // namespace headroom
