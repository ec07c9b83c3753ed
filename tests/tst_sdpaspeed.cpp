// How fast the fused SDPA kernels run on Hopper (src/core/graph/sdpaspeed.h), against figures the model was not
// fitted to:
//   * FlashAttention-3's benchmarks on an H100 SXM5 (Shah et al. 2024, arXiv:2407.08608, figures 5 and 6): each
//     curve's 512 and 16k points set its two constants; the points between, and every causal point, test them;
//   * the H200 kernel profiles (tests/data/measured-heldout/*-kernels.*, torch 2.11, cuDNN 9.19): ViT-B/16's 197
//     tokens, where the tiles' padding matters, and GPT-2's causal attention with dropout (dropout's cost was read off
//     BERT's profile, the one row here that is fitted).
// Rates are TFLOP/s on the FLOPs counted: 4 q k d per head forward (halved when causal), 2.5 times that backward.

#include "estimate.h"
#include "sdpaspeed.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>

using namespace headroom;

Q_DECLARE_METATYPE(headroom::SdpaKernel)

class TestSdpaSpeed : public QObject {
    Q_OBJECT
private slots:
    void publishedH100_data();
    void publishedH100();
    void measuredH200_data();
    void measuredH200();
    void onlyWhereMeasured();
    void stepTimeTakesTheKernelsRate();
};

namespace {

constexpr double kHopperPeak = 989e12; // H100 SXM5 and H200, dense BF16/FP16

// The rate the model gives a pass, on counted FLOPs.
double rate(SdpaKernel k, double seq, double headDim, bool causal, double dropout, bool backward)
{
    const SdpaSpeed s = sdpaSpeed(k, 90, { seq, seq, headDim, causal, dropout });
    return backward ? s.backwardEfficiency * kHopperPeak / s.backwardWork
                    : s.forwardEfficiency * kHopperPeak / s.forwardWork;
}

void addRow(SdpaKernel k, const char* name, int head, bool causal, bool backward,
            std::initializer_list<std::pair<int, double>> points, double tolerance)
{
    for (const auto& [seq, tflops] : points)
        QTest::newRow(qPrintable(QStringLiteral("%1 d%2 %3 %4 s%5")
                                     .arg(QLatin1String(name))
                                     .arg(head)
                                     .arg(QLatin1String(causal ? "causal" : "full"))
                                     .arg(QLatin1String(backward ? "bwd" : "fwd"))
                                     .arg(seq)))
            << k << head << causal << backward << seq << tflops << tolerance;
}

} // namespace

void TestSdpaSpeed::publishedH100_data()
{
    QTest::addColumn<SdpaKernel>("kernel");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<int>("seq");
    QTest::addColumn<double>("tflops");
    QTest::addColumn<double>("tolerance");
    // Non-causal curves between their fitted ends (512, 16k): within 6 %.
    addRow(SdpaKernel::CuDnn, "cuDNN", 64, false, false, { { 1024, 373 }, { 2048, 395 }, { 4096, 408 }, { 8192, 412 } },
           0.06);
    addRow(SdpaKernel::CuDnn, "cuDNN", 128, false, false, { { 1024, 574 }, { 2048, 617 }, { 8192, 600 } }, 0.06);
    addRow(SdpaKernel::CuDnn, "cuDNN", 64, false, true, { { 1024, 348 }, { 2048, 395 }, { 4096, 417 }, { 8192, 432 } },
           0.06);
    addRow(SdpaKernel::CuDnn, "cuDNN", 128, false, true, { { 1024, 408 }, { 2048, 465 }, { 4096, 499 } }, 0.06);
    addRow(SdpaKernel::Flash, "FA2", 64, false, false, { { 1024, 306 }, { 2048, 318 }, { 4096, 321 } }, 0.06);
    addRow(SdpaKernel::Flash, "FA2", 64, false, true, { { 1024, 238 }, { 2048, 264 }, { 4096, 279 } }, 0.06);
    // Causal, not fitted at all: the diagonal's tiles from the tile sizes alone, within 9 % for cuDNN. FlashAttention-2
    // is 10-13 % slower than its tiles at 512 and 1k (its masked diagonal tiles cost more than their share), within
    // 14 %.
    addRow(SdpaKernel::CuDnn, "cuDNN", 64, true, false,
           { { 512, 225 }, { 1024, 288 }, { 2048, 334 }, { 4096, 363 }, { 16384, 388 } }, 0.09);
    addRow(SdpaKernel::Flash, "FA2", 64, true, false, { { 512, 180 }, { 1024, 229 }, { 2048, 262 }, { 4096, 284 } },
           0.14);
}

void TestSdpaSpeed::publishedH100()
{
    QFETCH(SdpaKernel, kernel);
    QFETCH(int, headDim);
    QFETCH(bool, causal);
    QFETCH(bool, backward);
    QFETCH(int, seq);
    QFETCH(double, tflops);
    QFETCH(double, tolerance);
    const double predicted = rate(kernel, seq, headDim, causal, 0.0, backward) / 1e12;
    QVERIFY2(std::abs(predicted / tflops - 1.0) <= tolerance,
             qPrintable(QStringLiteral("%1 TFLOP/s, published %2").arg(predicted, 0, 'f', 1).arg(tflops)));
}

void TestSdpaSpeed::measuredH200_data()
{
    QTest::addColumn<int>("seq");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<double>("dropout");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<double>("tflops");
    QTest::addColumn<double>("tolerance");
    // cuDNN's kernels in the profiles, per layer: FLOPs counted over the kernels' time (backward with its
    // compute_dot_do_o and convert_dq kernels). ViT-B/16 b128: 12 heads x 128 of 197 tokens, no dropout.
    QTest::newRow("ViT-B/16 b128 s197 fwd (1.057 ms / 12)") << 197 << false << 0.0 << false << 173.2 << 0.08;
    QTest::newRow("ViT-B/16 b128 s197 bwd (3.627 ms / 12)") << 197 << false << 0.0 << true << 126.2 << 0.15;
    // GPT-2 b32: 12 heads x 32, causal, p = 0.1.
    QTest::newRow("GPT-2 b32 s512 fwd (1.315 ms / 12)") << 512 << true << 0.1 << false << 117.6 << 0.08;
    QTest::newRow("GPT-2 b32 s512 bwd (2.666 ms / 12)") << 512 << true << 0.1 << true << 145.0 << 0.08;
    // BERT b32, non-causal, p = 0.1: the rows dropout's factors come from.
    QTest::newRow("BERT b32 s512 fwd (1.905 ms / 12), fitted") << 512 << false << 0.1 << false << 162.3 << 0.04;
    QTest::newRow("BERT b32 s512 bwd (3.491 ms / 12), fitted") << 512 << false << 0.1 << true << 221.4 << 0.04;
}

void TestSdpaSpeed::measuredH200()
{
    QFETCH(int, seq);
    QFETCH(bool, causal);
    QFETCH(double, dropout);
    QFETCH(bool, backward);
    QFETCH(double, tflops);
    QFETCH(double, tolerance);
    const double predicted = rate(SdpaKernel::CuDnn, seq, 64, causal, dropout, backward) / 1e12;
    QVERIFY2(std::abs(predicted / tflops - 1.0) <= tolerance,
             qPrintable(QStringLiteral("%1 TFLOP/s, measured %2").arg(predicted, 0, 'f', 1).arg(tflops)));
}

// Nothing is measured off Hopper or for the memory-efficient kernel: the generic figure stands there.
void TestSdpaSpeed::onlyWhereMeasured()
{
    const SdpaShape shape { 512, 512, 64, false, 0.0 };
    QCOMPARE(sdpaSpeed(SdpaKernel::CuDnn, 80, shape).forwardEfficiency, 0.0);
    QCOMPARE(sdpaSpeed(SdpaKernel::Flash, 100, shape).forwardEfficiency, 0.0);
    QCOMPARE(sdpaSpeed(SdpaKernel::MemoryEfficient, 90, shape).backwardEfficiency, 0.0);
    QVERIFY(sdpaSpeed(SdpaKernel::CuDnn, 90, shape).forwardEfficiency > 0.0);
    // A multiple of the tiles, non-causal: no padding.
    QCOMPARE(sdpaSpeed(SdpaKernel::CuDnn, 90, shape).forwardWork, 1.0);
    // 197 tokens run as 256 x 256 (ceil(197 / 64) x 64 by ceil(197 / 128) x 128).
    QCOMPARE(sdpaSpeed(SdpaKernel::CuDnn, 90, { 197, 197, 64, false, 0.0 }).forwardWork, 65536.0 / (197.0 * 197.0));
}

// The whole step: ViT-B/16 at b128 on the H200, the attention steps' time at the kernels' rate. The profile's cuDNN
// kernels took 4.684 ms (forward 1.057, backward 3.627); at the generic 60 % of peak they were priced at 1.45 ms.
void TestSdpaSpeed::stepTimeTakesTheKernelsRate()
{
    TrainingConfig c;
    c.precision = Precision::MixedBF16;
    c.microBatch = 128;
    c.sequenceLength = 224;
    c.attention = AttentionImpl::Fused;
    const Estimate e = estimate(test::preset("vit-b-16"), test::gpu("h200-sxm-141gb"), c, {}, test::fastOptions());
    double attention = 0.0;
    for (const auto& g : e.kindPoints)
        if (g.kind == OpKind::Attention)
            attention += g.seconds;
    QVERIFY2(std::abs(attention / 4.684e-3 - 1.0) < 0.15, qPrintable(QStringLiteral("%1 ms").arg(attention * 1e3)));
}

QTEST_APPLESS_MAIN(TestSdpaSpeed)
#include "tst_sdpaspeed.moc"
