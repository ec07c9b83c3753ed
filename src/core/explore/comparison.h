#pragma once

// One model and training setting across several GPUs: "which card do I need, and how long would an epoch take?".
// Every row is the scenario's configuration on that GPU at the GPU file's own figures: no what-if overrides, and
// the GPU's own framework overhead (a custom overhead typed for one GPU says nothing about another).

#include "catalog.h"
#include "estimate.h"
#include "simulate.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headroom {

struct GpuComparisonRow {
    const GpuSpec* gpu = nullptr;
    double capacityBytes = 0.0; // GpuSpec::memoryBytes(): the driver-reported total where known
    double peakBytes = 0.0;     // at the scenario's micro-batch
    // What the verdict counts there (FitVerdict::neededBytes: the replay's reserved + context).
    double neededBytes = 0.0;
    double headroomBytes = 0.0; // the verdict's free bytes (FitVerdict::freeBytes); negative when it does not fit
    bool fits = false;
    std::int64_t maxMicroBatch = 0; // by the allocator replay, as the verdict's; 0 when even one sample does not fit

    // Time, as Estimate counts it: one optimizer step is `gradientAccumulation` forward + backward passes of the
    // micro-batch, one optimizer update and the exposed data-parallel communication. Computed even when the step
    // does not fit (as if the memory were there); `fits` says whether it can run.
    double stepSeconds = 0.0;
    std::int64_t samplesPerStep = 0; // microBatch x gradientAccumulation x dataParallel, whole job
    double samplesPerSecond = 0.0;   // whole data-parallel job
    double tokensPerSecond = 0.0;    // Estimate::throughputPerSecond (images/s for vision models)
    double mfu = 0.0;

    // An epoch is ceil(datasetSamples / samplesPerStep) optimizer steps. The last, partial step is charged as a
    // full one (a DataLoader without drop_last runs it with fewer samples), so this over-estimates by less than one
    // step.
    std::int64_t stepsPerEpoch = 0;
    double epochSeconds = 0.0; // stepsPerEpoch x stepSeconds
};

// Optimizer steps one epoch of `datasetSamples` takes: ceil(datasetSamples / samplesPerStep); 0 for an empty data set.
std::int64_t stepsPerEpoch(double datasetSamples, std::int64_t samplesPerStep);

// One row per GPU of `catalog`, in the order given (null pointers, and GPUs that are not the catalog's entry for their
// id, are skipped): simulate() of the scenario on each GPU at its own figures, through one SimulationCache, so the
// schedule is lowered once and walked per GPU (a few tens of microseconds each).
std::vector<GpuComparisonRow> compareGpus(const Catalog& catalog, const Scenario& scenario,
                                          const std::vector<const GpuSpec*>& gpus, double datasetSamples);

// Serving the same model with the same weights and KV cache on another GPU: "which card answers fastest, and with
// how many users?". Decode is bandwidth-bound, so tokens per second follow the memory bandwidth.
struct ServingComparisonRow {
    const GpuSpec* gpu = nullptr;
    double capacityBytes = 0.0;
    double peakBytes = 0.0;
    bool fits = false;
    std::int64_t maxBatch = 0;   // at the scenario's prompt and generation length
    std::int64_t maxContext = 0; // prompt + generated tokens at the scenario's batch
    double prefillSeconds = 0.0;
    double decodeSecondsPerToken = 0.0;
    double tokensPerSecond = 0.0; // decode, the whole batch
};

// One row per GPU, as compareGpus(): each GPU at its own figures (no what-if overrides); GPUs the scenario cannot
// run on (an error from simulateInference) are left out.
std::vector<ServingComparisonRow> compareGpusServing(const Catalog& catalog, const InferenceScenario& scenario,
                                                     const std::vector<const GpuSpec*>& gpus);

// The GPUs of the explainer that inspired Headroom: the RTX A3000 12 GB laptop GPU, RTX 3090, A100 and H100.
const std::vector<std::string>& explainerGpuIds();
// The GPUs to compare by default: the explainer's four that the catalog has, then `currentGpuId` if it is not one of
// them (and the catalog has it).
std::vector<std::string> defaultComparisonGpuIds(const Catalog& catalog, const std::string& currentGpuId);

} // namespace headroom
