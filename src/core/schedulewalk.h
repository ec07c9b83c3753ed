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

// Visitor: `void atStep(std::int32_t step, const LiveBytes&)` (step is kResidentOnly before the first one), and
// optionally `void afterStep(std::int32_t step, const LiveBytes&)`.
template <WalkDetail Detail, typename Visitor>
void walkSchedule(const Schedule& s, Visitor&& visitor)
{
    LiveBytes live;
    if constexpr (Detail == WalkDetail::ByCategory)
        live.byCategory = s.resident;
    for (const auto& r : s.resident)
        live.total += r;
    visitor.atStep(kResidentOnly, live);
    const std::size_t n = s.steps.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Step& st = s.steps[i];
        const std::int32_t* ev = s.events.data() + st.eventsBegin;
        for (std::int32_t k = 0; k < st.allocCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[k]];
            if constexpr (Detail == WalkDetail::ByCategory)
                live.byCategory[index(b.category)] += b.bytes;
            live.total += b.bytes;
        }
        visitor.atStep(std::int32_t(i), live);
        for (std::int32_t k = 0; k < st.freeCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[st.allocCount + k]];
            if constexpr (Detail == WalkDetail::ByCategory)
                live.byCategory[index(b.category)] -= b.bytes;
            live.total -= b.bytes;
        }
        if constexpr (requires { visitor.afterStep(std::int32_t(i), live); })
            visitor.afterStep(std::int32_t(i), live);
    }
}

} // namespace headroom
