#pragma once

// Context parallelism (Megatron --context-parallel-size; ring attention in Transformer Engine's fused attention):
// each of cp ranks holds s/cp tokens of every sequence through the whole block, so every activation is 1/cp per
// rank; attention reads the other ranks' keys and values as they pass round the ring (sent cp - 1 times forward;
// backward passes them again and sends their gradients back), overlapped with the attention kernels. Weights stay
// whole; the gradient all-reduce and ZeRO run over the dp x cp ranks. docs/formulas.md section 1.9.

#include "error.h"
#include "modelspec.h"
#include "trainingconfig.h"

#include <optional>
#include <string_view>

namespace headroom {

// Errors name the field `context_parallel`: a transformer with token inputs, fused attention, and a sequence that
// splits into 2 cp chunks (Megatron's causal load balancing gives each rank one chunk from each end).
std::optional<Error> validateContext(const ModelSpec& model, const TrainingConfig& c, std::string_view origin);

} // namespace headroom
