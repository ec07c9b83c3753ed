// tools/probe/headroom-probe on the CPU with Debian's python3-torch and a tiny model, imported with
// `headroom estimate --measured`; and the import's refusals (a bad file or another scenario: exit 2, naming the field).

#include "clirun.h"
#include "measured.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

using test::runHeadroom;

namespace {

const QString kSource = QStringLiteral(HEADROOM_SOURCE_DIR);
const QString kPython = QStringLiteral("/usr/bin/python3");

// A preset as it describes itself, shrunk (2 layers, hidden 64, 2 heads, vocab 1000) and without dropout: CPU
// dropout keeps noise in the model dtype where CUDA keeps a 1-byte mask, so dropout would make CPU and CUDA kernels
// differ.
QByteArray tinyPreset(const char* preset, const QString& id, const QString& name)
{
    QFile f(kSource + QStringLiteral("/resources/models/") + QLatin1String(preset) + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read the %s preset", preset);
    QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    doc[QStringLiteral("id")] = id;
    doc[QStringLiteral("name")] = name;
    doc[QStringLiteral("default_sequence")] = 32;
    QJsonObject t = doc[QStringLiteral("transformer")].toObject();
    t[QStringLiteral("layers")] = 2;
    t[QStringLiteral("hidden")] = 64;
    t[QStringLiteral("heads")] = 2;
    t[QStringLiteral("kv_heads")] = 2;
    t[QStringLiteral("ffn")] = 256;
    t[QStringLiteral("vocab")] = 1000;
    t[QStringLiteral("max_positions")] = 64;
    t[QStringLiteral("dropout")] = QJsonObject { { QStringLiteral("embedding"), 0.0 },
                                                 { QStringLiteral("attention"), 0.0 },
                                                 { QStringLiteral("hidden"), 0.0 },
                                                 { QStringLiteral("ffn"), 0.0 } };
    doc[QStringLiteral("transformer")] = t;
    return QJsonDocument(doc).toJson();
}

QByteArray tinyGpt2() { return tinyPreset("gpt2", QStringLiteral("tiny-gpt2"), QStringLiteral("Tiny GPT-2 (test)")); }
QByteArray tinyBert()
{
    return tinyPreset("bert-base", QStringLiteral("tiny-bert"), QStringLiteral("Tiny BERT (test)"));
}

bool write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QJsonObject object(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toObject(); }

// Whether Debian's python3 has the modules the probe's CPU runs need.
bool pythonImports(const QString& modules)
{
    QProcess check;
    check.start(kPython, { QStringLiteral("-c"), QStringLiteral("import ") + modules });
    return check.waitForFinished(60000) && check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0;
}

// A script of tools/probe run by Debian's python3 with `args`: its exit code (-1 if it did not finish in time), stdout
// and stderr.
test::CliRun runPython(const QString& script, const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    p.start(kPython, QStringList { kSource + QStringLiteral("/tools/probe/") + script } + args);
    test::CliRun r;
    r.code = p.waitForFinished(timeoutMs) ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

test::CliRun runProbe(const QStringList& args, int timeoutMs = 300000)
{
    return runPython(QStringLiteral("headroom-probe"), args, timeoutMs);
}

} // namespace

class TestProbe : public QObject {
    Q_OBJECT

private slots:
    void probeOnCpuMatchesTheActivations();
    void badFiles_data();
    void badFiles();
    void anotherScenarioIsRefused();
    void aloneTheFileGivesTheScenario();
    void aCudaFileNamesItsGpu();
    void probeRunsTorchvisionModels();
    void probeTrainsLoraAdapters();
    void qloraQuantizesEveryLinearButTheOutput();
    void memoryHistoryIsCudasAndSaysSo();
    void allocatorTraceFromASnapshot();
    void residualGridRepeatsCommittedRuns();
};

void TestProbe::probeOnCpuMatchesTheActivations()
{
    if (!pythonImports(QStringLiteral("torch")))
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch): the probe's CPU run is not tested");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString model = dir.filePath(QStringLiteral("tiny-gpt2.json"));
    const QString out = dir.filePath(QStringLiteral("tiny.headroom-measured.json"));
    QVERIFY(write(model, tinyGpt2()));
    const auto probe = runProbe({ QStringLiteral("--model"), model, QStringLiteral("--batch"), QStringLiteral("2"),
                                  QStringLiteral("--seq"), QStringLiteral("32"), QStringLiteral("--precision"),
                                  QStringLiteral("fp32"), QStringLiteral("--attention"), QStringLiteral("eager"),
                                  QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--steps"),
                                  QStringLiteral("2"), QStringLiteral("--out"), out });
    QVERIFY2(probe.code == 0, probe.err.constData());

    const QStringList estimate { QStringLiteral("estimate"),
                                 QStringLiteral("--model"),
                                 model,
                                 QStringLiteral("--batch"),
                                 QStringLiteral("2"),
                                 QStringLiteral("--seq"),
                                 QStringLiteral("32"),
                                 QStringLiteral("--precision"),
                                 QStringLiteral("fp32"),
                                 QStringLiteral("--attention"),
                                 QStringLiteral("eager"),
                                 QStringLiteral("--measured"),
                                 out };
    const auto r = runHeadroom(estimate + QStringList { QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonObject measured = object(j, "measured");
    const QJsonObject diff = object(j, "measured_difference");
    QCOMPARE(object(measured, "device").value(QStringLiteral("type")).toString(), QStringLiteral("cpu"));
    // On the CPU no allocator is measured.
    QVERIFY(object(measured, "memory").value(QStringLiteral("peak_allocated_bytes")).isNull());
    QVERIFY(diff.value(QStringLiteral("peak_allocated_bytes")).isNull());
    QCOMPARE_GT(measured.value(QStringLiteral("step_seconds")).toDouble(), 0.0);
    // The exact parameter count of the model PyTorch built is the simulator's.
    QCOMPARE(measured.value(QStringLiteral("parameters")).toDouble(), j.value(QStringLiteral("parameters")).toDouble());
    // Saved for backward: with no dropout the only CPU/CUDA kernel difference left is LayerNorm's mean and rstd,
    // kept in the input dtype on the CPU and in FP32 on CUDA (tools/hf_reference/README.md, gpu_equiv): in FP32 the
    // same 4 bytes per row. Python numbers wrapped as 0-d host tensors are counted apart by the probe. So the CPU
    // figure equals the Activations component of the CUDA-kernel estimate, byte for byte.
    const double predicted = object(j, "memory").value(QStringLiteral("activations")).toDouble();
    QCOMPARE_GT(predicted, 1e6);
    QCOMPARE(measured.value(QStringLiteral("saved_activation_bytes")).toDouble(), predicted);
    QCOMPARE(object(diff, "saved_activation_bytes").value(QStringLiteral("difference")).toDouble(), 0.0);

    // The step's time components (issue 27 item 6). One thread's CPU time cannot exceed the wall time it ran in.
    // On the CPU no GPU is busy; `kernels` are the operators that are not views. count_ops.py's GPT-2 counts
    // (tests/data/opcounts/gpt2.json, fp32 foreach: forward 386, backward 515, optimizer 9, with 37 dropouts each way)
    // give this 2-block model without dropout at least 166 such operators: 28 forward and 39 backward per block, 13
    // and 10 outside the blocks, AdamW's 9; the CPU adds the step counters' host operators.
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject timing = object(QJsonDocument::fromJson(file.readAll()).object(), "timing");
    const double host = timing.value(QStringLiteral("host_seconds")).toDouble();
    QCOMPARE_GT(host, 0.0);
    QVERIFY2(host <= timing.value(QStringLiteral("issue_seconds")).toDouble() * 1.01 + 1e-3,
             QJsonDocument(timing).toJson().constData());
    QVERIFY(timing.value(QStringLiteral("gpu_busy_seconds")).isNull());
    const double kernels = timing.value(QStringLiteral("kernels")).toDouble();
    QCOMPARE_GE(kernels, 166.0);
    const double atenOps = timing.value(QStringLiteral("aten_ops")).toDouble();
    QCOMPARE_GT(atenOps, kernels); // views too
    // By phase (probe 0.2.4): the three phases add up to the step, each with views among its operators, and on the CPU
    // the operators that are not views are `kernels`. The backward pass has more of both than the forward (autograd
    // issues each view's backward and two matmuls per Linear), and the optimizer's foreach AdamW its 9 operators and
    // the step counters' host operators.
    const QJsonObject byPhase = object(timing, "aten_ops_by_phase");
    double sumOps = 0.0, sumViews = 0.0;
    for (const char* phase : { "forward", "backward", "optimizer" }) {
        const QJsonObject c = object(byPhase, phase);
        const double ops = c.value(QStringLiteral("ops")).toDouble(),
                     views = c.value(QStringLiteral("views")).toDouble();
        QVERIFY2(views >= 0.0 && views < ops, phase);
        sumOps += ops;
        sumViews += views;
    }
    QCOMPARE(byPhase.size(), 3);
    QCOMPARE(sumOps, atenOps);
    QCOMPARE(sumOps - sumViews, kernels);
    QCOMPARE_GT(object(byPhase, "backward").value(QStringLiteral("ops")).toDouble(),
                object(byPhase, "forward").value(QStringLiteral("ops")).toDouble());
    QCOMPARE_GE(object(byPhase, "optimizer").value(QStringLiteral("ops")).toDouble(), 9.0);
    QVERIFY(!timing.contains(QStringLiteral("profile_errors")));
    // The import keeps them.
    const QJsonObject imported = object(measured, "timing");
    QCOMPARE(imported.value(QStringLiteral("kernels")).toDouble(), kernels);
    QCOMPARE(imported.value(QStringLiteral("host_seconds")).toDouble(), host);
    QVERIFY(imported.value(QStringLiteral("gpu_busy_seconds")).isNull());

    const auto table = runHeadroom(estimate);
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("\nMeasured   on "), table.out.constData());
    QVERIFY2(table.out.contains("(predicted +0.0%)"), table.out.constData());
}

void TestProbe::badFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("field");
    QFile f(kSource + QStringLiteral("/tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray good = f.readAll();
    auto with = [&](const char* from, const char* to) {
        QByteArray t = good;
        const qsizetype at = t.indexOf(from);
        if (at < 0)
            qFatal("%s is not in the example", from);
        return t.replace(at, qsizetype(qstrlen(from)), to);
    };
    QByteArray nan = good; // the step time as Python's json.dump writes float("nan")
    const qsizetype at = nan.indexOf("\"step_seconds\": ") + 16;
    nan.replace(at, nan.indexOf(',', at) - at, "NaN");
    QTest::newRow("malformed") << QByteArray("{\"format\": \"headroom-measured\", \"version\": 1,") << QString();
    QTest::newRow("NaN step time") << nan << QStringLiteral("step_seconds");
    QTest::newRow("wrong format") << with("\"headroom-measured\"", "\"headroom-scenario\"") << QStringLiteral("format");
    QTest::newRow("negative bytes") << with("\"saved_activation_bytes\": ", "\"saved_activation_bytes\": -")
                                    << QStringLiteral("saved_activation_bytes");
    QTest::newRow("unknown precision") << with("\"precision\": \"fp32\"", "\"precision\": \"fp4\"")
                                       << QStringLiteral("scenario.precision");
    QTest::newRow("no scenario") << with("\"scenario\"", "\"scenari0\"") << QStringLiteral("scenario");
}

void TestProbe::badFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, field);
    // The core names the field...
    const auto m = headroom::parseMeasured(std::string_view(text.constData(), std::size_t(text.size())), "bad.json");
    QVERIFY(!m);
    QCOMPARE(QString::fromStdString(m.error().field), field);
    // ...and the command line exits 2 naming the file and the field.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.headroom-measured.json"));
    QVERIFY(write(path, text));
    const auto r = runHeadroom({ QStringLiteral("estimate"), QStringLiteral("--measured"), path });
    QCOMPARE(r.code, 2);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(QStringLiteral("--measured: ") + path), qPrintable(err));
    if (!field.isEmpty())
        QVERIFY2(err.contains(QStringLiteral(": ") + field + QStringLiteral(": ")), qPrintable(err));
}

void TestProbe::anotherScenarioIsRefused()
{
    const QString file = kSource + QStringLiteral("/tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json");
    auto refused = [&](const QStringList& options, const char* field) {
        const auto r = runHeadroom(QStringList { QStringLiteral("estimate"), QStringLiteral("--measured"), file }
                                   + options);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QByteArray(": scenario.") + field + ": the file measured"), r.err.constData());
    };
    const QStringList same { QStringLiteral("--model"), QStringLiteral("gpt2"),        QStringLiteral("--seq"),
                             QStringLiteral("64"),      QStringLiteral("--precision"), QStringLiteral("fp32") };
    refused({ QStringLiteral("--model"), QStringLiteral("bert-base") }, "model");
    refused(same + QStringList { QStringLiteral("--batch"), QStringLiteral("2") }, "micro_batch");
    refused({ QStringLiteral("--model"), QStringLiteral("gpt2"), QStringLiteral("--batch"), QStringLiteral("1"),
              QStringLiteral("--precision"), QStringLiteral("fp32") },
            "sequence_length");
    refused({ QStringLiteral("--model"), QStringLiteral("gpt2"), QStringLiteral("--batch"), QStringLiteral("1"),
              QStringLiteral("--seq"), QStringLiteral("64"), QStringLiteral("--precision"), QStringLiteral("bf16") },
            "precision");
    const auto missing = runHeadroom({ QStringLiteral("estimate"), QStringLiteral("--measured"),
                                       QStringLiteral("/nonexistent/x.headroom-measured.json") });
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("--measured: /nonexistent/x.headroom-measured.json"), missing.err.constData());
    const auto ok = runHeadroom(QStringList { QStringLiteral("estimate"), QStringLiteral("--measured"), file } + same
                                + QStringList { QStringLiteral("--batch"), QStringLiteral("1") });
    QVERIFY2(ok.code == 0, ok.err.constData());
}

void TestProbe::aloneTheFileGivesTheScenario()
{
    const QString file = kSource + QStringLiteral("/tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json");
    const auto r = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), file, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    const QJsonObject s = object(j, "scenario");
    QCOMPARE(s.value(QStringLiteral("model")).toString(), QStringLiteral("gpt2"));
    QCOMPARE(s.value(QStringLiteral("micro_batch")).toInt(), 1);
    QCOMPARE(s.value(QStringLiteral("sequence_length")).toInt(), 64);
    QCOMPARE(s.value(QStringLiteral("precision")).toString(), QStringLiteral("fp32"));
    QCOMPARE(s.value(QStringLiteral("attention")).toString(), QStringLiteral("eager"));
    QCOMPARE(object(j, "measured").value(QStringLiteral("parameters")).toDouble(), 124439808.0);
    const QJsonObject saved = object(object(j, "measured_difference"), "saved_activation_bytes");
    QCOMPARE(saved.value(QStringLiteral("difference")).toDouble(),
             saved.value(QStringLiteral("predicted")).toDouble() - saved.value(QStringLiteral("measured")).toDouble());
}

// A measurement on a CUDA device is estimated for the GPU file its device name is (devicename.h) unless --gpu says
// otherwise; a device Headroom has no file for is refused, naming the field. The file is the CPU one with its device
// renamed: what is checked is the import, not a prediction.
void TestProbe::aCudaFileNamesItsGpu()
{
    QFile f(kSource + QStringLiteral("/tests/data/measured/gpt2-cpu-b1-s64-fp32.headroom-measured.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject cpu = QJsonDocument::fromJson(f.readAll()).object();
    QTemporaryDir dir;
    auto asDevice = [&](const QString& name, double memory) {
        QJsonObject m = cpu;
        m[QStringLiteral("device")] = QJsonObject { { QStringLiteral("type"), QStringLiteral("cuda") },
                                                    { QStringLiteral("name"), name },
                                                    { QStringLiteral("memory_bytes"), memory } };
        const QString path = dir.filePath(name + QStringLiteral(".headroom-measured.json"));
        return write(path, QJsonDocument(m).toJson()) ? path : QString();
    };
    const QString h200 = asDevice(QStringLiteral("NVIDIA H200"), 150754820096.0);
    const auto r = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), h200, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(object(j, "scenario").value(QStringLiteral("gpu")).toString(), QStringLiteral("h200-sxm-141gb"));
    QCOMPARE(object(j, "measured_difference").value(QStringLiteral("kernels")).toString(), QStringLiteral("cuda"));
    QVERIFY(object(j, "measured_difference").value(QStringLiteral("step_compared")).toBool());

    // --gpu (or an allocator setting) alone still takes the file's scenario.
    const auto chosen = runHeadroom({ QStringLiteral("estimate"), QStringLiteral("--measured"), h200,
                                      QStringLiteral("--gpu"), QStringLiteral("a100-sxm4-80gb"),
                                      QStringLiteral("--expandable-segments"), QStringLiteral("--json") });
    QVERIFY2(chosen.code == 0, chosen.err.constData());
    const QJsonObject c = QJsonDocument::fromJson(chosen.out).object();
    QCOMPARE(object(c, "scenario").value(QStringLiteral("gpu")).toString(), QStringLiteral("a100-sxm4-80gb"));
    QCOMPARE(object(c, "scenario").value(QStringLiteral("micro_batch")).toInt(), 1);
    QVERIFY(object(c, "pytorch").value(QStringLiteral("expandable_segments")).toBool());

    // A run on the RTX A3000 is compared with its datasheet's 336 GB/s, not the default scenario's what-if 392.
    const QString a3000 = asDevice(QStringLiteral("NVIDIA RTX A3000 12GB Laptop GPU"), 12884901888.0);
    const auto real = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), a3000, QStringLiteral("--json") });
    QVERIFY2(real.code == 0, real.err.constData());
    const QJsonObject gpu = object(QJsonDocument::fromJson(real.out).object(), "gpu");
    QCOMPARE(gpu.value(QStringLiteral("id")).toString(), QStringLiteral("rtx-a3000-12gb-laptop"));
    QCOMPARE(gpu.value(QStringLiteral("bandwidth_bytes_per_second")).toDouble(), 336e9);

    const QString unknown = asDevice(QStringLiteral("NVIDIA GeForce GTX 1650"), 4294967296.0);
    const auto refused = runHeadroom({ QStringLiteral("estimate"), QStringLiteral("--measured"), unknown });
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains(": device.name: \"NVIDIA GeForce GTX 1650\" is none of the GPU files; give --gpu"),
             refused.err.constData());
}

// Torchvision models are built by torchvision's own builders: ResNet-50 at 64 x 64 on the CPU, whose saved
// activations are the simulator's byte for byte (no dropout: the CPU and CUDA kernels save the same here).
void TestProbe::probeRunsTorchvisionModels()
{
    if (!pythonImports(QStringLiteral("torch, torchvision")))
        QSKIP("/usr/bin/python3 cannot import torch and torchvision (install python3-torchvision)");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("r50.headroom-measured.json"));
    const auto probe = runProbe({ QStringLiteral("--model"), QStringLiteral("resnet50"), QStringLiteral("--batch"),
                                  QStringLiteral("1"), QStringLiteral("--seq"), QStringLiteral("64"),
                                  QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--steps"),
                                  QStringLiteral("1"), QStringLiteral("--out"), out });
    QVERIFY2(probe.code == 0, probe.err.constData());
    const auto r = runHeadroom(
        { QStringLiteral("estimate"), QStringLiteral("--measured"), out, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(object(j, "measured").value(QStringLiteral("parameters")).toDouble(), 25557032.0); // torchvision docs
    const QJsonObject saved = object(object(j, "measured_difference"), "saved_activation_bytes");
    QCOMPARE_GT(saved.value(QStringLiteral("measured")).toDouble(), 1e6);
    QCOMPARE(saved.value(QStringLiteral("difference")).toDouble(), 0.0);

    // A CNN has no transformer blocks to checkpoint: the probe says so rather than measure something else.
    const auto refused = runProbe({ QStringLiteral("--model"), QStringLiteral("resnet50"),
                                    QStringLiteral("--checkpointing"), QStringLiteral("full"),
                                    QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--out"),
                                    dir.filePath(QStringLiteral("x.json")) },
                                  120000);
    QCOMPARE(refused.code, 2);
    QVERIFY(refused.err.contains("checkpoints transformer blocks only"));
}

// Issue 28 item 4: the probe trains PEFT's LoRA adapters (through peft where it is importable, else through the
// hf_reference transcription of PEFT's LoRA layer), writes what it trained into its scenario as a scenario file's
// `finetune` object, and `--measured` estimates that: the frozen base saves what PEFT's forward makes it save, byte
// for byte, and the parameter count includes the adapters (Σ r (d_in + d_out) over the adapted matrices).
void TestProbe::probeTrainsLoraAdapters()
{
    if (!pythonImports(QStringLiteral("torch")))
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch): the probe's CPU run is not tested");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString model = dir.filePath(QStringLiteral("tiny-bert.json"));
    const QString out = dir.filePath(QStringLiteral("lora.headroom-measured.json"));
    QVERIFY(write(model, tinyBert()));
    auto probe = [&](const QStringList& extra) {
        const auto r = runProbe(
            QStringList { QStringLiteral("--model"), model, QStringLiteral("--batch"), QStringLiteral("2"),
                          QStringLiteral("--seq"), QStringLiteral("32"), QStringLiteral("--precision"),
                          QStringLiteral("fp32"), QStringLiteral("--device"), QStringLiteral("cpu"),
                          QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--no-profile"),
                          QStringLiteral("--transcription"), QStringLiteral("--out"), out }
            + extra);
        return std::make_pair(r.code, r.err);
    };
    const auto [code, err] = probe({ QStringLiteral("--finetune"), QStringLiteral("lora"),
                                     QStringLiteral("--lora-rank"), QStringLiteral("4"), QStringLiteral("--lora-alpha"),
                                     QStringLiteral("8"), QStringLiteral("--lora-targets"),
                                     QStringLiteral("query,value,dense") });
    QVERIFY2(code == 0, err.constData());
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject finetune = object(object(QJsonDocument::fromJson(file.readAll()).object(), "scenario"),
                                        "finetune");
    QCOMPARE(finetune.value(QStringLiteral("method")).toString(), QStringLiteral("lora"));
    QCOMPARE(finetune.value(QStringLiteral("lora_rank")).toInt(), 4);

    const QStringList scenario { QStringLiteral("estimate"), QStringLiteral("--model"),     model,
                                 QStringLiteral("--batch"),  QStringLiteral("2"),           QStringLiteral("--seq"),
                                 QStringLiteral("32"),       QStringLiteral("--precision"), QStringLiteral("fp32") };
    const QStringList lora { QStringLiteral("--finetune"),     QStringLiteral("lora"),
                             QStringLiteral("--lora-rank"),    QStringLiteral("4"),
                             QStringLiteral("--lora-alpha"),   QStringLiteral("8"),
                             QStringLiteral("--lora-targets"), QStringLiteral("query,value,dense") };
    const auto r = runHeadroom(scenario + lora
                               + QStringList { QStringLiteral("--measured"), out, QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    // r (d_in + d_out) per adapted matrix, r = 4: per layer query and value 64 -> 64, the three `dense` (attention
    // output 64 -> 64, intermediate 64 -> 256, output 256 -> 64); and the MLM head's transform.dense, 64 -> 64.
    QCOMPARE(j.value(QStringLiteral("trainable_parameters")).toDouble(),
             4.0 * (2 * (128 + 128 + 128 + 320 + 320) + 128));
    const QJsonObject diff = object(j, "measured_difference");
    QCOMPARE(object(diff, "parameters").value(QStringLiteral("difference")).toDouble(), 0.0);
    QCOMPARE_GT(object(diff, "saved_activation_bytes").value(QStringLiteral("measured")).toDouble(), 1e5);
    QCOMPARE(object(diff, "saved_activation_bytes").value(QStringLiteral("difference")).toDouble(), 0.0);
    // Estimated as full training, the file is another scenario.
    const auto full = runHeadroom(scenario + QStringList { QStringLiteral("--measured"), out });
    QCOMPARE(full.code, 2);
    QVERIFY2(full.err.contains(": scenario.finetune.method: the file measured lora"), full.err.constData());

    // What the probe cannot run is refused, naming the option: QLoRA needs CUDA, bitsandbytes, peft and transformers
    // (and says which of them this run lacks), DoRA needs peft.
    const auto qlora = probe({ QStringLiteral("--finetune"), QStringLiteral("qlora") });
    QCOMPARE(qlora.first, 2);
    QVERIFY2(qlora.second.contains("--finetune qlora") && qlora.second.contains("CUDA no")
                 && qlora.second.contains("bitsandbytes"),
             qlora.second.constData());
    const auto dora = probe({ QStringLiteral("--finetune"), QStringLiteral("dora") });
    QCOMPARE(dora.first, 2);
    QVERIFY2(dora.second.contains("--finetune dora needs peft"), dora.second.constData());
}

// Issue 28 item 4, where bitsandbytes is installed (a CUDA machine; not this one): the QLoRA base is built as
// transformers' BitsAndBytesConfig(load_in_4bit, nf4, double quantization) loads one (integrations/bitsandbytes.py,
// replace_with_bnb_linear): every nn.Linear but the output layer becomes a Linear4bit holding the same weights, and the
// model is marked as loaded in 4 bits, which makes peft adapt them with its bnb layer. Run against a stand-in for
// bitsandbytes that records what it is given, on a two-block model with an output layer.
void TestProbe::qloraQuantizesEveryLinearButTheOutput()
{
    if (!pythonImports(QStringLiteral("torch")))
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch): the probe's CPU run is not tested");
    const QString code = QStringLiteral(R"(
import importlib.machinery, importlib.util, json, types, torch
loader = importlib.machinery.SourceFileLoader("probe", %1)
spec = importlib.util.spec_from_loader("probe", loader)
probe = importlib.util.module_from_spec(spec)
loader.exec_module(probe)
made = []
class Linear4bit(torch.nn.Module):
    def __init__(self, i, o, bias, compute_dtype, compress_statistics, quant_type):
        super().__init__()
        made.append(dict(shape=[o, i], bias=bias, compute=str(compute_dtype), double=compress_statistics, q=quant_type))
def Params4bit(data, requires_grad, compress_statistics, quant_type):
    return torch.nn.Parameter(data.clone(), requires_grad=requires_grad)
bnb = types.SimpleNamespace(nn=types.SimpleNamespace(Linear4bit=Linear4bit, Params4bit=Params4bit))
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, 8)
        self.up = torch.nn.Linear(8, 24, bias=False)
        self.norm = torch.nn.LayerNorm(8)
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(16, 8)
        self.blocks = torch.nn.ModuleList([Block(), Block()])
        self.head = torch.nn.Linear(8, 16, bias=False)
    def get_output_embeddings(self):
        return self.head
m = probe.quantize_nf4(torch, Model(), torch.bfloat16, bnb)
print(json.dumps(dict(made=made,
                      head=type(m.head).__name__, loaded=getattr(m, "is_loaded_in_4bit", False))))
)")
                             .arg(QStringLiteral("'") + kSource + QStringLiteral("/tools/probe/headroom-probe'"));
    QProcess p;
    p.start(kPython, { QStringLiteral("-c"), code });
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    const QJsonArray made = r.value(QStringLiteral("made")).toArray();
    QCOMPARE(made.size(), 4); // q and up in each of the two blocks; not the output layer
    for (const QJsonValue& v : made) {
        const QJsonObject l = v.toObject();
        QCOMPARE(l.value(QStringLiteral("q")).toString(), QStringLiteral("nf4"));
        QVERIFY(l.value(QStringLiteral("double")).toBool());
        QCOMPARE(l.value(QStringLiteral("compute")).toString(), QStringLiteral("torch.bfloat16"));
    }
    QCOMPARE(made[0].toObject().value(QStringLiteral("shape")).toArray(), (QJsonArray { 8, 8 }));
    QCOMPARE(made[1].toObject().value(QStringLiteral("shape")).toArray(), (QJsonArray { 24, 8 }));
    QVERIFY(!made[1].toObject().value(QStringLiteral("bias")).toBool());
    QCOMPARE(r.value(QStringLiteral("head")).toString(), QStringLiteral("Linear"));
    QVERIFY(r.value(QStringLiteral("loaded")).toBool());
}

// --memory-history asks for the CUDA caching allocator's own record (torch.cuda.memory._record_memory_history): on
// the CPU the probe says so, naming the option, and exits 2 without writing a file.
void TestProbe::memoryHistoryIsCudasAndSaysSo()
{
    if (!pythonImports(QStringLiteral("torch")))
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch): the probe's CPU run is not tested");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString model = dir.filePath(QStringLiteral("tiny-gpt2.json"));
    const QString out = dir.filePath(QStringLiteral("tiny.headroom-measured.json"));
    QVERIFY(write(model, tinyGpt2()));
    const auto probe = runProbe({ QStringLiteral("--model"), model, QStringLiteral("--batch"), QStringLiteral("1"),
                                  QStringLiteral("--seq"), QStringLiteral("16"), QStringLiteral("--device"),
                                  QStringLiteral("cpu"), QStringLiteral("--memory-history"),
                                  dir.filePath(QStringLiteral("history.pickle")), QStringLiteral("--out"), out });
    QCOMPARE(probe.code, 2);
    QVERIFY2(probe.err.contains("--memory-history:") && probe.err.contains("CPU"), probe.err.constData());
    QVERIFY(!QFile::exists(out));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("history.pickle"))));
}

// history_trace.py turns the snapshot a --memory-history run leaves (torch.cuda.memory._dump_snapshot's pickle) into
// the compact trace a GPU session brings back: a made-up snapshot of three events and a segment, with the measured
// file's marks beside it, comes out as those events in order, their frames as a table, the marks carried.
void TestProbe::allocatorTraceFromASnapshot()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pickle = dir.filePath(QStringLiteral("run.pickle"));
    const QString maker = QStringLiteral(
        "import pickle, sys\n"
        "f = {'filename': '/x/site-packages/torchvision/models/vision_transformer.py', 'line': 113, 'name': 'forward'}\n"
        "g = {'filename': '/x/tools/probe/headroom-probe', 'line': 500, 'name': 'train_step'}\n"
        "t = [{'action': 'segment_alloc', 'addr': 4096, 'size': 20971520, 'stream': 0, 'frames': [f, g]},\n"
        "     {'action': 'alloc', 'addr': 4096, 'size': 1536, 'stream': 0, 'frames': [f, g]},\n"
        "     {'action': 'free_completed', 'addr': 4096, 'size': 1536, 'stream': 0, 'frames': [g]}]\n"
        "s = [{'device': 0, 'address': 4096, 'total_size': 20971520, 'stream': 0, 'segment_type': 'large',\n"
        "      'allocated_size': 0}]\n"
        "pickle.dump({'segments': s, 'device_traces': [t]}, open(sys.argv[1], 'wb'))\n");
    QProcess make;
    make.start(kPython, { QStringLiteral("-c"), maker, pickle });
    QVERIFY(make.waitForFinished(60000) && make.exitCode() == 0);
    QVERIFY(write(dir.filePath(QStringLiteral("run.headroom-measured.json")),
                  R"({"memory_history": {"file": "run.pickle", "events_at": {"after_forward": 2}}})"));

    const auto r = runPython(QStringLiteral("history_trace.py"), { pickle }, 60000);
    QVERIFY2(r.code == 0, r.err.constData());
    QFile f(dir.filePath(QStringLiteral("run.trace.json")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject t = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(t.value(QStringLiteral("format")).toString(), QStringLiteral("headroom-allocator-trace"));
    const QJsonArray events = t.value(QStringLiteral("events")).toArray();
    const QJsonArray frames = t.value(QStringLiteral("frames")).toArray();
    QCOMPARE(events.size(), 3);
    const QJsonArray alloc = events.at(1).toArray();
    QCOMPARE(alloc.at(0).toString(), QStringLiteral("alloc"));
    QCOMPARE(alloc.at(1).toDouble(), 4096.0);
    QCOMPARE(alloc.at(2).toDouble(), 1536.0);
    QCOMPARE(frames.at(alloc.at(4).toInt()).toString(),
             QStringLiteral("torchvision/models/vision_transformer.py:113:forward < "
                            "tools/probe/headroom-probe:500:train_step"));
    QCOMPARE(events.at(0).toArray().at(4).toInt(), alloc.at(4).toInt()); // the same stack, one row of the table
    QCOMPARE(frames.size(), 2);
    QCOMPARE(t.value(QStringLiteral("segments_at_dump"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("total_size"))
                 .toDouble(),
             20971520.0);
    QCOMPARE(object(t, "events_at").value(QStringLiteral("after_forward")).toInt(), 2);
}

// grid.py --grid residuals measures again, with the allocator's record, the H200 runs whose memory is not yet
// explained: each run it plans is one of the committed files (model, batch, size, precision, checkpointing, AdamW),
// and the loosened tolerances of TestMeasuredFiles (ViT-B/16 in BF16, BERT with checkpointing, ResNet-50) are among
// them.
void TestProbe::residualGridRepeatsCommittedRuns()
{
    if (!pythonImports(QStringLiteral("torch")))
        QSKIP("/usr/bin/python3 cannot import torch (install python3-torch): grid.py reads its version");
    QTemporaryDir dir;
    const auto r = runPython(QStringLiteral("grid.py"),
                             { QStringLiteral("--grid"), QStringLiteral("residuals"), QStringLiteral("--dry-run"),
                               QStringLiteral("--out"), dir.path() },
                             120000);
    QVERIFY2(r.code == 0, r.err.constData());
    const QStringList planned = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(planned.size(), 8);
    const QStringList committed = QDir(kSource + QStringLiteral("/tests/data/measured"))
                                      .entryList({ QStringLiteral("*-cuda-*.headroom-measured.json") });
    // A file's name without its attention (SDPA where transformers is installed, eager in the transcriptions).
    auto key = [](const QString& name) {
        QString stem = name.trimmed();
        stem.chop(int(std::strlen(".headroom-measured.json")));
        QStringList parts = stem.split(QLatin1Char('-'));
        if (parts.size() > 3)
            parts.removeAt(parts.size() - 2);
        return parts.join(QLatin1Char('-'));
    };
    QSet<QString> have;
    for (const QString& c : committed)
        have.insert(key(c));
    for (const QString& p : planned)
        QVERIFY2(have.contains(key(p)), qPrintable(p));
    for (const char* needed : { "vit-b-16-cuda-b32-s224-bf16-nockpt", "vit-b-16-cuda-b32-s224-bf16-ckpt",
                                "bert-base-cuda-b16-s512-bf16-ckpt", "resnet50-cuda-b64-s224-bf16-nockpt",
                                "resnet50-cuda-b64-s224-fp32-nockpt" })
        QVERIFY2(std::any_of(planned.begin(), planned.end(),
                             [needed](const QString& p) { return p.startsWith(QLatin1String(needed)); }),
                 needed);
}

QTEST_APPLESS_MAIN(TestProbe)
#include "tst_probe.moc"
