// Context parallelism (issue 11, --cp): each of cp ranks runs s/cp tokens of every sequence through the whole model,
// attention meets the other ranks' keys and values as they pass round the ring, the weights stay whole and the
// gradients reduce over dp x cp. Megatron's docs/user-guide/features/context_parallel.md (next-round.md section 1.4):
// activation memory per GPU / cp; communication "all-gather in forward, reduce-scatter of KV gradients in
// backward", 2 b s h_kv (cp - 1) / cp elements per layer forward and twice that backward.

#include "clirun.h"
#include "links.h"
#include "scenario.h"
#include "simulate.h"
#include "testsupport.h"

#include <nlohmann/json.hpp>

using namespace headroom;
using nlohmann::json;

class TestContextParallel : public QObject {
    Q_OBJECT

private slots:
    void activationsSplitOverTheRing_data();
    void activationsSplitOverTheRing();
    void ringBytes_data();
    void ringBytes();
    void optimizerShardsOverDpTimesCp();
    void attentionHidesTheRingAtLongSequences();
    void badLayoutsAreRefused();
    void cliCountsTheGpus();
};

namespace {

TrainingConfig layout(int cp, std::int64_t seq, int dp = 1, int zero = 0)
{
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = seq;
    c.precision = Precision::MixedBF16;
    c.attention = AttentionImpl::Fused;
    c.contextParallel = cp;
    // Megatron's context-parallel attention keeps no key/value cache; neither does the one-rank layout compared
    // with it (transformers 5's DynamicCache copies in training, transformerbuilder.h).
    c.transformers = kTranscribedTransformers;
    c.dataParallel = dp;
    c.zeroStage = zero;
    return c;
}

Estimate run(const char* model, const TrainingConfig& c, const char* gpu = "h100-sxm5-80gb")
{
    return estimate(headroom::test::preset(model), headroom::test::gpu(gpu), c, {}, headroom::test::fastOptions());
}

double category(const Estimate& e, MemoryCategory c) { return e.components[index(c)]; }

} // namespace

void TestContextParallel::activationsSplitOverTheRing_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("cp");
    QTest::newRow("llama-2-7b cp 2") << QStringLiteral("llama-2-7b") << 2;
    QTest::newRow("llama-2-7b cp 8") << QStringLiteral("llama-2-7b") << 8;
    QTest::newRow("mistral-7b cp 4 (GQA)") << QStringLiteral("mistral-7b") << 4;
    QTest::newRow("gpt2 cp 4 (learned positions)") << QStringLiteral("gpt2") << 4;
}

void TestContextParallel::activationsSplitOverTheRing()
{
    // Every saved tensor but one is per token (the fused kernel keeps this rank's q, k, v, output and log-sum-exp),
    // so the activations are 1/cp, plus the one scalar each rank's loss keeps (NllLossBackward's total_weight, a 0-d
    // FP32 tensor: 4 bytes); the weights do not split; the model FLOPs per GPU are 1/cp (each rank's queries meet
    // all keys: 4 (s/cp) s h per layer instead of 4 s^2 h).
    QFETCH(QString, model);
    QFETCH(int, cp);
    const std::int64_t seq = model == QLatin1String("gpt2") ? 1024 : 8192;
    const Estimate one = run(qPrintable(model), layout(1, seq));
    const Estimate split = run(qPrintable(model), layout(cp, seq));
    const double totalWeight = 4;
    QCOMPARE(category(split, MemoryCategory::Activations),
             (category(one, MemoryCategory::Activations) - totalWeight) / cp + totalWeight);
    QCOMPARE(category(split, MemoryCategory::Weights), category(one, MemoryCategory::Weights));
    QCOMPARE(split.modelFlopsPerStep, one.modelFlopsPerStep / cp);
    QCOMPARE(split.tokensPerSample, double(seq)); // throughput counts whole sequences
}

void TestContextParallel::ringBytes_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("cp");
    QTest::addColumn<double>("kvWidth"); // key/value heads x head_dim
    QTest::addColumn<double>("layers");
    QTest::newRow("llama-2-7b cp 2") << QStringLiteral("llama-2-7b") << 2 << 32.0 * 128 << 32.0;
    QTest::newRow("llama-2-7b cp 8") << QStringLiteral("llama-2-7b") << 8 << 32.0 * 128 << 32.0;
    QTest::newRow("mistral-7b cp 4: GQA sends a quarter") << QStringLiteral("mistral-7b") << 4 << 8.0 * 128 << 32.0;
}

void TestContextParallel::ringBytes()
{
    // Forward: K and V, 2 b s h_kv (cp - 1) / cp elements per layer; backward twice that (K and V again, and their
    // gradients). BF16 under autocast: 2 bytes.
    QFETCH(QString, model);
    QFETCH(int, cp);
    QFETCH(double, kvWidth);
    QFETCH(double, layers);
    const double s = 16384;
    const Estimate e = run(qPrintable(model), layout(cp, std::int64_t(s)));
    QCOMPARE(e.contextParallelBytes, 3 * 2 * 1 * s * kvWidth * (cp - 1) / cp * 2 * layers);
    QVERIFY(e.contextParallelSeconds > 0);
    QCOMPARE(run(qPrintable(model), layout(1, std::int64_t(s))).contextParallelBytes, 0.0);
}

void TestContextParallel::optimizerShardsOverDpTimesCp()
{
    // Megatron's distributed optimizer and the gradient all-reduce run over the dp x cp group (its MoE README: CP
    // divides the optimizer state only with the distributed optimizer). ZeRO-1 under autocast: 8 bytes of AdamW
    // moments per parameter over dp x cp ranks (Llama-2-7B, keras-hub: 6,738,415,616 parameters).
    const double params = 6738415616.0;
    const Estimate e = run("llama-2-7b", layout(4, 8192, 2, 1));
    QCOMPARE(category(e, MemoryCategory::OptimizerStates), 8 * params / 8);
    // DDP: 2 (n - 1) / n of the fp32 gradients per rank over the n = dp x cp ranks (ZeRO sec. 7.2).
    QCOMPARE(run("llama-2-7b", layout(4, 8192, 2, 0)).dataParallelBytes, 2.0 * 7 / 8 * 4 * params);
}

void TestContextParallel::attentionHidesTheRingAtLongSequences()
{
    // Ring attention overlaps each chunk's transfer with attention on the chunk before: at 64k tokens on NVLink the
    // attention kernels outlast the ring; at 2k tokens on PCIe without peer-to-peer they do not, and the step waits.
    const Estimate longSeq = run("llama-2-7b", layout(8, 65536));
    QVERIFY(longSeq.contextParallelSeconds > 0);
    QCOMPARE(longSeq.contextParallelExposedSeconds, 0.0);
    TrainingConfig shortSeq = layout(8, 2048);
    shortSeq.cluster.intraLink = LinkKind::PcieShm;
    const Estimate slow = run("llama-2-7b", shortSeq);
    QVERIFY(slow.contextParallelExposedSeconds > 0);
    QVERIFY(slow.contextParallelExposedSeconds < slow.contextParallelSeconds);
    QVERIFY(slow.stepSeconds > run("llama-2-7b", layout(1, 2048)).stepSeconds / 8);
}

void TestContextParallel::badLayoutsAreRefused()
{
    struct Case {
        const char* model;
        int cp;
        std::int64_t seq;
        AttentionImpl attention;
        const char* says;
    };
    for (const Case& c : { Case { "llama-2-7b", 2, 4096, AttentionImpl::Eager, "fused attention" },
                           Case { "llama-2-7b", 16, 1000, AttentionImpl::Fused, "32 must divide the 1000 tokens" },
                           Case { "resnet50", 2, 224, AttentionImpl::Fused, "has none" } }) {
        Scenario s;
        s.gpuId = "h100-sxm5-80gb";
        s.modelId = c.model;
        s.config = layout(c.cp, c.seq);
        s.config.attention = c.attention;
        const auto r = simulate(headroom::test::catalog(), s);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, std::string("context_parallel"));
        QVERIFY2(r.error().message.find(c.says) != std::string::npos, r.error().message.c_str());
    }
    ScenarioDocument d;
    d.scenario.gpuId = "h100-sxm5-80gb";
    d.scenario.modelId = "llama-2-7b";
    d.scenario.config = layout(4, 8192);
    const auto back = parseScenario(serializeScenario(d), "test");
    QVERIFY(back.ok());
    QCOMPARE(back->scenario.config.contextParallel, 4);
}

void TestContextParallel::cliCountsTheGpus()
{
    // The GPU count is t x p x cp x dp (issue 11's contract); a bad --cp exits 2 naming it.
    const auto ok = ::test::runHeadroom(
        QStringLiteral("estimate --gpu h100-sxm5-80gb --model llama-2-7b --seq 32768 --tp 2 --cp 4 --dp 2 --json")
            .split(QLatin1Char(' ')));
    QCOMPARE(ok.code, 0);
    const json j = json::parse(ok.out.toStdString());
    QCOMPARE(j["parallelism"]["cp"].get<int>(), 4);
    QCOMPARE(j["parallelism"]["gpus"].get<int>(), 16);
    QVERIFY(j["time"]["communication"]["context_parallel"]["bytes"].get<double>() > 0);
    const auto bad = ::test::runHeadroom(
        QStringLiteral("estimate --model llama-2-7b --seq 4096 --cp 2 --attention eager").split(QLatin1Char(' ')));
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--cp"), bad.err.constData());
}

QTEST_GUILESS_MAIN(TestContextParallel)
#include "tst_contextparallel.moc"
