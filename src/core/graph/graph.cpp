#include "graph.h"

#include <algorithm>
#include <map>

namespace headroom {

void Graph::clear()
{
    tensors.clear();
    storages.clear();
    ops.clear();
    refs.clear();
    params.clear();
    regions.clear();
    repeat = {};
    modelOutput = kNoTensor;
    names.reset();
    layers = 0;
    samplesTokens = 1.0;
}

double Graph::parameterCount() const
{
    double n = 0.0;
    for (const auto& p : params)
        n += p.numel * p.shards;
    return n;
}

double Graph::trainableParameterCount() const
{
    double n = 0.0;
    for (const auto& p : params)
        n += p.trainable ? p.numel * p.shards : 0.0;
    return n;
}

double Graph::parameterCountPerGpu() const
{
    double n = 0.0;
    for (const auto& p : params)
        n += p.numel;
    return n;
}

double Graph::largestParameterGroup() const
{
    std::map<int, double> perLayer;
    for (const auto& p : params)
        perLayer[p.layer] += p.numel;
    double best = 0.0;
    for (const auto& [layer, n] : perLayer)
        best = std::max(best, n);
    return best;
}

} // namespace headroom
