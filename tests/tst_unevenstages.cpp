// Uneven pipeline stages (--pp-first-layers, --pp-last-layers): Megatron-LM's get_num_layers_to_build
// (megatron/core/transformer/transformer_block.py, --decoder-first/last-pipeline-num-layers) gives the first and
// last stages the blocks asked for and splits the rest equally over the stages between; interleaving is refused.
// Each stage's weights are exact counts of Llama-2-7B's tensors; the slowest stage sets the pipeline's pace.

#include "pipeline.h"
#include "simulate.h"
#include "testsupport.h"

using namespace headroom;

class TestUnevenStages : public QObject {
    Q_OBJECT

private slots:
    void megatronsSplit();
    void weightsPerStageAreExactCounts();
    void slowestStageSetsThePace();
    void refusedLayouts_data();
    void refusedLayouts();
};

namespace {

TrainingConfig fourStages(int first, int last)
{
    TrainingConfig c;
    c.pipelineParallel = 4;
    c.gradientAccumulation = 8;
    c.firstStageLayers = first;
    c.lastStageLayers = last;
    c.microBatch = 1;
    c.sequenceLength = 2048;
    return c;
}

auto run(const TrainingConfig& c)
{
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "llama-2-7b";
    s.config = c;
    return simulate(test::catalog(), s, SimulateOptions::interactive());
}

} // namespace

void TestUnevenStages::megatronsSplit()
{
    // 32 blocks on 4 stages. First and last 7: the two between take (32 - 14) / 2 = 9 each.
    const std::vector<LayerRange> both[] = { { { 0, 7 } }, { { 7, 16 } }, { { 16, 25 } }, { { 25, 32 } } };
    for (int s = 0; s < 4; ++s)
        QCOMPARE(stageLayers(32, fourStages(7, 7), s), both[s]);
    // Only the first given (5): the other three take (32 - 5) / 3 = 9 each, the last stage included.
    const std::vector<LayerRange> first[] = { { { 0, 5 } }, { { 5, 14 } }, { { 14, 23 } }, { { 23, 32 } } };
    for (int s = 0; s < 4; ++s)
        QCOMPARE(stageLayers(32, fourStages(5, 0), s), first[s]);
    // Only the last (2): the first three take 10 each.
    QCOMPARE(stageLayers(32, fourStages(0, 2), 0), (std::vector<LayerRange> { { 0, 10 } }));
    QCOMPARE(stageLayers(32, fourStages(0, 2), 3), (std::vector<LayerRange> { { 30, 32 } }));
    // Two stages, both given: they add up to the blocks.
    TrainingConfig two = fourStages(12, 20);
    two.pipelineParallel = 2;
    QCOMPARE(stageLayers(32, two, 1), (std::vector<LayerRange> { { 12, 32 } }));
    QVERIFY(unevenStagesProblem(32, two).empty());
    QVERIFY(unevenStagesProblem(32, fourStages(7, 7)).empty());
}

void TestUnevenStages::weightsPerStageAreExactCounts()
{
    // Llama-2-7B's tensors (HF LlamaForCausalLM, untied): a block holds q, k, v, o (4 x 4096^2), gate, up and down
    // (3 x 4096 x 11008) and two RMSNorm weights (2 x 4096): 202,383,360; the embedding and the head 32000 x 4096
    // each, the final norm 4096. With 7 blocks on the first and last stages:
    const double block = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2.0 * 4096;
    QCOMPARE(block, 202383360.0);
    const double vocab = 32000.0 * 4096;
    const auto r = run(fourStages(7, 7));
    QVERIFY(r);
    QCOMPARE(int(r->ranks.size()), 4);
    QCOMPARE(r->ranks[0].parametersPerGpu, vocab + 7 * block);
    QCOMPARE(r->ranks[1].parametersPerGpu, 9 * block);
    QCOMPARE(r->ranks[2].parametersPerGpu, 9 * block);
    QCOMPARE(r->ranks[3].parametersPerGpu, 7 * block + 4096 + vocab);
    QCOMPARE(r->estimate.parameters, 6738415616.0); // the model's own count, as with even stages
}

void TestUnevenStages::slowestStageSetsThePace()
{
    // The stages between hold 9 blocks instead of 8: each of their micro-batches takes 9/8 of the even split's
    // (less a little: the point-to-point sends per micro-batch stay), and the step follows the slowest stage.
    const auto even = run(fourStages(0, 0));
    const auto uneven = run(fourStages(7, 7));
    QVERIFY(even && uneven);
    const double ratio = uneven->ranks[1].microBatchSeconds / even->ranks[1].microBatchSeconds;
    QVERIFY2(ratio > 1.10 && ratio <= 1.125, qPrintable(QString::number(ratio)));
    double slowest = 0;
    for (const RankSummary& rank : uneven->ranks)
        slowest = std::max(slowest, rank.microBatchSeconds);
    QCOMPARE(slowest, uneven->ranks[1].microBatchSeconds);
    QCOMPARE(uneven->estimate.pipelineBubbleSeconds, 3 * slowest); // (p - 1) micro-batch times of the slowest
    QVERIFY(uneven->estimate.stepSeconds > even->estimate.stepSeconds);
    // The first stage, with 7 blocks in place of 8 and 4 micro-batches in flight, holds less.
    QVERIFY(uneven->ranks[0].peakBytes < even->ranks[0].peakBytes);
}

void TestUnevenStages::refusedLayouts_data()
{
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("last");
    QTest::addColumn<int>("v");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("says");
    QTest::newRow("no pipeline") << 1 << 4 << 0 << 1 << "first_stage_layers"
                                 << "pipeline_parallel 2 or more";
    QTest::newRow("rest not divisible") << 4 << 6 << 0 << 1 << "first_stage_layers"
                                        << "leaving 26 for the other 3";
    QTest::newRow("rest too small") << 4 << 16 << 15 << 1 << "first_stage_layers"
                                    << "at least one each";
    QTest::newRow("two stages short") << 2 << 10 << 10 << 1 << "first_stage_layers"
                                      << "add up to the blocks";
    QTest::newRow("interleaved") << 2 << 0 << 8 << 2 << "last_stage_layers"
                                 << "cannot be interleaved";
    QTest::newRow("more than the model") << 2 << 40 << 0 << 1 << "first_stage_layers"
                                         << "more blocks than the model's 32";
}

void TestUnevenStages::refusedLayouts()
{
    QFETCH(int, p);
    QFETCH(int, first);
    QFETCH(int, last);
    QFETCH(int, v);
    QFETCH(QString, field);
    QFETCH(QString, says);
    TrainingConfig c = fourStages(first, last);
    c.pipelineParallel = p;
    if (v > 1) {
        c.pipelineSchedule = PipelineSchedule::Interleaved;
        c.virtualStages = v;
    }
    const auto r = run(c);
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error().field), field);
    QVERIFY2(QString::fromStdString(r.error().message).contains(says), r.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestUnevenStages)
#include "tst_unevenstages.moc"
