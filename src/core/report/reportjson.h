#pragma once

// The JSON pieces the report writers share (report.cpp for training, inferencereport.cpp for serving).

#include "allocator.h"
#include "gpuspec.h"
#include "simulate.h"

#include <nlohmann/json.hpp>

#include <string>

namespace headroom::detail {

// Bytes and counts as JSON integers; values beyond int64 (absurd what-ifs) saturate rather than overflow.
nlohmann::json integer(double v);
nlohmann::json finite(double v); // null for NaN and infinities
const char* unitKey(MathUnit u); // "fp16"
// The GPU as used: datasheet figures, what was overridden and the sources.
nlohmann::json gpuJson(const EffectiveGpu& eg);
// What PyTorch would report (reportallocator.cpp); null when it was not computed.
nlohmann::json allocatorJson(const AllocatorEstimate& a);
// Its lines of the table: allocated, reserved, context, and the device total against the capacity.
std::string allocatorTable(const AllocatorEstimate& a, double capacityBytes);

// Bytes per memory category, by category name.
nlohmann::json categoriesJson(const CategoryBytes& bytes);
// reportparallel.cpp: the degrees and GPU count (jobGpus, pipeline.h), communication by kind (seconds and bytes), every
// pipeline stage.
nlohmann::json parallelismJson(const TrainingConfig& c);
nlohmann::json communicationJson(const Estimate& e);
nlohmann::json ranksJson(const std::vector<RankSummary>& ranks);

} // namespace headroom::detail
