// simulate(), the core's one entry point: a cached schedule gives exactly the result a fresh simulation gives, for a
// change of every field of TrainingConfig; the cache rebuilds only when a field that shapes the schedule changes;
// the phase peaks and explanations it returns agree with its own timeline; bad scenarios are refused by name.
// applyEdit (scenarioedit.h), the rules of one edit in the window: the overhead shown is stored without the cuBLAS
// workspace difference, a new model or GPU resets what belongs to the old one, a wrong value is refused.

#include "explain.h"
#include "links.h"
#include "report.h"
#include "scenarioedit.h"
#include "simulate.h"
#include "simulatestages.h"
#include "testsupport.h"
#include "units.h"

#include <functional>

using namespace headroom;

class TestSimulate : public QObject {
    Q_OBJECT

private slots:
    void cachedEqualsFresh_data();
    void cachedEqualsFresh();
    void cacheRebuildsOnlyForStructure();
    void inFlightMicroBatchesReuseTheLowering_data();
    void inFlightMicroBatchesReuseTheLowering();
    void everyStageIsItsOwnLowering_data();
    void everyStageIsItsOwnLowering();
    void phasePeaksAreTheTimelineMaxima_data();
    void phasePeaksAreTheTimelineMaxima();
    void searchesMatchTheFullSimulation();
    void explanationsSumToTheCategory();
    void refusesBadScenarios();
    void smallerMicroBatchKeepsTheGlobalBatch();
    void overheadEditIsNotCountedTwice();
    void newModelKeepsOnlyWhatItAccepts();
    void newGpuDropsTheOverrides();
    void badEditsAreRefused();
};

namespace {

using Change = std::function<void(TrainingConfig&)>;

// Eager attention, no checkpointing, ZeRO-0 on 4 ranks: every change below moves away from it.
Scenario baseScenario()
{
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "gpt2";
    s.config.microBatch = 4;
    s.config.sequenceLength = 256;
    s.config.precision = Precision::MixedBF16;
    s.config.attention = AttentionImpl::Eager;
    s.config.dataParallel = 4;
    return s;
}

// Everything a view could show: the whole JSON (with the timeline and every operator), the sweep and the worker's
// figures.
std::string fingerprint(const SimulationResult& r)
{
    ReportOptions o;
    o.timeline = true;
    std::string s = resultToJson(r, o);
    for (const SweepPoint& p : r.sweep) {
        s += std::to_string(p.batch) + ":" + std::to_string(p.peakBytes) + ":" + std::to_string(p.peakStep) + ";";
        for (double v : p.atPeak)
            s += std::to_string(v) + ",";
    }
    for (const PhasePeak& p : r.estimate.phasePeaks)
        s += std::to_string(p.totalBytes) + "@" + std::to_string(p.step) + ";";
    // What the window's worker adds: the caching allocator replay and the step-time range.
    const SearchResult bg = searchFits(r);
    s += std::to_string(bg.allocator.peakAllocatedBytes) + "/" + std::to_string(bg.allocator.peakReservedBytes) + "/"
        + std::to_string(bg.allocator.deviceBytes) + "/" + std::to_string(bg.timeRange.fastSeconds) + "/"
        + std::to_string(bg.timeRange.slowSeconds);
    return s;
}

SimulationResult run(const Scenario& s, SimulationCache* cache)
{
    auto r = simulate(test::catalog(), s, SimulateOptions::interactive(), cache);
    if (!r)
        qFatal("simulate failed: %s", r.error().toString().c_str());
    return std::move(*r);
}

} // namespace

// A new field of TrainingConfig changes its size: give it a row below (and, if it does not shape the schedule, a
// line in scheduleKey()), then update this size.
// computeCapability has no row: simulate() sets it from the GPU (cacheRebuildsOnlyForStructure changes the GPU).
static_assert(sizeof(TrainingConfig) == 272, "TrainingConfig changed: add a row to cachedEqualsFresh_data");

void TestSimulate::cachedEqualsFresh_data()
{
    QTest::addColumn<Change>("change");
    QTest::newRow("microBatch") << Change([](TrainingConfig& c) { c.microBatch = 9; });
    QTest::newRow("sequenceLength") << Change([](TrainingConfig& c) { c.sequenceLength = 384; });
    QTest::newRow("precision") << Change([](TrainingConfig& c) { c.precision = Precision::FP32; });
    QTest::newRow("hostSpeed") << Change([](TrainingConfig& c) { c.host.speed = 0.5; });
    QTest::newRow("execution") << Change([](TrainingConfig& c) { c.host.execution = Execution::CudaGraphs; });
    QTest::newRow("mixedStyle") << Change([](TrainingConfig& c) { c.mixedStyle = MixedPrecisionStyle::MasterWeights; });
    QTest::newRow("masterGradients") << Change([](TrainingConfig& c) {
        c.mixedStyle = MixedPrecisionStyle::MasterWeights;
        c.masterGradients = GradientStorage::Low;
    });
    QTest::newRow("zeroStage") << Change([](TrainingConfig& c) { c.zeroStage = 3; });
    QTest::newRow("dataParallel") << Change([](TrainingConfig& c) { c.dataParallel = 16; });
    QTest::newRow("tensorParallel") << Change([](TrainingConfig& c) { c.tensorParallel = 2; });
    QTest::newRow("sequenceParallel") << Change([](TrainingConfig& c) {
        c.tensorParallel = 2;
        c.sequenceParallel = true;
    });
    QTest::newRow("pipelineParallel") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 3;
        c.gradientAccumulation = 4;
    });
    QTest::newRow("virtualStages") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 2;
        c.pipelineSchedule = PipelineSchedule::Interleaved;
        c.virtualStages = 3;
        c.gradientAccumulation = 4;
    });
    QTest::newRow("firstStageLayers") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 3;
        c.firstStageLayers = 2; // gpt2's 12 blocks: 2, 5, 5
    });
    QTest::newRow("lastStageLayers") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 2;
        c.lastStageLayers = 4;
    });
    QTest::newRow("pipelineSchedule") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 2;
        c.pipelineSchedule = PipelineSchedule::GPipe;
        c.gradientAccumulation = 4;
    });
    QTest::newRow("pipelineStage") << Change([](TrainingConfig& c) {
        c.pipelineParallel = 2;
        c.pipelineStage = 1;
    });
    QTest::newRow("expertParallel") << Change([](TrainingConfig& c) {
        c.dataParallel = 4;
        c.expertParallel = 2;
    });
    QTest::newRow("contextParallel") << Change([](TrainingConfig& c) {
        c.attention = AttentionImpl::Fused; // Megatron's ring runs in fused attention
        c.contextParallel = 2;
    });
    QTest::newRow("cluster") << Change([](TrainingConfig& c) {
        c.dataParallel = 16;
        c.cluster.gpusPerNode = 8;
        c.cluster.interLink = LinkKind::Ethernet100;
    });
    QTest::newRow("offloadOptimizer") << Change([](TrainingConfig& c) { c.offloadOptimizer = true; });
    QTest::newRow("checkpointing") << Change([](TrainingConfig& c) { c.checkpointing = Checkpointing::Full; });
    QTest::newRow("attention") << Change([](TrainingConfig& c) { c.attention = AttentionImpl::Fused; });
    QTest::newRow("loop") << Change([](TrainingConfig& c) { c.loop = TrainingLoop::DropOutputs; });
    QTest::newRow("torch") << Change([](TrainingConfig& c) {
        c.attention = AttentionImpl::Fused;
        c.torch = { 1, 13 }; // no SDPA: math saves the scores
    });
    QTest::newRow("transformers") << Change([](TrainingConfig& c) {
        c.attention = AttentionImpl::Fused;
        c.transformers = kTranscribedTransformers; // no key/value cache in training
    });
    QTest::newRow("optimizer") << Change([](TrainingConfig& c) { c.optimizer = OptimizerKind::AdamW8bit; });
    QTest::newRow("adamImpl") << Change([](TrainingConfig& c) { c.adamImpl = AdamImpl::Fused; });
    QTest::newRow("gradientAccumulation") << Change([](TrainingConfig& c) { c.gradientAccumulation = 4; });
    QTest::newRow("overheadBytes") << Change([](TrainingConfig& c) { c.overheadBytes = 3.0e9; });
    QTest::newRow("allocatorReserveFraction") << Change([](TrainingConfig& c) { c.allocatorReserveFraction = 0.1; });
    QTest::newRow("channelsLast") << Change([](TrainingConfig& c) { c.channelsLast = true; });
    QTest::newRow("ncclChannels") << Change([](TrainingConfig& c) { c.ncclChannels = 4; });
    // Fits in the padding after allocatorReserveFraction: the size check above did not notice it.
    QTest::newRow("expandableSegments") << Change([](TrainingConfig& c) { c.expandableSegments = true; });
    QTest::newRow("cublasWorkspaceBytes") << Change([](TrainingConfig& c) { c.cublasWorkspaceBytes = 0.0; });
    QTest::newRow("cudnnWorkspaceBytes") << Change(
        [](TrainingConfig& c) { c.cudnnWorkspaceBytes = 64.0 * 1024 * 1024; });
    // CPU kernels save different helper dtypes (dropout noise, LayerNorm statistics): the latent stale cache of the
    // old GUI-side key, which left this field out.
    QTest::newRow("kernels") << Change([](TrainingConfig& c) { c.kernels = KernelBackend::Cpu; });
    QTest::newRow("finetune.method") << Change([](TrainingConfig& c) { c.finetune.method = FinetuneMethod::LoRA; });
    QTest::newRow("finetune.loraRank") << Change([](TrainingConfig& c) {
        c.finetune.method = FinetuneMethod::LoRA;
        c.finetune.loraRank = 64;
    });
    QTest::newRow("finetune.loraAlpha") << Change([](TrainingConfig& c) {
        c.finetune.method = FinetuneMethod::LoRA;
        c.finetune.loraAlpha = 32;
    });
    QTest::newRow("finetune.loraDropout") << Change([](TrainingConfig& c) {
        c.finetune.method = FinetuneMethod::LoRA;
        c.finetune.loraDropout = 0.1;
    });
    QTest::newRow("finetune.loraTargets") << Change([](TrainingConfig& c) {
        c.finetune.method = FinetuneMethod::LoRA;
        c.finetune.loraTargets = { "all-linear" };
    });
    QTest::newRow("task") << Change([](TrainingConfig& c) { c.task = Task::SequenceClassification; });
    QTest::newRow("numLabels") << Change([](TrainingConfig& c) {
        c.task = Task::TokenClassification;
        c.numLabels = 9;
    });
    QTest::newRow("finetune.frozenLayers") << Change([](TrainingConfig& c) {
        c.finetune.method = FinetuneMethod::Freeze;
        c.finetune.frozenLayers = 6;
    });
}

void TestSimulate::cachedEqualsFresh()
{
    QFETCH(Change, change);
    Scenario base = baseScenario();
    Scenario changed = base;
    change(changed.config);
    if (changed.config.expertParallel > 1) // expert parallelism needs a model with experts
        base.modelId = changed.modelId = "mixtral-8x7b";
    // only convolutions have a memory format and a cuDNN workspace
    if (changed.config.channelsLast || changed.config.cudnnWorkspaceBytes > 0)
        base.modelId = changed.modelId = "resnet50";
    QVERIFY(!(changed.config == base.config)); // the row really changes the field

    SimulationCache cache;
    const std::string before = fingerprint(run(base, &cache));
    const std::string cached = fingerprint(run(changed, &cache));
    const std::string fresh = fingerprint(run(changed, nullptr));
    QCOMPARE(cached, fresh);
    QVERIFY(cached != before); // the change is visible in the result, so the comparison means something
}

void TestSimulate::cacheRebuildsOnlyForStructure()
{
    SimulationCache cache;
    Scenario s = baseScenario();
    run(s, &cache);
    QCOMPARE(cache.lowerings(), std::uint64_t(1));
    // The micro-batch, the overheads and the GPU are applied on the walk: no new schedule.
    s.config.microBatch = 32;
    s.config.overheadBytes = 1.0e9;
    s.config.allocatorReserveFraction = 0.05;
    s.gpuId = "rtx-3090";
    run(s, &cache);
    QCOMPARE(cache.lowerings(), std::uint64_t(1));
    s.config.kernels = KernelBackend::Cpu;
    run(s, &cache);
    QCOMPARE(cache.lowerings(), std::uint64_t(2));
    s.modelId = "bert-base";
    run(s, &cache);
    QCOMPARE(cache.lowerings(), std::uint64_t(3));
    cache.clear();
    run(s, &cache);
    QCOMPARE(cache.lowerings(), std::uint64_t(4));
}

void TestSimulate::inFlightMicroBatchesReuseTheLowering_data()
{
    QTest::addColumn<int>("schedule");
    QTest::addColumn<int>("virtualStages");
    QTest::newRow("1F1B") << int(PipelineSchedule::OneFOneB) << 1;
    QTest::newRow("GPipe") << int(PipelineSchedule::GPipe) << 1;
    QTest::newRow("interleaved") << int(PipelineSchedule::Interleaved) << 3;
}

// The micro-batches per step reach a pipeline stage's lowering only through the micro-batches it holds in flight,
// one block of the schedule: the cache resizes that block (retargetInFlight) instead of lowering again. Every result
// equals a fresh simulation's, stage by stage, while the micro-batches a stage holds rise and fall (0, 1 or more
// others; GPT-2's 12 blocks on 4 stages, the interleaved schedule 3 chunks of 1 block each).
void TestSimulate::inFlightMicroBatchesReuseTheLowering()
{
    QFETCH(int, schedule);
    QFETCH(int, virtualStages);
    Scenario s = baseScenario();
    s.config.pipelineParallel = 4;
    s.config.pipelineSchedule = PipelineSchedule(schedule);
    s.config.virtualStages = virtualStages;
    SimulationCache cache;
    // One lowering for every m above 1, a second for m = 1 (its gradients need not outlive the step), a third back.
    std::uint64_t lowerings = 0;
    for (const int m : { 8, 3, 2, 4, 12, 1, 2, 8 }) {
        if (s.config.pipelineSchedule == PipelineSchedule::Interleaved && m % 4 != 0)
            continue; // Megatron's interleaving needs p to divide the micro-batches
        const bool accumulationChanges = lowerings == 0 || (m == 1) != (s.config.gradientAccumulation == 1);
        lowerings += accumulationChanges ? 1 : 0;
        s.config.gradientAccumulation = m;
        for (int stage = 0; stage < 4; ++stage) {
            s.config.pipelineStage = stage;
            const std::string cached = fingerprint(run(s, &cache));
            QCOMPARE(cached, fingerprint(run(s, nullptr)));
        }
        QCOMPARE(cache.lowerings(), lowerings);
    }
}

void TestSimulate::everyStageIsItsOwnLowering_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("checkpointing");
    QTest::addColumn<Change>("change");
    const auto stages = [](int p, PipelineSchedule schedule, int v, int first, int last) {
        return Change([=](TrainingConfig& c) {
            c.pipelineParallel = p;
            c.pipelineSchedule = schedule;
            c.virtualStages = v;
            c.gradientAccumulation = 2 * p; // Megatron's interleaving needs p to divide it
            c.firstStageLayers = first;
            c.lastStageLayers = last;
        });
    };
    const auto oneF = PipelineSchedule::OneFOneB;
    QTest::newRow("gpt2 6 stages of 2 blocks")
        << QStringLiteral("gpt2") << int(Checkpointing::None) << stages(6, oneF, 1, 0, 0);
    QTest::newRow("gpt2 interleaved 3 x 2 chunks")
        << QStringLiteral("gpt2") << int(Checkpointing::Selective) << stages(3, PipelineSchedule::Interleaved, 2, 0, 0);
    QTest::newRow("gpt2 GPipe") << QStringLiteral("gpt2") << int(Checkpointing::None)
                                << stages(4, PipelineSchedule::GPipe, 1, 0, 0);
    QTest::newRow("llama 7B 4 stages of 8, repeated blocks")
        << QStringLiteral("llama-2-7b") << int(Checkpointing::Full) << stages(4, oneF, 1, 0, 0);
    QTest::newRow("llama 7B uneven 5 | 11 | 11 | 5")
        << QStringLiteral("llama-2-7b") << int(Checkpointing::None) << stages(4, oneF, 1, 5, 5);
    QTest::newRow("llama 7B ZeRO-3, t 2 with SP, dp 2")
        << QStringLiteral("llama-2-7b") << int(Checkpointing::Full) << Change([=](TrainingConfig& c) {
               stages(8, oneF, 1, 0, 0)(c);
               c.zeroStage = 3;
               c.tensorParallel = 2;
               c.sequenceParallel = true;
               c.dataParallel = 2;
           });
    QTest::newRow("mixtral 8x7B, ep 2") << QStringLiteral("mixtral-8x7b") << int(Checkpointing::Selective)
                                        << Change([=](TrainingConfig& c) {
                                               stages(4, oneF, 1, 0, 0)(c);
                                               c.dataParallel = 2;
                                               c.expertParallel = 2;
                                           });
    // Freeze trains blocks 14..31: of the stages between, stage 1 (blocks 4..11) is frozen, stage 2 (12..19) holds the
    // change and stage 3 (20..27) trains, each built unlike the one before.
    QTest::newRow("llama 7B frozen to block 14")
        << QStringLiteral("llama-2-7b") << int(Checkpointing::None) << Change([=](TrainingConfig& c) {
               stages(5, oneF, 1, 4, 4)(c);
               c.finetune.method = FinetuneMethod::Freeze;
               c.finetune.frozenLayers = 14;
           });
}

// simulate() lowers a pipeline stage that is built like the one before it (the stages between the first and the
// last) by moving that one's step to its own blocks, and times it as that one. Each stage's memory timeline, block by
// block, its peak (bytes, step, block) and its summary (peak, fit, micro-batch time) must be what that stage alone
// gives (estimate(), which builds, lowers and walks its own graph).
void TestSimulate::everyStageIsItsOwnLowering()
{
    QFETCH(QString, model);
    QFETCH(int, checkpointing);
    QFETCH(Change, change);
    Scenario s = baseScenario();
    s.modelId = model.toStdString();
    s.config.attention = AttentionImpl::Fused;
    s.config.dataParallel = 1;
    s.config.microBatch = 1;
    s.config.checkpointing = Checkpointing(checkpointing);
    change(s.config);
    const ModelSpec& m = test::preset(s.modelId.c_str());
    const GpuSpec& g = test::gpu(s.gpuId.c_str());
    for (int stage = 0; stage < s.config.pipelineParallel; ++stage) {
        s.config.pipelineStage = stage;
        SimulateOptions o = SimulateOptions::interactive();
        o.stage = stage; // else the result shows the most loaded stage
        auto r = simulate(test::catalog(), s, o);
        QVERIFY(r);
        const Estimate& shared = r->estimate;
        QCOMPARE(shared.config.pipelineStage, stage);
        const Estimate alone = estimate(m, g, s.config, {}, test::fastOptionsWithTimeline());
        QCOMPARE(shared.peakBytes, alone.peakBytes);
        QCOMPARE(shared.peakStep, alone.peakStep);
        QCOMPARE(shared.peakLayer, alone.peakLayer);
        QCOMPARE(timelineSize(shared), timelineSize(alone));
        for (std::int64_t i = 0; i < timelineSize(alone); ++i) {
            const TimelineStep a = timelineStep(alone, i), b = timelineStep(shared, i);
            QCOMPARE(b.layer, a.layer);
            QVERIFY(b.step->label == a.step->label);
            QVERIFY2(b.bytes == a.bytes, qPrintable(QStringLiteral("stage %1, step %2").arg(stage).arg(i)));
            QCOMPARE(b.start, a.start);
        }
    }
    // The planner's walk: every stage's summary without a timeline, a stage built like the one before it timed as
    // that one (simulatestages.cpp), against the stage's own estimate.
    SimulateOptions quick;
    quick.timeline = quick.sweep = quick.searches = false;
    auto r = simulate(test::catalog(), s, quick);
    QVERIFY(r);
    QCOMPARE(int(r->ranks.size()), s.config.pipelineParallel);
    for (int stage = 0; stage < s.config.pipelineParallel; ++stage) {
        s.config.pipelineStage = stage;
        const RankSummary want = summarize(estimate(m, g, s.config, {}, test::fastOptions()), s.config,
                                           m.transformer.layers);
        const RankSummary& got = r->ranks[std::size_t(stage)];
        QVERIFY(got.layers == want.layers);
        QCOMPARE(got.inFlightMicroBatches, want.inFlightMicroBatches);
        QVERIFY(got.atPeak == want.atPeak);
        QCOMPARE(got.peakBytes, want.peakBytes);
        QCOMPARE(got.peakOperator, want.peakOperator);
        QCOMPARE(got.fits, want.fits);
        QCOMPARE(got.maxMicroBatch, want.maxMicroBatch);
        QCOMPARE(got.microBatchSeconds, want.microBatchSeconds);
        QCOMPARE(got.forwardSeconds, want.forwardSeconds);
    }
}

void TestSimulate::phasePeaksAreTheTimelineMaxima_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("checkpointing");
    QTest::newRow("gpt2") << QStringLiteral("gpt2") << int(Checkpointing::None);
    QTest::newRow("gpt2 full recompute") << QStringLiteral("gpt2") << int(Checkpointing::Full);
    QTest::newRow("resnet50") << QStringLiteral("resnet50") << int(Checkpointing::None);
}

void TestSimulate::phasePeaksAreTheTimelineMaxima()
{
    QFETCH(QString, model);
    QFETCH(int, checkpointing);
    Scenario s = baseScenario();
    s.modelId = model.toStdString();
    s.config.sequenceLength = model == QLatin1String("resnet50") ? 224 : 256;
    s.config.checkpointing = Checkpointing(checkpointing);
    const SimulationResult r = run(s, nullptr);
    const Estimate& e = r.estimate;
    QCOMPARE(timelineSize(e), e.schedule->realSteps);
    std::array<double, 3> maxima { 0.0, 0.0, 0.0 };
    for (std::int64_t i = 0; i < timelineSize(e); ++i) {
        const TimelineStep t = timelineStep(e, i);
        double total = 0.0;
        for (double v : t.bytes)
            total += v;
        double& m = maxima[int(t.step->phase)];
        m = std::max(m, total);
    }
    for (int p = 0; p < 3; ++p) {
        // Sums of whole bytes: a repeated block's runs add up to the same figure in any order.
        QCOMPARE(e.phasePeaks[p].totalBytes, maxima[p]);
        QVERIFY(e.phasePeaks[p].step >= 0);
        QCOMPARE(int(timelineStep(e, e.phasePeaks[p].step).step->phase), p);
    }
    // The timeline's phase boundaries (phaseStarts) are where the real steps, every run of every block, change phase.
    double backward = -1.0, optimizer = -1.0;
    for (std::int64_t i = 0; i < timelineSize(e); ++i) {
        const TimelineStep t = timelineStep(e, i);
        if (t.step->phase == Phase::Backward && backward < 0.0)
            backward = t.start;
        if (t.step->phase == Phase::Optimizer && optimizer < 0.0)
            optimizer = t.start;
    }
    const PhaseStarts starts = phaseStarts(e);
    QCOMPARE(starts.backward, backward);
    QCOMPARE(starts.optimizer, optimizer);
    QVERIFY(0.0 < starts.backward && starts.backward < starts.optimizer);
    // The step's peak is the highest of the three.
    QCOMPARE(std::max({ maxima[0], maxima[1], maxima[2] }), e.phasePeaks[int(e.peakPhase)].totalBytes);
    QVERIFY(std::abs(e.phasePeaks[int(e.peakPhase)].totalBytes - e.peakBytes) <= 1e-6 * e.peakBytes);
}

void TestSimulate::searchesMatchTheFullSimulation()
{
    // GPT-2 medium in FP32, 16 x 1024 tokens, on the 12 GB laptop GPU does not fit: there are fixes to find.
    Scenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "gpt2-medium";
    s.config.microBatch = 16;
    s.config.sequenceLength = 1024;
    s.config.precision = Precision::FP32;
    const auto full = simulate(test::catalog(), s);
    QVERIFY(full.ok());
    QVERIFY(full->searched);
    QVERIFY(!full->estimate.fits);
    QVERIFY(!full->fixes.empty());
    const SimulationResult quick = run(s, nullptr);
    QVERIFY(!quick.searched);
    QVERIFY(quick.fixes.empty());
    const SearchResult later = searchFits(quick);
    QCOMPARE(later.maxSequence, full->estimate.maxSequence);
    QCOMPARE(later.maxSequenceLimitedByModel, full->estimate.maxSequenceLimitedByModel);
    QCOMPARE(later.fixes.size(), full->fixes.size());
    for (std::size_t i = 0; i < later.fixes.size(); ++i) {
        QCOMPARE(int(later.fixes[i].kind), int(full->fixes[i].kind));
        QCOMPARE(later.fixes[i].peakBytes, full->fixes[i].peakBytes);
    }
}

void TestSimulate::explanationsSumToTheCategory()
{
    // Contributors are the blocks alive at a step; summed without the cut to eight they give the category's bytes.
    Scenario s = baseScenario();
    const SimulationResult r = run(s, nullptr);
    const Estimate& e = r.estimate;
    const auto forwardEnd = std::int32_t(e.schedule->realIndex({ e.schedule->forwardEnd, 0, -1 }));
    const auto all = contributors(*e.schedule, MemoryCategory::Activations, forwardEnd, double(s.config.microBatch),
                                  std::size_t(-1));
    double sum = 0.0;
    for (const Contributor& c : all)
        sum += c.bytes;
    QVERIFY(std::abs(sum - e.components[index(MemoryCategory::Activations)]) <= 1.0);
    for (std::size_t i = 1; i < all.size(); ++i)
        QCOMPARE_GE(all[i - 1].bytes, all[i].bytes);
    // Weights under autocast: P x 4 bytes (FP32 parameters, PyTorch AMP documentation).
    const CategoryExplanation w = explainCategory(r, MemoryCategory::Weights);
    QCOMPARE(w.terms.size(), std::size_t(1));
    QCOMPARE(w.terms[0].bytesPerElement, 4.0);
    QCOMPARE(w.terms[0].count, 124439808.0); // GPT-2 small, tied embeddings (Radford et al. 2019; HF gpt2)
    QCOMPARE(w.parameters, 124439808.0);
    // Eager attention: the Korthikanti et al. closed form is offered for comparison.
    QVERIFY(explainCategory(r, MemoryCategory::Activations).hasKorthikanti);
}

void TestSimulate::refusesBadScenarios()
{
    Scenario s = baseScenario();
    s.gpuId = "no-such-gpu";
    auto r = simulate(test::catalog(), s);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().field), QStringLiteral("gpu"));
    s = baseScenario();
    s.modelId = "no-such-model";
    r = simulate(test::catalog(), s);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().field), QStringLiteral("model"));
    s = baseScenario();
    s.config.microBatch = 0;
    r = simulate(test::catalog(), s);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().field), QStringLiteral("micro_batch"));
}

void TestSimulate::smallerMicroBatchKeepsTheGlobalBatch()
{
    // The fix trains on the same samples per optimizer step: micro-batch x accumulation steps is unchanged, and the
    // micro-batch is at most the largest that fits.
    Scenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "bert-base";
    s.config.sequenceLength = 512;
    s.config.precision = Precision::MixedFP16;
    for (std::int64_t batch : { 32, 48, 64, 97 }) {
        s.config.microBatch = batch;
        const auto r = simulate(test::catalog(), s);
        QVERIFY(r.ok());
        QVERIFY(!r->estimate.fits);
        bool found = false;
        for (const Fix& f : r->fixes) {
            if (f.changes != std::vector<FixKind> { FixKind::SmallerMicroBatch })
                continue;
            found = true;
            QCOMPARE(f.config.microBatch * f.config.gradientAccumulation, batch);
            QCOMPARE_LE(f.config.microBatch, r->estimate.maxMicroBatch);
            QVERIFY(f.fits);
        }
        QVERIFY2(found, qPrintable(QString::number(batch)));
    }
}

void TestSimulate::overheadEditIsNotCountedTwice()
{
    // CUBLAS_WORKSPACE_CONFIG=:4096:16 is 64 MiB; PyTorch's default on sm90 is :4096:8, 32 MiB
    // (aten/src/ATen/cuda/CublasHandlePool.cpp, getChosenWorkspaceSize). The overhead shown holds the 32 MiB more for
    // each of the two threads that run a training step's matmuls (the Python thread and autograd's), 64 MiB.
    Scenario s;
    s.gpuId = "h100-sxm5-80gb";
    s.modelId = "gpt2";
    s.config.cublasWorkspaceBytes = units::fromMiB(64.0);
    const GpuSpec& gpu = test::gpu("h100-sxm5-80gb");
    const double shown = frameworkOverheadBytes(gpu, s.config);
    QCOMPARE(units::toMiB(shown - gpu.overheadBytes()), 64.0);
    // Each arrow click on the spin box adds 1 MiB to what is shown, not 1 MiB plus the workspace again.
    for (int click = 1; click <= 3; ++click) {
        const auto edited = applyEdit(s, { Control::Overhead, shown + units::fromMiB(click) }, test::catalog());
        QVERIFY(edited.ok());
        QCOMPARE(units::toMiB(frameworkOverheadBytes(gpu, edited->config) - shown), double(click));
        s = *edited;
    }
    // Back to the figure shown for the GPU's own overhead: the scenario keeps none of its own.
    const auto back = applyEdit(s, { Control::Overhead, shown }, test::catalog());
    QVERIFY(back.ok());
    QVERIFY(!back->config.overheadBytes.has_value());
}

void TestSimulate::newModelKeepsOnlyWhatItAccepts()
{
    // Llama 2 7B has 32 blocks (config.json num_hidden_layers), BERT-base 12: eight stages split the first evenly,
    // not the second; four split both. A new model starts at its own sequence (BERT's 512 positions).
    Scenario s;
    s.gpuId = "h100-sxm5-80gb";
    s.modelId = "llama-2-7b";
    s.config.sequenceLength = 4096;
    s.config.pipelineParallel = 8;
    s.config.finetune.frozenLayers = 20;
    auto bert = applyEdit(s, { Control::Model, std::string("bert-base") }, test::catalog());
    QVERIFY(bert.ok());
    QCOMPARE(bert->config.sequenceLength, 512);
    QCOMPARE(bert->config.pipelineParallel, 1);
    QCOMPARE(bert->config.finetune.frozenLayers, -1); // 20 frozen blocks of 12: all of them
    s.config.pipelineParallel = 4;
    bert = applyEdit(s, { Control::Model, std::string("bert-base") }, test::catalog());
    QVERIFY(bert.ok());
    QCOMPARE(bert->config.pipelineParallel, 4);
    // Adapters are not modelled with pipeline stages: choosing LoRA ends them.
    const auto lora = applyEdit(*bert, { Control::FinetuneMethod, std::int64_t(FinetuneMethod::LoRA) },
                                test::catalog());
    QVERIFY(lora.ok());
    QCOMPARE(lora->config.pipelineParallel, 1);
    // ResNet-50 is a CNN: only full training.
    const auto cnn = applyEdit(*lora, { Control::Model, std::string("resnet50") }, test::catalog());
    QVERIFY(cnn.ok());
    QVERIFY(cnn->config.finetune.method == FinetuneMethod::Full);
}

void TestSimulate::newGpuDropsTheOverrides()
{
    // The default scenario is the explainer's A3000 with its 392 GB/s what-if; on another GPU it does not apply.
    const Scenario s = defaultScenario();
    QVERIFY(s.overrides.bandwidthBytesPerSecond.has_value());
    const auto same = applyEdit(s, { Control::Gpu, s.gpuId }, test::catalog());
    QVERIFY(same.ok());
    QCOMPARE(same->overrides, s.overrides);
    const auto h100 = applyEdit(s, { Control::Gpu, std::string("h100-sxm5-80gb") }, test::catalog());
    QVERIFY(h100.ok());
    QVERIFY(!h100->overrides.bandwidthBytesPerSecond.has_value());
    QVERIFY(h100->overrides.note.empty());
    // A what-if set in the window carries its note, and loses it with the last figure.
    const auto what = applyEdit(*h100, { Control::MemoryOverride, std::optional(units::fromGiB(40.0)) },
                                test::catalog());
    QVERIFY(what.ok());
    QCOMPARE(what->overrides.note, std::string(kWindowOverrideNote));
    const auto off = applyEdit(*what, { Control::MemoryOverride, std::optional<double>() }, test::catalog());
    QVERIFY(off.ok());
    QVERIFY(off->overrides.note.empty());
}

void TestSimulate::badEditsAreRefused()
{
    const Scenario s = defaultScenario();
    const auto wrongKind = applyEdit(s, { Control::MicroBatch, std::string("eight") }, test::catalog());
    QVERIFY(!wrongKind.ok());
    QCOMPARE(wrongKind.error().field, std::string("micro-batch"));
    const auto noGpu = applyEdit(s, { Control::Gpu, std::string("rtx-9090") }, test::catalog());
    QVERIFY(!noGpu.ok());
    QVERIFY(noGpu.error().message.find("rtx-9090") != std::string::npos);
    const auto flag = applyEdit(s, { Control::Precision, true }, test::catalog());
    QVERIFY(!flag.ok());
    QCOMPARE(flag.error().field, std::string("precision"));
}

QTEST_APPLESS_MAIN(TestSimulate)
#include "tst_simulate.moc"
