// What the simulator says autograd saves, against what PyTorch's autograd really saved: real torchvision models,
// one training forward pass on CPU in FP32, every saved tensor's storage counted once through
// torch.autograd.graph.saved_tensors_hooks (torch 1.13, torchvision 0.14; tools/measure_saved_vision.py, results in
// tools/torch_reference_vision.json). Parameters, buffers and the image batch are excluded there, as here.

#include "testsupport.h"

using namespace headroom;

class TestTorchReference : public QObject {
    Q_OBJECT

private slots:
    void savedBytesPerSample_data();
    void savedBytesPerSample();
    void transformersSavedBytes_data();
    void transformersSavedBytes();
};

void TestTorchReference::savedBytesPerSample_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("image");
    QTest::addColumn<double>("perSample");   // measured, bytes per sample
    QTest::addColumn<double>("independent"); // measured, batch-independent bytes
    QTest::addColumn<double>("cudaAdjust");  // bytes per sample by which CUDA differs from the CPU measurement
    // MobileNetV2's classifier Dropout(0.2) saves an FP32 noise tensor on CPU but a 1-byte bool mask on CUDA
    // (aten native_dropout): 1280 features x 3 bytes less. EfficientNet's is in place (dropout_), which saves
    // input-dtype noise on every device.
    QTest::newRow("resnet50 224") << QStringLiteral("resnet50") << 224 << 85311400.0 << 212484.0 << 0.0;
    QTest::newRow("resnet50 160") << QStringLiteral("resnet50") << 160 << 43532200.0 << 212484.0 << 0.0;
    QTest::newRow("mobilenet_v2 224") << QStringLiteral("mobilenet-v2") << 224 << 77862312.0 << 136452.0 << -3840.0;
    QTest::newRow("mobilenet_v2 160") << QStringLiteral("mobilenet-v2") << 160 << 39732648.0 << 136452.0 << -3840.0;
    QTest::newRow("efficientnet_b0 224") << QStringLiteral("efficientnet-b0") << 224 << 87846828.0 << 168068.0 << 0.0;
    QTest::newRow("efficientnet_b0 160") << QStringLiteral("efficientnet-b0") << 160 << 44863404.0 << 168068.0 << 0.0;
    // vit_b_16 in torch 1.13 runs eager attention (bmm, softmax, bmm); its 12 float64 1/sqrt(d) scalars are the
    // batch-independent 96 bytes.
    QTest::newRow("vit_b_16 224") << QStringLiteral("vit-b-16") << 224 << 139803088.0 << 100.0 + 0.0 << 0.0;
}

void TestTorchReference::savedBytesPerSample()
{
    QFETCH(QString, model);
    QFETCH(int, image);
    QFETCH(double, perSample);
    QFETCH(double, independent);
    QFETCH(double, cudaAdjust);
    const ModelSpec& m = test::preset(model.toStdString().c_str());
    TrainingConfig c;
    c.precision = Precision::FP32;
    c.attention = AttentionImpl::Eager;
    c.sequenceLength = image;
    auto activations = [&](std::int64_t batch) {
        c.microBatch = batch;
        const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, { {}, false, false });
        return e.components[index(MemoryCategory::Activations)];
    };
    const double one = activations(1), two = activations(2);
    // The measurement also counts the int64 labels nll_loss saves (8 bytes per sample), which Headroom counts as
    // the input batch.
    const double expectedPerSample = perSample - 8.0 + cudaAdjust;
    QCOMPARE(two - one, expectedPerSample);
    // ViT's 1/sqrt(d) Python scalars become 0-d float64 tensors on the host, not GPU memory.
    const double scalars = model == QLatin1String("vit-b-16") ? 12 * 8.0 : 0.0;
    QCOMPARE(one - (two - one), independent - scalars);
}

// Hugging Face BertForMaskedLM (bert-base-uncased), GPT2LMHeadModel (gpt2, with transformers' ForCausalLMLoss) and a
// small LlamaForCausalLM (2 layers, hidden 256, 8 heads, 2 KV heads, intermediate 688, vocabulary 1000), written op
// by op from transformers' modelling code and measured with saved_tensors_hooks on CPU with torch 1.13
// (tools/hf_reference/, results.json). Eager attention, FP32 and pure BF16 (model.to(bfloat16)), training mode.
void TestTorchReference::transformersSavedBytes_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("seq");
    QTest::addColumn<double>("measured"); // activation_bytes: saved storages minus module buffers
    QTest::addColumn<double>("notModelled");
    // notModelled, itemised by the measurement itself: Python scalars that Mul/Div wrap into 0-d float64 tensors on
    // the host (not GPU memory); torch 1.13's MeanBackward1 saving the FP32 x^2 of RMSNorm (torch 2's mean.dim
    // saves nothing); a causal model at batch 1 keeps the padded labels (s + 1) as a view where batch 2 makes an
    // s-long copy.
    struct Row {
        const char* model;
        const char* dtype;
        int batch, seq;
        double measured, hostScalars, mean113;
    };
    const Row rows[] = {
        { "bert-base", "fp32", 1, 128, 131259492, 96, 0 },
        { "bert-base", "fp32", 2, 128, 262518884, 96, 0 },
        { "bert-base", "fp32", 1, 256, 319141988, 96, 0 },
        { "bert-base", "fp32", 2, 256, 638283876, 96, 0 },
        { "bert-base", "bf16", 1, 128, 65629794, 96, 0 },
        { "bert-base", "bf16", 2, 128, 131259490, 96, 0 },
        { "bert-base", "bf16", 1, 256, 159571042, 96, 0 },
        { "bert-base", "bf16", 2, 256, 319141986, 96, 0 },
        { "gpt2", "fp32", 1, 128, 196808548, 296, 0 },
        { "gpt2", "fp32", 2, 128, 393615708, 296, 0 },
        { "gpt2", "fp32", 1, 256, 450239844, 296, 0 },
        { "gpt2", "fp32", 2, 256, 900477276, 296, 0 },
        { "gpt2", "bf16", 1, 128, 111271244, 296, 0 },
        { "gpt2", "bf16", 2, 128, 222541124, 296, 0 },
        { "gpt2", "bf16", 1, 256, 250853708, 296, 0 },
        { "gpt2", "bf16", 2, 256, 501705028, 296, 0 },
        { "tiny-llama", "fp32", 1, 64, 3780388, 24, 327680 },
        { "tiny-llama", "fp32", 2, 64, 7544348, 24, 655360 },
        { "tiny-llama", "fp32", 1, 128, 8085028, 24, 655360 },
        { "tiny-llama", "fp32", 2, 128, 16137244, 24, 1310720 },
        { "tiny-llama", "bf16", 1, 64, 2608932, 24, 327680 },
        { "tiny-llama", "bf16", 2, 64, 5209628, 24, 655360 },
        { "tiny-llama", "bf16", 1, 128, 6004260, 24, 655360 },
        { "tiny-llama", "bf16", 2, 128, 11992092, 24, 1310720 },
    };
    for (const Row& r : rows) {
        double extra = r.hostScalars + r.mean113;
        if (QLatin1String(r.model) != QLatin1String("bert-base") && r.batch == 1)
            extra += 8.0; // the (s + 1)-th label of a causal model
        QTest::newRow(qPrintable(QStringLiteral("%1 %2 b%3 s%4").arg(QLatin1String(r.model), QLatin1String(r.dtype)).arg(r.batch).arg(r.seq)))
            << QString::fromLatin1(r.model) << QString::fromLatin1(r.dtype) << r.batch << r.seq << r.measured << extra;
    }
}

void TestTorchReference::transformersSavedBytes()
{
    QFETCH(QString, model);
    QFETCH(QString, dtype);
    QFETCH(int, batch);
    QFETCH(int, seq);
    QFETCH(double, measured);
    QFETCH(double, notModelled);
    ModelSpec m;
    if (model == QLatin1String("tiny-llama")) {
        m = test::preset("llama-2-7b");
        auto& t = m.transformer;
        t.layers = 2;
        t.hidden = 256;
        t.heads = 8;
        t.kvHeads = 2;
        t.ffn = 688;
        t.vocab = 1000;
    } else {
        m = test::preset(model.toStdString().c_str());
    }
    TrainingConfig c;
    c.kernels = KernelBackend::Cpu;
    c.precision = dtype == QLatin1String("fp32") ? Precision::FP32 : Precision::PureBF16;
    c.attention = AttentionImpl::Eager;
    c.microBatch = batch;
    c.sequenceLength = seq;
    const Estimate e = estimate(m, test::gpu("a100-sxm4-80gb"), c, {}, { {}, false, false });
    QCOMPARE(e.components[index(MemoryCategory::Activations)], measured - notModelled);
}

QTEST_APPLESS_MAIN(TestTorchReference)
#include "tst_torchreference.moc"
