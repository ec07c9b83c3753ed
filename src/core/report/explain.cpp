#include "explain.h"

#include "modelgraph.h"

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

namespace {

    // ZeRO's shard of a model-state term: over every data-parallel rank, routed experts over the dp / ep ranks that
    // hold the same experts (lowering.cpp zeroShard).
    void shard(std::vector<MemoryTerm>& terms, const TrainingConfig& cfg)
    {
        const double ranks = std::max(1, cfg.dataParallel);
        const double ep = std::max(1, cfg.expertParallel);
        for (MemoryTerm& t : terms)
            t.divisor = t.expert ? ranks / ep : ranks;
    }

    MemoryTerm byteTerm(TermKind kind, double bytes, double perByte = 1.0)
    {
        MemoryTerm t;
        t.kind = kind;
        t.dtype = DType::U8;
        t.count = bytes;
        t.bytesPerElement = perByte;
        return t;
    }

    // Operators holding the bytes, the largest few by name and the rest as one term.
    void operatorTerms(CategoryExplanation& x, const Schedule& s, std::int32_t step, double batch)
    {
        const std::vector<Contributor> all = contributors(s, x.category, step, batch, std::size_t(-1));
        constexpr std::size_t kNamed = 8;
        double rest = 0.0;
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (i >= kNamed) {
                rest += all[i].bytes;
                continue;
            }
            MemoryTerm t = byteTerm(TermKind::Operator, all[i].bytes);
            t.label = all[i].label;
            t.backward = all[i].gradient;
            x.terms.push_back(t);
            x.contributors.push_back(all[i]);
        }
        if (rest > 0.0)
            x.terms.push_back(byteTerm(TermKind::OtherOperators, rest));
    }

    void gradientTerms(CategoryExplanation& x, const Estimate& e, const ModelStateTerms& m)
    {
        const TrainingConfig& cfg = e.config;
        const bool master = isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::MasterWeights;
        if (cfg.offloadOptimizer && cfg.zeroStage >= 2) {
            x.note = CategoryExplanation::Note::OffloadedGradients; // partitions go to the host as they are made
            return;
        }
        x.terms = m.gradients;
        if (cfg.zeroStage >= 2)
            shard(x.terms, cfg);
        // PyTorch DDP's flat buckets hold a second copy (gradient_as_bucket_view=False; lowering.cpp).
        if (std::max(1, cfg.dataParallel) > 1 && cfg.zeroStage == 0 && !master) {
            x.note = CategoryExplanation::Note::DdpBuckets;
            for (MemoryTerm t : m.gradients) {
                t.kind = TermKind::DdpBuckets;
                x.terms.push_back(t);
            }
        }
    }

    void optimizerTerms(CategoryExplanation& x, const Estimate& e, const ModelStateTerms& m)
    {
        const TrainingConfig& cfg = e.config;
        const OptimizerFootprint& f = e.schedule->optimizer;
        if (cfg.offloadOptimizer) {
            x.note = CategoryExplanation::Note::OffloadedStates;
            return;
        }
        for (const MemoryTerm& t : m.optimizer) {
            if (!f.paged || t.kind == TermKind::MasterWeights) // paged states live in unified memory
                x.terms.push_back(t);
        }
        if (f.paged)
            x.note = CategoryExplanation::Note::PagedStates;
        if (cfg.zeroStage >= 1)
            shard(x.terms, cfg);
    }

    void overheadTerms(CategoryExplanation& x, const Estimate& e)
    {
        // estimate.cpp: the overhead at the peak is the framework figure, the reserve on the bytes allocated then,
        // and the overhead-category blocks the step allocates.
        const double reserve = e.config.allocatorReserveFraction;
        const double allocated = (e.peakBytes - e.overheadBytes) / (1.0 + reserve);
        x.terms.push_back(byteTerm(TermKind::FrameworkOverhead, e.overheadBytes));
        if (reserve > 0.0)
            x.terms.push_back(byteTerm(TermKind::AllocatorReserve, allocated, reserve));
        const double blocks = x.bytes - e.overheadBytes - allocated * reserve;
        if (blocks > 0.5)
            x.terms.push_back(byteTerm(TermKind::Workspaces, blocks));
    }

} // namespace

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
    if (!e.schedule)
        return x;
    const Schedule& s = *e.schedule;
    // The model states from the graph the schedule was lowered from (this stage's, one rank's share under tensor
    // parallelism), by the lowering's and the optimizer's own rules.
    ModelStateTerms m;
    const bool modelStates = c == MemoryCategory::Weights || c == MemoryCategory::Gradients
        || c == MemoryCategory::OptimizerStates || c == MemoryCategory::WeightCopies;
    if (modelStates && r.model)
        m = modelStateTerms(buildGraph(*r.model, cfg, GraphLayers::RepeatIdentical), cfg, s.gradientType);
    switch (c) {
    case MemoryCategory::Weights:
        x.terms = m.weights;
        x.sharded = cfg.zeroStage >= 3;
        if (x.sharded)
            shard(x.terms, cfg);
        break;
    case MemoryCategory::OptimizerStates:
        x.sharded = cfg.zeroStage >= 1;
        optimizerTerms(x, e, m);
        break;
    case MemoryCategory::Gradients:
        x.sharded = cfg.zeroStage >= 2;
        gradientTerms(x, e, m);
        break;
    case MemoryCategory::Activations:
        if (r.model && r.model->family == ModelFamily::Transformer && cfg.attention == AttentionImpl::Eager) {
            const auto& t = r.model->transformer;
            const double sl = double(cfg.sequenceLength), b = batch, h = t.hidden, a = t.heads;
            x.hasKorthikanti = true;
            x.korthikantiBytes = sl * b * h * (34.0 + 5.0 * a * sl / h) * t.layers;
        }
        if (r.model && r.model->family == ModelFamily::Transformer && cfg.attention == AttentionImpl::Fused) {
            const SdpaCall call = sdpaCallFor(r.model->transformer, cfg);
            const SdpaChoice k = chooseSdpaKernel(call);
            x.hasSdpa = true;
            x.sdpaKernel = k.kernel;
            x.sdpaChoice = k;
            x.sdpaCall = call;
            x.torch = toString(cfg.torch);
        }
        operatorTerms(x, s, std::int32_t(s.realIndex({ s.forwardEnd, 0, -1 })), batch);
        break;
    case MemoryCategory::Transient: {
        const double input = s.resident[index(c)].at(batch);
        if (input > 0.0)
            x.terms.push_back(byteTerm(TermKind::InputBatch, input));
        operatorTerms(x, s, e.peakStep, batch);
        x.loop = cfg.loop;
        x.outputBytes = s.modelOutputBytes.at(batch);
        break;
    }
    case MemoryCategory::Overhead:
        x.overheadBytes = e.overheadBytes;
        x.reserveFraction = cfg.allocatorReserveFraction;
        overheadTerms(x, e);
        break;
    case MemoryCategory::WeightCopies:
        x.terms = m.weightCopies;
        // autocast_mode.cpp cached_cast: a gathered ZeRO-3 parameter is still the same FP32 leaf, so its cast is kept.
        if (cfg.zeroStage >= 3 && isMixed(cfg.precision) && cfg.mixedStyle == MixedPrecisionStyle::Autocast
            && x.bytes > 0.0)
            x.note = CategoryExplanation::Note::GatheredCasts;
        break;
    }
    return x;
}

} // namespace headroom
