#include "pipelineschedule.h"

#include "pipeline.h"

#include <algorithm>

namespace headroom {

namespace {

    struct Op {
        int chunk = 0;
        int micro = 0;
        bool forward = true;
    };

    // Megatron-LM's order of virtual micro-batch k (schedules.py, get_model_chunk_id and
    // get_microbatch_id_in_model_chunk): groups of p micro-batches per model chunk, chunks reversed in backward.
    Op virtualOp(int k, int p, int v, bool forward)
    {
        const int inGroup = k % (p * v);
        int chunk = inGroup / p;
        if (!forward)
            chunk = v - 1 - chunk;
        return { chunk, (k / (p * v)) * p + k % p, forward };
    }

    std::vector<Op> stageOrder(const TrainingConfig& c, int stage, int p, int v, int m)
    {
        const int total = m * v;
        std::vector<Op> order;
        order.reserve(2 * std::size_t(total));
        if (c.pipelineSchedule == PipelineSchedule::GPipe) {
            for (int u = 0; u < m; ++u)
                order.push_back({ 0, u, true });
            for (int u = 0; u < m; ++u)
                order.push_back({ 0, u, false });
            return order;
        }
        int warmup = v > 1 ? (p - stage - 1) * 2 + (v - 1) * p : p - stage - 1;
        if (v > 1 && m == p)
            warmup = total;
        warmup = std::min(warmup, total);
        for (int k = 0; k < warmup; ++k)
            order.push_back(virtualOp(k, p, v, true));
        for (int k = 0; k < total - warmup; ++k) {
            order.push_back(virtualOp(k + warmup, p, v, true));
            order.push_back(virtualOp(k, p, v, false));
        }
        for (int k = total - warmup; k < total; ++k)
            order.push_back(virtualOp(k, p, v, false));
        return order;
    }

} // namespace

PipelineTimeline pipelineTimeline(const TrainingConfig& config, const std::vector<double>& forwardSeconds,
                                  const std::vector<double>& backwardSeconds)
{
    PipelineTimeline t;
    const int p = pipelineStages(config), v = pipelineChunks(config), m = microBatchesPerStep(config);
    if (p < 2 || int(forwardSeconds.size()) != p || int(backwardSeconds.size()) != p
        || static_cast<long long>(p) * v * m * 2 > kMaxPipelineSpans)
        return t;
    // end[fwd][s][c][u]: when stage s finished that op; negative while not run.
    auto at = [&](bool forward, int s, int c, int u) {
        return ((std::size_t(forward) * p + std::size_t(s)) * v + std::size_t(c)) * m + std::size_t(u);
    };
    std::vector<double> end(std::size_t(2) * p * v * m, -1.0);
    std::vector<std::vector<Op>> orders;
    orders.reserve(std::size_t(p));
    for (int s = 0; s < p; ++s)
        orders.push_back(stageOrder(config, s, p, v, m));
    std::vector<std::size_t> next(std::size_t(p), std::size_t(0));
    std::vector<double> free(std::size_t(p), 0.0);
    std::vector<std::vector<PipelineSpan>> perStage { std::size_t(p) };
    // The op's inputs: the previous stage's forward (across the chunk boundary from the last stage to the first),
    // its own forward and the next stage's backward.
    auto ready = [&](int s, const Op& op, double& when) {
        when = 0.0;
        auto need = [&](bool forward, int ds, int dc, int du) {
            const double e = end[at(forward, ds, dc, du)];
            when = std::max(when, e);
            return e >= 0.0;
        };
        if (op.forward) {
            if (s > 0)
                return need(true, s - 1, op.chunk, op.micro);
            return op.chunk == 0 || need(true, p - 1, op.chunk - 1, op.micro);
        }
        if (!need(true, s, op.chunk, op.micro))
            return false;
        if (s < p - 1)
            return need(false, s + 1, op.chunk, op.micro);
        return op.chunk == v - 1 || need(false, 0, op.chunk + 1, op.micro);
    };
    for (bool progress = true; progress;) {
        progress = false;
        for (int s = 0; s < p; ++s) {
            const auto& order = orders[std::size_t(s)];
            for (double when = 0.0; next[std::size_t(s)] < order.size();) {
                const Op& op = order[next[std::size_t(s)]];
                if (!ready(s, op, when))
                    break;
                const double start = std::max(when, free[std::size_t(s)]);
                const double length = (op.forward ? forwardSeconds : backwardSeconds)[std::size_t(s)] / v;
                end[at(op.forward, s, op.chunk, op.micro)] = start + length;
                free[std::size_t(s)] = start + length;
                perStage[std::size_t(s)].push_back({ s, op.micro, op.chunk, op.forward, start, start + length });
                ++next[std::size_t(s)];
                progress = true;
            }
        }
    }
    for (int s = 0; s < p; ++s) {
        if (next[std::size_t(s)] != orders[std::size_t(s)].size())
            return {}; // a schedule whose dependencies never resolve: nothing to draw
        t.spans.insert(t.spans.end(), perStage[std::size_t(s)].begin(), perStage[std::size_t(s)].end());
        t.seconds = std::max(t.seconds, free[std::size_t(s)]);
    }
    t.computed = true;
    return t;
}

} // namespace headroom
