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

private:
    QList<double> m_stepErrors; // |predicted / measured - 1| of each CUDA file's step time
};

namespace {

const QString kDir = QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/measured");

QJsonObject object(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); }

// Runs whose saved activations Headroom predicts exactly on CUDA too: FP32 and pure BF16 without autocast. Under
// CUDA autocast (bf16, fp16) and with checkpointing, transformers 5.17's saved tensors differ from the 4.x
// transcriptions the simulator follows (issue 28 item 3: up to 38 % under, itemised in docs/accuracy.md 1.6).
bool exactOnCuda(const QString& file)
{
    return file.endsWith(QLatin1String("bert-base-cuda-b16-s512-fp32-nockpt-fused-fused.headroom-measured.json"))
        || file.endsWith(QLatin1String("resnet50-cuda-b64-s224-fp32-nockpt-eager-fused.headroom-measured.json"))
        || file.endsWith(
            QLatin1String("llama-3.2-1b-cuda-b4-s1024-bf16-pure-nockpt-fused-fused.headroom-measured.json"));
}

// Llama 3.2 1B in FP32 with SDPA: PyTorch 2.11 ran the math kernel (no fused kernel for FP32 with grouped-query
// attention) and saved the s x s scores; the simulator assumes a fused kernel (issue 28 item 2).
bool sdpaMathRun(const QString& file)
{
    return file.endsWith(QLatin1String("llama-3.2-1b-cuda-b4-s1024-fp32-nockpt-fused-fused.headroom-measured.json"));
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
    if (!cuda || exactOnCuda(file))
        QVERIFY2(std::abs(saved.value(QStringLiteral("difference")).toDouble() - label) <= (cuda ? 4096.0 : 0.0),
                 qPrintable(QString::number(saved.value(QStringLiteral("difference")).toDouble(), 'f', 0)));

    if (!cuda) {
        QVERIFY(!diff.value(QStringLiteral("step_compared")).toBool());
        QVERIFY(diff.value(QStringLiteral("peak_allocated_bytes")).isNull());
        return;
    }
    QVERIFY(diff.value(QStringLiteral("step_compared")).toBool());
    auto within = [&](const char* key, double tolerance) {
        const QJsonObject d = object(diff, key);
        const double rel = d.value(QStringLiteral("relative")).toDouble();
        const QByteArray what = QByteArray(key) + ": predicted "
            + QByteArray::number(d.value(QStringLiteral("predicted")).toDouble(), 'g', 8) + ", measured "
            + QByteArray::number(d.value(QStringLiteral("measured")).toDouble(), 'g', 8) + " ("
            + QByteArray::number(rel * 100.0, 'f', 1) + " %)";
        QVERIFY2(!d.isEmpty() && std::abs(rel) <= tolerance, what.constData());
    };
    if (!sdpaMathRun(file)) {
        within("peak_allocated_bytes", 0.065);
        within("peak_reserved_bytes", 0.13);
        within("saved_activation_bytes", 0.30);
    }
    within("step_seconds", 0.25);
    m_stepErrors << std::abs(object(diff, "step_seconds").value(QStringLiteral("relative")).toDouble());
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
