// The link a group of GPUs in one node uses under `auto` (links.h resolveIntraNodeLink), from what each GPU file
// says: its NVLink (rate, generation, how many GPUs it joins) and whether two cards reach each other over PCIe.
// The measured bus bandwidths are next-round.md sec. 4.3's (docs/references/next-round.md): 8 A100 SXM 200 GB/s
// (nccl-tests#149), 8 H100 SXM 370 (nccl-tests#212), 2 H100 PCIe on a bridge 116 (NVIDIA/nccl#1161), PCIe 4 with
// peer-to-peer 25.9 (tinygrad/open-gpu-kernel-modules#36), PCIe 5 28 (NVIDIA/nccl#1639), shared memory without
// peer-to-peer 3.9 (NVIDIA/nccl#384). GeForce cards have no PCIe peer-to-peer (NVIDIA/nccl#1127 for the 3090 and
// 4090, nccl-tests#117 for the 2080 Ti, tinygrad#29 for the 5090); other links run at the file's rate, derated.

#include "gpuspec.h"
#include "links.h"
#include "testsupport.h"

using namespace headroom;

class TestLinks : public QObject {
    Q_OBJECT

private slots:
    void autoFollowsTheGpuFile_data();
    void autoFollowsTheGpuFile();
    void anExplicitLinkWins();
    void geforceCardsHaveNoPeerToPeer();
    void filesKeepTheirLinks();
};

void TestLinks::autoFollowsTheGpuFile_data()
{
    const double derate = Efficiency {}.link;
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("span");
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("bytesPerSecond");
    auto row = [](const char* name, const char* gpu, int span, LinkKind kind, double bps) {
        QTest::newRow(name) << QString::fromLatin1(gpu) << span << int(kind) << bps;
    };
    row("RTX 4090 pair: host memory", "rtx-4090", 2, LinkKind::PcieShm, 3.9e9);
    row("RTX A3000 laptop: host memory", "rtx-a3000-12gb-laptop", 2, LinkKind::PcieShm, 3.9e9);
    row("RTX 3090 pair: its bridge", "rtx-3090", 2, LinkKind::NvlinkBridge, 112.5e9 / 2 * derate);
    row("RTX 3090 x4: past the bridge", "rtx-3090", 4, LinkKind::PcieShm, 3.9e9);
    row("A100 PCIe pair: NVLink 3 bridge", "a100-pcie-80gb", 2, LinkKind::NvlinkBridge, 600e9 / 2 * derate);
    row("A100 PCIe x4: PCIe 4", "a100-pcie-80gb", 4, LinkKind::Pcie4, 25.9e9);
    row("H100 PCIe pair: the measured bridge", "h100-pcie-80gb", 2, LinkKind::NvlinkBridge, 116e9);
    row("H100 PCIe x4: PCIe 5", "h100-pcie-80gb", 4, LinkKind::Pcie5, 28e9);
    row("A100 SXM x8: NVLink 3", "a100-sxm4-80gb", 8, LinkKind::Nvlink3, 200e9);
    row("H100 SXM x8: NVLink 4", "h100-sxm5-80gb", 8, LinkKind::Nvlink4, 370e9);
    row("H800 SXM x8: its own 400 GB/s", "h800-sxm5-80gb", 8, LinkKind::Nvlink4, 400e9 / 2 * derate);
    row("V100 SXM2 x8: NVLink 2", "v100-sxm2-16gb", 8, LinkKind::Nvlink4, 300e9 / 2 * derate);
    row("V100 PCIe pair: PCIe 3", "v100-pcie-16gb", 2, LinkKind::Pcie4, 32e9 / 2 * derate);
    row("RTX A6000 x4: PCIe 4", "rtx-a6000", 4, LinkKind::Pcie4, 25.9e9);
    row("L40S pair: PCIe 4", "l40s", 2, LinkKind::Pcie4, 25.9e9);
    row("MI300X x8: Infinity Fabric", "mi300x", 8, LinkKind::Nvlink4, 896e9 / 2 * derate);
}

void TestLinks::autoFollowsTheGpuFile()
{
    QFETCH(QString, gpu);
    QFETCH(int, span);
    QFETCH(int, kind);
    QFETCH(double, bytesPerSecond);
    const std::string id = gpu.toStdString();
    const GpuSpec& g = test::gpu(id.c_str());
    const TrainingConfig c;
    QCOMPARE(int(intraNodeLink(g, c, span)), kind);
    QCOMPARE(collectiveBandwidth(g, c, Efficiency {}.link, span), bytesPerSecond);
}

void TestLinks::anExplicitLinkWins()
{
    // Four RTX 4090s with a patched driver (tinygrad's fork): the user says pcie4 and gets its measured figure.
    TrainingConfig c;
    c.cluster.intraLink = LinkKind::Pcie4;
    QCOMPARE(collectiveBandwidth(test::gpu("rtx-4090"), c, Efficiency {}.link, 4), 25.9e9);
    QCOMPARE(int(intraNodeLink(test::gpu("rtx-4090"), c, 4)), int(LinkKind::Pcie4));
}

void TestLinks::geforceCardsHaveNoPeerToPeer()
{
    // Every NVIDIA file says, with a source, whether its cards reach each other over PCIe: GeForce and laptop cards
    // not, data-center and desktop workstation cards yes. Every NVIDIA NVLink names its generation.
    int geforce = 0, datacenter = 0;
    for (const GpuSpec& g : test::catalog().gpus()) {
        if (g.vendor != "NVIDIA")
            continue;
        QVERIFY2(g.peerToPeer.value.has_value(), g.id.c_str());
        QVERIFY2(!g.peerToPeer.sources.empty(), g.id.c_str());
        const GpuSegment s = g.segmentKind();
        if (s == GpuSegment::Desktop || s == GpuSegment::Laptop) {
            QVERIFY2(!*g.peerToPeer.value, g.id.c_str());
            geforce += s == GpuSegment::Desktop;
        }
        if (s == GpuSegment::Datacenter) {
            QVERIFY2(*g.peerToPeer.value, g.id.c_str());
            ++datacenter;
        }
        if (g.gpuLinkGBps.present()) {
            QVERIFY2(g.nvlinkGeneration.value >= 2 && g.nvlinkGeneration.value <= 5, g.id.c_str());
            QVERIFY2(!g.nvlinkGeneration.sources.empty(), g.id.c_str());
        }
    }
    QVERIFY(geforce >= 10);
    QVERIFY(datacenter >= 20);
    QCOMPARE(test::gpu("a100-sxm4-80gb").nvlinkGeneration.value, 3.0);
    QCOMPARE(test::gpu("h100-sxm5-80gb").nvlinkGeneration.value, 4.0);
    QCOMPARE(test::gpu("b200-hgx").nvlinkGeneration.value, 5.0);
}

void TestLinks::filesKeepTheirLinks()
{
    // A saved GPU keeps its flag and generation; a flag that is not true or false is refused by name.
    const GpuSpec& h100 = test::gpu("h100-pcie-80gb");
    const auto again = parseGpuSpec(serializeGpuSpec(h100), "h100.json");
    QVERIFY(again);
    QCOMPARE(again->peerToPeer.value, h100.peerToPeer.value);
    QCOMPARE(again->peerToPeer.sources, h100.peerToPeer.sources);
    QCOMPARE(again->nvlinkGeneration.value, 4.0);
    std::string text = serializeGpuSpec(h100);
    const std::string from = "\"value\": true";
    const auto at = text.find(from, text.find("\"peer_to_peer\""));
    QVERIFY(at != std::string::npos);
    text.replace(at, from.size(), "\"value\": \"yes\"");
    const auto bad = parseGpuSpec(text, "h100.json");
    QVERIFY(!bad);
    QVERIFY2(bad.error().field.find("links.peer_to_peer.value") != std::string::npos, bad.error().field.c_str());
}

QTEST_GUILESS_MAIN(TestLinks)
#include "tst_links.moc"
