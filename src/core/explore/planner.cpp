#include "planner.h"

#include "modelgraph.h"
#include "pipeline.h"
#include "plannerdetail.h"
#include "scenario.h"
#include "sdpa.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <thread>
#include <tuple>

namespace headroom {

namespace {

    using detail::LeverVariant;

    using enum PlanReason;
    constexpr int kReasonCount = int(Refused); // the reasons the enumeration and the ranking count
    using Reason = std::optional<PlanReason>;  // none: the layout can run

    // Divisors of n, smallest first.
    std::vector<int> divisors(int n)
    {
        std::vector<int> d;
        for (int k = 1; k <= n; ++k) {
            if (n % k == 0)
                d.push_back(k);
        }
        return d;
    }

    struct Knobs {
        int tp = 1, pp = 1, cp = 1, dp = 1, ep = 1;
        int first = 0, last = 0; // blocks on the first and last stage where p cannot share them evenly (Megatron)
        bool interleaved = false, sp = false;
        int zero = 0;
        Checkpointing checkpointing = Checkpointing::None;
        std::int64_t micro = 1;
        std::size_t variant = 0; // into the lever variants

        // Everything but the ZeRO stage and the micro-batch: one operator graph per stage serves the run.
        auto graphKey() const { return std::tie(variant, tp, pp, cp, ep, first, last, interleaved, sp, checkpointing); }
        auto order() const
        {
            return std::tie(variant, tp, pp, cp, ep, first, last, interleaved, sp, checkpointing, zero, micro);
        }
    };

    struct Enumeration {
        std::vector<Knobs> candidates;
        std::array<std::int64_t, kReasonCount> rejected {};
        std::int64_t considered = 0;
    };

    std::optional<Error> validate(const Catalog& catalog, const PlanRequest& request)
    {
        auto fail = [](const char* field, std::string message) { return Error { "plan", field, std::move(message) }; };
        if (request.gpus < 1 || request.gpus > 65536)
            return fail("gpus", "must be between 1 and 65536");
        if (request.gpusPerNode < 1 || request.gpusPerNode > 1024)
            return fail("gpus_per_node", "must be between 1 and 1024");
        if (request.globalBatch < 1 || request.globalBatch > (std::int64_t(1) << 30))
            return fail("global_batch", "must be between 1 and 1073741824");
        const ModelSpec* model = catalog.model(request.base.modelId);
        if (!model)
            return fail("model", "unknown model \"" + request.base.modelId + "\"");
        if (!catalog.gpu(request.base.gpuId))
            return fail("gpu", "unknown GPU \"" + request.base.gpuId + "\"");
        if (auto e = validateConfig(request.base.config, "plan"))
            return *e;
        return validateForModel(*model, request.base.config, "plan"); // the layout-free rules (sequence length)
    }

    // The reason a (t, p, cp) split of the job cannot run, whatever the rest of the layout.
    Reason splitReason(const PlanRequest& request, const ModelSpec& model, const LeverVariant& v, int tp, int pp,
                       int cp)
    {
        const bool transformer = model.family == ModelFamily::Transformer;
        const TransformerSpec& t = model.transformer;
        const int kv = t.kvHeads > 0 ? t.kvHeads : t.heads;
        const int layers = transformer ? t.layers : 1;
        const double tokens = transformer ? transformerTokens(t, request.base.config.sequenceLength) : 1.0;
        if (tp > request.gpusPerNode)
            return TpBeyondNode;
        if (tp > 1 && (!transformer || t.heads % tp != 0 || kv % tp != 0 || t.ffn % tp != 0))
            return HeadsNotDivisible;
        if (tp > 1
            && (v.method == FinetuneMethod::LoRA || v.method == FinetuneMethod::DoRA
                || v.method == FinetuneMethod::QLoRA))
            return AdaptersUnderTp;
        if (pp > 1 && (!transformer || pp > layers))
            return PpAboveBlocks;
        if (pp > 1 && layers % pp != 0 && unevenStageSplits(layers, pp).empty())
            return PpUneven;
        if (cp > 1
            && (!transformer || t.input != InputKind::Tokens || request.base.config.attention != AttentionImpl::Fused))
            return CpNeedsTokens;
        if (cp > 1 && std::fmod(tokens, 2.0 * cp) != 0.0)
            return CpTokens;
        return std::nullopt;
    }

    // Every layout of the job with every lever variant: those that can run as candidates, the others counted under
    // their first reason.
    Enumeration enumerate(const PlanRequest& request, const ModelSpec& model, const std::vector<LeverVariant>& variants)
    {
        const bool transformer = model.family == ModelFamily::Transformer;
        const TransformerSpec& t = model.transformer;
        const int layers = transformer ? t.layers : 1;
        const double tokens = transformer ? transformerTokens(t, request.base.config.sequenceLength) : 1.0;
        // Selective recomputation drops the saved attention scores; a fused SDPA kernel saves none (sdpa.h), a CNN
        // has none.
        const bool noScores = !attentionSavesScores(model, request.base.config);
        std::vector<std::int64_t> micros;
        for (std::int64_t b = 1; b <= std::max(1, request.maxMicroBatch); b *= 2)
            micros.push_back(b);
        constexpr Checkpointing modes[] = { Checkpointing::None, Checkpointing::Selective, Checkpointing::Full };
        auto first = [](Reason outer, bool here, PlanReason r) {
            return outer ? outer : (here ? Reason(r) : Reason());
        };

        Enumeration out;
        for (std::size_t v = 0; v < variants.size(); ++v)
            for (int tp : divisors(request.gpus))
                for (int pp : divisors(request.gpus / tp))
                    for (int cp : divisors(request.gpus / (tp * pp))) {
                        const int dp = request.gpus / (tp * pp * cp);
                        // Expert parallelism, for a mixture of experts: every split of the dp ranks that divides the
                        // experts.
                        std::vector<int> eps;
                        for (int ep : divisors(dp)) {
                            if (ep == 1 || (transformer && t.moe.any() && t.moe.experts % ep == 0))
                                eps.push_back(ep);
                        }
                        const Reason split = splitReason(request, model, variants[v], tp, pp, cp);
                        // Where p cannot share the blocks evenly, Megatron's uneven stages (pipeline.h); none
                        // where it can (each would be another graph for every layout of that p).
                        std::vector<std::pair<int, int>> stageSplits { { 0, 0 } };
                        if (transformer && pp > 1 && layers % pp != 0 && !split)
                            stageSplits = unevenStageSplits(layers, pp);
                        for (const auto& [firstLayers, lastLayers] : stageSplits)
                            for (std::int64_t b : micros) {
                                const std::int64_t m = request.globalBatch / (b * dp);
                                Reason r1 = first(split, request.globalBatch % (b * dp) != 0, GlobalBatch);
                                r1 = first(r1, m > (1 << 20), TooManyMicroBatches);
                                for (const bool interleaved : { false, true }) {
                                    if (interleaved && pp == 1)
                                        continue;
                                    const Reason r2 = first(r1, interleaved && (layers % (2 * pp) != 0 || m % pp != 0),
                                                            Interleaving);
                                    for (const bool sp : { false, true }) {
                                        if (sp && tp == 1)
                                            continue;
                                        const Reason r3 = first(r2, sp && std::fmod(tokens / cp, double(tp)) != 0.0,
                                                                SpTokens);
                                        for (int zero = 0; zero <= (dp > 1 ? 3 : 0); ++zero) {
                                            const Reason r4 = first(r3, pp > 1 && zero >= 2, ZeroWithPipeline);
                                            for (Checkpointing ckpt : modes) {
                                                const Reason r5 = first(r4,
                                                                        noScores && ckpt == Checkpointing::Selective,
                                                                        SelectiveNoScores);
                                                for (int ep : eps) {
                                                    ++out.considered;
                                                    if (r5)
                                                        ++out.rejected[std::size_t(*r5)];
                                                    else
                                                        out.candidates.push_back({ tp, pp, cp, dp, ep, firstLayers,
                                                                                   lastLayers, interleaved, sp, zero,
                                                                                   ckpt, b, v });
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                    }
        return out;
    }

    // Counts the reasons of simulate()'s refusals, in the order they were first met.
    class Refusals {
    public:
        void add(const std::string& reason, std::int64_t n = 1)
        {
            auto [it, inserted] = m_index.try_emplace(reason, m_list.size());
            if (inserted)
                m_list.push_back({ PlanReason::Refused, reason, 0 });
            m_list[it->second].count += n;
        }
        std::vector<PlanRejection>& list() { return m_list; }

    private:
        std::map<std::string, std::size_t> m_index;
        std::vector<PlanRejection> m_list;
    };

    enum class Outcome : std::uint8_t { Refused, Simulated, Pruned };

    TrainingConfig layoutConfig(const PlanRequest& request, const LeverVariant& v, const Knobs& k)
    {
        TrainingConfig c = request.base.config;
        c.cluster.gpusPerNode = request.gpusPerNode;
        v.apply(c);
        c.tensorParallel = k.tp;
        c.sequenceParallel = k.sp;
        c.pipelineParallel = k.pp;
        c.pipelineSchedule = k.interleaved ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
        c.virtualStages = k.interleaved ? 2 : 1;
        c.pipelineStage = 0;
        c.firstStageLayers = k.first;
        c.lastStageLayers = k.last;
        c.dataParallel = k.dp;
        c.expertParallel = k.ep;
        c.contextParallel = k.cp;
        c.zeroStage = k.zero;
        c.checkpointing = k.checkpointing;
        c.microBatch = k.micro;
        c.gradientAccumulation = int(request.globalBatch / (k.micro * k.dp));
        return c;
    }

    // One worker's pass over runs of candidates that share a graph (Knobs::graphKey): each ZeRO stage's
    // micro-batches in turn, smallest first. Once one's peak does not fit, the larger ones are not simulated while
    // they still accumulate (m > 1): the peak never falls as the micro-batch grows (memory is linear in it with
    // non-negative slopes, and a pipeline stage holds min(in flight, m) micro-batches of b samples, with b x m fixed
    // by the global batch). The caching allocator is then replayed for the largest whose peak fits, and only when
    // that fails, by bisection, for the smaller ones: the replay is taken as monotone in the micro-batch too (a
    // larger one fitting means a smaller one does; the same rule as skipping the larger ones after a failure).
    // One micro-batch per step (m = 1) is always simulated and replayed: without accumulation the gradients need not
    // outlive the step's reduction, so its peak can be lower. tst_planner holds this plan to the full one.
    class RunWorker {
    public:
        RunWorker(const Catalog& catalog, const PlanRequest& request, const std::vector<LeverVariant>& variants,
                  const std::vector<Knobs>& candidates, std::vector<PlanLayout>& found, std::vector<Outcome>& outcome)
            : m_catalog(catalog)
            , m_request(request)
            , m_variants(variants)
            , m_candidates(candidates)
            , m_found(found)
            , m_outcome(outcome)
            , m_scenario(request.base)
        {
            m_quick.timeline = false;
            m_quick.sweep = false;
            m_quick.searches = false;
            m_quick.walkEveryStage = false; // the planner reads the most loaded stage and whether every rank fits
        }

        // Candidates [begin, end): one ZeRO stage of one run, the micro-batches ascending.
        void zeroStage(std::size_t begin, std::size_t end)
        {
            std::vector<std::pair<std::size_t, DeviceFitCheck>> pending; // peaks fit, m > 1: replay decides
            bool peakFailed = false;
            for (std::size_t i = begin; i < end; ++i) {
                const Knobs& k = m_candidates[i];
                const bool accumulates = m_request.globalBatch > k.micro * k.dp;
                if (m_request.prune && accumulates && peakFailed) {
                    m_outcome[i] = Outcome::Pruned;
                    continue;
                }
                m_scenario.config = layoutConfig(m_request, m_variants[k.variant], k);
                if (auto e = simulate(m_catalog, m_scenario, m_quick, &m_cache, m_sim)) {
                    m_refused.add(e->field + ": " + e->message);
                    continue;
                }
                record(i);
                DeviceFitCheck check = deviceFitCheck(m_sim);
                if (!check.peaksFit)
                    peakFailed = peakFailed || accumulates;
                else if (m_request.prune && accumulates)
                    pending.emplace_back(i, std::move(check));
                else
                    m_found[i].fits = fitsOnDevice(check, &m_cache);
            }
            replayPending(pending);
        }

        Refusals& refused() { return m_refused; }

    private:
        void record(std::size_t i)
        {
            PlanLayout& l = m_found[i];
            l.config = m_scenario.config;
            l.fits = false;
            l.peakBytes = m_sim.estimate.peakBytes;
            l.capacityBytes = m_sim.estimate.capacityBytes;
            l.stepSeconds = m_sim.estimate.stepSeconds;
            l.throughputPerSecond = m_sim.estimate.throughputPerSecond;
            l.mfu = m_sim.estimate.mfu;
            m_outcome[i] = Outcome::Simulated;
        }

        // The largest of `pending` (ascending) that the allocator replay passes, and every smaller one, fit.
        void replayPending(const std::vector<std::pair<std::size_t, DeviceFitCheck>>& pending)
        {
            std::size_t fit = 0, fail = pending.size(); // [0, fit) fit, [fail, n) do not
            if (fail > 0 && fitsOnDevice(pending[fail - 1].second, &m_cache))
                fit = fail;
            else if (fail > 0)
                --fail;
            while (fit < fail) {
                const std::size_t mid = fit + (fail - fit) / 2;
                if (fitsOnDevice(pending[mid].second, &m_cache))
                    fit = mid + 1;
                else
                    fail = mid;
            }
            for (std::size_t k = 0; k < fit; ++k)
                m_found[pending[k].first].fits = true;
        }

        const Catalog& m_catalog;
        const PlanRequest& m_request;
        const std::vector<LeverVariant>& m_variants;
        const std::vector<Knobs>& m_candidates;
        std::vector<PlanLayout>& m_found;
        std::vector<Outcome>& m_outcome;
        Scenario m_scenario;
        SimulateOptions m_quick;
        SimulationCache m_cache;
        SimulationResult m_sim;
        Refusals m_refused;
    };

    // Simulates the candidates (sorted by Knobs::order) on every core. Runs of candidates that share everything but
    // the ZeRO stage and the micro-batch build one operator graph per stage (the ZeRO stage shapes only its lowering,
    // the micro-batch neither); each run goes to whichever worker is free next, whose cache keeps the graph.
    void simulateAll(const Catalog& catalog, const PlanRequest& request, const std::vector<LeverVariant>& variants,
                     const std::vector<Knobs>& candidates, std::vector<PlanLayout>& found,
                     std::vector<Outcome>& outcome, Refusals& refused)
    {
        std::vector<std::size_t> runs { 0 };
        for (std::size_t i = 1; i < candidates.size(); ++i) {
            if (candidates[i - 1].graphKey() != candidates[i].graphKey())
                runs.push_back(i);
        }
        runs.push_back(candidates.size());
        found.assign(candidates.size(), {});
        outcome.assign(candidates.size(), Outcome::Refused);
        PlanProgress* progress = request.progress;
        if (progress)
            progress->enumerated += std::int64_t(candidates.size());
        std::atomic<std::size_t> nextRun { 0 };
        const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
        std::vector<std::unique_ptr<RunWorker>> pool; // each keeps its cache
        for (std::size_t w = 0; w < workers; ++w)
            pool.push_back(std::make_unique<RunWorker>(catalog, request, variants, candidates, found, outcome));
        auto work = [&](std::size_t w) {
            for (std::size_t run = nextRun++; run + 1 < runs.size(); run = nextRun++) {
                if (progress && progress->cancelled)
                    return;
                for (std::size_t begin = runs[run], i = begin + 1; begin < runs[run + 1]; ++i) {
                    if (i == runs[run + 1] || candidates[i].zero != candidates[begin].zero) {
                        pool[w]->zeroStage(begin, i);
                        begin = i;
                    }
                }
                if (progress)
                    progress->decided += std::int64_t(runs[run + 1] - runs[run]);
            }
        };
        std::vector<std::thread> threads;
        for (std::size_t w = 1; w < workers; ++w)
            threads.emplace_back(work, w);
        work(0);
        for (std::thread& th : threads)
            th.join();
        for (const auto& r : pool) {
            for (const PlanRejection& x : r->refused().list())
                refused.add(x.reason, x.count);
        }
    }

    // Times (and throughputs) within 1e-9 of each other are the same: they differ by the clocks' rounding (1e-13),
    // as two layouts whose step is bound by the host or by one collective do. Among them the one with less memory
    // ranks first and alone is on the front.
    constexpr double kSameTime = 1e-9;

    void markPareto(std::vector<PlanLayout>& fits)
    {
        std::vector<PlanLayout*> byPeak;
        byPeak.reserve(fits.size());
        for (PlanLayout& l : fits)
            byPeak.push_back(&l);
        std::sort(byPeak.begin(), byPeak.end(), [](const PlanLayout* a, const PlanLayout* b) {
            return a->peakBytes != b->peakBytes ? a->peakBytes < b->peakBytes : a->stepSeconds < b->stepSeconds;
        });
        double best = std::numeric_limits<double>::infinity();
        for (PlanLayout* l : byPeak) {
            if (l->stepSeconds < best * (1.0 - kSameTime)) {
                l->pareto = true;
                best = l->stepSeconds;
            }
        }
    }

    // Those that fit, fastest first (the Pareto front marked); when none fits, the ten lowest peaks.
    std::vector<PlanLayout> rank(std::vector<PlanLayout> all)
    {
        std::vector<PlanLayout> fits;
        for (PlanLayout& l : all) {
            if (l.fits)
                fits.push_back(std::move(l));
        }
        if (fits.empty()) {
            std::stable_sort(all.begin(), all.end(),
                             [](const PlanLayout& a, const PlanLayout& b) { return a.peakBytes < b.peakBytes; });
            all.resize(std::min<std::size_t>(all.size(), 10));
            return all;
        }
        markPareto(fits);
        std::stable_sort(fits.begin(), fits.end(), [](const PlanLayout& a, const PlanLayout& b) {
            return a.throughputPerSecond != b.throughputPerSecond ? a.throughputPerSecond > b.throughputPerSecond
                                                                  : a.peakBytes < b.peakBytes;
        });
        // Each run of the same throughput (to within kSameTime of its first), the least memory first.
        for (auto first = fits.begin(); first != fits.end();) {
            const double floor = first->throughputPerSecond * (1.0 - kSameTime);
            const auto end = std::find_if(first, fits.end(),
                                          [&](const PlanLayout& l) { return l.throughputPerSecond < floor; });
            std::stable_sort(first, end,
                             [](const PlanLayout& a, const PlanLayout& b) { return a.peakBytes < b.peakBytes; });
            first = end;
        }
        return fits;
    }

    Expected<PlanResult> planOnce(const Catalog& catalog, const PlanRequest& request)
    {
        if (auto e = validate(catalog, request))
            return *e;
        const ModelSpec& model = *catalog.model(request.base.modelId);
        const GpuSpec& gpu = *catalog.gpu(request.base.gpuId);
        const auto variants = detail::leverVariants(request.levers, request.base.config, gpu, model);
        Enumeration e = enumerate(request, model, variants);
        std::sort(e.candidates.begin(), e.candidates.end(),
                  [](const Knobs& a, const Knobs& b) { return a.order() < b.order(); });
        std::vector<PlanLayout> found;
        std::vector<Outcome> outcome;
        Refusals refused;
        simulateAll(catalog, request, variants, e.candidates, found, outcome, refused);
        if (request.progress && request.progress->cancelled)
            return planCancelled();

        PlanResult result;
        result.considered = e.considered;
        std::vector<PlanLayout> all;
        for (std::size_t i = 0; i < e.candidates.size(); ++i) {
            if (outcome[i] == Outcome::Pruned)
                ++e.rejected[std::size_t(DoesNotFit)];
            if (outcome[i] != Outcome::Simulated)
                continue;
            ++result.evaluated;
            if (!found[i].fits)
                ++e.rejected[std::size_t(DoesNotFit)];
            found[i].levers = variants[e.candidates[i].variant].levers;
            all.push_back(std::move(found[i]));
        }
        result.layouts = rank(std::move(all));
        for (PlanLayout& l : result.layouts) {
            l.nodes = int((jobGpus(l.config) + request.gpusPerNode - 1) / request.gpusPerNode);
            l.links = planLinks(gpu, l.config);
        }
        for (int r = 0; r < kReasonCount; ++r) {
            if (e.rejected[r] > 0)
                result.rejected.push_back({ PlanReason(r), std::string(toString(PlanReason(r))), e.rejected[r] });
        }
        for (PlanRejection& x : refused.list())
            result.rejected.push_back(std::move(x));
        std::stable_sort(result.rejected.begin(), result.rejected.end(),
                         [](const PlanRejection& a, const PlanRejection& b) {
                             return a.count != b.count ? a.count > b.count : a.reason < b.reason;
                         });
        result.assumptions = detail::planAssumptions(request, gpu);
        return result;
    }

    // When nothing fits: each lever the request did not allow, tried alone on top of those it did, and the GPUs
    // with room for the nearest layout's peak.
    void suggest(const Catalog& catalog, const PlanRequest& request, PlanResult& result)
    {
        if (result.layouts.empty())
            return;
        const PlanLayout& nearest = result.layouts.front();
        result.shortBytes = std::max(0.0, nearest.peakBytes - nearest.capacityBytes);
        const auto& f = request.levers.finetune;
        auto allowed = [&](FinetuneMethod m) { return std::find(f.begin(), f.end(), m) != f.end(); };
        const std::pair<const char*, void (*)(PlanLevers&)> kinds[] = {
            { "precision", [](PlanLevers& l) { l.precision = true; } },
            { "optimizer", [](PlanLevers& l) { l.optimizer = true; } },
            { "offload", [](PlanLevers& l) { l.offload = true; } },
            { "lora", [](PlanLevers& l) { l.finetune.push_back(FinetuneMethod::LoRA); } },
            { "qlora", [](PlanLevers& l) { l.finetune.push_back(FinetuneMethod::QLoRA); } },
        };
        for (const auto& [name, allow] : kinds) {
            PlanRequest r = request;
            r.suggest = false;
            r.levers.onlyIfNeeded = false;
            allow(r.levers);
            const std::string n = name;
            if ((n == "precision" && request.levers.precision) || (n == "optimizer" && request.levers.optimizer)
                || (n == "offload" && request.levers.offload) || (n == "lora" && allowed(FinetuneMethod::LoRA))
                || (n == "qlora" && allowed(FinetuneMethod::QLoRA)))
                continue;
            if (n == "lora" || n == "qlora")
                r.levers.precision = r.levers.optimizer = r.levers.offload = false; // not combined with adapters
            auto p = planOnce(catalog, r);
            if (p && !p->layouts.empty() && p->layouts.front().fits)
                result.suggestions.push_back({ n, p->layouts.front() });
        }
        std::vector<const GpuSpec*> larger;
        for (const GpuSpec& g : catalog.gpus()) {
            if (g.id != request.base.gpuId && g.memoryBytes() >= nearest.peakBytes)
                larger.push_back(&g);
        }
        std::stable_sort(larger.begin(), larger.end(),
                         [](const GpuSpec* a, const GpuSpec* b) { return a->memoryBytes() < b->memoryBytes(); });
        for (const GpuSpec* g : larger)
            result.largerGpus.push_back(g->id);
    }

} // namespace

Error planCancelled() { return Error { "plan", "", "cancelled", ErrorKind::Cancelled }; }

Expected<PlanResult> plan(const Catalog& catalog, const PlanRequest& request)
{
    auto fits = [](const PlanResult& r) { return !r.layouts.empty() && r.layouts.front().fits; };
    if (request.levers.onlyIfNeeded && request.levers.any()) {
        PlanRequest bare = request;
        bare.levers = {};
        auto alone = planOnce(catalog, bare);
        if (!alone || fits(*alone)) {
            if (alone) {
                alone->assumptions = detail::planAssumptions(request, *catalog.gpu(request.base.gpuId));
                alone->assumptions.emplace_back(
                    "levers: none pulled, the layouts alone fit (levers are tried only when "
                    "none does)");
            }
            return alone;
        }
    }
    auto result = planOnce(catalog, request);
    if (!result)
        return result;
    result->leversTried = request.levers.any();
    if (request.suggest && !fits(*result))
        suggest(catalog, request, *result);
    if (request.progress && request.progress->cancelled)
        return planCancelled(); // during the suggestions: they are incomplete
    return result;
}

Expected<std::vector<GpuTypePlan>> planGpuTypes(const Catalog& catalog, const PlanRequest& request,
                                                const std::vector<std::string>& gpuIds, double tokens)
{
    std::vector<GpuTypePlan> out;
    for (const std::string& id : gpuIds) {
        PlanRequest r = request;
        if (id != r.base.gpuId)
            r.base.overrides = {};
        r.base.gpuId = id;
        auto p = plan(catalog, r);
        if (!p)
            return p.error();
        GpuTypePlan g;
        g.gpuId = id;
        g.fits = !p->layouts.empty() && p->layouts.front().fits;
        if (g.fits && p->layouts.front().throughputPerSecond > 0.0) {
            g.seconds = tokens / p->layouts.front().throughputPerSecond;
            g.gpuHours = g.seconds * request.gpus / 3600.0;
        }
        g.plan = std::move(*p);
        out.push_back(std::move(g));
    }
    std::stable_sort(out.begin(), out.end(), [](const GpuTypePlan& a, const GpuTypePlan& b) {
        return a.fits != b.fits ? a.fits : a.seconds < b.seconds;
    });
    return out;
}

std::optional<double> gpuTypeCost(const GpuTypePlan& type, const GpuPrices& prices)
{
    const auto price = prices.find(type.gpuId);
    if (!type.fits || price == prices.end())
        return std::nullopt;
    return price->second * type.gpuHours;
}

GpuTypeFront gpuTypeFront(const std::vector<GpuTypePlan>& types, const GpuPrices& prices)
{
    GpuTypeFront front;
    front.byCost = std::any_of(types.begin(), types.end(), [](const GpuTypePlan& t) { return t.fits; })
        && std::all_of(types.begin(), types.end(),
                       [&](const GpuTypePlan& t) { return !t.fits || prices.count(t.gpuId) > 0; });
    front.onFront.assign(types.size(), false);
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (!types[i].fits)
            continue;
        const double time = types[i].seconds, x = front.against(types[i], prices);
        front.onFront[i] = std::none_of(types.begin(), types.end(), [&](const GpuTypePlan& o) {
            const double ot = o.seconds, ox = front.against(o, prices);
            return o.fits && ot <= time && ox <= x && (ot < time || ox < x);
        });
    }
    return front;
}

std::string_view toString(PlanReason r)
{
    switch (r) {
    case TpBeyondNode:
        return "t beyond a node: tensor parallelism keeps its ranks on one node";
    case HeadsNotDivisible:
        return "heads not divisible: t must divide the attention heads, key/value heads and FFN width";
    case AdaptersUnderTp:
        return "adapters (LoRA, QLoRA) under tensor parallelism are not modelled";
    case PpAboveBlocks:
        return "p above the blocks: each stage needs at least one block";
    case PpUneven:
        return "p does not divide the blocks evenly";
    case CpNeedsTokens:
        return "context parallelism needs a token sequence and fused attention";
    case CpTokens:
        return "context parallelism needs 2 cp to divide the tokens";
    case GlobalBatch:
        return "global batch not divisible by micro-batch x dp";
    case TooManyMicroBatches:
        return "more than 1048576 micro-batches per step";
    case Interleaving:
        return "interleaving needs 2p to divide the blocks and p the micro-batches per step";
    case SpTokens:
        return "sequence parallelism needs t to divide the tokens";
    case ZeroWithPipeline:
        return "ZeRO-2/3 with pipeline parallelism: DeepSpeed refuses the pair";
    case SelectiveNoScores:
        return "selective recomputation: the attention kernel saves no scores to recompute (the same as none)";
    case DoesNotFit:
        return "does not fit: the most loaded rank's peak is above the GPU's memory";
    case Refused:
        return "refused by the simulator";
    }
    return "rejected";
}

} // namespace headroom
