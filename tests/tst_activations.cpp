// Activations saved for backward, from the simulator's timeline, against Korthikanti et al. 2022 (Table 2) and
// against what PyTorch autograd really saves (counted with torch.autograd.graph.saved_tensors_hooks).

#include "lowering.h"
#include "modelgraph.h"
#include "testsupport.h"

using namespace headroom;

class TestActivations : public QObject {
    Q_OBJECT

private slots:
    void korthikantiPerLayer_data();
    void korthikantiPerLayer();
    void korthikantiTensorParallel_data();
    void korthikantiTensorParallel();
    void fusedAttentionDropsTheQuadraticTerm();
    void checkpointingOrdersTheFootprint();
};

namespace {

// Activations at the end of the forward pass (memory.activations) for a micro-batch.
double activations(const ModelSpec& m, const TrainingConfig& c)
{
    const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    return e.components[index(MemoryCategory::Activations)];
}

double perLayer(ModelSpec m, const TrainingConfig& c)
{
    m.transformer.layers = 2;
    const double two = activations(m, c);
    m.transformer.layers = 1;
    return two - activations(m, c);
}

} // namespace

void TestActivations::korthikantiPerLayer_data()
{
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("seq");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("layers");
    QTest::addColumn<QString>("checkpointing");
    QTest::addColumn<double>("expectedBytes");
    // Korthikanti et al. 2022, Table 2 (16-bit activations, 1-byte dropout masks), no tensor parallelism:
    // no recomputation sbh(34 + 5as/h), selective recomputation 34sbh, full recomputation 2sbh, per layer.
    // GPT-3 175B (s = 2048, b = 1, h = 12288, a = 96): 2736 MiB per layer without recomputation, 48 MiB with full.
    QTest::newRow("GPT-3 175B, none") << 12288 << 96 << 2048 << 1 << 1 << QStringLiteral("none") << 2736.0 * 1048576.0;
    QTest::newRow("GPT-3 175B, full") << 12288 << 96 << 2048 << 1 << 1 << QStringLiteral("full") << 48.0 * 1048576.0;
    // GPT-2 small (s = 1024, h = 768, a = 12, b = 1), 12 layers: 1075.8 MB without recomputation, 320.9 MB with
    // selective recomputation (docs/references/peers.md, sec. 5.2 J).
    QTest::newRow("GPT-2 small, none") << 768 << 12 << 1024 << 1 << 12 << QStringLiteral("none") << 1075.8e6;
    QTest::newRow("GPT-2 small, selective") << 768 << 12 << 1024 << 1 << 12 << QStringLiteral("selective") << 320.9e6;
    // The closed form itself at another shape, batch 4.
    const double s = 512, b = 4, h = 1024, a = 16;
    QTest::newRow("formula, none") << 1024 << 16 << 512 << 4 << 1 << QStringLiteral("none")
                                   << s * b * h * (34 + 5 * a * s / h);
    QTest::newRow("formula, selective") << 1024 << 16 << 512 << 4 << 1 << QStringLiteral("selective") << s * b * h * 34;
    QTest::newRow("formula, full") << 1024 << 16 << 512 << 4 << 1 << QStringLiteral("full") << 2 * s * b * h;
}

void TestActivations::korthikantiPerLayer()
{
    QFETCH(int, hidden);
    QFETCH(int, heads);
    QFETCH(int, seq);
    QFETCH(int, batch);
    QFETCH(int, layers);
    QFETCH(QString, checkpointing);
    QFETCH(double, expectedBytes);
    // The paper's layer: 16-bit weights and activations (no autocast copies), eager attention with dropout on the
    // probabilities, dropout after both projections.
    const ModelSpec m = test::gptModel(layers, hidden, heads, 50257, seq, 0.1);
    TrainingConfig c;
    c.microBatch = batch;
    c.sequenceLength = seq;
    c.precision = Precision::PureBF16;
    c.attention = AttentionImpl::Eager;
    c.checkpointing = *checkpointingFromString(checkpointing.toStdString());
    const double got = perLayer(m, c) * layers;
    // PyTorch's layer_norm also saves FP32 mean and rstd: 8 bytes per token for each of the two norms. The paper
    // leaves these out; the full-recomputation checkpoint keeps only the layer input.
    const double lnStats = c.checkpointing == Checkpointing::Full ? 0.0 : 16.0 * seq * batch * layers;
    const double tolerance = expectedBytes * 5e-4; // the table's rounding (4 significant digits)
    QVERIFY2(std::abs(got - lnStats - expectedBytes) <= tolerance,
             qPrintable(QStringLiteral("got %1 bytes (+%2 LayerNorm statistics), expected %3")
                            .arg(got - lnStats, 0, 'f', 0)
                            .arg(lnStats)
                            .arg(expectedBytes, 0, 'f', 0)));
}

void TestActivations::korthikantiTensorParallel_data()
{
    QTest::addColumn<int>("tp");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<QString>("checkpointing");
    QTest::addColumn<double>("expectedBytes");
    // Korthikanti et al. 2022, Table 2, tensor parallelism without sequence parallelism, per layer and per GPU:
    // none sbh(10 + 24/t + 5as/(ht)); selective recomputation sbh(10 + 24/t); full recomputation 2sbh. The 10 are
    // what every rank keeps whole: both LayerNorm inputs (4sbh), the inputs of the first attention and MLP linears
    // (4sbh) and both dropout masks after the row-parallel linears (2sbh).
    const double s = 512, b = 4, h = 1024, a = 16;
    for (int t : { 2, 4, 8 }) {
        const QString n = QStringLiteral("t=%1").arg(t);
        QTest::newRow(qPrintable(n + QStringLiteral(", none")))
            << t << false << QStringLiteral("none") << s * b * h * (10 + 24.0 / t + 5 * a * s / (h * t));
        QTest::newRow(qPrintable(n + QStringLiteral(", selective")))
            << t << false << QStringLiteral("selective") << s * b * h * (10 + 24.0 / t);
        QTest::newRow(qPrintable(n + QStringLiteral(", full")))
            << t << false << QStringLiteral("full") << 2 * s * b * h;
        // With sequence parallelism the 10 are split too: sbh/t (34 + 5as/h), 34sbh/t, and 2sbh/t for full
        // recomputation (the layer input is a shard).
        QTest::newRow(qPrintable(n + QStringLiteral(" SP, none")))
            << t << true << QStringLiteral("none") << s * b * h / t * (34 + 5 * a * s / h);
        QTest::newRow(qPrintable(n + QStringLiteral(" SP, selective")))
            << t << true << QStringLiteral("selective") << s * b * h / t * 34;
        QTest::newRow(qPrintable(n + QStringLiteral(" SP, full")))
            << t << true << QStringLiteral("full") << 2 * s * b * h / t;
    }
}

void TestActivations::korthikantiTensorParallel()
{
    QFETCH(int, tp);
    QFETCH(bool, sp);
    QFETCH(QString, checkpointing);
    QFETCH(double, expectedBytes);
    const ModelSpec m = test::gptModel(1, 1024, 16, 50304, 512, 0.1);
    TrainingConfig c;
    c.microBatch = 4;
    c.sequenceLength = 512;
    c.precision = Precision::PureBF16;
    c.attention = AttentionImpl::Eager;
    c.tensorParallel = tp;
    c.sequenceParallel = sp;
    c.checkpointing = *checkpointingFromString(checkpointing.toStdString());
    // LayerNorm's FP32 mean and rstd, 8 bytes per token for each norm, on every rank (the paper leaves them out),
    // and without recomputation the 0-d BF16 divisor torch.full([], sqrt(d)) that GPT-2's attention saves.
    const double lnStats = c.checkpointing == Checkpointing::Full ? 0.0 : 16.0 * 512 * 4 / (sp ? tp : 1);
    const double scalar = c.checkpointing == Checkpointing::None ? 2.0 : 0.0;
    const double got = perLayer(m, c) - lnStats - scalar;
    QVERIFY2(got == expectedBytes,
             qPrintable(QStringLiteral("got %1 bytes, expected %2").arg(got, 0, 'f', 0).arg(expectedBytes, 0, 'f', 0)));
}

void TestActivations::fusedAttentionDropsTheQuadraticTerm()
{
    // FlashAttention saves Q, K, V, the output and an FP32 log-sum-exp per row (Dao 2023): no a*s^2 term, so the
    // per-layer footprint grows linearly in s.
    const ModelSpec m = test::gptModel(1, 1024, 16, 50257, 8192, 0.0);
    TrainingConfig c;
    c.microBatch = 1;
    c.precision = Precision::PureBF16;
    c.attention = AttentionImpl::Fused;
    c.sequenceLength = 1024;
    const double at1k = perLayer(m, c);
    c.sequenceLength = 4096;
    const double at4k = perLayer(m, c);
    QCOMPARE(at4k, 4.0 * at1k);
    c.attention = AttentionImpl::Eager;
    QCOMPARE_GT(perLayer(m, c), 4.0 * at1k);
}

void TestActivations::checkpointingOrdersTheFootprint()
{
    for (const char* id : { "gpt2", "bert-base", "llama-2-7b", "vit-b-16" }) {
        const ModelSpec& m = test::preset(id);
        TrainingConfig c;
        c.microBatch = 2;
        c.sequenceLength = m.isVision() ? 224 : 512;
        c.attention = AttentionImpl::Eager;
        c.checkpointing = Checkpointing::None;
        const double none = activations(m, c);
        c.checkpointing = Checkpointing::Selective;
        const double selective = activations(m, c);
        c.checkpointing = Checkpointing::Full;
        const double full = activations(m, c);
        QCOMPARE_LT(selective, none);
        QCOMPARE_LT(full, selective);
    }
}

QTEST_APPLESS_MAIN(TestActivations)
#include "tst_activations.moc"
