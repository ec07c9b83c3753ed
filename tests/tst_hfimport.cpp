// Importing Hugging Face config.json files: real checkpoints' configs (tests/data/hf, sources in SOURCES.md) give
// the parameter counts their publishers state, the configs of modelled presets give those presets exactly, and bad
// configs are refused with the field named. Also `headroom estimate --model` on a config and on a directory.

#include "clirun.h"
#include "hfconfig.h"
#include "modelgraph.h"
#include "modelimport.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace headroom;
using nlohmann::json;

namespace {

QString checkpointDir(const QString& name) { return QStringLiteral(HEADROOM_SOURCE_DIR "/tests/data/hf/") + name; }

ModelSpec imported(const QString& name)
{
    ModelSpec m;
    if (auto e = importModelFile(checkpointDir(name), &m))
        qFatal("%s", qPrintable(*e));
    return m;
}

Graph graphAt(const ModelSpec& m, std::int64_t sequence)
{
    TrainingConfig c;
    c.sequenceLength = sequence;
    return buildGraph(m, c);
}

const GraphOp* firstOp(const Graph& g, std::string_view label, int layer)
{
    for (const GraphOp& op : g.ops) {
        if (op.label == label && op.layer == layer)
            return &op;
    }
    return nullptr;
}

// Elements of an operator's output, whether sized per sample or shared by the batch.
double outputElements(const Graph& g, const GraphOp& op)
{
    const GraphTensor& t = g.tensors[g.outputs(op)[0]];
    return t.numel.perSample + t.numel.fixed;
}

json tinyLlama()
{
    return { { "architectures", { "LlamaForCausalLM" } },
             { "model_type", "llama" },
             { "num_hidden_layers", 2 },
             { "hidden_size", 64 },
             { "num_attention_heads", 4 },
             { "num_key_value_heads", 2 },
             { "intermediate_size", 128 },
             { "vocab_size", 1000 },
             { "max_position_embeddings", 256 } };
}

json with(json j, const char* key, json value)
{
    if (value.is_discarded())
        j.erase(key);
    else
        j[key] = std::move(value);
    return j;
}

const json kRemove = json::value_t::discarded;

} // namespace

class TestHfImport : public QObject {
    Q_OBJECT

private slots:
    void publishedCounts_data();
    void publishedCounts();
    void reproducesPresets_data();
    void reproducesPresets();
    void classificationArchitectures();
    void vitPositionsAtAnotherImageSize();
    void gptNeoXParallelResidual();
    void gptNeoXPartialRotary();
    void badConfigs_data();
    void badConfigs();
    void modelFiles();
    void estimateCommand();
};

void TestHfImport::publishedCounts_data()
{
    QTest::addColumn<QString>("checkpoint");
    QTest::addColumn<QString>("architecture");
    QTest::addColumn<qint64>("published");
    // Where each figure is published: tests/data/hf/SOURCES.md.
    QTest::newRow("bert-base-uncased (lucid model zoo; measured)")
        << QStringLiteral("bert-base-uncased") << QStringLiteral("BertForMaskedLM") << qint64(109514298);
    QTest::newRow("roberta-base (measured; fairseq roberta.base + 768)")
        << QStringLiteral("roberta-base") << QStringLiteral("RobertaForMaskedLM") << qint64(124697433);
    QTest::newRow("gpt2 (keras-hub gpt2_base_en)")
        << QStringLiteral("gpt2") << QStringLiteral("GPT2LMHeadModel") << qint64(124439808);
    QTest::newRow("pythia-160m (Pythia README)")
        << QStringLiteral("pythia-160m") << QStringLiteral("GPTNeoXForCausalLM") << qint64(162322944);
    QTest::newRow("pythia-410m (Pythia README)")
        << QStringLiteral("pythia-410m") << QStringLiteral("GPTNeoXForCausalLM") << qint64(405334016);
    QTest::newRow("Llama-2-7b-hf (keras-hub llama2_7b_en)")
        << QStringLiteral("Llama-2-7b-hf") << QStringLiteral("LlamaForCausalLM") << qint64(6738415616);
    QTest::newRow("Mistral-7B-v0.1 (keras-hub mistral_7b_en)")
        << QStringLiteral("Mistral-7B-v0.1") << QStringLiteral("MistralForCausalLM") << qint64(7241732096);
    QTest::newRow("Qwen2.5-0.5B (measured num_parameters())")
        << QStringLiteral("Qwen2.5-0.5B") << QStringLiteral("Qwen2ForCausalLM") << qint64(494032768);
    QTest::newRow("vit-base-patch16-224 (torchvision ViT_B_16 num_params)")
        << QStringLiteral("vit-base-patch16-224") << QStringLiteral("ViTForImageClassification") << qint64(86567656);
    // The mixture-of-experts checkpoints (issue 11): each figure is the exact count its publisher's rounded one
    // ("46.7B", "30.5B", "14.3B", "6.9B", "8.2B") rounds from, counted shape by shape in tst_moe.
    QTest::newRow("Mixtral-8x7B-v0.1 (issue 11; Mistral AI: 46.7B)")
        << QStringLiteral("Mixtral-8x7B-v0.1") << QStringLiteral("MixtralForCausalLM") << qint64(46702792704);
    QTest::newRow("Qwen3-30B-A3B (model card: 30.5B)")
        << QStringLiteral("Qwen3-30B-A3B") << QStringLiteral("Qwen3MoeForCausalLM") << qint64(30532122624);
    QTest::newRow("Qwen1.5-MoE-A2.7B (model card: 14.3B)")
        << QStringLiteral("Qwen1.5-MoE-A2.7B") << QStringLiteral("Qwen2MoeForCausalLM") << qint64(14315784192);
    QTest::newRow("OLMoE-1B-7B-0924 (OLMoE paper: 6.9B)")
        << QStringLiteral("OLMoE-1B-7B-0924") << QStringLiteral("OlmoeForCausalLM") << qint64(6919161856);
    QTest::newRow("Qwen3-8B (model card: 8.2B, 6.95B non-embedding)")
        << QStringLiteral("Qwen3-8B") << QStringLiteral("Qwen3ForCausalLM") << qint64(8190735360);
}

void TestHfImport::publishedCounts()
{
    QFETCH(QString, checkpoint);
    QFETCH(QString, architecture);
    QFETCH(qint64, published);
    const ModelSpec m = imported(checkpoint);
    QCOMPARE(graphAt(m, m.defaultSequence).parameterCount(), double(published));
    QCOMPARE(qint64(m.reference.parameters), published);
    QCOMPARE(QString::fromStdString(m.reference.implementation), QStringLiteral("transformers ") + architecture);
    QVERIFY(QString::fromStdString(m.reference.parametersSource).contains(QStringLiteral("config.json")));
    // The imported model is a valid model file: saved and read back, it is the same model.
    auto reread = parseModelSpec(serializeModelSpec(m), "saved");
    QVERIFY(reread.ok());
    QCOMPARE(serializeModelSpec(*reread), serializeModelSpec(m));
}

// At 384 px, HF's ViT keeps its 197 position embeddings and interpolates them to the 577 tokens
// (ViTEmbeddings.interpolate_pos_encoding): the same 86,567,656 parameters. torchvision's vit_b_16(image_size=384)
// builds 577 of them: (577 - 197) x 768 = 291,840 more. Both runs carry 577 tokens through the encoder.
void TestHfImport::vitPositionsAtAnotherImageSize()
{
    const ModelSpec hf = imported(QStringLiteral("vit-base-patch16-224"));
    QVERIFY(!hf.transformer.positionsFollowImage);
    QCOMPARE(graphAt(hf, 384).parameterCount(), 86567656.0);
    const ModelSpec& tv = headroom::test::preset("vit-b-16");
    QVERIFY(tv.transformer.positionsFollowImage);
    QCOMPARE(graphAt(tv, 384).parameterCount(), 86567656.0 + (577.0 - 197.0) * 768.0);
    // The flag survives a save and a read.
    auto reread = parseModelSpec(serializeModelSpec(hf), "saved");
    QVERIFY(reread.ok());
    QVERIFY(!reread->transformer.positionsFollowImage);
}

void TestHfImport::reproducesPresets_data()
{
    QTest::addColumn<QString>("checkpoint");
    QTest::addColumn<QString>("preset");
    QTest::newRow("bert-base") << QStringLiteral("bert-base-uncased") << QStringLiteral("bert-base");
    QTest::newRow("gpt2") << QStringLiteral("gpt2") << QStringLiteral("gpt2");
    QTest::newRow("llama-2-7b") << QStringLiteral("Llama-2-7b-hf") << QStringLiteral("llama-2-7b");
    QTest::newRow("mistral-7b") << QStringLiteral("Mistral-7B-v0.1") << QStringLiteral("mistral-7b");
    QTest::newRow("qwen2.5-0.5b") << QStringLiteral("Qwen2.5-0.5B") << QStringLiteral("qwen2.5-0.5b");
    QTest::newRow("mixtral-8x7b") << QStringLiteral("Mixtral-8x7B-v0.1") << QStringLiteral("mixtral-8x7b");
    QTest::newRow("qwen3-30b-a3b") << QStringLiteral("Qwen3-30B-A3B") << QStringLiteral("qwen3-30b-a3b");
}

// The presets model these checkpoints by hand; importing their config.json must give the same model, so every
// activation-byte test of the presets holds for imported configs too.
void TestHfImport::reproducesPresets()
{
    QFETCH(QString, checkpoint);
    QFETCH(QString, preset);
    const ModelSpec& p = headroom::test::preset(qPrintable(preset));
    ModelSpec m = p;
    m.transformer = imported(checkpoint).transformer;
    QCOMPARE(QString::fromStdString(serializeModelSpec(m)), QString::fromStdString(serializeModelSpec(p)));
    QCOMPARE(imported(checkpoint).defaultSequence, p.defaultSequence);
}

// *ForSequenceClassification and *ForTokenClassification over the same backbones. BERT's: the published
// BertForMaskedLM count (109,514,298) without its MLM head (transform 768^2 + 768, LayerNorm 2 * 768, decoder bias
// 30522) and with BertPooler (768^2 + 768) and a classifier (768 * n + n).
void TestHfImport::classificationArchitectures()
{
    QFile f(checkpointDir(QStringLiteral("bert-base-uncased")) + QStringLiteral("/config.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    json bert = json::parse(f.readAll().toStdString());
    bert["architectures"] = { "BertForSequenceClassification" };
    bert["id2label"] = { { "0", "NEGATIVE" }, { "1", "POSITIVE" } };
    const double mlmHead = 768.0 * 768 + 768 + 2 * 768 + 30522;
    auto seq = importHuggingFaceConfig(bert.dump(), "sst2/config.json", "sst2");
    QVERIFY(seq.ok());
    QCOMPARE(graphAt(*seq, 128).parameterCount(), 109514298.0 - mlmHead + (768.0 * 768 + 768) + (768.0 * 2 + 2));
    bert["architectures"] = { "BertForTokenClassification" };
    bert["num_labels"] = 9;
    bert.erase("id2label");
    auto tok = importHuggingFaceConfig(bert.dump(), "ner/config.json", "ner");
    QVERIFY(tok.ok());
    QCOMPARE(tok->transformer.head, HeadKind::TokenClassification);
    QCOMPARE(graphAt(*tok, 128).parameterCount(), 109514298.0 - mlmHead + (768.0 * 9 + 9));
    // LlamaForSequenceClassification: the decoder, no lm_head (1000 x 64), a bias-free score (64 x 5).
    const double causal
        = graphAt(*importHuggingFaceConfig(tinyLlama().dump(), "t/config.json", "t"), 64).parameterCount();
    auto score = importHuggingFaceConfig(
        with(with(tinyLlama(), "architectures", { "LlamaForSequenceClassification" }), "num_labels", 5).dump(),
        "s/config.json", "s");
    QVERIFY(score.ok());
    QCOMPARE(graphAt(*score, 64).parameterCount(), causal - 1000.0 * 64 + 64.0 * 5);
}

void TestHfImport::gptNeoXParallelResidual()
{
    const ModelSpec m = imported(QStringLiteral("pythia-160m"));
    const TransformerSpec& t = m.transformer;
    QVERIFY(t.parallelResidual);
    QVERIFY(t.fusedQkv && t.qkvBias && t.outBias && t.ffnBias && t.normBias);
    QVERIFY(!t.tiedEmbeddings);
    QCOMPARE(m.defaultSequence, 2048);
    // Both branches read the block input (transformers GPTNeoXLayer): the two LayerNorms share their input, where
    // GPT-2's second LayerNorm reads the attention residual.
    const Graph g = graphAt(m, 512);
    const GraphOp* ln1 = firstOp(g, "attn.norm", 3);
    const GraphOp* ln2 = firstOp(g, "mlp.norm", 3);
    QVERIFY(ln1 && ln2);
    QCOMPARE(g.inputs(*ln2)[0], g.inputs(*ln1)[0]);
    const Graph gpt2 = graphAt(headroom::test::preset("gpt2"), 512);
    QVERIFY(gpt2.inputs(*firstOp(gpt2, "mlp.norm", 3))[0] != gpt2.inputs(*firstOp(gpt2, "attn.norm", 3))[0]);
}

void TestHfImport::gptNeoXPartialRotary()
{
    const ModelSpec m = imported(QStringLiteral("pythia-160m"));
    QCOMPARE(m.transformer.rotaryFraction, 0.25);
    // GPTNeoXRotaryEmbedding: cos and sin cover rotary_ndims = int(64 * 0.25) = 16 channels of each position.
    const Graph g = graphAt(m, 512);
    const GraphOp* cos = firstOp(g, "rotary", -1);
    QVERIFY(cos);
    QCOMPARE(outputElements(g, *cos), 512.0 * 16.0);
    // Rotating the whole head changes activations, not parameters.
    ModelSpec full = m;
    full.transformer.rotaryFraction = 1.0;
    const Graph f = graphAt(full, 512);
    QCOMPARE(outputElements(f, *firstOp(f, "rotary", -1)), 512.0 * 64.0);
    QCOMPARE(f.parameterCount(), g.parameterCount());
    QVERIFY(f.ops.size() < g.ops.size()); // the partial rotation adds a split and a concat per projection
}

void TestHfImport::badConfigs_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("mentions");
    const json llama = tinyLlama();
    auto row = [](const char* name, const json& j, const char* field, const char* mentions) {
        QTest::newRow(name) << QByteArray::fromStdString(j.dump()) << QString::fromUtf8(field)
                            << QString::fromUtf8(mentions);
    };
    row("unknown architecture",
        with(with(llama, "architectures", { "T5ForConditionalGeneration" }), "model_type", "t5"), "architectures[0]",
        "LlamaForCausalLM (llama)");
    row("unknown model_type", with(with(llama, "architectures", kRemove), "model_type", "falcon"), "model_type",
        "GPTNeoXForCausalLM (gpt_neox)");
    row("neither model_type nor architectures", { { "hidden_size", 768 } }, "model_type", "is required");
    row("BertModel (pooler not modelled)", with(llama, "architectures", { "BertModel" }), "architectures[0]",
        "BertForMaskedLM");
    row("architecture of another type", with(llama, "model_type", "mistral"), "model_type", "is a \"llama\" model");
    row("architectures not a list", with(llama, "architectures", "LlamaForCausalLM"), "architectures",
        "must be an array");
    row("missing hidden_size", with(llama, "hidden_size", kRemove), "hidden_size", "is required");
    row("hidden_size a string", with(llama, "hidden_size", "768"), "hidden_size", "must be a whole number");
    row("negative layers", with(llama, "num_hidden_layers", -2), "num_hidden_layers", "between 1 and 4096");
    row("fractional heads", with(llama, "num_attention_heads", 4.5), "num_attention_heads", "whole number");
    row("heads not dividing hidden", with(llama, "num_attention_heads", 6), "num_attention_heads",
        "must divide hidden_size (64)");
    row("kv heads not dividing heads", with(llama, "num_key_value_heads", 3), "num_key_value_heads",
        "must divide num_attention_heads");
    row("huge hidden", with(llama, "hidden_size", std::int64_t(1) << 40), "hidden_size", "between 1 and 1048576");
    row("huge layers", with(llama, "num_hidden_layers", 1e9), "num_hidden_layers", "between 1 and 4096");
    row("huge vocab", with(llama, "vocab_size", 1e12), "vocab_size", "between 1 and 16777216");
    row("overflowing number", with(llama, "intermediate_size", 1e300), "intermediate_size", "between 1 and");
    row("unsupported activation", with(llama, "hidden_act", "gelu_fast"), "hidden_act", "gelu_new");
    row("dropout above 1", with(llama, "attention_dropout", 1.5), "attention_dropout", "between 0 and 0.999");
    row("boolean as a string", with(llama, "tie_word_embeddings", "true"), "tie_word_embeddings", "true or false");
    const json neox = { { "model_type", "gpt_neox" }, { "num_hidden_layers", 2 },   { "hidden_size", 64 },
                        { "num_attention_heads", 4 }, { "intermediate_size", 256 }, { "vocab_size", 1000 } };
    row("rotary_pct 0", with(neox, "rotary_pct", 0.0), "rotary_pct", "fewer than 2 of the 16 channels");
    row("rotary_pct above 1", with(neox, "rotary_pct", 1.5), "rotary_pct", "between 0 and 1");
    const json bert = { { "model_type", "bert" },          { "num_hidden_layers", 2 },   { "hidden_size", 64 },
                        { "num_attention_heads", 4 },      { "intermediate_size", 256 }, { "vocab_size", 1000 },
                        { "max_position_embeddings", 128 } };
    row("BERT relative positions", with(bert, "position_embedding_type", "relative_key"), "position_embedding_type",
        "absolute");
    row("BERT without positions", with(bert, "max_position_embeddings", kRemove), "max_position_embeddings",
        "is required");
    row("RoBERTa positions all padding", with(with(bert, "model_type", "roberta"), "max_position_embeddings", 2),
        "max_position_embeddings", "pad_token_id + 1");
    const json gpt2 = { { "model_type", "gpt2" }, { "n_layer", 2 },       { "n_embd", 64 },
                        { "n_head", 4 },          { "vocab_size", 1000 }, { "n_positions", 128 } };
    row("GPT-2 cross-attention", with(gpt2, "add_cross_attention", true), "add_cross_attention", "not modelled");
    row("GPT-2 without n_embd", with(gpt2, "n_embd", kRemove), "n_embd", "is required");
    const json vit = { { "model_type", "vit" },      { "num_hidden_layers", 2 },   { "hidden_size", 64 },
                       { "num_attention_heads", 4 }, { "intermediate_size", 256 }, { "image_size", 32 },
                       { "patch_size", 8 } };
    row("ViT patch larger than image", with(vit, "patch_size", 64), "patch_size", "larger than image_size");
    row("ViT empty id2label", with(vit, "id2label", json::object()), "id2label", "between 1 and");
    row("ViT id2label not an object", with(vit, "id2label", json::array({ "cat" })), "id2label", "must be an object");
    QTest::newRow("not JSON") << QByteArray("{\"model_type\": ") << QString() << QStringLiteral("not valid JSON");
    QTest::newRow("top level array") << QByteArray("[1, 2]") << QStringLiteral("(top level)")
                                     << QStringLiteral("must be an object");
    // Found by fuzz_hfconfig when it told the importer's own consistency check apart by its message: a config that is
    // only a string quoting that message is the user's mistake all the same (ErrorKind::BadInput).
    const QString quoting = QStringLiteral(HEADROOM_SOURCE_DIR "/tests/fuzz/regressions/hfconfig/")
        + QStringLiteral("string-quoting-an-internal-error.json");
    QFile file(quoting);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(quoting));
    QTest::newRow("a string quoting an internal error")
        << file.readAll() << QStringLiteral("(top level)") << QStringLiteral("must be an object");
}

void TestHfImport::badConfigs()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, field);
    QFETCH(QString, mentions);
    const auto r = importHuggingFaceConfig(config.toStdString(), "bad/config.json", "bad");
    QVERIFY2(!r.ok(), config.constData());
    const QString message = QString::fromStdString(r.error().toString());
    QCOMPARE(QString::fromStdString(r.error().field), field);
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("bad/config.json: ")), qPrintable(message));
    QVERIFY(r.error().kind == ErrorKind::BadInput);
    const auto any = importModelJson(config.toStdString(), "bad/config.json", "bad");
    QVERIFY2(!any.ok(), config.constData());
    QVERIFY(any.error().kind == ErrorKind::BadInput);
}

void TestHfImport::modelFiles()
{
    ModelSpec dir, file, preset;
    QCOMPARE(importModelFile(checkpointDir(QStringLiteral("Llama-2-7b-hf")), &dir), std::nullopt);
    QCOMPARE(QString::fromStdString(dir.id), QStringLiteral("llama-2-7b-hf"));
    QCOMPARE(QString::fromStdString(dir.reference.checkpoint), QStringLiteral("meta-llama/Llama-2-7b-hf"));
    QCOMPARE(importModelFile(checkpointDir(QStringLiteral("Llama-2-7b-hf/config.json")), &file), std::nullopt);
    QCOMPARE(serializeModelSpec(file), serializeModelSpec(dir));
    // A Headroom model file goes to the model reader.
    QCOMPARE(importModelFile(QStringLiteral(HEADROOM_SOURCE_DIR "/resources/models/gpt2.json"), &preset), std::nullopt);
    QCOMPARE(serializeModelSpec(preset), serializeModelSpec(headroom::test::preset("gpt2")));

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    ModelSpec unused;
    const auto noConfig = importModelFile(tmp.path(), &unused);
    QVERIFY(noConfig && noConfig->contains(QStringLiteral("no config.json")));
    QFile other(tmp.filePath(QStringLiteral("tokenizer.json")));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write(R"({"version": "1.0", "model": {}})");
    other.close();
    const auto neither = importModelFile(other.fileName(), &unused);
    QVERIFY(neither && neither->contains(QStringLiteral("neither a Headroom model file")));
    const auto missing = importModelFile(tmp.filePath(QStringLiteral("absent.json")), &unused);
    QVERIFY(missing && missing->contains(QStringLiteral("no such file")));
}

void TestHfImport::estimateCommand()
{
    const auto run = [](const QStringList& args) {
        const ::test::CliRun r = ::test::runHeadroom(QStringList { QStringLiteral("estimate") } + args);
        return std::tuple { r.code, r.out, r.err };
    };
    const auto parameters = [](const QByteArray& out) {
        return QJsonDocument::fromJson(out).object().value(QStringLiteral("parameters")).toDouble();
    };
    // A checkpoint directory, and a config.json by its path.
    const auto [code, out, err] = run(
        { QStringLiteral("--model"), checkpointDir(QStringLiteral("pythia-160m")), QStringLiteral("--json") });
    QVERIFY2(code == 0, err.constData());
    QCOMPARE(parameters(out), 162322944.0);
    const auto [code2, out2, err2] = run({ QStringLiteral("--model"),
                                           checkpointDir(QStringLiteral("Qwen2.5-0.5B/config.json")),
                                           QStringLiteral("--json") });
    QVERIFY2(code2 == 0, err2.constData());
    QCOMPARE(parameters(out2), 494032768.0);

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QDir(tmp.path()).mkdir(QStringLiteral("broken"));
    QFile bad(tmp.filePath(QStringLiteral("broken/config.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray::fromStdString(with(tinyLlama(), "hidden_size", "64").dump()));
    bad.close();
    const auto [code3, out3, err3] = run({ QStringLiteral("--model"), tmp.filePath(QStringLiteral("broken")) });
    QCOMPARE(code3, 2);
    QVERIFY2(err3.contains("broken/config.json: hidden_size: must be a whole number"), err3.constData());
    QVERIFY(out3.isEmpty());
}

QTEST_APPLESS_MAIN(TestHfImport)
#include "tst_hfimport.moc"
