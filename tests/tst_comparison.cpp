// The GPU comparison: every row is the scenario on that GPU alone, the capacity is the GPU file's, an epoch is
// the hand-counted number of optimizer steps times the step time; and the view shows the explainer's GPUs and
// follows the scenario. Set HEADROOM_SCREENSHOT_DIR to save pictures of the view there.

#include "comparison.h"
#include "testsupport.h"

#ifdef HEADROOM_WITH_GUI
#include "gpucomparisonchart.h"
#include "gpucomparisonmodel.h"
#include "gpucomparisonview.h"

#include <QAbstractItemModel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#endif

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

using namespace headroom;

class TestComparison : public QObject {
    Q_OBJECT

private slots:
    void capacityIsTheGpuFile_data();
    void capacityIsTheGpuFile();
    void rowIsTheEstimateAlone_data();
    void rowIsTheEstimateAlone();
    void epochIsHandCountedSteps_data();
    void epochIsHandCountedSteps();
    void biggerGpusFitAtLeastTheA3000_data();
    void biggerGpusFitAtLeastTheA3000();
    void defaultGpus();
    void servingRowsFollowTheBandwidth();
#ifdef HEADROOM_WITH_GUI
    void viewShowsTheExplainerGpus();
    void gpuNamesStayReadableInANarrowDock();
    void microBatchChangesThePeakColumn();
    void hiddenViewWaitsUntilShown();
    void csvReadsBack();
    void viewCanPickEveryCatalogGpu();
#endif
};

namespace {

const std::vector<std::string> kExplainer { "rtx-a3000-12gb-laptop", "rtx-3090", "a100-sxm4-80gb", "h100-sxm5-80gb" };

std::vector<const GpuSpec*> explainerGpus()
{
    std::vector<const GpuSpec*> gpus;
    for (const auto& id : kExplainer)
        gpus.push_back(&test::gpu(id.c_str()));
    return gpus;
}

TrainingConfig bertConfig(std::int64_t microBatch)
{
    TrainingConfig c; // the explainer's setting (defaultScenario()), without its what-if bandwidth
    c.microBatch = microBatch;
    c.sequenceLength = 512;
    c.precision = Precision::MixedFP16;
    return c;
}

// A scenario with a what-if bandwidth: the comparison must ignore it (each GPU at its own figures).
Scenario scenarioFor(const std::string& modelId, const TrainingConfig& config)
{
    Scenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = modelId;
    s.config = config;
    s.overrides.bandwidthBytesPerSecond = 1e9;
    return s;
}

} // namespace

void TestComparison::capacityIsTheGpuFile_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(HEADROOM_SOURCE_DIR "/gpus"));
    const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 4);
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
}

void TestComparison::capacityIsTheGpuFile()
{
    QFETCH(QString, file);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonObject memory = root.value(QStringLiteral("memory")).toObject();
    // docs/formats.md: the driver-reported MiB where the file has it, else the vendor's GB read as GiB.
    const double reportedMiB
        = memory.value(QStringLiteral("reported_mib")).toObject().value(QStringLiteral("value")).toDouble();
    const double capacityGB
        = memory.value(QStringLiteral("capacity_gb")).toObject().value(QStringLiteral("value")).toDouble();
    const double expected = reportedMiB > 0 ? reportedMiB * 1048576.0 : capacityGB * 1073741824.0;
    QVERIFY(expected > 0);

    const GpuSpec& gpu = test::gpu(root.value(QStringLiteral("id")).toString().toStdString().c_str());
    const auto rows = compareGpus(test::catalog(), scenarioFor("bert-base", bertConfig(8)), { &gpu }, 1000.0);
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows[0].gpu, &gpu);
    QCOMPARE(rows[0].capacityBytes, expected);
}

void TestComparison::rowIsTheEstimateAlone_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("microBatch");
    QTest::addColumn<int>("sequence");
    QTest::newRow("bert-base b16 s512") << QStringLiteral("bert-base") << 16 << 512;
    QTest::newRow("bert-base b96 s512") << QStringLiteral("bert-base") << 96 << 512;
    QTest::newRow("gpt2-xl b4 s1024") << QStringLiteral("gpt2-xl") << 4 << 1024;
    QTest::newRow("llama-2-7b b1 s2048") << QStringLiteral("llama-2-7b") << 1 << 2048;
    QTest::newRow("vit-b-16 b64 224") << QStringLiteral("vit-b-16") << 64 << 224;
    QTest::newRow("resnet50 b128 224") << QStringLiteral("resnet50") << 128 << 224;
}

// Serving Llama-2-7B in 4-bit GPTQ at batch 1: each row is simulateInference on that GPU at its own figures (a what-if
// of the current GPU is not carried over), and decode, which reads every weight and the KV cache once per token, is
// bandwidth-bound: the A3000's time per token over the H100's is the H100's datasheet bandwidth over the A3000's
// (3350 / 336 GB/s), within 15 % (launch overhead and the compute-bound attention of a long context aside).
void TestComparison::servingRowsFollowTheBandwidth()
{
    InferenceScenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "llama-2-7b";
    s.config.weights = WeightFormat::Gptq4;
    s.config.batch = 1;
    s.config.prompt = 512;
    s.config.generate = 128;
    s.overrides.bandwidthBytesPerSecond = 392e9; // the default scenario's what-if: not the other GPUs'
    const auto rows = compareGpusServing(test::catalog(), s, explainerGpus());
    QCOMPARE(rows.size(), kExplainer.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        InferenceScenario alone = s;
        alone.gpuId = kExplainer[i];
        alone.overrides = {};
        const auto e = simulateInference(test::catalog(), alone);
        QVERIFY(bool(e));
        QCOMPARE(rows[i].gpu, &test::gpu(kExplainer[i].c_str()));
        QCOMPARE(rows[i].tokensPerSecond, e->tokensPerSecond);
        QCOMPARE(rows[i].maxBatch, e->maxBatch);
        QCOMPARE(rows[i].fits, e->fits);
    }
    const auto& a3000 = rows.front();
    const auto& h100 = rows.back();
    QCOMPARE(h100.gpu->id, std::string("h100-sxm5-80gb"));
    const double bandwidthRatio = h100.gpu->bandwidthBytesPerSecond() / a3000.gpu->bandwidthBytesPerSecond();
    const double timeRatio = a3000.decodeSecondsPerToken / h100.decodeSecondsPerToken;
    QVERIFY2(std::abs(timeRatio / bandwidthRatio - 1.0) < 0.15,
             qPrintable(QStringLiteral("%1 vs %2").arg(timeRatio).arg(bandwidthRatio)));
    QVERIFY(h100.maxBatch > a3000.maxBatch);
}

void TestComparison::rowIsTheEstimateAlone()
{
    QFETCH(QString, model);
    QFETCH(int, microBatch);
    QFETCH(int, sequence);
    const ModelSpec& m = test::preset(model.toStdString().c_str());
    TrainingConfig c = bertConfig(microBatch);
    c.sequenceLength = sequence;
    c.precision = Precision::MixedBF16;
    c.overheadBytes = 3.0 * 1073741824.0; // a what-if of the current GPU: the comparison uses each GPU's own
    TrainingConfig alone = c;
    alone.overheadBytes.reset();

    const auto rows = compareGpus(test::catalog(), scenarioFor(m.id, c), explainerGpus(), 1e6);
    QCOMPARE(rows.size(), kExplainer.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const GpuSpec& gpu = test::gpu(kExplainer[i].c_str());
        const Estimate e = estimate(m, gpu, alone);
        QCOMPARE(rows[i].gpu, &gpu);
        QCOMPARE(rows[i].peakBytes, e.peakBytes);
        // "Fits" by the one rule (fitVerdict): the peak, then the caching allocator replayed under the capacity.
        Scenario single = scenarioFor(m.id, alone);
        single.gpuId = gpu.id;
        SimulateOptions quick;
        quick.searches = false;
        const auto full = simulate(test::catalog(), single, quick);
        QVERIFY(full);
        QCOMPARE(rows[i].fits, fitsOnDevice(*full));
        // The largest micro-batch by the same rule, the window's verdict's (the searches), not the peak's: the
        // A3000 row said 27 where the verdict said 25.
        const auto searched = simulate(test::catalog(), single, SimulateOptions {});
        QVERIFY(searched);
        QCOMPARE(rows[i].maxMicroBatch, searched->estimate.maxMicroBatch);
        QCOMPARE(rows[i].headroomBytes, searched->verdict.freeBytes()); // "4.3 GiB free" beside a verdict's 4.14
        QCOMPARE(rows[i].neededBytes, searched->verdict.neededBytes);
        QCOMPARE_LE(rows[i].maxMicroBatch, e.maxMicroBatch);
        QVERIFY(!rows[i].fits || e.fits); // the replay holds at least the peak's bytes
        QCOMPARE(rows[i].stepSeconds, e.stepSeconds);
        QCOMPARE(rows[i].tokensPerSecond, e.throughputPerSecond);
        // The largest micro-batch is the largest: it fits, one more does not.
        if (rows[i].maxMicroBatch > 0) {
            for (const std::int64_t b : { rows[i].maxMicroBatch, rows[i].maxMicroBatch + 1 }) {
                single.config.microBatch = b;
                const auto at = simulate(test::catalog(), single, quick);
                QVERIFY(at);
                QCOMPARE(fitsOnDevice(*at), b == rows[i].maxMicroBatch);
            }
        }
    }
}

void TestComparison::epochIsHandCountedSteps_data()
{
    QTest::addColumn<double>("samples");
    QTest::addColumn<int>("microBatch");
    QTest::addColumn<int>("accumulation");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<qlonglong>("steps");                                               // counted by hand
    QTest::newRow("1,000,001 / (16x4x2 = 128)") << 1000001.0 << 16 << 4 << 2 << 7813LL; // 7812 x 128 = 999,936
    QTest::newRow("999,936 / 128, exact") << 999936.0 << 16 << 4 << 2 << 7812LL;
    QTest::newRow("999,937 / 128") << 999937.0 << 16 << 4 << 2 << 7813LL;
    QTest::newRow("50,000 / 32") << 50000.0 << 32 << 1 << 1 << 1563LL;                    // 1562 x 32 = 49,984
    QTest::newRow("1,281,167 ImageNet / (16x3)") << 1281167.0 << 16 << 3 << 1 << 26691LL; // 26690 x 48 = 1,281,120
    QTest::newRow("fewer samples than a step") << 5.0 << 16 << 1 << 1 << 1LL;
}

void TestComparison::epochIsHandCountedSteps()
{
    QFETCH(double, samples);
    QFETCH(int, microBatch);
    QFETCH(int, accumulation);
    QFETCH(int, ranks);
    QFETCH(qlonglong, steps);
    TrainingConfig c = bertConfig(microBatch);
    c.gradientAccumulation = accumulation;
    c.dataParallel = ranks;
    const ModelSpec& m = test::preset("bert-base");
    const auto rows = compareGpus(test::catalog(), scenarioFor(m.id, c), explainerGpus(), samples);
    QCOMPARE(rows.size(), kExplainer.size());
    QCOMPARE(stepsPerEpoch(samples, std::int64_t(microBatch) * accumulation * ranks), steps);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Estimate e = estimate(m, test::gpu(kExplainer[i].c_str()), c);
        QCOMPARE(rows[i].samplesPerStep, std::int64_t(microBatch) * accumulation * ranks);
        QCOMPARE(rows[i].stepsPerEpoch, steps);
        QCOMPARE(rows[i].stepSeconds, e.stepSeconds);
        QCOMPARE(rows[i].epochSeconds, double(steps) * e.stepSeconds);
        QCOMPARE(rows[i].samplesPerSecond, double(microBatch * accumulation * ranks) / e.stepSeconds);
    }
    QCOMPARE(stepsPerEpoch(0.0, 128), std::int64_t(0));
}

void TestComparison::biggerGpusFitAtLeastTheA3000_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("sequence");
    for (const char* m : { "bert-base", "bert-large", "gpt2", "gpt2-xl", "qwen2.5-0.5b", "llama-2-7b" })
        QTest::newRow(m) << QString::fromLatin1(m) << 512;
    for (const char* m : { "vit-b-16", "resnet50", "efficientnet-b0" })
        QTest::newRow(m) << QString::fromLatin1(m) << 224;
}

void TestComparison::biggerGpusFitAtLeastTheA3000()
{
    QFETCH(QString, model);
    QFETCH(int, sequence);
    TrainingConfig c = bertConfig(8);
    c.sequenceLength = sequence;
    const GpuSpec& a3000 = test::gpu("rtx-a3000-12gb-laptop");
    std::vector<const GpuSpec*> gpus { &a3000 };
    for (const GpuSpec& g : test::catalog().gpus()) {
        if (g.memoryBytes() > a3000.memoryBytes())
            gpus.push_back(&g);
    }
    QVERIFY(gpus.size() >= 4);
    const auto rows = compareGpus(test::catalog(), scenarioFor(model.toStdString(), c), gpus, 1e6);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        QVERIFY2(rows[i].maxMicroBatch >= rows[0].maxMicroBatch,
                 qPrintable(QStringLiteral("%1: %2 < %3")
                                .arg(QString::fromStdString(rows[i].gpu->id))
                                .arg(rows[i].maxMicroBatch)
                                .arg(rows[0].maxMicroBatch)));
        if (rows[0].fits)
            QVERIFY2(rows[i].fits, rows[i].gpu->id.c_str());
    }
}

void TestComparison::defaultGpus()
{
    const Catalog& cat = test::catalog();
    QCOMPARE(explainerGpuIds(), kExplainer);
    QCOMPARE(defaultComparisonGpuIds(cat, "rtx-a3000-12gb-laptop"), kExplainer);
    QCOMPARE(defaultComparisonGpuIds(cat, "h100-sxm5-80gb"), kExplainer);
    QCOMPARE(defaultComparisonGpuIds(cat, "no-such-gpu"), kExplainer);
    auto withT4 = kExplainer;
    withT4.push_back("t4");
    QCOMPARE(defaultComparisonGpuIds(cat, "t4"), withT4);
    for (const auto& id : kExplainer)
        QVERIFY2(cat.gpu(id), id.c_str());
}

#ifdef HEADROOM_WITH_GUI

namespace {

QStringList shownIds(const QAbstractItemModel* m)
{
    QStringList ids;
    for (int r = 0; r < m->rowCount(); ++r)
        ids << m->index(r, 0).data(gui::GpuComparisonModel::GpuIdRole).toString();
    return ids;
}

QList<double> column(const QAbstractItemModel* m, int c)
{
    QList<double> v;
    for (int r = 0; r < m->rowCount(); ++r)
        v << m->index(r, c).data(Qt::UserRole).toDouble();
    return v;
}

void screenshot(QWidget* w, const char* name)
{
    const QString dir = qEnvironmentVariable("HEADROOM_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(w->grab().save(QDir(dir).filePath(QString::fromLatin1(name))));
}

} // namespace

void TestComparison::viewShowsTheExplainerGpus()
{
    gui::GpuComparisonView view(test::catalog());
    view.setScenario(defaultScenario());
    view.resize(1280, 720);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(!view.busy());                               // shown: computed on a worker
    const QAbstractItemModel* shown = view.table()->model(); // what the table shows, through its sort proxy
    QCOMPARE(shown->rowCount(), 4);
    QStringList expected;
    for (const auto& id : kExplainer)
        expected << QString::fromStdString(id);
    QCOMPARE(shownIds(shown), expected);
    QCOMPARE(view.selectedGpuIds(), expected);
    QCOMPARE(shown->index(0, 0).data().toString(), QStringLiteral("RTX A3000 12GB Laptop GPU (current)"));
    // The verdict is told in words, not only by colour.
    for (int r = 0; r < shown->rowCount(); ++r) {
        const QString verdict = shown->index(r, gui::GpuComparisonModel::FitsColumn).data().toString();
        const bool fits = view.rows()[std::size_t(r)].fits;
        QVERIFY2(verdict.contains(fits ? QStringLiteral("Yes") : QStringLiteral("No")), qPrintable(verdict));
        QVERIFY(shown->index(r, gui::GpuComparisonModel::FitsColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(fits ? QStringLiteral("Fits") : QStringLiteral("Does not fit")));
    }
    QCOMPARE(view.chart()->epochBars().size(), 4);
    screenshot(&view, "gpucomparison-default.png");

    // Another GPU as the scenario's joins the comparison, and leaves again with the next.
    Scenario s = defaultScenario();
    s.gpuId = "t4";
    view.setScenario(s);
    view.refresh();
    QCOMPARE(shownIds(shown), expected + QStringList { QStringLiteral("t4") });
    s.gpuId = "l4";
    view.setScenario(s);
    view.refresh();
    QCOMPARE(shownIds(shown), expected + QStringList { QStringLiteral("l4") });
}

// The table's first column says which GPU a row is about, so it keeps the names whole where the dock is narrower than
// the numbers (a 1024-pixel window leaves the table about 770 pixels; it scrolls sideways), and takes the room the
// numbers leave where the dock is wide. Before, the name took only what the numbers left: "RTX..." and "A10...".
void TestComparison::gpuNamesStayReadableInANarrowDock()
{
    gui::GpuComparisonView view(test::catalog());
    view.setScenario(defaultScenario());
    view.resize(1000, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(!view.busy());
    QTableView* table = view.table();
    const QAbstractItemModel* shown = table->model();
    QCOMPARE(shown->rowCount(), 4);
    const int nameColumn = gui::GpuComparisonModel::GpuColumn;
    auto columnsWidth = [&] {
        int w = 0;
        for (int c = 0; c < shown->columnCount(); ++c)
            w += table->columnWidth(c);
        return w;
    };
    QTRY_VERIFY(table->viewport()->width() < columnsWidth()); // narrower than the numbers: it scrolls
    const QFontMetrics metrics(table->font());
    for (int r = 1; r < shown->rowCount(); ++r) { // row 0 is the current GPU's, in bold with "(current)"
        const QString name = shown->index(r, nameColumn).data().toString();
        QVERIFY2(table->columnWidth(nameColumn) >= metrics.horizontalAdvance(name), qPrintable(name));
    }

    view.resize(2400, 420);
    QTRY_COMPARE(columnsWidth(), table->viewport()->width()); // wide: the name takes the room left
    QCOMPARE_GT(table->columnWidth(nameColumn),
                metrics.horizontalAdvance(shown->index(0, nameColumn).data().toString()));
}

void TestComparison::microBatchChangesThePeakColumn()
{
    gui::GpuComparisonView view(test::catalog());
    Scenario s = defaultScenario();
    view.setScenario(s);
    view.resize(1280, 720);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(!view.busy());
    const QAbstractItemModel* shown = view.table()->model();
    const QList<double> before = column(shown, gui::GpuComparisonModel::PeakColumn);
    QCOMPARE(before.size(), 4);

    QSignalSpy computed(&view, &gui::GpuComparisonView::comparisonChanged);
    s.config.microBatch = 64;
    view.setScenario(s); // computed after a short pause, as during a slider drag
    QTRY_COMPARE(computed.count(), 1);
    const QList<double> after = column(shown, gui::GpuComparisonModel::PeakColumn);
    QCOMPARE(after.size(), 4);
    TrainingConfig alone = s.config;
    for (int r = 0; r < 4; ++r) {
        QCOMPARE_GT(after[r], before[r]);
        const Estimate e = estimate(test::preset("bert-base"), test::gpu(kExplainer[std::size_t(r)].c_str()), alone);
        // What the verdict counts (the replay's reserved + context), at least the tensors' peak: the column beside
        // "Fits?", whose free bytes it makes the capacity with (a peak of 6.8 GiB beside "4.2 GiB free" of 12).
        QCOMPARE_GE(after[r], e.peakBytes);
        const GpuComparisonRow& row = view.rows()[std::size_t(r)];
        QCOMPARE(after[r], row.neededBytes);
        // The window's verdict for that GPU, searched: what the column shows is what it counts.
        Scenario single = s;
        single.gpuId = kExplainer[std::size_t(r)];
        single.overrides = {};
        const auto searched = simulate(test::catalog(), single, SimulateOptions {});
        QVERIFY(searched);
        QCOMPARE(row.neededBytes, searched->verdict.neededBytes);
        // The largest micro-batch does not depend on the current one; the replay's is at most the peak's.
        QCOMPARE_LE(shown->index(r, gui::GpuComparisonModel::MaxBatchColumn).data(Qt::UserRole).toLongLong(),
                    e.maxMicroBatch);
    }
    QVERIFY(shown->headerData(gui::GpuComparisonModel::PeakColumn, Qt::Horizontal)
                .toString()
                .contains(QStringLiteral("64")));
    // BERT-base at 64 x 512 needs about 23 GiB: not on the 12 GB laptop GPU, whose times are then not shown.
    QVERIFY(!view.rows()[0].fits);
    QVERIFY(shown->index(0, gui::GpuComparisonModel::FitsColumn).data().toString().contains(QStringLiteral("No")));
    QCOMPARE(shown->index(0, gui::GpuComparisonModel::EpochColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(view.chart()->epochBars().first(), 0.0);
    QCOMPARE_GT(view.chart()->epochBars().last(), 0.0);
    screenshot(&view, "gpucomparison-batch64.png");
}

void TestComparison::hiddenViewWaitsUntilShown()
{
    gui::GpuComparisonView view(test::catalog());
    QSignalSpy computed(&view, &gui::GpuComparisonView::comparisonChanged);
    view.setScenario(defaultScenario());
    QTest::qWait(200);
    QCOMPARE(computed.count(), 0);
    QVERIFY(view.rows().empty());
    view.show(); // computed on a worker
    QTRY_COMPARE(computed.count(), 1);
    QCOMPARE(view.rows().size(), kExplainer.size());
}

void TestComparison::viewCanPickEveryCatalogGpu()
{
    // Every GPU of the catalog (82 with the laptop, China-market and current datacenter parts) can be compared: each
    // one selected gives its row, at its own capacity.
    gui::GpuComparisonView view(test::catalog());
    view.setScenario(defaultScenario());
    QStringList all;
    for (const GpuSpec& g : test::catalog().gpus())
        all << QString::fromStdString(g.id);
    QCOMPARE_GE(all.size(), 75);
    view.setSelectedGpuIds(all);
    view.refresh();
    QCOMPARE(view.selectedGpuIds().size(), all.size());
    QCOMPARE(view.rows().size(), std::size_t(all.size()));
    for (const GpuComparisonRow& r : view.rows())
        QCOMPARE(r.capacityBytes, r.gpu->memoryBytes());

    // The list's filter finds GPUs by segment in either language and by vendor, as the picker's search does.
    auto* filter = view.findChild<QLineEdit*>(QStringLiteral("gpuFilterEdit"));
    auto* list = view.findChild<QListWidget*>(QStringLiteral("gpuList"));
    QVERIFY(filter && list);
    auto shown = [&](const QString& text) {
        filter->setText(text);
        QStringList ids;
        for (int i = 0; i < list->count(); ++i)
            if (!list->item(i)->isHidden())
                ids << list->item(i)->data(Qt::UserRole).toString();
        ids.sort();
        return ids;
    };
    auto idsWhere = [](auto pred) {
        QStringList ids;
        for (const GpuSpec& g : test::catalog().gpus())
            if (pred(g))
                ids << QString::fromStdString(g.id);
        ids.sort();
        return ids;
    };
    const QStringList laptops = idsWhere([](const GpuSpec& g) { return g.segmentKind() == GpuSegment::Laptop; });
    QCOMPARE(shown(QStringLiteral("笔记本")), laptops);
    QCOMPARE(shown(QStringLiteral("数据中心")),
             idsWhere([](const GpuSpec& g) { return g.segmentKind() == GpuSegment::Datacenter; }));
    QCOMPARE(shown(QStringLiteral("Huawei")), QStringList { QStringLiteral("ascend-910b") });
    QCOMPARE(shown(QString()).size(), all.size());
}

void TestComparison::csvReadsBack()
{
    gui::GpuComparisonView view(test::catalog());
    view.setScenario(defaultScenario());
    view.setDatasetSamples(1000001.0);
    view.refresh();
    const QStringList lines = view.csv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QVERIFY(lines[0].startsWith(QStringLiteral("gpu_id,gpu,capacity_bytes,peak_bytes,fits,")));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].split(QLatin1Char(','));
        const GpuComparisonRow& r = view.rows()[std::size_t(i - 1)];
        QCOMPARE(f[0], QString::fromStdString(kExplainer[std::size_t(i - 1)]));
        QCOMPARE(f[2].toDouble(), r.capacityBytes);
        QCOMPARE(f[3].toDouble(), r.peakBytes);
        QCOMPARE(f.last().toDouble(), r.neededBytes); // needed_bytes, added at the end
        QCOMPARE(f[f.size() - 2].isEmpty(), !r.fits);
        if (r.fits)
            QCOMPARE(f[f.size() - 2].toDouble(), r.epochSeconds);
    }
}

#endif

#ifdef HEADROOM_WITH_GUI
QTEST_MAIN(TestComparison)
#else
QTEST_GUILESS_MAIN(TestComparison)
#endif
#include "tst_comparison.moc"
