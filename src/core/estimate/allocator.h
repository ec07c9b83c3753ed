#pragma once

// What PyTorch would report for the step: torch.cuda.max_memory_allocated and max_memory_reserved, from its CUDA
// caching allocator replayed over the schedule's allocations and frees (c10/cuda/CUDACachingAllocator.cpp, see
// docs/formulas.md section 3.2a), and what the device needs besides: the CUDA context.
//
// The rules replayed, each a constant of the allocator:
//   * a request is rounded up to a multiple of 512 bytes (kMinBlockSize);
//   * requests of up to 1 MiB (kSmallSize) come from the small pool, whose segments are 2 MiB (kSmallBuffer); larger
//     ones from the large pool, whose segments are 20 MiB (kLargeBuffer) below 10 MiB (kMinLargeAlloc) and the
//     request rounded up to 2 MiB (kRoundLarge) from there;
//   * a request takes the smallest cached free block that holds it (the lowest address among equals) and splits
//     it when what is left is at least 512 bytes (small pool, or expandable segments) or more than 1 MiB (large
//     pool): a remainder too small to split stays allocated with it, and counts in memory_allocated;
//   * a freed block merges with free neighbours of its segment; segments are returned to the driver only when
//     cudaMalloc fails, and then only those wholly free (release_cached_blocks), before trying again;
//   * with expandable_segments, each pool is one segment that grows by its segment size, so that reserved memory
//     is the pool's high-water mark rounded up, not a sum of segments that fragments.
// The state carries over from one step to the next, as in a training loop: the figures are the highest of three (a
// step that leaves the allocator in the state the step before left it is followed by the same step, so the replay
// stops there with the same figures).

#include "trainingconfig.h"
#include "types.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace headroom {

struct Graph;
struct GpuSpec;
struct ModelSpec;
struct Schedule;
struct TrainingConfig;

struct AllocatorSettings {
    bool expandableSegments = false; // PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
    // Per cuBLAS handle, through the caching allocator at the handle's first matmul (CublasHandlePool.cpp: one
    // workspace per (handle, stream)).
    double cublasWorkspaceBytes = 0.0;
    // cuBLASLt's own per handle, CUBLASLT_WORKSPACE_SIZE = 1024 KiB by default; 0 where Lt shares the cuBLAS one
    // (torch 2.11 on: cublasLtWorkspaceBytesFor).
    double cublasLtWorkspaceBytes = 1024.0 * 1024;
    int cublasHandles = 1;      // threads that run matmuls, each with its own handle (kTrainingCublasHandles)
    double capacityBytes = 0.0; // the GPU's memory: near it, cached free segments are released; 0: no limit
    double ncclBytes = 0.0;     // NCCL's own buffers (ncclmemory.h): device memory the allocator cannot have
    int ncclCommunicators = 0;
};

// The model states and other tensors alive for the whole step, one allocation each: each parameter, gradient and
// optimizer state is its own tensor.
struct ResidentTensors {
    std::vector<double> bytes;
    // The optimizer's states, which torch.optim creates in the first step() (adamw.py `_init_group`: zeros_like each
    // parameter), after the first forward and backward passes; empty where the states are made up front with `bytes`
    // (DeepSpeed's flat partitions, when the engine is built).
    std::vector<double> atFirstStep;
};

// The caching allocator's figures at the end of a phase of the step, and their highest during it.
struct PhaseMemory {
    double allocatedBytes = 0.0;     // torch.cuda.memory_allocated
    double reservedBytes = 0.0;      // torch.cuda.memory_reserved
    double peakAllocatedBytes = 0.0; // max_memory_allocated since the phase began
    double peakReservedBytes = 0.0;  // max_memory_reserved
};

struct AllocatorEstimate {
    bool computed = false;
    double requestedPeakBytes = 0.0;   // the schedule's own peak: tensor sizes as requested
    double peakAllocatedBytes = 0.0;   // max_memory_allocated: blocks as the allocator sizes them, workspace included
    double peakReservedBytes = 0.0;    // max_memory_reserved: the segments obtained from cudaMalloc
    double cublasWorkspaceBytes = 0.0; // cuBLAS's and cuBLASLt's, every handle's
    double cudnnWorkspaceBytes = 0.0;  // per convolution call, a block of the schedule's (lowering.cpp); for the result
    int convolutionSteps = 0;          // steps of one training step that take it
    double contextBytes = 0.0;         // the CUDA context and kernels: the framework overhead less the workspace
    double ncclBytes = 0.0;            // NCCL communicator buffers, outside the caching allocator (ncclmemory.h)
    int ncclCommunicators = 0;
    double deviceBytes = 0.0; // reserved + context + NCCL: what a failing cudaMalloc, an OOM, is decided by
    int segments = 0;         // at the reserved peak
    bool outOfMemory = false; // cudaMalloc failed even after the cached free segments were released
    // A request past 2^44 B (16 TiB) was replayed at that size, to keep the sums inside 64 bits: it fails under any
    // GPU's memory, and the figures below are lower bounds.
    bool sizesHeld = false;
    int failedPhase = -1; // the Phase of the first cudaMalloc that failed so (-1: none): where the step stops
    bool expandableSegments = false;
    double capacityBytes = 0.0; // the GPU's memory the replay ran under (AllocatorSettings::capacityBytes)
    // The last replayed step's forward pass, backward pass and optimizer step (by Phase), each to its end: what
    // headroom-probe reads after each (.headroom-measured.json's memory.after_forward, ...).
    std::array<PhaseMemory, 3> phases {};

    // The step completes: no cudaMalloc failed after the retry, and what the device holds is within its memory. The
    // one out-of-memory rule; the verdict, the searches, the fixes, the report and the window read it.
    bool fits() const { return computed && !outOfMemory && (capacityBytes <= 0.0 || deviceBytes <= capacityBytes); }
    // What the device holds at a phase's peak: the segments reserved by then (a step's later phases keep what the
    // earlier ones reserved), the context and NCCL's buffers; 0 before the replay ran.
    double phaseDeviceBytes(Phase phase) const
    {
        return computed ? phases[std::size_t(phase)].peakReservedBytes + contextBytes + ncclBytes : 0.0;
    }
};

// Which rule answered "does it fit?": the simulated peak against the capacity (when the replay has not run), or the
// caching allocator replayed under the capacity (docs/formulas.md section 3.2b).
enum class FitRule : std::uint8_t { Peak, Allocator };

struct FitVerdict {
    bool fits = false;
    FitRule decidedBy = FitRule::Peak;
    double neededBytes = 0.0;   // the peak with the overhead, or reserved + context + NCCL from the replay
    double capacityBytes = 0.0; // the GPU's memory
    double freeBytes() const { return capacityBytes - neededBytes; } // negative: over
};

// The one answer to "does it fit?". A peak over the capacity does not fit (the replay holds at least the peak's
// bytes); under it, the replay decides when it ran: fits when it completes (AllocatorEstimate::fits). What the step
// needs is the replay's reserved + context + NCCL whenever it ran (over the capacity too: the verdict's "over" is then
// the PyTorch line's, not the peak's). Without a replay (the window before its worker answers, the planner's first
// pass) the peak decides and says so.
FitVerdict fitVerdict(double peakBytes, double capacityBytes, const AllocatorEstimate& replay);

// Replays three steps of `schedule` at `microBatch`, after allocating `residents`. A schedule lowered with repeated
// blocks (GraphLayers::RepeatIdentical) is replayed as the real model runs it, every run of them.
AllocatorEstimate replayCachingAllocator(const Schedule& schedule, const ResidentTensors& residents, double microBatch,
                                         const AllocatorSettings& settings, double overheadBytes);

// The graph and its lowering of the last replayStep, kept for the next one that shares them: the planner replays
// every ZeRO stage and micro-batch of a layout, which share the graph and mostly the lowering (scheduleKey). One
// cache serves one catalog and one thread at a time.
class ReplayCache {
public:
    ReplayCache();
    ~ReplayCache();
    ReplayCache(const ReplayCache&) = delete;
    ReplayCache& operator=(const ReplayCache&) = delete;
    void clear();

private:
    friend AllocatorEstimate replayStep(const ModelSpec&, const GpuSpec&, const TrainingConfig&, double, double,
                                        ReplayCache*);
    struct Entry;
    std::unique_ptr<Entry> m_entry;
};

// The step lowered (one block of each run of identical ones) and replayed under the GPU's memory `capacityBytes`, with
// the configuration's allocator settings (expandable segments, cuBLAS workspace) and NCCL's buffers (fitsearch.cpp).
AllocatorEstimate replayStep(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                             double overheadBytes, double capacityBytes, ReplayCache* cache = nullptr);
// The largest micro-batch whose replay completes, at most `linearBest` (maxMicroBatch, the peak's answer: the replay
// needs at least the peak): from it, down only while the replay fails (down by 1, 2, 4, ..., then bisected), and never
// below `fitsAt`, a micro-batch whose replay is known to complete (the current one, when it fits: fragmentation makes
// the replay's answer not monotonic, and the largest is then at least the one that fits; it is the answer, with no
// lowering, where the peak's is no larger).
std::int64_t replayMaxMicroBatch(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                                 double overheadBytes, double capacityBytes, std::int64_t linearBest,
                                 std::int64_t fitsAt = 0);
// What the device holds (AllocatorEstimate::deviceBytes: reserved + context + NCCL) at each of `microBatches`, the
// step replayed under `capacityBytes` as the verdict replays it (under pressure the allocator returns its cached
// segments, so near the capacity it holds less than with no limit: the QLoRA example at micro-batch 12, 11.97 GiB
// against 12.6): the allocator's curve beside the peak's against micro-batch, the verdict's figure at each batch,
// which the "largest that fits" is read from. One lowering, one replay a micro-batch.
std::vector<double> replayDeviceBytes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                                      double overheadBytes, double capacityBytes, std::span<const double> microBatches);
// The same for the sequence length (in the model's steps of it: 1 token, a patch side, 32 pixels for a CNN).
std::int64_t replayMaxSequence(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                               double overheadBytes, double capacityBytes, std::int64_t linearBest,
                               std::int64_t fitsAt = 0);

// One tensor per parameter for the weights, and one per state for each trainable parameter's optimizer states
// (two for the Adam family), scaled to the schedule's totals; a flat shard each under ZeRO over several ranks
// (DeepSpeed partitions flattened buffers). Gradients kept through the step, FP8 weight copies and the input batch
// are one tensor each.
ResidentTensors residentTensors(const Graph& graph, const Schedule& schedule, const TrainingConfig& config);

// The cuBLAS workspace PyTorch allocates through the caching allocator for each (handle, stream), by default
// (CUBLAS_WORKSPACE_CONFIG unset; aten/src/ATen/cuda/CublasHandlePool.cpp): 4096 KiB x 8 on compute capability 9.0
// and newer, 4096 KiB x 2 + 16 KiB x 8 before.
double defaultCublasWorkspaceBytes(const GpuSpec& gpu);
// A training step runs matmuls on two threads, each with its own cuBLAS handle and so its own workspaces
// (CublasHandlePool.cpp: one per (handle, stream)): the Python thread (forward, optimizer) and autograd's thread for
// the device (torch/csrc/autograd/engine.cpp, the backward pass and its recomputation). The GPU's framework overhead
// holds both.
inline constexpr int kTrainingCublasHandles = 2;
// What the scenario's CUBLAS_WORKSPACE_CONFIG adds to the framework overhead over the GPU's default: the difference
// in each handle's workspace; 0 without one.
double cublasWorkspaceChangeBytes(const GpuSpec& gpu, const TrainingConfig& config);
// CUBLAS_WORKSPACE_CONFIG as PyTorch reads it (parseChosenWorkspaceSize): every ":SIZE:COUNT" pair adds COUNT
// buffers of SIZE KiB (":4096:8" is 32 MiB). Nothing if no pair parses.
std::optional<double> cublasWorkspaceConfigBytes(std::string_view config);
// cuBLASLt's workspace per handle under a torch release: its own 1 MiB, or none from 2.11, where cuBLASLt uses the
// handle's cuBLAS workspace unless TORCH_CUBLASLT_UNIFIED_WORKSPACE=0 (pytorch/pytorch#168175).
double cublasLtWorkspaceBytesFor(TorchVersion torch);

// The caching allocator's own arithmetic, for tests and the Explain panel.
double allocatorRoundedSize(double bytes); // round_size
double allocatorSegmentSize(double bytes); // get_allocation_size
bool allocatorSmallPool(double roundedBytes);

} // namespace headroom
