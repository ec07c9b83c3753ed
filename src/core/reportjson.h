#pragma once

// The JSON pieces the report writers share (report.cpp for training, inferencereport.cpp for serving).

#include "gpuspec.h"

#include <nlohmann/json.hpp>

namespace headroom::detail {

// Bytes and counts as JSON integers; values beyond int64 (absurd what-ifs) saturate rather than overflow.
nlohmann::json integer(double v);
nlohmann::json finite(double v); // null for NaN and infinities
const char* unitKey(MathUnit u); // "fp16"
// The GPU as used: datasheet figures, what was overridden and the sources.
nlohmann::json gpuJson(const EffectiveGpu& eg);

} // namespace headroom::detail
