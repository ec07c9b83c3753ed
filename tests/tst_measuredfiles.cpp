// Every measurement committed under tests/data/measured/ (headroom-probe's .headroom-measured.json; tools/probe/
// grid.py writes a machine's grid of them), held to the prediction through `headroom estimate --measured FILE`,
// as a user would compare them:
//   * measured on a CPU (Debian's torch 1.13): the saved activations byte for byte under the CPU kernels' dtypes,
//     less the itemised term docs/accuracy.md section 1.3 names (a causal LM at micro-batch 1 keeps its s + 1 padded
//     labels as a view: 8 bytes Headroom does not model); the parameter count exactly;
//   * measured on a CUDA GPU (the 27 H200 runs of tests/data/measured/README.md): the parameter count exactly; the
//     step time within 25 % of each run and within 10 % at the median of all of them (issue 27); the memory to the
//     tolerances below, with what is not yet modelled named (issue 28).
// The files are PyTorch's own figures, not Headroom's, and none was edited after the probe wrote it. The time
// model's host costs were fitted to the H200 step times (docs/accuracy.md 3.2): the step-time check holds the fit and
// the two-clock model, not an independent figure.

#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>

using test::runHeadroom;

class TestMeasuredFiles : public QObject {
    Q_OBJECT
private slots:
    void predictionHoldsToTheMeasurement_data();
    void predictionHoldsToTheMeasurement();
    void stepTimeAcrossGpuRuns();
    void twoCublasWorkspacesBetweenThePasses();
    void foreachTemporariesOneTensorEach();
    void firstStepInPyTorchsOrder();

private:
    QList<double> m_stepErrors; // |predicted / measured - 1| of each CUDA file's step time
};

namespace {

const QString kDir = QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/measured");

QJsonObject object(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); }

// What a CUDA file's saved activations may differ by. The probe's meter counts every storage a pack hook sees but
// parameters', so autocast's cached weight casts with them; `--measured` adds those casts to the prediction
// (saved_activation_bytes.predicted_weight_copies). Itemised: RoPE's cos and sin reach a checkpointed layer as
// keyword arguments, which the checkpoint keeps but the probe's keep_inputs (positional tensors) does not count,
// 2 x 1024 x 64 x 4 B for Llama 3.2 1B at s 1024; not itemised, up to 4,288 B (BERT's 4,096 B in every precision,
// an int64 row of its 512 positions, is the largest).
double itemisedSaved(const QString& file)
{
    return file.endsWith(QLatin1String("llama-3.2-1b-cuda-b4-s1024-bf16-ckpt-fused-fused.headroom-measured.json"))
        ? 524288.0
        : 0.0;
}
constexpr double kSavedNotItemised = 4288.0;

// Probe 0.2.2 and before wrapped each block's forward in a checkpoint with transformers' cache left on (0.2.3 turns it
// off, as gradient_checkpointing_enable makes transformers do): the checkpoint's recompute closure held the
// DynamicCache, every layer's keys and values, from the forward pass into backward. Headroom models the checkpointing
// users run, without the cache: GPT-2's copies of K and V at b8 x 512 in BF16 (2 x 12 x 8 x 512 x 768 x 2 B), Llama 3.2
// 1B's FP32 keys after RoPE and BF16 values at b4 x 1024 (16 x 4 x 1024 x 512 x (4 + 2) B).
double probeKeptCache(const QString& file)
{
    if (file.endsWith(QLatin1String("gpt2-cuda-b8-s512-bf16-ckpt-fused-fused.headroom-measured.json")))
        return 2.0 * 12 * 8 * 512 * 768 * 2;
    if (file.endsWith(QLatin1String("llama-3.2-1b-cuda-b4-s1024-bf16-ckpt-fused-fused.headroom-measured.json")))
        return 16.0 * 4 * 1024 * 512 * (4 + 2);
    return 0.0;
}

// `headroom estimate --measured FILE --json`'s measured_difference for a file of tests/data/measured/ (empty when the
// command fails, which the figures read from it then show).
QJsonObject measuredDifference(const char* file)
{
    const auto r = runHeadroom({ QStringLiteral("estimate"), QStringLiteral("--measured"),
                                 QDir(kDir).filePath(QLatin1String(file)), QStringLiteral("--json") });
    return object(QJsonDocument::fromJson(r.out).object(), "measured_difference");
}

// How far a CUDA file's max_memory_reserved may be from the replay's (issue 28: 5 %), with the runs beyond it named.
// The replay runs the first step in PyTorch's order (allocator.cpp FirstStep), so what it caches decides the later
// steps' segments: BERT with checkpointing, +17.6 %: from its second step the replay takes one more 1 GB segment for
// the loss's FP32 copy than the H200 did (its states, made in the first step, split the blocks the first loss left);
// ResNet-50, -6.0 % to -6.7 % (FP16 -2.0 %), and ViT-B/16 with checkpointing, -6.7 %: not explained. cuDNN takes a
// workspace from the caching allocator around each convolution (aten/src/ATen/native/cudnn/Conv_v8.cpp,
// run_conv_plan) of the size of the plan its heuristics pick on the GPU, but one of 1 to 64 MiB at every call moves
// ResNet-50's figure by less than a point (and its peak allocated, now within 0.1 %, by up to 1.4 %).
double reservedTolerance(const QString& file)
{
    if (file.contains(QLatin1String("bert-base-cuda-b16-s512-bf16-ckpt")))
        return 0.18;
    if (file.contains(QLatin1String("resnet50-cuda"))
        || file.contains(QLatin1String("vit-b-16-cuda-b32-s224-bf16-ckpt")))
        return 0.07;
    return 0.05;
}

// The model presets that predict the next token (docs/accuracy.md 1.3's "label" column applies to them).
bool causalLm(const QString& model)
{
    return model.startsWith(QLatin1String("gpt2")) || model.contains(QLatin1String("llama"))
        || model.startsWith(QLatin1String("qwen")) || model.startsWith(QLatin1String("mistral"));
}

} // namespace

void TestMeasuredFiles::predictionHoldsToTheMeasurement_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = QDir(kDir).entryList({ QStringLiteral("*.headroom-measured.json") }, QDir::Files,
                                                   QDir::Name);
    // The CPU files of this repository at least: a directory that lost them must not pass as "nothing to hold".
    QVERIFY2(files.size() >= 10, qPrintable(kDir));
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << QDir(kDir).filePath(f);
}

void TestMeasuredFiles::predictionHoldsToTheMeasurement()
{
    QFETCH(QString, file);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject measured = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject scenario = object(measured, "scenario");
    const bool cuda = object(measured, "device").value(QStringLiteral("type")).toString() == QLatin1String("cuda");

    const auto r = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), file, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonObject diff = object(j, "measured_difference");
    QCOMPARE(diff.value(QStringLiteral("kernels")).toString(), cuda ? QStringLiteral("cuda") : QStringLiteral("cpu"));
    QCOMPARE(object(diff, "parameters").value(QStringLiteral("difference")).toDouble(), 0.0);

    const double label = causalLm(scenario.value(QStringLiteral("model")).toString())
            && scenario.value(QStringLiteral("micro_batch")).toInt() == 1
        ? -8.0
        : 0.0;
    const QJsonObject saved = object(diff, "saved_activation_bytes");
    QCOMPARE_GT(saved.value(QStringLiteral("measured")).toDouble(), 1e5);
    const double savedOff = saved.value(QStringLiteral("difference")).toDouble() - label - itemisedSaved(file);
    QVERIFY2(std::abs(savedOff) <= (cuda ? kSavedNotItemised : 0.0), qPrintable(QString::number(savedOff, 'f', 0)));

    if (!cuda) {
        QVERIFY(!diff.value(QStringLiteral("step_compared")).toBool());
        QVERIFY(diff.value(QStringLiteral("peak_allocated_bytes")).isNull());
        return;
    }
    QVERIFY(diff.value(QStringLiteral("step_compared")).toBool());
    // `itemised`: bytes the measurement holds for a reason named here, added to the prediction.
    auto within = [&](const char* key, double tolerance, double itemised = 0.0) {
        const QJsonObject d = object(diff, key);
        const double rel = (d.value(QStringLiteral("difference")).toDouble() + itemised)
            / d.value(QStringLiteral("measured")).toDouble();
        const QByteArray what = QByteArray(key) + ": predicted "
            + QByteArray::number(d.value(QStringLiteral("predicted")).toDouble(), 'g', 8) + ", measured "
            + QByteArray::number(d.value(QStringLiteral("measured")).toDouble(), 'g', 8) + " ("
            + QByteArray::number(rel * 100.0, 'f', 1) + " %)";
        QVERIFY2(!d.isEmpty() && std::abs(rel) <= tolerance, what.constData());
    };
    // Every run within 1 %, but ViT-B/16 in BF16 (-1.9 %, and -3.3 % with checkpointing: not explained,
    // docs/accuracy.md 1.7).
    const bool vitBf16 = file.contains(QLatin1String("vit-b-16-cuda")) && file.contains(QLatin1String("-bf16-"));
    const double cache = probeKeptCache(file);
    within("peak_allocated_bytes", vitBf16 ? 0.035 : 0.01, cache);
    within("peak_reserved_bytes", reservedTolerance(file));
    within("step_seconds", 0.25);
    m_stepErrors << std::abs(object(diff, "step_seconds").value(QStringLiteral("relative")).toDouble());

    // Between the passes only what lives for the whole step is allocated: parameters, gradients, optimizer states,
    // the batch, the cuBLAS workspaces, each counted as the whole block it holds (a block is split only where more
    // than 1 MiB would remain). Each phase's end within 20 MB but BERT's with SDPA under autocast (+34.3 MB after
    // backward: where the first step's states and the gradients land, not itemised), the checkpointed runs' cache
    // itemised after forward; Llama 3.2 1B with checkpointing holds 64 MiB more there, 4 MiB a layer, not identified.
    const bool llamaCkpt = file.contains(QLatin1String("llama-3.2-1b-cuda-b4-s1024-bf16-ckpt"));
    const bool bertSdpaAutocast = file.contains(QLatin1String("bert-base-cuda-b16-s512-"))
        && file.contains(QLatin1String("-nockpt-fused-")) && !file.contains(QLatin1String("-fp32-"));
    for (const char* phase : { "after_forward", "after_backward", "after_optimizer_step" }) {
        const QJsonObject d = object(object(diff, phase), "allocated_bytes");
        QVERIFY2(!d.isEmpty(), phase);
        const bool forward = QByteArray(phase) == "after_forward";
        const double off = d.value(QStringLiteral("difference")).toDouble() + (forward ? cache : 0.0);
        const double limit = forward && llamaCkpt ? 70e6 : bertSdpaAutocast ? 35e6 : 20e6;
        QVERIFY2(std::abs(off) <= limit,
                 qPrintable(QStringLiteral("%1: %2 B").arg(QLatin1String(phase)).arg(off, 0, 'f', 0)));
    }
}

// The workspaces cuBLAS takes from the caching allocator, one per (handle, stream) (aten/src/ATen/cuda/
// CublasHandlePool.cpp), seen where little else is: Llama 3.2 1B in FP32, whose 146 parameters are few, large tensors.
// After backward the H200 held exactly what Headroom predicts with two 32 MiB workspaces (the Python thread's and
// autograd's device thread's: torch/csrc/autograd/engine.cpp runs backward on its own thread per device) and no
// cuBLASLt workspace of its own (torch 2.11 unifies them, pytorch/pytorch#168175). With one workspace the prediction
// would be 32 MiB under; with cuBLASLt's own 1 MiB per handle, 2 MiB over.
void TestMeasuredFiles::twoCublasWorkspacesBetweenThePasses()
{
    const QString file = QDir(kDir).filePath(
        QStringLiteral("llama-3.2-1b-cuda-b4-s1024-fp32-nockpt-fused-fused.headroom-measured.json"));
    const auto r = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), file, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(object(j, "pytorch").value(QStringLiteral("cublas_workspace_bytes")).toDouble(), 64.0 * 1024 * 1024);
    for (const char* phase : { "after_backward", "after_optimizer_step" }) {
        const QJsonObject d = object(object(object(j, "measured_difference"), phase), "allocated_bytes");
        const double off = d.value(QStringLiteral("difference")).toDouble();
        QVERIFY2(std::abs(off) <= 100e3,
                 qPrintable(QStringLiteral("%1: %2 B").arg(QLatin1String(phase)).arg(off, 0, 'f', 0)));
    }
}

// torch.optim's foreach AdamW (adam.py `_multi_tensor_adam`) takes its one temporary, the square roots of
// exp_avg_sq, as a list: `_foreach_sqrt` allocates an empty_like of each parameter's state in turn
// (aten/src/ATen/native/cuda/ForeachUnaryOp.cu), and each finds a block the freed activations left in the cache. On
// the H200 ViT-B/16 reserved exactly as much with foreach as with fused AdamW (3,892,314,112 B both), and Llama 3.2 1B
// 1.39 GB more (34,980,495,360 B against 33,585,889,280 B), not its whole 4.9 GB of states again. One temporary of
// all of it needs a new segment of that size: ViT +5.4 % against fused's -3.6 %, Llama +9.8 %.
void TestMeasuredFiles::foreachTemporariesOneTensorEach()
{
    auto reserved = [](const char* name) {
        const QJsonObject d = object(measuredDifference(name), "peak_reserved_bytes");
        return std::pair(d.value(QStringLiteral("predicted")).toDouble(),
                         d.value(QStringLiteral("measured")).toDouble());
    };
    const auto [vitForeach, vitMeasured] = reserved(
        "vit-b-16-cuda-b32-s224-bf16-nockpt-fused-foreach.headroom-measured.json");
    const auto [vitFused, vitFusedMeasured] = reserved(
        "vit-b-16-cuda-b32-s224-bf16-nockpt-fused-fused.headroom-measured.json");
    QCOMPARE(vitMeasured, vitFusedMeasured);
    QCOMPARE_LE(std::abs(vitForeach / vitFused - 1.0), 0.01);
    const auto [llama, llamaMeasured] = reserved(
        "llama-3.2-1b-cuda-b4-s1024-bf16-nockpt-fused-foreach.headroom-measured.json");
    QCOMPARE_GT(llamaMeasured, 0.0);
    QCOMPARE_LE(std::abs(llama / llamaMeasured - 1.0), 0.05);
}

// The first training step as PyTorch runs it: torch.optim makes AdamW's states in the first step() (adamw.py
// `_init_group`: zeros_like each parameter), once the first forward and backward passes have left their blocks in the
// cache, and autograd's device thread takes its cuBLAS workspace at its first matmul; what they take there decides the
// later steps' segments. With the states and both workspaces made before the first step, BERT-base in FP32 reserved
// 9.6 % less than the H200 did and GPT-2 in FP32 held 18.1 MB less after backward.
void TestMeasuredFiles::firstStepInPyTorchsOrder()
{
    const QJsonObject bert = measuredDifference(
        "bert-base-cuda-b16-s512-fp32-nockpt-fused-fused.headroom-measured.json");
    const QJsonObject reserved = object(bert, "peak_reserved_bytes");
    QCOMPARE(reserved.value(QStringLiteral("measured")).toDouble(), 10666115072.0);
    QCOMPARE_LE(std::abs(reserved.value(QStringLiteral("relative")).toDouble()), 0.01);
    const QJsonObject gpt2 = measuredDifference("gpt2-cuda-b8-s512-fp32-nockpt-fused-fused.headroom-measured.json");
    const QJsonObject held = object(object(gpt2, "after_backward"), "allocated_bytes");
    QCOMPARE_GT(held.value(QStringLiteral("measured")).toDouble(), 0.0);
    QCOMPARE_LE(std::abs(held.value(QStringLiteral("difference")).toDouble()), 5e6);
}

// Issue 27's goal over the H200 runs: the step time within 10 % at the median (each run within 25 % above).
void TestMeasuredFiles::stepTimeAcrossGpuRuns()
{
    QCOMPARE_GE(m_stepErrors.size(), 27);
    QList<double> sorted = m_stepErrors;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    QVERIFY2(median <= 0.10, qPrintable(QStringLiteral("median %1 %").arg(median * 100.0, 0, 'f', 1)));
}

QTEST_APPLESS_MAIN(TestMeasuredFiles)
#include "tst_measuredfiles.moc"
