#include "fixes.h"

#include "allocator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iterator>
#include <optional>

namespace headroom {

namespace {

    EstimateOptions quickOptions()
    {
        EstimateOptions o;
        o.searchMaxSequence = false;
        o.keepTimeline = false;
        return o;
    }

    // One change of each kind that applies to `c` (the smaller micro-batch excepted: it depends on what else
    // changed). A combination takes at most one change per dimension: attention, checkpointing, precision,
    // optimizer, ZeRO stage, offload, what trains.
    struct Change {
        FixKind kind;
        int dimension;
        std::function<TrainingConfig(TrainingConfig, const GpuSpec&)> apply;
        bool combinationOnly = false; // ZeRO stages beyond the next one
    };

    constexpr int kDimensions = 7;

    std::vector<Change> changesFor(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& c)
    {
        std::vector<Change> out;
        const bool transformer = model.family == ModelFamily::Transformer;
        if (transformer && c.attention == AttentionImpl::Eager)
            out.push_back({ FixKind::FusedAttention, 0, [](TrainingConfig x, const GpuSpec&) {
                               x.attention = AttentionImpl::Fused;
                               return x;
                           } });
        if (transformer && c.checkpointing == Checkpointing::None && c.attention == AttentionImpl::Eager)
            out.push_back({ FixKind::SelectiveCheckpointing, 1, [](TrainingConfig x, const GpuSpec&) {
                               x.checkpointing = Checkpointing::Selective;
                               return x;
                           } });
        if (transformer && c.checkpointing != Checkpointing::Full)
            out.push_back({ FixKind::FullCheckpointing, 1, [](TrainingConfig x, const GpuSpec&) {
                               x.checkpointing = Checkpointing::Full;
                               return x;
                           } });
        if (c.precision == Precision::FP32 || c.precision == Precision::TF32)
            out.push_back({ FixKind::MixedPrecision, 2, [](TrainingConfig x, const GpuSpec& g) {
                               x.precision = g.supports(MathUnit::Bf16Tensor) ? Precision::MixedBF16
                                                                              : Precision::MixedFP16;
                               return x;
                           } });
        if (c.precision != Precision::PureBF16 && gpu.supports(MathUnit::Bf16Tensor))
            out.push_back({ FixKind::PureBf16, 2, [](TrainingConfig x, const GpuSpec&) {
                               x.precision = Precision::PureBF16;
                               return x;
                           } });
        const bool torchAdam = (c.optimizer == OptimizerKind::AdamW || c.optimizer == OptimizerKind::Adam)
            && !(isMixed(c.precision) && c.mixedStyle == MixedPrecisionStyle::MasterWeights);
        if (torchAdam && c.adamImpl != AdamImpl::Fused)
            out.push_back({ FixKind::FusedAdamW, 3, [](TrainingConfig x, const GpuSpec&) {
                               x.adamImpl = AdamImpl::Fused;
                               return x;
                           } });
        if (c.optimizer == OptimizerKind::AdamW || c.optimizer == OptimizerKind::Adam)
            out.push_back({ FixKind::EightBitOptimizer, 3, [](TrainingConfig x, const GpuSpec&) {
                               x.optimizer = OptimizerKind::AdamW8bit;
                               return x;
                           } });
        for (int stage = c.zeroStage + 1; c.dataParallel > 1 && stage <= 3; ++stage)
            out.push_back({ FixKind::ZeroStage, 4,
                            [stage](TrainingConfig x, const GpuSpec&) {
                                x.zeroStage = stage;
                                return x;
                            },
                            stage > c.zeroStage + 1 });
        if (!c.offloadOptimizer)
            out.push_back({ FixKind::OptimizerOffload, 5, [](TrainingConfig x, const GpuSpec&) {
                               x.offloadOptimizer = true;
                               return x;
                           } });
        const FinetuneMethod method = c.finetune.method;
        if (transformer && (method == FinetuneMethod::Full || method == FinetuneMethod::Freeze))
            out.push_back({ FixKind::LoRA, 6, [](TrainingConfig x, const GpuSpec&) {
                               x.finetune.method = FinetuneMethod::LoRA;
                               return x;
                           } });
        if (transformer && method != FinetuneMethod::QLoRA)
            out.push_back({ FixKind::QLoRA, 6, [](TrainingConfig x, const GpuSpec&) {
                               x.finetune.method = FinetuneMethod::QLoRA;
                               return x;
                           } });
        return out;
    }

    // The largest micro-batch at most `largest` that divides the global batch (micro-batch x accumulation steps),
    // so that the step trains on the same samples; nothing when the micro-batch is already at most that.
    std::optional<TrainingConfig> sameGlobalBatch(TrainingConfig c, std::int64_t largest)
    {
        if (largest < 1 || largest >= c.microBatch)
            return std::nullopt;
        const std::int64_t global = c.microBatch * std::int64_t(c.gradientAccumulation);
        std::int64_t micro = 1;
        // A bounded search: a global batch with no divisor near the limit ends at 1 (every number's divisor).
        for (std::int64_t m = largest, tries = 0; m > 1 && tries < (1 << 16); --m, ++tries) {
            if (global % m == 0) {
                micro = m;
                break;
            }
        }
        // A configuration holds at most 2^20 accumulation steps (validateConfig).
        if (global / micro > (1 << 20))
            return std::nullopt;
        c.microBatch = micro;
        c.gradientAccumulation = int(global / micro);
        return c;
    }

    // A micro-batch in (largest / 2, largest] and the accumulation steps that bring the global batch nearest the
    // current one (the larger micro-batch on a tie), when the one that keeps it exactly, `kept`, is awkwardly small.
    std::optional<TrainingConfig> nearGlobalBatch(TrainingConfig c, std::int64_t largest, std::int64_t kept)
    {
        if (largest < 2 || largest >= c.microBatch || 2 * kept > largest)
            return std::nullopt;
        const std::int64_t global = c.microBatch * std::int64_t(c.gradientAccumulation);
        std::int64_t bestMicro = 0, bestSteps = 0, bestDistance = global + 1;
        for (std::int64_t m = largest, tries = 0; 2 * m > largest && tries < (1 << 16); --m, ++tries) {
            const std::int64_t steps = std::max<std::int64_t>(1, (global + m / 2) / m);
            const std::int64_t distance = std::abs(m * steps - global);
            if (distance < bestDistance) {
                bestMicro = m;
                bestSteps = steps;
                bestDistance = distance;
            }
        }
        if (bestMicro == 0 || bestDistance == 0 || bestSteps > (1 << 20))
            return std::nullopt;
        c.microBatch = bestMicro;
        c.gradientAccumulation = int(bestSteps);
        return c;
    }

    struct Trial {
        Fix fix;
        std::int64_t maxMicroBatch = 0;
    };

    // The changes applied to `c`, estimated. With `replay`, "fits" is the one rule's (fitVerdict: the caching
    // allocator replayed under the GPU's memory) and the largest micro-batch the largest whose replay completes;
    // without it the peak's, for the first pass over many combinations (confirmed by the replay before one is kept).
    Trial evaluateFix(const ModelSpec& model, const GpuSpec& gpu, const GpuOverrides& overrides, double currentPeak,
                      std::vector<FixKind> changes, const TrainingConfig& c, bool replay)
    {
        const Estimate e = estimate(model, gpu, c, overrides, quickOptions());
        Trial t;
        t.fix.kind = changes.front();
        t.fix.changes = std::move(changes);
        t.fix.config = c;
        t.fix.peakBytes = e.peakBytes;
        t.fix.savedBytes = currentPeak - e.peakBytes;
        t.fix.fits = e.fits;
        t.fix.stepSeconds = e.stepSeconds;
        t.fix.throughputPerSecond = e.throughputPerSecond;
        t.maxMicroBatch = e.maxMicroBatch;
        if (replay) {
            const AllocatorEstimate a = replayStep(model, gpu, c, e.overheadBytes, e.capacityBytes);
            t.fix.fits = fitVerdict(e.peakBytes, e.capacityBytes, a).fits;
            t.maxMicroBatch = replayMaxMicroBatch(model, gpu, c, e.overheadBytes, e.capacityBytes, t.maxMicroBatch,
                                                  t.fix.fits ? c.microBatch : 0);
        }
        return t;
    }

    // A change that saves less than this is not offered alone (issue 32): 8 MiB, or 1 % of the peak.
    double negligibleSaving(double peakBytes) { return std::max(8.0 * 1024 * 1024, 0.01 * peakBytes); }

    // Without a change, more than this much slower is "noticeably slower": the change earns its place.
    constexpr double kNoticeablySlower = 0.01;

    // `c` with the change of kind `k` taken back: each dimension of a combination holds one change.
    TrainingConfig without(FixKind k, TrainingConfig c, const TrainingConfig& base)
    {
        switch (k) {
        case FixKind::FusedAttention:
            c.attention = base.attention;
            break;
        case FixKind::SelectiveCheckpointing:
        case FixKind::FullCheckpointing:
            c.checkpointing = base.checkpointing;
            break;
        case FixKind::MixedPrecision:
        case FixKind::PureBf16:
            c.precision = base.precision;
            break;
        case FixKind::EightBitOptimizer:
            c.optimizer = base.optimizer;
            break;
        case FixKind::FusedAdamW:
            c.adamImpl = base.adamImpl;
            break;
        case FixKind::ZeroStage:
            c.zeroStage = base.zeroStage;
            break;
        case FixKind::OptimizerOffload:
            c.offloadOptimizer = base.offloadOptimizer;
            break;
        case FixKind::LoRA:
        case FixKind::QLoRA:
            c.finetune.method = base.finetune.method;
            break;
        case FixKind::SmallerMicroBatch: // added only when the changes do not fit without it
        case FixKind::NearGlobalBatch:   // a fix of its own, never one dimension of a combination
            break;
        }
        return c;
    }

    bool trainsDifferently(const Fix& f) { return std::any_of(f.changes.begin(), f.changes.end(), changesWhatTrains); }

    // Fixes that fit first; among them the ones that still train the whole model the same way, then throughput.
    bool better(const Fix& a, const Fix& b)
    {
        if (a.fits != b.fits)
            return a.fits;
        if (a.fits && trainsDifferently(a) != trainsDifferently(b))
            return !trainsDifferently(a);
        if (a.fits) {
            if (a.throughputPerSecond != b.throughputPerSecond)
                return a.throughputPerSecond > b.throughputPerSecond;
            return a.changes.size() < b.changes.size();
        }
        return a.savedBytes > b.savedBytes;
    }

    // A combination found by its peak, as the one rule sees it: its replay must complete (else the same changes at
    // the largest micro-batch whose replay does, at the same global batch), and each change must earn its place:
    // without it the combination does not fit, or runs more than 1 % slower (issue 32). Nothing when it fails.
    std::optional<Fix> confirm(const ModelSpec& model, const GpuSpec& gpu, const GpuOverrides& overrides,
                               const TrainingConfig& base, double currentPeak, const Fix& f)
    {
        Trial t = evaluateFix(model, gpu, overrides, currentPeak, f.changes, f.config, true);
        if (!t.fix.fits) {
            auto smaller = sameGlobalBatch(f.config, t.maxMicroBatch);
            if (!smaller)
                return std::nullopt;
            std::vector<FixKind> kinds = f.changes;
            if (std::find(kinds.begin(), kinds.end(), FixKind::SmallerMicroBatch) == kinds.end())
                kinds.push_back(FixKind::SmallerMicroBatch);
            t = evaluateFix(model, gpu, overrides, currentPeak, kinds, *smaller, true);
            if (!t.fix.fits)
                return std::nullopt;
        }
        for (FixKind k : t.fix.changes) {
            if (k == FixKind::SmallerMicroBatch)
                continue;
            std::vector<FixKind> rest;
            std::copy_if(t.fix.changes.begin(), t.fix.changes.end(), std::back_inserter(rest),
                         [k](FixKind x) { return x != k; });
            if (rest.empty())
                continue;
            const Trial r = evaluateFix(model, gpu, overrides, currentPeak, rest, without(k, t.fix.config, base), true);
            if (r.fix.fits && r.fix.throughputPerSecond >= (1.0 - kNoticeablySlower) * t.fix.throughputPerSecond)
                return std::nullopt;
        }
        return t.fix;
    }

} // namespace

std::vector<Fix> suggestFixes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                              const GpuOverrides& overrides, const Estimate& current)
{
    std::vector<Fix> fixes;
    for (const Change& ch : changesFor(model, gpu, config)) {
        if (ch.combinationOnly)
            continue;
        Trial t = evaluateFix(model, gpu, overrides, current.peakBytes, { ch.kind }, ch.apply(config, gpu), true);
        if (t.fix.savedBytes >= negligibleSaving(current.peakBytes))
            fixes.push_back(std::move(t.fix));
    }
    std::optional<Fix> near;
    std::int64_t largest = current.maxMicroBatch;
    if (auto c = sameGlobalBatch(config, largest)) {
        Trial t = evaluateFix(model, gpu, overrides, current.peakBytes, { FixKind::SmallerMicroBatch }, *c, true);
        // The largest micro-batch whose replay completes with these accumulation steps (`current`'s may be its
        // peak's, or without them: the gradients then live through every micro-batch but the first), and the global
        // batch kept under it.
        if (t.maxMicroBatch < largest) {
            largest = t.maxMicroBatch;
            if (auto smaller = sameGlobalBatch(config, largest); smaller && smaller->microBatch != c->microBatch) {
                c = smaller;
                t = evaluateFix(model, gpu, overrides, current.peakBytes, { FixKind::SmallerMicroBatch }, *c, true);
            }
        }
        if (t.fix.savedBytes >= negligibleSaving(current.peakBytes))
            fixes.push_back(std::move(t.fix));
        if (auto n = nearGlobalBatch(config, largest, c->microBatch)) {
            Trial nt = evaluateFix(model, gpu, overrides, current.peakBytes, { FixKind::NearGlobalBatch }, *n, true);
            if (nt.fix.peakBytes < current.peakBytes)
                near = std::move(nt.fix);
        }
    }
    std::stable_sort(fixes.begin(), fixes.end(), better);
    // The practical alternative right after the change that keeps the global batch exactly.
    if (near) {
        auto kept = std::find_if(fixes.begin(), fixes.end(),
                                 [](const Fix& f) { return f.kind == FixKind::SmallerMicroBatch; });
        fixes.insert(kept == fixes.end() ? kept : kept + 1, std::move(*near));
    }
    return fixes;
}

std::vector<Fix> combinedFixes(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                               const GpuOverrides& overrides, const Estimate& current, std::size_t limit)
{
    const std::vector<Change> all = changesFor(model, gpu, config);
    // Per dimension: "no change" or one of its changes; every combination of two or more.
    std::array<std::vector<const Change*>, kDimensions> byDimension;
    for (const Change& ch : all)
        byDimension[ch.dimension].push_back(&ch);
    std::vector<Fix> found;
    std::array<int, kDimensions> pick {}; // 0: no change, k: the k-th change of that dimension
    while (true) {
        std::vector<FixKind> kinds;
        TrainingConfig c = config;
        for (int d = 0; d < kDimensions; ++d) {
            if (pick[d] > 0) {
                const Change* ch = byDimension[d][pick[d] - 1];
                kinds.push_back(ch->kind);
                c = ch->apply(c, gpu);
            }
        }
        if (!kinds.empty()) {
            Trial t = evaluateFix(model, gpu, overrides, current.peakBytes, kinds, c, false);
            // Too big at this micro-batch: the same changes with the largest micro-batch that fits.
            if (!t.fix.fits) {
                if (auto smaller = sameGlobalBatch(c, t.maxMicroBatch)) {
                    kinds.push_back(FixKind::SmallerMicroBatch);
                    t = evaluateFix(model, gpu, overrides, current.peakBytes, kinds, *smaller, false);
                }
            }
            if (t.fix.fits && t.fix.changes.size() >= 2)
                found.push_back(std::move(t.fix));
        }
        int d = 0;
        while (d < kDimensions && pick[d] == int(byDimension[d].size())) {
            pick[d] = 0;
            ++d;
        }
        if (d == kDimensions)
            break;
        ++pick[d];
    }
    std::stable_sort(found.begin(), found.end(), better);
    // A combination that adds changes to a better (or as good) one already kept offers nothing more.
    std::vector<Fix> kept;
    auto contains = [](const Fix& big, const Fix& small) {
        return std::all_of(small.changes.begin(), small.changes.end(), [&](FixKind k) {
            return std::find(big.changes.begin(), big.changes.end(), k) != big.changes.end();
        });
    };
    for (Fix& f : found) {
        if (kept.size() == limit)
            break;
        if (std::any_of(kept.begin(), kept.end(), [&](const Fix& k) { return contains(f, k); }))
            continue;
        if (auto confirmed = confirm(model, gpu, overrides, config, current.peakBytes, f))
            kept.push_back(std::move(*confirmed));
    }
    std::stable_sort(kept.begin(), kept.end(), better);
    return kept;
}

std::vector<std::pair<std::string, std::string>> fixArguments(const TrainingConfig& base, const Fix& fix)
{
    const TrainingConfig& c = fix.config;
    std::vector<std::pair<std::string, std::string>> out;
    if (c.precision != base.precision)
        out.emplace_back("--precision", std::string(toString(c.precision)));
    if (c.attention != base.attention)
        out.emplace_back("--attention", std::string(toString(c.attention)));
    if (c.checkpointing != base.checkpointing)
        out.emplace_back("--checkpointing", std::string(toString(c.checkpointing)));
    if (c.optimizer != base.optimizer)
        out.emplace_back("--optimizer", std::string(toString(c.optimizer)));
    if (c.adamImpl != base.adamImpl)
        out.emplace_back("--adamw-impl", std::string(toString(c.adamImpl)));
    if (c.zeroStage != base.zeroStage)
        out.emplace_back("--zero", std::to_string(c.zeroStage));
    if (c.offloadOptimizer && !base.offloadOptimizer)
        out.emplace_back("--offload", "");
    if (c.microBatch != base.microBatch)
        out.emplace_back("--batch", std::to_string(c.microBatch));
    if (c.gradientAccumulation != base.gradientAccumulation)
        out.emplace_back("--grad-accum", std::to_string(c.gradientAccumulation));
    if (c.finetune.method != base.finetune.method)
        out.emplace_back("--finetune", std::string(toString(c.finetune.method)));
    return out;
}

std::string describeFix(const Fix& fix)
{
    std::string s;
    for (FixKind k : fix.changes) {
        if (!s.empty())
            s += " + ";
        switch (k) {
        case FixKind::FusedAttention:
            s += "fused attention";
            break;
        case FixKind::SelectiveCheckpointing:
            s += "selective checkpointing";
            break;
        case FixKind::FullCheckpointing:
            s += "full checkpointing";
            break;
        case FixKind::MixedPrecision:
            s += std::string(toString(fix.config.precision)) + " mixed precision";
            break;
        case FixKind::EightBitOptimizer:
            s += "8-bit AdamW";
            break;
        case FixKind::ZeroStage:
            s += "ZeRO stage " + std::to_string(fix.config.zeroStage);
            break;
        case FixKind::OptimizerOffload:
            s += "optimizer offload";
            break;
        case FixKind::SmallerMicroBatch:
            s += "micro-batch " + std::to_string(fix.config.microBatch) + " x "
                + std::to_string(fix.config.gradientAccumulation) + " accumulation steps";
            break;
        case FixKind::NearGlobalBatch:
            s += "micro-batch " + std::to_string(fix.config.microBatch)
                + (fix.config.gradientAccumulation == 1
                       ? std::string(" without accumulation")
                       : " x " + std::to_string(fix.config.gradientAccumulation) + " accumulation steps")
                + " (global batch " + std::to_string(fix.config.microBatch * fix.config.gradientAccumulation) + ")";
            break;
        case FixKind::PureBf16:
            s += "pure BF16";
            break;
        case FixKind::FusedAdamW:
            s += "fused AdamW";
            break;
        case FixKind::LoRA:
            s += "LoRA adapters instead of full training";
            break;
        case FixKind::QLoRA:
            s += "QLoRA (LoRA over a 4-bit base)";
            break;
        }
    }
    return s;
}

} // namespace headroom
