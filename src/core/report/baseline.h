#pragma once

// The step now against a pinned baseline, as the window's Baseline dock and `headroom estimate --baseline FILE`
// show it: each memory category at the peak, the peak, what the step needs and the free memory as byte differences;
// the largest micro-batch, the step time, the throughput and MFU as ratios; the verdict. Each row says whether the
// change is better or worse, so that the dock and the command line judge alike. What the step needs, the free
// memory, the largest micro-batch and the verdict are the one answer to "does it fit?" (allocator.h fitVerdict): a
// side's search where it is given (the window's, which computes it a moment after the result), else its result's.

#include "simulate.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

enum class BaselineQuantity : std::uint8_t {
    Category,
    Peak,
    Needs, // what the verdict holds against the capacity: the replay's reserved + context + NCCL, or the peak's
    Free,
    MaxMicroBatch,
    StepTime,
    Throughput,
    Mfu,
    Fits
};
enum class BaselineChange : std::uint8_t { Bytes, Ratio, Verdict };

struct BaselineRow {
    BaselineQuantity quantity = BaselineQuantity::Peak;
    MemoryCategory category = MemoryCategory::Weights; // the category of a Category row
    BaselineChange kind = BaselineChange::Bytes;
    double baseline = 0.0; // bytes, a count, seconds, per second, a fraction, or 1 / 0 for fits / does not
    double current = 0.0;
    // Bytes: current - baseline. Ratio: current / baseline, 0 where either is 0 (no ratio). Verdict: 0.
    double change = 0.0;
    int better = 0; // +1 better than the baseline, -1 worse, 0 the same (within a byte, or 0.1 %) or no ratio
};

std::vector<BaselineRow> compareToBaseline(const SimulationResult& baseline, const SimulationResult& current,
                                           const SearchResult* baselineFit = nullptr,
                                           const SearchResult* currentFit = nullptr);

// "weights" .. "overhead" (the JSON's category names), "peak", "needs", "free", "max_micro_batch", "step_seconds",
// "throughput_per_second", "mfu", "fits".
std::string baselineKey(const BaselineRow& row);

// The rows as `headroom estimate --baseline` prints them, under a line naming the baseline.
std::string baselineToTable(const std::vector<BaselineRow>& rows, const std::string& baselineName);
// [{"quantity", "baseline", "current", "change", "change_kind" ("bytes", "ratio", "verdict"), "better"}]
nlohmann::json baselineRowsJson(const std::vector<BaselineRow>& rows);

} // namespace headroom
