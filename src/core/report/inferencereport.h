#pragma once

// Serving results as text: JSON for scripts (`headroom infer --json`, bytes as integers) and a table for people.

#include "inference.h"

#include <string>

namespace headroom {

std::string inferenceToJson(const InferenceEstimate& e, const ModelSpec& model);
std::string inferenceToTable(const InferenceEstimate& e, const ModelSpec& model);

} // namespace headroom
