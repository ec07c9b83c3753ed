// `headroom plan` (issues 31 and 32): the planner states what it assumed (links, nodes) and takes the links as
// `estimate` does; its rejection counts add up to the layouts it considered; it pulls the levers the user allows
// (precision, optimizer, ZeRO-Offload, LoRA/QLoRA) and names them; every row, lever rows included, reproduces on
// `headroom estimate` with the options it prints.

#include "planner.h"
#include "planrow.h"
#include "sanitizer.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <chrono>
#include <optional>
#include <thread>
#include <tuple>
#include <vector>

using namespace headroom;

class TestPlanner : public QObject {
    Q_OBJECT

private slots:
    void consideredIsCountedByHand();
    void rejectionsAddUp_data();
    void rejectionsAddUp();
    void pruningKeepsTheAnswer();
    void linksAreStatedAndSettable();
    void leversMakeLlamaFitOnLaptops();
    void qloraOnOneLaptop();
    void leverRowsReproduce();
    void unevenStagesWhereTheBlocksDoNotDivide();
    void acrossGpuTypes();
    void gpuTypeFrontByHand();
    void progressCountsAndCancels();
};

namespace {

QJsonObject planJson(const QStringList& args)
{
    const ::test::CliRun r = ::test::runHeadroom(QStringList { QStringLiteral("plan"), QStringLiteral("--json") }
                                                 + args);
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QStringList words(const char* s) { return QString::fromLatin1(s).split(QLatin1Char(' '), Qt::SkipEmptyParts); }

std::int64_t fitting(const PlanResult& p)
{
    std::int64_t n = 0;
    for (const PlanLayout& l : p.layouts)
        n += l.fits ? 1 : 0;
    return n;
}

} // namespace

void TestPlanner::consideredIsCountedByHand()
{
    // GPT-2 on 2 GPUs, global batch 8, micro-batches 1, 2, 4, 8 (4 of them), checkpointing none/selective/full (3):
    //   t1 p1 cp1 dp2: 4 micro x 4 ZeRO stages x 3                 = 48
    //   t1 p1 cp2 dp1: 4 x 3                                       = 12
    //   t1 p2 cp1 dp1: 4 x 2 schedules (1F1B, interleaved) x 3     = 24
    //   t2 p1 cp1 dp1: 4 x 2 (SP off, on) x 3                      = 24
    // 108 layouts, with no lever; each lever alone adds a copy of the 108 per alternative it has.
    PlanRequest r;
    r.base = defaultScenario();
    r.base.gpuId = "a100-sxm4-80gb";
    r.base.modelId = "gpt2";
    r.base.config.sequenceLength = 1024;
    r.gpus = 2;
    r.globalBatch = 8;
    r.maxMicroBatch = 8;
    const auto p = plan(headroom::test::catalog(), r);
    QVERIFY(p.ok());
    QCOMPARE(p->considered, 108);
    // offload: one alternative (on); the A100 has no FP8 tensor cores, so precision adds pure BF16 alone.
    r.levers.offload = true;
    r.levers.precision = true;
    r.base.config.precision = Precision::MixedBF16;
    const auto q = plan(headroom::test::catalog(), r);
    QVERIFY(q.ok());
    QCOMPARE(q->considered, 3 * 108);
}

void TestPlanner::rejectionsAddUp_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("perNode");
    QTest::addColumn<bool>("levers");
    // Issue 32's case: its 1,585 rejections exceeded the 922 layouts simulated.
    QTest::newRow("llama 7B, 8 RTX 3090") << "rtx-3090"
                                          << "llama-2-7b" << 8 << 8 << false;
    QTest::newRow("llama 7B, 8 RTX 3090, levers") << "rtx-3090"
                                                  << "llama-2-7b" << 8 << 8 << true;
    QTest::newRow("gpt2, 12 GPUs, 4 per node") << "rtx-3090"
                                               << "gpt2" << 12 << 4 << false;
    QTest::newRow("resnet50, 8 GPUs") << "rtx-3090"
                                      << "resnet50" << 8 << 8 << false;
    QTest::newRow("mixtral, 16 H100") << "h100-sxm5-80gb"
                                      << "mixtral-8x7b" << 16 << 8 << true;
}

void TestPlanner::rejectionsAddUp()
{
    QFETCH(QString, gpu);
    QFETCH(QString, model);
    QFETCH(int, gpus);
    QFETCH(int, perNode);
    QFETCH(bool, levers);
    PlanRequest r;
    r.base = defaultScenario();
    r.base.gpuId = gpu.toStdString();
    r.base.modelId = model.toStdString();
    r.base.config.sequenceLength = model == QLatin1String("resnet50") ? 224 : 1024;
    r.gpus = gpus;
    r.gpusPerNode = perNode;
    r.globalBatch = 64;
    r.levers.precision = r.levers.optimizer = r.levers.offload = levers;
    const auto p = plan(headroom::test::catalog(), r);
    QVERIFY(p.ok());
    std::int64_t rejected = 0;
    for (const PlanRejection& x : p->rejected) {
        QCOMPARE_GT(x.count, 0);
        rejected += x.count;
    }
    // Every layout once: those that fit, or under its first reason. When none fits, the listed layouts are among the
    // rejected ones.
    QCOMPARE(rejected + fitting(*p), p->considered);
    QCOMPARE_LE(p->evaluated, p->considered);
    QVERIFY(!p->assumptions.empty());
}

void TestPlanner::pruningKeepsTheAnswer()
{
    // The planner skips the larger micro-batches of a layout once one does not fit. Simulating every one of them
    // gives the same layouts, in the same order, and the same rejection counts.
    for (auto [gpu, model, gpus, levers] :
         { std::tuple { "rtx-3090", "llama-2-7b", 8, true },
           std::tuple { "rtx-a3000-12gb-laptop", "llama-2-7b", 8, true },
           std::tuple { "a100-sxm4-80gb", "llama-2-7b", 16, false }, std::tuple { "rtx-3090", "gpt2-xl", 4, true } }) {
        PlanRequest r;
        r.base = defaultScenario();
        r.base.gpuId = gpu;
        r.base.modelId = model;
        r.base.config.sequenceLength = 1024;
        r.gpus = gpus;
        r.levers.precision = r.levers.optimizer = r.levers.offload = levers;
        const auto pruned = plan(headroom::test::catalog(), r);
        r.prune = false;
        const auto full = plan(headroom::test::catalog(), r);
        QVERIFY(pruned.ok() && full.ok());
        QCOMPARE_LT(pruned->evaluated, full->evaluated);
        QCOMPARE(pruned->considered, full->considered);
        QCOMPARE(pruned->layouts.size(), full->layouts.size());
        for (std::size_t i = 0; i < pruned->layouts.size(); ++i) {
            QCOMPARE(pruned->layouts[i].throughputPerSecond, full->layouts[i].throughputPerSecond);
            QCOMPARE(pruned->layouts[i].peakBytes, full->layouts[i].peakBytes);
        }
        QCOMPARE(pruned->rejected.size(), full->rejected.size());
        for (std::size_t i = 0; i < pruned->rejected.size(); ++i)
            QCOMPARE(pruned->rejected[i].count, full->rejected[i].count);
    }
}

void TestPlanner::linksAreStatedAndSettable()
{
    // Two RTX 3090s share an NVLink bridge (the GPU file: gpu_link_max_gpus 2); GeForce cards have no PCIe
    // peer-to-peer, so wider groups go through host memory (pcie-shm). Rows say so, and say the link was assumed.
    const QStringList base = words("--gpu rtx-3090 --model llama-2-7b --seq 1024 --gpus 8 --levers none --top 1");
    const QJsonObject automatic = planJson(base);
    bool sawBridge = false;
    for (const QJsonValue& v : automatic.value(QStringLiteral("layouts")).toArray()) {
        const QJsonObject l = v.toObject();
        QCOMPARE(l.value(QStringLiteral("nodes")).toInt(), 1);
        for (const QJsonValue& k : l.value(QStringLiteral("links")).toArray()) {
            const QJsonObject link = k.toObject();
            QVERIFY(link.value(QStringLiteral("assumed")).toBool());
            const int span = link.value(QStringLiteral("span_gpus")).toInt();
            QCOMPARE(link.value(QStringLiteral("kind")).toString(),
                     span == 2 ? QStringLiteral("nvlink-bridge") : QStringLiteral("pcie-shm"));
            sawBridge = sawBridge || span == 2;
        }
    }
    QVERIFY(sawBridge);
    QVERIFY(!automatic.value(QStringLiteral("assumptions")).toArray().isEmpty());

    // --intra-link and --gpus-per-node as `estimate` takes them: every group on PCIe 4, two nodes joined by
    // 100 Gb Ethernet; the rows print the links so that `estimate` reproduces them.
    const QJsonObject given = planJson(base + words("--intra-link pcie4 --gpus-per-node 4 --inter-link eth-100g"));
    const QJsonArray layouts = given.value(QStringLiteral("layouts")).toArray();
    QVERIFY(!layouts.isEmpty());
    bool sawInter = false;
    for (const QJsonValue& v : layouts) {
        const QJsonObject l = v.toObject();
        QCOMPARE(l.value(QStringLiteral("nodes")).toInt(), 2);
        QCOMPARE(l.value(QStringLiteral("options")).toObject().value(QStringLiteral("--intra-link")).toString(),
                 QStringLiteral("pcie4"));
        for (const QJsonValue& k : l.value(QStringLiteral("links")).toArray()) {
            const QJsonObject link = k.toObject();
            QVERIFY(!link.value(QStringLiteral("assumed")).toBool());
            const bool inter = link.value(QStringLiteral("span_gpus")).toInt() > 4;
            QCOMPARE(link.value(QStringLiteral("between_nodes")).toBool(), inter);
            QCOMPARE(link.value(QStringLiteral("kind")).toString(),
                     inter ? QStringLiteral("eth-100g") : QStringLiteral("pcie4"));
            sawInter = sawInter || inter;
        }
    }
    QVERIFY(sawInter);
    const ::test::CliRun bad = ::test::runHeadroom(words("plan --intra-link ib-hdr"));
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--intra-link: ib-hdr joins nodes"), bad.err.constData());
}

void TestPlanner::leversMakeLlamaFitOnLaptops()
{
    // Issue 31: Llama 2 7B on 8 RTX A3000 laptops (12 GB). Full training with mixed-precision AdamW keeps 16 bytes
    // per parameter (ZeRO, Rajbhandari et al. 2020, sec. 3.1): 6.74B x 16 / 8 GPUs = 13.5 GB per GPU even fully
    // sharded, so no layout fits without a lever. Pure BF16 (8 bytes per parameter) or the optimizer states on the
    // host (ZeRO-Offload: 8 bytes on the GPU) halve that, and the planner finds layouts that fit, naming the lever.
    const QStringList base = words("--gpu rtx-a3000-12gb-laptop --model llama-2-7b --seq 512 --gpus 8");
    const QJsonObject none = planJson(base + words("--levers none"));
    QVERIFY(!none.value(QStringLiteral("layouts")).toArray().first().toObject().value(QStringLiteral("fits")).toBool());
    const QJsonObject with = planJson(base);
    const QJsonArray layouts = with.value(QStringLiteral("layouts")).toArray();
    QVERIFY(!layouts.isEmpty());
    QStringList pulled;
    for (const QJsonValue& v : layouts) {
        const QJsonObject l = v.toObject();
        QVERIFY(l.value(QStringLiteral("fits")).toBool());
        const QJsonArray levers = l.value(QStringLiteral("levers")).toArray();
        QCOMPARE(levers.size(), 1);
        pulled << levers.first().toString();
    }
    QVERIFY2(pulled.contains(QStringLiteral("offload")), qPrintable(pulled.join(QLatin1Char(','))));
    QVERIFY2(pulled.contains(QStringLiteral("bf16-pure")), qPrintable(pulled.join(QLatin1Char(','))));
}

void TestPlanner::qloraOnOneLaptop()
{
    // One A3000: even pure BF16 weights of Llama 2 7B (13.5 GB) overflow 12 GB, and LoRA keeps the 16-bit base, so
    // only QLoRA's 4-bit base (6.74B x 4.127 bits = 3.5 GB, Dettmers et al. 2023) fits. Without --allow-finetune the
    // planner says that QLoRA would; with it, the answer is the one-GPU QLoRA layout.
    const QStringList base = words(
        "--gpu rtx-a3000-12gb-laptop --model llama-2-7b --seq 512 --gpus 1 --global-batch 8");
    const QJsonObject without = planJson(base);
    QVERIFY(
        !without.value(QStringLiteral("layouts")).toArray().first().toObject().value(QStringLiteral("fits")).toBool());
    const QJsonObject nearest = without.value(QStringLiteral("nearest")).toObject();
    QCOMPARE_GT(nearest.value(QStringLiteral("short_bytes")).toDouble(), 0.0);
    QStringList levers;
    for (const QJsonValue& v : nearest.value(QStringLiteral("levers_that_fit")).toArray())
        levers << v.toObject().value(QStringLiteral("lever")).toString();
    QCOMPARE(levers, QStringList { QStringLiteral("qlora") });
    QVERIFY(!nearest.value(QStringLiteral("gpus_with_room")).toArray().isEmpty());

    const QJsonObject with = planJson(base + words("--allow-finetune qlora"));
    const QJsonObject best = with.value(QStringLiteral("layouts")).toArray().first().toObject();
    QVERIFY(best.value(QStringLiteral("fits")).toBool());
    QCOMPARE(best.value(QStringLiteral("levers")).toArray().first().toString(), QStringLiteral("qlora"));
    QCOMPARE(best.value(QStringLiteral("options")).toObject().value(QStringLiteral("--finetune")).toString(),
             QStringLiteral("qlora"));
}

void TestPlanner::leverRowsReproduce()
{
    // Issue 11's contract for rows that pulled a lever: their options added to `estimate --gpu --model --seq` give
    // exactly the row's peak, step time, throughput and MFU.
    const QStringList base = words("--gpu rtx-a3000-12gb-laptop --model llama-2-7b --seq 512");
    const QJsonObject p = planJson(
        base + words("--gpus 8 --allow-finetune lora,qlora --levers precision,optimizer,offload"));
    QSet<QString> seen;
    for (const QJsonValue& v : p.value(QStringLiteral("layouts")).toArray()) {
        const QJsonObject l = v.toObject();
        const QString lever = l.value(QStringLiteral("levers")).toArray().first().toString();
        if (seen.contains(lever))
            continue;
        seen.insert(lever);
        ::test::reproducePlanRow(base, l);
        if (QTest::currentTestFailed())
            return;
    }
    QVERIFY2(seen.size() >= 3, qPrintable(QStringList(seen.values()).join(QLatin1Char(','))));
}

void TestPlanner::unevenStagesWhereTheBlocksDoNotDivide()
{
    // Llama 2 7B's 32 blocks on 6 GPUs: 3 or 6 pipeline stages cannot share them evenly. Megatron-LM's
    // get_num_layers_to_build with --decoder-first/last-pipeline-num-layers, worked by hand, with the middle stages
    // at floor or ceil of 32 / p and the first or last stage (or both) holding fewer:
    //   p = 3: 10 + 11 + 11 and 11 + 11 + 10 (10, 10 + 12 or 11 + 10.5 + ... do not divide);
    //   p = 6: 2 + 6 x 5, 6 x 5 + 2 and 4 + 6 x 4 + 4.
    const QStringList base = words("--gpu a100-sxm4-80gb --model llama-2-7b --seq 1024");
    const QJsonObject p = planJson(base + words("--gpus 6 --global-batch 60 --top 1000"));
    QSet<QString> splits;
    QHash<QString, QJsonObject> example;
    for (const QJsonValue& v : p.value(QStringLiteral("layouts")).toArray()) {
        const QJsonObject o = v.toObject().value(QStringLiteral("options")).toObject();
        const QString pp = o.value(QStringLiteral("--pp")).toString();
        if (pp == QLatin1String("1") || pp == QLatin1String("2"))
            continue;
        const QString split = QStringLiteral("%1:%2/%3")
                                  .arg(pp, o.value(QStringLiteral("--pp-first-layers")).toString(),
                                       o.value(QStringLiteral("--pp-last-layers")).toString());
        splits.insert(split);
        example.insert(split, v.toObject());
    }
    const QSet<QString> expected { QStringLiteral("3:10/"), QStringLiteral("3:/10"), QStringLiteral("6:2/"),
                                   QStringLiteral("6:/2"), QStringLiteral("6:4/4") };
    QCOMPARE(splits, expected);
    for (const QJsonValue& x : p.value(QStringLiteral("rejected")).toArray())
        QVERIFY(!x.toObject().value(QStringLiteral("reason")).toString().contains(QLatin1String("evenly")));
    for (const QJsonObject& row : example) {
        ::test::reproducePlanRow(base, row);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestPlanner::acrossGpuTypes()
{
    // Issue 31: a 7B model and 2B tokens on 8 GPUs of four types. Time = tokens / the fastest layout's throughput,
    // GPU-hours = time x 8 / 3600, cost = GPU-hours x the price given. The H100 SXM's dense BF16 peak (989 TFLOP/s,
    // NVIDIA's datasheet) is about three times the A100's (312), which is several times the laptop A3000's: that is
    // their order, fastest first.
    const QStringList args = words("--gpu rtx-a3000-12gb-laptop,rtx-4090,a100-sxm4-80gb,h100-sxm5-80gb --model "
                                   "llama-2-7b --seq 2048 --gpus 8 --global-batch 64 --tokens 2e9 "
                                   "--price h100-sxm5-80gb=2.5 --price a100-sxm4-80gb=1.5");
    const QJsonObject j = planJson(args);
    QCOMPARE(j.value(QStringLiteral("tokens")).toDouble(), 2e9);
    const QJsonArray types = j.value(QStringLiteral("gpu_types")).toArray();
    QCOMPARE(types.size(), 4);
    QStringList order;
    for (const QJsonValue& v : types) {
        const QJsonObject t = v.toObject();
        order << t.value(QStringLiteral("gpu")).toString();
        QVERIFY2(t.value(QStringLiteral("fits")).toBool(), qPrintable(order.last()));
        const QJsonObject best = t.value(QStringLiteral("best")).toObject();
        const double seconds = 2e9 / best.value(QStringLiteral("throughput_per_second")).toDouble();
        QCOMPARE(t.value(QStringLiteral("time_seconds")).toDouble(), seconds);
        QCOMPARE(t.value(QStringLiteral("gpu_hours")).toDouble(), seconds * 8 / 3600);
        QVERIFY(best.value(QStringLiteral("options")).toObject().contains(QStringLiteral("--dp")));
    }
    QCOMPARE(order.first(), QStringLiteral("h100-sxm5-80gb"));
    QVERIFY(order.indexOf(QStringLiteral("a100-sxm4-80gb")) < order.indexOf(QStringLiteral("rtx-a3000-12gb-laptop")));
    QCOMPARE(order.last(), QStringLiteral("rtx-a3000-12gb-laptop"));
    const QJsonObject h100 = types.first().toObject();
    QCOMPARE(h100.value(QStringLiteral("cost")).toDouble(), 2.5 * h100.value(QStringLiteral("gpu_hours")).toDouble());
    QVERIFY(!types.last().toObject().contains(QStringLiteral("cost")));
    // Two of the four types priced: the front is taken against the GPU-hours, which on 8 GPUs of each type follow
    // the time, so the fastest alone is on it.
    QCOMPARE(j.value(QStringLiteral("front_against")).toString(), QStringLiteral("gpu_hours"));
    for (const QJsonValue& v : types)
        QCOMPARE(v.toObject().value(QStringLiteral("pareto_front")).toBool(), v == types.first());

    // The table: one line per type with its time, GPU-hours and layout.
    const ::test::CliRun table = ::test::runHeadroom(QStringList { QStringLiteral("plan") } + args);
    QCOMPARE(table.code, 0);
    for (const char* id : { "rtx-a3000-12gb-laptop", "rtx-4090", "a100-sxm4-80gb", "h100-sxm5-80gb" })
        QVERIFY2(table.out.contains(id), table.out.constData());
    QVERIFY(table.out.contains("GPU-hours"));
    const ::test::CliRun badGpu = ::test::runHeadroom(words("plan --gpu gpt2,rtx-4090"));
    QCOMPARE(badGpu.code, 2);
    const ::test::CliRun notListed = ::test::runHeadroom(
        words("plan --gpu rtx-4090,rtx-3090 --price h100-sxm5-80gb=2"));
    QCOMPARE(notListed.code, 2);
    QVERIFY2(notListed.err.contains("--price"), notListed.err.constData());
}

// The front of time to train against cost, counted by hand on five made-up types (8 GPUs each; GPU-hours = hours
// x 8): A 10 h at $1 ($80), B 5 h at $3 ($120), C 6 h at $4 ($192: B is faster and cheaper), D does not fit, E as A
// (a tie: neither is better in one). With E's price gone the front is against the GPU-hours: B alone (40 GPU-hours
// against A's and E's 80 and C's 48).
void TestPlanner::gpuTypeFrontByHand()
{
    std::vector<GpuTypePlan> types;
    for (auto [id, hours, fits] :
         { std::tuple { "A", 10.0, true }, std::tuple { "B", 5.0, true }, std::tuple { "C", 6.0, true },
           std::tuple { "D", 0.0, false }, std::tuple { "E", 10.0, true } }) {
        GpuTypePlan t;
        t.gpuId = id;
        t.fits = fits;
        t.seconds = hours * 3600.0;
        t.gpuHours = hours * 8.0;
        types.push_back(t);
    }
    GpuPrices prices { { "A", 1.0 }, { "B", 3.0 }, { "C", 4.0 }, { "E", 1.0 } };
    QCOMPARE(gpuTypeCost(types[1], prices).value_or(-1.0), 120.0);
    QCOMPARE(gpuTypeCost(types[2], prices).value_or(-1.0), 192.0);
    QVERIFY(!gpuTypeCost(types[3], { { "D", 1.0 } }));
    GpuTypeFront front = gpuTypeFront(types, prices);
    QVERIFY(front.byCost);
    QCOMPARE(front.onFront, (std::vector<bool> { true, true, false, false, true }));
    prices.erase("E");
    front = gpuTypeFront(types, prices);
    QVERIFY(!front.byCost);
    QCOMPARE(front.onFront, (std::vector<bool> { false, true, false, false, false }));
}

// The Plan dock's progress bar and its way to drop a plan a newer change superseded (PlanProgress): every layout
// enumerated is decided once; a cancelled plan stops between runs of layouts and says it was cancelled, not wrong.
void TestPlanner::progressCountsAndCancels()
{
    PlanRequest r;
    r.base = defaultScenario();
    r.base.gpuId = "a100-sxm4-80gb";
    r.base.modelId = "gpt2";
    r.base.config.sequenceLength = 1024;
    r.gpus = 8;
    r.globalBatch = 64;
    PlanProgress progress;
    r.progress = &progress;
    const auto p = plan(headroom::test::catalog(), r);
    QVERIFY(p.ok());
    QCOMPARE(progress.decided.load(), progress.enumerated.load());
    QCOMPARE_LE(p->evaluated, progress.enumerated.load());  // simulated, or pruned after a smaller one failed
    QCOMPARE_LE(progress.enumerated.load(), p->considered); // less those the enumeration rejected
    QVERIFY(!progress.cancelled);

    PlanProgress before;
    before.cancelled = true;
    r.progress = &before;
    const auto none = plan(headroom::test::catalog(), r);
    QVERIFY(!none.ok());
    QVERIFY(none.error().kind == ErrorKind::Cancelled);
    QCOMPARE(before.decided.load(), 0);

    HEADROOM_SKIP_PLANNER_UNDER_SANITIZER();
    // Cancelled while it runs: it stops well before the end (Llama 2 7B on 64 H100s is ~900 runs of layouts).
    PlanProgress during;
    r.base.gpuId = "h100-sxm5-80gb";
    r.base.modelId = "llama-2-7b";
    r.gpus = 64;
    r.globalBatch = 512;
    r.progress = &during;
    std::optional<Expected<PlanResult>> result;
    std::atomic<bool> done { false };
    std::thread worker([&] {
        result.emplace(plan(headroom::test::catalog(), r));
        done = true;
    });
    while (during.decided == 0 && !done)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    during.cancelled = true;
    worker.join();
    QVERIFY(result && !result->ok());
    QVERIFY(result->error().kind == ErrorKind::Cancelled);
    QCOMPARE_LT(during.decided.load(), during.enumerated.load() / 2);
}

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
