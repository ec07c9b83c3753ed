#pragma once

// The planner: every layout of a job on N GPUs (tensor, pipeline and data parallelism, the schedule, sequence
// parallelism, expert parallelism for a mixture of experts, the ZeRO stage, checkpointing and the micro-batch), each
// simulated as `headroom estimate` would, ranked by throughput among those that fit, with the reason every other layout
// was rejected. A layout's result is simulate()'s for its scenario, so that its options on the command line reproduce
// it exactly.

#include "simulate.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headroom {

struct PlanRequest {
    Scenario base;       // GPU, model, sequence, precision and everything the planner does not vary
    int gpus = 8;        // t x p x cp x dp
    int gpusPerNode = 8; // tensor parallelism stays inside a node; collectives past one cross the inter-node link
    std::int64_t globalBatch = 64;
    int maxMicroBatch = 64; // micro-batches tried: powers of two up to this
};

struct PlanLayout {
    TrainingConfig config;
    bool fits = false;
    double peakBytes = 0.0; // the most loaded rank's
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;
    double mfu = 0.0;
    bool pareto = false; // on the front of memory per GPU against step time (among those that fit)
};

struct PlanRejection {
    std::string reason;
    std::int64_t count = 0;
};

struct PlanResult {
    std::int64_t evaluated = 0;      // layouts simulated
    std::vector<PlanLayout> layouts; // those that fit, best first; when none fits, the ten lowest peaks
    std::vector<PlanRejection> rejected;
};

// Errors name the field (`gpus`, `gpus_per_node`, `global_batch`, the scenario's) for a request that cannot be planned.
Expected<PlanResult> plan(const Catalog& catalog, const PlanRequest& request);

} // namespace headroom
