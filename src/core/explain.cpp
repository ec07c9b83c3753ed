#include "explain.h"

#include <algorithm>
#include <map>

namespace headroom {

std::vector<Contributor> contributors(const Schedule& s, MemoryCategory c, std::int32_t step, double batch,
                                      std::size_t limit)
{
    std::vector<Contributor> out;
    if (step < 0)
        return out;
    std::map<std::pair<std::string_view, bool>, double> byLabel;
    for (const MemoryBlock& b : s.blocks) {
        if (b.category != c || b.alloc < 0 || b.alloc > step || std::max(b.alloc, b.lastUse) < step)
            continue;
        const Step& at = s.steps[b.alloc];
        byLabel[{ at.label, at.phase == Phase::Backward }] += b.bytes.at(batch);
    }
    for (const auto& [key, bytes] : byLabel)
        out.push_back({ key.first, key.second, bytes });
    std::stable_sort(out.begin(), out.end(),
                     [](const Contributor& a, const Contributor& b) { return a.bytes > b.bytes; });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

CategoryExplanation explainCategory(const SimulationResult& r, MemoryCategory c)
{
    CategoryExplanation x;
    x.category = c;
    const Estimate& e = r.estimate;
    const TrainingConfig& cfg = e.config;
    x.parameters = e.parameters;
    x.ranks = std::max(1, cfg.dataParallel);
    x.bytes = c == MemoryCategory::Transient ? e.atPeak[index(c)] : e.components[index(c)];
    const double batch = double(cfg.microBatch);
    // Bytes of one stored parameter: FP32 under autocast, 16-bit with master weights or a pure-BF16 model.
    const bool master = isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::MasterWeights;
    DType paramType = DType::F32;
    if (master || cfg.precision == Precision::PureBF16)
        paramType = cfg.precision == Precision::MixedFP16 ? DType::F16 : DType::BF16;
    switch (c) {
    case MemoryCategory::Weights:
        x.bytesPerParameter = bytesPerElement(paramType);
        x.sharded = cfg.zeroStage >= 3;
        x.closedFormBytes = x.bytes;
        break;
    case MemoryCategory::OptimizerStates: // per-moment bytes of a non-master optimizer follow the parameters
        x.bytesPerParameter = bytesPerElement(paramType);
        x.sharded = cfg.zeroStage >= 1;
        break;
    case MemoryCategory::Gradients:
        x.bytesPerParameter = e.schedule ? (e.schedule->gradientType == DType::F32 ? 4.0 : 2.0) : 4.0;
        x.sharded = cfg.zeroStage >= 2;
        x.closedFormBytes = x.sharded ? x.parameters * x.bytesPerParameter / x.ranks
                                      : x.parameters * x.bytesPerParameter;
        // The simulated value can differ from the closed form: DDP's buckets add a copy, offload moves partitions out.
        if (x.bytes > x.closedFormBytes * 1.01)
            x.note = CategoryExplanation::Note::DdpBuckets;
        else if (x.bytes < x.closedFormBytes * 0.99 && cfg.offloadOptimizer)
            x.note = CategoryExplanation::Note::OffloadedGradients;
        break;
    case MemoryCategory::Activations:
        if (r.model && r.model->family == ModelFamily::Transformer && cfg.attention == AttentionImpl::Eager) {
            const auto& t = r.model->transformer;
            const double s = double(cfg.sequenceLength), b = batch, h = t.hidden, a = t.heads;
            x.hasKorthikanti = true;
            x.korthikantiBytes = s * b * h * (34.0 + 5.0 * a * s / h) * t.layers;
        }
        if (e.schedule)
            x.contributors = contributors(*e.schedule, c, e.schedule->forwardEnd, batch);
        break;
    case MemoryCategory::Transient:
        if (e.schedule)
            x.contributors = contributors(*e.schedule, c, e.peakStep, batch);
        break;
    case MemoryCategory::Overhead:
        x.overheadBytes = e.overheadBytes;
        x.reserveFraction = cfg.allocatorReserveFraction;
        break;
    case MemoryCategory::WeightCopies:
        break;
    }
    return x;
}

} // namespace headroom
