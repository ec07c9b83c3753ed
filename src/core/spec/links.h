#pragma once

// The links collectives run over: inside a node (PCIe with or without peer-to-peer, an NVLink bridge, NVLink with
// NVSwitch by generation) and between nodes (InfiniBand, Ethernet, one NIC per GPU). Inside a node the figures are
// all-reduce bus bandwidths that nccl-tests measured (docs/references/next-round.md sec. 4.3): a GeForce box
// without peer-to-peer gets the shared-memory figure, not the link rate. Between nodes they are line rates, derated
// by the link efficiency as the GPU's own links are (Efficiency::link).

#include "gpuspec.h"
#include "trainingconfig.h"

#include <optional>
#include <string_view>

namespace headroom {

enum class LinkKind : std::uint8_t {
    Auto, // inside a node: the GPU file's NVLink when the group fits on it, else its PCIe; between nodes: IB HDR
    PcieShm,
    Pcie4,
    Pcie5,
    NvlinkBridge,
    Nvlink3,
    Nvlink4,
    Ethernet100,
    InfinibandHdr,
    InfinibandNdr,
};

struct LinkFigure {
    LinkKind kind = LinkKind::Auto;
    std::string_view id;    // the command line's name: pcie-shm, nvlink4, ib-ndr, ...
    double gbPerSecond = 0; // per GPU, one direction: measured bus bandwidth, or line rate
    bool measured = false;  // a bus bandwidth nccl-tests measured (used as it is) or a line rate (derated)
    bool interNode = false;
    std::string_view source;
};

const LinkFigure& linkFigure(LinkKind kind);
std::string_view toString(LinkKind kind);
std::optional<LinkKind> linkKindFromString(std::string_view s);

// Bytes per second, one direction per GPU, for a collective over GPUs [0, span) of the job laid out Megatron's way
// (tensor-parallel ranks innermost, then data-parallel, then pipeline stages): the intra-node link, and once the
// span passes a node the slower of it and the inter-node link (a ring still takes every node-local hop).
double collectiveBandwidth(const GpuSpec& gpu, const TrainingConfig& config, double linkEfficiency, int span);

// The intra-node link a group of `span` GPUs uses: the cluster's, or for Auto what the GPU file describes. On its
// NVLink when the group fits there: the measured bus bandwidth of the same system where sec. 4.3 has one (8 A100
// SXM, NVLink 3 at 600 GB/s: nvlink3; 8 H100 SXM, NVLink 4 at 900 GB/s: nvlink4; 2 H100 PCIe on a bridge:
// nvlink-bridge), else the file's own rate derated (a bridge when the link pairs two cards, NVSwitch beyond). Else
// on PCIe: without peer-to-peer (the file's peer_to_peer false: GeForce cards) NCCL goes through host shared memory,
// pcie-shm; with it the measured PCIe 5 or PCIe 4 figure, and PCIe 3 at the file's rate derated.
struct IntraNodeLink {
    LinkKind kind = LinkKind::Pcie4; // never Auto; for the file's own rate the kind of its class
    double fileGBps = 0.0; // the GPU file's bidirectional rate used, halved and derated; 0: the table's figure
    bool gpuFileRate() const { return fileGBps > 0.0; }
};
IntraNodeLink resolveIntraNodeLink(const GpuSpec& gpu, const TrainingConfig& config, int span);
inline LinkKind intraNodeLink(const GpuSpec& gpu, const TrainingConfig& config, int span)
{
    return resolveIntraNodeLink(gpu, config, span).kind;
}

// The PCIe a card's collectives take beyond its NVLink, as resolveIntraNodeLink resolves it.
IntraNodeLink pcieLink(const GpuSpec& gpu);

// The latency (alpha) of one NCCL collective on the Simple protocol, from NCCL's own tuning model
// (src/graph/tuning.cc, Ring/Simple): a base of 8.4 us plus, for each step of the ring, 3.4 us over NVLink, 5.7 us
// over PCIe and 9.6 us across the network. A ring all-reduce over n ranks takes 2 (n - 1) steps, an all-gather,
// reduce-scatter or all-to-all n - 1, a send to a neighbour 1; the steps between nodes, 2 (nodes - 1) or
// nodes - 1, run at the network figure. `ranks` take part, spread over GPUs [0, span).
enum class CollectiveShape : std::uint8_t { AllReduce, Ring, PointToPoint };
inline constexpr double kNcclBaseLatencySeconds = 8.4e-6;
double collectiveLatency(const GpuSpec& gpu, const TrainingConfig& config, int span, int ranks, CollectiveShape shape);

} // namespace headroom
