#pragma once

// simulate()'s pipeline pieces (internal to the core): walk every stage's step, pick the most loaded, and turn the
// stages' micro-batch times into the time of the whole pipeline.

#include "simulate.h"

#include <memory>
#include <vector>

namespace headroom {

// Over the stages: the slowest micro-batch and tail (simulatestages.cpp), and sums of FLOPs and parameters.
struct StageTotals {
    double micro = 0.0, tail = 0.0, modelFlops = 0.0, hardwareFlops = 0.0;
    double parameters = 0.0, trainable = 0.0, active = 0.0;
};

// This stage's summary, from its estimate.
RankSummary summarize(const Estimate& e, const TrainingConfig& config, int layers);

// Each pipeline stage's lowered step, and whether the stage is built like the one before it (sameUpToLayerShift in
// graph.h): then it runs the same steps in the same time, its memory differing only by the micro-batches in flight.
struct LoweredStages {
    std::vector<std::shared_ptr<const Schedule>> schedules;
    std::vector<bool> likeBefore;
};

// Walks each stage's schedule (no timeline, no searches) into `ranks`; returns the stage with the highest peak
// (the first of equals). With `keep`, the estimate of stage `wanted` (the most loaded when -1) is left there. Without
// `walkEvery`, a stage that cannot be the most loaded is not walked (SimulateOptions::walkEveryStage).
int mostLoadedStage(const LoweredStages& stages, const ModelSpec& model, const GpuSpec& gpu, const Scenario& scenario,
                    const EstimateOptions& options, std::vector<RankSummary>& ranks, StageTotals& totals,
                    Estimate* keep = nullptr, int wanted = -1, bool walkEvery = true);

// The stage with the highest peak (the first of equals); 0 without ranks.
int mostLoaded(const std::vector<RankSummary>& ranks);

// The whole pipeline's step into the most loaded stage's estimate: the slowest stage sets the pace of the m
// micro-batches and of the bubble, (m + (p - 1) / v) t (Narayanan et al. 2021 sec. 2.2); the optimizer and the
// data-parallel collectives that follow are the slowest stage's. Throughput and MFU are the job's; the whole model's
// parameters replace the stage's.
void combineStages(Estimate& e, const std::vector<RankSummary>& ranks, const StageTotals& totals,
                   const ModelSpec& model);

} // namespace headroom
