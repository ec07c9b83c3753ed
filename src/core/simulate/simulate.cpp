#include "simulate.h"

#include "finetune.h"
#include "graphbuilder.h"
#include "modelgraph.h"
#include "ncclmemory.h"
#include "pipeline.h"
#include "scenario.h"
#include "simulatestages.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace headroom {

namespace {

    // Single changes; when none is enough, the best combinations that are, ahead of them.
    std::vector<Fix> fixesFor(const ModelSpec& model, const GpuSpec& gpu, const Scenario& s, const Estimate& e)
    {
        std::vector<Fix> fixes = suggestFixes(model, gpu, s.config, s.overrides, e);
        if (std::none_of(fixes.begin(), fixes.end(), [](const Fix& f) { return f.fits; })) {
            std::vector<Fix> combined = combinedFixes(model, gpu, s.config, s.overrides, e);
            fixes.insert(fixes.begin(), combined.begin(), combined.end());
        }
        return fixes;
    }

    // The one fit rule (fitVerdict) on an estimate of `shown`: the caching allocator replayed over the step
    // lowered in full (every block, no repeats) under the GPU's memory decides whether it fits, and the largest
    // micro-batch and the longest sequence (of `limiting`, the most loaded stage, the sequence when `sequence`) become
    // the largest whose replay completes, searched down from the peak's answers.
    AllocatorEstimate judge(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& shown,
                            const TrainingConfig& limiting, bool sequence, Estimate& e)
    {
        AllocatorEstimate a = replayStep(model, gpu, shown, e.overheadBytes, e.capacityBytes);
        const FitVerdict v = fitVerdict(e.peakBytes, e.capacityBytes, a);
        e.fits = v.fits;
        e.fitDecidedBy = v.decidedBy;
        e.headroomBytes = v.freeBytes();
        // The largest micro-batch is the job's, whichever stage is shown: the most loaded stage's. Where the current
        // step fits there (the replay above), the answers are at least its micro-batch and its sequence.
        const bool limitingFits = shown.pipelineStage == limiting.pipelineStage && v.fits;
        e.maxMicroBatch = replayMaxMicroBatch(model, gpu, limiting, e.overheadBytes, e.capacityBytes, e.maxMicroBatch,
                                              limitingFits ? shown.microBatch : 0);
        if (sequence && e.maxSequence > 0) {
            const std::int64_t byPeak = e.maxSequence;
            e.maxSequence = replayMaxSequence(model, gpu, limiting, e.overheadBytes, e.capacityBytes, e.maxSequence,
                                              limitingFits ? shown.sequenceLength : 0);
            // Below the model's limit the peak reached, the replay is what limits it (502 was "the model's limit").
            if (e.maxSequence < byPeak)
                e.maxSequenceLimitedByModel = false;
        }
        return a;
    }

    // What would shorten a host-bound step (timemodel.h), each lever alone, kept where it raises the throughput by
    // more than 2 %: CUDA graphs, the fused AdamW, twice the micro-batch where that fits.
    std::vector<TimeLever> timeLevers(const ModelSpec& model, const GpuSpec& gpu, const Scenario& scenario,
                                      const Efficiency& efficiency)
    {
        std::vector<TimeLever> levers;
        EstimateOptions o;
        o.keepTimeline = false;
        o.searchMaxSequence = false;
        o.efficiency = efficiency;
        Estimate e;
        estimate(model, gpu, scenario.config, scenario.overrides, o, e);
        if (!e.hostBound() || e.throughputPerSecond <= 0.0)
            return levers;
        const double base = e.throughputPerSecond;
        auto consider = [&](TimeLever::Kind kind, const TrainingConfig& c) {
            Estimate x;
            estimate(model, gpu, c, scenario.overrides, o, x);
            if (x.fits && x.throughputPerSecond > 1.02 * base)
                levers.push_back({ kind, c.microBatch, x.stepSeconds, x.throughputPerSecond });
        };
        TrainingConfig c = scenario.config;
        c.host.execution = Execution::CudaGraphs;
        if (scenario.config.host.execution != Execution::CudaGraphs)
            consider(TimeLever::Kind::CudaGraphs, c);
        c = scenario.config;
        const bool adam = c.optimizer == OptimizerKind::AdamW || c.optimizer == OptimizerKind::Adam;
        if (adam && c.adamImpl != AdamImpl::Fused
            && !(isMixed(c.precision) && c.mixedStyle != MixedPrecisionStyle::Autocast)) {
            c.adamImpl = AdamImpl::Fused;
            consider(TimeLever::Kind::FusedOptimizer, c);
        }
        c = scenario.config;
        c.microBatch = std::min<std::int64_t>(2 * c.microBatch, std::max<std::int64_t>(c.microBatch, e.maxMicroBatch));
        if (c.microBatch > scenario.config.microBatch)
            consider(TimeLever::Kind::LargerBatch, c);
        return levers;
    }

    // Under pipeline parallelism `scenario` is the most loaded stage's and `jobSeconds` the whole pipeline's step:
    // the range keeps the ratio of the stage's fast and slow steps to its own.
    StepTimeRange timeRangeFor(const std::shared_ptr<const Schedule>& schedule, const ModelSpec& model,
                               const GpuSpec& gpu, const Scenario& scenario, double jobSeconds,
                               const Efficiency& efficiency)
    {
        StepTimeRange range;
        EstimateOptions o;
        o.keepTimeline = false;
        o.searchMaxSequence = false;
        Estimate e;
        o.efficiency = fastEfficiency();
        evaluate(schedule, model, gpu, scenario.config, scenario.overrides, o, e);
        range.fastSeconds = e.stepSeconds;
        o.efficiency = slowEfficiency();
        evaluate(schedule, model, gpu, scenario.config, scenario.overrides, o, e);
        range.slowSeconds = e.stepSeconds;
        if (pipelineStages(scenario.config) > 1) {
            o.efficiency = efficiency;
            evaluate(schedule, model, gpu, scenario.config, scenario.overrides, o, e);
            const double scale = e.stepSeconds > 0 ? jobSeconds / e.stepSeconds : 1.0;
            range.fastSeconds *= scale;
            range.slowSeconds *= scale;
        }
        range.computed = true;
        if (pipelineStages(scenario.config) == 1)
            range.levers = timeLevers(model, gpu, scenario, efficiency);
        return range;
    }

} // namespace

void SimulationCache::clear()
{
    m_model = nullptr;
    m_modelId.clear();
    m_stages.clear();
    m_likeBefore.clear();
    m_graphs.clear();
    m_replay.clear();
}

std::vector<double> sweepBatches(std::int64_t current, std::int64_t best)
{
    const double want = std::max<double>({ 2.0 * double(best), 2.0 * double(current), 8.0 });
    const double top = std::clamp(std::exp2(std::ceil(std::log2(want))), 8.0, 4096.0);
    std::vector<double> b;
    const int n = 48;
    for (int i = 0; i < n; ++i) {
        const double v = std::round(std::exp(std::log(top) * i / (n - 1)));
        if (b.empty() || v > b.back())
            b.push_back(v);
    }
    for (double extra : { double(best), double(best + 1), double(current) }) {
        if (extra >= 1 && extra <= top && std::find(b.begin(), b.end(), extra) == b.end())
            b.insert(std::upper_bound(b.begin(), b.end(), extra), extra);
    }
    return b;
}

namespace {

    // The result from the lowered stages: the shown stage's estimate, the pipeline's totals and, when asked, the
    // sweep, the searches, the allocator replay, the fixes and the time range.
    void fillResult(const LoweredStages& lowered, const ModelSpec* model, const GpuSpec* gpu, const Scenario& scenario,
                    const SimulateOptions& options, SimulationResult& out)
    {
        const TrainingConfig& config = scenario.config;
        const auto& schedules = lowered.schedules;
        const int stages = int(schedules.size());
        out.model = model;
        out.gpu = gpu;
        out.scenario = scenario;
        EstimateOptions eo;
        eo.efficiency = options.efficiency;
        eo.searchMaxSequence = options.searches;
        eo.keepTimeline = options.timeline;
        StageTotals totals;
        // Without a timeline or searches the stages' own estimates are what the result needs: the shown one is kept.
        const bool reuse = !eo.keepTimeline && !eo.searchMaxSequence;
        const int wanted = options.stage >= 0 && options.stage < stages ? options.stage : -1;
        const int worst = stages > 1 ? mostLoadedStage(lowered, *model, *gpu, scenario, eo, out.ranks, totals,
                                                       reuse ? &out.estimate : nullptr, wanted, options.walkEveryStage)
                                     : 0;
        TrainingConfig shown = config;
        shown.pipelineStage = options.stage >= 0 && options.stage < stages ? options.stage : worst;
        const std::shared_ptr<const Schedule>& schedule = schedules[std::size_t(shown.pipelineStage)];
        if (stages == 1 || !reuse) {
            // The longest sequence is the most loaded stage's (below when another is shown).
            EstimateOptions shownOptions = eo;
            shownOptions.searchMaxSequence = eo.searchMaxSequence && shown.pipelineStage == worst;
            evaluate(schedule, *model, *gpu, shown, scenario.overrides, shownOptions, out.estimate);
        }
        out.pipeline = {};
        if (stages > 1) {
            combineStages(out.estimate, out.ranks, totals, *model);
            if (options.timeline) { // what the window draws; the planner and the scaling view need only the totals
                std::vector<double> forward, backward;
                for (const RankSummary& r : out.ranks) {
                    forward.push_back(r.forwardSeconds);
                    backward.push_back(r.microBatchSeconds - r.forwardSeconds);
                }
                out.pipeline = pipelineTimeline(config, forward, backward);
            }
        } else
            out.ranks.assign(1,
                             summarize(out.estimate, shown,
                                       model->family == ModelFamily::Transformer ? model->transformer.layers : 0));
        const Estimate& e = out.estimate;
        Scenario stageScenario = scenario;
        stageScenario.config = shown;
        // The longest sequence is the whole pipeline's: the most loaded stage's, whichever stage is shown.
        TrainingConfig limiting = config;
        limiting.pipelineStage = worst;
        if (options.searches && shown.pipelineStage != worst)
            out.estimate.maxSequence = maxSequence(*model, limiting, e.capacityBytes, e.overheadBytes,
                                                   &out.estimate.maxSequenceLimitedByModel);
        out.allocator = options.searches ? judge(*model, *gpu, shown, limiting, true, out.estimate)
                                         : AllocatorEstimate {};
        out.verdict = fitVerdict(e.peakBytes, e.capacityBytes, out.allocator);
        for (RankSummary& rank : out.ranks) {
            if (options.searches && rank.stage == shown.pipelineStage)
                rank.fits = e.fits;
            if (options.searches && rank.stage == limiting.pipelineStage)
                rank.maxMicroBatch = e.maxMicroBatch; // the replay's answer, searched on the most loaded stage
        }
        if (options.sweep) {
            const auto batches = sweepBatches(config.microBatch, e.maxMicroBatch);
            out.sweep = batchSweep(*schedule, batches, e.overheadBytes, config.allocatorReserveFraction);
        } else {
            out.sweep.clear();
        }
        out.searched = options.searches;
        out.fixes.clear();
        if (options.searches && !e.fits)
            out.fixes = fixesFor(*model, *gpu, stageScenario, e);
        out.timeRange = options.searches
            ? timeRangeFor(schedule, *model, *gpu, stageScenario, e.stepSeconds, options.efficiency)
            : StepTimeRange {};
    }

    // How many blocks further on a pipeline stage's first block is than the stage before it's.
    int layerShift(int layers, const TrainingConfig& config)
    {
        return stageLayers(layers, config, config.pipelineStage).front().first
            - stageLayers(layers, config, config.pipelineStage - 1).front().first;
    }

    // A stage's lowered step. The stages between the first and the last are often built alike but for their block
    // indices (LoweredStages::likeBefore): such a stage's step is the one before's (`before`), moved to its blocks,
    // with its own micro-batches in flight.
    std::shared_ptr<const Schedule> lowerStage(const Graph& graph, const TrainingConfig& config,
                                               const std::shared_ptr<const Schedule>& before)
    {
        if (before) {
            auto moved = std::make_shared<Schedule>(*before);
            shiftLayers(*moved, layerShift(graph.layers, config));
            if (retargetInFlight(*moved, config))
                return moved;
        }
        return std::make_shared<const Schedule>(lowerTrainingStep(graph, config));
    }

} // namespace

std::optional<Error> simulate(const Catalog& catalog, const Scenario& requested, const SimulateOptions& options,
                              SimulationCache* cache, SimulationResult& out)
{
    const ModelSpec* model = catalog.model(requested.modelId);
    const GpuSpec* gpu = catalog.gpu(requested.gpuId);
    if (!gpu)
        return Error { "scenario", "gpu", "unknown GPU \"" + requested.gpuId + "\"; known: " + catalog.gpuIds() };
    // SDPA's kernel choice reads the GPU's compute capability (sdpa.h): every graph built from here on, the searches'
    // included, takes it from the scenario's GPU.
    Scenario scenario = requested;
    scenario.config.computeCapability = computeCapabilityCode(gpu->computeCapability);
    if (!model)
        return Error { "scenario", "model",
                       "unknown model \"" + scenario.modelId + "\"; known: " + catalog.modelIds() };
    if (auto e = validateConfig(scenario.config, "scenario"))
        return e;
    if (auto e = validateForModel(*model, scenario.config, "scenario"))
        return e;
    const TrainingConfig& config = scenario.config;

    // One lowered step per pipeline stage (one without pipeline parallelism).
    const int stages = pipelineStages(config);
    TrainingConfig key = inFlightFreeKey(scheduleKey(config));
    key.pipelineStage = 0;
    LoweredStages lowered;
    auto& schedules = lowered.schedules;
    if (cache && int(cache->m_stages.size()) == stages && cache->m_model == model && cache->m_modelId == model->id
        && cache->m_key == key) {
        // The same lowering but for the micro-batches each stage holds in flight: that block resized, or (when it
        // appears or vanishes) the stage lowered again from its cached graph.
        schedules = cache->m_stages;
        lowered.likeBefore = cache->m_likeBefore;
        TrainingConfig c = config;
        for (int stage = 0; stage < stages; ++stage) {
            c.pipelineStage = stage;
            auto& kept = cache->m_stages[std::size_t(stage)];
            if (kept->inFlightOthers == inFlightMicroBatches(c, stage) - 1.0)
                continue;
            auto retargeted = std::make_shared<Schedule>(*kept);
            if (!retargetInFlight(*retargeted, c)) {
                lowerTrainingStep(cache->m_graphs[std::size_t(stage)], c, *retargeted);
                ++cache->m_lowerings;
            }
            kept = schedules[std::size_t(stage)] = std::move(retargeted);
        }
    } else {
        TrainingConfig c = config;
        const TrainingConfig graphKey = graphShapingKey(key);
        const bool reuse = cache && cache->m_model == model && cache->m_modelId == model->id
            && cache->m_graphKey == graphKey && int(cache->m_graphs.size()) == stages;
        if (cache && !reuse)
            cache->m_graphs.resize(std::size_t(stages));
        thread_local std::array<Graph, 2> scratch; // rebuilt in place: their vectors keep their capacity
        const Graph* previous = nullptr;
        for (int stage = 0; stage < stages; ++stage) {
            c.pipelineStage = stage;
            Graph& graph = reuse ? cache->m_graphs[std::size_t(stage)] : scratch[std::size_t(stage % 2)];
            if (!reuse)
                buildGraph(*model, c, graph, GraphLayers::RepeatIdentical);
            const bool like = previous && sameUpToLayerShift(*previous, graph, layerShift(graph.layers, c));
            schedules.push_back(lowerStage(graph, c, like ? schedules.back() : nullptr));
            lowered.likeBefore.push_back(like);
            previous = &graph;
            if (cache && !reuse) {
                std::swap(cache->m_graphs[std::size_t(stage)], graph);
                previous = &cache->m_graphs[std::size_t(stage)];
            }
        }
        if (cache) {
            cache->m_graphKey = graphKey;
            cache->m_model = model;
            cache->m_modelId = model->id;
            cache->m_key = key;
            cache->m_stages = schedules;
            cache->m_likeBefore = lowered.likeBefore;
            ++cache->m_lowerings;
        }
    }

    fillResult(lowered, model, gpu, scenario, options, out);
    return std::nullopt;
}

namespace {

    // SearchResult::allocatorCurve: a replay at every k-th batch of the sweep (about 16; the window waits for them
    // with its verdict) and at the current batch, the largest that fits and the one above it.
    std::vector<std::pair<double, double>> allocatorCurveFor(const SimulationResult& r, std::int64_t largest)
    {
        if (r.sweep.empty() || !r.showsMostLoaded())
            return {};
        const std::size_t step = std::max<std::size_t>(1, (r.sweep.size() + 15) / 16);
        std::vector<double> batches;
        for (std::size_t i = 0; i < r.sweep.size(); i += step)
            batches.push_back(r.sweep[i].batch);
        batches.push_back(r.sweep.back().batch);
        for (const double b : { double(r.scenario.config.microBatch), double(largest), double(largest + 1) }) {
            if (b >= r.sweep.front().batch && b <= r.sweep.back().batch)
                batches.push_back(b);
        }
        std::sort(batches.begin(), batches.end());
        batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
        TrainingConfig config = r.scenario.config;
        config.pipelineStage = r.estimate.config.pipelineStage;
        const std::vector<double> bytes = replayDeviceBytes(*r.model, *r.gpu, config, r.estimate.overheadBytes,
                                                            r.estimate.capacityBytes, batches);
        std::vector<std::pair<double, double>> curve;
        for (std::size_t i = 0; i < batches.size(); ++i)
            curve.emplace_back(batches[i], bytes[i]);
        return curve;
    }

} // namespace

SearchResult searchFits(const SimulationResult& r)
{
    SearchResult s;
    if (!r.model || !r.gpu)
        return s;
    const Estimate& e = r.estimate;
    if (r.searched) {
        s.maxSequence = e.maxSequence;
        s.maxSequenceLimitedByModel = e.maxSequenceLimitedByModel;
        s.maxMicroBatch = e.maxMicroBatch;
        s.verdict = r.verdict;
        s.fixes = r.fixes;
        s.allocator = r.allocator;
        s.timeRange = r.timeRange;
        s.allocatorCurve = allocatorCurveFor(r, s.maxMicroBatch);
        return s;
    }
    // The shown stage's step (the scenario's own with no pipeline); the longest sequence is the most loaded stage's.
    Scenario stage = r.scenario;
    stage.config.pipelineStage = e.config.pipelineStage;
    TrainingConfig limiting = r.scenario.config;
    limiting.pipelineStage = mostLoaded(r.ranks);
    Estimate judged = e; // the verdict, the largest micro-batch and the longest sequence by the one rule
    judged.maxSequence = maxSequence(*r.model, limiting, e.capacityBytes, e.overheadBytes,
                                     &judged.maxSequenceLimitedByModel);
    s.allocator = judge(*r.model, *r.gpu, stage.config, limiting, true, judged);
    s.verdict = fitVerdict(e.peakBytes, e.capacityBytes, s.allocator);
    s.maxSequence = judged.maxSequence;
    s.maxSequenceLimitedByModel = judged.maxSequenceLimitedByModel;
    s.maxMicroBatch = judged.maxMicroBatch;
    if (!s.verdict.fits)
        s.fixes = fixesFor(*r.model, *r.gpu, stage, judged);
    if (r.estimate.schedule)
        s.timeRange = timeRangeFor(r.estimate.schedule, *r.model, *r.gpu, stage, e.stepSeconds, Efficiency {});
    s.allocatorCurve = allocatorCurveFor(r, s.maxMicroBatch);
    return s;
}

bool SimulationResult::showsMostLoaded() const
{
    return std::none_of(ranks.begin(), ranks.end(),
                        [this](const RankSummary& r) { return r.peakBytes > estimate.peakBytes; });
}

DeviceFitCheck deviceFitCheck(const SimulationResult& r)
{
    DeviceFitCheck c;
    if (!r.model || !r.gpu)
        return c;
    c.model = r.model;
    c.gpu = r.gpu;
    c.peaksFit = std::all_of(r.ranks.begin(), r.ranks.end(), [](const RankSummary& k) { return k.fits; });
    c.limiting = r.scenario.config;
    c.limiting.pipelineStage = mostLoaded(r.ranks);
    c.peakBytes = r.estimate.peakBytes;
    c.capacityBytes = r.estimate.capacityBytes;
    c.overheadBytes = r.estimate.overheadBytes;
    return c;
}

namespace {

    // The one rule on the check's most loaded stage, replayed under the capacity.
    FitVerdict replayedVerdict(const DeviceFitCheck& c, SimulationCache* cache)
    {
        const AllocatorEstimate a = replayStep(*c.model, *c.gpu, c.limiting, c.overheadBytes, c.capacityBytes,
                                               cache ? cache->replay() : nullptr);
        return fitVerdict(c.peakBytes, c.capacityBytes, a);
    }

} // namespace

bool fitsOnDevice(const DeviceFitCheck& c, SimulationCache* cache)
{
    if (!c.model || !c.gpu || !c.peaksFit)
        return false;
    return replayedVerdict(c, cache).fits;
}

FitVerdict verdictOnDevice(const SimulationResult& r, SimulationCache* cache)
{
    const DeviceFitCheck c = deviceFitCheck(r);
    if (r.allocator.computed && r.estimate.config.pipelineStage == c.limiting.pipelineStage) {
        FitVerdict v = r.verdict; // the searches replayed it already, on this stage
        v.fits = v.fits && c.peaksFit;
        return v;
    }
    if (!c.model)
        return fitVerdict(c.peakBytes, c.capacityBytes, AllocatorEstimate {});
    // Replayed over the capacity too: the verdict's "over" is then the replay's, as the searches give it.
    FitVerdict v = replayedVerdict(c, cache);
    v.fits = v.fits && c.peaksFit; // a stage's peak over the capacity, maybe not the shown one's
    return v;
}

bool fitsOnDevice(const SimulationResult& r, SimulationCache* cache)
{
    const DeviceFitCheck check = deviceFitCheck(r);
    if (r.allocator.computed) // the searches replayed it already
        return check.model && check.peaksFit && r.verdict.fits;
    return fitsOnDevice(check, cache);
}

std::int64_t largestMicroBatchOnDevice(const SimulationResult& r, bool fits)
{
    const DeviceFitCheck c = deviceFitCheck(r);
    if (r.searched || !c.model)
        return r.estimate.maxMicroBatch;
    return replayMaxMicroBatch(*c.model, *c.gpu, c.limiting, c.overheadBytes, c.capacityBytes, r.estimate.maxMicroBatch,
                               fits ? c.limiting.microBatch : 0);
}

Expected<SimulationResult> simulate(const Catalog& catalog, const Scenario& scenario, const SimulateOptions& options,
                                    SimulationCache* cache)
{
    SimulationResult r;
    if (auto e = simulate(catalog, scenario, options, cache, r))
        return *e;
    return r;
}

} // namespace headroom
