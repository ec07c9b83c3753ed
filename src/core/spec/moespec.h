#pragma once

// Reading and writing the "moe" object of the headroom-model format (MoeSpec in modelspec.h), and the checks both
// the model reader and the Hugging Face importers apply to it.

#include "jsonreader.h"
#include "modelspec.h"
#include "trainingconfig.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace headroom {

// Megatron's rules for expert parallelism: an MoE model, ep dividing the routed experts, and the ep ranks carved
// out of the data-parallel ones (ep divides data_parallel; the GPU count stays t x p x cp x dp).
std::optional<Error> validateExperts(const ModelSpec& model, const TrainingConfig& c, std::string_view origin);

} // namespace headroom

namespace headroom::detail {

std::vector<int> readLayerList(const ObjectReader& r, std::string_view key); // an array of layer indices
MoeSpec readMoe(const ObjectReader& r, int layers);
nlohmann::json moeJson(const MoeSpec& moe);

// Throws ParseFailure at `r`'s keys when top-k exceeds the experts or a dense layer index is out of range.
void checkMoe(const ObjectReader& r, const MoeSpec& moe, int layers, std::string_view topKKey,
              std::string_view denseKey);

// Parameters of the routed experts of the model (all layers, all experts): what a rank holds only 1/ep of under
// expert parallelism, and what only topK / experts of is active for a token.
double routedExpertParameters(const TransformerSpec& t);

} // namespace headroom::detail
