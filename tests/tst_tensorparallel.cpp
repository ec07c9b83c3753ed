// Megatron tensor parallelism in the operator graph (--tp): each rank builds its share of the blocks (heads, key/
// value groups, FFN channels and vocabulary rows split t ways; norms and row-parallel biases whole), so memory per
// GPU, parameter counts and the all-reduces follow from the graph. Activations are held to Korthikanti et al. 2022
// in tst_activations (korthikantiTensorParallel); here the parameters, weights, communication and time.

#include "scenario.h"
#include "simulate.h"
#include "testsupport.h"

#include <cmath>

using namespace headroom;

class TestTensorParallel : public QObject {
    Q_OBJECT

private slots:
    void parametersPerGpuAreTheShards();
    void allReducesPerLayer();
    void nvlinkBeatsPcie();
    void scenarioKeepsTheSplit();
};

namespace {

Estimate run(const char* model, const char* gpu, int tp, Precision p = Precision::MixedBF16)
{
    TrainingConfig c;
    c.microBatch = 4;
    c.sequenceLength = 1024;
    c.precision = p;
    c.tensorParallel = tp;
    return estimate(test::preset(model), test::gpu(gpu), c, {}, test::fastOptions());
}

} // namespace

void TestTensorParallel::parametersPerGpuAreTheShards()
{
    // GPT-2 small per block: LayerNorms 4 x 768 and the two row-parallel biases 2 x 768 stay whole on each rank;
    // c_attn (768 x 2304 + 2304), attn c_proj (768 x 768), c_fc (768 x 3072 + 3072) and mlp c_proj (3072 x 768)
    // are split: 4608 + 7,083,264 / t per block. The embedding's rows are split (ceil(50257 / t), Megatron pads the
    // vocabulary so that t divides it), the 1024 x 768 positions and the final norm stay whole.
    for (int t : { 2, 4 }) {
        const Estimate e = run("gpt2", "a100-sxm4-80gb", t);
        const double perGpu = 12 * (4608 + 7083264.0 / t) + std::ceil(50257.0 / t) * 768 + 786432 + 1536;
        QCOMPARE(e.parametersPerGpu, perGpu);
        // Autocast keeps FP32 weights: 4 bytes per parameter this GPU holds.
        QCOMPARE(e.components[index(MemoryCategory::Weights)], 4.0 * perGpu);
        // The whole model: every shard once, the vocabulary's padding rows included.
        QCOMPARE(e.parameters, 124439808.0 + (std::ceil(50257.0 / t) * t - 50257) * 768);
    }
    QCOMPARE(run("gpt2", "a100-sxm4-80gb", 1).parameters, 124439808.0); // GPT2LMHeadModel, tied weights
}

void TestTensorParallel::allReducesPerLayer()
{
    // Per block and micro-batch: the attention and MLP outputs all-reduced in forward, the gradients of their
    // inputs in backward (Megatron's g and f operators): 4 messages of b x s x h. BF16 autocast writes the
    // row-parallel outputs in BF16; the gradients of the LayerNorm outputs feeding the column-parallel linears are
    // FP32 (layer_norm runs in FP32 under autocast). Plus the embedding's output (FP32) in forward and the final
    // norm output's gradient (FP32) in backward. A ring all-reduce moves 2 (t - 1) / t of each message per rank.
    const double b = 4, s = 1024, h = 768, L = 12;
    for (int t : { 2, 8 }) {
        const Estimate e = run("gpt2", "a100-sxm4-80gb", t);
        const double messages = L * b * s * h * (2 + 2 + 4 + 4) + b * s * h * (4 + 4);
        const double ring = 2.0 * (t - 1) / t;
        QCOMPARE(e.schedule->tpCommBytesPerMicroBatch.at(b), messages * ring);
        // The same messages as calls: 4 per block, the embedding's and the final norm's; each pays NCCL's ring
        // latency, 8.4 us plus 2 (t - 1) NVLink steps of 3.4 us (src/graph/tuning.cc, Ring/Simple).
        QCOMPARE(e.schedule->tpCallsPerMicroBatch, 4 * L + 2);
        QVERIFY(std::abs(e.communicationLatencySeconds / ((4 * L + 2) * (8.4e-6 + 2 * (t - 1) * 3.4e-6)) - 1) < 1e-9);
    }
    QCOMPARE(run("gpt2", "a100-sxm4-80gb", 1).schedule->tpCommBytesPerMicroBatch.at(4.0), 0.0);
}

void TestTensorParallel::nvlinkBeatsPcie()
{
    // The same split costs more on PCIe than on NVLink, all of it on the critical path.
    const Estimate nv = run("llama-2-7b", "a100-sxm4-80gb", 4);
    const Estimate pcie = run("llama-2-7b", "a100-pcie-80gb", 4);
    QVERIFY(nv.tensorParallelSeconds > 0.0);
    QVERIFY(pcie.tensorParallelSeconds > 3.0 * nv.tensorParallelSeconds);
    QCOMPARE(nv.exposedCommunicationSeconds, nv.tensorParallelSeconds); // one data-parallel rank: nothing else
    // Splitting 4 ways holds about a quarter of the weights per GPU and fewer activations.
    const Estimate one = run("llama-2-7b", "a100-sxm4-80gb", 1);
    QVERIFY(nv.components[index(MemoryCategory::Weights)] < 0.26 * one.components[index(MemoryCategory::Weights)]);
    QVERIFY(nv.components[index(MemoryCategory::Activations)] < one.components[index(MemoryCategory::Activations)]);
}

void TestTensorParallel::scenarioKeepsTheSplit()
{
    ScenarioDocument d;
    d.scenario.gpuId = "h100-sxm5-80gb";
    d.scenario.modelId = "llama-2-7b";
    d.scenario.config.tensorParallel = 8;
    const auto back = parseScenario(serializeScenario(d), "test");
    QVERIFY(back.ok());
    QCOMPARE(back->scenario.config.tensorParallel, 8);
    // Bad values are refused by field name.
    d.scenario.config.tensorParallel = 3;
    const auto r = simulate(test::catalog(), d.scenario);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().field, std::string("tensor_parallel"));
}

QTEST_GUILESS_MAIN(TestTensorParallel)
#include "tst_tensorparallel.moc"
