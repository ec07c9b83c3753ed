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
    // Live bytes of the category by the operator that allocated them, over the real model's steps up to `step`
    // (every run of a repeated block), at the high-water mark of that step.
    struct Live {
        double bytes = 0.0;
        int blocks = 0;
    };
    std::map<std::pair<std::string_view, bool>, Live> byLabel;
    auto apply = [&](const Step& st, bool frees) {
        const std::int32_t* ev = s.events.data() + st.eventsBegin + (frees ? st.allocCount : 0);
        const std::int32_t n = frees ? st.freeCount : st.allocCount;
        for (std::int32_t k = 0; k < n; ++k) {
            const MemoryBlock& b = s.blocks[std::size_t(ev[k])];
            if (b.category != c)
                continue;
            const Step& at = s.steps[std::size_t(b.alloc)];
            // The other micro-batches a pipeline stage holds are allocated with its first step, not by it.
            const std::string_view label = ev[k] == s.inFlightBlock ? std::string_view("pipeline.in_flight") : at.label;
            Live& l = byLabel[{ label, at.phase == Phase::Backward }];
            l.bytes += frees ? -b.bytes.at(batch) : b.bytes.at(batch);
            l.blocks += frees ? -1 : 1;
        }
    };
    const StepRun target = s.locate(step);
    for (std::int32_t i = 0; i <= target.step; ++i) {
        const std::int32_t r = s.repeatOf(i);
        const int runs = r < 0 ? 1 : s.repeats[std::size_t(r)].count;
        // Every run of a repeated block that ends before the target: run the block through that many times.
        if (r >= 0 && i == s.repeats[std::size_t(r)].first) {
            const StepRepeat& rep = s.repeats[std::size_t(r)];
            const int whole = target.repeat == r ? target.run : runs;
            for (int run = 0; run < whole; ++run) {
                for (std::int32_t j = rep.first; j <= rep.last; ++j) {
                    apply(s.steps[std::size_t(j)], false);
                    apply(s.steps[std::size_t(j)], true);
                }
            }
            if (target.repeat != r) {
                i = rep.last;
                continue;
            }
        }
        apply(s.steps[std::size_t(i)], false);
        if (i < target.step)
            apply(s.steps[std::size_t(i)], true);
    }
    for (const auto& [key, live] : byLabel) {
        if (live.blocks > 0)
            out.push_back({ key.first, key.second, live.bytes });
    }
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
    x.parameters = e.parametersPerGpu; // this GPU's share under tensor parallelism
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
        if (r.model && r.model->family == ModelFamily::Transformer && cfg.attention == AttentionImpl::Fused) {
            const SdpaCall call = sdpaCallFor(r.model->transformer, cfg);
            const SdpaChoice k = chooseSdpaKernel(call);
            x.hasSdpa = true;
            x.sdpaKernel = k.kernel;
            x.sdpaReason = sdpaReason(k, call);
            x.torch = toString(cfg.torch);
        }
        if (e.schedule)
            x.contributors = contributors(*e.schedule, c,
                                          std::int32_t(e.schedule->realIndex({ e.schedule->forwardEnd, 0, -1 })),
                                          batch);
        break;
    case MemoryCategory::Transient:
        if (e.schedule)
            x.contributors = contributors(*e.schedule, c, e.peakStep, batch);
        x.loop = cfg.loop;
        x.outputBytes = e.schedule ? e.schedule->modelOutputBytes.at(batch) : 0.0;
        break;
    case MemoryCategory::Overhead:
        x.overheadBytes = e.overheadBytes;
        x.reserveFraction = cfg.allocatorReserveFraction;
        break;
    case MemoryCategory::WeightCopies:
        // autocast_mode.cpp cached_cast: a gathered ZeRO-3 parameter is still the same FP32 leaf, so its cast is kept.
        if (cfg.zeroStage >= 3 && isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::Autocast
            && x.bytes > 0.0)
            x.note = CategoryExplanation::Note::GatheredCasts;
        break;
    }
    return x;
}

} // namespace headroom
