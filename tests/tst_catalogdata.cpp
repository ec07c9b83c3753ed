// The data that ships: every GPU file and model preset loads and validates, and every preset builds exactly the
// published number of parameters.

#include "modelgraph.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace headroom;

class TestCatalogData : public QObject {
    Q_OBJECT

private slots:
    void everyGpuFileLoads_data();
    void everyGpuFileLoads();
    void catalogCoversTheExplainer();
    void a3000DatasheetFigures();
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
    // ../shared/reference/gpu-specs.csv, row rtx_a3000_laptop_12gb: 192-bit x 14 Gbps = 336 GB/s; the driver
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
