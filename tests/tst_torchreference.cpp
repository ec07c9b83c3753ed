// What the simulator says autograd saves, against what PyTorch's autograd really saved. The expected values are read
// from the measurements' own output files, never copied by hand:
//   tools/torch_reference_vision.json (tools/measure_saved_vision.py): real torchvision models, one training forward
//   pass on CPU in FP32, every saved tensor's storage counted once through torch.autograd.graph.saved_tensors_hooks
//   (torch 1.13, torchvision 0.14);
//   tools/hf_reference/results.json (tools/hf_reference/measure.py): Hugging Face models written op by op from
//   transformers' modelling code, measured the same way;
//   tools/hf_reference/peft_results.json (tools/hf_reference/measure_peft.py): the same models with PEFT's LoRA
//   (tools/hf_reference/lora.py, transcribed from peft 5d602fd) or with everything but the head frozen;
//   tools/hf_reference/checkpoint_results.json (tools/hf_reference/measure_checkpoint.py): BERT MLM with and without
//   non-reentrant checkpointing of each layer, FP32, pure BF16 and BF16 autocast (CUDA's casting rules), what
//   autograd saves outside the layers plus what is still alive, held by the checkpoints, when the forward returns.
// Parameters, buffers and the input batch are excluded there, as here.

#include "testsupport.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>

using namespace headroom;
using nlohmann::json;

class TestTorchReference : public QObject {
    Q_OBJECT

private slots:
    void savedBytesPerSample_data();
    void savedBytesPerSample();
    void transformersSavedBytes_data();
    void transformersSavedBytes();
    void peftSavedBytes_data();
    void peftSavedBytes();
    void checkpointedSavedBytes_data();
    void checkpointedSavedBytes();
};

namespace {

const json& measurement(const char* relativePath)
{
    static std::map<std::string, json> files;
    auto it = files.find(relativePath);
    if (it == files.end()) {
        const std::string path = std::string(HEADROOM_SOURCE_DIR) + "/" + relativePath;
        std::ifstream in(path, std::ios::binary);
        if (!in)
            qFatal("cannot open %s", path.c_str());
        json doc = json::parse(in, nullptr, false);
        if (doc.is_discarded())
            qFatal("%s is not valid JSON", path.c_str());
        it = files.emplace(relativePath, std::move(doc)).first;
    }
    return it->second;
}

// The bundled preset each measured torchvision model corresponds to.
QString visionPreset(const std::string& torchvisionName)
{
    if (torchvisionName == "resnet50")
        return QStringLiteral("resnet50");
    if (torchvisionName == "mobilenet_v2")
        return QStringLiteral("mobilenet-v2");
    if (torchvisionName == "efficientnet_b0")
        return QStringLiteral("efficientnet-b0");
    if (torchvisionName == "vit_b_16")
        return QStringLiteral("vit-b-16");
    return {};
}

} // namespace

void TestTorchReference::savedBytesPerSample_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("image");
    QTest::addColumn<double>("perSample");   // measured, bytes per sample
    QTest::addColumn<double>("independent"); // measured, batch-independent bytes
    QTest::addColumn<double>("labels");      // measured, bytes per sample of the int64 labels nll_loss saves
    QTest::addColumn<double>("cudaAdjust");  // bytes per sample by which CUDA differs from the CPU measurement
    const json& doc = measurement("tools/torch_reference_vision.json");
    if (doc.at("per_sample").empty())
        qFatal("tools/torch_reference_vision.json has no per_sample entries");
    // The labels' share of the slope, from the two batches' totals.
    auto labelsBytes = [&](const json& point, int batch) {
        for (const json& r : doc.at("results")) {
            if (r.at("model") == point.at("model") && r.at("image_size") == point.at("image_size")
                && r.at("batch").get<int>() == batch)
                return r.at("labels_bytes").get<double>();
        }
        qFatal("tools/torch_reference_vision.json: no batch %d result for a per_sample entry", batch);
    };
    for (const json& point : doc.at("per_sample")) {
        const std::string name = point.at("model").get<std::string>();
        const QString preset = visionPreset(name);
        if (preset.isEmpty())
            qFatal("tools/torch_reference_vision.json measures %s, which has no preset here", name.c_str());
        const int image = point.at("image_size").get<int>();
        // MobileNetV2's classifier Dropout(0.2) saves an FP32 noise tensor on CPU but a 1-byte bool mask on CUDA
        // (aten native_dropout): 1280 features x 3 bytes less. EfficientNet's is in place (dropout_), which saves
        // input-dtype noise on every device.
        const double cudaAdjust = name == "mobilenet_v2" ? -1280.0 * 3.0 : 0.0;
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QString::fromStdString(name)).arg(image)))
            << preset << image << point.at("per_sample_bytes").get<double>()
            << point.at("batch_independent_bytes").get<double>() << labelsBytes(point, 2) - labelsBytes(point, 1)
            << cudaAdjust;
    }
}

void TestTorchReference::savedBytesPerSample()
{
    QFETCH(QString, model);
    QFETCH(int, image);
    QFETCH(double, perSample);
    QFETCH(double, independent);
    QFETCH(double, labels);
    QFETCH(double, cudaAdjust);
    const ModelSpec& m = test::preset(model.toStdString().c_str());
    TrainingConfig c;
    c.precision = Precision::FP32;
    c.attention = AttentionImpl::Eager;
    c.sequenceLength = image;
    auto activations = [&](std::int64_t batch) {
        c.microBatch = batch;
        const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
        return e.components[index(MemoryCategory::Activations)];
    };
    const double one = activations(1), two = activations(2);
    // The measurement also counts the int64 labels nll_loss saves (8 bytes per sample), which Headroom counts as the
    // input batch.
    QCOMPARE(two - one, perSample - labels + cudaAdjust);
    // vit_b_16 in torch 1.13 runs eager attention (bmm, softmax, bmm); its 12 1/sqrt(d) Python scalars become 0-d
    // float64 tensors on the host, not GPU memory: 96 of its batch-independent bytes.
    const double scalars = model == QLatin1String("vit-b-16") ? 12 * 8.0 : 0.0;
    QCOMPARE(one - (two - one), independent - scalars);
}

// Hugging Face BertForMaskedLM (bert-base-uncased), GPT2LMHeadModel (gpt2, with transformers' ForCausalLMLoss) and a
// small LlamaForCausalLM (the config recorded with each run: 2 layers, hidden 256, 8 heads, 2 KV heads, intermediate
// 688, vocabulary 1000), measured on CPU with torch 1.13. Eager attention, FP32 and pure BF16 (model.to(bfloat16)),
// training mode.
void TestTorchReference::transformersSavedBytes_data()
{
    QTest::addColumn<int>("run"); // index in results.json's runs
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("seq");
    QTest::addColumn<double>("measured"); // activation_bytes: saved storages minus module buffers
    QTest::addColumn<double>("notModelled");
    // notModelled, itemised by the measurement itself: Python scalars that Mul/Div wrap into 0-d float64 tensors on
    // the host (not GPU memory, wrapped_scalar_bytes_host); torch 1.13's MeanBackward1 saving the FP32 x^2 of
    // RMSNorm (torch 2's mean.dim saves nothing, mean_self_bytes_torch113_only); a causal model at batch 1 keeps the
    // padded labels (s + 1) as a view where batch 2 makes an s-long copy (tools/hf_reference/README.md).
    const json& runs = measurement("tools/hf_reference/results.json").at("runs");
    if (runs.empty())
        qFatal("tools/hf_reference/results.json has no runs");
    for (int i = 0; i < int(runs.size()); ++i) {
        const json& run = runs[std::size_t(i)];
        const std::string name = run.at("model").get<std::string>();
        // The in-model loss of older transformers, which Headroom does not model (it follows ForCausalLMLoss).
        if (name == "gpt2-legacy-loss")
            continue;
        const QString model = name == "bert" ? QStringLiteral("bert-base")
            : name == "gpt2"                 ? QStringLiteral("gpt2")
            : name == "llama"                ? QStringLiteral("tiny-llama")
                                             : QString();
        if (model.isEmpty())
            qFatal("tools/hf_reference/results.json measures %s, which this test does not know", name.c_str());
        const QString dtype = QString::fromStdString(run.at("dtype").get<std::string>());
        const int batch = run.at("batch").get<int>();
        const int seq = run.at("seq").get<int>();
        double notModelled = run.at("wrapped_scalar_bytes_host").get<double>()
            + run.at("mean_self_bytes_torch113_only").get<double>();
        if (name != "bert" && batch == 1)
            notModelled += 8.0; // the (s + 1)-th label of a causal model
        QTest::newRow(qPrintable(QStringLiteral("%1 %2 b%3 s%4").arg(model, dtype).arg(batch).arg(seq)))
            << i << model << dtype << batch << seq << run.at("activation_bytes").get<double>() << notModelled;
    }
}

namespace {

// The bundled preset a measured run corresponds to; Llama 2's layer at the tiny measured sizes.
ModelSpec referenceModel(const std::string& name, const json& config)
{
    if (name == "bert" || name == "bert-seq-cls")
        return test::preset("bert-base");
    if (name != "llama")
        qFatal("a tools/hf_reference file measures %s, which this test does not know", name.c_str());
    ModelSpec m = test::preset("llama-2-7b");
    auto& t = m.transformer;
    t.layers = config.at("num_hidden_layers").get<int>();
    t.hidden = config.at("hidden_size").get<int>();
    t.heads = config.at("num_attention_heads").get<int>();
    t.kvHeads = config.at("num_key_value_heads").get<int>();
    t.ffn = config.at("intermediate_size").get<int>();
    t.vocab = config.at("vocab_size").get<int>();
    return m;
}

// Bytes a measurement itemises that Headroom does not model (see transformersSavedBytes_data).
double notModelledBytes(const json& run)
{
    double n = run.at("wrapped_scalar_bytes_host").get<double>()
        + run.at("mean_self_bytes_torch113_only").get<double>();
    const bool encoder = run.at("model") == "bert" || run.at("model") == "bert-seq-cls";
    if (!encoder && run.at("batch").get<int>() == 1)
        n += 8.0; // the (s + 1)-th label of a causal model
    return n;
}

} // namespace

void TestTorchReference::transformersSavedBytes()
{
    QFETCH(int, run);
    QFETCH(QString, model);
    QFETCH(QString, dtype);
    QFETCH(int, batch);
    QFETCH(int, seq);
    QFETCH(double, measured);
    QFETCH(double, notModelled);
    ModelSpec m;
    if (model == QLatin1String("tiny-llama")) {
        m = referenceModel("llama",
                           measurement("tools/hf_reference/results.json").at("runs").at(std::size_t(run)).at("config"));
    } else {
        m = test::preset(model.toStdString().c_str());
    }
    TrainingConfig c;
    c.kernels = KernelBackend::Cpu;
    c.precision = dtype == QLatin1String("fp32") ? Precision::FP32 : Precision::PureBF16;
    c.attention = AttentionImpl::Eager;
    c.microBatch = batch;
    c.sequenceLength = seq;
    const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(e.components[index(MemoryCategory::Activations)], measured - notModelled);
}

// PEFT LoRA (q/v, all-linear, with and without lora_dropout) and a frozen body, FP32 and pure BF16: frozen Linear
// layers keep no input, adapters keep the input cast to their FP32 dtype, lora_dropout keeps its noise; and
// BertForSequenceClassification with LoRA, whose pooler keeps the whole last hidden state through its view.
void TestTorchReference::peftSavedBytes_data()
{
    QTest::addColumn<int>("run");
    const json& runs = measurement("tools/hf_reference/peft_results.json").at("runs");
    if (runs.size() < 8)
        qFatal("tools/hf_reference/peft_results.json has too few runs");
    for (int i = 0; i < int(runs.size()); ++i) {
        const json& r = runs[std::size_t(i)];
        const std::string targets = r.at("lora_targets").is_string() ? r.at("lora_targets").get<std::string>()
            : r.at("lora_targets").is_null()                         ? std::string("-")
                                                                     : r.at("lora_targets").dump();
        QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3 r%4 p%5 %6 b%7")
                                     .arg(QString::fromStdString(r.at("model").get<std::string>()),
                                          QString::fromStdString(r.at("finetune").get<std::string>()),
                                          QString::fromStdString(targets))
                                     .arg(r.at("lora_rank").get<int>())
                                     .arg(r.at("lora_dropout").get<double>())
                                     .arg(QString::fromStdString(r.at("dtype").get<std::string>()))
                                     .arg(r.at("batch").get<int>())))
            << i;
    }
}

void TestTorchReference::peftSavedBytes()
{
    QFETCH(int, run);
    const json& r = measurement("tools/hf_reference/peft_results.json").at("runs").at(std::size_t(run));
    QVERIFY(r.at("methods_agree").get<bool>());
    const ModelSpec m = referenceModel(r.at("model").get<std::string>(), r.at("config"));
    TrainingConfig c;
    c.kernels = KernelBackend::Cpu;
    c.precision = r.at("dtype") == "fp32" ? Precision::FP32 : Precision::PureBF16;
    c.attention = AttentionImpl::Eager;
    c.microBatch = r.at("batch").get<int>();
    c.sequenceLength = r.at("seq").get<int>();
    if (r.at("model") == "bert-seq-cls") { // BertForSequenceClassification, the classifier a module to save
        c.task = Task::SequenceClassification;
        c.numLabels = r.at("num_labels").get<int>();
    }
    FinetuneConfig& f = c.finetune;
    if (r.at("finetune") == "lora") {
        f.method = FinetuneMethod::LoRA;
        f.loraRank = r.at("lora_rank").get<int>();
        f.loraAlpha = r.at("lora_alpha").get<double>();
        f.loraDropout = r.at("lora_dropout").get<double>();
        if (r.at("lora_targets").is_string())
            f.loraTargets = { r.at("lora_targets").get<std::string>() };
        else
            f.loraTargets = r.at("lora_targets").get<std::vector<std::string>>();
    } else {
        f.method = FinetuneMethod::Freeze; // all blocks and the embeddings; the final norm and the head train
    }
    const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    QCOMPARE(e.trainableParameters, r.at("trainable_parameters").get<double>());
    QCOMPARE(e.components[index(MemoryCategory::Activations)],
             r.at("activation_bytes").get<double>() - notModelledBytes(r));
}

void TestTorchReference::checkpointedSavedBytes_data()
{
    QTest::addColumn<int>("run"); // index in checkpoint_results.json's runs
    const json& runs = measurement("tools/hf_reference/checkpoint_results.json").at("runs");
    if (runs.size() < 12)
        qFatal("tools/hf_reference/checkpoint_results.json has too few runs");
    for (int i = 0; i < int(runs.size()); ++i) {
        const json& r = runs[std::size_t(i)];
        QTest::newRow(qPrintable(QStringLiteral("%1 %2 b%3 s%4")
                                     .arg(QString::fromStdString(r.at("precision").get<std::string>()),
                                          QString::fromStdString(r.at("checkpointing").get<std::string>()))
                                     .arg(r.at("batch").get<int>())
                                     .arg(r.at("seq").get<int>())))
            << i;
    }
}

// Under BF16 autocast a checkpointed BertLayer's input is the FP32 output of the previous LayerNorm: the checkpoint
// keeps it for the recomputation although no operator saves it (the layer only casts it and adds it to the
// residual). It was counted as a temporary, 21.6 % of the activations at every batch and sequence.
void TestTorchReference::checkpointedSavedBytes()
{
    QFETCH(int, run);
    const json& r = measurement("tools/hf_reference/checkpoint_results.json").at("runs").at(std::size_t(run));
    TrainingConfig c; // CUDA kernels: the measurement's GPU-equivalent figures
    const std::string precision = r.at("precision").get<std::string>();
    c.precision = precision == "fp32" ? Precision::FP32
        : precision == "bf16"         ? Precision::PureBF16
                                      : Precision::MixedBF16;
    c.checkpointing = r.at("checkpointing") == "full" ? Checkpointing::Full : Checkpointing::None;
    c.attention = AttentionImpl::Eager;
    c.microBatch = r.at("batch").get<int>();
    c.sequenceLength = r.at("seq").get<int>();
    const Estimate e = estimate(test::preset("bert-base"), test::gpu("a100-sxm4-80gb"), c, {}, test::fastOptions());
    // The GPU-equivalent count already leaves out the Python scalars kept on the host. Its autocast emulation is
    // CUDA's: the MLM loss saves BF16 log-probabilities and nll_loss's FP32 copy of them (graphbuilderops.cpp
    // crossEntropy), as the H200 files of tests/data/measured/ (BERT, BF16 autocast) do to the byte.
    const double measured = r.at("saved_outside_gpu_equiv_bytes").get<double>()
        + r.at("held_by_checkpoint_bytes").get<double>();
    QCOMPARE(e.components[index(MemoryCategory::Activations)], measured);
}

QTEST_APPLESS_MAIN(TestTorchReference)
#include "tst_torchreference.moc"
