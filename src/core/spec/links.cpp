#include "links.h"

#include <algorithm>
#include <array>

namespace headroom {

namespace {

    constexpr std::array<LinkFigure, 10> kLinks { {
        { LinkKind::Auto, "auto", 0.0, false, false,
          "the GPU file's links (gpus/*.json): NVLink when the group fits "
          "on it, else PCIe; between nodes InfiniBand HDR" },
        { LinkKind::PcieShm, "pcie-shm", 3.9, true, false,
          "all-reduce bus bandwidth of 2 GPUs on PCIe without peer-to-peer (shared memory), NVIDIA/nccl#384" },
        { LinkKind::Pcie4, "pcie4", 25.9, true, false,
          "all-reduce bus bandwidth of 4 RTX 4090 on PCIe 4 with peer-to-peer, tinygrad/open-gpu-kernel-modules#36" },
        { LinkKind::Pcie5, "pcie5", 28.0, true, false,
          "all-reduce bus bandwidth of 8 RTX 5090 on PCIe 5 (2 Xeon 8480+), NVIDIA/nccl#1639" },
        { LinkKind::NvlinkBridge, "nvlink-bridge", 116.0, true, false,
          "all-reduce bus bandwidth of 2 H100 PCIe with an NVLink bridge, NVIDIA/nccl#1161" },
        { LinkKind::Nvlink3, "nvlink3", 200.0, true, false,
          "all-reduce bus bandwidth of 8 A100 SXM with NVSwitch, NVIDIA/nccl-tests#149" },
        { LinkKind::Nvlink4, "nvlink4", 370.0, true, false,
          "all-reduce (ring) bus bandwidth of 8 H100 SXM with NVSwitch, NVIDIA/nccl-tests#212" },
        { LinkKind::Ethernet100, "eth-100g", 12.5, false, true, "100 Gb/s Ethernet per GPU, line rate" },
        { LinkKind::InfinibandHdr, "ib-hdr", 25.0, false, true,
          "InfiniBand HDR 200 Gb/s per GPU, line rate (Selene's DGX A100 nodes: 8 HDR HCAs, arXiv 2104.04473 sec. 5)" },
        { LinkKind::InfinibandNdr, "ib-ndr", 50.0, false, true, "InfiniBand NDR 400 Gb/s per GPU, line rate" },
    } };

} // namespace

const LinkFigure& linkFigure(LinkKind kind) { return kLinks[std::size_t(kind)]; }

std::string_view toString(LinkKind kind) { return linkFigure(kind).id; }

std::optional<LinkKind> linkKindFromString(std::string_view s)
{
    for (const LinkFigure& f : kLinks) {
        if (f.id == s)
            return f.kind;
    }
    return std::nullopt;
}

double collectiveBandwidth(const GpuSpec& gpu, const TrainingConfig& config, double linkEfficiency, int span)
{
    const ClusterConfig& c = config.cluster;
    if (c.gpusPerNode > 0 && span > c.gpusPerNode) {
        // A ring across nodes still passes every GPU's node-local hops: it runs at the slower of the inter-node
        // link and the node's own (a PCIe box without peer-to-peer is held to host memory even behind 100 GbE).
        const LinkFigure& f = linkFigure(c.interLink == LinkKind::Auto ? LinkKind::InfinibandHdr : c.interLink);
        const double inter = f.gbPerSecond * 1e9 * (f.measured ? 1.0 : linkEfficiency);
        return std::min(inter, collectiveBandwidth(gpu, config, linkEfficiency, c.gpusPerNode));
    }
    const IntraNodeLink link = resolveIntraNodeLink(gpu, config, span);
    if (link.gpuFileRate()) // the catalog stores bidirectional figures: one direction is half
        return link.fileGBps * 1e9 / 2.0 * linkEfficiency;
    const LinkFigure& f = linkFigure(link.kind);
    return f.gbPerSecond * 1e9 * (f.measured ? 1.0 : linkEfficiency);
}

IntraNodeLink pcieLink(const GpuSpec& gpu)
{
    if (gpu.peerToPeer.value == false)
        return { LinkKind::PcieShm };
    // The catalog's bidirectional x16 rates: 128 GB/s is PCIe 5, 64 PCIe 4, 32 PCIe 3.
    if (gpu.pcieGBps.value >= 100.0)
        return { LinkKind::Pcie5 };
    if (gpu.pcieGBps.value >= 50.0)
        return { LinkKind::Pcie4 };
    return { LinkKind::Pcie4, gpu.pcieGBps.value };
}

IntraNodeLink resolveIntraNodeLink(const GpuSpec& gpu, const TrainingConfig& config, int span)
{
    if (config.cluster.intraLink != LinkKind::Auto)
        return { config.cluster.intraLink };
    if (!gpu.gpuLinkGBps.present() || span > gpu.gpuLinkMaxGpus)
        return pcieLink(gpu);
    const bool board = gpu.gpuLinkMaxGpus > 2; // NVSwitch (or a fully connected board) rather than a bridge
    const int generation = int(gpu.nvlinkGeneration.value);
    const double rate = gpu.gpuLinkGBps.value;
    if (board && generation == 3 && rate == 600.0)
        return { LinkKind::Nvlink3 };
    if (board && generation == 4 && rate == 900.0)
        return { LinkKind::Nvlink4 };
    if (!board && generation == 4 && rate == 600.0)
        return { LinkKind::NvlinkBridge };
    return { board ? LinkKind::Nvlink4 : LinkKind::NvlinkBridge, rate };
}

double collectiveLatency(const GpuSpec& gpu, const TrainingConfig& config, int span, int ranks, CollectiveShape shape)
{
    if (ranks <= 1)
        return 0.0;
    const ClusterConfig& c = config.cluster;
    const int perNode = c.gpusPerNode > 0 ? c.gpusPerNode : span;
    const int nodes = std::max(1, (span + perNode - 1) / perNode);
    const LinkKind kind = intraNodeLink(gpu, config, std::min(span, perNode));
    const bool nvlink = kind == LinkKind::NvlinkBridge || kind == LinkKind::Nvlink3 || kind == LinkKind::Nvlink4;
    const double intraStep = nvlink ? 3.4e-6 : 5.7e-6;
    constexpr double netStep = 9.6e-6;
    double steps = 1.0, interSteps = 0.0;
    switch (shape) {
    case CollectiveShape::AllReduce:
        steps = 2.0 * (ranks - 1);
        interSteps = 2.0 * (nodes - 1);
        break;
    case CollectiveShape::Ring:
        steps = ranks - 1;
        interSteps = nodes - 1;
        break;
    case CollectiveShape::PointToPoint:
        interSteps = nodes > 1 ? 1.0 : 0.0;
        break;
    }
    interSteps = std::min(interSteps, steps);
    return kNcclBaseLatencySeconds + (steps - interSteps) * intraStep + interSteps * netStep;
}

} // namespace headroom
