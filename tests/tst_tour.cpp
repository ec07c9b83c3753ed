// The guided tour walks the explainer's lessons on the live charts. Each step must show what its text claims
// (the simulation decides whether it fits), quote the numbers on screen, frame an existing chart, be one undo step,
// and ending the tour must return to where the user was.

#include "appsettings.h"
#include "catalogloader.h"
#include "formatting.h"
#include "gpucomparisonview.h"
#include "language.h"
#include "mainwindow.h"
#include "scenariohistory.h"
#include "simulationcontroller.h"
#include "tour.h"

#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace headroom;
using namespace headroom::gui;

class TestTour : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void everyStepShowsItsLesson();
    void lessonsHoldInTheSimulation();
    void endingReturnsToTheStartAndUndoWalksBack();
    void firstLessonsFiguresAddUp();
    void keysWalkTheTour();
    void lastStepNamesItsButtons_data();
    void lastStepNamesItsButtons();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SimulationController> m_controller;
    std::unique_ptr<MainWindow> m_window;
};

void TestTour::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(QStringLiteral("settings.ini")), nullptr);
    m_controller = std::make_unique<SimulationController>(CatalogLoader::bundled());
    m_window = std::make_unique<MainWindow>(m_controller.get(), m_settings.get());
    Scenario s = defaultScenario();
    s.modelId = "gpt2";
    s.config.microBatch = 3;
    QVERIFY(m_window->applyScenario(s));
    m_window->history()->reset(m_controller->scenario());
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestTour::cleanup()
{
    m_window.reset();
    m_controller.reset();
    m_settings.reset();
    m_dir.reset();
}

void TestTour::everyStepShowsItsLesson()
{
    GuidedTour* tour = m_window->tour();
    tour->start();
    QVERIFY(tour->stepCount() >= 8);
    static const QRegularExpression placeholder(QStringLiteral("%\\d"));
    for (int i = 0; i < tour->stepCount(); ++i) {
        QCOMPARE(tour->step(), i);
        const QString text = tour->stepText();
        QVERIFY2(!tour->stepTitle().isEmpty(), qPrintable(QString::number(i)));
        QVERIFY2(!text.contains(placeholder), qPrintable(text)); // every %n filled
        // Each step quotes the result on screen: the capacity, the peak, the step time or the largest batch.
        const Estimate& e = m_controller->result().estimate;
        const bool quotes = text.contains(formatBytes(e.capacityBytes)) || text.contains(formatBytes(e.peakBytes))
            || text.contains(formatBytes(std::abs(e.headroomBytes))) || text.contains(formatSeconds(e.stepSeconds))
            || text.contains(QStringLiteral("<b>%1</b>").arg(e.maxMicroBatch))
            || text.contains(formatCount(e.parameters))
            || text.contains(formatBandwidth(e.gpu.bandwidthBytesPerSecond));
        QVERIFY2(quotes, qPrintable(QStringLiteral("step %1: %2").arg(i + 1).arg(text)));
        QWidget* framed = tour->highlighted();
        QVERIFY2(framed && framed->isVisible(), qPrintable(QString::number(i)));
        tour->next();
    }
    QVERIFY(!tour->running());
}

void TestTour::lessonsHoldInTheSimulation()
{
    GuidedTour* tour = m_window->tour();
    tour->start();
    // Steps 1 and 2: FP32 BERT-base fits at 16 and not at 32 (the explainer's "batch size hits the wall").
    QVERIFY(m_controller->result().estimate.fits);
    const double fp32States = m_controller->result().estimate.components[index(MemoryCategory::OptimizerStates)];
    // AdamW in FP32: 8 bytes of moments per parameter (Kingma & Ba; the ZeRO paper's K = 12 counts them with the
    // FP32 master copy of mixed precision).
    QCOMPARE(fp32States, 8.0 * m_controller->result().estimate.parameters);
    tour->next();
    QVERIFY(!m_controller->result().estimate.fits);
    const std::int64_t fp32Max = m_controller->result().estimate.maxMicroBatch;
    tour->next(); // mixed precision: a larger batch fits than in FP32
    QVERIFY(m_controller->result().estimate.maxMicroBatch > fp32Max);
    const double mixedStep = m_controller->result().estimate.stepSeconds;
    tour->next(); // checkpointing: fits at 32, slower than without
    QVERIFY(m_controller->result().estimate.fits);
    QVERIFY(m_controller->result().estimate.stepSeconds > mixedStep);
    tour->next(); // GPT-2 XL on one 12 GB GPU
    QVERIFY(!m_controller->result().estimate.fits);
    tour->next(); // ZeRO-3 over 4 GPUs
    QVERIFY(m_controller->result().estimate.fits);
    QCOMPARE(m_controller->scenario().config.zeroStage, 3);
    tour->next(); // an 80 GB GPU
    QVERIFY(m_controller->result().estimate.fits);
    QVERIFY(m_window->gpuComparison()->isVisible());
    tour->next(); // the roofline, at the explainer's 392 GB/s
    QVERIFY(m_controller->result().estimate.gpu.bandwidthOverridden);
    const double fast = m_controller->result().estimate.stepSeconds;
    tour->next(); // the datasheet's 336 GB/s: slower
    QVERIFY(!m_controller->result().estimate.gpu.bandwidthOverridden);
    QVERIFY(m_controller->result().estimate.stepSeconds > fast);
}

void TestTour::endingReturnsToTheStartAndUndoWalksBack()
{
    const Scenario start = m_controller->scenario();
    GuidedTour* tour = m_window->tour();
    tour->start();
    tour->next();
    tour->next();
    QVERIFY(!(m_controller->scenario() == start));
    QUndoStack* stack = m_window->history()->stack();
    const int steps = stack->count();
    QCOMPARE(steps, 3); // one per step shown
    stack->undo();
    QCOMPARE(m_controller->scenario().config.microBatch, 32); // back to step 2 (FP32, batch 32)
    QVERIFY(m_controller->scenario().config.precision == Precision::FP32);
    stack->redo();
    tour->stop();
    QVERIFY(m_controller->scenario() == start);
    QVERIFY(!tour->running());
    QVERIFY(!tour->highlighted());
}

// The first card said "Peak 10.11 GiB of 12.00 GiB: it fits, with 1.71 GiB free": the peak beside the verdict's free
// bytes, which the allocator replay counts from what the device holds (10.29 GiB). Once the replay has answered, the
// card quotes what the verdict counts, and the two figures make the capacity.
void TestTour::firstLessonsFiguresAddUp()
{
    GuidedTour* tour = m_window->tour();
    tour->start();
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->backgroundPending(), 30000);
    QCoreApplication::processEvents();
    const BackgroundResult& bg = m_controller->background();
    QVERIFY(bg.allocator.computed);
    QVERIFY(bg.verdict.fits);
    const QString text = tour->stepText();
    const double capacity = m_controller->result().estimate.capacityBytes;
    QVERIFY2(text.contains(formatBytes(bg.verdict.neededBytes)), qPrintable(text));
    QVERIFY2(text.contains(formatBytes(bg.verdict.freeBytes())), qPrintable(text));
    QVERIFY2(text.contains(formatBytes(capacity)), qPrintable(text));
    tour->stop();
}

// A presenter's clicker sends Right / Page Down and Left / Page Up; Escape ends the tour. The card took only Space
// and Enter on its focused button.
void TestTour::keysWalkTheTour()
{
    GuidedTour* tour = m_window->tour();
    tour->start();
    QTRY_VERIFY(tour->isVisible());
    tour->activateWindow();
    tour->setFocus();
    QTest::keyClick(tour, Qt::Key_Right);
    QCOMPARE(tour->step(), 1);
    QTest::keyClick(tour, Qt::Key_PageDown);
    QCOMPARE(tour->step(), 2);
    QTest::keyClick(tour, Qt::Key_Left);
    QCOMPARE(tour->step(), 1);
    QTest::keyClick(tour, Qt::Key_Escape);
    QVERIFY(!tour->running());
}

// The last card said "<i>End</i> returns to where you were" under the buttons "Finish" and "End Tour": a button
// the card names must be one it shows.
void TestTour::lastStepNamesItsButtons_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestTour::lastStepNamesItsButtons()
{
    QFETCH(QString, language);
    Language lang;
    QVERIFY(lang.apply(language));
    QCoreApplication::processEvents();
    GuidedTour* tour = m_window->tour();
    tour->start();
    while (tour->step() + 1 < tour->stepCount())
        tour->next();
    static const QRegularExpression mnemonic(QStringLiteral("\\(&.\\)"));
    QStringList labels;
    for (const QPushButton* b : tour->findChildren<QPushButton*>())
        if (b->isVisible())
            labels << b->text().remove(mnemonic).remove(QLatin1Char('&')); // "完成(&F)" names 完成
    static const QRegularExpression named(QStringLiteral("<i>([^<›]+)</i>"));
    const QString text = tour->stepText();
    int names = 0;
    for (auto it = named.globalMatch(text); it.hasNext(); ++names) {
        const QString name = it.next().captured(1);
        QVERIFY2(labels.contains(name), qPrintable(name + QStringLiteral(" is not one of ") + labels.join(u", ")));
    }
    QVERIFY2(names > 0, qPrintable(text));
    tour->stop();
    QVERIFY(lang.apply(QStringLiteral("en")));
}

QTEST_MAIN(TestTour)
#include "tst_tour.moc"
