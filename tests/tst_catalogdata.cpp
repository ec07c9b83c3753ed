// The data that ships: every GPU file and model preset loads and validates, every GPU figure names its sources,
// bandwidths agree with bus width x data rate in the reference tables, and every preset builds exactly the published
// number of parameters.

#include "modelgraph.h"
#include "scenario.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

using namespace headroom;

class TestCatalogData : public QObject {
    Q_OBJECT

private slots:
    void everyGpuFileLoads_data();
    void everyGpuFileLoads();
    void catalogCoversTheExplainer();
    void a3000DatasheetFigures();
    void catalogHoldsTheIssue10Gpus();
    void everyFigureHasASource_data();
    void everyFigureHasASource();
    void bandwidthIsBusTimesDataRate_data();
    void bandwidthIsBusTimesDataRate();
    void bandwidthExceptionsAreStillExceptions();
    void laptopFilesStateTheirTgp();
    void everyPresetLoads_data();
    void everyPresetLoads();
    void parameterCounts_data();
    void parameterCounts();
    void serializationRoundTrips();
};

static QStringList jsonFiles(const char* sub)
{
    QDir d(QStringLiteral(HEADROOM_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(sub));
    QStringList out;
    for (const QString& f : d.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
        out << d.filePath(f);
    return out;
}

void TestCatalogData::everyGpuFileLoads_data()
{
    QTest::addColumn<QString>("path");
    const QStringList files = jsonFiles("gpus");
    QVERIFY(files.size() >= 30);
    for (const QString& f : files)
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TestCatalogData::everyGpuFileLoads()
{
    QFETCH(QString, path);
    QByteArray text;
    QVERIFY2(!CatalogLoader::readFile(path, &text), qPrintable(path));
    const auto gpu = parseGpuSpec(std::string_view(text.constData(), size_t(text.size())), path.toStdString());
    QVERIFY2(gpu.ok(), gpu.ok() ? "" : gpu.error().toString().c_str());
    QCOMPARE(QString::fromStdString(gpu->id) + QStringLiteral(".json"), QFileInfo(path).fileName());
    QCOMPARE_GT(gpu->memoryBytes(), 1e9);
    QCOMPARE_GT(gpu->bandwidthBytesPerSecond(), 1e11);
    QVERIFY(gpu->supports(MathUnit::Fp32Vector));
    QCOMPARE_GT(gpu->overheadBytes(), 0.0);
    // Serialising and parsing again gives the same figures.
    const auto again = parseGpuSpec(serializeGpuSpec(*gpu), "round trip");
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
    QCOMPARE(again->memoryBytes(), gpu->memoryBytes());
    QCOMPARE(again->bandwidthGBps.value, gpu->bandwidthGBps.value);
    for (int u = 0; u < kMathUnitCount; ++u)
        QCOMPARE(again->peakTflops[u].value, gpu->peakTflops[u].value);
}

void TestCatalogData::catalogCoversTheExplainer()
{
    const auto& c = test::catalog();
    QCOMPARE_GE(int(c.gpus().size()), 30);
    // The explainer compares the RTX A3000 with the RTX 3090, A100 and H100; both A3000 laptop variants ship.
    for (const char* id : { "rtx-a3000-12gb-laptop", "rtx-a3000-6gb-laptop", "rtx-3090", "a100-sxm4-80gb",
                            "a100-pcie-40gb", "h100-sxm5-80gb", "h100-pcie-80gb" })
        QVERIFY2(c.gpu(id), id);
}

void TestCatalogData::a3000DatasheetFigures()
{
    // docs/references/gpu-specs.csv, row rtx_a3000_laptop_12gb: 192-bit x 14 Gbps = 336 GB/s; the driver
    // reports 12288 MiB (NVIDIA System Information dump, GIST-A3000); no FP8.
    const GpuSpec& g = test::gpu("rtx-a3000-12gb-laptop");
    QCOMPARE(g.bandwidthGBps.value, 336.0);
    QCOMPARE(g.memoryBytes(), 12288.0 * 1048576.0);
    QCOMPARE(g.busWidthBits.value, 192.0);
    QVERIFY(!g.supports(MathUnit::Fp8Tensor));
    QVERIFY(!g.bandwidthGBps.sources.empty());
    const GpuSpec& small = test::gpu("rtx-a3000-6gb-laptop");
    QCOMPARE(small.bandwidthGBps.value, 264.0);
    QCOMPARE(small.capacityGB.value, 6.0);

    // The default scenario: the explainer's 392 GB/s is a visible what-if on top of the datasheet.
    const Scenario s = defaultScenario();
    QCOMPARE(QString::fromStdString(s.gpuId), QStringLiteral("rtx-a3000-12gb-laptop"));
    const Estimate e = estimate(test::preset(s.modelId.c_str()), g, s.config, s.overrides);
    QVERIFY(e.gpu.bandwidthOverridden);
    QCOMPARE(e.gpu.bandwidthBytesPerSecond, 392e9);
    QCOMPARE(g.bandwidthBytesPerSecond(), 336e9);
    QVERIFY(QString::fromStdString(e.gpu.overrideNote).contains(QStringLiteral("336")));
    QCOMPARE(e.capacityBytes, 12288.0 * 1048576.0);
}

void TestCatalogData::catalogHoldsTheIssue10Gpus()
{
    const auto& c = test::catalog();
    QCOMPARE_GE(int(c.gpus().size()), 75);
    // docs/references/gpu-specs-extra.csv: laptop, China-market and current data-center parts, each its own file.
    for (const char* id : { "rtx-3050-laptop-4gb",
                            "rtx-3050-laptop-6gb",
                            "rtx-3060-laptop-6gb",
                            "rtx-3070-laptop-8gb",
                            "rtx-3070-ti-laptop-8gb",
                            "rtx-3080-laptop-8gb",
                            "rtx-3080-laptop-16gb",
                            "rtx-3080-ti-laptop-16gb",
                            "rtx-4050-laptop-6gb",
                            "rtx-4060-laptop-8gb",
                            "rtx-4070-laptop-8gb",
                            "rtx-4080-laptop-12gb",
                            "rtx-4090-laptop-16gb",
                            "rtx-5070-laptop-8gb",
                            "rtx-5080-laptop-16gb",
                            "rtx-5090-laptop-24gb",
                            "rtx-a2000-laptop-4gb",
                            "rtx-a4000-laptop-8gb",
                            "rtx-a5000-laptop-16gb",
                            "rtx-2000-ada-laptop-8gb",
                            "rtx-3500-ada-laptop-12gb",
                            "rtx-5000-ada-laptop-16gb",
                            "a800-pcie-80gb",
                            "a800-sxm4-80gb",
                            "h800-pcie-80gb",
                            "h800-sxm5-80gb",
                            "h20-96gb",
                            "l20-48gb",
                            "l2-24gb",
                            "rtx-4090d",
                            "ascend-910b",
                            "b300-hgx",
                            "gb300",
                            "gb200",
                            "h100-nvl-94gb",
                            "l40",
                            "a16",
                            "a2",
                            "mi325x",
                            "mi355x",
                            "gaudi3",
                            "rtx-pro-6000-blackwell" })
        QVERIFY2(c.gpu(id), id);
    // The A800 and H800 differ from the A100 / H100 in NVLink: 400 GB/s.
    for (const char* id : { "a800-pcie-80gb", "a800-sxm4-80gb", "h800-sxm5-80gb" })
        QCOMPARE(test::gpu(id).gpuLinkGBps.value, 400.0);
    QCOMPARE(test::gpu("a800-sxm4-80gb").gpuLinkMaxGpus, 8);
    // Vendors beyond NVIDIA and AMD are their own vendor, so the picker groups them apart.
    QCOMPARE(QString::fromStdString(test::gpu("ascend-910b").vendor), QStringLiteral("Huawei"));
    QCOMPARE(QString::fromStdString(test::gpu("gaudi3").vendor), QStringLiteral("Intel"));
    // What a vendor does not publish is said in the file.
    QVERIFY(QString::fromStdString(test::gpu("ascend-910b").notes).contains(QStringLiteral("Huawei publishes no")));
    QVERIFY(QString::fromStdString(test::gpu("ascend-910b").peakTflops[int(MathUnit::Fp32Vector)].note)
                .contains(QStringLiteral("Huawei publishes no FP32 rate")));
    // The L20's tensor rates are the retailer listing's (via Tom's Hardware), not the FP32 rate stood in for them.
    QCOMPARE(test::gpu("l20-48gb").peakTflops[int(MathUnit::Bf16Tensor)].value, 119.5);
    // NVIDIA publishes no bus width or memory clock for the L2: the file has none rather than a guessed one.
    QVERIFY(!test::gpu("l2-24gb").busWidthBits.present());
    // An assumption the format forces (it requires a host link) is marked as one.
    QCOMPARE(QString::fromStdString(test::gpu("rtx-3500-ada-laptop-12gb").pcieGBps.confidence),
             QStringLiteral("estimate"));
}

void TestCatalogData::everyFigureHasASource_data()
{
    QTest::addColumn<QString>("id");
    for (const GpuSpec& g : test::catalog().gpus())
        QTest::newRow(g.id.c_str()) << QString::fromStdString(g.id);
}

void TestCatalogData::everyFigureHasASource()
{
    QFETCH(QString, id);
    const GpuSpec& g = test::gpu(id.toStdString().c_str());
    static const QSet<QString> confidences = { QString(), QStringLiteral("datasheet"), QStringLiteral("secondary"),
                                               QStringLiteral("derived"), QStringLiteral("estimate") };
    auto check = [&](const SourcedFigure& f, const char* what) {
        if (!f.present())
            return;
        QVERIFY2(!f.sources.empty(), what);
        for (const std::string& s : f.sources) {
            const auto it = g.sources.find(s);
            QVERIFY2(it != g.sources.end(),
                     qPrintable(QStringLiteral("%1 cites %2").arg(QLatin1String(what), QString::fromStdString(s))));
            QVERIFY2(!it->second.title.empty(), qPrintable(QString::fromStdString(s)));
        }
        QVERIFY2(confidences.contains(QString::fromStdString(f.confidence)), what);
    };
    QVERIFY(g.capacityGB.present());
    QVERIFY(g.bandwidthGBps.present());
    QVERIFY(g.pcieGBps.present());
    check(g.capacityGB, "memory.capacity_gb");
    check(g.reportedMiB, "memory.reported_mib");
    check(g.busWidthBits, "memory.bus_width_bits");
    check(g.bandwidthGBps, "memory.bandwidth_gb_per_s");
    static const char* units[] = { "compute_tflops.fp32", "compute_tflops.tf32", "compute_tflops.fp16",
                                   "compute_tflops.bf16", "compute_tflops.fp8" };
    static_assert(int(std::size(units)) == kMathUnitCount);
    for (int u = 0; u < kMathUnitCount; ++u)
        check(g.peakTflops[u], units[u]);
    check(g.pcieGBps, "links.pcie_gb_per_s");
    check(g.gpuLinkGBps, "links.gpu_link_gb_per_s");
    check(g.frameworkOverheadMiB, "framework_overhead_mib");
    // Headroom's default for the architecture, an estimate, except where it was measured on the GPU itself (the
    // H200's, tests/data/measured/README.md): derived from that measurement.
    const bool measured = g.frameworkOverheadMiB.sources == std::vector<std::string> { "HEADROOM-H200-CONTEXT" };
    QCOMPARE(QString::fromStdString(g.frameworkOverheadMiB.confidence),
             measured ? QStringLiteral("derived") : QStringLiteral("estimate"));
}

// The reference tables the GPU files are generated from (tools/gpus_from_csv.py), read as RFC 4180 CSV.
static QList<QHash<QString, QString>> referenceRows()
{
    QList<QHash<QString, QString>> rows;
    for (const char* name : { "gpu-specs.csv", "gpu-specs-extra.csv" }) {
        QFile f(QStringLiteral(HEADROOM_SOURCE_DIR "/docs/references/") + QLatin1String(name));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", name);
        const QString text = QString::fromUtf8(f.readAll());
        QList<QStringList> records(1);
        QString cell;
        bool quoted = false;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar ch = text[i];
            if (quoted) {
                if (ch == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    cell += ch;
                    ++i;
                } else if (ch == QLatin1Char('"')) {
                    quoted = false;
                } else {
                    cell += ch;
                }
            } else if (ch == QLatin1Char('"')) {
                quoted = true;
            } else if (ch == QLatin1Char(',')) {
                records.last() << cell;
                cell.clear();
            } else if (ch == QLatin1Char('\n')) {
                records.last() << cell;
                cell.clear();
                records.append(QStringList());
            } else if (ch != QLatin1Char('\r')) {
                cell += ch;
            }
        }
        if (!cell.isEmpty() || !records.last().isEmpty())
            records.last() << cell;
        const QStringList header = records.takeFirst();
        for (const QStringList& r : std::as_const(records)) {
            if (r.size() <= 1)
                continue;
            if (r.size() != header.size())
                qFatal("%s: a row has %d cells, the header %d", name, int(r.size()), int(header.size()));
            QHash<QString, QString> row;
            for (qsizetype c = 0; c < header.size(); ++c)
                row.insert(header[c], r[c]);
            row.insert(QStringLiteral("_table"), QLatin1String(name));
            rows << row;
        }
    }
    return rows;
}

// Rows whose published bandwidth is not bus width x data rate / 8 (to within 0.05 %), and why. Every other row
// with both figures must satisfy it.
static const QHash<QString, QString>& bandwidthExceptions()
{
    static const QHash<QString, QString> e = {
        { QStringLiteral("v100_sxm2_16gb"),
          QStringLiteral("NVIDIA states 900 GB/s; 4096-bit x 1.75 Gbps (TechPowerUp's clock) = 896") },
        { QStringLiteral("v100_sxm2_32gb"),
          QStringLiteral("NVIDIA states 900 GB/s; 4096-bit x 1.75 Gbps (TechPowerUp's clock) = 896") },
        { QStringLiteral("v100_pcie_16gb"),
          QStringLiteral("NVIDIA states 900 GB/s; 4096-bit x 1.75 Gbps (TechPowerUp's clock) = 896") },
        { QStringLiteral("v100_pcie_32gb"),
          QStringLiteral("NVIDIA states 900 GB/s; 4096-bit x 1.75 Gbps (TechPowerUp's clock) = 896") },
        { QStringLiteral("a100_80gb_sxm4"),
          QStringLiteral("NVIDIA states 2,039 GB/s; AnandTech's ~3.2 Gbps is rounded (5120 x 3.2 / 8 = 2,048)") },
        { QStringLiteral("h100_sxm5"), QStringLiteral("NVIDIA states 3.35 TB/s; AnandTech's 5.24 Gbps gives 3,353.6") },
    };
    return e;
}

static double cellNumber(const QHash<QString, QString>& row, const char* column)
{
    bool ok = false;
    const double v = row.value(QLatin1String(column)).toDouble(&ok);
    return ok ? v : 0.0;
}

void TestCatalogData::bandwidthIsBusTimesDataRate_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("bus");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("bandwidth");
    int withBoth = 0;
    for (const auto& row : referenceRows()) {
        const double bus = cellNumber(row, "memory_bus_width_bits");
        const double rate = cellNumber(row, "memory_data_rate_Gbps_per_pin");
        if (bus <= 0 || rate <= 0)
            continue; // one of the two is not published: nothing to check
        ++withBoth;
        const QString id = row.value(QStringLiteral("id"));
        QTest::newRow(qPrintable(id)) << row.value(QStringLiteral("_table")) << id << bus << rate
                                      << cellNumber(row, "memory_bandwidth_GB_per_s");
    }
    QVERIFY(withBoth >= 40);
}

// The GPU file a reference row generated: its notes end "Reference id: <row id> (<table>)".
static const GpuSpec* gpuOfRow(const QString& id, const QString& table)
{
    const std::string tag = "Reference id: " + id.toStdString() + " (" + table.toStdString() + ")";
    for (const GpuSpec& g : test::catalog().gpus())
        if (g.notes.find(tag) != std::string::npos)
            return &g;
    return nullptr;
}

void TestCatalogData::bandwidthIsBusTimesDataRate()
{
    QFETCH(QString, table);
    QFETCH(QString, id);
    QFETCH(double, bus);
    QFETCH(double, rate);
    QFETCH(double, bandwidth);
    const GpuSpec* g = gpuOfRow(id, table);
    QVERIFY2(g, qPrintable(id));
    // The file carries the table's figures.
    QCOMPARE(g->bandwidthGBps.value, bandwidth);
    QCOMPARE(g->busWidthBits.value, bus);
    if (bandwidthExceptions().contains(id))
        QSKIP(qPrintable(bandwidthExceptions().value(id)));
    const double computed = bus * rate / 8.0;
    QVERIFY2(std::abs(computed - bandwidth) <= 0.0005 * bandwidth,
             qPrintable(QStringLiteral("%1: %2-bit x %3 Gbps / 8 = %4, table says %5")
                            .arg(id)
                            .arg(bus)
                            .arg(rate)
                            .arg(computed)
                            .arg(bandwidth)));
}

void TestCatalogData::bandwidthExceptionsAreStillExceptions()
{
    // Each listed exception must exist and still disagree, so the list cannot hide a fixed or removed row.
    QSet<QString> seen;
    for (const auto& row : referenceRows()) {
        const QString id = row.value(QStringLiteral("id"));
        if (!bandwidthExceptions().contains(id))
            continue;
        seen << id;
        const double bus = cellNumber(row, "memory_bus_width_bits");
        const double rate = cellNumber(row, "memory_data_rate_Gbps_per_pin");
        const double bandwidth = cellNumber(row, "memory_bandwidth_GB_per_s");
        QVERIFY2(bus > 0 && rate > 0 && std::abs(bus * rate / 8.0 - bandwidth) > 0.0005 * bandwidth, qPrintable(id));
    }
    QCOMPARE(seen.size(), bandwidthExceptions().size());
}

void TestCatalogData::laptopFilesStateTheirTgp()
{
    // Laptop figures depend on the TGP the laptop maker picked: every laptop file says which TGP its figures are for.
    int laptops = 0;
    static const QRegularExpression tgp(QStringLiteral("TGP (range \\d+-\\d+ W|up to \\d+ W|\\d+ W)"));
    for (const GpuSpec& g : test::catalog().gpus()) {
        const QString seg = QString::fromStdString(g.segment);
        if (!seg.contains(QLatin1String("laptop")) && !seg.contains(QLatin1String("mobile")))
            continue;
        ++laptops;
        if (g.id.starts_with("rtx-a3000"))
            continue; // first-batch rows: their notes give the TGP in prose
        QVERIFY2(tgp.match(QString::fromStdString(g.notes)).hasMatch(), g.id.c_str());
        QVERIFY2(QString::fromStdString(g.notes).contains(QLatin1String("figures at")), g.id.c_str());
    }
    QCOMPARE_GE(laptops, 20);
}

void TestCatalogData::everyPresetLoads_data()
{
    QTest::addColumn<QString>("path");
    for (const QString& f : jsonFiles("resources/models"))
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

void TestCatalogData::everyPresetLoads()
{
    QFETCH(QString, path);
    QByteArray text;
    QVERIFY(!CatalogLoader::readFile(path, &text));
    const auto m = parseModelSpec(std::string_view(text.constData(), size_t(text.size())), path.toStdString());
    QVERIFY2(m.ok(), m.ok() ? "" : m.error().toString().c_str());
    QCOMPARE(QString::fromStdString(m->id) + QStringLiteral(".json"), QFileInfo(path).fileName());
    QVERIFY(!m->reference.implementation.empty());
    QVERIFY(!m->reference.parametersSource.empty());
}

void TestCatalogData::parameterCounts_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("published");
    // Hugging Face checkpoints as their `architectures` entry builds them, counted with
    // sum(p.numel() for p in model.parameters()) (shared weights once), as printed on model cards and by
    // transformers; torchvision counts from its model documentation ("num_params").
    QTest::newRow("gpt2 (GPT2LMHeadModel)") << QStringLiteral("gpt2") << qint64(124439808);
    QTest::newRow("gpt2-medium") << QStringLiteral("gpt2-medium") << qint64(354823168);
    QTest::newRow("gpt2-large") << QStringLiteral("gpt2-large") << qint64(774030080);
    QTest::newRow("gpt2-xl") << QStringLiteral("gpt2-xl") << qint64(1557611200);
    QTest::newRow("bert-base-uncased (BertForMaskedLM)") << QStringLiteral("bert-base") << qint64(109514298);
    QTest::newRow("bert-large-uncased (BertForMaskedLM)") << QStringLiteral("bert-large") << qint64(335174458);
    QTest::newRow("Llama-2-7b-hf") << QStringLiteral("llama-2-7b") << qint64(6738415616);
    QTest::newRow("Meta-Llama-3-8B") << QStringLiteral("llama-3-8b") << qint64(8030261248);
    QTest::newRow("Mistral-7B-v0.1") << QStringLiteral("mistral-7b") << qint64(7241732096);
    QTest::newRow("Qwen2.5-0.5B") << QStringLiteral("qwen2.5-0.5b") << qint64(494032768);
    QTest::newRow("torchvision vit_b_16") << QStringLiteral("vit-b-16") << qint64(86567656);
    QTest::newRow("torchvision resnet50") << QStringLiteral("resnet50") << qint64(25557032);
    QTest::newRow("torchvision mobilenet_v2") << QStringLiteral("mobilenet-v2") << qint64(3504872);
    QTest::newRow("torchvision efficientnet_b0") << QStringLiteral("efficientnet-b0") << qint64(5288548);
    // Headroom's own 100M example: 12 GPT layers of 12h^2 + 13h parameters, h = 768, plus a 16000 x 768 tied
    // embedding, 1024 learned positions and the final LayerNorm (closed form, Kaplan et al. 2020 sec. 2.1).
    const qint64 h = 768;
    QTest::newRow("transformer-100m (closed form)")
        << QStringLiteral("transformer-100m") << qint64(12 * (12 * h * h + 13 * h) + 16000 * h + 1024 * h + 2 * h);
}

void TestCatalogData::parameterCounts()
{
    QFETCH(QString, id);
    QFETCH(qint64, published);
    const ModelSpec& m = test::preset(id.toStdString().c_str());
    for (auto attention : { AttentionImpl::Fused, AttentionImpl::Eager }) {
        TrainingConfig c;
        c.attention = attention;
        c.sequenceLength = m.defaultSequence;
        const Graph g = buildGraph(m, c);
        QCOMPARE(qint64(g.parameterCount()), published);
    }
    QCOMPARE(qint64(m.reference.parameters), published);
}

void TestCatalogData::serializationRoundTrips()
{
    for (const ModelSpec& m : test::catalog().models()) {
        const auto again = parseModelSpec(serializeModelSpec(m), m.id);
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
        TrainingConfig c;
        c.sequenceLength = m.defaultSequence;
        QCOMPARE(buildGraph(*again, c).parameterCount(), buildGraph(m, c).parameterCount());
        QCOMPARE(serializeModelSpec(*again), serializeModelSpec(m));
    }
}

QTEST_APPLESS_MAIN(TestCatalogData)
#include "tst_catalogdata.moc"
