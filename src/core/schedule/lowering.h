#pragma once

// Lowers a forward graph to the whole training step as the PyTorch autograd engine runs it: the forward pass,
// then for each operator in reverse order its backward (preceded by the recomputation of a checkpointed region),
// then the optimizer step. Liveness analysis gives every block of memory an allocation and a last use, so that
// walking the steps yields the memory timeline. Sizes stay linear in the micro-batch.

#include "graph.h"
#include "optimizer.h"
#include "trainingconfig.h"

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

struct MemoryBlock {
    Linear bytes;
    MemoryCategory category = MemoryCategory::Transient;
    std::int32_t alloc = -1;   // step that allocates it (-1: resident for the whole step)
    std::int32_t lastUse = -1; // freed after this step
};

struct Step {
    Phase phase = Phase::Forward;
    bool recompute = false;
    bool convolution = false;       // GraphOp::convolution
    bool winograd = false;          // GraphOp::winograd
    std::uint8_t alignBytes = 16;   // GraphOp::alignBytes
    std::uint8_t accumulations = 0; // gradients the engine sums at this step, a kernel each (among `kernels`)
    SlowBatchNorm slowBatchNorm = SlowBatchNorm::None; // GraphOp::slowBatchNorm
    LoopKind loop = LoopKind::Vectorized; // an elementwise step's kernel (graph.h LoopKind; lowering.cpp loopKind)
    OpKind kind = OpKind::Elementwise;
    MathUnit unit = MathUnit::Fp32Vector;
    std::int16_t layer = -1;
    std::int32_t op = -1; // forward operator, -1 for the optimizer
    std::string_view label;
    OpCost cost;
    Linear layoutBytes;       // GraphOp::forwardLayoutBytes or backwardLayoutBytes
    Linear columnReduceBytes; // GraphOp::columnReduceBytes, in backward: a kernel of its own
    Linear stridedBytes;      // GraphOp::forwardStridedBytes or backwardStridedBytes
    float efficiency = 0.0f;  // GraphOp::forwardEfficiency or backwardEfficiency (0: the kind's)
    float work = 1.0f;        // GraphOp::forwardWork or backwardWork
    int kernels = 1;
    int hostOps = 1;              // operators the host dispatches for it (timemodel.h HostModel)
    std::int32_t eventsBegin = 0; // allocations, then frees, in Schedule::events
    std::int32_t allocCount = 0;
    std::int32_t freeCount = 0;
};

// Steps that share an operator label, phase and kind ("attn.qkv" backward in every layer) form a group: one dot
// of the per-operator roofline.
struct StepGroup {
    std::string_view label;
    Phase phase = Phase::Forward;
    OpKind kind = OpKind::Elementwise;
    MathUnit unit = MathUnit::Fp32Vector;
};

// Steps of a repeated block (Graph::repeat) stand for `count` runs of them, one block after another (forward:
// layers `layer`, `layer` + 1, ...; backward: the same blocks in reverse). The walk (schedulewalk.h) applies their
// allocations and frees once per run; a block allocated in them and freed elsewhere is freed once per run too,
// unless the next block (`carry`) frees it, as the next run would free its predecessor's.
struct StepRepeat {
    std::int32_t first = -1, last = -1; // steps, inclusive
    int count = 1;
    int layer = 0;                                     // real layer of the first run
    int layerStride = 1;                               // +1 forward, -1 backward
    int carry = -1;                                    // the layer whose steps follow the last run
    std::array<Linear, kMemoryCategoryCount> delta {}; // what one run leaves allocated, per category
    Linear deltaTotal;
    std::int32_t length() const { return last - first + 1; }
};

// A step of the real model: a schedule step and, in a repeated block, which run of it.
struct StepRun {
    std::int32_t step = -1;
    std::int32_t run = 0;
    std::int32_t repeat = -1; // index in Schedule::repeats, -1 outside them
};

struct Schedule {
    std::shared_ptr<const std::deque<std::string>> names; // keeps non-literal labels alive
    std::vector<MemoryBlock> blocks;
    std::vector<StepGroup> groups;
    std::vector<std::int32_t> stepGroup; // per step
    std::vector<std::int32_t> events;
    std::vector<Step> steps;
    std::array<Linear, kMemoryCategoryCount> resident {}; // alive for the whole step, per category
    std::int32_t forwardEnd = -1;                         // last forward step
    std::int32_t optimizerBegin = -1;                     // first optimizer step
    // Dense matmul FLOPs of forward + backward per micro-batch: 3x forward for what trains; a frozen weight's
    // matmul 2x (no weight gradient), 1x where nothing before it trains either (lowering.cpp modelPasses).
    Linear modelFlops;
    double parameters = 0.0;
    double activeParameters = 0.0;    // what one token computes with: a mixture of experts' chosen experts only
    double trainableParameters = 0.0; // those with requires_grad (PEFT get_nb_trainable_parameters)
    double parametersPerGpu = 0.0;    // this GPU's share under tensor parallelism (= parameters without it)
    double tokensPerSample = 1.0;
    DType gradientType = DType::F32;
    OptimizerFootprint optimizer;
    // The optimizer's temporary block when it is a list of tensors (OptimizerFootprint::tempPerTensor): one block in
    // the walk, each tensor's bytes in the allocator replay, which allocates them in turn and frees them together.
    std::int32_t optimizerTempBlock = -1;
    std::vector<double> optimizerTempTensors;
    double commBytesPerMicroBatch = 0.0; // per rank, collectives that run every micro-batch
    Linear tpCommBytesPerMicroBatch;     // per rank, tensor-parallel all-reduces of activations and their gradients
    double commBytesPerStep = 0.0;       // per rank, collectives that run once per optimizer step
    Linear epCommBytesPerMicroBatch;     // per rank, expert-parallel all-to-alls: dispatch and combine, both passes
    Linear cpCommBytesPerMicroBatch;     // per rank, the context-parallel ring of keys and values, both passes
    Linear pipelineBytesPerMicroBatch;   // per rank, pipeline sends: activations forward, their gradients backward
    // Collective calls, each paying NCCL's latency (links.h collectiveLatency): per micro-batch and per step.
    double tpCallsPerMicroBatch = 0.0;       // all-reduces (or all-gather + reduce-scatter pairs), both passes
    double epCallsPerMicroBatch = 0.0;       // all-to-alls, both passes
    double pipelineCallsPerMicroBatch = 0.0; // sends and receives of this stage
    double dpCallsPerMicroBatch = 0.0;       // ZeRO-2/3 buckets of 25 MiB (DDP's bucket_cap_mb)
    double dpCallsPerStep = 0.0;
    std::int32_t inFlightBlock = -1; // the block of the other micro-batches a pipeline stage holds, -1 if none
    Linear inFlightKept;             // what one other micro-batch in flight holds (the block is this x others)
    double inFlightOthers = 0.0;     // the other micro-batches in flight the schedule was lowered for
    Linear modelOutputBytes;         // the model's output (Graph::modelOutput), which TrainingLoop::KeepOutputs keeps
    // Autocast's cached weight casts that a forward operator outside a checkpointed region saves for backward: not
    // parameters' storages, so saved_tensors_hooks (headroom-probe's saved bytes) counts them with the activations.
    Linear savedWeightCopyBytes;
    double offloadBytesPerStep = 0.0; // host <-> device traffic of optimizer offload
    double hostBytes = 0.0;           // per rank, optimizer state kept in host memory (offloaded or paged)
    double offloadParameters = 0.0;   // parameters the CPU optimizer updates
    int layers = 0;
    std::vector<StepRepeat> repeats;     // in step order, not overlapping
    std::vector<std::int8_t> stepRepeat; // per step: its index in repeats, -1 outside them (empty when none)
    std::int64_t realSteps = 0;          // steps of the real model, every run counted

    // The step at an index of the real model's steps (0 .. realSteps-1), and back.
    StepRun locate(std::int64_t real) const;
    std::int64_t realIndex(const StepRun& at) const;
    int layerOf(const StepRun& at) const;
    // The repeat a step belongs to, -1 when none.
    std::int32_t repeatOf(std::int32_t step) const;
};

Schedule lowerTrainingStep(const Graph& graph, const TrainingConfig& config);

// The fields of a configuration that shape its lowered step: everything but the micro-batch (memory is linear in it,
// the schedule holds lines), the overheads and allocator settings added after the walk, and what sets the time only
// (links, host). Two configurations with equal keys lower to the same schedule.
TrainingConfig scheduleKey(const TrainingConfig& config);
// What the graph builders read of a configuration: a schedule key without the fields only the lowering takes (ZeRO
// partitions, the ranks it runs over, the micro-batches per step).
TrainingConfig graphShapingKey(TrainingConfig scheduleKey);
// A schedule key without the micro-batches a pipeline stage holds in flight (which only size one block): equal keys
// lower to schedules that retargetInFlight turns into one another.
TrainingConfig inFlightFreeKey(TrainingConfig scheduleKey);
// Makes `s` the lowering of `config` (the same stage, an equal inFlightFreeKey) by resizing its in-flight block;
// false when a block would have to appear or vanish, which needs lowering anew.
bool retargetInFlight(Schedule& s, const TrainingConfig& config);
// Moves the operators' steps and the repeated blocks of `s` by `shift` block indices (the optimizer's step stays): the
// lowering of a graph that sameUpToLayerShift (graph.h) finds to be the lowered one's with that shift.
void shiftLayers(Schedule& s, int shift);
// Lowers into an existing schedule, reusing its memory.
void lowerTrainingStep(const Graph& graph, const TrainingConfig& config, Schedule& out);

} // namespace headroom
