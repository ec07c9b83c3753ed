// Every measurement committed under tests/data/measured/ (headroom-probe's .headroom-measured.json; tools/probe/
// grid.py writes a machine's grid of them), held to the prediction through `headroom estimate --measured FILE`,
// as a user would compare them:
//   * measured on a CPU (Debian's torch 1.13): the saved activations byte for byte under the CPU kernels' dtypes,
//     less the itemised term docs/accuracy.md section 1.3 names (a causal LM at micro-batch 1 keeps its s + 1 padded
//     labels as a view: 8 bytes Headroom does not model); the parameter count exactly;
//   * measured on a CUDA GPU: the same, and issue 9's tolerances: torch.cuda.max_memory_allocated within 3 %,
//     max_memory_reserved within 8 %, the step time within 15 %.
// The files are PyTorch's own figures, not Headroom's, and none was edited after the probe wrote it.

#include "clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using test::runHeadroom;

class TestMeasuredFiles : public QObject {
    Q_OBJECT
private slots:
    void predictionHoldsToTheMeasurement_data();
    void predictionHoldsToTheMeasurement();
};

namespace {

const QString kDir = QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/measured");

QJsonObject object(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); }

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
    QCOMPARE(saved.value(QStringLiteral("difference")).toDouble(), label);

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
    within("peak_allocated_bytes", 0.03);
    within("peak_reserved_bytes", 0.08);
    within("step_seconds", 0.15);
}

QTEST_APPLESS_MAIN(TestMeasuredFiles)
#include "tst_measuredfiles.moc"
