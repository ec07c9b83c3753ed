#pragma once

// The device memory NCCL's communicators take on each rank: buffers it allocates itself (cudaMalloc / cuMem), outside
// PyTorch's caching allocator, so that torch.cuda.memory_reserved() never shows them, yet an OOM counts them.
//
// Per connection NCCL keeps one FIFO per protocol (src/init.cc DEFAULT_BUFFSIZE, DEFAULT_LL_BUFFSIZE,
// DEFAULT_LL128_BUFFSIZE): Simple 4 MiB, LL 8 x 512 x 8 x 16 B = 512 KiB, LL128 120 x 640 x 8 x 8 B = 4,800 KiB,
// 9,633,792 B in all, which cuMem's 2 MiB granularity makes 10 MiB (the 10,485,760-byte allocations NCCL_DEBUG_SUBSYS=
// ALLOC shows in NVIDIA/nccl#1685). Memory "is linearly tied to the number of channels", and a ring "only has 2
// connections regardless of the scale" (NVIDIA/nccl#986): a rank holds one connection's buffers per ring channel of
// each communicator, and an all-to-all one per peer per peer-to-peer channel. Channels by link, as NCCL's logs show
// them: PCIe 2 (nccl-tests#228, eight GPUs over SHM), an NVLink bridge 4 (nccl#713), NVSwitch 24 collective and 32
// peer-to-peer channels per peer (nccl#1781). Not counted: tree connections, NVLS buffers, the proxy's host memory.

#include "gpuspec.h"
#include "trainingconfig.h"

namespace headroom {

inline constexpr double kNcclConnectionBytes = 10.0 * 1024 * 1024; // 9,633,792 B of FIFOs rounded to 2 MiB

struct NcclMemory {
    double bytes = 0.0;
    int communicators = 0; // groups of more than one rank this rank belongs to
    int channels = 0;      // ring channels per communicator
    int peerChannels = 0;  // peer-to-peer channels per peer (expert all-to-all)
    int connections = 0;   // buffers of kNcclConnectionBytes in all
};

// One rank's communicators under Megatron's layout: data-parallel gradients (dp x cp ranks), tensor-parallel,
// context-parallel, pipeline neighbours and the expert all-to-all, each that has more than one rank. `channels`
// overrides the ring channel count (NCCL_MAX_NCHANNELS); 0 takes the link's.
NcclMemory ncclMemory(const GpuSpec& gpu, const TrainingConfig& config);

} // namespace headroom
