// The searches on a lowered schedule: the peak alone, the largest micro-batch that fits and the longest sequence
// (or image side) that fits. Each one walks the schedule with walkSchedule (schedulewalk.h). Then the same answers
// under the one fit rule, the caching allocator replayed under the GPU's memory (allocator.h, fitVerdict).

#include "allocator.h"
#include "estimate.h"

#include "graphbuilder.h"
#include "modelgraph.h"
#include "ncclmemory.h"
#include "schedulewalk.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headroom {

namespace {

    constexpr std::int64_t kMaxBatchReported = std::int64_t(1) << 40;

    double floorBatch(double v)
    {
        if (!std::isfinite(v))
            return v > 0 ? double(kMaxBatchReported) : 0.0;
        return std::floor(std::clamp(v, 0.0, double(kMaxBatchReported)));
    }

    // Candidate settings are k * step: tokens for language models, multiples of the patch size for ViT, multiples of
    // 32 for CNNs (their total stride).
    std::int64_t sequenceStep(const ModelSpec& model)
    {
        if (model.family == ModelFamily::Cnn)
            return 32;
        if (model.transformer.input == InputKind::Patches)
            return std::max(1, model.transformer.patchSize);
        return 1;
    }

} // namespace

std::int64_t LargestBatch::result() const { return best < 1.0 ? 0 : static_cast<std::int64_t>(floorBatch(best)); }

double peakBytes(const Schedule& s, double batch, double overheadBytes, double reserveFraction)
{
    struct {
        double batch;
        double peak = 0.0;
        void atStep(const StepVisit& at, const LiveBytes& live)
        {
            const double v = live.total.at(batch);
            peak = at.step == kResidentOnly ? v : std::max(peak, v);
        }
    } v { batch };
    walkSchedule<WalkDetail::Total>(s, v);
    return v.peak * (1.0 + reserveFraction) + overheadBytes;
}

std::int64_t maxMicroBatch(const Schedule& s, double capacityBytes, double overheadBytes, double reserveFraction)
{
    struct {
        LargestBatch largest;
        void atStep(const StepVisit&, const LiveBytes& live) { largest.consider(live.total); }
    } v { LargestBatch { (capacityBytes - overheadBytes) / (1.0 + reserveFraction) } };
    walkSchedule<WalkDetail::Total>(s, v);
    return v.largest.result();
}

std::int64_t maxSequence(const ModelSpec& model, const TrainingConfig& config, double capacityBytes,
                         double overheadBytes, bool* limitedByModel)
{
    const std::int64_t step = sequenceStep(model);
    std::int64_t kMax = std::int64_t(1) << 20;
    bool modelLimit = false;
    if (model.family == ModelFamily::Cnn || model.transformer.input == InputKind::Patches) {
        kMax = 8192 / step;
    } else if (model.transformer.position == PositionKind::Learned) {
        kMax = std::max<std::int64_t>(1, model.transformer.maxPositions);
        modelLimit = true;
    }
    thread_local Graph g;
    thread_local Schedule s;
    auto fitsAt = [&](std::int64_t k) {
        TrainingConfig c = config;
        c.sequenceLength = k * step;
        buildGraph(model, c, g, GraphLayers::RepeatIdentical);
        lowerTrainingStep(g, c, s);
        return peakBytes(s, double(c.microBatch), overheadBytes, c.allocatorReserveFraction) <= capacityBytes;
    };
    if (limitedByModel)
        *limitedByModel = false;
    if (!fitsAt(1))
        return 0;
    if (fitsAt(kMax)) {
        if (limitedByModel)
            *limitedByModel = modelLimit;
        return kMax * step;
    }
    std::int64_t lo = 1, hi = kMax; // fits(lo), !fits(hi)
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fitsAt(mid) ? lo : hi) = mid;
    }
    return lo * step;
}

namespace {

    AllocatorSettings settingsFor(const GpuSpec& gpu, const TrainingConfig& config, double capacityBytes)
    {
        AllocatorSettings settings;
        settings.expandableSegments = config.expandableSegments;
        // The framework overhead (frameworkOverheadBytes) holds the context and the cuBLAS workspaces chosen.
        settings.cublasWorkspaceBytes = config.cublasWorkspaceBytes.value_or(defaultCublasWorkspaceBytes(gpu));
        settings.cublasLtWorkspaceBytes = cublasLtWorkspaceBytesFor(config.torch);
        // On an H200 (torch 2.11) every training step holds one more 32 MiB workspace than the Python thread's
        // (tests/data/measured, docs/accuracy.md 1.7).
        settings.cublasHandles = kTrainingCublasHandles;
        settings.capacityBytes = capacityBytes;
        const NcclMemory nccl = ncclMemory(gpu, config);
        settings.ncclBytes = nccl.bytes;
        settings.ncclCommunicators = nccl.communicators;
        return settings;
    }

    AllocatorEstimate replayOn(const Graph& g, const Schedule& s, const GpuSpec& gpu, const TrainingConfig& config,
                               double overheadBytes, double capacityBytes)
    {
        AllocatorEstimate a = replayCachingAllocator(s, residentTensors(g, s, config), double(config.microBatch),
                                                     settingsFor(gpu, config, capacityBytes), overheadBytes);
        a.cudnnWorkspaceBytes = config.cudnnWorkspaceBytes; // the schedule's blocks hold it (lowering.cpp)
        return a;
    }

    // The largest k in (lo, hi] with fits(k), given that fits fails above it and mostly holds below: down from hi by
    // 1, 2, 4, ... until one fits, then bisected between that and the last that failed; `lo` (0, or a k known to fit)
    // when none does.
    template <typename Fits>
    std::int64_t largestDown(std::int64_t hi, std::int64_t lo, Fits&& fits)
    {
        lo = std::max<std::int64_t>(0, lo);
        if (hi <= lo)
            return lo;
        if (fits(hi))
            return hi;
        std::int64_t failed = hi;
        for (std::int64_t stride = 1;; stride *= 2) {
            const std::int64_t k = std::max(lo + 1, failed - stride);
            if (k >= failed)
                return lo;
            if (fits(k)) {
                lo = k;
                break;
            }
            failed = k;
        }
        while (failed - lo > 1) {
            const std::int64_t mid = lo + (failed - lo) / 2;
            (fits(mid) ? lo : failed) = mid;
        }
        return lo;
    }

} // namespace

struct ReplayCache::Entry {
    const ModelSpec* model = nullptr;
    std::string modelId;
    TrainingConfig graphKey;
    TrainingConfig scheduleKey;
    Graph graph;
    Schedule schedule;
};

ReplayCache::ReplayCache() = default;
ReplayCache::~ReplayCache() = default;
void ReplayCache::clear() { m_entry.reset(); }

AllocatorEstimate replayStep(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                             double overheadBytes, double capacityBytes, ReplayCache* cache)
{
    if (!cache) {
        const Graph g = buildGraph(model, config, GraphLayers::RepeatIdentical);
        const Schedule s = lowerTrainingStep(g, config);
        return replayOn(g, s, gpu, config, overheadBytes, capacityBytes);
    }
    if (!cache->m_entry)
        cache->m_entry = std::make_unique<ReplayCache::Entry>();
    ReplayCache::Entry& e = *cache->m_entry;
    const TrainingConfig lowering = scheduleKey(config);
    const TrainingConfig shape = graphShapingKey(lowering);
    const bool sameModel = e.model == &model && e.modelId == model.id;
    if (!sameModel || !(e.graphKey == shape)) {
        e.graph = buildGraph(model, config, GraphLayers::RepeatIdentical);
        e.graphKey = shape;
        e.model = &model;
        e.modelId = model.id;
        e.schedule = lowerTrainingStep(e.graph, config);
        e.scheduleKey = lowering;
    } else if (!(e.scheduleKey == lowering)) {
        lowerTrainingStep(e.graph, config, e.schedule);
        e.scheduleKey = lowering;
    }
    return replayOn(e.graph, e.schedule, gpu, config, overheadBytes, capacityBytes);
}

std::int64_t replayMaxMicroBatch(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                                 double overheadBytes, double capacityBytes, std::int64_t linearBest,
                                 std::int64_t fitsAt)
{
    // Nothing above the micro-batch known to fit to search (the current one, already the peak's answer): no lowering.
    if (linearBest <= std::max<std::int64_t>(0, fitsAt))
        return std::max<std::int64_t>(0, fitsAt);
    // The schedule does not depend on the micro-batch (scheduleKey): one lowering, one replay per candidate.
    const Graph g = buildGraph(model, config, GraphLayers::RepeatIdentical);
    const Schedule s = lowerTrainingStep(g, config);
    return largestDown(linearBest, fitsAt, [&](std::int64_t b) {
        TrainingConfig c = config;
        c.microBatch = b;
        return replayOn(g, s, gpu, c, overheadBytes, capacityBytes).fits();
    });
}

std::vector<double> replayDeviceBytes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                                      double overheadBytes, double capacityBytes, std::span<const double> microBatches)
{
    std::vector<double> out;
    if (microBatches.empty())
        return out;
    const Graph g = buildGraph(model, config, GraphLayers::RepeatIdentical);
    const Schedule s = lowerTrainingStep(g, config);
    out.reserve(microBatches.size());
    for (const double b : microBatches) {
        TrainingConfig c = config;
        c.microBatch = std::max<std::int64_t>(1, std::int64_t(std::llround(b)));
        out.push_back(replayOn(g, s, gpu, c, overheadBytes, capacityBytes).deviceBytes);
    }
    return out;
}

std::int64_t replayMaxSequence(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                               double overheadBytes, double capacityBytes, std::int64_t linearBest, std::int64_t fitsAt)
{
    const std::int64_t step = sequenceStep(model);
    return step * largestDown(linearBest / step, fitsAt / step, [&](std::int64_t k) {
               TrainingConfig c = config;
               c.sequenceLength = k * step;
               return replayStep(model, gpu, c, overheadBytes, capacityBytes).fits();
           });
}

} // namespace headroom
