#include "comparison.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace headroom {

std::int64_t stepsPerEpoch(double datasetSamples, std::int64_t samplesPerStep)
{
    if (!(datasetSamples > 0.0) || samplesPerStep < 1)
        return 0;
    // Whole samples; integer division is exact where a double holds every integer (below 2^53).
    const double samples = std::ceil(datasetSamples);
    if (samples < 9.0e15)
        return (std::int64_t(samples) + samplesPerStep - 1) / samplesPerStep;
    return std::int64_t(std::ceil(samples / double(samplesPerStep)));
}

std::vector<GpuComparisonRow> compareGpus(const Catalog& catalog, const Scenario& scenario,
                                          const std::vector<const GpuSpec*>& gpus, double datasetSamples)
{
    std::vector<GpuComparisonRow> rows;
    rows.reserve(gpus.size());
    Scenario s = scenario;
    s.overrides = {};               // what-if figures belong to the GPU they were set for
    s.config.overheadBytes.reset(); // each GPU's own framework overhead
    SimulateOptions options;
    options.timeline = false;
    options.sweep = false;
    options.searches = false; // many rebuilds, and not shown here
    const TrainingConfig& config = s.config;
    const std::int64_t samplesPerStep = std::max<std::int64_t>(1, config.microBatch)
        * std::max(1, config.gradientAccumulation) * std::max(1, config.dataParallel);
    const std::int64_t steps = stepsPerEpoch(datasetSamples, samplesPerStep);
    SimulationCache cache;
    SimulationResult result;
    for (const GpuSpec* gpu : gpus) {
        if (!gpu || catalog.gpu(gpu->id) != gpu)
            continue;
        s.gpuId = gpu->id;
        if (simulate(catalog, s, options, &cache, result))
            continue;
        const Estimate& e = result.estimate;
        GpuComparisonRow r;
        r.gpu = gpu;
        r.capacityBytes = e.capacityBytes;
        r.peakBytes = e.peakBytes;
        // The one rule: the peak, then the caching allocator replayed; its free bytes, as the window's verdict's.
        const FitVerdict v = verdictOnDevice(result, &cache);
        r.fits = v.fits;
        r.neededBytes = v.neededBytes;
        r.headroomBytes = v.freeBytes();
        r.maxMicroBatch = largestMicroBatchOnDevice(result, r.fits); // the replay's, as the verdict's
        r.stepSeconds = e.stepSeconds;
        r.samplesPerStep = samplesPerStep;
        r.samplesPerSecond = e.stepSeconds > 0.0 ? double(samplesPerStep) / e.stepSeconds : 0.0;
        r.tokensPerSecond = e.throughputPerSecond;
        r.mfu = e.mfu;
        r.stepsPerEpoch = steps;
        r.epochSeconds = double(steps) * e.stepSeconds;
        rows.push_back(r);
    }
    return rows;
}

std::vector<ServingComparisonRow> compareGpusServing(const Catalog& catalog, const InferenceScenario& scenario,
                                                     const std::vector<const GpuSpec*>& gpus)
{
    std::vector<ServingComparisonRow> rows;
    rows.reserve(gpus.size());
    InferenceScenario s = scenario;
    s.overrides = {}; // what-if figures belong to the GPU they were set for
    for (const GpuSpec* gpu : gpus) {
        if (!gpu || catalog.gpu(gpu->id) != gpu)
            continue;
        s.gpuId = gpu->id;
        const auto e = simulateInference(catalog, s);
        if (!e)
            continue;
        ServingComparisonRow r;
        r.gpu = gpu;
        r.capacityBytes = e->capacityBytes;
        r.peakBytes = e->memory.peak;
        r.fits = e->fits;
        r.maxBatch = e->maxBatch;
        r.maxContext = e->maxContext;
        r.prefillSeconds = e->prefillSeconds;
        r.decodeSecondsPerToken = e->decodeSecondsPerToken;
        r.tokensPerSecond = e->tokensPerSecond;
        rows.push_back(r);
    }
    return rows;
}

const std::vector<std::string>& explainerGpuIds()
{
    static const std::vector<std::string> ids { "rtx-a3000-12gb-laptop", "rtx-3090", "a100-sxm4-80gb",
                                                "h100-sxm5-80gb" };
    return ids;
}

std::vector<std::string> defaultComparisonGpuIds(const Catalog& catalog, const std::string& currentGpuId)
{
    std::vector<std::string> ids;
    for (const std::string& id : explainerGpuIds()) {
        if (catalog.gpu(id))
            ids.push_back(id);
    }
    if (!currentGpuId.empty() && catalog.gpu(currentGpuId)
        && std::find(ids.begin(), ids.end(), currentGpuId) == ids.end())
        ids.push_back(currentGpuId);
    return ids;
}

} // namespace headroom
