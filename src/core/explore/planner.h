#pragma once

// The planner: every layout of a job on N GPUs (tensor, pipeline and data parallelism, the schedule, sequence
// parallelism, expert parallelism for a mixture of experts, the ZeRO stage, checkpointing and the micro-batch) and,
// where the request allows them, the levers that change what a step keeps (precision, optimizer, ZeRO-Offload,
// LoRA/QLoRA), each simulated as `headroom estimate` would, ranked by throughput among those that fit, with the reason
// every other layout was rejected. A layout's result is simulate()'s for its scenario, so that its options on the
// command line reproduce it exactly.

#include "links.h"
#include "simulate.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace headroom {

// What the planner may change beyond the layout (issue 31). None by default: the scenario's own precision, optimizer
// and training method. Each allowed lever adds its alternatives one at a time (a layout pulls at most one lever of
// each kind), so that every lever a row names is one that row needs to differ from the scenario.
struct PlanLevers {
    bool precision = false; // pure BF16 weights (model.to(bfloat16)), and FP8 GEMMs on a GPU with FP8 tensor cores
    bool optimizer = false; // fused AdamW, bitsandbytes AdamW8bit, PagedAdamW, PagedAdamW8bit, Adafactor
    bool offload = false;   // ZeRO-Offload: optimizer states and their step on the host
    std::vector<FinetuneMethod> finetune; // LoRA, QLoRA instead of full training (PEFT's defaults: r 8, q and v)
    // Pull the levers only when no layout fits without them (the layouts alone answer when they can, at the cost of
    // one plan); the finetune methods count as levers here too.
    bool onlyIfNeeded = false;
    bool any() const { return precision || optimizer || offload || !finetune.empty(); }
};

// How far a running plan is, for a window's progress bar, and a way to stop it when a newer request supersedes it.
// Both counts grow as the plan goes: a plan that tries the levers, suggests them or compares GPU types enumerates
// more layouts as it reaches them.
struct PlanProgress {
    std::atomic<std::int64_t> enumerated { 0 }; // layouts to decide, of those enumerated so far
    std::atomic<std::int64_t> decided { 0 };    // of those, simulated, pruned or refused
    std::atomic<bool> cancelled { false };      // set by the caller: the plan stops and returns planCancelled()
};

struct PlanRequest {
    Scenario base;       // GPU, model, sequence, precision, links and everything the planner does not vary
    int gpus = 8;        // t x p x cp x dp
    int gpusPerNode = 8; // tensor parallelism stays inside a node; collectives past one cross the inter-node link
    std::int64_t globalBatch = 64;
    int maxMicroBatch = 64; // micro-batches tried: powers of two up to this
    PlanLevers levers;
    // When nothing fits: also plan with each lever the request did not allow, to say which would make the job fit.
    bool suggest = true;
    // Skip the larger micro-batches of a layout once one does not fit (the peak never falls as it grows); off only
    // for the test that holds the pruned plan to the full one.
    bool prune = true;
    PlanProgress* progress = nullptr; // optional: counts as the plan goes, and a way to stop it (the caller's)
};

// The link one kind of collective of a layout crosses (links.h), as the estimate assumes it.
struct PlanLink {
    std::string group;              // tensor_parallel, context_parallel, data_parallel, pipeline
    int ranks = 1;                  // in one group
    int span = 1;                   // GPUs [0, span) the group spreads over (Megatron's order: t, cp, dp, then p)
    LinkKind kind = LinkKind::Auto; // resolved: never Auto
    bool interNode = false;         // the group crosses nodes: the slower of kind and the node's own link
    bool automatic = false;         // chosen from the GPU file (or IB HDR between nodes), not given
    double bytesPerSecond = 0.0;    // one direction per GPU, as the time model uses it
};

struct PlanLayout {
    TrainingConfig config;
    bool fits = false;
    double peakBytes = 0.0; // the most loaded rank's
    double capacityBytes = 0.0;
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;
    double mfu = 0.0;
    bool pareto = false; // on the front of memory per GPU against step time (among those that fit)
    std::vector<std::string>
        levers; // the levers it pulled: bf16-pure, fp8, adamw-fused, adamw-8bit, ... offload, qlora
    int nodes = 1;
    std::vector<PlanLink> links; // every group with more than one rank
};

// Why a layout is not among those that fit; each layout counts once, under the first reason that applies, in this
// order (the enumeration's, outermost first). Refused: simulate() refused the layout, for the reason its message
// gives.
enum class PlanReason : std::uint8_t {
    TpBeyondNode,
    HeadsNotDivisible,
    AdaptersUnderTp,
    PpAboveBlocks,
    PpUneven,
    CpNeedsTokens,
    CpTokens,
    GlobalBatch,
    TooManyMicroBatches,
    Interleaving,
    SpTokens,
    ZeroWithPipeline,
    SelectiveNoScores, // selective recomputation where the attention saves no scores (attentionSavesScores)
    DoesNotFit,
    Refused,
};
// The reason in English, as `headroom plan` prints it ("p does not divide the blocks evenly"); the window translates
// the kind instead.
std::string_view toString(PlanReason r);

struct PlanRejection {
    PlanReason kind = PlanReason::Refused;
    std::string reason; // toString(kind), or simulate()'s message for Refused
    std::int64_t count = 0;
};

// When nothing fits: what would. A lever the request did not allow and the fastest layout it fits with, or the
// GPUs of the catalog with room for the nearest layout's peak.
struct PlanSuggestion {
    std::string lever; // as PlanLayout::levers names it; empty for "another GPU"
    PlanLayout layout;
};

struct PlanResult {
    std::int64_t considered = 0; // every layout: those that fit plus the rejected ones (each under its first reason)
    std::int64_t evaluated = 0;  // layouts simulated (the others were rejected before, or by a smaller micro-batch)
    std::vector<PlanLayout> layouts; // those that fit, best first; when none fits, the ten lowest peaks
    std::vector<PlanRejection> rejected;
    std::vector<std::string> assumptions; // what every row takes as given
    bool leversTried = false;             // the plan varied the levers (false: none allowed, or none needed)
    // When none fits: the memory the nearest layout lacks, the levers that would make the job fit and the GPUs
    // (catalog ids, smallest first) whose memory holds the nearest layout's peak.
    double shortBytes = 0.0;
    std::vector<PlanSuggestion> suggestions;
    std::vector<std::string> largerGpus;
};

// Errors name the field (`gpus`, `gpus_per_node`, `global_batch`, the scenario's) for a request that cannot be planned,
// or are planCancelled() once the request's progress is cancelled.
Expected<PlanResult> plan(const Catalog& catalog, const PlanRequest& request);
// The error of a plan stopped by PlanProgress::cancelled (ErrorKind::Cancelled).
Error planCancelled();

// One GPU type's answer to "how long to train N tokens on these GPUs" (issue 31): its plan and, from the fastest
// layout that fits, the time and GPU-hours. Throughput is the estimate's: tokens per second for a transformer,
// images per second for a vision model.
struct GpuTypePlan {
    std::string gpuId;
    PlanResult plan;
    bool fits = false;
    double seconds = 0.0;  // tokens / throughput of the fastest layout that fits
    double gpuHours = 0.0; // seconds x GPUs / 3600
};

// The request's plan on each GPU type (the base scenario with only its GPU changed, what-if figures dropped for
// another GPU as `headroom estimate --gpu` drops them), those that fit first, fastest first.
Expected<std::vector<GpuTypePlan>> planGpuTypes(const Catalog& catalog, const PlanRequest& request,
                                                const std::vector<std::string>& gpuIds, double tokens);

// USD per GPU-hour, by GPU id (`headroom plan --price id=USD`, the Plan dock's price column).
using GpuPrices = std::map<std::string, double>;

// What a GPU type's plan costs: its GPU-hours times its price; nothing where none fits or it has no price.
std::optional<double> gpuTypeCost(const GpuTypePlan& type, const GpuPrices& prices);

// The GPU types that fit on the front of time to train against cost: no other type that fits is as fast and as
// cheap and better in one of the two ("what should I rent?"). Against the cost where every type that fits has a
// price, else against the GPU-hours (byCost false; on N GPUs of each type they follow the time, so the fastest alone
// is on that front). `onFront` in `types`' order.
struct GpuTypeFront {
    std::vector<bool> onFront;
    bool byCost = false;
    // The figure the front is taken against: the cost, or the GPU-hours.
    double against(const GpuTypePlan& type, const GpuPrices& prices) const
    {
        return byCost ? gpuTypeCost(type, prices).value_or(0.0) : type.gpuHours;
    }
};
GpuTypeFront gpuTypeFront(const std::vector<GpuTypePlan>& types, const GpuPrices& prices);

// The links and nodes of a layout's collectives, as the estimate's time model takes them.
std::vector<PlanLink> planLinks(const GpuSpec& gpu, const TrainingConfig& config);

} // namespace headroom
