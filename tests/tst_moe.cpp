// Mixture-of-experts models and expert parallelism (issue 11). The presets and imports count their parameters shape
// by shape (the figures are the exact counts their publishers' rounded ones round from); a token computes with its
// top-k experts only, so model FLOPs follow the active parameters while memory holds them all; expert parallelism
// splits the routed experts over ep of the data-parallel ranks (Megatron), so each rank keeps the dense part whole
// and experts / ep of the experts, and pays the token all-to-alls. Sources: docs/references/parallelism.md.

#include "clirun.h"
#include "hfconfig.h"
#include "modelgraph.h"
#include "scenario.h"
#include "simulate.h"
#include "testsupport.h"

#include <QFile>
#include <nlohmann/json.hpp>

using namespace headroom;
using nlohmann::json;

class TestMoe : public QObject {
    Q_OBJECT

private slots:
    void presetCountsAreExact_data();
    void presetCountsAreExact();
    void modelFlopsFollowActiveExperts();
    void expertParallelKeepsExpertsOverEp();
    void zeroOneOptimizerIsUnchangedByEp();
    void allToAllBytes();
    void gradientsReduceOverTheirGroup();
    void sparseStepAndDenseLayers();
    void badLayoutsAreRefused();
    void scenarioKeepsExpertParallel();
    void cliRefusesEpOnADenseModel();
    void plannerSplitsTheExperts();
};

namespace {

// A decoder's parameters from its config.json fields: untied embedding and head, RMSNorm (one vector per norm),
// grouped-query attention with optional q/k/v biases and q/k norms, and per layer either a routed MoE block (router
// h x E, E gated experts of width f, optionally a shared gated expert of width fs with its Linear(h, 1) gate) or a
// dense gated MLP of width fd. Counted as transformers builds the modules (MixtralSparseMoeBlock,
// Qwen2MoeSparseMoeBlock, Qwen3MoeSparseMoeBlock, OlmoeSparseMoeBlock).
struct Decoder {
    double vocab, h, layers, heads, kv, d, experts, topK, f, fs = 0, fd = 0;
    double qkvBias = 0; // 1: q, k, v biases (Qwen2)
    double qkNorm = 0;  // elements of the q and k norms per layer
    double sparse = -1; // layers with experts; -1: all
    double attention() const
    {
        return h * heads * d * 2 + 2 * h * kv * d + qkvBias * (heads * d + 2 * kv * d) + qkNorm;
    }
    double expertsPerLayer() const { return experts * 3 * h * f; }
    double moeLayer(double share) const
    {
        return h * experts + share * expertsPerLayer() + (fs > 0 ? 3 * h * fs + h : 0);
    }
    double count(double share) const
    {
        const double moeLayers = sparse < 0 ? layers : sparse;
        return 2 * vocab * h + h + layers * (attention() + 2 * h) + moeLayers * moeLayer(share)
            + (layers - moeLayers) * 3 * h * fd;
    }
    double total() const { return count(1.0); }
    double active() const { return count(topK / experts); }
};

// Mixtral-8x7B-v0.1 config.json: 32 layers, h 4096, 32 heads, 8 KV heads, 8 experts of width 14336, top-2.
const Decoder kMixtral { 32000, 4096, 32, 32, 8, 128, 8, 2, 14336 };
// Qwen3-30B-A3B: 48 layers, h 2048, 32 heads of 128, 4 KV heads, per-head q/k RMSNorm, 128 experts of 768, top-8.
const Decoder kQwen3Moe { 151936, 2048, 48, 32, 4, 128, 128, 8, 768, 0, 0, 0, 2 * 128 };
// Qwen1.5-MoE-A2.7B: 24 layers, h 2048, 16 heads, q/k/v biases, 60 experts of 1408, top-4, a shared expert of 5632.
const Decoder kQwen2Moe { 151936, 2048, 24, 16, 16, 128, 60, 4, 1408, 5632, 5632, 1 };
// OLMoE-1B-7B-0924: 16 layers, h 2048, 16 heads, q/k RMSNorm over the whole projection (2 x 2048), 64 experts of
// 1024, top-8.
const Decoder kOlmoe { 50304, 2048, 16, 16, 16, 128, 64, 8, 1024, 0, 0, 0, 2 * 2048 };

ModelSpec importedConfig(const char* checkpoint, json (*edit)(json) = nullptr)
{
    QFile f(QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/hf/%1/config.json").arg(QLatin1String(checkpoint)));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", checkpoint);
    json j = json::parse(f.readAll().toStdString());
    if (edit)
        j = edit(j);
    auto m = importHuggingFaceConfig(j.dump(), checkpoint, checkpoint);
    if (!m)
        qFatal("%s", m.error().toString().c_str());
    return *m;
}

TrainingConfig layout(int dp, int ep, int zero = 1, Precision p = Precision::MixedBF16)
{
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 1024;
    c.precision = p;
    c.attention = AttentionImpl::Fused;
    c.dataParallel = dp;
    c.expertParallel = ep;
    c.zeroStage = zero;
    return c;
}

Estimate run(const char* model, const TrainingConfig& c)
{
    return estimate(headroom::test::preset(model), headroom::test::gpu("h100-sxm5-80gb"), c, {},
                    headroom::test::fastOptions());
}

double category(const Estimate& e, MemoryCategory c) { return e.components[index(c)]; }

} // namespace

void TestMoe::presetCountsAreExact_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    QTest::addColumn<double>("closedForm");
    // Issue 11 gives Mixtral's 46,702,792,704; the Mixtral paper rounds it to "47B", 12.9B active ("13B").
    QTest::newRow("mixtral-8x7b") << QStringLiteral("mixtral-8x7b") << 46702792704.0 << 12879925248.0
                                  << kMixtral.total();
    // The Qwen3-30B-A3B model card: "30.5B in total and 3.3B activated".
    QTest::newRow("qwen3-30b-a3b") << QStringLiteral("qwen3-30b-a3b") << 30532122624.0 << 3353032704.0
                                   << kQwen3Moe.total();
}

void TestMoe::presetCountsAreExact()
{
    QFETCH(QString, model);
    QFETCH(double, total);
    QFETCH(double, active);
    QFETCH(double, closedForm);
    QCOMPARE(closedForm, total); // the hand count agrees with the published total
    const ModelSpec& m = headroom::test::preset(qPrintable(model));
    QCOMPARE(double(m.reference.parameters), total);
    const Estimate e = run(qPrintable(model), layout(1, 1, 0));
    QCOMPARE(e.parameters, total);
    QCOMPARE(e.activeParameters, active);
    const Decoder& d = model == QLatin1String("mixtral-8x7b") ? kMixtral : kQwen3Moe;
    QCOMPARE(d.active(), active);

    // The other two families through their config.json: Qwen2-MoE's shared expert and its sigmoid gate, OLMoE's
    // whole-projection q/k norms. Qwen1.5-MoE-A2.7B's card: 14.3B total, 2.7B activated; OLMoE paper: 6.9B, 1.3B.
    QCOMPARE(kQwen2Moe.total(), 14315784192.0);
    QCOMPARE(kOlmoe.total(), 6919161856.0);
    QCOMPARE(buildGraph(importedConfig("Qwen1.5-MoE-A2.7B"), layout(1, 1)).parameterCount(), kQwen2Moe.total());
    QCOMPARE(buildGraph(importedConfig("OLMoE-1B-7B-0924"), layout(1, 1)).parameterCount(), kOlmoe.total());
    QVERIFY(std::abs(kQwen2Moe.active() / 2.7e9 - 1) < 0.01);
    QVERIFY(std::abs(kOlmoe.active() / 1.3e9 - 1) < 0.02);
}

void TestMoe::modelFlopsFollowActiveExperts()
{
    // Mixtral is Mistral-7B (same attention, vocabulary, 32 layers) with each MLP replaced by 8 experts of the same
    // shape of which a token uses 2, plus a router h x 8. Model FLOPs (6 per parameter per token in its GEMMs,
    // Kaplan/Narayanan) differ by exactly one more expert and the router per layer per token.
    TrainingConfig c = layout(1, 1, 0);
    c.microBatch = 2;
    const Estimate mixtral = run("mixtral-8x7b", c);
    const Estimate mistral = run("mistral-7b", c);
    const double tokens = 2.0 * 1024;
    const double perLayer = 3.0 * 4096 * 14336 + 4096.0 * 8;
    QCOMPARE(mixtral.modelFlopsPerStep - mistral.modelFlopsPerStep, 6 * tokens * 32 * perLayer);
    // Memory holds every expert: the fp32 weights are 4 bytes per parameter of the total, not of the active count.
    QCOMPARE(category(mixtral, MemoryCategory::Weights), 4 * kMixtral.total());
}

void TestMoe::expertParallelKeepsExpertsOverEp()
{
    // Megatron (and Megatron-Bridge's estimator, PR #3744): under EP each rank holds the dense part whole and
    // experts / ep of every MoE layer's experts. Under ZeRO-1 the weights are not sharded, so that is the whole rule.
    const double experts = kMixtral.layers * kMixtral.expertsPerLayer();
    for (int ep : { 1, 2, 4, 8 }) {
        const Estimate e = run("mixtral-8x7b", layout(8, ep));
        QCOMPARE(category(e, MemoryCategory::Weights), 4 * (kMixtral.total() - experts + experts / ep));
        QCOMPARE(e.parametersPerGpu, kMixtral.total() - experts + experts / ep);
    }
    // Each EP rank keeps its own micro-batch and trades tokens, so the routed activations do not shrink with EP
    // (Megatron-LM PR #6782; next-round.md section 1.5).
    QCOMPARE(category(run("mixtral-8x7b", layout(8, 8)), MemoryCategory::Activations),
             category(run("mixtral-8x7b", layout(8, 1)), MemoryCategory::Activations));
    // Mixtral over 8 ranks with ep 8 holds one expert per layer: Mistral-7B's weights (keras-hub mistral_7b_en,
    // 7,241,732,096) and the routers, 32 x 4096 x 8.
    QCOMPARE(category(run("mixtral-8x7b", layout(8, 8)), MemoryCategory::Weights), 4 * (7241732096.0 + 32 * 4096 * 8));
}

void TestMoe::zeroOneOptimizerIsUnchangedByEp()
{
    // The dense part's optimizer state is sharded over the dp ranks, the experts' over the dp / ep ranks that hold
    // the same experts: (dense + experts / ep) / (dp / ep) ... = dense / dp + experts / dp, the same as without EP.
    // AdamW under autocast keeps exp_avg and exp_avg_sq in fp32: 8 bytes per parameter (ZeRO sec. 3.1: K = 12 less
    // the fp32 master copy, which autocast does not make).
    const double dp = 8;
    for (int ep : { 1, 4, 8 }) {
        const Estimate e = run("mixtral-8x7b", layout(8, ep));
        QCOMPARE(category(e, MemoryCategory::OptimizerStates), 8 * kMixtral.total() / dp);
    }
    // ZeRO-3 shards the weights the same way: every rank ends with total / dp.
    const Estimate z3 = run("mixtral-8x7b", layout(8, 4, 3));
    QCOMPARE(category(z3, MemoryCategory::Weights), 4 * kMixtral.total() / dp);
}

void TestMoe::allToAllBytes()
{
    // Each MoE layer sends every token's k copies (s b k h elements) out and back (dispatch, combine), forward and
    // backward: 4 k s b h bytes per layer, of which (ep - 1) / ep leave the rank (llm-analysis, Megatron's
    // alltoall token dispatcher). Pure bf16: 2 bytes per element.
    for (int ep : { 2, 4, 8 }) {
        const Estimate e = run("mixtral-8x7b", layout(8, ep, 1, Precision::PureBF16));
        const double perLayer = 4.0 * 2 * 1024 * 1 * 4096 * 2 * (ep - 1) / ep;
        QCOMPARE(e.expertParallelBytes, 32 * perLayer);
        QVERIFY(e.expertParallelSeconds > 0);
    }
    QCOMPARE(run("mixtral-8x7b", layout(8, 1, 1, Precision::PureBF16)).expertParallelBytes, 0.0);
}

void TestMoe::gradientsReduceOverTheirGroup()
{
    // DDP (ZeRO-0) all-reduces 2 (n - 1) / n of the gradient bytes per rank over a group of n (ZeRO sec. 7.2, NCCL
    // ring): the dense part over all dp ranks, each routed expert over the dp / ep ranks that hold it (Megatron's
    // expert data-parallel group). fp32 gradients under autocast.
    const double experts = kMixtral.layers * kMixtral.expertsPerLayer();
    const double dense = kMixtral.total() - experts;
    const double ring8 = 2.0 * 7 / 8, ring2 = 2.0 * 1 / 2;
    QCOMPARE(run("mixtral-8x7b", layout(8, 8, 0)).dataParallelBytes, ring8 * 4 * dense);
    QCOMPARE(run("mixtral-8x7b", layout(8, 4, 0)).dataParallelBytes, ring8 * 4 * dense + ring2 * 4 * experts / 4);
    QCOMPARE(run("mixtral-8x7b", layout(8, 1, 0)).dataParallelBytes, ring8 * 4 * kMixtral.total());
}

void TestMoe::sparseStepAndDenseLayers()
{
    // Qwen2-MoE's rule (Qwen2MoeDecoderLayer): layer l has experts when l is not in mlp_only_layers and
    // (l + 1) % decoder_sparse_step == 0; the others get a dense Qwen2MoeMLP of intermediate_size.
    Decoder d = kQwen2Moe;
    d.sparse = 23;
    QCOMPARE(buildGraph(importedConfig("Qwen1.5-MoE-A2.7B",
                                       [](json j) {
                                           j["mlp_only_layers"] = { 0 };
                                           return j;
                                       }),
                        layout(1, 1))
                 .parameterCount(),
             d.total());
    d.sparse = 12;
    QCOMPARE(buildGraph(importedConfig("Qwen1.5-MoE-A2.7B",
                                       [](json j) {
                                           j["decoder_sparse_step"] = 2;
                                           return j;
                                       }),
                        layout(1, 1))
                 .parameterCount(),
             d.total());
}

void TestMoe::badLayoutsAreRefused()
{
    struct Case {
        const char* model;
        int dp, ep;
        const char* says;
    };
    for (const Case& c :
         { Case { "gpt2", 4, 2, "has none" }, Case { "mixtral-8x7b", 6, 3, "must divide the 8 experts" },
           Case { "mixtral-8x7b", 2, 4, "must divide data_parallel" } }) {
        Scenario s;
        s.gpuId = "h100-sxm5-80gb";
        s.modelId = c.model;
        s.config = layout(c.dp, c.ep);
        const auto r = simulate(headroom::test::catalog(), s);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, std::string("expert_parallel"));
        QVERIFY2(r.error().message.find(c.says) != std::string::npos, r.error().message.c_str());
    }
}

void TestMoe::scenarioKeepsExpertParallel()
{
    ScenarioDocument d;
    d.scenario.gpuId = "h100-sxm5-80gb";
    d.scenario.modelId = "qwen3-30b-a3b";
    d.scenario.config = layout(16, 8);
    const auto back = parseScenario(serializeScenario(d), "test");
    QVERIFY(back.ok());
    QCOMPARE(back->scenario.config.expertParallel, 8);
    QVERIFY(simulate(headroom::test::catalog(), back->scenario).ok());
}

void TestMoe::cliRefusesEpOnADenseModel()
{
    const auto dense = ::test::runHeadroom(
        QStringLiteral("estimate --gpu h100-sxm5-80gb --model llama-2-7b --dp 8 --ep 2").split(QLatin1Char(' ')));
    QCOMPARE(dense.code, 2);
    QVERIFY2(dense.err.contains("expert"), dense.err.constData());
    const auto ok = ::test::runHeadroom(
        QStringLiteral("estimate --gpu h100-sxm5-80gb --model mixtral-8x7b --dp 8 --ep 8 --json")
            .split(QLatin1Char(' ')));
    QCOMPARE(ok.code, 0);
    const json j = json::parse(ok.out.toStdString());
    QCOMPARE(j["parallelism"]["ep"].get<int>(), 8);
    QCOMPARE(j["active_parameters"].get<double>(), 12879925248.0);
    QVERIFY(j["time"]["communication"]["expert_parallel"]["bytes"].get<double>() > 0);
}

void TestMoe::plannerSplitsTheExperts()
{
    // `headroom plan` tries every ep that divides dp and the experts; a layout with --ep, its options added to
    // `estimate`, reproduces its figures exactly (issue 11's contract), and ep never exceeds dp.
    const QString base = QStringLiteral("--gpu h100-sxm5-80gb --model mixtral-8x7b --seq 4096");
    const auto r = ::test::runHeadroom(
        (QStringLiteral("plan --gpus 16 --gpus-per-node 8 --global-batch 32 --json ") + base).split(QLatin1Char(' ')));
    QCOMPARE(r.code, 0);
    const json j = json::parse(r.out.toStdString());
    int withEp = 0;
    for (const json& l : j["layouts"]) {
        const json& o = l["options"];
        if (!o.contains("--ep"))
            continue;
        const int ep = std::stoi(o["--ep"].get<std::string>());
        QVERIFY(std::stoi(o["--dp"].get<std::string>()) % ep == 0);
        QVERIFY(8 % ep == 0);
        if (withEp++ > 0)
            continue;
        QStringList args = (QStringLiteral("estimate --json ") + base).split(QLatin1Char(' '));
        for (auto it = o.begin(); it != o.end(); ++it) {
            args << QString::fromStdString(it.key());
            if (!it.value().get<std::string>().empty())
                args << QString::fromStdString(it.value().get<std::string>());
        }
        const auto e = ::test::runHeadroom(args);
        QCOMPARE(e.code, 0);
        const json est = json::parse(e.out.toStdString());
        QCOMPARE(est["parallelism"]["ep"].get<int>(), ep);
        QCOMPARE(est["memory"]["peak"].get<std::int64_t>(), l["peak_bytes"].get<std::int64_t>());
        QCOMPARE(est["step_time_seconds"].get<double>(), l["step_time_seconds"].get<double>());
    }
    QVERIFY(withEp > 0);
}

QTEST_GUILESS_MAIN(TestMoe)
#include "tst_moe.moc"
