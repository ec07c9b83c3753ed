// `headroom infer`: the JSON contract of issue 13, the table, and bad values refused with exit status 2 naming the
// option.

#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

class TestInferCli : public QObject {
    Q_OBJECT

private slots:
    void jsonContract();
    void ggufPresetOnTheExplainersGpu();
    void table();
    void warningsAreObjectsWithAKind();
    void badArguments_data();
    void badArguments();

private:
    using Run = test::CliRun;
    static Run run(QStringList args)
    {
        args.prepend(QStringLiteral("infer"));
        return test::runHeadroom(args);
    }
    static QJsonObject json(const QStringList& args)
    {
        const Run r = run(args + QStringList { QStringLiteral("--json") });
        if (r.code != 0)
            qWarning("%s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    }
};

void TestInferCli::jsonContract()
{
    const QJsonObject j = json({ QStringLiteral("--gpu"), QStringLiteral("a100-sxm4-80gb"), QStringLiteral("--model"),
                                 QStringLiteral("llama-2-7b"), QStringLiteral("--batch"), QStringLiteral("4"),
                                 QStringLiteral("--prompt"), QStringLiteral("1000"), QStringLiteral("--generate"),
                                 QStringLiteral("200"), QStringLiteral("--kv-block"), QStringLiteral("1") });
    for (const char* key : { "parameters", "memory", "capacity", "fits", "max_batch", "max_context", "prefill_seconds",
                             "decode_seconds_per_token", "tokens_per_second", "roofline", "host_memory_bytes" })
        QVERIFY2(j.contains(QLatin1String(key)), key);
    const QJsonObject mem = j.value(QStringLiteral("memory")).toObject();
    for (const char* key : { "weights", "kv_cache", "activations", "overhead", "peak" }) {
        QVERIFY2(mem.contains(QLatin1String(key)), key);
        const double v = mem.value(QLatin1String(key)).toDouble();
        QCOMPARE(v, std::floor(v)); // bytes are integers
    }
    // Exact counts: the checkpoint's 6,738,415,616 parameters in FP16, and 2 x 32 x 4096 x 2 bytes per token of
    // cache for 4 sequences of 1200 tokens at the end of the generation.
    QCOMPARE(j.value(QStringLiteral("parameters")).toDouble(), 6738415616.0);
    QCOMPARE(mem.value(QStringLiteral("weights")).toDouble(), 2 * 6738415616.0);
    QCOMPARE(mem.value(QStringLiteral("kv_cache")).toDouble(), 524288.0 * 1200 * 4);
    QCOMPARE(mem.value(QStringLiteral("peak")).toDouble(),
             mem.value(QStringLiteral("weights")).toDouble() + mem.value(QStringLiteral("kv_cache")).toDouble()
                 + mem.value(QStringLiteral("activations")).toDouble()
                 + mem.value(QStringLiteral("overhead")).toDouble());
    QVERIFY(j.value(QStringLiteral("fits")).toBool());
    const double decode = j.value(QStringLiteral("decode_seconds_per_token")).toDouble();
    QCOMPARE(j.value(QStringLiteral("tokens_per_second")).toDouble(), 4 / decode);
    const QJsonArray points = j.value(QStringLiteral("roofline")).toObject().value(QStringLiteral("points")).toArray();
    QStringList stages;
    for (const auto& p : points) {
        const QJsonObject o = p.toObject();
        for (const char* key : { "name", "stage", "flops", "bytes", "seconds" })
            QVERIFY2(o.contains(QLatin1String(key)), key);
        stages << o.value(QStringLiteral("stage")).toString();
    }
    QVERIFY(stages.contains(QStringLiteral("prefill")) && stages.contains(QStringLiteral("decode")));
}

void TestInferCli::ggufPresetOnTheExplainersGpu()
{
    // Q4_K_M Llama-2-7B: 4.08 GB as TheBloke's file table lists it; llama.cpp keeps the 74 MB input embedding
    // (q4_K, 131,072,000 weights x 144/256 bytes) in host memory.
    const QJsonObject j = json({ QStringLiteral("--weights"), QStringLiteral("gguf-q4_k_m"), QStringLiteral("--prompt"),
                                 QStringLiteral("2048") });
    QCOMPARE(j.value(QStringLiteral("host_memory_bytes")).toDouble(), 131072000.0 * 144 / 256);
    const QJsonObject byType
        = j.value(QStringLiteral("weights")).toObject().value(QStringLiteral("by_type")).toObject();
    QVERIFY(byType.contains(QStringLiteral("q4_K")) && byType.contains(QStringLiteral("q6_K")));
    QVERIFY(byType.contains(QStringLiteral("f32"))); // norms
    QVERIFY(j.value(QStringLiteral("fits")).toBool());
    QCOMPARE(j.value(QStringLiteral("gpu")).toObject().value(QStringLiteral("id")).toString(),
             QStringLiteral("rtx-a3000-12gb-laptop"));
    // Where the prompt's time goes: llama.cpp reads 2048 tokens in 4 passes of n_ubatch 512, multiplies in cuBLAS
    // (GEMMs no faster than the rate they are priced at: the kernel floors only slow them) after dequantizing.
    const QJsonObject prefill = j.value(QStringLiteral("prefill")).toObject();
    QCOMPARE(prefill.value(QStringLiteral("passes")).toDouble(), 4.0);
    QVERIFY(prefill.value(QStringLiteral("gemm_seconds")).toDouble() > 0);
    QVERIFY(prefill.value(QStringLiteral("conversion_seconds")).toDouble() > 0);
    const double cublas
        = j.value(QStringLiteral("engine")).toObject().value(QStringLiteral("cublas_gemm_flops_per_second")).toDouble();
    QVERIFY(cublas > 0);
    QVERIFY(prefill.value(QStringLiteral("gemm_flops_per_second")).toDouble() <= cublas);
}

void TestInferCli::table()
{
    const Run r = run({ QStringLiteral("--model"), QStringLiteral("llama-2-7b") });
    QCOMPARE(r.code, 0);
    // 13.5 GB of FP16 weights do not fit in 12 GB (next-round.md item 31).
    QVERIFY(r.out.contains("does not fit"));
    QVERIFY(r.out.contains("tokens/s"));
    QCOMPARE(run({ QStringLiteral("--fail-if-oom") }).code, 3);
    const Run gguf = run({ QStringLiteral("--weights"), QStringLiteral("gguf-q4_k_m") });
    QCOMPARE(gguf.code, 0);
    QVERIFY(gguf.out.contains("prefill: GEMMs") && gguf.out.contains("dequantize and conversions"));
}

// Llama 2 was trained on 4096 positions (max_position_embeddings): 4000 + 512 tokens is past them. Scripts read the
// warning's kind, not its English text.
void TestInferCli::warningsAreObjectsWithAKind()
{
    const QJsonObject j = json({ QStringLiteral("--model"), QStringLiteral("llama-2-7b"), QStringLiteral("--prompt"),
                                 QStringLiteral("4000"), QStringLiteral("--generate"), QStringLiteral("512") });
    const QJsonArray w = j.value(QStringLiteral("warnings")).toArray();
    QCOMPARE(w.size(), 1);
    QCOMPARE(w.first().toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("beyond_positions"));
    QVERIFY(w.first().toObject().value(QStringLiteral("message")).toString().contains(QStringLiteral("4096")));
    const QJsonObject none = json({ QStringLiteral("--model"), QStringLiteral("llama-2-7b") });
    QVERIFY(none.value(QStringLiteral("warnings")).toArray().isEmpty());
}

void TestInferCli::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    QTest::newRow("unknown weights") << QStringList { QStringLiteral("--weights"), QStringLiteral("q4") }
                                     << QStringLiteral("--weights");
    QTest::newRow("batch 0") << QStringList { QStringLiteral("--batch"), QStringLiteral("0") }
                             << QStringLiteral("--batch");
    QTest::newRow("prompt not a number") << QStringList { QStringLiteral("--prompt"), QStringLiteral("NaN") }
                                         << QStringLiteral("--prompt");
    QTest::newRow("kv cache") << QStringList { QStringLiteral("--kv-cache"), QStringLiteral("fp4") }
                              << QStringLiteral("--kv-cache");
    QTest::newRow("tp that does not divide the heads")
        << QStringList { QStringLiteral("--tp"), QStringLiteral("3") } << QStringLiteral("--tp");
    QTest::newRow("encoder model") << QStringList { QStringLiteral("--model"), QStringLiteral("bert-base") }
                                   << QStringLiteral("--model");
    QTest::newRow("past GPT-2's positions") << QStringList { QStringLiteral("--model"), QStringLiteral("gpt2"),
                                                             QStringLiteral("--prompt"), QStringLiteral("1024") }
                                            << QStringLiteral("--prompt");
    QTest::newRow("unknown GPU") << QStringList { QStringLiteral("--gpu"), QStringLiteral("rtx-9090") }
                                 << QStringLiteral("--gpu");
    QTest::newRow("utilization") << QStringList { QStringLiteral("--gpu-memory-utilization"), QStringLiteral("1.5") }
                                 << QStringLiteral("--gpu-memory-utilization");
}

void TestInferCli::badArguments()
{
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    const Run r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(names), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestInferCli)
#include "tst_infercli.moc"
