#include "ncclmemory.h"

#include "links.h"
#include "pipeline.h"

#include <algorithm>

namespace headroom {

namespace {

    struct Channels {
        int ring = 2;
        int perPeer = 2;
    };

    // The node's link as collectives see it (links.h intraNodeLink): PCIe, an NVLink bridge, or NVSwitch.
    Channels channelsFor(const GpuSpec& gpu, const TrainingConfig& config, int span)
    {
        switch (intraNodeLink(gpu, config, span)) {
        case LinkKind::NvlinkBridge:
            return { 4, 4 };
        case LinkKind::Nvlink3:
        case LinkKind::Nvlink4:
            return { 24, 32 };
        default:
            return { 2, 2 };
        }
    }

} // namespace

NcclMemory ncclMemory(const GpuSpec& gpu, const TrainingConfig& config)
{
    NcclMemory m;
    const int groups[] = { gradientRanks(config), config.tensorParallel, config.contextParallel,
                           pipelineStages(config) };
    int widest = 1;
    for (int n : groups) {
        if (n > 1) {
            ++m.communicators;
            widest = std::max(widest, n);
        }
    }
    const int ep = config.expertParallel;
    if (m.communicators == 0 && ep <= 1)
        return m;
    const Channels c = channelsFor(gpu, config, std::max(widest, ep));
    m.channels = config.ncclChannels > 0 ? config.ncclChannels : c.ring;
    m.connections = m.communicators * m.channels;
    if (ep > 1) {
        ++m.communicators;
        m.peerChannels = config.ncclChannels > 0 ? config.ncclChannels : c.perPeer;
        m.connections += (ep - 1) * m.peerChannels;
    }
    m.bytes = m.connections * kNcclConnectionBytes;
    return m;
}

} // namespace headroom
