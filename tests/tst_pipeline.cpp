// Pipeline parallelism (--pp): each stage builds its own operator graph (its blocks, the embeddings on the first,
// the head on the last) and the lowering holds the micro-batches in flight. Figures: Narayanan et al. 2021 (arXiv
// 2104.04473) sec. 2.2, 3.2 and 4.1; Korthikanti et al. 2022 (arXiv 2205.05198) sec. 4.2.3; Megatron-LM's
// theoretical_memory_usage.py and schedules.py (docs/references/parallelism.md).

#include "explain.h"
#include "links.h"
#include "pipeline.h"
#include "simulate.h"
#include "testsupport.h"

using namespace headroom;

class TestPipeline : public QObject {
    Q_OBJECT

private slots:
    void inFlightMicroBatches_data();
    void inFlightMicroBatches();
    void bubble_data();
    void bubble();
    void stageLayers();
    void unevenSplitsRelieveTheEnds();
    void megatronGpt3WeightsAndOptimizer();
    void megatronGpt3Activations();
    void firstStageHoldsEveryLayer();
    void pointToPointMessages();
    void tensorParallelMessagesPerStage();
    void parametersOfTheWholeModel();
    void stepTimeHasTheBubble();
    void shownStageKeepsTheJobsAnswers();
    void unwalkedStagesChangeNoAnswer();
    void linksSetTheAllReduceTime();
    void badLayouts();
};

namespace {

constexpr double kMiB = 1048576.0;

TrainingConfig pipeline(int p, int m, PipelineSchedule schedule = PipelineSchedule::OneFOneB, int v = 1)
{
    return test::pipelineConfig(p, m, schedule, v);
}

// GPT-3 175B as Megatron's estimator takes it (h 12288, a 96, L 96, V 51200, s 2048, b 1, t 8, p 8, 64
// micro-batches, SP + selective recomputation, BF16 weights with FP32 gradients and master copy: 18 bytes per
// parameter) and as Korthikanti et al. lay out its layer (eager attention, dropout 0.1).
ModelSpec gpt3() { return test::gptModel(96, 12288, 96, 51200, 2048, 0.1); }

TrainingConfig gpt3Config(int stage, bool sp = true)
{
    TrainingConfig c = pipeline(8, 64);
    c.microBatch = 1;
    c.sequenceLength = 2048;
    c.precision = Precision::MixedBF16;
    c.mixedStyle = MixedPrecisionStyle::MasterWeights;
    c.masterGradients = GradientStorage::FP32;
    c.tensorParallel = 8;
    c.sequenceParallel = sp;
    c.checkpointing = Checkpointing::Selective;
    c.attention = AttentionImpl::Eager;
    c.pipelineStage = stage;
    return c;
}

// Llama-2-7B on an A100, four 1F1B stages, 16 micro-batches of one 2048-token sequence.
Scenario llamaOnFourStages()
{
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = "llama-2-7b";
    s.config = pipeline(4, 16);
    s.config.microBatch = 1;
    s.config.sequenceLength = 2048;
    return s;
}

Estimate stage(const ModelSpec& m, const TrainingConfig& c)
{
    return estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
}

} // namespace

void TestPipeline::inFlightMicroBatches_data()
{
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("v");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("stage");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<double>("expected");
    // Korthikanti et al. 2022 sec. 4.2.3 and Megatron's estimator: the first stage of the interleaved schedule
    // holds p (1 + (p - 1) / (p v)) micro-batches' activations: p 8, v 3 -> 8 x 1.2917 (Megatron rounds the count
    // of in-flight micro-batches up to 11); p 4, v 2 -> 4 x 1.375 (6).
    QTest::newRow("interleaved p8 v3") << 8 << 3 << 64 << 0 << "interleaved" << 8.0 * (1.0 + 7.0 / 24.0);
    QTest::newRow("interleaved p4 v2") << 4 << 2 << 16 << 0 << "interleaved" << 5.5;
    // Megatron's warm-up on the last stage: (v - 1) p chunks, then the one that runs, in stage units.
    QTest::newRow("interleaved p4 v2 last") << 4 << 2 << 16 << 3 << "interleaved" << 2.5;
    // With exactly p micro-batches Megatron runs every forward first (schedules.py: all_warmup_microbatches).
    QTest::newRow("interleaved m = p") << 4 << 2 << 4 << 3 << "interleaved" << 4.0;
    // 1F1B (PipeDream-Flush, Narayanan et al. 2021 sec. 2.2.1): stage s holds p - s; at most m.
    QTest::newRow("1f1b p8 first") << 8 << 1 << 64 << 0 << "1f1b" << 8.0;
    QTest::newRow("1f1b p8 stage 5") << 8 << 1 << 64 << 5 << "1f1b" << 3.0;
    QTest::newRow("1f1b p8 last") << 8 << 1 << 64 << 7 << "1f1b" << 1.0;
    QTest::newRow("1f1b fewer micro-batches") << 8 << 1 << 3 << 0 << "1f1b" << 3.0;
    // GPipe: every forward before any backward, so every stage holds all m.
    QTest::newRow("gpipe") << 4 << 1 << 12 << 2 << "gpipe" << 12.0;
}

void TestPipeline::inFlightMicroBatches()
{
    QFETCH(int, p);
    QFETCH(int, v);
    QFETCH(int, m);
    QFETCH(int, stage);
    QFETCH(QString, schedule);
    QFETCH(double, expected);
    const TrainingConfig c = pipeline(p, m, *pipelineScheduleFromString(schedule.toStdString()), v);
    QCOMPARE(headroom::inFlightMicroBatches(c, stage), expected);
}

void TestPipeline::bubble_data()
{
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("v");
    QTest::addColumn<int>("m");
    QTest::addColumn<double>("expected");
    // (p - 1) / (v m) (Narayanan et al. 2021 sec. 2.2); the Ultra-Scale Playbook's pp_bubblesize labels 7.00 and
    // 0.03 for these two.
    QTest::newRow("p8 m1") << 8 << 1 << 1 << 7.0;
    QTest::newRow("p8 m32 v8") << 8 << 8 << 32 << 7.0 / 256.0;
    QTest::newRow("p1") << 1 << 1 << 4 << 0.0;
}

void TestPipeline::bubble()
{
    QFETCH(int, p);
    QFETCH(int, v);
    QFETCH(int, m);
    QFETCH(double, expected);
    const auto schedule = v > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    QCOMPARE(bubbleFraction(pipeline(p, m, schedule, v)), expected);
}

void TestPipeline::stageLayers()
{
    // 10 blocks on 4 stages: 2, 2, 3, 3 (the first stage also holds the embeddings).
    const TrainingConfig c = pipeline(4, 8);
    const std::vector<LayerRange> expected[] = { { { 0, 2 } }, { { 2, 4 } }, { { 4, 7 } }, { { 7, 10 } } };
    for (int s = 0; s < 4; ++s)
        QCOMPARE(headroom::stageLayers(10, c, s), expected[s]);
    // Megatron's interleaved layout: stage s holds virtual stages s, s + p, ... of L / (p v) blocks each.
    const TrainingConfig i = pipeline(4, 8, PipelineSchedule::Interleaved, 2);
    QCOMPARE(headroom::stageLayers(16, i, 1), (std::vector<LayerRange> { { 2, 4 }, { 10, 12 } }));
    QCOMPARE(headroom::stageLayers(16, i, 3), (std::vector<LayerRange> { { 6, 8 }, { 14, 16 } }));
}

void TestPipeline::unevenSplitsRelieveTheEnds()
{
    // Worked by hand from Megatron-LM's get_num_layers_to_build (--decoder-first/last-pipeline-num-layers): middle
    // stages of floor(L / p) or one more blocks, the first, the last or both holding fewer.
    using Splits = std::vector<std::pair<int, int>>;
    QCOMPARE(headroom::unevenStageSplits(32, 4), (Splits { { 5, 0 }, { 0, 5 }, { 7, 7 } })); // 5+9+9+9, 7+9+9+7
    QCOMPARE(headroom::unevenStageSplits(32, 3), (Splits { { 10, 0 }, { 0, 10 } }));         // 10+11+11
    QCOMPARE(headroom::unevenStageSplits(32, 6), (Splits { { 2, 0 }, { 0, 2 }, { 4, 4 } })); // 2+6x5, 4+6x4+4
    QCOMPARE(headroom::unevenStageSplits(12, 2), (Splits { { 5, 0 }, { 0, 5 } }));           // 5+7
    QCOMPARE(headroom::unevenStageSplits(96, 64), Splits {}); // no middle share leaves the ends fewer blocks
    QCOMPARE(headroom::unevenStageSplits(8, 1), Splits {});
    // Each is a split Megatron accepts: the blocks add up, the ends hold fewer than any middle stage.
    for (const auto& [layers, p] :
         { std::pair { 32, 4 }, std::pair { 32, 3 }, std::pair { 32, 6 }, std::pair { 96, 7 } })
        for (const auto& [first, last] : headroom::unevenStageSplits(layers, p)) {
            TrainingConfig c = pipeline(p, 8);
            c.firstStageLayers = first;
            c.lastStageLayers = last;
            QVERIFY2(headroom::unevenStagesProblem(layers, c).empty(),
                     headroom::unevenStagesProblem(layers, c).c_str());
            int total = 0, middle = 0;
            for (int s = 0; s < p; ++s) {
                const std::vector<LayerRange> r = headroom::stageLayers(layers, c, s);
                total += r.front().last - r.front().first;
                if (s == 1)
                    middle = r.front().last - r.front().first;
            }
            QCOMPARE(total, layers);
            QVERIFY(std::max(first, last) < middle);
        }
}

void TestPipeline::megatronGpt3WeightsAndOptimizer()
{
    // Megatron's most loaded shard (theoretical_memory_usage.py): (every block's parameters / p + V h) / t, with a
    // block of 2h(4h + 2) + 4h^2 (no biases, its two LayerNorms, divided by t) and the final LayerNorm's 2h spread
    // over the stages; 18 bytes per parameter.
    const double h = 12288, L = 96, V = 51200, p = 8, t = 8;
    const double block = 2 * h * (4 * h + 2) + 4 * h * h;
    const double megatron = ((block * L + 2 * h) / p + V * h) / t;
    // 48007.27 MiB from the code as read (next-round.md's table prints 48016.18; that 0.02 % we could not
    // reproduce from any version of the formula).
    QCOMPARE(std::round(megatron * 18 / kMiB * 100) / 100, 48007.27);
    // The simulator's first stage holds, on top of that, what GPT-3's layers have and the estimator leaves out:
    // the 2048 x h learned positions (whole on every tensor-parallel rank), the LayerNorms whole rather than / t
    // (Megatron keeps norms replicated), the biases (QKV and FC1 column-parallel, / t; both output projections
    // row-parallel, whole), and not the final LayerNorm, which lives on the last stage.
    const double blocksHere = L / p;
    const double positions = 2048 * h;
    const double norms = blocksHere * 4 * h * (1 - 1 / t);
    const double biases = blocksHere * (7 * h / t + 2 * h);
    const double finalNorm = 2 * h / (p * t);
    const Estimate e = stage(gpt3(), gpt3Config(0));
    QCOMPARE(e.parametersPerGpu, megatron + positions + norms + biases - finalNorm);
    const double states = e.components[index(MemoryCategory::Weights)] + e.components[index(MemoryCategory::Gradients)]
        + e.components[index(MemoryCategory::OptimizerStates)];
    QCOMPARE(states, 18 * e.parametersPerGpu); // BF16 weight, FP32 main_grad, FP32 master, m and v
}

void TestPipeline::megatronGpt3Activations()
{
    // Megatron's first stage, SP + selective (compute_activation_memory): (34 sbh L + 8 s b p + s b h p) / t =
    // 9816.02 MiB: p micro-batches in flight of L / p blocks, the input ids and the embedding dropout mask.
    const double s = 2048, b = 1, h = 12288, L = 96, p = 8, t = 8;
    const double megatron = (34 * s * b * h * L + 8 * s * b * p + s * b * h * p) / t;
    QCOMPARE(std::round(megatron / kMiB * 100) / 100, 9816.02);
    // The simulator's first stage at the end of its forward pass, from the graph: the same blocks and embedding
    // dropout mask, plus LayerNorm's FP32 mean and rstd (8 bytes per token for each of a block's two norms, on s/t
    // tokens) and the int64 position ids that GPT-2 builds with torch.arange on every forward ([1, s], saved by the
    // position lookup), one per micro-batch in flight; minus Megatron's input ids, which the simulator counts once
    // as the loaded batch (a resident input, not an activation).
    const Estimate e = stage(gpt3(), gpt3Config(0));
    const double lnStats = p * (L / p) * 16 * s * b / t;
    const double positionIds = p * 8 * s;
    const double inputIds = 8 * s * b * p / t;
    const double explained = megatron + lnStats + positionIds - inputIds;
    const double got = e.components[index(MemoryCategory::Activations)];
    QVERIFY2(std::abs(got - explained) < 1.0, qPrintable(QString::number(got - explained, 'f', 0)));
    QVERIFY(std::abs(got / megatron - 1) < 0.10); // the bound; it is 0.005 %

    // Interleaved, v = 3: Megatron multiplies all of it by 1 + (p - 1) / (p v) -> 12679.02 MiB. The simulator's
    // stage holds three chunks, 10.33 micro-batches of them in flight; the second and third chunk's received
    // inputs are their first norms' inputs, which the 34 sbh count.
    TrainingConfig c = gpt3Config(0);
    c.pipelineSchedule = PipelineSchedule::Interleaved;
    c.virtualStages = 3;
    const double factor = 1 + (p - 1) / (p * 3);
    QCOMPARE(std::round(megatron * factor / kMiB * 100) / 100, 12679.02);
    const double interleaved = stage(gpt3(), c).components[index(MemoryCategory::Activations)];
    QVERIFY2(std::abs(interleaved - explained * factor) < 1.0, qPrintable(QString::number(interleaved / kMiB, 'f', 2)));
}

void TestPipeline::firstStageHoldsEveryLayer()
{
    // 1F1B: stage 0 holds p micro-batches of L / p blocks, L blocks' worth whatever p (Korthikanti et al. 2022
    // sec. 4.2.3), plus p copies of what the embeddings keep; the last stage holds one micro-batch.
    ModelSpec m = test::gptModel(16, 1024, 16, 50304, 1024, 0.1);
    TrainingConfig c = pipeline(1, 16);
    c.microBatch = 2;
    c.sequenceLength = 1024;
    c.precision = Precision::PureBF16;
    auto first = [&](int p) {
        TrainingConfig q = c;
        q.pipelineParallel = p;
        return stage(m, q).components[index(MemoryCategory::Activations)];
    };
    const double a2 = first(2), a4 = first(4), a8 = first(8);
    const double embedding = (a8 - a4) / 4; // what one micro-batch's embeddings keep
    QVERIFY(embedding > 0);
    QCOMPARE(a4 - a2, 2 * embedding);
    // The blocks: L of them, as one micro-batch of the whole model keeps (p = 1, without the head's).
    TrainingConfig one = c;
    one.pipelineParallel = 2;
    one.gradientAccumulation = 1; // one micro-batch in flight: the stage's own
    const double halfModel = stage(m, one).components[index(MemoryCategory::Activations)] - embedding;
    QCOMPARE(a2 - 2 * embedding, 2 * halfModel);
    // Stage s of 4 holds 4 - s micro-batches whatever m: the last stage's activations are those of one.
    auto at = [&](int s, int micro) {
        TrainingConfig q = c;
        q.pipelineParallel = 4;
        q.pipelineStage = s;
        q.gradientAccumulation = micro;
        return stage(m, q).components[index(MemoryCategory::Activations)];
    };
    QCOMPARE(at(3, 16), at(3, 1));
    const double ratio = at(1, 16) / at(1, 1);
    QVERIFY2(ratio > 2.95 && ratio < 3.05, qPrintable(QString::number(ratio)));
    // The Explain panel names the other micro-batches as such, not as the first operator's (the stage's first step
    // allocates them): on stage 1 of 4 they are 2 micro-batches' worth, 2/3 of the activations at the forward's end.
    TrainingConfig q = c;
    q.pipelineParallel = 4;
    q.pipelineStage = 1;
    const Estimate e = stage(m, q);
    const auto top = contributors(*e.schedule, MemoryCategory::Activations,
                                  std::int32_t(e.schedule->realIndex({ e.schedule->forwardEnd, 0, -1 })), 2.0);
    QVERIFY(!top.empty());
    QCOMPARE(top.front().label, std::string_view("pipeline.in_flight"));
    const double share = top.front().bytes / e.components[index(MemoryCategory::Activations)];
    QVERIFY2(share > 0.64 && share < 0.68, qPrintable(QString::number(share)));
}

void TestPipeline::pointToPointMessages()
{
    // Narayanan et al. 2021 sec. 3.2 and 4.1: b s h elements between neighbouring stages per micro-batch, each
    // direction: GPT-3 (b 1, s 2048, h 12288) in BF16 50.3 MB; with sequence parallelism each rank sends its
    // b s h / t = 6.29 MB (the paper's scatter/gather optimisation sends the same share).
    const double message = 1 * 2048 * 12288 * 2.0;
    QCOMPARE(message, 50331648.0);
    const double m = 64;
    // A middle stage sends the activation forward and the gradient of its input back; the first only the one,
    // the last only the other.
    QCOMPARE(stage(gpt3(), gpt3Config(3, false)).pipelineBytes, 2 * message * m);
    QCOMPARE(stage(gpt3(), gpt3Config(0, false)).pipelineBytes, message * m);
    QCOMPARE(stage(gpt3(), gpt3Config(7, false)).pipelineBytes, message * m);
    QCOMPARE(stage(gpt3(), gpt3Config(3, true)).pipelineBytes, 2 * message / 8 * m);
    // No pipeline, no sends.
    TrainingConfig c = gpt3Config(0);
    c.pipelineParallel = 1;
    c.gradientAccumulation = 1;
    c.tensorParallel = 8;
    c.sequenceLength = 256;
    QCOMPARE(stage(gpt3(), c).pipelineBytes, 0.0);
}

void TestPipeline::tensorParallelMessagesPerStage()
{
    // Narayanan et al. 2021 sec. 3.2: 8 b s h (t - 1) / t elements per layer per micro-batch on each rank; GPT-3 at
    // t = 8 in BF16: 352.3 MB per layer. A middle stage's 12 blocks, 64 micro-batches.
    const double perLayer = 8 * 1 * 2048 * 12288 * (7.0 / 8.0) * 2;
    QCOMPARE(std::round(perLayer / 1e5) / 10, 352.3);
    QCOMPARE(stage(gpt3(), gpt3Config(4, false)).tensorParallelBytes, 12 * perLayer * 64);
}

void TestPipeline::parametersOfTheWholeModel()
{
    // Summed over the stages, the model's own count: Llama-2-7B 6,738,415,616 (untied); GPT-2 124,439,808, whose
    // last stage keeps a copy of the tied word embeddings that is not a parameter of the model.
    const Catalog& cat = test::catalog();
    for (const auto& [id, p, count] :
         { std::tuple { "llama-2-7b", 4, 6738415616.0 }, std::tuple { "gpt2", 3, 124439808.0 } }) {
        Scenario s;
        s.gpuId = "a100-sxm4-80gb";
        s.modelId = id;
        s.config = pipeline(p, 4);
        s.config.microBatch = 1;
        s.config.sequenceLength = 1024;
        const auto r = simulate(cat, s, SimulateOptions::interactive());
        QVERIFY(r);
        QCOMPARE(r->estimate.parameters, count);
        QCOMPARE(int(r->ranks.size()), p);
        double perStage = 0;
        for (const RankSummary& rank : r->ranks)
            perStage += rank.parametersPerGpu;
        QVERIFY(perStage >= count); // the tied copy counts where it lives
    }
}

void TestPipeline::stepTimeHasTheBubble()
{
    // The slowest stage sets the pace: (m + (p - 1)) t_stage, then the optimizer; GPipe takes as long as 1F1B and
    // holds m micro-batches instead of p - s.
    const Catalog& cat = test::catalog();
    Scenario s = llamaOnFourStages();
    const auto f1b = simulate(cat, s, SimulateOptions::interactive());
    QVERIFY(f1b);
    double slowest = 0;
    for (const RankSummary& r : f1b->ranks)
        slowest = std::max(slowest, r.microBatchSeconds);
    const Estimate& e = f1b->estimate;
    QCOMPARE(e.pipelineBubbleSeconds, 3 * slowest);
    QVERIFY(e.stepSeconds >= 19 * slowest);
    QVERIFY(e.stepSeconds < 19 * slowest + 2 * e.optimizerSeconds + 1e-3);
    QCOMPARE(e.config.pipelineStage, 0); // the first stage holds the most
    s.config.pipelineSchedule = PipelineSchedule::GPipe;
    const auto gpipe = simulate(cat, s, SimulateOptions::interactive());
    QVERIFY(gpipe);
    QCOMPARE(gpipe->estimate.stepSeconds, e.stepSeconds);
    QVERIFY(gpipe->estimate.peakBytes > e.peakBytes);
    // The interleaved schedule divides the bubble by v.
    s.config.pipelineSchedule = PipelineSchedule::Interleaved;
    s.config.virtualStages = 2;
    const auto inter = simulate(cat, s, SimulateOptions::interactive());
    QVERIFY(inter);
    double slowestChunked = 0;
    for (const RankSummary& r : inter->ranks)
        slowestChunked = std::max(slowestChunked, r.microBatchSeconds);
    QCOMPARE(inter->estimate.pipelineBubbleSeconds, 1.5 * slowestChunked);
}

void TestPipeline::shownStageKeepsTheJobsAnswers()
{
    // Showing another stage than the most loaded changes the memory shown, not the pipeline's answers: its step
    // time, the largest micro-batch and the longest sequence (the most loaded stage's limits).
    const Catalog& cat = test::catalog();
    Scenario s = llamaOnFourStages();
    SimulateOptions o;
    o.sweep = false;
    const auto worst = simulate(cat, s, o);
    o.stage = 3;
    const auto last = simulate(cat, s, o);
    QVERIFY(worst && last);
    QCOMPARE(worst->estimate.config.pipelineStage, 0);
    QCOMPARE(last->estimate.config.pipelineStage, 3);
    QCOMPARE(last->estimate.peakBytes, last->ranks[3].peakBytes);
    QVERIFY(last->estimate.peakBytes < worst->estimate.peakBytes);
    QCOMPARE(last->estimate.stepSeconds, worst->estimate.stepSeconds);
    QCOMPARE(last->estimate.maxMicroBatch, worst->estimate.maxMicroBatch);
    QCOMPARE(last->estimate.maxSequence, worst->estimate.maxSequence);
    QCOMPARE(searchFits(*last).maxSequence, worst->estimate.maxSequence);
    // The verdict's "the most loaded" (SimulationResult::showsMostLoaded): stage 0 of Llama's four carries the
    // embedding, stage 3 the head; stage 0's peak is the highest of the four.
    QVERIFY(worst->showsMostLoaded());
    QVERIFY(!last->showsMostLoaded());
}

void TestPipeline::unwalkedStagesChangeNoAnswer()
{
    // The planner's simulate() leaves unwalked a middle stage built like the one before it that holds no more
    // micro-batches in flight (SimulateOptions::walkEveryStage). Over schedules, accumulations, ZeRO stages,
    // checkpointing and optimizers (the for-loop AdamW's optimizer steps can hold a stage's peak), every answer the
    // planner reads is a full walk's: the most loaded stage and its estimate, the step time, whether every rank fits;
    // an unwalked rank's memory is at least its own.
    const Catalog& cat = test::catalog();
    SimulateOptions full;
    full.timeline = full.sweep = full.searches = false;
    SimulateOptions bounded = full;
    bounded.walkEveryStage = false;
    int unwalked = 0, cases = 0, unfit = 0, ranks = 0;
    for (const char* model : { "gpt2", "tinyllama-1.1b", "llama-2-7b" })
        for (const PipelineSchedule schedule :
             { PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::Interleaved })
            for (const int m : { 2, 5, 16 })
                for (const int zero : { 0, 1 })
                    for (const AdamImpl impl : { AdamImpl::Foreach, AdamImpl::ForLoop }) {
                        Scenario s;
                        // Some ranks of these do not fit the laptop's 12 GB.
                        s.gpuId = m == 5 ? "rtx-a3000-12gb-laptop" : "a100-sxm4-80gb";
                        s.modelId = model;
                        const int layers = cat.model(model)->transformer.layers;
                        const int v = schedule == PipelineSchedule::Interleaved ? 2 : 1;
                        s.config = pipeline(layers % 8 == 0 && m % 8 == 0 ? 8 : 4, m, schedule, v);
                        s.config.microBatch = m == 5 ? 1 : 2;
                        s.config.sequenceLength = m == 2 ? 128 : 1024;
                        s.config.dataParallel = 2;
                        s.config.zeroStage = zero;
                        s.config.adamImpl = impl;
                        s.config.checkpointing = m == 16 ? Checkpointing::Full : Checkpointing::None;
                        const auto a = simulate(cat, s, full), b = simulate(cat, s, bounded);
                        if (!a) // a layout the model refuses (interleaving needs layers divisible by 2p)
                            continue;
                        QVERIFY(b);
                        ++cases;
                        QCOMPARE(b->estimate.config.pipelineStage, a->estimate.config.pipelineStage);
                        QCOMPARE(b->estimate.peakBytes, a->estimate.peakBytes);
                        QCOMPARE(b->estimate.stepSeconds, a->estimate.stepSeconds);
                        QCOMPARE(b->estimate.throughputPerSecond, a->estimate.throughputPerSecond);
                        QCOMPARE(b->estimate.maxMicroBatch, a->estimate.maxMicroBatch);
                        QCOMPARE(b->ranks.size(), a->ranks.size());
                        for (std::size_t k = 0; k < a->ranks.size(); ++k) {
                            QCOMPARE(b->ranks[k].fits, a->ranks[k].fits);
                            QVERIFY(b->ranks[k].peakBytes >= a->ranks[k].peakBytes);
                            unwalked += b->ranks[k].peakBytes > a->ranks[k].peakBytes ? 1 : 0;
                            unfit += a->ranks[k].fits ? 0 : 1;
                            ++ranks;
                        }
                    }
    QVERIFY(cases > 50);
    QVERIFY(unwalked > 20); // the option leaves stages unwalked
    QVERIFY(unfit > 0 && unfit < ranks);
}

void TestPipeline::linksSetTheAllReduceTime()
{
    // A ring all-reduce of S bytes at bus bandwidth B takes 2 (n - 1) / n S / B (nccl-tests PERFORMANCE.md). GPT-2's
    // 124M BF16 gradients (S = 248.9 MB) over 8 GPUs (next-round.md sec. 7 item 33, from the measured bus
    // bandwidths of sec. 4.3): 15.55 ms on PCIe 5 (28 GB/s), 2.18 ms on A100 NVLink (200), 1.18 ms on H100 (370).
    // On top, each of DDP's 10 buckets of 25 MiB pays NCCL's ring latency (src/graph/tuning.cc, Ring/Simple):
    // 8.4 us plus 14 steps of 5.7 us (PCIe) or 3.4 us (NVLink), and 9.6 us for each step between nodes.
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 256;
    c.precision = Precision::MixedBF16;
    c.mixedStyle = MixedPrecisionStyle::MasterWeights;
    c.masterGradients = GradientStorage::Low;
    c.dataParallel = 8;
    const ModelSpec& gpt2 = test::preset("gpt2");
    QCOMPARE(std::ceil(124439808.0 * 2.0 / (25 * 1024 * 1024)), 10.0);
    for (const auto& [link, ms, step] :
         { std::tuple { LinkKind::Pcie5, 15.55, 5.7e-6 }, std::tuple { LinkKind::Nvlink3, 2.18, 3.4e-6 },
           std::tuple { LinkKind::Nvlink4, 1.18, 3.4e-6 } }) {
        c.cluster.intraLink = link;
        const Estimate e = stage(gpt2, c);
        QCOMPARE(e.dataParallelBytes, 2.0 * 7.0 / 8.0 * 124439808.0 * 2.0);
        const double alpha = 10 * (8.4e-6 + 14 * step);
        QVERIFY(std::abs(e.communicationLatencySeconds / alpha - 1.0) < 1e-9);
        QVERIFY2(std::abs((e.dataParallelSeconds - alpha) * 1e3 - ms) < 0.006,
                 qPrintable(QString::number(e.dataParallelSeconds)));
    }
    // Two nodes of four: the data-parallel ring crosses them, at the inter-node line rate derated like the GPU's
    // own links; within one node of eight it stays on the intra-node link.
    c.cluster = { 4, LinkKind::Nvlink4, LinkKind::InfinibandNdr };
    const Estimate split = stage(gpt2, c);
    QCOMPARE(split.dataParallelSeconds,
             split.dataParallelBytes / (50e9 * Efficiency {}.link) + 10 * (8.4e-6 + 12 * 3.4e-6 + 2 * 9.6e-6));
    c.cluster.gpusPerNode = 8;
    QCOMPARE(stage(gpt2, c).dataParallelSeconds, split.dataParallelBytes / 370e9 + 10 * (8.4e-6 + 14 * 3.4e-6));
}

void TestPipeline::badLayouts()
{
    const Catalog& cat = test::catalog();
    auto error = [&](const char* model, TrainingConfig c) {
        Scenario s;
        s.gpuId = "a100-sxm4-80gb";
        s.modelId = model;
        s.config = c;
        s.config.sequenceLength = 512;
        const auto r = simulate(cat, s, SimulateOptions::interactive());
        return r ? std::string() : r.error().field;
    };
    QCOMPARE(error("gpt2", pipeline(13, 13)), std::string("pipeline_parallel"));   // 12 blocks
    QCOMPARE(error("resnet50", pipeline(2, 2)), std::string("pipeline_parallel")); // not a transformer
    QCOMPARE(error("gpt2", pipeline(4, 8, PipelineSchedule::Interleaved, 2)), std::string("virtual_stages"));
    QCOMPARE(error("gpt2", pipeline(2, 3, PipelineSchedule::Interleaved, 2)), std::string("gradient_accumulation"));
    QCOMPARE(error("gpt2", pipeline(1, 4, PipelineSchedule::Interleaved, 1)), std::string("pipeline_schedule"));
    QCOMPARE(error("gpt2", pipeline(3, 4)), std::string()); // 4 blocks per stage
}

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
