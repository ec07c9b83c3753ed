// The headless command line: `headroom estimate`, `headroom list`, `--version`, and its error messages.

#include "baseline.h"
#include "clirun.h"
#include <QJsonArray>

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void defaultScenarioJson();
    void explicitScenario();
    void badArguments_data();
    void badArguments();
    void scenarioFileErrorsNameTheFileAndField_data();
    void scenarioFileErrorsNameTheFileAndField();
    void listCommands();
    void versionAndHelp();
    void unknownCommandListsTheCommands();
    void suggestionsReproduceOnTheCommandLine();
    void modelFromFile();
    void failIfOom();
    void finetuneJson();
    void warningsAreObjectsWithAKind();
    void hostAndGpuClocks();
    void loopOption();
    void baselineComparison();
    void baselineRules();
    void modelsLimitOnlyAtTheModelsLimit();

private:
    using Run = test::CliRun;
    static Run run(const QStringList& args) { return test::runHeadroom(args); }
};

void TestCli::defaultScenarioJson()
{
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    QJsonParseError pe;
    const QJsonObject j = QJsonDocument::fromJson(r.out, &pe).object();
    QCOMPARE(pe.error, QJsonParseError::NoError);
    for (const char* key : { "parameters", "memory", "peak_phase", "capacity", "gpu", "fits", "max_micro_batch",
                             "step_time_seconds", "throughput_per_second", "mfu", "roofline" })
        QVERIFY2(j.contains(QLatin1String(key)), key);
    const QJsonObject mem = j.value(QStringLiteral("memory")).toObject();
    for (const char* key : { "weights", "weight_copies", "gradients", "optimizer_states", "activations", "transient",
                             "overhead", "peak" }) {
        QVERIFY2(mem.contains(QLatin1String(key)), key);
        // Bytes are integers.
        const double v = mem.value(QLatin1String(key)).toDouble();
        QCOMPARE(v, std::floor(v));
    }
    // The default scenario: BERT-base on the RTX A3000 12 GB, with the explainer's 392 GB/s as a visible what-if
    // over the datasheet's 336 GB/s.
    const QJsonObject gpu = j.value(QStringLiteral("gpu")).toObject();
    QCOMPARE(gpu.value(QStringLiteral("id")).toString(), QStringLiteral("rtx-a3000-12gb-laptop"));
    QCOMPARE(gpu.value(QStringLiteral("memory_bytes")).toDouble(), 12288.0 * 1048576.0);
    QCOMPARE(gpu.value(QStringLiteral("bandwidth_bytes_per_second")).toDouble(), 392e9);
    QVERIFY(gpu.value(QStringLiteral("overridden")).toArray().contains(QStringLiteral("bandwidth_bytes_per_second")));
    QCOMPARE(gpu.value(QStringLiteral("datasheet"))
                 .toObject()
                 .value(QStringLiteral("bandwidth_bytes_per_second"))
                 .toDouble(),
             336e9);
    QCOMPARE(j.value(QStringLiteral("parameters")).toDouble(), 109514298.0);
    QCOMPARE(j.value(QStringLiteral("trainable_parameters")).toDouble(), 109514298.0); // full fine-tuning
    QCOMPARE(j.value(QStringLiteral("host_memory_bytes")).toDouble(), 0.0);            // nothing offloaded or paged
    const QJsonArray points = j.value(QStringLiteral("roofline")).toObject().value(QStringLiteral("points")).toArray();
    QVERIFY(!points.isEmpty());
    for (const auto& p : points) {
        const QJsonObject o = p.toObject();
        for (const char* key : { "name", "flops", "bytes", "seconds" })
            QVERIFY2(o.contains(QLatin1String(key)), key);
    }
    const double peak = mem.value(QStringLiteral("peak")).toDouble();
    QCOMPARE(j.value(QStringLiteral("fits")).toBool(), peak <= j.value(QStringLiteral("capacity")).toDouble());
}

void TestCli::explicitScenario()
{
    const Run r = run({ QStringLiteral("estimate"),
                        QStringLiteral("--gpu"),
                        QStringLiteral("h100-sxm5-80gb"),
                        QStringLiteral("--model"),
                        QStringLiteral("llama-2-7b"),
                        QStringLiteral("--batch"),
                        QStringLiteral("1"),
                        QStringLiteral("--seq"),
                        QStringLiteral("4096"),
                        QStringLiteral("--precision"),
                        QStringLiteral("bf16"),
                        QStringLiteral("--zero"),
                        QStringLiteral("3"),
                        QStringLiteral("--dp"),
                        QStringLiteral("8"),
                        QStringLiteral("--checkpointing"),
                        QStringLiteral("full"),
                        QStringLiteral("--attention"),
                        QStringLiteral("fused"),
                        QStringLiteral("--optimizer"),
                        QStringLiteral("adamw"),
                        QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j.value(QStringLiteral("parameters")).toDouble(), 6738415616.0);
    QVERIFY(j.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("overridden")).toArray().isEmpty());
    QCOMPARE(j.value(QStringLiteral("scenario")).toObject().value(QStringLiteral("zero_stage")).toInt(), 3);
    QVERIFY(j.value(QStringLiteral("fits")).toBool());

    // The same with a table for people.
    const Run t = run({ QStringLiteral("estimate"), QStringLiteral("--gpu"), QStringLiteral("rtx-3090") });
    QCOMPARE(t.code, 0);
    QVERIFY(t.out.contains("peak"));
    QVERIFY(t.out.contains("NVIDIA GeForce RTX 3090"));
}

void TestCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown gpu") << QStringList { QStringLiteral("--gpu"), QStringLiteral("rtx-9999") }
                                 << QStringLiteral("rtx-a3000-12gb-laptop");
    QTest::newRow("unknown model") << QStringList { QStringLiteral("--model"), QStringLiteral("gpt5") }
                                   << QStringLiteral("llama-2-7b");
    QTest::newRow("bad precision") << QStringList { QStringLiteral("--precision"), QStringLiteral("fp64") }
                                   << QStringLiteral("bf16-pure");
    QTest::newRow("bad zero") << QStringList { QStringLiteral("--zero"), QStringLiteral("4") }
                              << QStringLiteral("--zero");
    QTest::newRow("negative batch") << QStringList { QStringLiteral("--batch"), QStringLiteral("-3") }
                                    << QStringLiteral("--batch");
    QTest::newRow("nan bandwidth") << QStringList { QStringLiteral("--bandwidth-gbps"), QStringLiteral("nan") }
                                   << QStringLiteral("--bandwidth-gbps");
    QTest::newRow("bad optimizer") << QStringList { QStringLiteral("--optimizer"), QStringLiteral("lion") }
                                   << QStringLiteral("adamw-8bit");
    QTest::newRow("bad checkpointing") << QStringList { QStringLiteral("--checkpointing"), QStringLiteral("some") }
                                       << QStringLiteral("selective");
    QTest::newRow("unknown option") << QStringList { QStringLiteral("--frobnicate") } << QStringLiteral("frobnicate");
    QTest::newRow("bad finetune") << QStringList { QStringLiteral("--finetune"), QStringLiteral("prefix") }
                                  << QStringLiteral("qlora");
    QTest::newRow("lora rank 0") << QStringList { QStringLiteral("--finetune"), QStringLiteral("lora"),
                                                  QStringLiteral("--lora-rank"), QStringLiteral("0") }
                                 << QStringLiteral("--lora-rank");
    QTest::newRow("lora dropout 1") << QStringList { QStringLiteral("--finetune"), QStringLiteral("lora"),
                                                     QStringLiteral("--lora-dropout"), QStringLiteral("1") }
                                    << QStringLiteral("--lora-dropout");
    QTest::newRow("lora option without lora")
        << QStringList { QStringLiteral("--lora-rank"), QStringLiteral("16") } << QStringLiteral("--finetune");
    QTest::newRow("unknown lora target") << QStringList {
        QStringLiteral("--model"), QStringLiteral("llama-2-7b"),     QStringLiteral("--finetune"),
        QStringLiteral("lora"),    QStringLiteral("--lora-targets"), QStringLiteral("q_proj,c_attn")
    } << QStringLiteral("--lora-targets: \"c_attn\"");
    QTest::newRow("lora on a cnn") << QStringList { QStringLiteral("--model"), QStringLiteral("resnet50"),
                                                    QStringLiteral("--finetune"), QStringLiteral("qlora") }
                                   << QStringLiteral("--finetune");
    QTest::newRow("bad task") << QStringList { QStringLiteral("--task"), QStringLiteral("summarize") }
                              << QStringLiteral("token-cls");
    QTest::newRow("causal task on bert") << QStringList { QStringLiteral("--task"), QStringLiteral("causal-lm") }
                                         << QStringLiteral("--task");
    QTest::newRow("tp not dividing the heads") << QStringList { QStringLiteral("--model"), QStringLiteral("llama-2-7b"),
                                                                QStringLiteral("--tp"), QStringLiteral("3") }
                                               << QStringLiteral("--tp: 3 must divide the 32 attention heads");
    QTest::newRow("tp 0") << QStringList { QStringLiteral("--tp"), QStringLiteral("0") } << QStringLiteral("--tp");
    QTest::newRow("sp without tp") << QStringList { QStringLiteral("--sp") } << QStringLiteral("--sp");
    QTest::newRow("tp on a cnn") << QStringList { QStringLiteral("--model"), QStringLiteral("resnet50"),
                                                  QStringLiteral("--tp"), QStringLiteral("2") }
                                 << QStringLiteral("--tp");
    QTest::newRow("host speed 0") << QStringList { QStringLiteral("--host-speed"), QStringLiteral("0") }
                                  << QStringLiteral("--host-speed");
    QTest::newRow("bad execution") << QStringList { QStringLiteral("--execution"), QStringLiteral("compiled") }
                                   << QStringLiteral("cuda-graphs");
    QTest::newRow("bad loop") << QStringList { QStringLiteral("--loop"), QStringLiteral("keep") }
                              << QStringLiteral("--loop: unknown value \"keep\"; valid: keep-outputs, drop-outputs");
    QTest::newRow("labels without a classifier")
        << QStringList { QStringLiteral("--num-labels"), QStringLiteral("3") } << QStringLiteral("--task");
}

void TestCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run r = run(QStringList { QStringLiteral("estimate") } + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(mentions), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCli::scenarioFileErrorsNameTheFileAndField_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("mentions"); // after "<file>: "; empty: the file is read
    QTest::newRow("unknown gpu") << QStringLiteral("\"gpu\": \"rtx-a3000-12gb-laptop\"")
                                 << QStringLiteral("\"gpu\": \"rtx-9999-ti\"")
                                 << QStringLiteral("gpu: unknown GPU id \"rtx-9999-ti\"");
    QTest::newRow("unknown model") << QStringLiteral("\"model\": \"bert-base\"")
                                   << QStringLiteral("\"model\": \"bert-gigantic\"")
                                   << QStringLiteral("model: unknown model \"bert-gigantic\"");
    QTest::newRow("misspelt field") << QStringLiteral("\"checkpointing\": \"none\"")
                                    << QStringLiteral("\"checkpoiting\": \"full\"")
                                    << QStringLiteral("checkpoiting: unknown field; did you mean \"checkpointing\"?");
    QTest::newRow("another program's field")
        << QStringLiteral("\"checkpointing\": \"none\"")
        << QStringLiteral("\"checkpointing\": \"none\", \"notes_for_me\": 1") << QString();
}

// A scenario file's GPU or model that the catalog does not have is that file's field: the message blamed --gpu, an
// option the user had not passed, and named no file for a model. A field misspelt in it ("checkpoiting") was
// skipped, and the estimate ran without the checkpointing asked for; one far from every field is another program's.
void TestCli::scenarioFileErrorsNameTheFileAndField()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, mentions);
    QFile example(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/02-bert-base-mixed.headroom.json"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(example.readAll());
    QVERIFY(text.contains(from));
    text.replace(from, to);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.headroom.json"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--scenario"), path });
    if (mentions.isEmpty()) {
        QVERIFY2(r.code == 0, r.err.constData());
        return;
    }
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(path + QStringLiteral(": ") + mentions), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

void TestCli::loopOption()
{
    // GPT-2, FP32, b16 x 1024 with checkpointing on the H200 (the issue's +21.5 % case): keep-outputs holds the FP32
    // logits, 16 x 1024 x 50257 x 4 B, through backward; the JSON says which loop and which SDPA kernel.
    auto estimate = [&](const char* loop) {
        const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--gpu"), QStringLiteral("h200-sxm-141gb"),
                            QStringLiteral("--model"), QStringLiteral("gpt2"), QStringLiteral("--batch"),
                            QStringLiteral("16"), QStringLiteral("--seq"), QStringLiteral("1024"),
                            QStringLiteral("--precision"), QStringLiteral("fp32"), QStringLiteral("--checkpointing"),
                            QStringLiteral("full"), QStringLiteral("--attention"), QStringLiteral("fused"),
                            QStringLiteral("--loop"), QString::fromLatin1(loop), QStringLiteral("--json") });
        [&] { QCOMPARE(r.code, 0); }();
        return QJsonDocument::fromJson(r.out).object();
    };
    const QJsonObject keep = estimate("keep-outputs");
    const QJsonObject drop = estimate("drop-outputs");
    QCOMPARE(keep.value(QStringLiteral("scenario")).toObject().value(QStringLiteral("loop")).toString(),
             QStringLiteral("keep-outputs"));
    QCOMPARE(drop.value(QStringLiteral("scenario")).toObject().value(QStringLiteral("loop")).toString(),
             QStringLiteral("drop-outputs"));
    auto peak = [](const QJsonObject& j) {
        return j.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toDouble();
    };
    QCOMPARE(peak(keep) - peak(drop), 16.0 * 1024 * 50257 * 4);
    // FP32 with dropout 0.1 on sm90: cuDNN and flash take 16-bit only, memory-efficient runs.
    const QJsonObject kernel = keep.value(QStringLiteral("attention_kernel")).toObject();
    QCOMPARE(kernel.value(QStringLiteral("name")).toString(), QStringLiteral("efficient"));
    QCOMPARE(kernel.value(QStringLiteral("reason")).toString(), QStringLiteral("FP32"));
    // The table says both, and a fix line reproduces the loop.
    const Run t = run({ QStringLiteral("estimate"), QStringLiteral("--loop"), QStringLiteral("drop-outputs") });
    QCOMPARE(t.code, 0);
    QVERIFY(t.out.contains("Loop       drop-outputs"));
    QVERIFY(t.out.contains("SDPA       "));
}

void TestCli::listCommands()
{
    const Run g = run({ QStringLiteral("list"), QStringLiteral("gpus") });
    QCOMPARE(g.code, 0);
    QCOMPARE_GE(g.out.count('\n'), 30);
    QVERIFY(g.out.contains("rtx-a3000-12gb-laptop"));
    const Run m = run({ QStringLiteral("list"), QStringLiteral("models") });
    QCOMPARE(m.code, 0);
    for (const char* id : { "bert-base", "gpt2", "llama-2-7b", "resnet50", "transformer-100m" })
        QVERIFY2(m.out.contains(id), id);
    QCOMPARE(run({ QStringLiteral("list"), QStringLiteral("nothing") }).code, 2);
}

void TestCli::versionAndHelp()
{
    const Run v = run({ QStringLiteral("--version") });
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.startsWith("headroom 0."));
    const Run h = run({ QStringLiteral("--help") });
    QCOMPARE(h.code, 0);
    QVERIFY(h.out.contains("estimate"));
    const Run eh = run({ QStringLiteral("estimate"), QStringLiteral("--help") });
    QCOMPARE(eh.code, 0);
    QVERIFY(eh.out.contains("--checkpointing"));
    // The window's own options are listed too.
    for (const char* o :
         { "--palette", "--presentation", "--size", "--language", "--tour", "--screenshot", "--scenario" })
        QVERIFY2(h.out.contains(o), o);
    // The help states the defaults estimate really uses: the default scenario's FP16 and micro-batch 16.
    QVERIFY(eh.out.contains("default: 16"));
    QVERIFY(eh.out.contains("default: fp16"));
    const Run plain = run({ QStringLiteral("estimate"), QStringLiteral("--json") });
    QVERIFY(plain.out.contains("\"micro_batch\": 16") && plain.out.contains("\"precision\": \"fp16\""));
}

void TestCli::suggestionsReproduceOnTheCommandLine()
{
    // GPT-2 XL in FP32 with AdamW, 8 x 1024 tokens, on the 12 GB laptop GPU: about 89 GiB, and no single change
    // fits. Each suggestion's `changes`, added to the same command line, must give exactly its peak and verdict.
    const QStringList base { QStringLiteral("estimate"), QStringLiteral("--json"),      QStringLiteral("--model"),
                             QStringLiteral("gpt2-xl"),  QStringLiteral("--precision"), QStringLiteral("fp32"),
                             QStringLiteral("--batch"),  QStringLiteral("8"),           QStringLiteral("--seq"),
                             QStringLiteral("1024") };
    const Run r = run(base);
    QCOMPARE(r.code, 0);
    const QJsonObject root = QJsonDocument::fromJson(r.out).object();
    QVERIFY(!root.value(QStringLiteral("fits")).toBool());
    const QJsonArray suggestions = root.value(QStringLiteral("suggestions")).toArray();
    QVERIFY(suggestions.size() >= 2);
    QVERIFY(suggestions.first().toObject().value(QStringLiteral("fits")).toBool()); // best first: one that fits
    bool singleNotEnough = false;
    for (const QJsonValue& v : suggestions) {
        const QJsonObject s = v.toObject();
        QStringList args = base;
        const QJsonObject changes = s.value(QStringLiteral("changes")).toObject();
        QVERIFY(!changes.isEmpty());
        for (auto it = changes.begin(); it != changes.end(); ++it) {
            args << it.key();
            if (!it.value().toString().isEmpty())
                args << it.value().toString();
        }
        const QJsonObject again = QJsonDocument::fromJson(run(args).out).object();
        QCOMPARE(again.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toInteger(),
                 s.value(QStringLiteral("peak_bytes")).toInteger());
        QCOMPARE(again.value(QStringLiteral("fits")).toBool(), s.value(QStringLiteral("fits")).toBool());
        QCOMPARE(s.value(QStringLiteral("enough_alone")).toBool(), s.value(QStringLiteral("fits")).toBool());
        QVERIFY(!s.value(QStringLiteral("description")).toString().isEmpty());
        if (changes.size() == 1 && !s.value(QStringLiteral("fits")).toBool())
            singleNotEnough = true;
    }
    QVERIFY(singleNotEnough); // the single changes stay listed, as not enough alone
    // A step that fits has nothing to suggest.
    const Run fits = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--model"),
                           QStringLiteral("gpt2"), QStringLiteral("--batch"), QStringLiteral("1"),
                           QStringLiteral("--seq"), QStringLiteral("128") });
    const QJsonObject f = QJsonDocument::fromJson(fits.out).object();
    QVERIFY(f.value(QStringLiteral("fits")).toBool());
    QVERIFY(f.value(QStringLiteral("suggestions")).isArray());
    QCOMPARE(f.value(QStringLiteral("suggestions")).toArray().size(), 0);
}

void TestCli::unknownCommandListsTheCommands()
{
    // Without a display the window cannot open: an unknown word must not try to (QT_QPA_PLATFORM unset here).
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    p.setProcessEnvironment(env);
    for (const char* word : { "frobnicate", "simulate" }) {
        p.start(test::headroomBinary(), { QString::fromLatin1(word) });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains(word) && err.contains("estimate") && err.contains("list") && err.contains("export"),
                 err.constData());
    }
}

void TestCli::modelFromFile()
{
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("tiny.json"));
    QFile f(good);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format":"headroom-model","version":1,"id":"tiny","name":"Tiny","family":"transformer",
      "transformer":{"layers":2,"hidden":64,"heads":4,"ffn":256,"vocab":1000,"max_positions":128,"causal":true,
      "norm":"layernorm","activation":"gelu","position":"learned","head":"causal_lm","tied_embeddings":true}})");
    f.close();
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--model"), good, QStringLiteral("--json") });
    QCOMPARE(r.code, 0);
    // 2 layers of 12h^2 + 13h, 1000 x 64 embedding, 128 x 64 positions, final norm.
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("parameters")).toDouble(),
             2.0 * (12 * 64 * 64 + 13 * 64) + 1000 * 64 + 128 * 64 + 2 * 64);

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(R"({"format":"headroom-model","version":1,"id":"bad","name":"Bad","family":"transformer",
      "transformer":{"layers":-2,"hidden":64,"heads":4,"ffn":256,"vocab":1000,"causal":true,
      "norm":"layernorm","activation":"gelu","position":"none","head":"causal_lm"}})");
    b.close();
    const Run e = run({ QStringLiteral("estimate"), QStringLiteral("--model"), bad });
    QCOMPARE(e.code, 2);
    QVERIFY2(e.err.contains("bad.json") && e.err.contains("transformer.layers"), e.err.constData());
}

// Issue 13's contract: QLoRA of Llama-2-7B on the 12 GB laptop GPU fits, trains PEFT's 4,194,304 adapter weights
// (r 8 on q_proj and v_proj: 32 * 2 * 8 * (4096 + 4096)), and keeps paged 8-bit states in host memory
// (bitsandbytes: 2.03125 bytes per parameter).
void TestCli::finetuneJson()
{
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--gpu"),
                        QStringLiteral("rtx-a3000-12gb-laptop"), QStringLiteral("--model"),
                        QStringLiteral("llama-2-7b"), QStringLiteral("--batch"), QStringLiteral("1"),
                        QStringLiteral("--seq"), QStringLiteral("512"), QStringLiteral("--precision"),
                        QStringLiteral("bf16"), QStringLiteral("--checkpointing"), QStringLiteral("full"),
                        QStringLiteral("--optimizer"), QStringLiteral("paged-adamw-8bit"), QStringLiteral("--finetune"),
                        QStringLiteral("qlora") });
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j.value(QStringLiteral("trainable_parameters")).toInteger(), 4194304);
    QCOMPARE(j.value(QStringLiteral("host_memory_bytes")).toInteger(), 8519680);
    QVERIFY(j.value(QStringLiteral("fits")).toBool());
    const QJsonObject f = j.value(QStringLiteral("scenario")).toObject().value(QStringLiteral("finetune")).toObject();
    QCOMPARE(f.value(QStringLiteral("method")).toString(), QStringLiteral("qlora"));
    QCOMPARE(f.value(QStringLiteral("lora_rank")).toInt(), 8);
    // A classification head on BERT-base with LoRA on query and value: 294,912 adapter weights (Hu et al. 2021,
    // 2 * 24 * 768 * 8) plus the classifier (768 * 3 + 3), which PEFT trains as a module to save.
    const Run c = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--model"),
                        QStringLiteral("bert-base"), QStringLiteral("--task"), QStringLiteral("seq-cls"),
                        QStringLiteral("--num-labels"), QStringLiteral("3"), QStringLiteral("--finetune"),
                        QStringLiteral("lora"), QStringLiteral("--lora-targets"), QStringLiteral("query,value") });
    QCOMPARE(c.code, 0);
    QCOMPARE(QJsonDocument::fromJson(c.out).object().value(QStringLiteral("trainable_parameters")).toInteger(),
             294912 + 768 * 3 + 3);
}

void TestCli::failIfOom()
{
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--model"), QStringLiteral("llama-2-7b"),
                        QStringLiteral("--fail-if-oom") });
    QCOMPARE(r.code, 3);
    QVERIFY(r.out.contains("does not fit"));
}

void TestCli::warningsAreObjectsWithAKind()
{
    // Issue 8: `--model gpt2 --seq 2048` said "fits". GPT-2 has 1024 learned positions (n_positions): an error that
    // names the limit. Past a RoPE model's max_position_embeddings (Llama 3.2: 131072) it is a warning, and JSON
    // warnings carry a stable kind.
    const Run learned = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--model"),
                              QStringLiteral("gpt2"), QStringLiteral("--seq"), QStringLiteral("2048"),
                              QStringLiteral("--batch"), QStringLiteral("1") });
    QCOMPARE(learned.code, 2);
    QVERIFY2(learned.err.contains("--seq") && learned.err.contains("1024"), learned.err.constData());
    const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--model"),
                        QStringLiteral("llama-3.2-1b"), QStringLiteral("--seq"), QStringLiteral("262144"),
                        QStringLiteral("--batch"), QStringLiteral("1"), QStringLiteral("--gpu"),
                        QStringLiteral("h100-sxm5-80gb") });
    QCOMPARE(r.code, 0);
    const QJsonArray w = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("warnings")).toArray();
    QVERIFY(!w.isEmpty());
    QCOMPARE(w.at(0).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("beyond_positions"));
    QVERIFY(w.at(0).toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("131072")));

    // Selective checkpointing where SDPA's flash kernel saves no scores to drop (Korthikanti et al. 2022, sec. 5;
    // flash_api.cpp keeps the log-sum-exp): the run is as without checkpointing, and says so.
    const Run selective = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--model"),
                                QStringLiteral("gpt2"), QStringLiteral("--precision"), QStringLiteral("bf16"),
                                QStringLiteral("--checkpointing"), QStringLiteral("selective"), QStringLiteral("--gpu"),
                                QStringLiteral("a100-sxm4-80gb") });
    QCOMPARE(selective.code, 0);
    const QJsonArray sw = QJsonDocument::fromJson(selective.out).object().value(QStringLiteral("warnings")).toArray();
    QVERIFY2(!sw.isEmpty(), selective.out.constData());
    QCOMPARE(sw.at(0).toObject().value(QStringLiteral("kind")).toString(),
             QStringLiteral("selective_recomputes_nothing"));
    QVERIFY(sw.at(0).toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("flash")));
}

void TestCli::hostAndGpuClocks()
{
    // GPT-2 at 8 x 512 tokens in BF16 on an H200 measured 36.7 ms a step where its kernels need about 15 ms
    // (tests/data/measured/gpt2-cuda-b8-s512-bf16-nockpt-fused-fused): the host bounds it. Issue 27's contract:
    // time.host_seconds, time.gpu_busy_seconds, time.host_bound in JSON; --host-speed scales the host's costs;
    // --execution cuda-graphs removes the per-operator ones.
    const QStringList base { QStringLiteral("estimate"),    QStringLiteral("--gpu"), QStringLiteral("h200-sxm-141gb"),
                             QStringLiteral("--model"),     QStringLiteral("gpt2"),  QStringLiteral("--batch"),
                             QStringLiteral("8"),           QStringLiteral("--seq"), QStringLiteral("512"),
                             QStringLiteral("--precision"), QStringLiteral("bf16"),  QStringLiteral("--json") };
    auto time = [&](const QStringList& extra, QJsonObject* whole = nullptr) {
        const Run r = run(base + extra);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        if (whole)
            *whole = j;
        return r.code == 0 ? j.value(QStringLiteral("time")).toObject() : QJsonObject();
    };
    QJsonObject eagerJson;
    const QJsonObject eager = time({}, &eagerJson);
    QVERIFY(eager.value(QStringLiteral("host_bound")).toBool());
    const double host = eager.value(QStringLiteral("host_seconds")).toDouble();
    const double busy = eager.value(QStringLiteral("gpu_busy_seconds")).toDouble();
    QCOMPARE_GT(host, busy);
    QCOMPARE_GT(busy, 0.0);
    QCOMPARE(eager.value(QStringLiteral("execution")).toString(), QStringLiteral("eager"));
    // The step is never shorter than either clock.
    QCOMPARE_GE(eagerJson.value(QStringLiteral("step_time_seconds")).toDouble(), host);
    // A host-bound step lists what would shorten it, CUDA graphs among them.
    const QJsonArray levers = eagerJson.value(QStringLiteral("time_levers")).toArray();
    QVERIFY(!levers.isEmpty());
    QCOMPARE(levers.first().toObject().value(QStringLiteral("lever")).toString(), QStringLiteral("cuda-graphs"));

    // Twice as fast a host halves every host cost; the GPU's work does not change.
    const QJsonObject fast = time({ QStringLiteral("--host-speed"), QStringLiteral("2") });
    QVERIFY(std::abs(fast.value(QStringLiteral("host_seconds")).toDouble() - host / 2.0) <= 1e-9 * host);
    QCOMPARE(fast.value(QStringLiteral("gpu_busy_seconds")).toDouble(), busy);

    // Replayed as a CUDA graph the host issues one launch: the GPU bounds the step.
    QJsonObject graphsJson;
    const QJsonObject graphs = time({ QStringLiteral("--execution"), QStringLiteral("cuda-graphs") }, &graphsJson);
    QVERIFY(!graphs.value(QStringLiteral("host_bound")).toBool());
    QCOMPARE(graphs.value(QStringLiteral("gpu_busy_seconds")).toDouble(), busy);
    QCOMPARE_LT(graphsJson.value(QStringLiteral("step_time_seconds")).toDouble(),
                eagerJson.value(QStringLiteral("step_time_seconds")).toDouble());
}

// `headroom estimate --baseline FILE`: the explainer's two BERT-base examples, FP32 at batch 32 (its title: does
// not fit on the A3000's 12 GB) as the baseline and mixed precision now. Each row's sides are the two estimates' own
// figures (each run alone), the byte change their difference, and mixed precision fits where FP32 did not. A bad
// baseline file is refused with exit status 2, naming the option and the file.
void TestCli::baselineComparison()
{
    const QString fp32 = QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/01-bert-base-fp32.headroom.json");
    const QString mixed = QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/02-bert-base-mixed.headroom.json");
    auto estimate = [&](const QString& scenario, const QStringList& more = {}) {
        const Run r = run(
            QStringList { QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--scenario"), scenario }
            + more);
        return std::make_pair(r.code, QJsonDocument::fromJson(r.out).object());
    };
    const auto [baseCode, base] = estimate(fp32);
    const auto [nowCode, now] = estimate(mixed, { QStringLiteral("--baseline"), fp32 });
    QCOMPARE(baseCode, 0);
    QCOMPARE(nowCode, 0);
    QVERIFY(!base.value(QStringLiteral("fits")).toBool());
    QVERIFY(now.value(QStringLiteral("fits")).toBool());
    const QJsonObject against = now.value(QStringLiteral("against_baseline")).toObject();
    QCOMPARE(against.value(QStringLiteral("scenario")).toString(), fp32);
    QVERIFY(against.value(QStringLiteral("title")).toString().contains(QStringLiteral("FP32")));
    QHash<QString, QJsonObject> rows;
    for (const QJsonValue& v : against.value(QStringLiteral("rows")).toArray())
        rows.insert(v.toObject().value(QStringLiteral("quantity")).toString(), v.toObject());
    QCOMPARE(rows.size(), 15);
    // What the step needs is the verdict's (the capacity less its free bytes), each side's own.
    auto needed = [](const QJsonObject& e) {
        return e.value(QStringLiteral("capacity")).toDouble()
            - e.value(QStringLiteral("fit")).toObject().value(QStringLiteral("free_bytes")).toDouble();
    };
    QCOMPARE(rows.value(QStringLiteral("needs")).value(QStringLiteral("baseline")).toDouble(), needed(base));
    QCOMPARE(rows.value(QStringLiteral("needs")).value(QStringLiteral("current")).toDouble(), needed(now));
    const QJsonObject peak = rows.value(QStringLiteral("peak"));
    const double basePeak = base.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toDouble();
    const double nowPeak = now.value(QStringLiteral("memory")).toObject().value(QStringLiteral("peak")).toDouble();
    QCOMPARE(peak.value(QStringLiteral("baseline")).toDouble(), basePeak);
    QCOMPARE(peak.value(QStringLiteral("current")).toDouble(), nowPeak);
    QCOMPARE(peak.value(QStringLiteral("change")).toDouble(), nowPeak - basePeak);
    QCOMPARE(peak.value(QStringLiteral("change_kind")).toString(), QStringLiteral("bytes"));
    QCOMPARE(peak.value(QStringLiteral("better")).toInt(), 1);
    const QJsonObject step = rows.value(QStringLiteral("step_seconds"));
    QCOMPARE(step.value(QStringLiteral("change")).toDouble(),
             now.value(QStringLiteral("step_time_seconds")).toDouble()
                 / base.value(QStringLiteral("step_time_seconds")).toDouble());
    QCOMPARE(rows.value(QStringLiteral("fits")).value(QStringLiteral("better")).toInt(), 1);

    // The table: one line per row, judged.
    const Run table = run(
        { QStringLiteral("estimate"), QStringLiteral("--scenario"), mixed, QStringLiteral("--baseline"), fp32 });
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("Against the baseline") && table.out.contains("better"), table.out.constData());

    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.headroom.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "headroom-scenario", "version": 1, "gpu": "rtx-3090", "model": "gpt2"})");
    f.close();
    for (const QString& file : { bad, dir.filePath(QStringLiteral("missing.json")) }) {
        const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--baseline"), file });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--baseline") && r.err.contains(file.toUtf8()), r.err.constData());
    }
}

// The judgement of each row, on figures set by hand: bytes better when they fall (free memory when it rises), by
// more than a byte; ratios better by more than 0.1 %, none where a side is 0; the verdict better when it now fits.
void TestCli::baselineRules()
{
    using namespace headroom;
    SimulationResult b, c;
    b.estimate.atPeak[std::size_t(MemoryCategory::Activations)] = 8.0 * (1 << 30);
    c.estimate.atPeak[std::size_t(MemoryCategory::Activations)] = 6.0 * (1 << 30);
    b.estimate.atPeak[std::size_t(MemoryCategory::Weights)] = 1000.0;
    c.estimate.atPeak[std::size_t(MemoryCategory::Weights)] = 1000.5; // within a byte: the same
    b.estimate.peakBytes = 12.0 * (1 << 30);
    c.estimate.peakBytes = 10.0 * (1 << 30);
    b.estimate.headroomBytes = -1.0 * (1 << 30);
    c.estimate.headroomBytes = 1.0 * (1 << 30);
    b.estimate.maxMicroBatch = 0; // none fitted: no ratio
    c.estimate.maxMicroBatch = 4;
    b.estimate.stepSeconds = 2.0;
    c.estimate.stepSeconds = 1.5;
    b.estimate.throughputPerSecond = 1000.0;
    c.estimate.throughputPerSecond = 1000.5; // within 0.1 %
    b.estimate.mfu = 0.5;
    c.estimate.mfu = 0.4;
    c.verdict.fits = true;
    QHash<QString, BaselineRow> rows;
    for (const BaselineRow& r : compareToBaseline(b, c))
        rows.insert(QString::fromStdString(baselineKey(r)), r);
    QCOMPARE(rows.value(QStringLiteral("activations")).change, -2.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("activations")).better, 1);
    QCOMPARE(rows.value(QStringLiteral("weights")).better, 0);
    QCOMPARE(rows.value(QStringLiteral("peak")).better, 1);
    QCOMPARE(rows.value(QStringLiteral("free")).change, 2.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("free")).better, 1);
    QCOMPARE(rows.value(QStringLiteral("max_micro_batch")).change, 0.0);
    QCOMPARE(rows.value(QStringLiteral("max_micro_batch")).better, 0);
    QCOMPARE(rows.value(QStringLiteral("step_seconds")).change, 0.75);
    QCOMPARE(rows.value(QStringLiteral("step_seconds")).better, 1);
    QCOMPARE(rows.value(QStringLiteral("throughput_per_second")).better, 0);
    QCOMPARE(rows.value(QStringLiteral("mfu")).better, -1);
    QCOMPARE(rows.value(QStringLiteral("fits")).better, 1);
    QCOMPARE(rows.value(QStringLiteral("fits")).kind, BaselineChange::Verdict);

    // A side's search, where given, is its answer to "does it fit?" (the window's, a moment after the result): what
    // the step needs, the free bytes, the largest micro-batch and the verdict are the search's, the peak the result's.
    SearchResult bs, cs;
    bs.verdict = { true, FitRule::Allocator, 11.0 * (1 << 30), 12.0 * (1 << 30) };
    cs.verdict = { false, FitRule::Allocator, 13.0 * (1 << 30), 12.0 * (1 << 30) };
    bs.maxMicroBatch = 12;
    cs.maxMicroBatch = 10;
    rows.clear();
    for (const BaselineRow& r : compareToBaseline(b, c, &bs, &cs))
        rows.insert(QString::fromStdString(baselineKey(r)), r);
    QCOMPARE(rows.value(QStringLiteral("peak")).current, 10.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("needs")).current, 13.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("needs")).better, -1);
    QCOMPARE(rows.value(QStringLiteral("free")).baseline, 1.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("free")).current, -1.0 * (1 << 30));
    QCOMPARE(rows.value(QStringLiteral("max_micro_batch")).current, 10.0);
    QCOMPARE(rows.value(QStringLiteral("fits")).current, 0.0);
    QCOMPARE(rows.value(QStringLiteral("fits")).better, -1);
}

// "Longest sequence that fits: 502 (the model's limit)": BERT-base's limit is its 512 learned positions
// (max_position_embeddings in its config.json), which the peak's search reached and the allocator replay then cut to
// 502. The note is the model's only where the answer is its limit.
void TestCli::modelsLimitOnlyAtTheModelsLimit()
{
    const QString mixed = QStringLiteral(HEADROOM_SOURCE_DIR "/resources/scenarios/02-bert-base-mixed.headroom.json");
    int below = 0;
    for (const char* batch : { "24", "25", "26", "27" }) {
        const Run r = run({ QStringLiteral("estimate"), QStringLiteral("--json"), QStringLiteral("--scenario"), mixed,
                            QStringLiteral("--batch"), QLatin1String(batch) });
        QCOMPARE(r.code, 0);
        const QJsonObject e = QJsonDocument::fromJson(r.out).object();
        const int longest = e.value(QStringLiteral("max_sequence_length")).toInt();
        QVERIFY(longest > 0 && longest <= 512);
        below += longest < 512 ? 1 : 0;
        QVERIFY2(e.value(QStringLiteral("max_sequence_limited_by_model")).toBool() == (longest == 512),
                 qPrintable(QStringLiteral("batch %1: %2").arg(QLatin1String(batch)).arg(longest)));
    }
    QVERIFY(below > 0); // the case of the note that was wrong is among them
}

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
