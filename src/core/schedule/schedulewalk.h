#pragma once

// The one walk over a lowered schedule. Every answer that needs the memory at each step (the estimate's timeline
// and peak, the peak alone, the largest micro-batch, the batch sweep) walks the schedule through this function, so
// that the order of allocations and frees, and the floating-point sums they make, are the same for all of them.
//
// Before the first step the live bytes are the resident ones. At each step the step's allocations are added, the
// visitor sees the high-water mark of the step (atStep), then the step's frees are subtracted and the visitor, if
// it asks to, sees what stays live (afterStep). Memory is a line in the micro-batch (Linear), so one walk answers
// every batch size at once.

#include "lowering.h"

#include <array>
#include <cstdint>

namespace headroom {

struct LiveBytes {
    std::array<Linear, kMemoryCategoryCount> byCategory {}; // only kept when the walk is asked for categories
    Linear total;
};

inline constexpr std::int32_t kResidentOnly = -1; // the step index the visitor sees before the first step

enum class WalkDetail : std::uint8_t { Total, ByCategory };

// Where the walk is: a schedule step and, in a repeated block, which run of it the visitor sees.
struct StepVisit {
    std::int32_t step = kResidentOnly;
    std::int32_t run = 0;               // 0, or count - 1 for a repeated block's last run
    std::int32_t runs = 1;              // runs the step stands for (StepRepeat::count in a repeated block)
    const StepRepeat* repeat = nullptr; // the repeated block the step belongs to
    std::int64_t real = -1;             // index among the real model's steps (Schedule::locate)
};

// Visitor: `void atStep(const StepVisit&, const LiveBytes&)` (step kResidentOnly before the first one), and
// optionally `void afterStep(const StepVisit&, const LiveBytes&)`.
//
// A repeated block's steps are seen twice, for its first and its last run: memory in run r is the first run's plus
// r times what one run leaves allocated, so the highest point, each category's highest point and the tightest
// budget for the micro-batch over all runs are in one of those two. afterStep sees the first run only.
template <WalkDetail Detail, typename Visitor>
void walkSchedule(const Schedule& s, Visitor&& visitor)
{
    LiveBytes live;
    if constexpr (Detail == WalkDetail::ByCategory)
        live.byCategory = s.resident;
    for (const auto& r : s.resident)
        live.total += r;
    visitor.atStep(StepVisit {}, live);
    const std::size_t n = s.steps.size();
    std::size_t nextRepeat = 0;
    std::int64_t shift = 0; // real steps beyond the schedule's before this one
    for (std::size_t i = 0; i < n; ++i) {
        const Step& st = s.steps[i];
        const StepRepeat* rep = nullptr;
        if (nextRepeat < s.repeats.size() && std::int32_t(i) >= s.repeats[nextRepeat].first)
            rep = &s.repeats[nextRepeat];
        const std::int32_t* ev = s.events.data() + st.eventsBegin;
        for (std::int32_t k = 0; k < st.allocCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[k]];
            if constexpr (Detail == WalkDetail::ByCategory)
                live.byCategory[index(b.category)] += b.bytes;
            live.total += b.bytes;
        }
        StepVisit at { std::int32_t(i), 0, rep ? rep->count : 1, rep, std::int64_t(i) + shift };
        visitor.atStep(at, live);
        if (rep && rep->count > 1) {
            const double more = double(rep->count - 1);
            LiveBytes last;
            if constexpr (Detail == WalkDetail::ByCategory) {
                for (int c = 0; c < kMemoryCategoryCount; ++c)
                    last.byCategory[c] = live.byCategory[c] + rep->delta[c] * more;
            }
            last.total = live.total + rep->deltaTotal * more;
            StepVisit lastRun = at;
            lastRun.run = rep->count - 1;
            lastRun.real += std::int64_t(rep->length()) * (rep->count - 1);
            visitor.atStep(lastRun, last);
        }
        for (std::int32_t k = 0; k < st.freeCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[st.allocCount + k]];
            if constexpr (Detail == WalkDetail::ByCategory)
                live.byCategory[index(b.category)] -= b.bytes;
            live.total -= b.bytes;
        }
        if constexpr (requires { visitor.afterStep(at, live); })
            visitor.afterStep(at, live);
        if (rep && std::int32_t(i) == rep->last) {
            // The other runs: what each leaves allocated.
            const double more = double(rep->count - 1);
            if constexpr (Detail == WalkDetail::ByCategory) {
                for (int c = 0; c < kMemoryCategoryCount; ++c)
                    live.byCategory[c] += rep->delta[c] * more;
            }
            live.total += rep->deltaTotal * more;
            shift += std::int64_t(rep->length()) * (rep->count - 1);
            ++nextRepeat;
        }
    }
}

} // namespace headroom
