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
    cacheTensors.clear();
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

namespace {

    template <typename T>
    bool shiftedEqual(const std::vector<T>& a, const std::vector<T>& b, int shift)
    {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            T moved = a[i];
            moved.layer = static_cast<std::int16_t>(moved.layer + shift);
            if (!(moved == b[i]))
                return false;
        }
        return true;
    }

} // namespace

// A field added to Graph changes its size: compare it below (or say here why two stages may differ in it).
static_assert(sizeof(Graph) == 232, "Graph changed: compare the new field in sameUpToLayerShift");

bool sameUpToLayerShift(const Graph& a, const Graph& b, int shift)
{
    LayerRepeat repeat = a.repeat;
    if (repeat.active()) {
        repeat.layer += shift;
        repeat.forwardCarry += shift;
    }
    return a.layers == b.layers && a.samplesTokens == b.samplesTokens && a.modelOutput == b.modelOutput
        && a.cacheTensors == b.cacheTensors && repeat == b.repeat && a.tensors == b.tensors && a.storages == b.storages
        && a.refs == b.refs && a.regions == b.regions && shiftedEqual(a.ops, b.ops, shift)
        && shiftedEqual(a.params, b.params, shift);
}

} // namespace headroom
