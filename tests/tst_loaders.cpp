// Bad input. Every file under tests/data/bad/ is refused by its loader with a message that names the file and the
// field; the expectations are the tables of tests/data/bad/README.md. Files too big to commit are generated here, the
// Qt-side readers refuse what is not a readable regular file, and extreme but valid settings (a 10-trillion-parameter
// model, CNNs at huge images, every optimizer, every loader maximum) keep every number the simulator returns finite.

#include "catalogloader.h"
#include "hfconfig.h"
#include "modelimport.h"
#include "report.h"
#include "safetensors.h"
#include "scenario.h"
#include "sweep.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtEndian>

#include <sys/stat.h>

#include <cmath>

using namespace headroom;

namespace {

const QString kBadDir = QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/bad");
const QStringList kLoaders = { QStringLiteral("gpu"), QStringLiteral("model"), QStringLiteral("scenario"),
                               QStringLiteral("hfconfig"), QStringLiteral("safetensors") };

std::string_view view(const QByteArray& b) { return { b.constData(), std::size_t(b.size()) }; }

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// The core loader of each folder; the error, or nothing when the text was accepted.
std::optional<Error> load(const QString& loader, std::string_view text, const std::string& origin)
{
    auto error = [](const auto& r) { return r ? std::nullopt : std::optional<Error>(r.error()); };
    if (loader == QLatin1String("gpu"))
        return error(parseGpuSpec(text, origin));
    if (loader == QLatin1String("model"))
        return error(parseModelSpec(text, origin));
    if (loader == QLatin1String("scenario"))
        return error(parseScenario(text, origin));
    if (loader == QLatin1String("hfconfig"))
        return error(importHuggingFaceConfig(text, origin, "bad"));
    return error(parseSafetensorsHeader(text, origin));
}

struct Expectation {
    QString file; // "gpu/empty.json"
    QString field;
    QString says;
};

// Rows of the README's tables: | `gpu/empty.json` | what it exercises | `field` or — | `message contains` |
QList<Expectation> expectations()
{
    static const QRegularExpression row(
        QStringLiteral(R"(^\| `([a-z]+/[^`]+)` \| .+ \| (?:`([^`]+)`|—) \| `(.+)` \|$)"));
    QList<Expectation> list;
    const QStringList lines
        = QString::fromUtf8(readAll(kBadDir + QStringLiteral("/README.md"))).split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        const auto m = row.match(line);
        if (m.hasMatch())
            list.append({ m.captured(1), m.captured(2), m.captured(3) });
    }
    return list;
}

// A safetensors file: 8-byte little-endian length, the header, `dataBytes` zero bytes.
QString writeSafetensors(const QString& path, const QByteArray& header, quint64 declaredLength, qint64 dataBytes = 0)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    uchar prefix[8];
    qToLittleEndian<quint64>(declaredLength, prefix);
    f.write(reinterpret_cast<const char*>(prefix), 8);
    f.write(header);
    f.write(QByteArray(dataBytes, '\0'));
    return path;
}

// True when the process can read a file whatever its mode (root): a mode-000 test then proves nothing.
bool readsEverything(const QString& path)
{
    QFile probe(path);
    return probe.open(QIODevice::ReadOnly);
}

void verifyFinite(const char* what, double v, double slack = 0.0)
{
    QVERIFY2(std::isfinite(v) && v >= -slack, qPrintable(QStringLiteral("%1 = %2").arg(QLatin1String(what)).arg(v)));
}

// What must hold for every estimate, however extreme its inputs.
void verifyEstimate(const Estimate& e, const ModelSpec& model)
{
    verifyFinite("peakBytes", e.peakBytes);
    QCOMPARE_GT(e.peakBytes, 0.0);
    verifyFinite("stepSeconds", e.stepSeconds);
    QCOMPARE_GT(e.stepSeconds, 0.0);
    verifyFinite("mfu", e.mfu);
    verifyFinite("throughputPerSecond", e.throughputPerSecond);
    verifyFinite("modelFlopsPerStep", e.modelFlopsPerStep);
    verifyFinite("hardwareFlopsPerStep", e.hardwareFlopsPerStep);
    verifyFinite("communicationSeconds", e.communicationSeconds);
    verifyFinite("offloadSeconds", e.offloadSeconds);
    QVERIFY(std::isfinite(e.headroomBytes));
    QCOMPARE_GE(e.maxMicroBatch, std::int64_t(0));
    QCOMPARE_GE(e.maxSequence, std::int64_t(0));
    // Sums and differences of very large numbers: allow rounding relative to the peak.
    const double slack = 1e-6 * e.peakBytes;
    for (double v : e.components)
        verifyFinite("component", v, slack);
    for (const CategoryBytes& point : e.timeline) {
        for (double v : point)
            verifyFinite("timeline", v, slack);
    }
    QCOMPARE(e.stepStart.size(), e.timeline.size());
    for (std::size_t i = 1; i < e.stepStart.size(); ++i)
        QCOMPARE_GE(e.stepStart[i], e.stepStart[i - 1]);
    for (const RooflinePoint& p : e.operatorPoints) {
        verifyFinite("operator flops", p.flops);
        verifyFinite("operator bytes", p.bytes);
        verifyFinite("operator seconds", p.seconds);
    }
    const double batches[] = { 1, 1e6, 1e12 };
    for (const SweepPoint& p : batchSweep(*e.schedule, batches, 600.0 * 1048576, e.config.allocatorReserveFraction))
        verifyFinite("sweep peak", p.peakBytes);
    QVERIFY(!estimateToJson(e, model).empty() && !estimateToTable(e, model).empty());
}

// A dense GPT-style decoder of 1.0e13 parameters: 194 layers of 12 x 65536^2. Valid: nothing in it is out of range.
const QByteArray kTenTrillion = R"({"format": "headroom-model", "version": 1, "id": "dense-10t", "name": "Dense 10T",
  "family": "transformer", "reference": {"parameters": 10000000000000},
  "transformer": {"layers": 194, "hidden": 65536, "heads": 512, "ffn": 262144, "vocab": 50257,
    "max_positions": 8192, "causal": true, "norm": "layernorm", "activation": "gelu", "position": "learned",
    "fused_qkv": true, "tied_embeddings": true, "head": "causal_lm", "dropout": {"attention": 0.1, "hidden": 0.1}}})";

// Every size the model format allows at its maximum, on 8 layers to keep the test short (layers only repeat).
const QByteArray kWidest = R"({"format": "headroom-model", "version": 1, "id": "widest", "name": "Widest",
  "family": "transformer", "transformer": {"layers": 8, "hidden": 1048576, "heads": 65536, "kv_heads": 1,
    "ffn": 16777216, "vocab": 16777216, "max_positions": 16777216, "type_vocab": 1024, "causal": true,
    "norm": "rmsnorm", "norm_impl": "upcast", "activation": "silu", "gated_ffn": true, "position": "rotary",
    "head": "causal_lm", "softmax_fp32": true}})";

ModelSpec parsedModel(const QByteArray& text)
{
    auto m = parseModelSpec(view(text), "extreme.json");
    if (!m)
        qFatal("%s", m.error().toString().c_str());
    return *m;
}

} // namespace

class TestLoaders : public QObject {
    Q_OBJECT

private slots:
    void everyBadFileHasAnExpectation();
    void badFiles_data();
    void badFiles();
    void catalogSkipsBadFiles_data();
    void catalogSkipsBadFiles();
    void oversizedText_data();
    void oversizedText();
    void safetensorsFiles_data();
    void safetensorsFiles();
    void modelFiles_data();
    void modelFiles();
    void tenTrillionParametersIsValid();
    void extremeSettingsStayFinite_data();
    void extremeSettingsStayFinite();
    void extremeScenarioStaysFinite_data();
    void extremeScenarioStaysFinite();
    void fixesAreValidConfigurations_data();
    void fixesAreValidConfigurations();
};

void TestLoaders::everyBadFileHasAnExpectation()
{
    QSet<QString> onDisk, inReadme;
    for (const QString& loader : kLoaders) {
        const QStringList files = QDir(kBadDir + QLatin1Char('/') + loader).entryList(QDir::Files);
        QVERIFY2(!files.isEmpty(), qPrintable(loader));
        for (const QString& f : files)
            onDisk.insert(loader + QLatin1Char('/') + f);
    }
    for (const Expectation& e : expectations()) {
        QVERIFY2(!inReadme.contains(e.file), qPrintable(e.file + QStringLiteral(" has two rows")));
        inReadme.insert(e.file);
    }
    const QStringList noRow = (onDisk - inReadme).values();
    const QStringList noFile = (inReadme - onDisk).values();
    QVERIFY2(noRow.isEmpty(), qPrintable(QStringLiteral("no row in README.md: ") + noRow.join(QStringLiteral(", "))));
    QVERIFY2(noFile.isEmpty(), qPrintable(QStringLiteral("no such file: ") + noFile.join(QStringLiteral(", "))));
}

void TestLoaders::badFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("says");
    for (const Expectation& e : expectations())
        QTest::newRow(qPrintable(e.file)) << e.file << e.field << e.says;
}

void TestLoaders::badFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, field);
    QFETCH(QString, says);
    const QString loader = file.section(QLatin1Char('/'), 0, 0);
    const QString path = kBadDir + QLatin1Char('/') + file;
    const QByteArray text = readAll(path);
    QElapsedTimer timer;
    timer.start();
    const auto error = load(loader, view(text), path.toStdString());
    QVERIFY2(error, "accepted");
    const QString message = QString::fromStdString(error->toString());
    QCOMPARE(QString::fromStdString(error->origin), path);
    QCOMPARE(QString::fromStdString(error->field), field);
    QVERIFY2(message.startsWith(path + QStringLiteral(": ")), qPrintable(message));
    QVERIFY2(message.contains(says), qPrintable(message));
    QVERIFY2(error->kind == ErrorKind::BadInput, "reported as Headroom's own fault");
    QCOMPARE_LT(timer.elapsed(), qint64(10000)); // no input may take long, even under the sanitizers

    // The Qt-side readers of the same files name them too.
    if (loader == QLatin1String("model") || loader == QLatin1String("hfconfig")) {
        const auto any = importModelJson(view(text), path.toStdString(), "bad");
        QVERIFY2(!any, "importModelJson accepted it");
        QCOMPARE(QString::fromStdString(any.error().origin), path);
        ModelSpec m;
        const auto fromFile = importModelFile(path, &m);
        QVERIFY2(fromFile, "importModelFile accepted it");
        QVERIFY2(fromFile->startsWith(path + QStringLiteral(": ")), qPrintable(*fromFile));
    } else if (loader == QLatin1String("safetensors")) {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString st = writeSafetensors(dir.filePath(QStringLiteral("m.safetensors")), text, quint64(text.size()));
        SafetensorsSummary s;
        const auto fromFile = readSafetensorsHeader(st, &s);
        QVERIFY2(fromFile, "readSafetensorsHeader accepted it");
        QVERIFY2(fromFile->startsWith(st + QStringLiteral(": ")) && fromFile->contains(says), qPrintable(*fromFile));
    }
}

void TestLoaders::catalogSkipsBadFiles_data()
{
    QTest::addColumn<bool>("gpus");
    QTest::newRow("gpu") << true;
    QTest::newRow("model") << false;
}

void TestLoaders::catalogSkipsBadFiles()
{
    QFETCH(bool, gpus);
    const QString dir = kBadDir + (gpus ? QStringLiteral("/gpu") : QStringLiteral("/model"));
    Catalog catalog;
    LoadReport report;
    CatalogLoader::addDirectory(catalog, dir, gpus, &report);
    QCOMPARE(report.errors.size(), QDir(dir).entryList({ QStringLiteral("*.json") }, QDir::Files).size());
    QCOMPARE(report.gpuFiles + report.modelFiles, 0);
    QVERIFY(catalog.gpus().empty() && catalog.models().empty());
    for (const QString& e : report.errors)
        QVERIFY2(e.startsWith(dir + QLatin1Char('/')), qPrintable(e));
}

void TestLoaders::oversizedText_data()
{
    QTest::addColumn<QString>("loader");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("says");
    const qint64 json = qint64(16) << 20, header = qint64(100) << 20;
    for (const char* loader : { "gpu", "model", "scenario", "hfconfig" })
        QTest::newRow(loader) << QString::fromLatin1(loader) << json + 1
                              << QStringLiteral("file is 16777217 bytes; the limit is 16 MiB");
    QTest::newRow("safetensors") << QStringLiteral("safetensors") << header + 1
                                 << QStringLiteral("file is 104857601 bytes; the limit is 100 MiB");
}

void TestLoaders::oversizedText()
{
    QFETCH(QString, loader);
    QFETCH(qint64, bytes);
    QFETCH(QString, says);
    // A valid start, then one long string: only the size is wrong.
    const QByteArray head = R"({"format": "headroom-x", "model_type": "llama", "__metadata__": {"notes": ")";
    const QByteArray tail = "\"}}";
    const QByteArray text = head + QByteArray(bytes - head.size() - tail.size(), 'x') + tail;
    QCOMPARE(text.size(), bytes);
    const auto error = load(loader, view(text), "big.json");
    QVERIFY(error);
    QCOMPARE(QString::fromStdString(error->field), QString());
    QCOMPARE(QString::fromStdString(error->toString()), QStringLiteral("big.json: ") + says);
}

void TestLoaders::safetensorsFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("says");
    QTest::newRow("length 2^60") << QStringLiteral(
        "2^60") << QStringLiteral("header length 1152921504606846976 bytes is above the 100 MiB limit");
    QTest::newRow("length 2^64-1") << QStringLiteral(
        "2^64-1") << QStringLiteral("header length 18446744073709551615 bytes is above the 100 MiB limit");
    QTest::newRow("header past the end") << QStringLiteral(
        "past end") << QStringLiteral("header length 1000 bytes is longer than the 54 bytes that follow it");
    QTest::newRow("seven bytes") << QStringLiteral(
        "7 bytes") << QStringLiteral("file is 7 bytes; a .safetensors file starts with an 8-byte header length");
    QTest::newRow("zero length") << QStringLiteral("zero length")
                                 << QStringLiteral("the header must be a JSON object starting with '{'");
    QTest::newRow("directory") << QStringLiteral("directory")
                               << QStringLiteral("is a directory, not a .safetensors file");
    QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("cannot read (");
    QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("is not a regular file");
    QTest::newRow("mode 000") << QStringLiteral("mode 000") << QStringLiteral("cannot read (");
}

void TestLoaders::safetensorsFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("m.safetensors"));
    const QByteArray header = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    if (kind == QLatin1String("2^60"))
        writeSafetensors(path, header, quint64(1) << 60, 8);
    else if (kind == QLatin1String("2^64-1"))
        writeSafetensors(path, header, ~quint64(0), 8);
    else if (kind == QLatin1String("past end"))
        writeSafetensors(path, header, 1000);
    else if (kind == QLatin1String("zero length"))
        writeSafetensors(path, QByteArray(), 0, 16);
    else if (kind == QLatin1String("7 bytes")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\x38\0\0\0\0\0\0", 7);
    } else if (kind == QLatin1String("directory"))
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("m.safetensors")));
    else if (kind == QLatin1String("fifo"))
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    else if (kind == QLatin1String("mode 000")) {
        writeSafetensors(path, header, quint64(header.size()), 8);
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        if (readsEverything(path))
            QSKIP("this process reads files whatever their mode (root): a mode-000 file proves nothing here");
    }
    SafetensorsSummary s;
    const auto error = readSafetensorsHeader(path, &s);
    QVERIFY(error);
    QVERIFY2(error->startsWith(path + QStringLiteral(": ")), qPrintable(*error));
    QVERIFY2(error->contains(says), qPrintable(*error));
}

void TestLoaders::modelFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("says");
    QTest::newRow("17 MiB") << QStringLiteral("17 MiB")
                            << QStringLiteral("file is 17825792 bytes; the limit is 16777216");
    QTest::newRow("directory without config.json")
        << QStringLiteral("empty dir") << QStringLiteral("directory has no config.json");
    QTest::newRow("config.json is a directory")
        << QStringLiteral("config dir") << QStringLiteral("is a directory, not a file");
    QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("no such file");
    QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("is not a regular file");
    QTest::newRow("mode 000") << QStringLiteral("mode 000") << QStringLiteral("cannot read (");
}

void TestLoaders::modelFiles()
{
    QFETCH(QString, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path = dir.filePath(QStringLiteral("model.json"));
    if (kind == QLatin1String("17 MiB")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(17) << 20)); // sparse: nothing is written
    } else if (kind == QLatin1String("empty dir")) {
        path = dir.path();
    } else if (kind == QLatin1String("config dir")) {
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("checkpoint/config.json")));
        path = dir.filePath(QStringLiteral("checkpoint"));
    } else if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QLatin1String("mode 000")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(readAll(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/models/gpt2.json")));
        f.close();
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        if (readsEverything(path))
            QSKIP("this process reads files whatever their mode (root): a mode-000 file proves nothing here");
    }
    ModelSpec m;
    const auto error = importModelFile(path, &m);
    QVERIFY(error);
    QVERIFY2(error->startsWith(path), qPrintable(*error));
    QVERIFY2(error->contains(says), qPrintable(*error));
}

void TestLoaders::tenTrillionParametersIsValid()
{
    const ModelSpec m = parsedModel(kTenTrillion);
    QCOMPARE(m.reference.parameters, std::int64_t(10'000'000'000'000));
    TrainingConfig c;
    c.sequenceLength = 2048;
    const Estimate e = estimate(m, test::gpu("h100-sxm5-80gb"), c, {}, test::fastOptions());
    QCOMPARE_GE(e.parameters, 1.0e13);
    QCOMPARE_LT(e.parameters, 1.001e13);
    QVERIFY(!e.fits);
    QCOMPARE(e.maxMicroBatch, std::int64_t(0));
    verifyEstimate(e, m);
}

void TestLoaders::extremeSettingsStayFinite_data()
{
    // tst_simulator's extremeSettingsStayFinite covers GPT-2 at batch 1e6, Llama 2 7B at sequence 1e6 and on 1024
    // ranks, ResNet-50 at 16384 px; these rows add the 10T model, every optimizer, every precision, offload and the
    // largest images a scenario allows.
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("seq");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("zero");
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<bool>("offload");
    const qint64 maxBatch = qint64(1) << 40, maxSeq = qint64(1) << 30; // scenario.cpp's limits
    const char* precisions[] = { "fp32", "tf32", "fp16", "bf16", "bf16-pure", "fp8" };
    int i = 0;
    for (const char* opt :
         { "adamw", "adam", "sgd", "sgd-momentum", "adamw-8bit", "adafactor", "paged-adamw", "paged-adamw-8bit" }) {
        const QString o = QString::fromLatin1(opt);
        const QString p = QString::fromLatin1(precisions[i++ % 6]);
        QTest::newRow(qPrintable(QStringLiteral("10T %1 %2 ZeRO-3 1024 ranks").arg(o, p)))
            << QStringLiteral("10t") << qint64(1) << qint64(4096) << 1024 << 3 << o << p << false;
        QTest::newRow(qPrintable(QStringLiteral("10T %1 batch 1e6 seq 1e6 offload").arg(o)))
            << QStringLiteral("10t") << qint64(1000000) << qint64(1000000) << 1 << 0 << o << QStringLiteral("bf16")
            << true;
        QTest::newRow(qPrintable(QStringLiteral("efficientnet-b0 %1 %2 image 65536").arg(o, p)))
            << QStringLiteral("efficientnet-b0") << qint64(1000000) << qint64(65536) << 8 << 2 << o << p << false;
    }
    QTest::newRow("resnet50 image 2^30 batch 2^40")
        << QStringLiteral("resnet50") << maxBatch << maxSeq << 1 << 0 << QStringLiteral("sgd-momentum")
        << QStringLiteral("fp32") << false;
    QTest::newRow("mobilenet-v2 image 2^30") << QStringLiteral("mobilenet-v2") << qint64(1) << maxSeq << 1 << 0
                                             << QStringLiteral("adamw") << QStringLiteral("bf16") << false;
    QTest::newRow("vit-b-16 image 2^30") << QStringLiteral("vit-b-16") << qint64(1) << maxSeq << 4 << 1
                                         << QStringLiteral("adamw") << QStringLiteral("fp16") << false;
    QTest::newRow("vit-b-16 image smaller than a patch")
        << QStringLiteral("vit-b-16") << qint64(1) << qint64(8) << 1 << 0 << QStringLiteral("adamw")
        << QStringLiteral("bf16") << false;
    QTest::newRow("widest model, every maximum") << QStringLiteral("widest") << maxBatch << maxSeq << (1 << 20) << 3
                                                 << QStringLiteral("adafactor") << QStringLiteral("fp8") << true;
}

void TestLoaders::extremeSettingsStayFinite()
{
    QFETCH(QString, model);
    QFETCH(qint64, batch);
    QFETCH(qint64, seq);
    QFETCH(int, ranks);
    QFETCH(int, zero);
    QFETCH(QString, optimizer);
    QFETCH(QString, precision);
    QFETCH(bool, offload);
    const ModelSpec m = model == QLatin1String("10t") ? parsedModel(kTenTrillion)
        : model == QLatin1String("widest")            ? parsedModel(kWidest)
                                                      : test::preset(model.toStdString().c_str());
    TrainingConfig c;
    c.microBatch = batch;
    c.sequenceLength = seq;
    c.dataParallel = ranks;
    c.zeroStage = zero;
    c.optimizer = *optimizerFromString(optimizer.toStdString());
    c.precision = *precisionFromString(precision.toStdString());
    c.offloadOptimizer = offload;
    c.checkpointing = Checkpointing::Selective;
    c.attention = AttentionImpl::Eager;
    QVERIFY(!validateConfig(c));
    verifyEstimate(estimate(m, test::gpu("h100-sxm5-80gb"), c, {}, test::fastOptionsWithTimeline()), m);
}

void TestLoaders::extremeScenarioStaysFinite_data()
{
    // Every scenario field at the end of its range, with the 10T model embedded: what a saved scenario may hold.
    QTest::addColumn<QByteArray>("overrides");
    QTest::newRow("smallest what-ifs") << QByteArray(
        R"({"memory_gib": 0.001, "bandwidth_gb_per_s": 0.001, "peak_tflops": 1e-6})");
    QTest::newRow("largest what-ifs") << QByteArray(
        R"({"memory_gib": 1048576, "bandwidth_gb_per_s": 1e7, "peak_tflops": 1e7})");
}

void TestLoaders::extremeScenarioStaysFinite()
{
    QFETCH(QByteArray, overrides);
    const QByteArray text = R"({"format": "headroom-scenario", "version": 1, "gpu": "t4", "model": )" + kTenTrillion
        + R"(, "micro_batch": 1099511627776, "sequence_length": 1073741824, "precision": "fp16",
        "mixed_style": "master-weights", "master_gradients": "low", "zero_stage": 3, "data_parallel": 1048576,
        "offload_optimizer": true, "checkpointing": "full", "attention": "eager", "optimizer": "adamw-8bit",
        "gradient_accumulation": 1048576, "overhead_mib": 16777216, "allocator_reserve": 10, "overrides": )"
        + overrides + "}";
    const auto doc = parseScenario(view(text), "extreme.headroom.json");
    QVERIFY2(doc, doc ? "" : doc.error().toString().c_str());
    QVERIFY(doc->embeddedModel);
    const Estimate e = estimate(*doc->embeddedModel, test::gpu("t4"), doc->scenario.config, doc->scenario.overrides,
                                test::fastOptionsWithTimeline());
    verifyEstimate(e, *doc->embeddedModel);
    QVERIFY(!e.fits);
}

void TestLoaders::fixesAreValidConfigurations_data()
{
    // Found by fuzz_gpu, fuzz_model and fuzz_hfconfig: cutting a micro-batch of 2^40 to what fits kept the global
    // batch with int(2^40 / 8) accumulation steps, past an int (undefined behaviour) and past validateConfig's 2^20.
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<int>("accumulation");
    QTest::newRow("gpt2 batch 2^40") << QStringLiteral("gpt2") << (qint64(1) << 40) << 1;
    QTest::newRow("gpt2 batch 4096 x 2^20 steps") << QStringLiteral("gpt2") << qint64(4096) << (1 << 20);
    QTest::newRow("resnet50 batch 2^40") << QStringLiteral("resnet50") << (qint64(1) << 40) << 16;
    QTest::newRow("gpt2 batch 256 (the fix exists)") << QStringLiteral("gpt2") << qint64(256) << 4;
}

void TestLoaders::fixesAreValidConfigurations()
{
    QFETCH(QString, model);
    QFETCH(qint64, batch);
    QFETCH(int, accumulation);
    const ModelSpec& m = test::preset(model.toStdString().c_str());
    const GpuSpec& g = test::gpu("rtx-a3000-12gb-laptop");
    TrainingConfig c;
    c.microBatch = batch;
    c.gradientAccumulation = accumulation;
    c.sequenceLength = m.defaultSequence;
    const Estimate e = estimate(m, g, c, {}, test::fastOptions());
    QVERIFY(!e.fits);
    bool smaller = false;
    for (const Fix& f : suggestFixes(m, g, c, {}, e)) {
        const auto invalid = validateConfig(f.config);
        QVERIFY2(!invalid, invalid ? invalid->toString().c_str() : "");
        verifyFinite("fix peak", f.peakBytes);
        verifyFinite("fix step", f.stepSeconds);
        smaller = smaller || f.kind == FixKind::SmallerMicroBatch;
    }
    // The smaller micro-batch keeps the global batch; it exists only while the steps that takes fit in 2^20.
    QCOMPARE(smaller, double(batch) * accumulation / double(e.maxMicroBatch) <= double(1 << 20));
}

QTEST_APPLESS_MAIN(TestLoaders)
#include "tst_loaders.moc"
