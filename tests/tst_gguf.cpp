// The .gguf header reader (gguf.h, modelimport.h) and `headroom infer --model file.gguf`, on files written by
// tests/ggufwriter.h with the sizes of ggml's block layouts; and its refusals of broken files.

#include "gguf.h"
#include "ggufwriter.h"
#include "modelimport.h"

#include "clirun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace headroom;

class TestGguf : public QObject {
    Q_OBJECT

private slots:
    void tensorTableGivesExactBytes();
    void headerDescribesTheDecoder();
    void inferReadsTheFile();
    void brokenFilesAreRefused_data();
    void brokenFilesAreRefused();

private:
    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    using Run = test::CliRun;
    static Run run(const QStringList& args) { return test::runHeadroom(args); }

    QTemporaryDir m_dir;
};

void TestGguf::tensorTableGivesExactBytes()
{
    const QString path = write(QStringLiteral("tiny.gguf"), test::tinyLlamaGguf());
    GgufFile f;
    const auto e = readGgufHeader(path, &f);
    QVERIFY2(!e, qPrintable(e.value_or(QString())));
    QCOMPARE(f.architecture, std::string("llama"));
    QCOMPARE(f.alignment, 32u);
    QCOMPARE(f.dataOffset % 32, 0u);
    QCOMPARE(f.arrayLengths.at("tokenizer.ggml.tokens"), 512u);
    const auto specs = test::tinyLlamaTensors();
    QCOMPARE(f.tensors.size(), specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
        QCOMPARE(f.tensors[i].name, specs[i].name);
        QCOMPARE(f.tensors[i].bytes, test::ggufTensorBytes(specs[i]));
    }
    // q4_K: 256 x 512 weights in 512 blocks of 144 bytes.
    QCOMPARE(f.tensors[0].bytes, 73728u);
}

void TestGguf::headerDescribesTheDecoder()
{
    GgufFile f;
    QVERIFY(!readGgufHeader(write(QStringLiteral("tiny.gguf"), test::tinyLlamaGguf()), &f));
    const auto m = ggufModel(f, "tiny", "tiny.gguf");
    QVERIFY(m);
    const TransformerSpec& t = m->transformer;
    QCOMPARE(t.layers, 2);
    QCOMPARE(t.hidden, 256);
    QCOMPARE(t.heads, 4);
    QCOMPARE(t.kvHeads, 2);
    QCOMPARE(t.ffn, 512);
    QCOMPARE(t.vocab, std::int64_t(512));
    QCOMPARE(t.maxPositions, std::int64_t(2048));
    QVERIFY(t.norm == NormKind::RMSNorm && t.gatedFfn && t.position == PositionKind::Rotary && !t.tiedEmbeddings);
    QVERIFY(!t.fusedQkv && !t.qkvBias);
    // Parameters: 2 x (256 x 512) embeddings and output, 2 blocks of q, k, v, o, gate, up, down and 2 norms, one
    // final norm.
    const std::int64_t block = 256 * 256 + 2 * 256 * 128 + 256 * 256 + 3 * 256 * 512 + 2 * 256;
    QCOMPARE(m->reference.parameters, 2 * 256 * 512 + 2 * block + 256);
    const InferenceWeights w = ggufWeights(f, 1);
    QCOMPARE(w.format, std::string("gguf Q4_K_M"));
    QCOMPARE(w.hostBytes, 73728.0); // the input embedding stays in host memory
}

void TestGguf::inferReadsTheFile()
{
    const QString path = write(QStringLiteral("tiny-q4_k_m.gguf"), test::tinyLlamaGguf());
    const Run r = run({ QStringLiteral("infer"), QStringLiteral("--model"), path, QStringLiteral("--prompt"),
                        QStringLiteral("100"), QStringLiteral("--generate"), QStringLiteral("28"),
                        QStringLiteral("--kv-block"), QStringLiteral("1"), QStringLiteral("--json") });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    double gpuBytes = 0;
    for (const auto& t : test::tinyLlamaTensors())
        if (t.name != "token_embd.weight")
            gpuBytes += double(test::ggufTensorBytes(t));
    const QJsonObject mem = j.value(QStringLiteral("memory")).toObject();
    QCOMPARE(mem.value(QStringLiteral("weights")).toDouble(), gpuBytes);
    QCOMPARE(j.value(QStringLiteral("host_memory_bytes")).toDouble(), 73728.0);
    // 2 (K, V) x 2 layers x 2 KV heads x 64 x 2 bytes per token, 128 tokens.
    QCOMPARE(j.value(QStringLiteral("kv_cache_bytes_per_token")).toDouble(), 1024.0);
    // The peak is the prefill's: its 100 x 512-wide MLP intermediates outweigh the 28 tokens of cache added later.
    QCOMPARE(mem.value(QStringLiteral("peak_stage")).toString(), QStringLiteral("prefill"));
    QCOMPARE(mem.value(QStringLiteral("kv_cache")).toDouble(), 1024.0 * 100);
    QCOMPARE(j.value(QStringLiteral("config")).toObject().value(QStringLiteral("weights")).toString(),
             QStringLiteral("gguf Q4_K_M"));
    // A .gguf file says its own types.
    const Run typed = run({ QStringLiteral("infer"), QStringLiteral("--model"), path, QStringLiteral("--weights"),
                            QStringLiteral("fp16") });
    QCOMPARE(typed.code, 2);
    QVERIFY(typed.err.contains("--weights"));
}

void TestGguf::brokenFilesAreRefused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    const QByteArray good = test::tinyLlamaGguf();
    QTest::newRow("not GGUF") << QByteArray("GGML").append(good.mid(4)) << QStringLiteral("not a GGUF file");
    QTest::newRow("cut in the header") << good.left(900) << QStringLiteral("ends inside the header");
    QTest::newRow("data cut short") << good.left(good.size() - 100) << QStringLiteral("output.weight");
    auto tensors = test::tinyLlamaTensors();
    tensors[3].type = 99;
    QTest::newRow("unknown ggml type") << test::tinyLlamaGguf(tensors) << QStringLiteral("blk.0.attn_k.weight");
    tensors = test::tinyLlamaTensors();
    tensors[2].dims = { 100, 256 }; // 100 is not a whole number of 256-weight q4_K blocks
    QTest::newRow("partial blocks") << test::tinyLlamaGguf(tensors) << QStringLiteral("blocks");
    tensors = test::tinyLlamaTensors();
    tensors.erase(tensors.begin()); // no token embedding
    QTest::newRow("no embedding") << test::tinyLlamaGguf(tensors) << QStringLiteral("token_embd.weight");
}

void TestGguf::brokenFilesAreRefused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    const QString path = write(QStringLiteral("broken.gguf"), bytes);
    const Run r = run({ QStringLiteral("infer"), QStringLiteral("--model"), path });
    QCOMPARE(r.code, 2);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(path) && err.contains(says) && err.contains(QStringLiteral("--model")), r.err.constData());
}

QTEST_GUILESS_MAIN(TestGguf)
#include "tst_gguf.moc"
