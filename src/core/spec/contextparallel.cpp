#include "contextparallel.h"

#include <cmath>
#include <string>

namespace headroom {

std::optional<Error> validateContext(const ModelSpec& model, const TrainingConfig& c, std::string_view origin)
{
    const int cp = c.contextParallel;
    if (cp == 1)
        return std::nullopt;
    auto fail = [&](std::string msg) { return Error { std::string(origin), "context_parallel", std::move(msg) }; };
    const TransformerSpec& t = model.transformer;
    if (model.family != ModelFamily::Transformer || t.input != InputKind::Tokens)
        return fail("context parallelism splits a token sequence; " + model.id + " has none");
    if (c.attention != AttentionImpl::Fused)
        return fail("Megatron's context parallelism runs inside fused attention (Transformer Engine's ring of keys "
                    "and values); use attention fused");
    const double tokens = transformerTokens(t, c.sequenceLength);
    if (std::fmod(tokens, 2.0 * cp) != 0.0)
        return fail("Megatron splits each sequence into 2 x " + std::to_string(cp)
                    + " chunks (one from each end per rank, for the causal mask's balance): " + std::to_string(2 * cp)
                    + " must divide the " + std::to_string(std::int64_t(tokens)) + " tokens");
    return std::nullopt;
}

} // namespace headroom
