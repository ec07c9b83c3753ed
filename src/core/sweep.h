#pragma once

// What-if answers built on the schedule: the breakdown at the peak for many micro-batches at once (the chart of
// memory against batch size), and the cheapest changes that make a configuration fit.

#include "estimate.h"

#include <span>
#include <vector>

namespace headroom {

struct SweepPoint {
    double batch = 0.0;
    double peakBytes = 0.0;
    CategoryBytes atPeak {}; // overhead included
    std::int32_t peakStep = -1;
};

// Memory at each step is a line in the micro-batch, so the peak is their upper envelope. Steps that are the
// maximum at both ends of an interval of batches are the maximum everywhere in it, which keeps this to a few
// passes over the steps however many batches are asked for.
std::vector<SweepPoint> batchSweep(const Schedule& schedule, std::span<const double> batches, double overheadBytes,
                                   double reserveFraction);

enum class FixKind : std::uint8_t {
    FusedAttention,
    SelectiveCheckpointing,
    FullCheckpointing,
    MixedPrecision,
    EightBitOptimizer,
    ZeroStage,
    OptimizerOffload,
    SmallerMicroBatch,
};

struct Fix {
    FixKind kind = FixKind::FullCheckpointing;
    TrainingConfig config;       // the configuration with the change applied
    double peakBytes = 0.0;
    double savedBytes = 0.0;     // current peak minus this peak
    bool fits = false;
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;
};

// Single changes that lower the peak, the ones that make the step fit first, then by their cost in throughput.
std::vector<Fix> suggestFixes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                              const GpuOverrides& overrides, const Estimate& current);

} // namespace headroom
