// The parallelism options of `headroom estimate` (issue 11's contract): --pp, --vpp, --pipeline-schedule and
// --global-batch, the JSON keys they add, and the messages for layouts that cannot run.

#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

class TestPipelineCli : public QObject {
    Q_OBJECT

private slots:
    void pipelineJson();
    void badLayouts_data();
    void badLayouts();
};

namespace {

QStringList llama(std::initializer_list<const char*> more)
{
    QStringList a { QStringLiteral("estimate"), QStringLiteral("--json"),
                    QStringLiteral("--gpu"),    QStringLiteral("a100-sxm4-80gb"),
                    QStringLiteral("--model"),  QStringLiteral("llama-2-7b"),
                    QStringLiteral("--batch"),  QStringLiteral("1"),
                    QStringLiteral("--seq"),    QStringLiteral("2048") };
    for (const char* m : more)
        a << QString::fromLatin1(m);
    return a;
}

} // namespace

void TestPipelineCli::pipelineJson()
{
    const test::CliRun r = test::runHeadroom(
        llama({ "--tp", "2", "--pp", "4", "--dp", "2", "--global-batch", "32", "--precision", "bf16" }));
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonObject par = j.value(QStringLiteral("parallelism")).toObject();
    QCOMPARE(par.value(QStringLiteral("gpus")).toInt(), 16); // t x p x dp
    QCOMPARE(par.value(QStringLiteral("pp")).toInt(), 4);
    QCOMPARE(par.value(QStringLiteral("micro_batches_per_step")).toInt(), 16); // 32 / (1 x 2)
    QCOMPARE(par.value(QStringLiteral("pipeline_schedule")).toString(), QStringLiteral("1f1b"));
    const QJsonArray ranks = j.value(QStringLiteral("ranks")).toArray();
    QCOMPARE(ranks.size(), 4);
    // memory is the most loaded rank's: the highest peak of the stages.
    qint64 highest = 0;
    for (const auto& rank : ranks)
        highest = std::max(highest, rank.toObject().value(QStringLiteral("peak_bytes")).toInteger());
    QCOMPARE(j.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toInteger(), highest);
    QCOMPARE(ranks.at(0).toObject().value(QStringLiteral("layers")).toArray().at(0).toArray().at(1).toInt(), 8);
    const QJsonObject time = j.value(QStringLiteral("time")).toObject();
    QVERIFY(time.value(QStringLiteral("pipeline_bubble_seconds")).toDouble() > 0);
    const QJsonObject comm = time.value(QStringLiteral("communication")).toObject();
    for (const char* kind : { "data_parallel", "tensor_parallel", "pipeline" })
        QVERIFY2(comm.value(QLatin1String(kind)).toObject().value(QStringLiteral("bytes")).toDouble() > 0, kind);
    const double perGpu = j.value(QStringLiteral("throughput_per_gpu_per_second")).toDouble();
    QCOMPARE(perGpu * 16, j.value(QStringLiteral("throughput_per_second")).toDouble());
    QVERIFY(j.value(QStringLiteral("model_flops_per_second_per_gpu")).toDouble() > 0);
    // No pipeline: one rank, the whole model.
    const test::CliRun one = test::runHeadroom(llama({}));
    QCOMPARE(one.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(one.out).object();
    QCOMPARE(o.value(QStringLiteral("ranks")).toArray().size(), 1);
    QCOMPARE(o.value(QStringLiteral("time")).toObject().value(QStringLiteral("pipeline_bubble_seconds")).toDouble(),
             0.0);
}

void TestPipelineCli::badLayouts_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("more stages than blocks") << llama({ "--pp", "33" }) << QStringLiteral("--pp: 33 stages");
    QTest::newRow("global batch not divisible")
        << llama({ "--dp", "2", "--batch", "3", "--global-batch", "16" })
        << QStringLiteral("--global-batch: 16 is not a multiple of --batch x --dp = 3 x 2");
    QTest::newRow("global batch and grad accum disagree")
        << llama({ "--grad-accum", "4", "--global-batch", "8" }) << QStringLiteral("--grad-accum says 4");
    QTest::newRow("vpp without a pipeline") << llama({ "--vpp", "2" }) << QStringLiteral("needs --pp 2 or more");
    QTest::newRow("vpp not dividing the blocks")
        << llama({ "--pp", "4", "--vpp", "3", "--grad-accum", "8" }) << QStringLiteral("--vpp: the interleaved");
    QTest::newRow("interleaved micro-batches")
        << llama({ "--pp", "4", "--vpp", "2", "--grad-accum", "6" }) << QStringLiteral("--grad-accum");
    QTest::newRow("vpp with 1f1b") << llama({ "--pp", "4", "--vpp", "2", "--pipeline-schedule", "1f1b" })
                                   << QStringLiteral("--vpp");
    QTest::newRow("bad schedule") << llama({ "--pp", "2", "--pipeline-schedule", "zb" }) << QStringLiteral("gpipe");
    QTest::newRow("pp on a cnn") << QStringList { QStringLiteral("estimate"), QStringLiteral("--model"),
                                                  QStringLiteral("resnet50"), QStringLiteral("--pp"),
                                                  QStringLiteral("2") }
                                 << QStringLiteral("--pp");
}

void TestPipelineCli::badLayouts()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const test::CliRun r = test::runHeadroom(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestPipelineCli)
#include "tst_pipelinecli.moc"
