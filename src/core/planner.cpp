#include "planner.h"

#include "modelgraph.h"
#include "scenario.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <thread>
#include <tuple>

namespace headroom {

namespace {

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

    // Counts rejections by reason, in the order they were first met.
    class Rejections {
    public:
        void add(const std::string& reason, std::int64_t n = 1)
        {
            auto [it, inserted] = m_index.try_emplace(reason, m_list.size());
            if (inserted)
                m_list.push_back({ reason, 0 });
            m_list[it->second].count += n;
        }
        std::vector<PlanRejection> take() { return std::move(m_list); }

    private:
        std::map<std::string, std::size_t> m_index;
        std::vector<PlanRejection> m_list;
    };

    struct Knobs {
        int tp = 1, pp = 1, cp = 1, dp = 1, ep = 1;
        bool interleaved = false, sp = false;
        int zero = 0;
        Checkpointing checkpointing = Checkpointing::None;
        std::int64_t micro = 1;
    };

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
            if (l->stepSeconds < best) {
                l->pareto = true;
                best = l->stepSeconds;
            }
        }
    }

} // namespace

Expected<PlanResult> plan(const Catalog& catalog, const PlanRequest& request)
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
    if (auto e = validateForModel(*model, request.base.config, "plan")) // the layout-free rules (sequence length)
        return *e;

    const bool transformer = model->family == ModelFamily::Transformer;
    const TransformerSpec& t = model->transformer;
    const int layers = transformer ? t.layers : 1;
    const int kv = t.kvHeads > 0 ? t.kvHeads : t.heads;
    const double tokens = transformer ? transformerTokens(t, request.base.config.sequenceLength) : 1.0;
    std::vector<std::int64_t> micros;
    for (std::int64_t b = 1; b <= std::max(1, request.maxMicroBatch); b *= 2)
        micros.push_back(b);
    const Checkpointing modes[] = { Checkpointing::None, Checkpointing::Selective, Checkpointing::Full };

    PlanResult result;
    Rejections rejected;
    std::vector<Knobs> candidates;
    const bool fused = request.base.config.attention == AttentionImpl::Fused;

    for (int tp : divisors(request.gpus)) {
        for (int pp : divisors(request.gpus / tp)) {
            for (int cp : divisors(request.gpus / (tp * pp))) {
                const int dp = request.gpus / (tp * pp * cp);
                // Expert parallelism, for a mixture of experts: every split of the dp ranks that divides the experts.
                std::vector<int> eps;
                for (int ep : divisors(dp)) {
                    if (ep == 1 || (transformer && t.moe.any() && t.moe.experts % ep == 0))
                        eps.push_back(ep);
                }
                const auto splits = std::int64_t(eps.size());
                // Everything below this (t, p) pair: micro-batches x schedules x SP x ZeRO x checkpointing x EP.
                const std::int64_t family = std::int64_t(micros.size()) * (pp > 1 ? 2 : 1) * (tp > 1 ? 2 : 1)
                    * (dp > 1 ? 4 : 1) * std::int64_t(std::size(modes)) * splits;
                if (tp > request.gpusPerNode) {
                    rejected.add("t beyond a node: tensor parallelism keeps its ranks on one node", family);
                    continue;
                }
                if (tp > 1 && (!transformer || t.heads % tp != 0 || kv % tp != 0 || t.ffn % tp != 0)) {
                    rejected.add(
                        "heads not divisible: t must divide the attention heads, key/value heads and FFN width",
                        family);
                    continue;
                }
                if (pp > 1 && (!transformer || pp > layers)) {
                    rejected.add("p above the blocks: each stage needs at least one block", family);
                    continue;
                }
                if (pp > 1 && layers % pp != 0) {
                    rejected.add("p does not divide the blocks evenly", family);
                    continue;
                }
                if (cp > 1 && (!transformer || t.input != InputKind::Tokens || !fused)) {
                    rejected.add("context parallelism needs a token sequence and fused attention", family);
                    continue;
                }
                if (cp > 1 && std::fmod(tokens, 2.0 * cp) != 0.0) {
                    rejected.add("context parallelism needs 2 cp to divide the tokens", family);
                    continue;
                }
                for (std::int64_t b : micros) {
                    const std::int64_t perFamily = family / std::int64_t(micros.size());
                    if (request.globalBatch % (b * dp) != 0) {
                        rejected.add("global batch not divisible by micro-batch x dp", perFamily);
                        continue;
                    }
                    const std::int64_t m = request.globalBatch / (b * dp);
                    if (m > (1 << 20)) {
                        rejected.add("more than 1048576 micro-batches per step", perFamily);
                        continue;
                    }
                    for (const bool interleaved : { false, true }) {
                        if (interleaved && pp == 1)
                            continue;
                        const std::int64_t perSchedule = perFamily / (pp > 1 ? 2 : 1);
                        if (interleaved && (layers % (2 * pp) != 0 || m % pp != 0)) {
                            rejected.add("interleaving needs 2p to divide the blocks and p the micro-batches per step",
                                         perSchedule);
                            continue;
                        }
                        for (const bool sp : { false, true }) {
                            if (sp && tp == 1)
                                continue;
                            if (sp && std::fmod(tokens / cp, double(tp)) != 0.0) {
                                rejected.add("sequence parallelism needs t to divide the tokens", perSchedule / 2);
                                continue;
                            }
                            for (int zero = 0; zero <= (dp > 1 ? 3 : 0); ++zero) {
                                if (pp > 1 && zero >= 2) {
                                    rejected.add("ZeRO-2/3 with pipeline parallelism: DeepSpeed refuses the pair",
                                                 std::int64_t(std::size(modes)) * splits);
                                    continue;
                                }
                                for (Checkpointing ckpt : modes) {
                                    if (fused && ckpt == Checkpointing::Selective) {
                                        rejected.add("selective recomputation: fused attention saves nothing it would "
                                                     "recompute (the same as none)",
                                                     splits);
                                        continue;
                                    }
                                    for (int ep : eps)
                                        candidates.push_back({ tp, pp, cp, dp, ep, interleaved, sp, zero, ckpt, b });
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // Simulated on every core, each worker over a contiguous run of candidates. Sorted so that neighbours differ in
    // the micro-batch only, which does not shape the lowered step (scheduleKey): the cache serves them.
    std::sort(candidates.begin(), candidates.end(), [](const Knobs& a, const Knobs& b) {
        return std::tie(a.tp, a.pp, a.cp, a.ep, a.interleaved, a.sp, a.checkpointing, a.zero, a.micro)
            < std::tie(b.tp, b.pp, b.cp, b.ep, b.interleaved, b.sp, b.checkpointing, b.zero, b.micro);
    });
    // Runs of candidates that share everything but the ZeRO stage and the micro-batch build one operator graph per
    // stage (the ZeRO stage shapes only its lowering, the micro-batch neither); each run goes to whichever worker
    // is free next, whose cache keeps the graph while the ZeRO stages are lowered on it.
    std::vector<std::size_t> runs { 0 };
    for (std::size_t i = 1; i < candidates.size(); ++i) {
        const Knobs& a = candidates[i - 1];
        const Knobs& b = candidates[i];
        if (std::tie(a.tp, a.pp, a.cp, a.ep, a.interleaved, a.sp, a.checkpointing)
            != std::tie(b.tp, b.pp, b.cp, b.ep, b.interleaved, b.sp, b.checkpointing))
            runs.push_back(i);
    }
    runs.push_back(candidates.size());
    std::atomic<std::size_t> nextRun { 0 };
    const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    std::vector<PlanLayout> found(candidates.size()); // by candidate: the result does not depend on the workers
    std::vector<std::uint8_t> simulated(candidates.size(), 0);
    std::vector<Rejections> failures(workers);
    auto work = [&](std::size_t w) {
        SimulationCache cache;
        SimulationResult sim;
        SimulateOptions quick;
        quick.timeline = false;
        quick.sweep = false;
        quick.searches = false;
        Scenario s = request.base;
        for (std::size_t run = nextRun++; run + 1 < runs.size(); run = nextRun++)
            for (std::size_t i = runs[run]; i < runs[run + 1]; ++i) {
                const Knobs& k = candidates[i];
                TrainingConfig& c = s.config;
                c = request.base.config;
                c.cluster.gpusPerNode = request.gpusPerNode;
                c.tensorParallel = k.tp;
                c.sequenceParallel = k.sp;
                c.pipelineParallel = k.pp;
                c.pipelineSchedule = k.interleaved ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
                c.virtualStages = k.interleaved ? 2 : 1;
                c.pipelineStage = 0;
                c.dataParallel = k.dp;
                c.expertParallel = k.ep;
                c.contextParallel = k.cp;
                c.zeroStage = k.zero;
                c.checkpointing = k.checkpointing;
                c.microBatch = k.micro;
                c.gradientAccumulation = int(request.globalBatch / (k.micro * k.dp));
                if (auto e = simulate(catalog, s, quick, &cache, sim)) {
                    failures[w].add(e->field + ": " + e->message);
                    continue;
                }
                PlanLayout l;
                l.config = c;
                l.fits = fitsOnDevice(sim); // every stage's peak, then the allocator replay (simulate.h)
                l.peakBytes = sim.estimate.peakBytes;
                l.stepSeconds = sim.estimate.stepSeconds;
                l.throughputPerSecond = sim.estimate.throughputPerSecond;
                l.mfu = sim.estimate.mfu;
                found[i] = std::move(l);
                simulated[i] = 1;
            }
    };
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w)
        threads.emplace_back(work, w);
    work(0);
    for (std::thread& th : threads)
        th.join();
    std::vector<PlanLayout> all;
    for (std::size_t w = 0; w < workers; ++w) {
        for (PlanRejection& x : failures[w].take())
            rejected.add(x.reason, x.count);
    }
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (!simulated[i])
            continue;
        ++result.evaluated;
        if (!found[i].fits)
            rejected.add("does not fit: the most loaded rank's peak is above the GPU's memory");
        all.push_back(std::move(found[i]));
    }

    std::vector<PlanLayout> fits;
    for (const PlanLayout& l : all) {
        if (l.fits)
            fits.push_back(l);
    }
    if (fits.empty()) {
        std::sort(all.begin(), all.end(),
                  [](const PlanLayout& a, const PlanLayout& b) { return a.peakBytes < b.peakBytes; });
        all.resize(std::min<std::size_t>(all.size(), 10));
        result.layouts = std::move(all);
    } else {
        markPareto(fits);
        std::stable_sort(fits.begin(), fits.end(), [](const PlanLayout& a, const PlanLayout& b) {
            return a.throughputPerSecond != b.throughputPerSecond ? a.throughputPerSecond > b.throughputPerSecond
                                                                  : a.peakBytes < b.peakBytes;
        });
        result.layouts = std::move(fits);
    }
    result.rejected = rejected.take();
    std::sort(result.rejected.begin(), result.rejected.end(), [](const PlanRejection& a, const PlanRejection& b) {
        return a.count != b.count ? a.count > b.count : a.reason < b.reason;
    });
    return result;
}

} // namespace headroom
