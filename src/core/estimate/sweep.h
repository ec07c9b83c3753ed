#pragma once

// What-if answers built on the schedule: the breakdown at the peak for many micro-batches at once (the chart of
// memory against batch size). The changes that make a configuration fit are in fixes.h.

#include "estimate.h"
#include "fixes.h"

#include <span>
#include <vector>

namespace headroom {

struct SweepPoint {
    double batch = 0.0;
    double peakBytes = 0.0;
    CategoryBytes atPeak {}; // overhead included
    std::int32_t peakStep = -1;
};

// Memory at each step is a line in the micro-batch, so the peak is their upper envelope. Steps that are the
// maximum at both ends of an interval of batches are the maximum everywhere in it, which keeps this to a few
// passes over the steps however many batches are asked for.
std::vector<SweepPoint> batchSweep(const Schedule& schedule, std::span<const double> batches, double overheadBytes,
                                   double reserveFraction);

} // namespace headroom
