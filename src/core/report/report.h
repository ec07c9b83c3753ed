#pragma once

// Results as text: JSON for scripts (bytes as integers) and an aligned table for people.

#include "estimate.h"
#include "simulate.h"

#include <string>

namespace headroom {

struct ReportOptions {
    bool timeline = false; // include the per-step memory timeline in JSON
    bool operators = true; // include per-operator roofline points
};

// The one full-result JSON writer (the command line, the export and the window's File > Save Result all use it).
std::string resultToJson(const SimulationResult& r, const ReportOptions& options = {});
std::string estimateToJson(const Estimate& e, const ModelSpec& model, const ReportOptions& options = {});
std::string estimateToTable(const Estimate& e, const ModelSpec& model);
// The table, then the suggestions (best first, with the options that apply each) when the step does not fit.
std::string resultToTable(const SimulationResult& r);
// The JSON and command-line name of a time lever ("cuda-graphs", "fused-optimizer", "larger-micro-batch").
std::string_view timeLeverKey(TimeLever::Kind k);

// "1.23 GiB", "512 MiB": binary units, as the driver reports memory.
std::string formatBytes(double bytes);
std::string formatSeconds(double s);
std::string formatCount(double n); // 124.4M, 6.74B

} // namespace headroom
