#include "moespec.h"

#include <algorithm>

namespace headroom {

bool MoeSpec::sparse(int layer) const
{
    if (experts <= 0)
        return false;
    if (std::find(denseLayers.begin(), denseLayers.end(), layer) != denseLayers.end())
        return false;
    return (layer + 1) % std::max(1, sparseStep) == 0;
}

bool MoeSpec::uniform(int layers) const
{
    for (int l = 1; l < layers; ++l) {
        if (sparse(l) != sparse(0))
            return false;
    }
    return true;
}

std::optional<Error> validateExperts(const ModelSpec& model, const TrainingConfig& c, std::string_view origin)
{
    const int ep = c.expertParallel;
    if (ep == 1)
        return std::nullopt;
    auto fail = [&](std::string msg) { return Error { std::string(origin), "expert_parallel", std::move(msg) }; };
    const MoeSpec& e = model.transformer.moe;
    if (model.family != ModelFamily::Transformer || !e.any())
        return fail("expert parallelism splits the experts of a mixture-of-experts model; " + model.id + " has none");
    if (e.experts % ep != 0)
        return fail(std::to_string(ep) + " must divide the " + std::to_string(e.experts) + " experts of " + model.id);
    if (c.dataParallel % ep != 0)
        return fail("the " + std::to_string(ep) + " expert-parallel ranks are a split of the "
                    + std::to_string(c.dataParallel) + " data-parallel ones (Megatron): " + std::to_string(ep)
                    + " must divide data_parallel");
    return std::nullopt;
}

namespace detail {

    void checkMoe(const ObjectReader& r, const MoeSpec& moe, int layers, std::string_view topKKey,
                  std::string_view denseKey)
    {
        if (moe.topK > moe.experts) {
            r.fail(topKKey,
                   "routes each token to " + std::to_string(moe.topK) + " experts, more than the "
                       + std::to_string(moe.experts) + " there are");
        }
        for (int l : moe.denseLayers) {
            if (l < 0 || l >= layers) {
                r.fail(denseKey,
                       "names layer " + std::to_string(l) + "; layers run from 0 to " + std::to_string(layers - 1));
            }
        }
    }

    std::vector<int> readLayerList(const ObjectReader& r, std::string_view key)
    {
        std::vector<int> layers;
        if (!r.has(key))
            return layers;
        for (const auto& v : r.array(key, std::size_t(kMaxModelLayers))) {
            if (!v.is_number_integer())
                r.fail(key, "must hold layer indices, got " + describe(v));
            layers.push_back(int(std::clamp<std::int64_t>(v.get<std::int64_t>(), -1, kMaxModelLayers)));
        }
        return layers;
    }

    MoeSpec readMoe(const ObjectReader& r, int layers)
    {
        MoeSpec m;
        m.experts = int(r.integer("experts", 1, 1 << 16));
        m.topK = int(r.integer("top_k", 1, 1 << 16));
        m.expertFfn = int(r.integer("expert_ffn", 1, kMaxModelWidth * 16));
        m.normalizeTopK = r.booleanOr("normalize_top_k", true);
        m.sharedFfn = int(r.integerOr("shared_ffn", 0, 0, kMaxModelWidth * 16));
        m.sparseStep = int(r.integerOr("sparse_step", 1, 1, kMaxModelLayers));
        m.capacityFactor = r.numberOr("capacity_factor", 0.0, 0.0, 1024.0);
        m.denseLayers = readLayerList(r, "dense_layers");
        checkMoe(r, m, layers, "top_k", "dense_layers");
        return m;
    }

    nlohmann::json moeJson(const MoeSpec& m)
    {
        nlohmann::json j;
        j["experts"] = m.experts;
        j["top_k"] = m.topK;
        j["expert_ffn"] = m.expertFfn;
        j["normalize_top_k"] = m.normalizeTopK;
        if (m.sharedFfn)
            j["shared_ffn"] = m.sharedFfn;
        if (m.sparseStep != 1)
            j["sparse_step"] = m.sparseStep;
        if (!m.denseLayers.empty())
            j["dense_layers"] = m.denseLayers;
        if (m.capacityFactor > 0.0)
            j["capacity_factor"] = m.capacityFactor;
        return j;
    }

    double routedExpertParameters(const TransformerSpec& t)
    {
        double sparseLayers = 0.0;
        for (int l = 0; l < t.layers; ++l)
            sparseLayers += t.moe.sparse(l) ? 1.0 : 0.0;
        const double perExpert = 3.0 * double(t.hidden) * t.moe.expertFfn; // gate, up and down projections
        return sparseLayers * t.moe.experts * perExpert;
    }

} // namespace detail

} // namespace headroom
