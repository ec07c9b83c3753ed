// The protocol the window's tool views share (LazyJob: the GPU comparison, the scaling curves, each tab of the Plan
// view): hidden work waits until it is started, a drag folds into one run, a change during a run is computed next
// and its result still shown, and refresh() is up to date before it returns.

#include "lazyjob.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace headroom::gui;

namespace {

// A view's state (`value`) and what its screen shows (`shown`, each result in turn), with work that waits at a gate
// while `gated` holds, so that a test can change the state while it runs.
struct FakeView {
    int value = 0;
    std::vector<int> shown;
    int jobs = 0; // work handed out
    bool visible = true;
    std::shared_ptr<std::atomic<bool>> gate = std::make_shared<std::atomic<bool>>(true);

    LazyJob::Work job()
    {
        ++jobs;
        return [copy = value, gate = gate, this]() -> LazyJob::Show {
            for (int i = 0; i < 5000 && !gate->load(); ++i) // at most 5 s: a broken test fails, it does not hang
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return [this, copy] { shown.push_back(copy); };
        };
    }
};

std::unique_ptr<LazyJob> jobOf(FakeView& v, int debounceMs)
{
    return std::make_unique<LazyJob>(
        debounceMs, [&v] { return v.job(); }, [&v] { return v.visible; }, nullptr);
}

} // namespace

class TestLazyJob : public QObject {
    Q_OBJECT

private slots:
    void hiddenWorkWaitsUntilStarted();
    void aDragFoldsIntoOneRun();
    void aChangeDuringARunIsComputedNext();
    void refreshIsUpToDateWhenItReturns();
};

void TestLazyJob::hiddenWorkWaitsUntilStarted()
{
    FakeView v;
    v.visible = false;
    auto job = jobOf(v, 20);
    QVERIFY(!job->busy());
    v.value = 1;
    job->markStale();
    QTest::qWait(100);
    QCOMPARE(v.jobs, 0); // nothing computed for a view no one sees
    QVERIFY(job->busy());
    v.visible = true; // shown: started at once
    job->start();
    QTRY_COMPARE(v.shown, std::vector<int> { 1 });
    QVERIFY(!job->busy());
    QCOMPARE(v.jobs, 1);
}

void TestLazyJob::aDragFoldsIntoOneRun()
{
    FakeView v;
    auto job = jobOf(v, 1000);              // a pause far longer than the drag, even on a loaded machine
    for (int tick = 1; tick <= 5; ++tick) { // ticks closer than the pause
        v.value = tick;
        job->markStale();
        QTest::qWait(10);
    }
    QTRY_COMPARE(v.shown, std::vector<int> { 5 });
    QCOMPARE(v.jobs, 1);
}

void TestLazyJob::aChangeDuringARunIsComputedNext()
{
    FakeView v;
    auto job = jobOf(v, 20);
    v.gate->store(false);
    v.value = 1;
    job->markStale();
    job->start();
    QVERIFY(job->running());
    v.value = 2; // while 1 computes
    job->markStale();
    job->start(); // the running work's end starts it
    QCOMPARE(v.jobs, 1);
    v.gate->store(true);
    QTRY_COMPARE(v.shown, (std::vector<int> { 1, 2 })); // the older result shown, then the newer computed
    QVERIFY(!job->busy());
    QCOMPARE(v.jobs, 2);
}

void TestLazyJob::refreshIsUpToDateWhenItReturns()
{
    FakeView v;
    v.visible = false;
    auto job = jobOf(v, 20);
    v.value = 7;
    job->markStale();
    job->refresh(); // no event loop: computed on this thread
    QCOMPARE(v.shown, std::vector<int> { 7 });
    QVERIFY(!job->busy());

    // With work running: its result first, then the newer state, both before refresh() returns.
    v.gate->store(false);
    v.value = 8;
    job->markStale();
    job->start();
    v.value = 9;
    job->markStale();
    std::thread opener([gate = v.gate] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        gate->store(true);
    });
    job->refresh();
    opener.join();
    QCOMPARE(v.shown, (std::vector<int> { 7, 8, 9 }));
    QVERIFY(!job->busy());
    QTest::qWait(50); // the watcher's finished signal comes late and shows nothing twice
    QCOMPARE(v.shown, (std::vector<int> { 7, 8, 9 }));
}

QTEST_MAIN(TestLazyJob)
#include "tst_lazyjob.moc"
