// Model-state memory under ZeRO, from the simulator's timeline, against the ZeRO paper and DeepSpeed's estimator.

#include "explain.h"
#include "lowering.h"
#include "modelgraph.h"
#include "simulate.h"
#include "testsupport.h"

using namespace headroom;

class TestZero : public QObject {
    Q_OBJECT

private slots:
    void modelStatesPerDevice_data();
    void modelStatesPerDevice();
    void deepSpeedZero3Estimate_data();
    void deepSpeedZero3Estimate();
    void autocastAdamIsSixteenBytesPerParameter();
    void offloadRemovesOptimizerStates();
    void adamImplementationsTemporaries();
    void eightBitAdamState();
    void pagedOptimizerStatesAreHostMemory();
    void zero3AutocastKeepsFullWeightCopies();
};

namespace {

// Narayanan et al. 2021, Table 1, the 7.5B row: h = 4096, 36 layers, 32 heads, V = 51200, s = 2048.
ModelSpec gpt7b5() { return test::gptModel(36, 4096, 32, 51200, 2048, 0.0); }

TrainingConfig zeroConfig(int stage, int ranks)
{
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 2048;
    c.precision = Precision::MixedFP16;
    c.mixedStyle = MixedPrecisionStyle::MasterWeights;
    c.masterGradients = GradientStorage::Low; // the paper's 2 bytes of FP16 gradients
    c.optimizer = OptimizerKind::Adam;
    c.zeroStage = stage;
    c.dataParallel = ranks;
    return c;
}

double modelStates(const Estimate& e)
{
    return e.components[index(MemoryCategory::Weights)] + e.components[index(MemoryCategory::Gradients)]
        + e.components[index(MemoryCategory::OptimizerStates)];
}

} // namespace

void TestZero::modelStatesPerDevice_data()
{
    QTest::addColumn<int>("stage");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<double>("expectedGB");
    // Rajbhandari et al. 2020 (ZeRO), Figure 1: 7.5B parameters, Nd = 64, K = 12; GB = 1e9 bytes.
    QTest::newRow("Fig1 baseline") << 0 << 64 << 120.0;
    QTest::newRow("Fig1 P_os") << 1 << 64 << 31.4;
    QTest::newRow("Fig1 P_os+g") << 2 << 64 << 16.6;
    QTest::newRow("Fig1 P_os+g+p") << 3 << 64 << 1.88;
    // The same formulas at other degrees of data parallelism (ZeRO paper Table 1 values for 7.5B).
    QTest::newRow("Nd=4 P_os") << 1 << 4 << 52.5;
    QTest::newRow("Nd=4 P_os+g") << 2 << 4 << 41.3;
    QTest::newRow("Nd=4 P_os+g+p") << 3 << 4 << 30.0;
    QTest::newRow("Nd=16 P_os+g+p") << 3 << 16 << 7.5;
    QTest::newRow("Nd=1024 P_os") << 1 << 1024 << 30.1;
    QTest::newRow("Nd=1024 P_os+g+p") << 3 << 1024 << 0.12;
}

void TestZero::modelStatesPerDevice()
{
    QFETCH(int, stage);
    QFETCH(int, ranks);
    QFETCH(double, expectedGB);
    const Estimate e = estimate(gpt7b5(), test::gpu("a100-sxm4-80gb"), zeroConfig(stage, ranks), {},
                                test::fastOptions());
    // The test model has 7.46e9 parameters; the paper rounds to 7.5e9. Compare bytes per parameter scaled to 7.5B.
    const double scaled = modelStates(e) / e.parameters * 7.5e9 / 1e9;
    const double tolerance = std::max(0.005 * expectedGB, 0.01); // the figure's own rounding
    QVERIFY2(std::abs(scaled - expectedGB) <= tolerance,
             qPrintable(QStringLiteral("got %1 GB, expected %2 GB").arg(scaled).arg(expectedGB)));
}

void TestZero::deepSpeedZero3Estimate_data()
{
    QTest::addColumn<int>("ranks");
    QTest::addColumn<double>("expectedGiB");
    // transformers DeepSpeed docs, estimate_zero3_model_states_mem_needs_all_live(bigscience/T0_3B):
    // "2783M total params, 65M largest layer params", per GPU without offload: 46.91 GiB on 1 GPU,
    // 23.58 GiB on 2 GPUs. DeepSpeed's formula is 4 * largest_layer + 18 * params / gpus.
    QTest::newRow("1 GPU") << 1 << 46.91;
    QTest::newRow("2 GPUs") << 2 << 23.58;
}

void TestZero::deepSpeedZero3Estimate()
{
    QFETCH(int, ranks);
    QFETCH(double, expectedGiB);
    // A stand-in with T0_3B's size: 2,783,676,416 parameters (DeepSpeed prints 2783M), the largest layer the
    // 32128 x 2048 embedding (65.8M; DeepSpeed prints 65M).
    ModelSpec m = test::gptModel(56, 2048, 32, 32128, 0, 0.0);
    auto& t = m.transformer;
    t.ffn = 5168;
    t.gatedFfn = true;
    t.activation = Activation::Silu;
    t.norm = NormKind::RMSNorm;
    t.position = PositionKind::Rotary;
    t.qkvBias = t.outBias = t.ffnBias = t.normBias = false;
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 512;
    c.precision = Precision::MixedFP16;
    c.mixedStyle = MixedPrecisionStyle::MasterWeights;
    c.masterGradients = GradientStorage::FP32; // DeepSpeed keeps an FP32 gradient partition for the optimizer
    c.optimizer = OptimizerKind::Adam;
    c.zeroStage = 3;
    c.dataParallel = ranks;
    const Graph g = buildGraph(m, c);
    QCOMPARE(qint64(g.parameterCount()), qint64(2783676416));
    const Schedule s = lowerTrainingStep(g, c);
    // Model states are the batch-independent part of memory: the peak at micro-batch 0, no overhead.
    const double fixedPeak = peakBytes(s, 0.0, 0.0, 0.0) / 1073741824.0;
    QVERIFY2(std::abs(fixedPeak - expectedGiB) <= 0.01,
             qPrintable(QStringLiteral("got %1 GiB, expected %2 GiB").arg(fixedPeak).arg(expectedGiB)));
}

void TestZero::autocastAdamIsSixteenBytesPerParameter()
{
    // PyTorch autocast keeps FP32 weights (4), FP32 gradients (4) and FP32 Adam moments (8): 16 bytes per
    // parameter, the "16P" of EleutherAI's Transformer Math 101, plus the 2-byte autocast copies of the
    // matmul weights.
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 128;
    c.precision = Precision::MixedBF16;
    const ModelSpec& m = test::preset("gpt2");
    const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(modelStates(e) / e.parameters, 16.0);
}

void TestZero::offloadRemovesOptimizerStates()
{
    TrainingConfig c = zeroConfig(2, 8);
    c.offloadOptimizer = true;
    const Estimate e = estimate(gpt7b5(), test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(e.components[index(MemoryCategory::OptimizerStates)], 0.0);
    QCOMPARE(e.components[index(MemoryCategory::Weights)], e.parameters * 2.0);
    QCOMPARE_GT(e.offloadSeconds, 0.0);
}

void TestZero::adamImplementationsTemporaries()
{
    // Issue 13: "7B foreach temporaries are about 25 GiB". Under autocast Llama-2-7B's FP32 states are stepped by
    // torch.optim.AdamW: foreach's _foreach_sqrt allocates a state-sized temporary for every parameter at once
    // (4 B x 6,738,415,616 = 25.1 GiB); the for-loop one at a time, sqrt and quotient of the largest (the 32000 x
    // 4096 embedding: 2 x 4 B x 131,072,000); fused none (torch/optim/adamw.py, _multi_tensor/_single_tensor/_fused).
    auto temporaries = [](AdamImpl impl) {
        TrainingConfig c;
        c.microBatch = 1;
        c.sequenceLength = 128;
        c.precision = Precision::MixedBF16;
        c.adamImpl = impl;
        const Estimate e = estimate(test::preset("llama-2-7b"), test::gpu("h100-sxm5-80gb"), c, {},
                                    test::fastOptions());
        return e.phasePeaks[int(Phase::Optimizer)].atPeak[index(MemoryCategory::Transient)];
    };
    const double fused = temporaries(AdamImpl::Fused);
    QCOMPARE(temporaries(AdamImpl::Foreach) - fused, 4.0 * 6738415616.0);
    QCOMPARE(temporaries(AdamImpl::ForLoop) - fused, 2.0 * 4.0 * 131072000.0);
}

void TestZero::eightBitAdamState()
{
    // bitsandbytes AdamW8bit (optim/optimizer.py @95f9af3, Optimizer2State.init_state): uint8 m and v plus an FP32
    // absmax per 256-element block = 2.03125 B per parameter; every Llama-2-7B tensor has at least min_8bit_size =
    // 4096 elements (next-round.md item 25).
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 128;
    c.precision = Precision::MixedBF16;
    c.optimizer = OptimizerKind::AdamW8bit;
    const Estimate e = estimate(test::preset("llama-2-7b"), test::gpu("h100-sxm5-80gb"), c, {}, test::fastOptions());
    QCOMPARE(e.components[index(MemoryCategory::OptimizerStates)], 2.03125 * 6738415616.0);
    // GPT-2's 768-element LayerNorm and bias vectors are below 4096: they keep two FP32 states, 8 B each.
    const Estimate g = estimate(test::preset("gpt2"), test::gpu("h100-sxm5-80gb"), c, {}, test::fastOptions());
    QCOMPARE_GT(g.components[index(MemoryCategory::OptimizerStates)], 2.03125 * g.parameters);
}

void TestZero::pagedOptimizerStatesAreHostMemory()
{
    // bitsandbytes' paged optimizers allocate the same states in CUDA unified memory (QLoRA, Dettmers et al. 2023,
    // sec. 3): Headroom counts them as host memory, outside the GPU's peak. PagedAdamW keeps two FP32 states
    // (8 B per parameter), PagedAdamW8bit bitsandbytes' 2.03125 B.
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 128;
    c.precision = Precision::PureBF16;
    const ModelSpec& m = test::preset("llama-2-7b");
    const GpuSpec& gpu = test::gpu("h100-sxm5-80gb");
    c.optimizer = OptimizerKind::AdamW8bit;
    const Estimate onGpu = estimate(m, gpu, c, {}, test::fastOptions());
    c.optimizer = OptimizerKind::PagedAdamW8bit;
    const Estimate paged = estimate(m, gpu, c, {}, test::fastOptions());
    QCOMPARE(paged.components[index(MemoryCategory::OptimizerStates)], 0.0);
    QCOMPARE(paged.hostBytes, 2.03125 * 6738415616.0);
    QCOMPARE(onGpu.hostBytes, 0.0);
    QVERIFY(paged.peakBytes < onGpu.peakBytes);
    QCOMPARE(int(paged.warnings.back().kind), int(EstimateWarning::Kind::PagedOptimizer));
    c.optimizer = OptimizerKind::PagedAdamW;
    QCOMPARE(estimate(m, gpu, c, {}, test::fastOptions()).hostBytes, 8.0 * 6738415616.0);
}

void TestZero::zero3AutocastKeepsFullWeightCopies()
{
    // torch.autocast caches the 16-bit cast of an FP32 weight that is a leaf requiring grad and not a view
    // (aten/src/ATen/autocast_mode.cpp, cached_cast) until the forward pass leaves autocast. DeepSpeed ZeRO-3
    // gathers each layer's parameters into the same leaf nn.Parameter objects, so every layer's cast stays: at the
    // end of the forward pass each GPU holds the whole 16-bit copy, however many ranks shard the FP32 weights.
    // Llama-2-7B's matmul weights: 32 x (4 x 4096^2 + 3 x 4096 x 11008) + 32000 x 4096 (lm_head) = 6,607,077,376
    // elements, 2 bytes each (the embedding is a lookup, never cast).
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 512;
    c.precision = Precision::MixedBF16;
    c.zeroStage = 3;
    c.dataParallel = 8;
    const Estimate e = estimate(test::preset("llama-2-7b"), test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(e.components[index(MemoryCategory::WeightCopies)], 6607077376.0 * 2.0);
    QCOMPARE(e.components[index(MemoryCategory::Weights)], 6738415616.0 * 4.0 / 8.0); // the FP32 shard
    // The Explain panel says why.
    Scenario sc;
    sc.gpuId = "a100-sxm4-80gb";
    sc.modelId = "llama-2-7b";
    sc.config = c;
    const auto r = simulate(test::catalog(), sc);
    QVERIFY(r.ok());
    QCOMPARE(int(explainCategory(*r, MemoryCategory::WeightCopies).note),
             int(CategoryExplanation::Note::GatheredCasts));
    // With 16-bit weights and an FP32 master copy (DeepSpeed bf16, FSDP MixedPrecision) nothing is cast.
    c.mixedStyle = MixedPrecisionStyle::MasterWeights;
    const Estimate m = estimate(test::preset("llama-2-7b"), test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(m.components[index(MemoryCategory::WeightCopies)], 0.0);
}

QTEST_APPLESS_MAIN(TestZero)
#include "tst_zero.moc"
