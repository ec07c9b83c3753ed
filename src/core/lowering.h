#pragma once

// Lowers a forward graph to the whole training step as the PyTorch autograd engine runs it: the forward pass,
// then for each operator in reverse order its backward (preceded by the recomputation of a checkpointed region),
// then the optimizer step. Liveness analysis gives every block of memory an allocation and a last use, so that
// walking the steps yields the memory timeline. Sizes stay linear in the micro-batch.

#include "graph.h"
#include "optimizer.h"
#include "trainingconfig.h"

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
    OpKind kind = OpKind::Elementwise;
    MathUnit unit = MathUnit::Fp32Vector;
    std::int16_t layer = -1;
    std::int32_t op = -1; // forward operator, -1 for the optimizer
    std::string_view label;
    OpCost cost;
    int kernels = 1;
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
    Linear modelFlops; // dense matmul FLOPs of forward + backward per micro-batch (3x forward)
    double parameters = 0.0;
    double trainableParameters = 0.0; // those with requires_grad (PEFT get_nb_trainable_parameters)
    double tokensPerSample = 1.0;
    DType gradientType = DType::F32;
    OptimizerFootprint optimizer;
    double commBytesPerMicroBatch = 0.0; // per rank, collectives that run every micro-batch
    double commBytesPerStep = 0.0;       // per rank, collectives that run once per optimizer step
    double offloadBytesPerStep = 0.0;    // host <-> device traffic of optimizer offload
    double hostBytes = 0.0;              // per rank, optimizer state kept in host memory (offloaded or paged)
    double offloadParameters = 0.0;      // parameters the CPU optimizer updates
    int layers = 0;
};

Schedule lowerTrainingStep(const Graph& graph, const TrainingConfig& config);
// Lowers into an existing schedule, reusing its memory.
void lowerTrainingStep(const Graph& graph, const TrainingConfig& config, Schedule& out);

} // namespace headroom
