#pragma once

// The core's one entry point. A catalog and a scenario in; everything the window, the exports and the command line
// show out: the estimate (memory timeline, peaks, verdict, time, roofline), the sweep of memory against the
// micro-batch, the longest sequence that fits and the cheapest single changes that make the step fit.
//
//   ModelSpec --buildGraph--> Graph --lowerTrainingStep--> Schedule --evaluate (one walk)--> Estimate
//
// The Schedule depends on the model and on the fields of the configuration that shape it (scheduleKey), never on
// the GPU, the micro-batch or the overheads; a SimulationCache keeps the last one, so that a slider tick that
// changes only those costs one walk. A cached result is always identical to a fresh one (tst_simulate checks each
// field of TrainingConfig).

#include "allocator.h"
#include "catalog.h"
#include "error.h"
#include "estimate.h"
#include "inference.h"
#include "pipeline.h"
#include "pipelineschedule.h"
#include "scenario.h"
#include "sweep.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace headroom {

// A change that shortens a host-bound step (timemodel.h): what the step and the throughput would be with it.
struct TimeLever {
    enum class Kind : std::uint8_t {
        CudaGraphs,     // Execution::CudaGraphs: the host's per-operator work collapses into one replay
        FusedOptimizer, // AdamW fused=True: one operator instead of a foreach chain or a loop over tensors
        LargerBatch,    // twice the micro-batch, where it fits: the host's work is per step, the GPU's per sample
    };
    Kind kind = Kind::CudaGraphs;
    std::int64_t microBatch = 0; // LargerBatch: the micro-batch it takes
    double stepSeconds = 0.0;
    double throughputPerSecond = 0.0;
};

// The step time where every kernel runs at the fast or the slow end of its measured efficiency range
// (fastEfficiency, slowEfficiency in timemodel.h), and, for a host-bound step, the levers that shorten it.
struct StepTimeRange {
    bool computed = false;
    double fastSeconds = 0.0;
    double slowSeconds = 0.0;
    std::vector<TimeLever> levers; // host-bound steps only; each raises the throughput by at least 2 %
};

// One pipeline stage of the step (every rank of a stage is alike: tensor- and data-parallel ranks hold equal
// shares). Without pipeline parallelism, one entry: the whole model.
struct RankSummary {
    int stage = 0;
    std::vector<LayerRange> layers; // blocks [first, last) on this stage; the first stage also holds the embeddings
    double inFlightMicroBatches = 1.0;
    CategoryBytes atPeak {};
    double peakBytes = 0.0;
    Phase peakPhase = Phase::Forward;
    std::string peakOperator;
    bool fits = false;
    std::int64_t maxMicroBatch = 0;
    double parametersPerGpu = 0.0;
    double microBatchSeconds = 0.0; // forward + backward of one micro-batch on this stage, communication included
    double forwardSeconds = 0.0;    // of it, the forward's share (by the operators' own times)
};

struct SimulationResult {
    const ModelSpec* model = nullptr; // entries of the catalog given to simulate(): they outlive the result
    const GpuSpec* gpu = nullptr;
    Scenario scenario;
    // The most loaded rank's step (the highest peak; with pipeline parallelism its stage is
    // estimate.config.pipelineStage), with the time, throughput and MFU of the whole job.
    Estimate estimate;
    std::vector<RankSummary> ranks; // every pipeline stage, in order
    PipelineTimeline pipeline;      // when each stage runs each micro-batch (with a timeline and p > 1)
    std::vector<SweepPoint> sweep;  // the breakdown at the peak against micro-batch (SimulateOptions::sweep)
    bool searched = false;          // maxSequence and fixes were computed (SimulateOptions::searches)
    std::vector<Fix> fixes;         // when the step does not fit: single changes that lower the peak, best first
    AllocatorEstimate allocator;    // what PyTorch would report (SimulateOptions::searches)
    // "Does it fit?" by the one rule (fitVerdict): the replay under the GPU's memory with the searches, else the peak.
    // With the searches, estimate.fits, headroomBytes, maxMicroBatch and maxSequence follow it.
    FitVerdict verdict;
    StepTimeRange timeRange; // the step time at the ends of the efficiency ranges (the same)

    // With pipeline stages: whether the stage shown (estimate.config.pipelineStage) has the highest peak of all
    // (ties included), the one "does it fit?" is about. True with one stage.
    bool showsMostLoaded() const;
};

// The answers of the searches alone: what the window computes on a worker a moment after each change.
struct SearchResult {
    std::int64_t maxSequence = 0; // tokens, or image side for vision models
    bool maxSequenceLimitedByModel = false;
    std::vector<Fix> fixes; // empty when the step fits
    AllocatorEstimate allocator;
    FitVerdict verdict;             // by the replay (fitVerdict): the window's verdict once the searches answer
    std::int64_t maxMicroBatch = 0; // the largest whose replay completes
    StepTimeRange timeRange;
    // What the device holds against micro-batch (replayDeviceBytes): (micro-batch, bytes) at about 16 of the sweep's
    // batches and at the current one, the largest that fits and the one above, whose crossing of the capacity is the
    // largest micro-batch above. Empty without a sweep, or where the shown pipeline stage is not the most loaded
    // (the largest micro-batch is that stage's).
    std::vector<std::pair<double, double>> allocatorCurve;
};

struct SimulateOptions {
    Efficiency efficiency;
    bool timeline = true; // the per-step memory timeline and step start times
    bool sweep = true;    // memory against micro-batch
    // The longest sequence that fits and the fixes: each needs many rebuilds of the schedule (a millisecond or
    // more), so the window runs them on a worker and shows them a moment later.
    bool searches = true;
    // The pipeline stage whose memory the result shows; -1 (or a stage the pipeline lacks): the most loaded.
    int stage = -1;
    // false: a pipeline stage built like the one before it and holding no more micro-batches in flight is not walked
    // where it cannot be the most loaded (simulatestages.cpp); its rank repeats the memory figures of the stage before
    // (at least its own). The most loaded stage, its estimate, whether every rank fits and the pipeline's time are
    // those of a full walk. The planner's choice: it reads no other rank.
    bool walkEveryStage = true;

    // What the window shows on every change, and what its exports draw: everything but the searches.
    static SimulateOptions interactive()
    {
        SimulateOptions o;
        o.searches = false;
        return o;
    }
};

// The last lowered schedule and what it was lowered for. One cache serves one catalog (its entries' addresses
// identify models) and one thread at a time.
class SimulationCache {
public:
    void clear();
    std::uint64_t lowerings() const { return m_lowerings; } // how many times a schedule was built (for tests)
    ReplayCache* replay() { return &m_replay; }             // fitsOnDevice's graph and lowering

private:
    friend std::optional<Error> simulate(const Catalog&, const Scenario&, const SimulateOptions&, SimulationCache*,
                                         SimulationResult&);
    const ModelSpec* m_model = nullptr;
    std::string m_modelId;
    TrainingConfig m_key;                                  // pipelineStage left at 0: one entry per stage
    std::vector<std::shared_ptr<const Schedule>> m_stages; // the lowered step of each pipeline stage
    std::vector<bool> m_likeBefore;                        // stage built like the one before it (sameUpToLayerShift)
    // The operator graph of each stage: the ZeRO stage, the data-parallel ranks and the micro-batches per step shape
    // only the lowering, so a change of those lowers these again without building them (the planner walks ZeRO 0-3
    // and every micro-batch on each graph).
    TrainingConfig m_graphKey;
    std::vector<Graph> m_graphs;
    std::uint64_t m_lowerings = 0;
    ReplayCache m_replay;
};

// Fills `out` (reusing its vectors' memory). Returns an error, and leaves `out` as it was, when the scenario names a
// GPU or model the catalog lacks or holds a value the simulator cannot take (validateConfig).
std::optional<Error> simulate(const Catalog& catalog, const Scenario& requested, const SimulateOptions& options,
                              SimulationCache* cache, SimulationResult& out);
Expected<SimulationResult> simulate(const Catalog& catalog, const Scenario& scenario,
                                    const SimulateOptions& options = {}, SimulationCache* cache = nullptr);

// The longest sequence that fits and the fixes for a result computed without them (SimulateOptions::searches off).
SearchResult searchFits(const SimulationResult& result);

// "Does it fit?" for any result by the one rule (fitVerdict): every stage's peak within the GPU's memory, then the
// caching allocator replayed for the most loaded stage (here, when the result was computed without the searches).
// The planner's test; `cache` keeps the replay's graph and lowering for the next layout that shares them.
bool fitsOnDevice(const SimulationResult& result, SimulationCache* cache = nullptr);
// The whole verdict of that rule: whether it fits, what it needs (the replay's reserved + context + NCCL where the
// replay ran) and so the free bytes, as the window's verdict gives them. Not fitting where a stage's peak is over.
FitVerdict verdictOnDevice(const SimulationResult& result, SimulationCache* cache = nullptr);

// The largest micro-batch of `result`'s job by the same rule: the replay's (replayMaxMicroBatch), searched down from
// the peak's on the most loaded stage, and never below the result's own micro-batch where `fits` (fitsOnDevice's
// answer for it). The searches give it as Estimate::maxMicroBatch; a result computed without them has the peak's.
std::int64_t largestMicroBatchOnDevice(const SimulationResult& result, bool fits);

// fitsOnDevice in two halves, for a caller that decides which replays it needs after simulating several layouts
// (the planner): what the replay needs of a result, kept after the result is reused, and the replay itself.
struct DeviceFitCheck {
    const ModelSpec* model = nullptr;
    const GpuSpec* gpu = nullptr;
    bool peaksFit = false;   // every stage's peak within the GPU's memory: only then is a replay needed
    TrainingConfig limiting; // the scenario's, at its most loaded stage
    double peakBytes = 0.0, capacityBytes = 0.0, overheadBytes = 0.0;
};
DeviceFitCheck deviceFitCheck(const SimulationResult& result);
bool fitsOnDevice(const DeviceFitCheck& check, SimulationCache* cache = nullptr);

// Serving a decoder-only language model: prefill and decode on a GPU, or on one of `tensorParallel` of them.
struct InferenceScenario {
    std::string gpuId;
    std::string modelId;
    InferenceConfig config;
    GpuOverrides overrides;
    // The tensors as a file stores them (a .gguf header, gguf.h); without it they follow `config.weights`.
    std::optional<InferenceWeights> storedWeights;
};

// Errors name the option (`gpu`, `model`, `tp`, ...) for a GPU or model the catalog lacks, a model that is not a
// decoder, or a value out of range.
Expected<InferenceEstimate> simulateInference(const Catalog& catalog, const InferenceScenario& scenario,
                                              const Efficiency& efficiency = {});

// The micro-batches of the sweep: 48 log-spaced points up to a power of two at least twice the current and the
// largest batch (so that a chart's axis only moves when the batch doubles), plus the current batch and both sides
// of the step from fitting to not fitting.
std::vector<double> sweepBatches(std::int64_t current, std::int64_t best);

} // namespace headroom
