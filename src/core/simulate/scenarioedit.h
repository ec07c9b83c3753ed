#pragma once

// One edit of a scenario, as a control of the window makes it, and the rules that go with it: a new model starts at
// its own sequence length and keeps only the fine-tuning and parallel settings it accepts, a new GPU starts from its
// datasheet, the overhead shown (context and cuBLAS workspace) is stored as the GPU's figure it stands for. The
// window sends the edit; it holds no rule of its own. The values each parallel control offers live here too, so
// that the control and the rules agree on them.

#include "catalog.h"
#include "scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace headroom {

enum class Control : std::uint8_t {
    Gpu,               // the GPU's id
    Model,             // the model's id
    MicroBatch,        // samples per micro-batch
    SequenceLength,    // tokens, or the image side in pixels
    Accumulation,      // gradient accumulation steps
    Precision,         // Precision
    MixedStyle,        // MixedPrecisionStyle
    Optimizer,         // OptimizerKind
    Checkpointing,     // Checkpointing
    Attention,         // AttentionImpl
    Loop,              // TrainingLoop
    ZeroStage,         // 0..3
    DataParallel,      // data-parallel GPUs
    OptimizerOffload,  // ZeRO-Offload of the optimizer states
    ChannelsLast,      // NHWC convolutions
    MemoryOverride,    // what-if capacity in bytes, or none
    BandwidthOverride, // what-if bandwidth in bytes per second, or none
    PeakOverride,      // what-if peak in FLOP/s, or none
    Overhead,          // the framework overhead as shown: frameworkOverheadBytes, with the cuBLAS workspace
    FinetuneMethod,    // FinetuneMethod
    LoraRank,          // r
    LoraTargets,       // "" for PEFT's default, or "all-linear"
    LoraDropout,       // 0..1
    FrozenLayers,      // blocks frozen from the input side, -1 for all
    TensorParallel,    // t
    PipelineParallel,  // p
    PipelineSchedule,  // PipelineSchedule; with Interleaved, virtualStages from the value's high bits (scheduleValue)
    ExpertParallel,    // ep
    ContextParallel,   // cp
    SequenceParallel,  // with t > 1
    GpusPerNode,       // 0: every GPU on one node
    IntraLink,         // LinkKind
    InterLink,         // LinkKind
    ExpandableSegments,
    CudnnWorkspace, // bytes
    HostSpeed,      // relative CPU speed
    CudaGraphs,     // the step replayed as a CUDA graph
    StageSplit,     // blocks on the first and last pipeline stage (stageSplitValue), 0 for an even split
};
inline constexpr int kControlCount = int(Control::StageSplit) + 1;

// The new value: an integer for counts, sizes and enums; a number for bytes and fractions; a flag; an id; or an
// optional number (a what-if that may be off).
using EditValue = std::variant<std::int64_t, double, bool, std::string, std::optional<double>>;

struct ScenarioEdit {
    Control control = Control::MicroBatch;
    EditValue value = std::int64_t(0);
};

// The note a what-if made in the window carries (the window shows it translated).
inline constexpr const char* kWindowOverrideNote = "What-if set in the window";

// The scenario after the edit, with the rules above applied. A value of the wrong kind for its control, or an id
// the catalog lacks, returns an error naming the control and leaves nothing changed.
Expected<Scenario> applyEdit(const Scenario& scenario, const ScenarioEdit& edit, const Catalog& catalog);

// The pipeline schedule and its virtual stages as one integer (the PipelineSchedule control's value).
std::int64_t scheduleValue(const TrainingConfig& config);
// The blocks of the first and last pipeline stage as one integer (the StageSplit control's value): first | last << 16;
// setStageSplit reads it back.
std::int64_t stageSplitValue(const TrainingConfig& config);
void setStageSplit(TrainingConfig& config, std::int64_t value);

// What the parallel controls offer for this model and configuration, 1 (or 1F1B and GPipe) first; the rules above
// keep a value only while it is among them.
std::vector<int> tensorParallelChoices(const ModelSpec* model, const TrainingConfig& config);
std::vector<int> pipelineChoices(const ModelSpec* model, const TrainingConfig& config);
std::vector<std::int64_t> scheduleChoices(const ModelSpec* model, const TrainingConfig& config);
std::vector<int> expertChoices(const ModelSpec* model, const TrainingConfig& config);
std::vector<int> contextChoices(const ModelSpec* model, const TrainingConfig& config);
// The even split (0) first, then Megatron's uneven stages that relieve the first and last (unevenStageSplits), for
// a pipeline that is not interleaved.
std::vector<std::int64_t> stageSplitChoices(const ModelSpec* model, const TrainingConfig& config);

std::string_view toString(Control c); // "micro-batch", ...: for messages

} // namespace headroom
