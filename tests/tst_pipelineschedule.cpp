// The pipeline schedule laid out in time (pipelineschedule.h), held to the closed forms of Narayanan et al. 2021
// (arXiv 2104.04473) sec. 2.2: with equal stages a step of m micro-batches takes (m + p - 1) (t_f + t_b) under GPipe
// and 1F1B, and m (t_f + t_b) + (p - 1) (t_f + t_b) / v interleaved; and to the micro-batches in flight that
// Korthikanti et al. 2022 sec. 4.2.3 and Megatron-LM's schedules.py give (pipeline.h inFlightMicroBatches).

#include "pipeline.h"
#include "pipelineschedule.h"
#include "simulate.h"
#include "testsupport.h"

using namespace headroom;

class TestPipelineSchedule : public QObject {
    Q_OBJECT

private slots:
    void equalStagesTakeTheClosedForm_data();
    void equalStagesTakeTheClosedForm();
    void inFlightMatchesTheSchedule_data();
    void inFlightMatchesTheSchedule();
    void oneFOneBOrder();
    void slowestStageSetsThePace();
    void simulateLaysItOut();
};

namespace {

TrainingConfig pipeline(int p, int m, PipelineSchedule schedule, int v = 1)
{
    return test::pipelineConfig(p, m, schedule, v);
}

// The most micro-batches (in units of whole-stage micro-batches: chunks / v) stage s holds at once.
double peakInFlight(const PipelineTimeline& t, int stage, int v)
{
    std::vector<std::pair<double, int>> events;
    for (const PipelineSpan& s : t.spans) {
        if (s.stage != stage)
            continue;
        // A forward's activations live from its start until its backward ends.
        events.emplace_back(s.forward ? s.start : s.end, s.forward ? 1 : -1);
    }
    std::sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second < b.second; // frees before allocations at a tie
    });
    int now = 0, most = 0;
    for (const auto& [time, delta] : events)
        most = std::max(most, now += delta);
    return double(most) / v;
}

} // namespace

void TestPipelineSchedule::equalStagesTakeTheClosedForm_data()
{
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("v");
    for (int p : { 2, 4, 8 }) {
        for (int m : { 1, 3, 8, 16 }) {
            QTest::addRow("gpipe p%d m%d", p, m) << int(PipelineSchedule::GPipe) << p << m << 1;
            QTest::addRow("1f1b p%d m%d", p, m) << int(PipelineSchedule::OneFOneB) << p << m << 1;
        }
        for (int v : { 2, 4 })
            for (int m : { p, 2 * p, 4 * p })
                QTest::addRow("interleaved p%d v%d m%d", p, v, m) << int(PipelineSchedule::Interleaved) << p << m << v;
    }
}

void TestPipelineSchedule::equalStagesTakeTheClosedForm()
{
    QFETCH(int, schedule);
    QFETCH(int, p);
    QFETCH(int, m);
    QFETCH(int, v);
    const double tf = 1.0, tb = 2.0; // backward twice the forward, as for a GEMM's two gradients
    const auto c = pipeline(p, m, PipelineSchedule(schedule), v);
    const PipelineTimeline t = pipelineTimeline(c, std::vector<double>(std::size_t(p), tf),
                                                std::vector<double>(std::size_t(p), tb));
    QVERIFY(t.computed);
    QCOMPARE(int(t.spans.size()), 2 * p * m * v);
    const double ideal = m * (tf + tb);
    const double bubble = (p - 1) * (tf + tb) / v;
    QCOMPARE(t.seconds, ideal + bubble);
    QCOMPARE(bubble / ideal, bubbleFraction(c));
}

void TestPipelineSchedule::inFlightMatchesTheSchedule_data()
{
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("v");
    QTest::newRow("1f1b p4 m8") << int(PipelineSchedule::OneFOneB) << 4 << 8 << 1;
    QTest::newRow("1f1b p4 m2") << int(PipelineSchedule::OneFOneB) << 4 << 2 << 1;
    QTest::newRow("gpipe p4 m6") << int(PipelineSchedule::GPipe) << 4 << 6 << 1;
    QTest::newRow("interleaved p4 v2 m8") << int(PipelineSchedule::Interleaved) << 4 << 8 << 2;
    QTest::newRow("interleaved p4 v2 m4") << int(PipelineSchedule::Interleaved) << 4 << 4 << 2;
    QTest::newRow("interleaved p8 v3 m16") << int(PipelineSchedule::Interleaved) << 8 << 16 << 3;
}

void TestPipelineSchedule::inFlightMatchesTheSchedule()
{
    QFETCH(int, schedule);
    QFETCH(int, p);
    QFETCH(int, m);
    QFETCH(int, v);
    const auto c = pipeline(p, m, PipelineSchedule(schedule), v);
    const PipelineTimeline t = pipelineTimeline(c, std::vector<double>(std::size_t(p), 1.0),
                                                std::vector<double>(std::size_t(p), 2.0));
    QVERIFY(t.computed);
    for (int s = 0; s < p; ++s)
        QCOMPARE(peakInFlight(t, s, v), inFlightMicroBatches(c, s));
}

void TestPipelineSchedule::oneFOneBOrder()
{
    // Stage 1 of 4 with 8 micro-batches: 2 warm-up forwards, then forward 2, backward 0, forward 3, backward 1, ...
    const auto c = pipeline(4, 8, PipelineSchedule::OneFOneB);
    const PipelineTimeline t = pipelineTimeline(c, { 1, 1, 1, 1 }, { 2, 2, 2, 2 });
    std::vector<std::pair<bool, int>> order;
    for (const PipelineSpan& s : t.spans)
        if (s.stage == 1 && order.size() < 6)
            order.emplace_back(s.forward, s.microBatch);
    const std::vector<std::pair<bool, int>> expected { { true, 0 },  { true, 1 }, { true, 2 },
                                                       { false, 0 }, { true, 3 }, { false, 1 } };
    QCOMPARE(order, expected);
    // The last stage runs each backward right after its forward.
    for (const PipelineSpan& s : t.spans)
        if (s.stage == 3 && !s.forward)
            QVERIFY(std::any_of(t.spans.begin(), t.spans.end(), [&](const PipelineSpan& f) {
                return f.stage == 3 && f.forward && f.microBatch == s.microBatch && f.end == s.start;
            }));
}

void TestPipelineSchedule::slowestStageSetsThePace()
{
    // One stage twice as slow: in steady state the pipeline runs at its pace, m (t_f + t_b) of it, plus the others'
    // fill and drain.
    const auto c = pipeline(4, 16, PipelineSchedule::OneFOneB);
    const PipelineTimeline t = pipelineTimeline(c, { 1, 2, 1, 1 }, { 2, 4, 2, 2 });
    QVERIFY(t.computed);
    QVERIFY(t.seconds >= 16 * 6.0);
    QVERIFY(t.seconds <= 16 * 6.0 + 3 * 6.0);
}

void TestPipelineSchedule::simulateLaysItOut()
{
    // simulate() gives the window the timeline of the job's stages, each at its own forward and backward time: the
    // slots of each stage add up to m of its micro-batches, and the span is at least the closed form's m t_slowest.
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "llama-2-7b";
    s.config = pipeline(4, 8, PipelineSchedule::OneFOneB);
    s.config.microBatch = 1;
    s.config.sequenceLength = 2048;
    const auto r = simulate(test::catalog(), s, SimulateOptions::interactive());
    QVERIFY(r);
    QVERIFY(r->pipeline.computed);
    double slowest = 0;
    for (const RankSummary& rank : r->ranks) {
        double busy = 0;
        for (const PipelineSpan& slot : r->pipeline.spans)
            busy += slot.stage == rank.stage ? slot.end - slot.start : 0.0;
        QVERIFY2(std::abs(busy / (8 * rank.microBatchSeconds) - 1.0) < 1e-9, qPrintable(QString::number(busy)));
        QVERIFY(rank.forwardSeconds > 0.2 * rank.microBatchSeconds
                && rank.forwardSeconds < 0.5 * rank.microBatchSeconds);
        slowest = std::max(slowest, rank.microBatchSeconds);
    }
    QVERIFY(r->pipeline.seconds >= 8 * slowest);
    QVERIFY(r->pipeline.seconds <= r->estimate.stepSeconds);
    // One stage: no pipeline to lay out.
    s.config = TrainingConfig {};
    const auto one = simulate(test::catalog(), s, SimulateOptions::interactive());
    QVERIFY(one && !one->pipeline.computed);
}

QTEST_GUILESS_MAIN(TestPipelineSchedule)
#include "tst_pipelineschedule.moc"
