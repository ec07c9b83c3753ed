#pragma once

// What the Explain panel says about a memory category, as data: the closed form with the values plugged in, what
// the simulation found beside it, and the operators that hold the bytes. The window only formats this.

#include "memoryterm.h"
#include "sdpa.h"
#include "simulate.h"

#include <string>
#include <string_view>
#include <vector>

namespace headroom {

struct Contributor {
    std::string_view label; // the operator that allocated the bytes ("attn.qkv"), summed over layers
    bool gradient = false;  // allocated in that operator's backward
    double bytes = 0.0;
};

// Blocks of category `c` alive during `step` (an index of the real model's steps, Schedule::locate), summed by
// the operator that allocated them over every block of the model, largest first.
std::vector<Contributor> contributors(const Schedule& schedule, MemoryCategory c, std::int32_t step, double batch,
                                      std::size_t limit = 8);

struct CategoryExplanation {
    enum class Note : std::uint8_t {
        None,
        DdpBuckets,         // gradients: DistributedDataParallel's buckets hold a second copy
        OffloadedGradients, // gradients: ZeRO-Offload moves the partitions to the host
        GatheredCasts,      // weight copies: ZeRO-3 shards the FP32 weights, autocast keeps every gathered cast
        OffloadedStates,    // optimizer states: on the host (optimizer offload)
        PagedStates,        // optimizer states: in unified memory (paged optimizers), outside the GPU's peak
    };

    MemoryCategory category = MemoryCategory::Weights;
    double bytes = 0.0; // the simulated size (Estimate::components), or the bytes at the peak for transient

    // The figure as a sum of products (memoryterm.h): parameters by role and dtype (NF4 with its quantisation
    // constants, INT8, FP8, BF16, FP32), gradients, master weights and optimizer states, autocast's casts, the
    // operators that hold activations and transient bytes, the overheads. Each term's bytes() is count x factor x bytes
    // per element ÷ ranks, and the terms add up to `bytes` (tst_explainformulas checks every combination).
    std::vector<MemoryTerm> terms;
    double parameters = 0.0; // this GPU's share under tensor parallelism
    int ranks = 1;
    bool sharded = false;
    Note note = Note::None;

    // Activations of an eager-attention transformer: Korthikanti et al. 2022, Table 2, sbh(34 + 5as/h) x L, shown
    // for comparison with the simulated bytes (it assumes 16-bit activations and 1-byte dropout masks).
    bool hasKorthikanti = false;
    double korthikantiBytes = 0.0;

    // Activations of a transformer under fused attention: the kernel SDPA runs and why (sdpa.h).
    bool hasSdpa = false;
    SdpaKernel sdpaKernel = SdpaKernel::Flash;
    SdpaChoice sdpaChoice; // the kernels refused before it, each by its rule: the window words them (sdpaReason)
    SdpaCall sdpaCall;
    std::string torch; // the release the choice is PyTorch's in ("2.11")

    // Transient: the training loop, and the model's output it keeps through backward under KeepOutputs.
    TrainingLoop loop = TrainingLoop::KeepOutputs;
    double outputBytes = 0.0;

    double overheadBytes = 0.0;            // overhead: the framework figure used
    double reserveFraction = 0.0;          // overhead: the allocator reserve
    std::vector<Contributor> contributors; // activations (end of forward) and transient (at the peak), largest first
};

CategoryExplanation explainCategory(const SimulationResult& result, MemoryCategory c);

} // namespace headroom
