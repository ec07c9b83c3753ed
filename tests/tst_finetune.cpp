// Fine-tuning methods and task heads against independent figures: PEFT's logged trainable counts, the LoRA
// paper's formula, the QLoRA paper's 4.127 bits per weight, bitsandbytes' 8-bit state rule, and exact parameter
// counts of the transformers classes, each written out here from the architecture. (The byte-exact saved tensors of
// LoRA and frozen runs are in tst_torchreference, against measurements.)

#include "testsupport.h"

#include "finetune.h"
#include "scenario.h"

using namespace headroom;

class TestFinetune : public QObject {
    Q_OBJECT

private slots:
    void loraTrainableParameters_data();
    void loraTrainableParameters();
    void doraAddsAMagnitudePerOutput();
    void frozenWeightsHaveNoGradientsOrStates();
    void qloraStoresLinearWeightsAt4127Bits();
    void pagedEightBitStatesOfTheAdapters();
    void freezeTrainsTheHead();
    void classificationHeadsParameterCounts_data();
    void classificationHeadsParameterCounts();
    void vocabularyLogitsDominateAnLmHead();
    void refusesWhatTheModelCannotDo_data();
    void refusesWhatTheModelCannotDo();
    void scenarioFilesKeepTheMethod();
    void modelFlopsOfWhatTrains();
    void mfuFollowsThroughput_data();
    void mfuFollowsThroughput();
};

namespace {

QString q(const char* s) { return QString::fromLatin1(s); }

Estimate run(const char* model, TrainingConfig c)
{
    return estimate(test::preset(model), test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
}

TrainingConfig lora(int rank, std::vector<std::string> targets = {})
{
    TrainingConfig c;
    c.microBatch = 1;
    c.sequenceLength = 256;
    c.finetune.method = FinetuneMethod::LoRA;
    c.finetune.loraRank = rank;
    c.finetune.loraTargets = std::move(targets);
    return c;
}

// Llama-2-7B (h 4096, ffn 11008, 32 layers, vocabulary 32000): the weights of its block Linear layers and the rest.
constexpr double kLlama7bLinear = 32.0 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008);
constexpr double kLlama7bOther = 2.0 * 32000 * 4096 + (2.0 * 32 + 1) * 4096; // embeddings, lm_head, RMSNorms

} // namespace

void TestFinetune::loraTrainableParameters_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QStringList>("targets");
    QTest::addColumn<double>("expected");
    // PEFT's MetaMathQA benchmark logs (results/lora--llama-3.2-3B-rank32.json, num_trainable_params):
    // 28 * 32 * ((3072 + 3072) + (3072 + 1024)).
    QTest::newRow("llama-3.2-3b r32 q,v")
        << q("llama-3.2-3b") << 32 << QStringList { q("q_proj"), q("v_proj") } << 9175040.0;
    QTest::newRow("llama-3.2-3b r64 q,v")
        << q("llama-3.2-3b") << 64 << QStringList { q("q_proj"), q("v_proj") } << 18350080.0;
    // Hu et al. 2021 sec. 5.1: |Theta| = 2 * L_LoRA * d_model * r for square W_q, W_v: RoBERTa/BERT-base,
    // d 768, 12 layers (L_LoRA 24), r 8.
    QTest::newRow("bert-base r8 query,value")
        << q("bert-base") << 8 << QStringList { q("query"), q("value") } << 294912.0;
    // PEFT's default targets for Llama (q_proj, v_proj): 32 layers * 2 * 8 * (4096 + 4096).
    QTest::newRow("llama-2-7b r8 default") << q("llama-2-7b") << 8 << QStringList {} << 4194304.0;
    // GPT-2's fused c_attn (768 -> 2304): 12 * 4 * (768 + 2304).
    QTest::newRow("gpt2 r4 c_attn") << q("gpt2") << 4 << QStringList { q("c_attn") } << 147456.0;
    // all-linear on Llama-2-7B: 32 * 16 * (4 * (4096 + 4096) + 3 * (4096 + 11008)).
    QTest::newRow("llama-2-7b r16 all-linear")
        << q("llama-2-7b") << 16 << QStringList { q("all-linear") } << 39976960.0;
}

void TestFinetune::loraTrainableParameters()
{
    QFETCH(QString, model);
    QFETCH(int, rank);
    QFETCH(QStringList, targets);
    QFETCH(double, expected);
    std::vector<std::string> t;
    for (const QString& s : targets)
        t.push_back(s.toStdString());
    const Estimate e = run(model.toUtf8().constData(), lora(rank, t));
    QCOMPARE(e.trainableParameters, expected);
    // The base model is all there, frozen, beside the adapters.
    QCOMPARE(e.parameters, double(test::preset(model.toUtf8().constData()).reference.parameters) + expected);
}

void TestFinetune::doraAddsAMagnitudePerOutput()
{
    // Liu et al. 2024 (DoRA) sec. 4: W' = m (W0 + BA) / ||W0 + BA||, m in R^{1 x k}: one trainable magnitude per
    // output feature of each adapted weight (PEFT lora_magnitude_vector), on top of LoRA's A and B.
    TrainingConfig c = lora(8);
    c.finetune.method = FinetuneMethod::DoRA;
    QCOMPARE(run("llama-2-7b", c).trainableParameters, 4194304.0 + 32.0 * (4096 + 4096));
}

void TestFinetune::frozenWeightsHaveNoGradientsOrStates()
{
    // Only the adapters train: FP32 gradients and two FP32 Adam moments each (PEFT upcasts adapters to FP32), and
    // the 16-bit base weights have neither.
    const Estimate e = run("llama-2-7b", lora(8));
    const double trainable = 4194304.0;
    QCOMPARE(e.components[index(MemoryCategory::Gradients)], 4.0 * trainable);
    QCOMPARE(e.components[index(MemoryCategory::OptimizerStates)], 8.0 * trainable);
    QCOMPARE(e.components[index(MemoryCategory::Weights)], 2.0 * (kLlama7bLinear + kLlama7bOther) + 4.0 * trainable);
}

void TestFinetune::qloraStoresLinearWeightsAt4127Bits()
{
    // Dettmers et al. 2023 sec. 3: NF4 in blocks of 64 with double-quantized constants, 4 + 8/64 + 32/(64*256) =
    // 4.127 bits per weight; prepare_model_for_kbit_training leaves the other weights in FP32.
    TrainingConfig c = lora(8);
    c.finetune.method = FinetuneMethod::QLoRA;
    const Estimate e = run("llama-2-7b", c);
    const double bitsPerWeight = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
    QCOMPARE(bitsPerWeight, 4.126953125);
    QCOMPARE(e.components[index(MemoryCategory::Weights)],
             kLlama7bLinear * bitsPerWeight / 8.0 + 4.0 * kLlama7bOther + 4.0 * 4194304.0);
    QCOMPARE(e.trainableParameters, 4194304.0);
    // Smaller than LoRA over a 16-bit base by the 16 - 4.127 bits of every Linear weight, less the FP32 upcast.
    const Estimate plain = run("llama-2-7b", lora(8));
    QVERIFY(e.components[index(MemoryCategory::Weights)] < 0.4 * plain.components[index(MemoryCategory::Weights)]);
}

void TestFinetune::pagedEightBitStatesOfTheAdapters()
{
    // bitsandbytes Optimizer2State.init_state: uint8 states plus an FP32 absmax per 256 elements for tensors of at
    // least 4096 elements, 2 * (1 + 4/256) = 2.03125 bytes per parameter; paged states count as host memory.
    TrainingConfig c = lora(8);
    c.finetune.method = FinetuneMethod::QLoRA;
    c.optimizer = OptimizerKind::PagedAdamW8bit;
    const Estimate e = run("llama-2-7b", c);
    QCOMPARE(e.hostBytes, 4194304.0 * 2.03125);
    QCOMPARE(e.components[index(MemoryCategory::OptimizerStates)], 0.0);
}

void TestFinetune::freezeTrainsTheHead()
{
    // Everything frozen but the final norm and the untied lm_head: 32000 * 4096 + 4096.
    TrainingConfig c;
    c.finetune.method = FinetuneMethod::Freeze;
    QCOMPARE(run("llama-2-7b", c).trainableParameters, 32000.0 * 4096 + 4096);
    // Freezing the first 30 of 32 blocks leaves two blocks (2 * 202,383,360) training as well.
    c.finetune.frozenLayers = 30;
    const double block = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2.0 * 4096;
    QCOMPARE(run("llama-2-7b", c).trainableParameters, 32000.0 * 4096 + 4096 + 2.0 * block);
}

void TestFinetune::classificationHeadsParameterCounts_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("task");
    QTest::addColumn<int>("labels");
    QTest::addColumn<double>("expected");
    // BertModel (bert-base-uncased): embeddings (30522 + 512 + 2) x 768 + LayerNorm; 12 layers of 4 attention
    // Linear (768^2 + 768), 2 LayerNorms, 768 -> 3072 -> 768; the pooler's dense (768^2 + 768).
    const double h = 768, f = 3072;
    const double embeddings = (30522 + 512 + 2) * h + 2 * h;
    const double layer = 4 * (h * h + h) + 4 * h + (h * f + f) + (f * h + h);
    const double pooler = h * h + h;
    // BertForSequenceClassification: pooler, dropout, classifier (768 x n + n).
    QTest::newRow("bert seq-cls 2") << q("bert-base") << int(Task::SequenceClassification) << 2
                                    << embeddings + 12 * layer + pooler + (h * 2 + 2);
    // BertForTokenClassification: add_pooling_layer=False.
    QTest::newRow("bert token-cls 9") << q("bert-base") << int(Task::TokenClassification) << 9
                                      << embeddings + 12 * layer + (h * 9 + 9);
    // LlamaForSequenceClassification: the decoder without lm_head, score 4096 x n without bias.
    QTest::newRow("llama seq-cls 3") << q("llama-2-7b") << int(Task::SequenceClassification) << 3
                                     << 32000.0 * 4096 + 32 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096) + 4096
            + 4096 * 3;
}

void TestFinetune::classificationHeadsParameterCounts()
{
    QFETCH(QString, model);
    QFETCH(int, task);
    QFETCH(int, labels);
    QFETCH(double, expected);
    TrainingConfig c;
    c.sequenceLength = 128;
    c.task = Task(task);
    c.numLabels = labels;
    QCOMPARE(run(model.toUtf8().constData(), c).parameters, expected);
}

void TestFinetune::vocabularyLogitsDominateAnLmHead()
{
    // BERT's MLM head saves at least the FP32 log-probabilities over the 30522-word vocabulary at every token
    // (tools/hf_reference/README.md, outside the layers: e * s * b * V); a sequence classifier saves n per sample.
    TrainingConfig c;
    c.precision = Precision::FP32;
    c.microBatch = 8;
    c.sequenceLength = 128;
    const double mlm = run("bert-base", c).components[index(MemoryCategory::Activations)];
    c.task = Task::SequenceClassification;
    const double cls = run("bert-base", c).components[index(MemoryCategory::Activations)];
    QVERIFY2(mlm - cls >= 4.0 * 128 * 8 * 30522, qPrintable(QString::number(mlm - cls)));
}

void TestFinetune::refusesWhatTheModelCannotDo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("targets");
    QTest::addColumn<int>("task");
    QTest::addColumn<QString>("field");
    QTest::newRow("lora on a CNN") << q("resnet50") << int(FinetuneMethod::LoRA) << q("") << int(Task::Model)
                                   << q("finetune");
    QTest::newRow("unknown target") << q("llama-2-7b") << int(FinetuneMethod::LoRA) << q("c_attn") << int(Task::Model)
                                    << q("lora_targets");
    QTest::newRow("causal-lm on an encoder")
        << q("bert-base") << int(FinetuneMethod::Full) << q("") << int(Task::CausalLM) << q("task");
    QTest::newRow("masked-lm on a decoder")
        << q("gpt2") << int(FinetuneMethod::Full) << q("") << int(Task::MaskedLM) << q("task");
    QTest::newRow("text task on ViT") << q("vit-b-16") << int(FinetuneMethod::Full) << q("")
                                      << int(Task::SequenceClassification) << "task";
}

void TestFinetune::refusesWhatTheModelCannotDo()
{
    QFETCH(QString, model);
    QFETCH(int, method);
    QFETCH(QString, targets);
    QFETCH(int, task);
    QFETCH(QString, field);
    TrainingConfig c;
    c.finetune.method = FinetuneMethod(method);
    if (!targets.isEmpty())
        c.finetune.loraTargets = { targets.toStdString() };
    c.task = Task(task);
    const auto e = validateFinetune(test::preset(model.toUtf8().constData()), c, "test");
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->field), field);
    QVERIFY(e->message.find(model.toStdString()) != std::string::npos); // names the model
}

void TestFinetune::scenarioFilesKeepTheMethod()
{
    ScenarioDocument d;
    d.scenario.gpuId = "rtx-a3000-12gb-laptop";
    d.scenario.modelId = "llama-2-7b";
    TrainingConfig& c = d.scenario.config;
    c.finetune.method = FinetuneMethod::QLoRA;
    c.finetune.loraRank = 64;
    c.finetune.loraAlpha = 16;
    c.finetune.loraDropout = 0.05;
    c.finetune.loraTargets = { "all-linear" };
    c.task = Task::SequenceClassification;
    c.numLabels = 5;
    const auto back = parseScenario(serializeScenario(d), "round trip");
    QVERIFY(bool(back));
    QVERIFY(back->scenario.config == c);
    // Fields of another method are kept too (found by fuzz_scenario: a full fine-tune with a LoRA rank set lost the
    // rank on saving).
    c.finetune.method = FinetuneMethod::Full;
    const auto full = parseScenario(serializeScenario(d), "round trip");
    QVERIFY(bool(full));
    QVERIFY(full->scenario.config == c);
    // A bad value is refused with its field named.
    const auto bad = parseScenario(R"({"format": "headroom-scenario", "version": 1, "gpu": "t4", "model": "gpt2",
        "micro_batch": 1, "sequence_length": 128, "finetune": {"method": "lora", "lora_dropout": 1.5}})",
                                   "bad.headroom.json");
    QVERIFY(!bad);
    QVERIFY(bad.error().field.find("lora_dropout") != std::string::npos);
}

void TestFinetune::modelFlopsOfWhatTrains()
{
    // A frozen weight's matmul runs forward and, for the input's gradient, once more in backward; only what trains
    // also gets its weight gradient (autograd computes no grad for a tensor that does not require one). Over the
    // frozen Llama-2-7B base the step's model FLOPs are about 4/6 of full training's: the adapters add 2 x 3 x r x
    // (in + out) per token, and the first block's q and v projections over the frozen embeddings need no input
    // gradient (1x instead of 2x).
    TrainingConfig full = lora(8);
    full.finetune.method = FinetuneMethod::Full;
    const double ratio = run("llama-2-7b", lora(8)).modelFlopsPerStep / run("llama-2-7b", full).modelFlopsPerStep;
    QVERIFY2(ratio > 0.655 && ratio < 0.675, qPrintable(QString::number(ratio, 'f', 4)));
}

void TestFinetune::mfuFollowsThroughput_data()
{
    QTest::addColumn<int>("method");
    QTest::newRow("lora") << int(FinetuneMethod::LoRA);
    QTest::newRow("qlora") << int(FinetuneMethod::QLoRA);
    QTest::newRow("full") << int(FinetuneMethod::Full);
}

void TestFinetune::mfuFollowsThroughput()
{
    // Issue 32: with the model's FLOPs those of the method (a fixed count per token for a model and method), MFU is
    // throughput x FLOPs per token / peak: it rises with the throughput across micro-batches.
    QFETCH(int, method);
    QList<std::pair<double, double>> points; // throughput, MFU
    // One checkpointing mode: under checkpointing PEFT makes the embeddings' output require grad
    // (enable_input_require_grads), so the first block's frozen matmuls get input gradients: other model FLOPs.
    for (const Checkpointing ck : { Checkpointing::None }) {
        for (const std::int64_t b : { 1, 2, 4, 8, 16 }) {
            TrainingConfig c = lora(16);
            c.finetune.method = FinetuneMethod(method);
            c.microBatch = b;
            c.sequenceLength = 512;
            c.checkpointing = ck;
            const Estimate e = run("llama-3.2-1b", c);
            points.push_back({ e.throughputPerSecond, e.mfu });
        }
    }
    std::sort(points.begin(), points.end());
    for (qsizetype i = 1; i < points.size(); ++i)
        QVERIFY2(points[i].second >= points[i - 1].second * (1.0 - 1e-9),
                 qPrintable(QStringLiteral("%1 tokens/s: MFU %2, %3 tokens/s: MFU %4")
                                .arg(points[i - 1].first)
                                .arg(points[i - 1].second)
                                .arg(points[i].first)
                                .arg(points[i].second)));
}

QTEST_APPLESS_MAIN(TestFinetune)
#include "tst_finetune.moc"
