// FLOPs and bytes of the operator graph against published counts: Narayanan et al. 2021, NVIDIA's arithmetic
// intensity examples, nanoGPT's MFU formula and torchvision's per-model operation counts.

#include "graphbuilder.h"
#include "lowering.h"
#include "modelgraph.h"
#include "testsupport.h"

using namespace headroom;

class TestFlops : public QObject {
    Q_OBJECT

private slots:
    void narayananModelFlops_data();
    void narayananModelFlops();
    void narayananWithFullRecompute();
    void gemmArithmeticIntensity_data();
    void gemmArithmeticIntensity();
    void linearLayerIntensity_data();
    void linearLayerIntensity();
    void nanoGptFlopsPerToken();
    void torchvisionOperationCounts_data();
    void torchvisionOperationCounts();
    void rooflineTimeIsMaxOfComputeAndMemory();
};

namespace {

// Narayanan et al. count matmuls only; without biases every Linear step is a pure GEMM.
ModelSpec gptWithoutBiases(int layers, int hidden, int heads)
{
    ModelSpec m = test::gptModel(layers, hidden, heads, 51200, 2048, 0.0);
    m.transformer.qkvBias = m.transformer.outBias = m.transformer.ffnBias = false;
    return m;
}

double matmulFlops(const Schedule& s, const Graph& g, bool includeRecompute)
{
    double f = 0.0;
    for (const Step& st : s.steps) {
        if (st.op < 0 || (st.recompute && !includeRecompute))
            continue;
        const OpType t = g.ops[st.op].type;
        if (t == OpType::Linear || t == OpType::Matmul)
            f += st.cost.flops.at(1.0);
    }
    return f;
}

} // namespace

void TestFlops::narayananModelFlops_data()
{
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    // Narayanan et al. 2021, Table 1 rows (s = 2048, V = 51200).
    QTest::newRow("1.7B") << 2304 << 24 << 24;
    QTest::newRow("3.6B") << 3072 << 30 << 32;
    QTest::newRow("7.5B") << 4096 << 36 << 32;
}

void TestFlops::narayananModelFlops()
{
    QFETCH(int, hidden);
    QFETCH(int, layers);
    QFETCH(int, heads);
    const double s = 2048, V = 51200, h = hidden, L = layers, B = 1;
    const ModelSpec m = gptWithoutBiases(layers, hidden, heads);
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 2048;
    c.attention = AttentionImpl::Eager;
    const Graph g = buildGraph(m, c);
    const Schedule sched = lowerTrainingStep(g, c);
    // Without recomputation: F = 72 B s L h^2 (1 + s/6h + V/12Lh) (Narayanan et al. 2021, sec. 5.1).
    const double expected = 72.0 * B * s * L * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * L * h));
    QCOMPARE_LT(std::abs(sched.modelFlops.at(1.0) - expected) / expected, 1e-12);
    QCOMPARE_LT(std::abs(matmulFlops(sched, g, false) - expected) / expected, 1e-12);
}

void TestFlops::narayananWithFullRecompute()
{
    // With full recomputation: F = 96 B s L h^2 (1 + s/6h + V/16Lh); the 1.7B row at B = 512 gives
    // 1.5467e16 FLOP per iteration (docs/references/roofline.md, A11).
    const ModelSpec m = gptWithoutBiases(24, 2304, 24);
    TrainingConfig c;
    c.microBatch = 512;
    c.sequenceLength = 2048;
    c.attention = AttentionImpl::Eager;
    c.checkpointing = Checkpointing::Full;
    const Graph g = buildGraph(m, c);
    const Schedule sched = lowerTrainingStep(g, c);
    const double s = 2048, V = 51200, h = 2304, L = 24, B = 512;
    const double expected = 96.0 * B * s * L * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * L * h));
    const double got = matmulFlops(sched, g, true) * B;
    QCOMPARE_LT(std::abs(got - expected) / expected, 1e-12);
    QCOMPARE_LT(std::abs(got - 1.5467e16) / 1.5467e16, 1e-4);
}

void TestFlops::gemmArithmeticIntensity_data()
{
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("expected");
    // NVIDIA "Matrix Multiplication Background User's Guide": AI = MNK / (MK + NK + MN) for FP16.
    QTest::newRow("8192x128x8192") << 8192.0 << 128.0 << 8192.0 << 124.12;
    QTest::newRow("8192^3") << 8192.0 << 8192.0 << 8192.0 << 2730.67;
}

void TestFlops::gemmArithmeticIntensity()
{
    QFETCH(double, m);
    QFETCH(double, n);
    QFETCH(double, k);
    QFETCH(double, expected);
    const OpCost c = gemmCost(m, n, k, 2, 2, 2);
    QCOMPARE_LT(std::abs(arithmeticIntensity(c) - expected), 0.005);
}

void TestFlops::linearLayerIntensity_data()
{
    QTest::addColumn<double>("batch");
    QTest::addColumn<double>("expected");
    // NVIDIA "GPU Performance Background User's Guide" (FP16): linear layer, 4096 outputs, 1024 inputs.
    QTest::newRow("batch 512") << 512.0 << 315.08;
    QTest::newRow("batch 1") << 1.0 << 0.9988;
}

void TestFlops::linearLayerIntensity()
{
    QFETCH(double, batch);
    QFETCH(double, expected);
    TrainingConfig c;
    c.precision = Precision::PureBF16;
    Graph g;
    GraphBuilder b(g, planPrecision(c));
    const TensorId x = b.input("x", DType::BF16, 1024);
    const TensorId w = b.parameter("w", 1024.0 * 4096.0, true, 1024, 4096);
    b.linear(x, w, kNoTensor, 1.0, 1024, 4096, "fc");
    QCOMPARE_LT(std::abs(arithmeticIntensity(g.ops.back().forward, batch) - expected), 0.005); // 2-decimal rounding
    // ReLU in FP16 reads and writes two bytes for one operation: 0.25 FLOP/B (same guide).
    b.unary(x, UnaryFn::Relu, "relu");
    QCOMPARE(arithmeticIntensity(g.ops.back().forward, batch), 0.25);
}

void TestFlops::nanoGptFlopsPerToken()
{
    // nanoGPT model.py estimate_mfu: flops per token = 6N + 12 L H Q T, N = 123,653,376 parameters without the
    // position embedding: 855.17 MFLOP per token for GPT-2 124M at T = 1024 (docs/references/roofline.md, A12).
    // nanoGPT's 6N also counts biases and LayerNorm weights, which run no matmul: allow 0.2 %.
    const ModelSpec& m = test::preset("gpt2");
    TrainingConfig c;
    c.sequenceLength = 1024;
    const Schedule s = lowerTrainingStep(buildGraph(m, c), c);
    const double perToken = s.modelFlops.at(1.0) / 1024.0;
    QCOMPARE_LT(std::abs(perToken - 855.17e6) / 855.17e6, 2e-3);
}

void TestFlops::torchvisionOperationCounts_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("gmacs");
    QTest::addColumn<double>("tolerance");
    // torchvision model documentation, "GFLOPS" at 224 x 224, which counts multiply-accumulates
    // (pytorch-OpCounter issue #46; timm's resnet50 card lists 4.1 GMACs). Tolerance = the figure's rounding.
    QTest::newRow("resnet50 4.09") << QStringLiteral("resnet50") << 4.09 << 0.005;
    QTest::newRow("vit_b_16 17.56") << QStringLiteral("vit-b-16") << 17.56 << 0.005;
    QTest::newRow("efficientnet_b0 0.39") << QStringLiteral("efficientnet-b0") << 0.39 << 0.005;
    QTest::newRow("mobilenet_v2 0.30") << QStringLiteral("mobilenet-v2") << 0.30 << 0.005;
}

void TestFlops::torchvisionOperationCounts()
{
    QFETCH(QString, id);
    QFETCH(double, gmacs);
    QFETCH(double, tolerance);
    const ModelSpec& m = test::preset(id.toStdString().c_str());
    TrainingConfig c;
    c.sequenceLength = 224;
    const Schedule s = lowerTrainingStep(buildGraph(m, c), c);
    const double forwardMacs = s.modelFlops.at(1.0) / 3.0 / 2.0 / 1e9;
    QVERIFY2(std::abs(forwardMacs - gmacs) <= tolerance + 1e-9,
             qPrintable(QStringLiteral("%1 GMACs, torchvision says %2").arg(forwardMacs).arg(gmacs)));
}

void TestFlops::rooflineTimeIsMaxOfComputeAndMemory()
{
    // Williams et al. 2009: attainable = min(peak, bandwidth x intensity). For every operator group the estimate's
    // achieved FLOP/s never exceeds either roof.
    const Estimate e = estimate(test::preset("gpt2"), test::gpu("a100-sxm4-80gb"), TrainingConfig {}, {},
                                test::fastOptions());
    for (const auto& p : e.operatorPoints) {
        if (p.seconds <= 0 || p.flops <= 0)
            continue;
        const double roofCompute = e.gpu.peakFlopsPerSecond[int(p.unit)];
        QCOMPARE_LE(p.achievedFlopsPerSecond(), roofCompute * 1.000001);
        QCOMPARE_LE(p.achievedFlopsPerSecond(), e.gpu.bandwidthBytesPerSecond * p.intensity() * 1.000001);
    }
    QCOMPARE_LE(e.wholeStep.achievedFlopsPerSecond(), e.gpu.bandwidthBytesPerSecond * e.wholeStep.intensity());
}

QTEST_APPLESS_MAIN(TestFlops)
#include "tst_flops.moc"
