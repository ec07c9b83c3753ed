// View > Colours: the window switches between the system's colours, light and dark while it runs, the charts
// restyle with it, and the choice is kept in the settings (issue 8: "View gets a palette switch").

#include "appsettings.h"
#include "catalogloader.h"
#include "colourscheme.h"
#include "mainwindow.h"
#include "memorychartview.h"
#include "rooflineview.h"
#include "simulationcontroller.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QMenu>
#include <QTemporaryDir>
#include <QTest>

using namespace headroom;
using namespace headroom::gui;

class TestColours : public QObject {
    Q_OBJECT

private slots:
    void viewColoursSwitchesTheWindowAndIsKept();
    void badSchemesAreRefused();
};

namespace {

QAction* schemeAction(MainWindow& w, const QString& scheme)
{
    auto* menu = w.findChild<QMenu*>(QStringLiteral("coloursMenu"));
    if (!menu)
        return nullptr;
    for (QAction* a : menu->actions()) {
        if (a->data().toString() == scheme)
            return a;
    }
    return nullptr;
}

double chartLightness(const ChartPanel* panel) { return panel->chart()->backgroundBrush().color().lightnessF(); }

} // namespace

void TestColours::viewColoursSwitchesTheWindowAndIsKept()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("settings.ini"));
    const QPalette start = QApplication::palette();
    {
        AppSettings settings(ini, nullptr);
        ColourScheme colours;
        colours.follow(settings);
        SimulationController controller(CatalogLoader::bundled());
        MainWindow window(&controller, &settings);
        QVERIFY(window.applyScenario(defaultScenario()));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const QString& scheme : ColourScheme::available())
            QVERIFY2(schemeAction(window, scheme), qPrintable(scheme));
        QCOMPARE(schemeAction(window, QString())->isChecked(), true);

        schemeAction(window, QStringLiteral("dark"))->trigger();
        QCOMPARE(colours.current(), QStringLiteral("dark"));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() < 0.3);
        QTRY_VERIFY(chartLightness(window.memoryChart()) < 0.3);
        QVERIFY(chartLightness(window.rooflineChart()) < 0.3);
        QCOMPARE(settings.colourScheme(), QStringLiteral("dark"));

        schemeAction(window, QStringLiteral("light"))->trigger();
        QTRY_VERIFY(chartLightness(window.memoryChart()) > 0.7);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightnessF() > 0.7);

        schemeAction(window, QString())->trigger(); // back to what the application started with
        QCOMPARE(QApplication::palette().color(QPalette::Window), start.color(QPalette::Window));
        QCOMPARE(QApplication::palette().color(QPalette::Base), start.color(QPalette::Base));
        schemeAction(window, QStringLiteral("dark"))->trigger();
    }
    // The next start reads the choice back, and the menu shows it.
    AppSettings again(ini, nullptr);
    QCOMPARE(again.colourScheme(), QStringLiteral("dark"));
    SimulationController controller(CatalogLoader::bundled());
    MainWindow window(&controller, &again);
    QVERIFY(schemeAction(window, QStringLiteral("dark"))->isChecked());
    ColourScheme().apply(QString());
}

void TestColours::badSchemesAreRefused()
{
    QVERIFY(ColourScheme::isValid(QString()));
    QVERIFY(ColourScheme::isValid(QStringLiteral("dark")));
    QVERIFY(!ColourScheme::isValid(QStringLiteral("purple")));
    QTemporaryDir dir;
    AppSettings settings(dir.filePath(QStringLiteral("settings.ini")), nullptr);
    settings.raw().setValue(QStringLiteral("view/colours"), QStringLiteral("purple")); // a hand-edited file
    QCOMPARE(settings.colourScheme(), QString());
}

QTEST_MAIN(TestColours)
#include "tst_colours.moc"
