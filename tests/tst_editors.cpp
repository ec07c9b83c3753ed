// The model and GPU editors, offscreen, and the user's data files behind them: a shape typed into the model editor
// gives the published parameter count; invalid fields disable Save and are named; what is saved loads again after a
// restart with the same figures; export and import round-trip; bad files are refused naming the field; a save that
// cannot complete leaves no partial file. QStandardPaths test mode keeps the user's real data directory untouched.

#include "catalogloader.h"
#include "gpueditordialog.h"
#include "modeleditordialog.h"
#include "modelgraph.h"
#include "userdata.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <cmath>
#include <limits>

using namespace headroom;
using namespace headroom::gui;

// Functions that return std::optional<QString> (an error message): fail with the message.
#define QVERIFY_NO_ERROR(expr)                                                                                         \
    do {                                                                                                               \
        const std::optional<QString> error_ = (expr);                                                                  \
        QVERIFY2(!error_, error_ ? qPrintable(*error_) : "");                                                          \
    } while (false)

namespace {

QString dataRoot() { return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation); }

template <typename T>
T* child(const QWidget& w, const char* name)
{
    T* c = w.findChild<T*>(QLatin1String(name));
    if (!c)
        qFatal("no child %s", name);
    return c;
}

void selectBase(const QWidget& dialog, const char* id)
{
    auto* combo = child<QComboBox>(dialog, "baseCombo");
    const int i = combo->findData(QLatin1String(id));
    if (i < 0)
        qFatal("no base %s", id);
    combo->setCurrentIndex(i);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

// A .safetensors file: 8-byte little-endian header length, the JSON header, zero bytes for the data.
QString writeSafetensors(const QString& path, const QList<QPair<QString, qint64>>& f32Tensors)
{
    QByteArray header = "{";
    qint64 offset = 0;
    for (const auto& [name, elements] : f32Tensors) {
        header += QStringLiteral("\"%1\":{\"dtype\":\"F32\",\"shape\":[%2],\"data_offsets\":[%3,%4]},")
                      .arg(name)
                      .arg(elements)
                      .arg(offset)
                      .arg(offset + 4 * elements)
                      .toUtf8();
        offset += 4 * elements;
    }
    header.chop(1);
    header += "}";
    uchar prefix[8];
    qToLittleEndian<quint64>(quint64(header.size()), prefix);
    writeAll(path, QByteArray(reinterpret_cast<const char*>(prefix), 8) + header + QByteArray(offset, '\0'));
    return path;
}

} // namespace

class TestEditors : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void shapeGivesPublishedCount_data();
    void shapeGivesPublishedCount();
    void invalidModelFieldsDisableSave_data();
    void invalidModelFieldsDisableSave();
    void invalidGpuFieldsDisableSave();
    void gpuSurvivesRestart();
    void modelSurvivesRestart();
    void exportImportRoundTrip();
    void badUserGpuFileIsRejected_data();
    void badUserGpuFileIsRejected();
    void userEntryShadowsBundled();
    void saveIsAtomic();
    void checkpointComparison();
    void importHuggingFaceConfig();
    void screenshots();

private:
    Catalog m_catalog;
};

void TestEditors::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // ~/.qttest/share/..., never the user's data directory
    QCoreApplication::setOrganizationName(QStringLiteral("headroom-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_editors"));
    QVERIFY(dataRoot().contains(QLatin1String(".qttest")));
    m_catalog = CatalogLoader::bundled();
}

void TestEditors::init() { QDir(dataRoot()).removeRecursively(); }

void TestEditors::cleanupTestCase() { QDir(dataRoot()).removeRecursively(); }

void TestEditors::shapeGivesPublishedCount_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QList<int>>("shape"); // layers, hidden, heads, kv heads, ffn, vocab, max positions
    QTest::addColumn<qint64>("published");
    // sum(p.numel()) of the transformers model for the checkpoint's config.json (tied weights once), as
    // tst_catalogdata and tests/data/hf/SOURCES.md cite them. Each row starts from a model of another shape.
    // GPT-2 (GPT2LMHeadModel, openai-community/gpt2): 124,439,808, keras-hub preset gpt2_base_en "params".
    QTest::newRow("GPT-2 from transformer-100m")
        << QStringLiteral("transformer-100m") << QList<int> { 12, 768, 12, 12, 3072, 50257, 1024 } << qint64(124439808);
    // BERT-base uncased (BertForMaskedLM): 109,514,298, lucid model zoo "Total Parameters: 109,514,298" and public
    // notebooks' sum(p.numel()); Google publishes "110M".
    QTest::newRow("BERT-base from BERT-large")
        << QStringLiteral("bert-large") << QList<int> { 12, 768, 12, 12, 3072, 30522, 512 } << qint64(109514298);
    // Meta-Llama-3-8B (LlamaForCausalLM, GQA with 8 KV heads, SwiGLU 14336, untied 128256 vocabulary):
    // 8,030,261,248, the count Meta's checkpoint holds (keras-hub preset llama3_8b_en "params").
    QTest::newRow("Llama-3-8B from Llama-2-7B")
        << QStringLiteral("llama-2-7b") << QList<int> { 32, 4096, 32, 8, 14336, 128256, 8192 } << qint64(8030261248);
}

void TestEditors::shapeGivesPublishedCount()
{
    QFETCH(QString, base);
    QFETCH(QList<int>, shape);
    QFETCH(qint64, published);
    ModelEditorDialog dialog(m_catalog, nullptr);
    selectBase(dialog, qPrintable(base));
    const char* spins[] = { "layersSpin", "hiddenSpin", "headsSpin",       "kvHeadsSpin",
                            "ffnSpin",    "vocabSpin",  "maxPositionsSpin" };
    for (int i = 0; i < 7; ++i)
        child<QSpinBox>(dialog, spins[i])->setValue(shape[i]);
    child<QSpinBox>(dialog, "sequenceSpin")->setValue(std::min(shape[6], 512));
    QVERIFY2(dialog.isValid(), qPrintable(dialog.validationMessage()));
    QCOMPARE(dialog.parameterCount(), published);
    QVERIFY(child<QLabel>(dialog, "countLabel")->text().contains(QLocale().toString(published)));
    const ModelSpec m = dialog.model();
    QCOMPARE(qint64(m.reference.parameters), published);
    QVERIFY(m.reference.checkpoint.empty()); // the base's checkpoint does not describe the edited model
}

void TestEditors::invalidModelFieldsDisableSave_data()
{
    QTest::addColumn<QString>("spin");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("field"); // the label the message names
    QTest::newRow("0 layers") << QStringLiteral("layersSpin") << 0 << QStringLiteral("Layers");
    QTest::newRow("heads not dividing hidden") << QStringLiteral("headsSpin") << 7 << QStringLiteral("Attention heads");
    QTest::newRow("KV heads not dividing heads") << QStringLiteral("kvHeadsSpin") << 5 << QStringLiteral("KV heads");
    QTest::newRow("0 vocabulary") << QStringLiteral("vocabSpin") << 0 << QStringLiteral("Vocabulary");
    QTest::newRow("sequence past learned positions")
        << QStringLiteral("sequenceSpin") << 4096 << QStringLiteral("Default sequence");
}

void TestEditors::invalidModelFieldsDisableSave()
{
    QFETCH(QString, spin);
    QFETCH(int, value);
    QFETCH(QString, field);
    ModelEditorDialog dialog(m_catalog, m_catalog.model("gpt2"));
    QVERIFY(dialog.saveButton()->isEnabled());
    auto* box = child<QSpinBox>(dialog, qPrintable(spin));
    const int good = box->value();
    box->setValue(value);
    QVERIFY(!dialog.saveButton()->isEnabled());
    QVERIFY(!dialog.isValid());
    const QString message = child<QLabel>(dialog, "messageLabel")->text();
    QVERIFY2(message.startsWith(field + QLatin1Char(':')), qPrintable(message));
    QCOMPARE(dialog.parameterCount(), -1);
    dialog.accept(); // refused: nothing saved, still open
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QVERIFY(!QDir(CatalogLoader::userModelDirectory()).exists());
    box->setValue(good);
    QVERIFY(dialog.saveButton()->isEnabled());
    QVERIFY(child<QLabel>(dialog, "messageLabel")->text().isEmpty());
}

void TestEditors::invalidGpuFieldsDisableSave()
{
    GpuEditorDialog dialog(m_catalog, m_catalog.gpu("t4"));
    QVERIFY2(dialog.isValid(), qPrintable(dialog.validationMessage()));
    child<QDoubleSpinBox>(dialog, "bandwidthSpin")->setValue(0.0);
    QVERIFY(!dialog.saveButton()->isEnabled());
    QVERIFY(dialog.validationMessage().startsWith(QLatin1String("Bandwidth:")));
    child<QDoubleSpinBox>(dialog, "bandwidthSpin")->setValue(300.0);
    child<QLineEdit>(dialog, "idEdit")->setText(QStringLiteral("My T4"));
    QVERIFY(dialog.validationMessage().startsWith(QLatin1String("Id:")));
    child<QLineEdit>(dialog, "idEdit")->setText(QStringLiteral("my-t4"));
    child<QDoubleSpinBox>(dialog, "overheadSpin")->setValue(65536.0);
    QVERIFY2(dialog.validationMessage().startsWith(QLatin1String("Framework overhead:")),
             qPrintable(dialog.validationMessage()));
}

void TestEditors::gpuSurvivesRestart()
{
    const GpuSpec& a3000 = *m_catalog.gpu("rtx-a3000-12gb-laptop");
    GpuEditorDialog dialog(m_catalog, &a3000);
    QCOMPARE(child<QLineEdit>(dialog, "idEdit")->text(), QStringLiteral("rtx-a3000-12gb-laptop-custom"));
    child<QLineEdit>(dialog, "idEdit")->setText(QStringLiteral("my-a3000"));
    child<QDoubleSpinBox>(dialog, "bandwidthSpin")->setValue(392.0); // the explainer's what-if, as a GPU of its own
    child<QDoubleSpinBox>(dialog, "capacitySpin")->setValue(16.0);
    child<QDoubleSpinBox>(dialog, "fp8Spin")->setValue(94.4);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(dialog.savedPath().startsWith(CatalogLoader::userGpuDirectory()));

    LoadReport report;
    const Catalog restarted = CatalogLoader::withUserData(&report); // what the next start loads
    QVERIFY2(report.errors.isEmpty(), qPrintable(report.errors.join(QLatin1Char('\n'))));
    const GpuSpec* g = restarted.gpu("my-a3000");
    QVERIFY(g);
    QCOMPARE(serializeGpuSpec(*g), serializeGpuSpec(dialog.gpu()));
    QCOMPARE(g->bandwidthGBps.value, 392.0);
    QCOMPARE(g->bandwidthGBps.confidence, std::string("user"));
    QCOMPARE(g->bandwidthGBps.sources, std::vector<std::string> { "user" });
    QCOMPARE(g->memoryBytes(), 16.0 * 1073741824.0); // the base's driver-reported 12 GiB no longer applies
    QVERIFY(g->supports(MathUnit::Fp8Tensor));
    // Figures left alone keep the datasheet's value and sources.
    QCOMPARE(g->peakTflops[0].value, a3000.peakTflops[0].value);
    QCOMPARE(g->peakTflops[0].sources, a3000.peakTflops[0].sources);
    QCOMPARE(g->pcieGBps.sources, a3000.pcieGBps.sources);
    QVERIFY(g->sources.count("user"));
}

void TestEditors::modelSurvivesRestart()
{
    ModelEditorDialog dialog(m_catalog, m_catalog.model("gpt2"));
    child<QSpinBox>(dialog, "layersSpin")->setValue(6);
    child<QComboBox>(dialog, "normCombo")->setCurrentIndex(1); // RMSNorm
    child<QCheckBox>(dialog, "gatedCheck")->setChecked(true);
    const qint64 count = dialog.parameterCount();
    QVERIFY(count > 0);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));

    LoadReport report;
    const Catalog restarted = CatalogLoader::withUserData(&report);
    QVERIFY2(report.errors.isEmpty(), qPrintable(report.errors.join(QLatin1Char('\n'))));
    const ModelSpec* m = restarted.model("gpt2-custom");
    QVERIFY(m);
    QCOMPARE(m->transformer.layers, 6);
    QCOMPARE(m->transformer.norm, NormKind::RMSNorm);
    QVERIFY(m->transformer.gatedFfn);
    TrainingConfig c;
    c.sequenceLength = m->defaultSequence;
    QCOMPARE(qint64(buildGraph(*m, c).parameterCount()), count);
    QCOMPARE(qint64(m->reference.parameters), count);
}

void TestEditors::exportImportRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    GpuEditorDialog gpuDialog(m_catalog, m_catalog.gpu("l4"));
    child<QDoubleSpinBox>(gpuDialog, "gpuLinkSpin")->setValue(64.0);
    const GpuSpec gpu = gpuDialog.gpu();
    const QString gpuFile = dir.filePath(QStringLiteral("shared-gpu.json"));
    QVERIFY_NO_ERROR(gpuDialog.exportToFile(gpuFile));
    GpuSpec imported;
    QVERIFY_NO_ERROR(UserData::importGpu(gpuFile, &imported));
    QCOMPARE(serializeGpuSpec(imported), serializeGpuSpec(gpu));
    QVERIFY(CatalogLoader::withUserData().gpu(gpu.id)); // imported files are kept

    ModelEditorDialog modelDialog(m_catalog, m_catalog.model("qwen2.5-0.5b"));
    child<QSpinBox>(modelDialog, "kvHeadsSpin")->setValue(14);
    const ModelSpec model = modelDialog.model();
    const QString modelFile = dir.filePath(QStringLiteral("shared-model.json"));
    QVERIFY_NO_ERROR(modelDialog.exportToFile(modelFile));
    ModelSpec importedModel;
    QVERIFY_NO_ERROR(UserData::importModel(modelFile, &importedModel));
    QCOMPARE(serializeModelSpec(importedModel), serializeModelSpec(model));

    // Into a fresh editor: the same model, under its own id.
    ModelEditorDialog again(m_catalog, nullptr);
    QVERIFY_NO_ERROR(again.importFromFile(modelFile));
    QCOMPARE(serializeModelSpec(again.model()), serializeModelSpec(model));
}

void TestEditors::badUserGpuFileIsRejected_data()
{
    QTest::addColumn<QByteArray>("value"); // the bandwidth as written in the file
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative") << QByteArray("-5")
                              << QStringLiteral("memory.bandwidth_gb_per_s.value: must be a number");
    // What a NaN becomes when a JSON library writes one (nlohmann::json, JavaScript's JSON.stringify).
    QTest::newRow("NaN written as null") << QByteArray("null")
                                         << QStringLiteral("memory.bandwidth_gb_per_s.value: is required");
    // Python's json.dumps writes NaN, which is not JSON: refused before any field is read, with the byte offset.
    QTest::newRow("NaN literal") << QByteArray("NaN") << QStringLiteral("not valid JSON (byte");
}

void TestEditors::badUserGpuFileIsRejected()
{
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    GpuSpec g = *m_catalog.gpu("t4");
    g.id = "bad-t4";
    g.bandwidthGBps.value = 320.125;
    QByteArray text = QByteArray::fromStdString(serializeGpuSpec(g));
    QVERIFY(text.contains("320.125"));
    text.replace("320.125", value);
    const QString path = CatalogLoader::userGpuDirectory() + QStringLiteral("/bad-t4.json");
    writeAll(path, text);

    LoadReport report;
    const Catalog c = CatalogLoader::withUserData(&report);
    QVERIFY(!c.gpu("bad-t4"));
    QCOMPARE(report.errors.size(), 1);
    QVERIFY2(report.errors.front().startsWith(path + QLatin1String(": ")), qPrintable(report.errors.front()));
    QVERIFY2(report.errors.front().contains(expected), qPrintable(report.errors.front()));
    GpuSpec out;
    const auto error = UserData::importGpu(path, &out);
    QVERIFY(error && error->contains(expected));

    // The editor's own path never writes such a file: a NaN figure is refused naming the field.
    g.id = "nan-t4";
    g.bandwidthGBps.value = std::numeric_limits<double>::quiet_NaN();
    const auto saveError = UserData::saveGpu(g);
    QVERIFY(saveError
            && saveError->contains(QLatin1String("memory.bandwidth_gb_per_s.value: must be a finite number")));
    QVERIFY(UserData::userGpuFile("nan-t4").isEmpty());
}

void TestEditors::userEntryShadowsBundled()
{
    GpuEditorDialog dialog(m_catalog, m_catalog.gpu("t4"));
    child<QLineEdit>(dialog, "idEdit")->setText(QStringLiteral("t4"));
    QVERIFY(child<QLabel>(dialog, "storageLabel")->text().contains(QLatin1String("A bundled GPU has the id")));
    child<QDoubleSpinBox>(dialog, "bandwidthSpin")->setValue(300.0);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(CatalogLoader::withUserData().gpu("t4")->bandwidthGBps.value, 300.0);
    QCOMPARE(CatalogLoader::bundled().gpu("t4")->bandwidthGBps.value, m_catalog.gpu("t4")->bandwidthGBps.value);

    // Editing it again replaces the user's file; Delete brings the bundled one back.
    GpuEditorDialog edit(m_catalog, CatalogLoader::withUserData().gpu("t4"));
    QCOMPARE(child<QLineEdit>(edit, "idEdit")->text(), QStringLiteral("t4"));
    QVERIFY(child<QLabel>(edit, "storageLabel")->text().contains(QLatin1String("replaces your saved GPU")));
    QVERIFY(child<QPushButton>(edit, "deleteButton")->isEnabled());
    QSignalSpy deleted(&edit, &GpuEditorDialog::deleted);
    QVERIFY_NO_ERROR(edit.deleteSaved());
    QCOMPARE(deleted.size(), 1);
    QCOMPARE(CatalogLoader::withUserData().gpu("t4")->bandwidthGBps.value, m_catalog.gpu("t4")->bandwidthGBps.value);
    QVERIFY(QDir(CatalogLoader::userGpuDirectory()).isEmpty());
}

void TestEditors::saveIsAtomic()
{
    GpuSpec g = *m_catalog.gpu("a10");
    g.id = "my-a10";
    QString path;
    QVERIFY_NO_ERROR(UserData::saveGpu(g, &path));
    const QByteArray saved = readAll(path);
    const QDir dir(CatalogLoader::userGpuDirectory());
    const QStringList before = dir.entryList(QDir::Files | QDir::Hidden);

    // A save refused by validation leaves the old file as it was and nothing else behind.
    GpuSpec bad = g;
    bad.capacityGB.value = -1.0;
    QVERIFY(UserData::saveGpu(bad));
    QCOMPARE(readAll(path), saved);
    QCOMPARE(dir.entryList(QDir::Files | QDir::Hidden), before);

    // A directory the user cannot write: no new file, no partial file, the old one intact.
    QFile::Permissions permissions = QFile::permissions(dir.path());
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
    QFile probe(dir.filePath(QStringLiteral("probe")));
    if (probe.open(QIODevice::WriteOnly)) {
        probe.remove();
        QFile::setPermissions(dir.path(), permissions);
        QSKIP("the directory stays writable (running as root): cannot test a failing save");
    }
    g.bandwidthGBps.value = 500.0;
    const auto error = UserData::saveGpu(g);
    GpuSpec other = g;
    other.id = "other-a10";
    const auto otherError = UserData::saveGpu(other);
    const QStringList after = dir.entryList(QDir::Files | QDir::Hidden);
    QFile::setPermissions(dir.path(), permissions);
    QVERIFY(error && error->contains(path));
    QVERIFY(otherError);
    QCOMPARE(readAll(path), saved);
    QCOMPARE(after, before);
}

void TestEditors::checkpointComparison()
{
    ModelEditorDialog dialog(m_catalog, m_catalog.model("transformer-100m"));
    // L = 1, h = 8, FFN 4h, V = 100, P = 16: L(12h^2 + 13h) + Vh + Ph + 2h = 1,816 (Kaplan et al. 2020, sec. 2.1).
    const QList<QPair<const char*, int>> shape = { { "layersSpin", 1 },        { "hiddenSpin", 8 },
                                                   { "headsSpin", 2 },         { "kvHeadsSpin", 2 },
                                                   { "ffnSpin", 32 },          { "vocabSpin", 100 },
                                                   { "maxPositionsSpin", 16 }, { "sequenceSpin", 16 } };
    for (const auto& [name, value] : shape)
        child<QSpinBox>(dialog, name)->setValue(value);
    QCOMPARE(dialog.parameterCount(), qint64(1816));
    auto* label = child<QLabel>(dialog, "checkpointLabel");
    QVERIFY(label->isHidden());

    QTemporaryDir dir;
    const QString exact = writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")),
                                           { { QStringLiteral("wte"), 800 }, { QStringLiteral("rest"), 1016 } });
    QVERIFY_NO_ERROR(dialog.compareWithCheckpoint({ exact }));
    QVERIFY(!label->isHidden());
    QVERIFY2(label->text().contains(QLatin1String("F32")), qPrintable(label->text()));
    QVERIFY(label->text().contains(QLatin1String("Checkpoint minus config: 0 (")));

    // Two shards whose sum has a 16-element buffer more than the model's parameters.
    const QString a = writeSafetensors(dir.filePath(QStringLiteral("model-00001-of-00002.safetensors")),
                                       { { QStringLiteral("a"), 1000 } });
    const QString b = writeSafetensors(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors")),
                                       { { QStringLiteral("b"), 832 } });
    QVERIFY_NO_ERROR(dialog.compareWithCheckpoint({ a, b }));
    QVERIFY2(label->text().contains(QLatin1String("2 files")), qPrintable(label->text()));
    QVERIFY(label->text().contains(QLatin1String("Checkpoint minus config: +16 (")));

    // A truncated file is refused naming it; the last comparison stays.
    QFile::resize(a, 100);
    const auto error = dialog.compareWithCheckpoint({ a });
    QVERIFY(error && error->contains(a));
    QVERIFY(label->text().contains(QLatin1String("+16")));
}

void TestEditors::importHuggingFaceConfig()
{
    // A vision model as the current model: the editor starts from a language transformer instead.
    ModelEditorDialog fromVision(m_catalog, m_catalog.model("resnet50"));
    QVERIFY(fromVision.isValid());
    QVERIFY(fromVision.model().id != "resnet50-custom");

    ModelEditorDialog dialog(m_catalog, nullptr);
    QVERIFY_NO_ERROR(dialog.importFromFile(QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/hf/gpt2")));
    QCOMPARE(child<QLineEdit>(dialog, "idEdit")->text(), QStringLiteral("gpt2"));
    QCOMPARE(dialog.parameterCount(), qint64(124439808)); // tests/data/hf/SOURCES.md
    QCOMPARE(child<QComboBox>(dialog, "activationCombo")->currentData().toInt(), int(Activation::GeluComposite));
    const auto error = dialog.importFromFile(QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/hf/vit-base-patch16-224"));
    QVERIFY(error && error->contains(QLatin1String("vision model")));
}

void TestEditors::screenshots()
{
    // HEADROOM_SCREENSHOT_DIR=/some/dir renders both dialogs there, for a person to look at.
    const QString out = qEnvironmentVariable("HEADROOM_SCREENSHOT_DIR");
    if (out.isEmpty())
        QSKIP("set HEADROOM_SCREENSHOT_DIR to render the dialogs");
    ModelEditorDialog model(m_catalog, m_catalog.model("gpt2"));
    model.show();
    QVERIFY(model.grab().save(out + QStringLiteral("/modeleditor.png")));
    child<QSpinBox>(model, "headsSpin")->setValue(7);
    child<QSpinBox>(model, "layersSpin")->setValue(0);
    QVERIFY(model.grab().save(out + QStringLiteral("/modeleditor-invalid.png")));
    ModelEditorDialog tiny(m_catalog, m_catalog.model("transformer-100m"));
    for (const auto& [name, value] : QList<QPair<const char*, int>> { { "layersSpin", 1 },
                                                                      { "hiddenSpin", 8 },
                                                                      { "headsSpin", 2 },
                                                                      { "kvHeadsSpin", 2 },
                                                                      { "ffnSpin", 32 },
                                                                      { "vocabSpin", 100 },
                                                                      { "maxPositionsSpin", 16 },
                                                                      { "sequenceSpin", 16 } })
        child<QSpinBox>(tiny, name)->setValue(value);
    QTemporaryDir dir;
    QVERIFY_NO_ERROR(tiny.compareWithCheckpoint(
        { writeSafetensors(dir.filePath(QStringLiteral("model.safetensors")), { { QStringLiteral("w"), 1832 } }) }));
    tiny.show();
    QVERIFY(tiny.grab().save(out + QStringLiteral("/modeleditor-checkpoint.png")));
    GpuEditorDialog gpu(m_catalog, m_catalog.gpu("rtx-a3000-12gb-laptop"));
    gpu.show();
    child<QDoubleSpinBox>(gpu, "bandwidthSpin")->setValue(392.0);
    QVERIFY(gpu.grab().save(out + QStringLiteral("/gpueditor.png")));
}

QTEST_MAIN(TestEditors)
#include "tst_editors.moc"
