#pragma once

// A measurement of one training step on real hardware (.headroom-measured.json, written by tools/probe/headroom-probe;
// docs/formats.md), and how it compares with the simulator's prediction for the same scenario.

#include "devicename.h"
#include "error.h"
#include "simulate.h"
#include "trainingconfig.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace headroom {

struct MeasuredMemory {
    std::optional<double> allocatedBytes; // torch.cuda.memory_allocated; absent on CPU
    std::optional<double> reservedBytes;  // torch.cuda.memory_reserved
    // The highest of each during the phase (probe 0.2.2; older files have none).
    std::optional<double> peakAllocatedBytes;
    std::optional<double> peakReservedBytes;
};

// Time components of a step (the probe's "timing" object; files written before it have none, and each figure may be
// null where the probe could not measure it).
struct MeasuredTiming {
    std::optional<double> hostSeconds;    // CPU time of the Python thread while it issued a step (median)
    std::optional<double> issueSeconds;   // wall time until the step's work was issued, before the closing sync
    std::optional<double> kernels;        // GPU kernels of one profiled step (torch.profiler); on a CPU, ATen operators
    std::optional<double> gpuBusySeconds; // sum of those kernels' durations (CUDA only)
    std::optional<double> atenOps;        // ATen operators the host issued in one step, views included
};

struct Measured {
    // The scenario it ran.
    std::string modelId;
    std::int64_t microBatch = 1;
    std::int64_t sequenceLength = 1;
    Precision precision = Precision::FP32;
    Checkpointing checkpointing = Checkpointing::None;
    AttentionImpl attention = AttentionImpl::Eager;
    OptimizerKind optimizer = OptimizerKind::AdamW;
    AdamImpl adamImpl = AdamImpl::Foreach;
    // headroom-probe's loop: it dropped the outputs after the loss until it had --loop (all files before it).
    TrainingLoop loop = TrainingLoop::DropOutputs;
    FinetuneConfig finetune; // probe 0.2.3's --finetune; full for every file before

    // Where and with what.
    std::string deviceType; // "cpu" or "cuda"
    std::string deviceName;
    std::optional<double> deviceMemoryBytes;
    std::string torchVersion;
    std::string transformersVersion; // or "hf_reference transcription"
    std::string torchvisionVersion;  // for a model torchvision built
    std::string implementation;
    std::string timestamp;
    // What it measured (the last of `steps` steps).
    double parameters = 0.0;
    std::int64_t steps = 1;
    MeasuredMemory afterForward, afterBackward, afterOptimizerStep;
    std::optional<double> peakAllocatedBytes; // torch.cuda.max_memory_allocated over the measured step
    std::optional<double> peakReservedBytes;  // torch.cuda.max_memory_reserved
    double savedActivationBytes = 0.0;        // saved_tensors_hooks, by storage, without parameters and inputs
    double stepSeconds = 0.0;                 // median of the steps after the first
    MeasuredTiming timing;
};

Expected<Measured> parseMeasured(std::string_view jsonText, std::string_view origin);

// A measurement on a CPU: its saved tensors follow the CPU kernels' dtypes (KernelBackend::Cpu), and its step time
// is not comparable with a GPU's.
bool measuredOnCpu(const Measured& m);

// The GPU files a GPU measurement's device may be (devicename.h: its name and memory); none for a CPU measurement.
DeviceMatch measuredDevice(const Catalog& catalog, const Measured& m);

// The measured file's scenario into a configuration (the fields it has; the rest stay as `c` has them), and the
// kernels whose saved dtypes it measured (measuredOnCpu).
void applyMeasuredScenario(const Measured& m, TrainingConfig& c);
// Of those, the PyTorch and transformers releases it ran, which an estimate of the measured scenario takes also when
// the scenario comes from options (the rules that depend on them: sdpa.h, the key/value cache, the workspaces).
void applyMeasuredReleases(const Measured& m, TrainingConfig& c);
// The transformers release a measurement ran: its software.transformers, or, for the probe's CPU runs of the
// tools/hf_reference transcriptions, the release they transcribe; none when the file does not say.
std::optional<Release> measuredTransformers(const Measured& m);
// Refuses an estimate of another scenario: names the first field (scenario.model, scenario.micro_batch,
// scenario.sequence_length, scenario.precision) that differs.
std::optional<Error> checkMeasuredScenario(const Measured& m, const std::string& modelId, const TrainingConfig& c,
                                           std::string_view origin);

// Predicted minus measured, and that over measured. A figure the file lacks has no row.
struct MeasuredDifference {
    double predicted = 0.0;
    double measured = 0.0;
    double difference() const { return predicted - measured; }
    double relative() const { return measured != 0.0 ? difference() / measured : 0.0; }
};
struct MeasuredComparison {
    std::optional<MeasuredDifference> peakAllocated; // vs the allocator replay's, else the peak less the overhead
    std::optional<MeasuredDifference> peakReserved;  // vs the allocator replay's (allocator.h), else the same
    // vs the Activations component and the weight casts autograd saves (Estimate::savedWeightCopyBytes), which the
    // probe's pack hook counts: they are not parameters' storages.
    MeasuredDifference savedActivations;
    double savedWeightCopies = 0.0; // of savedActivations.predicted
    MeasuredDifference stepSeconds; // vs the predicted step time
    // Each phase's end (after_forward, after_backward, after_optimizer_step, by Phase) against the replay's
    // (AllocatorEstimate::phases), where both have it: allocated and reserved, and the phase's peaks (probe 0.2.2).
    struct Phase {
        std::optional<MeasuredDifference> allocated, reserved, peakAllocated, peakReserved;
    };
    std::array<Phase, 3> phases {};
};
MeasuredComparison compareMeasured(const Estimate& e, const Measured& m, const AllocatorEstimate& allocator = {});

// resultToJson with "measured" and "measured_difference" added; the table with a "Measured" line.
std::string resultWithMeasuredToJson(const SimulationResult& r, const Measured& m, bool timeline);
std::string measuredToTable(const Estimate& e, const Measured& m, const AllocatorEstimate& allocator = {});

} // namespace headroom
