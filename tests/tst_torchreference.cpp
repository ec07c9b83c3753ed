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
    // the input batch, and nll_loss's 4-byte total_weight.
    const double expectedPerSample = perSample - 8.0 + cudaAdjust;
    QCOMPARE(two - one, expectedPerSample);
    const double scalars = model == QLatin1String("vit-b-16") ? 12 * 8.0 : 0.0;
    QCOMPARE(one - (two - one), independent - 4.0 - scalars);
}

QTEST_APPLESS_MAIN(TestTorchReference)
#include "tst_torchreference.moc"
