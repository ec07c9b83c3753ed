// Which GPU file a measurement's CUDA device is (devicename.h). The device names are the strings
// torch.cuda.get_device_name() and nvidia-smi print on those boards, as they appear in PyTorch, NCCL and vLLM bug
// reports and benchmark logs; the memory is torch.cuda.get_device_properties().total_memory where it decides.

#include "devicename.h"
#include "testsupport.h"

#include <QtTest>

using namespace headroom;

class TestDeviceName : public QObject {
    Q_OBJECT
private slots:
    void matches_data();
    void matches();
    void ambiguousOrUnknown_data();
    void ambiguousOrUnknown();
};

namespace {
constexpr double kGiB = 1024.0 * 1024 * 1024;
}

void TestDeviceName::matches_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<double>("memory"); // 0: not given
    QTest::addColumn<QString>("id");
    QTest::newRow("A100 SXM4 80GB") << "NVIDIA A100-SXM4-80GB" << 0.0 << "a100-sxm4-80gb";
    QTest::newRow("A100 SXM4 40GB") << "NVIDIA A100-SXM4-40GB" << 0.0 << "a100-sxm4-40gb";
    QTest::newRow("A100 PCIe 40GB") << "NVIDIA A100-PCIE-40GB" << 0.0 << "a100-pcie-40gb";
    QTest::newRow("A100 80GB PCIe") << "NVIDIA A100 80GB PCIe" << 0.0 << "a100-pcie-80gb";
    // An H100 SXM5 reports no "SXM": the PCIe and NVL boards say so in their names.
    QTest::newRow("H100 SXM5") << "NVIDIA H100 80GB HBM3" << 85031714816.0 << "h100-sxm5-80gb";
    QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << 85031714816.0 << "h100-pcie-80gb";
    QTest::newRow("H100 NVL") << "NVIDIA H100 NVL" << 0.0 << "h100-nvl-94gb";
    QTest::newRow("H200") << "NVIDIA H200" << 150754820096.0 << "h200-sxm-141gb";
    QTest::newRow("V100 SXM2 16GB") << "Tesla V100-SXM2-16GB" << 0.0 << "v100-sxm2-16gb";
    QTest::newRow("V100 SXM2 32GB") << "Tesla V100-SXM2-32GB" << 0.0 << "v100-sxm2-32gb";
    QTest::newRow("RTX 4090, not the D or the laptop") << "NVIDIA GeForce RTX 4090" << 25393692672.0 << "rtx-4090";
    QTest::newRow("RTX 4090 D") << "NVIDIA GeForce RTX 4090 D" << 0.0 << "rtx-4090d";
    QTest::newRow("RTX 3090") << "NVIDIA GeForce RTX 3090" << 25438715904.0 << "rtx-3090";
    // Both RTX A3000 laptop variants report the same name; the memory tells them apart.
    QTest::newRow("RTX A3000 Laptop 12GB") << "NVIDIA RTX A3000 Laptop GPU" << 12.0 * kGiB << "rtx-a3000-12gb-laptop";
    QTest::newRow("RTX A3000 Laptop 6GB") << "NVIDIA RTX A3000 Laptop GPU" << 6.0 * kGiB << "rtx-a3000-6gb-laptop";
    QTest::newRow("T4") << "Tesla T4" << 15843721216.0 << "t4";
    QTest::newRow("L4") << "NVIDIA L4" << 0.0 << "l4";
    // ROCm's torch reports AMD boards as CUDA devices, with the family after a slash.
    QTest::newRow("MI250X under ROCm") << "AMD Instinct MI250X/MI250" << 0.0 << "mi250x";
    QTest::newRow("MI300X under ROCm") << "AMD Instinct MI300X" << 0.0 << "mi300x";
}

void TestDeviceName::matches()
{
    QFETCH(QString, device);
    QFETCH(double, memory);
    QFETCH(QString, id);
    const DeviceMatch m = matchCudaDevice(test::catalog(), device.toStdString(),
                                          memory > 0 ? std::optional<double>(memory) : std::nullopt);
    QStringList ids;
    for (const std::string& i : m.ids)
        ids << QString::fromStdString(i);
    QCOMPARE(ids, QStringList { id });
}

void TestDeviceName::ambiguousOrUnknown_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("candidates");
    // Without its memory, an RTX A3000 laptop GPU is either file.
    QTest::newRow("A3000 without memory") << "NVIDIA RTX A3000 Laptop GPU" << 2;
    QTest::newRow("a GPU Headroom has no file for") << "NVIDIA GeForce GTX 1650" << 0;
    QTest::newRow("no model word") << "NVIDIA" << 0;
    QTest::newRow("empty") << "" << 0;
}

void TestDeviceName::ambiguousOrUnknown()
{
    QFETCH(QString, device);
    QFETCH(int, candidates);
    const DeviceMatch m = matchCudaDevice(test::catalog(), device.toStdString());
    QVERIFY(!m.unique());
    QCOMPARE(int(m.ids.size()), candidates);
}

QTEST_APPLESS_MAIN(TestDeviceName)
#include "tst_devicename.moc"
