#pragma once

// The pipeline schedule as time: when each stage runs the forward and the backward of each micro-batch (of each
// model chunk, under interleaving), from the order the schedule gives each stage and the dependencies between
// stages. The step time keeps its closed form (simulatestages.cpp); this is what the window draws, and the tests
// hold it to that form (Narayanan et al. 2021, arXiv 2104.04473 sec. 2.2: a bubble of (p - 1) (t_f + t_b) for GPipe
// and 1F1B, divided by v when interleaved).
//
// Orders per stage s of p, m micro-batches: GPipe runs every forward, then every backward; 1F1B runs min(p - s - 1,
// m) warm-up forwards, then alternates one forward and one backward, then the remaining backwards; the interleaved
// schedule follows Megatron-LM's forward_backward_pipelining_with_interleaving (groups of p micro-batches per model
// chunk, warm-up (p - s - 1) 2 + (v - 1) p, or every forward when m = p).

#include "trainingconfig.h"

#include <vector>

namespace headroom {

struct PipelineSpan {
    int stage = 0;
    int microBatch = 0;
    int chunk = 0; // the model chunk (virtual stage) under interleaving, else 0
    bool forward = true;
    double start = 0.0; // seconds from the step's start
    double end = 0.0;
};

struct PipelineTimeline {
    std::vector<PipelineSpan> spans; // in the order each stage runs them, stage by stage
    double seconds = 0.0;            // the last slot's end
    bool computed = false;           // false past kMaxPipelineSpans, or without a pipeline
};

// Above this many spans (p m v 2) the timeline is not built: it would not be readable.
inline constexpr int kMaxPipelineSpans = 8192;

// forwardSeconds[s] and backwardSeconds[s]: one micro-batch of stage s's whole work (all its chunks); a chunk takes
// 1/v of it.
PipelineTimeline pipelineTimeline(const TrainingConfig& config, const std::vector<double>& forwardSeconds,
                                  const std::vector<double>& backwardSeconds);

} // namespace headroom
