#include "simulate.h"

namespace headroom {

Expected<InferenceEstimate> simulateInference(const Catalog& catalog, const InferenceScenario& scenario,
                                              const Efficiency& efficiency)
{
    const GpuSpec* gpu = catalog.gpu(scenario.gpuId);
    if (!gpu)
        return Error { "command line", "gpu", "unknown GPU id \"" + scenario.gpuId + "\"; valid: " + catalog.gpuIds() };
    const ModelSpec* model = catalog.model(scenario.modelId);
    if (!model)
        return Error { "command line", "model",
                       "unknown model \"" + scenario.modelId + "\"; valid: " + catalog.modelIds() };
    if (auto e = validateInferenceConfig(scenario.config, "command line"))
        return *e;
    if (scenario.storedWeights)
        return estimateInference(*model, *scenario.storedWeights, *gpu, scenario.overrides, scenario.config,
                                 efficiency);
    auto weights = inferenceWeights(*model, scenario.config);
    if (!weights)
        return Error { "command line", "model", weights.error().message };
    return estimateInference(*model, *weights, *gpu, scenario.overrides, scenario.config, efficiency);
}

} // namespace headroom
