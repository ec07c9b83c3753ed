#include "sweep.h"

#include "schedulewalk.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace headroom {

namespace {

    // Total live bytes after each step's allocations (the high-water mark of the step), as lines in the batch, at
    // every step the walk visits (a repeated block's first and last runs), with the step's real index.
    struct StepTotal {
        Linear total;
        std::int32_t real = -1;
    };
    void stepTotals(const Schedule& s, std::vector<StepTotal>& totals)
    {
        totals.clear();
        struct {
            std::vector<StepTotal>& totals;
            void atStep(const StepVisit& at, const LiveBytes& live)
            {
                if (at.step != kResidentOnly)
                    totals.push_back({ live.total, std::int32_t(at.real) });
            }
        } v { totals };
        walkSchedule<WalkDetail::Total>(s, v);
    }

    // The real index of the highest step at this batch (the first one on a tie).
    std::int32_t argmaxAt(const std::vector<StepTotal>& totals, double batch)
    {
        std::int32_t best = 0;
        double bestValue = -1.0;
        for (const StepTotal& t : totals) {
            const double v = t.total.at(batch);
            if (v > bestValue || (v == bestValue && t.real < best)) {
                bestValue = v;
                best = t.real;
            }
        }
        return best;
    }

    void assign(const std::vector<StepTotal>& totals, const std::vector<double>& b, std::vector<std::int32_t>& step,
                std::size_t lo, std::size_t hi)
    {
        if (hi <= lo + 1)
            return;
        if (step[lo] == step[hi]) {
            for (std::size_t k = lo + 1; k < hi; ++k)
                step[k] = step[lo];
            return;
        }
        const std::size_t mid = lo + (hi - lo) / 2;
        step[mid] = argmaxAt(totals, b[mid]);
        assign(totals, b, step, lo, mid);
        assign(totals, b, step, mid, hi);
    }

} // namespace

std::vector<SweepPoint> batchSweep(const Schedule& s, std::span<const double> batches, double overheadBytes,
                                   double reserveFraction)
{
    std::vector<SweepPoint> out(batches.size());
    if (batches.empty() || s.steps.empty())
        return out;
    thread_local std::vector<StepTotal> totals;
    stepTotals(s, totals);

    // Sort the batches (keeping their order for the answer) and find each one's peak step.
    std::vector<std::size_t> order(batches.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return batches[a] < batches[b]; });
    std::vector<double> sorted(batches.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        sorted[i] = batches[order[i]];
    std::vector<std::int32_t> peakStep(sorted.size(), -1);
    peakStep.front() = argmaxAt(totals, sorted.front());
    peakStep.back() = argmaxAt(totals, sorted.back());
    assign(totals, sorted, peakStep, 0, sorted.size() - 1);

    // One more walk records each category at the (few) distinct peak steps.
    std::map<std::int32_t, std::array<Linear, kMemoryCategoryCount>> atStep;
    for (std::int32_t st : peakStep)
        atStep.emplace(st, std::array<Linear, kMemoryCategoryCount> {});
    struct {
        std::map<std::int32_t, std::array<Linear, kMemoryCategoryCount>>& wanted;
        void atStep(const StepVisit& at, const LiveBytes& live)
        {
            if (at.step == kResidentOnly)
                return;
            if (auto it = wanted.find(std::int32_t(at.real)); it != wanted.end())
                it->second = live.byCategory;
        }
    } v { atStep };
    walkSchedule<WalkDetail::ByCategory>(s, v);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        SweepPoint& p = out[order[i]];
        p.batch = sorted[i];
        p.peakStep = peakStep[i];
        const auto& cats = atStep[peakStep[i]];
        double allocated = 0.0;
        for (int c = 0; c < kMemoryCategoryCount; ++c) {
            p.atPeak[c] = cats[c].at(p.batch);
            allocated += p.atPeak[c];
        }
        p.atPeak[index(MemoryCategory::Overhead)] += overheadBytes + allocated * reserveFraction;
        p.peakBytes = allocated * (1.0 + reserveFraction) + overheadBytes;
    }
    return out;
}

} // namespace headroom
