// Schedule's index of the real model's steps, and the lowering's handling of a repeated block (schedulerepeat.h).

#include "lowering.h"
#include "schedulerepeat.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace headroom {

std::int32_t Schedule::repeatOf(std::int32_t step) const
{
    return stepRepeat.empty() ? -1 : stepRepeat[std::size_t(step)];
}

StepRun Schedule::locate(std::int64_t real) const
{
    std::int64_t shift = 0; // real steps beyond the schedule's before the step
    for (std::size_t r = 0; r < repeats.size(); ++r) {
        const StepRepeat& rep = repeats[r];
        const std::int64_t begin = rep.first + shift, len = rep.length();
        if (real < begin)
            break;
        if (real < begin + len * rep.count) {
            const std::int64_t off = real - begin;
            return { std::int32_t(rep.first + off % len), std::int32_t(off / len), std::int32_t(r) };
        }
        shift += len * (rep.count - 1);
    }
    return { std::int32_t(real - shift), 0, -1 };
}

std::int64_t Schedule::realIndex(const StepRun& at) const
{
    std::int64_t shift = 0;
    for (const StepRepeat& rep : repeats) {
        if (at.step < rep.first)
            break;
        if (at.step <= rep.last)
            return at.step + shift + std::int64_t(at.run) * rep.length();
        shift += std::int64_t(rep.length()) * (rep.count - 1);
    }
    return at.step + shift;
}

int Schedule::layerOf(const StepRun& at) const
{
    if (at.step < 0 || std::size_t(at.step) >= steps.size())
        return -1;
    if (at.repeat < 0)
        return steps[std::size_t(at.step)].layer;
    const StepRepeat& rep = repeats[std::size_t(at.repeat)];
    return rep.layer + rep.layerStride * at.run;
}

namespace detail {

    void markRepeats(const Graph& g, Schedule& s)
    {
        s.repeats.clear();
        s.stepRepeat.clear();
        s.realSteps = std::int64_t(s.steps.size());
        if (!g.repeat.active())
            return;
        // Forward steps of the block, then its backward steps (recomputation included): each a contiguous range.
        std::array<StepRepeat, 2> found {};
        for (std::int32_t i = 0; i < std::int32_t(s.steps.size()); ++i) {
            const Step& st = s.steps[std::size_t(i)];
            if (st.op < g.repeat.firstOp || st.op > g.repeat.lastOp)
                continue;
            StepRepeat& rep = found[st.phase == Phase::Forward ? 0 : 1];
            if (rep.first < 0)
                rep.first = i;
            else if (rep.last != i - 1)
                throw std::logic_error("a repeated block's steps are not contiguous");
            rep.last = i;
        }
        s.stepRepeat.assign(s.steps.size(), -1);
        for (std::size_t k = 0; k < found.size(); ++k) {
            StepRepeat rep = found[k];
            if (rep.first < 0)
                continue;
            rep.count = g.repeat.count;
            const bool forward = k == 0;
            rep.layerStride = forward ? 1 : -1;
            rep.layer = forward ? g.repeat.layer : g.repeat.layer + g.repeat.count - 1;
            rep.carry = forward ? g.repeat.forwardCarry : g.repeat.layer - 1;
            s.realSteps += std::int64_t(rep.length()) * (rep.count - 1);
            for (std::int32_t i = rep.first; i <= rep.last; ++i)
                s.stepRepeat[std::size_t(i)] = std::int8_t(s.repeats.size());
            s.repeats.push_back(rep);
        }
    }

    int freeCopies(const Schedule& s, const MemoryBlock& b)
    {
        if (b.alloc < 0 || s.repeats.empty())
            return 1;
        const std::int32_t r = s.repeatOf(b.alloc);
        if (r < 0)
            return 1;
        const std::int32_t freed = std::max(b.alloc, b.lastUse);
        if (s.repeatOf(freed) >= 0 || s.steps[std::size_t(freed)].layer == s.repeats[std::size_t(r)].carry)
            return 1;
        return s.repeats[std::size_t(r)].count;
    }

    void repeatDeltas(Schedule& s)
    {
        for (StepRepeat& rep : s.repeats) {
            rep.delta = {};
            rep.deltaTotal = {};
            for (std::int32_t i = rep.first; i <= rep.last; ++i) {
                const Step& st = s.steps[std::size_t(i)];
                const std::int32_t* ev = s.events.data() + st.eventsBegin;
                for (std::int32_t k = 0; k < st.allocCount + st.freeCount; ++k) {
                    const MemoryBlock& b = s.blocks[std::size_t(ev[k])];
                    if (k < st.allocCount) {
                        rep.delta[index(b.category)] += b.bytes;
                        rep.deltaTotal += b.bytes;
                    } else {
                        rep.delta[index(b.category)] -= b.bytes;
                        rep.deltaTotal -= b.bytes;
                    }
                }
            }
        }
    }

} // namespace detail

} // namespace headroom
