// The searches on a lowered schedule: the peak alone, the largest micro-batch that fits and the longest sequence
// (or image side) that fits. Each one walks the schedule with walkSchedule (schedulewalk.h).

#include "estimate.h"

#include "graphbuilder.h"
#include "modelgraph.h"
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
    // Candidate settings are k * step for k in [1, kMax]: tokens for language models, multiples of the patch size
    // for ViT, multiples of 32 for CNNs (their total stride).
    std::int64_t step = 1, kMax = std::int64_t(1) << 20;
    bool modelLimit = false;
    if (model.family == ModelFamily::Cnn) {
        step = 32;
        kMax = 8192 / step;
    } else if (model.transformer.input == InputKind::Patches) {
        step = std::max(1, model.transformer.patchSize);
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

} // namespace headroom
