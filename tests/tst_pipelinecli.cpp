// The parallelism options of `headroom estimate` (issue 11's contract): --pp, --vpp, --pipeline-schedule and
// --global-batch, the JSON keys they add, and the messages for layouts that cannot run.

#include "planrow.h"

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
    void planReproducesOnTheCommandLine();
    void planRejectsWithReasons();
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
    // Uneven stages, Megatron-LM's way: the first and last stages hold 7 blocks, the two between share the other
    // 18 (9 each), and the JSON says so.
    const test::CliRun uneven = test::runHeadroom(
        llama({ "--pp", "4", "--pp-first-layers", "7", "--pp-last-layers", "7" }));
    QCOMPARE(uneven.code, 0);
    const QJsonObject u = QJsonDocument::fromJson(uneven.out).object();
    QCOMPARE(u.value(QStringLiteral("parallelism")).toObject().value(QStringLiteral("first_stage_layers")).toInt(), 7);
    QCOMPARE(u.value(QStringLiteral("parallelism")).toObject().value(QStringLiteral("last_stage_layers")).toInt(), 7);
    const QJsonArray unevenRanks = u.value(QStringLiteral("ranks")).toArray();
    const QJsonArray expected[] = { { 0, 7 }, { 7, 16 }, { 16, 25 }, { 25, 32 } };
    for (int s = 0; s < 4; ++s)
        QCOMPARE(unevenRanks.at(s).toObject().value(QStringLiteral("layers")).toArray().at(0), QJsonValue(expected[s]));
    // No pipeline: one rank, the whole model.
    const test::CliRun one = test::runHeadroom(llama({}));
    QCOMPARE(one.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(one.out).object();
    QCOMPARE(o.value(QStringLiteral("ranks")).toArray().size(), 1);
    // ... holding all 32 blocks of Llama-2-7B.
    QCOMPARE(
        o.value(QStringLiteral("ranks")).toArray().at(0).toObject().value(QStringLiteral("layers")).toArray().at(0),
        QJsonValue(QJsonArray { 0, 32 }));
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
    QTest::newRow("uneven stages without a pipeline")
        << llama({ "--pp-first-layers", "4" }) << QStringLiteral("--pp-first-layers: blocks per stage need --pp 2");
    QTest::newRow("uneven stages leaving an unequal rest")
        << llama({ "--pp", "4", "--pp-first-layers", "6" })
        << QStringLiteral("--pp-first-layers: the first stage holds 6 of the 32 blocks, leaving 26 for the other 3");
    QTest::newRow("uneven stages on two stages")
        << llama({ "--pp", "2", "--pp-first-layers", "15", "--pp-last-layers", "15" })
        << QStringLiteral("the two counts must add up");
    QTest::newRow("uneven interleaved stages")
        << llama({ "--pp", "2", "--vpp", "2", "--grad-accum", "4", "--pp-last-layers", "8" })
        << QStringLiteral("--pp-last-layers: uneven stages cannot be interleaved");
    QTest::newRow("nodes times GPUs per node")
        << llama({ "--dp", "4", "--nodes", "3", "--gpus-per-node", "2" })
        << QStringLiteral("--nodes: 3 nodes x 2 GPUs = 6, but --tp x --pp x --cp x --dp = 4");
    QTest::newRow("inter-node link inside a node")
        << llama({ "--intra-link", "ib-ndr" }) << QStringLiteral("--intra-link: ib-ndr joins nodes");
    QTest::newRow("node link between nodes")
        << llama({ "--inter-link", "nvlink4" }) << QStringLiteral("--inter-link: nvlink4 is a link inside a node");
    QTest::newRow("unknown link") << llama({ "--intra-link", "nvlink9" }) << QStringLiteral("nvlink-bridge");
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

void TestPipelineCli::planReproducesOnTheCommandLine()
{
    // `headroom plan`: best first, and each layout's options added to `estimate --gpu --model --seq` give exactly
    // its peak, step time, throughput and MFU (issue 11's contract).
    const QStringList base { QStringLiteral("--gpu"),      QStringLiteral("a100-sxm4-80gb"), QStringLiteral("--model"),
                             QStringLiteral("llama-2-7b"), QStringLiteral("--seq"),          QStringLiteral("2048") };
    const test::CliRun r = test::runHeadroom(QStringList { QStringLiteral("plan") } + base
                                             + QStringList { QStringLiteral("--gpus"), QStringLiteral("16"),
                                                             QStringLiteral("--gpus-per-node"), QStringLiteral("8"),
                                                             QStringLiteral("--global-batch"), QStringLiteral("64"),
                                                             QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonArray layouts = j.value(QStringLiteral("layouts")).toArray();
    QVERIFY(j.value(QStringLiteral("evaluated")).toInt() >= layouts.size());
    QVERIFY(layouts.size() > 10);
    // Best first; throughputs within 1e-9 of each other are the same (the clocks' rounding), the least memory first.
    for (int i = 1; i < layouts.size(); ++i) {
        const QJsonObject before = layouts.at(i - 1).toObject(), here = layouts.at(i).toObject();
        const double was = before.value(QStringLiteral("throughput_per_second")).toDouble();
        const double now = here.value(QStringLiteral("throughput_per_second")).toDouble();
        QVERIFY(was >= now * (1.0 - 1e-9));
        if (now >= was * (1.0 - 1e-9))
            QVERIFY(before.value(QStringLiteral("peak_bytes")).toDouble()
                    <= here.value(QStringLiteral("peak_bytes")).toDouble());
    }
    for (int i : { 0, 1, int(layouts.size()) / 2, int(layouts.size()) - 1 }) {
        const QJsonObject l = layouts.at(i).toObject();
        QVERIFY(l.value(QStringLiteral("fits")).toBool());
        const QJsonObject options = l.value(QStringLiteral("options")).toObject();
        int gpus = 1;
        for (const char* split : { "--tp", "--pp", "--cp", "--dp" })
            gpus *= options.value(QLatin1String(split)).toString(QStringLiteral("1")).toInt();
        QCOMPARE(gpus, 16);
        QJsonObject est;
        test::reproducePlanRow(base, l, &est);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(est.value(QStringLiteral("parallelism")).toObject().value(QStringLiteral("global_batch")).toInt(), 64);
    }
}

void TestPipelineCli::planRejectsWithReasons()
{
    // Four GPUs per node: t = 8 and 16 would cross nodes. Llama-2-7B on one 12 GB card fits no layout: the planner
    // says so and lists the lowest peaks.
    const test::CliRun r = test::runHeadroom(
        { QStringLiteral("plan"), QStringLiteral("--gpu"), QStringLiteral("a100-sxm4-80gb"), QStringLiteral("--model"),
          QStringLiteral("llama-2-7b"), QStringLiteral("--seq"), QStringLiteral("1024"), QStringLiteral("--gpus"),
          QStringLiteral("16"), QStringLiteral("--gpus-per-node"), QStringLiteral("4"),
          QStringLiteral("--global-batch"), QStringLiteral("32"), QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    QStringList reasons;
    for (const QJsonValue& v : QJsonDocument::fromJson(r.out).object().value(QStringLiteral("rejected")).toArray()) {
        reasons << v.toObject().value(QStringLiteral("reason")).toString();
        QVERIFY(v.toObject().value(QStringLiteral("count")).toInt() > 0);
    }
    QVERIFY2(reasons.join(QLatin1Char('|')).contains(QStringLiteral("t beyond a node")),
             qPrintable(reasons.join(QLatin1Char('|'))));
    const test::CliRun small = test::runHeadroom(
        { QStringLiteral("plan"), QStringLiteral("--gpu"), QStringLiteral("rtx-a3000-12gb-laptop"),
          QStringLiteral("--model"), QStringLiteral("llama-2-7b"), QStringLiteral("--seq"), QStringLiteral("512"),
          QStringLiteral("--gpus"), QStringLiteral("1"), QStringLiteral("--global-batch"), QStringLiteral("8"),
          QStringLiteral("--json") });
    QCOMPARE(small.code, 0);
    const QJsonArray closest = QJsonDocument::fromJson(small.out).object().value(QStringLiteral("layouts")).toArray();
    QVERIFY(!closest.isEmpty());
    QVERIFY(!closest.first().toObject().value(QStringLiteral("fits")).toBool());
    // Bad requests exit 2 naming the option: no GPUs, a sequence past GPT-2's 1024 learned positions.
    const test::CliRun longSeq = test::runHeadroom({ QStringLiteral("plan"), QStringLiteral("--model"),
                                                     QStringLiteral("gpt2"), QStringLiteral("--seq"),
                                                     QStringLiteral("4096") });
    QCOMPARE(longSeq.code, 2);
    QVERIFY2(QString::fromUtf8(longSeq.err).contains(QStringLiteral("--seq: must be at most 1024")),
             longSeq.err.constData());
    const test::CliRun bad = test::runHeadroom(
        { QStringLiteral("plan"), QStringLiteral("--gpus"), QStringLiteral("0") });
    QCOMPARE(bad.code, 2);
    QVERIFY2(QString::fromUtf8(bad.err).contains(QStringLiteral("--gpus")), bad.err.constData());
}

QTEST_GUILESS_MAIN(TestPipelineCli)
#include "tst_pipelinecli.moc"
