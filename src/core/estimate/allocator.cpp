#include "allocator.h"

#include "gpuspec.h"
#include "graph.h"
#include "lowering.h"
#include "trainingconfig.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <tuple>

namespace headroom {

namespace {

    // c10/cuda/CUDACachingAllocator.cpp (docs/formulas.md section 3.2a).
    constexpr std::int64_t kMinBlockSize = 512;
    constexpr std::int64_t kSmallSize = 1 << 20;
    constexpr std::int64_t kSmallBuffer = 2 << 20;
    constexpr std::int64_t kLargeBuffer = 20 << 20;
    constexpr std::int64_t kMinLargeAlloc = 10 << 20;
    constexpr std::int64_t kRoundLarge = 2 << 20;

    std::int64_t roundUp(std::int64_t v, std::int64_t to) { return (v + to - 1) / to * to; }

    std::int64_t roundSize(std::int64_t size)
    {
        return size < kMinBlockSize ? kMinBlockSize : roundUp(size, kMinBlockSize);
    }

    std::int64_t segmentSize(std::int64_t size)
    {
        if (size <= kSmallSize)
            return kSmallBuffer;
        if (size < kMinLargeAlloc)
            return kLargeBuffer;
        return roundUp(size, kRoundLarge);
    }

    struct Block {
        std::int64_t size = 0;
        std::int64_t offset = 0;
        std::int64_t unmapped = 0; // expandable segments: pages of this free block returned to the driver
        int segment = -1;
        int prev = -1, next = -1;         // neighbours in the segment
        int prevFree = -1, nextFree = -1; // while free: the free blocks of its size and pool at lower, higher addresses
        bool free = true;
        bool small = false; // its segment's pool, kept here: every insert and erase of a free block reads it
    };

    struct Segment {
        bool small = false;
        std::int64_t size = 0;
        int last = -1; // the block at its end
    };

    // One pool's free blocks in the order best fit searches (BlockComparatorSize: size, then address, a segment's
    // index standing for its address): the sizes ascending, each with its blocks linked in address order through
    // Block::prevFree and nextFree. A step's replay inserts and erases free blocks tens of thousands of times among
    // ~80 of ~8 distinct sizes, a new block passing ~2 of its size's (bench_planner's plans, measured): best fit is
    // a search among a few sizes, an erase unlinks, and nothing is allocated once warm. A std::set, then sorted
    // runs of (size, segment, offset), then a vector per size spent most of the planner's replays moving entries.
    class FreePool {
    public:
        explicit FreePool(std::vector<Block>& blocks)
            : m_blocks(&blocks)
        {
        }
        FreePool(const FreePool&) = delete;
        FreePool& operator=(const FreePool&) = delete;

        // The free block that best fits `size` (the smallest at least as large, the lowest address among those),
        // taken out of the pool; -1 when none is large enough.
        int takeBestFit(std::int64_t size)
        {
            const auto c = sizeAtLeast(size);
            if (c == m_sizes.end())
                return -1;
            const int id = c->first;
            unlinkFirst(c);
            return id;
        }
        void insert(int id)
        {
            Block& b = block(id);
            const auto c = sizeAtLeast(b.size);
            if (c == m_sizes.end() || c->size != b.size) {
                b.prevFree = b.nextFree = -1;
                insertSize(c, { b.size, id });
                return;
            }
            int before = -1, after = c->first;
            while (after >= 0 && below(block(after), b)) {
                before = after;
                after = block(after).nextFree;
            }
            b.prevFree = before;
            b.nextFree = after;
            if (after >= 0)
                block(after).prevFree = id;
            (before >= 0 ? block(before).nextFree : c->first) = id;
        }
        void erase(int id)
        {
            const Block& b = block(id);
            if (b.prevFree < 0) { // the first of its size
                unlinkFirst(sizeAtLeast(b.size));
                return;
            }
            block(b.prevFree).nextFree = b.nextFree;
            if (b.nextFree >= 0)
                block(b.nextFree).prevFree = b.prevFree;
        }
        template <typename F>
        void forEach(F&& f) const
        {
            for (const Size& c : m_sizes)
                for (int id = c.first; id >= 0; id = block(id).nextFree)
                    f(id);
        }

    private:
        struct Size {
            std::int64_t size = 0;
            int first = -1; // its free block at the lowest address
        };
        Block& block(int id) const { return (*m_blocks)[std::size_t(id)]; }
        // The first size at least `size`: a binary search whose halving is a conditional move, not a branch (the
        // sizes searched for are as good as random, so a branch mispredicts at every other step).
        std::vector<Size>::iterator sizeAtLeast(std::int64_t size)
        {
            std::size_t n = m_sizes.size();
            if (n == 0)
                return m_sizes.end();
            const Size* base = m_sizes.data();
            while (n > 1) {
                const std::size_t half = n / 2;
                base = base[half].size < size ? base + half : base;
                n -= half;
            }
            return m_sizes.begin() + (base - m_sizes.data()) + (base->size < size ? 1 : 0);
        }
        static bool below(const Block& a, const Block& b)
        {
            return a.segment != b.segment ? a.segment < b.segment : a.offset < b.offset;
        }
        // Sizes come and go at most events (a split's remainder is often a size of its own): the few entries after
        // one are moved by hand, which a call to memmove for a few bytes cost more than.
        void insertSize(std::vector<Size>::iterator at, Size size)
        {
            const auto k = std::size_t(at - m_sizes.begin());
            m_sizes.push_back(size);
            for (std::size_t i = m_sizes.size() - 1; i > k; --i)
                m_sizes[i] = m_sizes[i - 1];
            m_sizes[k] = size;
        }
        void eraseSize(std::vector<Size>::iterator at)
        {
            for (auto i = at + 1; i != m_sizes.end(); ++i)
                *(i - 1) = *i;
            m_sizes.pop_back();
        }
        void unlinkFirst(std::vector<Size>::iterator c)
        {
            const int next = block(c->first).nextFree;
            if (next < 0) {
                eraseSize(c);
                return;
            }
            block(next).prevFree = -1;
            c->first = next;
        }
        std::vector<Block>* m_blocks;
        std::vector<Size> m_sizes; // ascending, each with at least one free block
    };

    // The allocator's state: blocks, segments and each pool's free blocks.
    class CachingAllocator {
    public:
        // `limit`: the bytes cudaMalloc can give (the capacity less the context); 0 for no limit.
        CachingAllocator(bool expandable, std::int64_t limit)
            : m_expandable(expandable)
            , m_limit(limit)
        {
        }

        int allocate(std::int64_t requested)
        {
            const std::int64_t size = roundSize(requested);
            const bool small = size <= kSmallSize;
            auto& pool = m_free[small];
            int id = pool.takeBestFit(size);
            if (id < 0) {
                grow(small, size);
                id = pool.takeBestFit(size);
            }
            Block& b = m_blocks[std::size_t(id)];
            b.free = false;
            const std::int64_t unmapped = b.unmapped;
            b.unmapped = 0;
            const std::int64_t remaining = b.size - size;
            if (small || m_expandable ? remaining >= kMinBlockSize : remaining > kSmallSize)
                split(id, size);
            if (unmapped > 0) { // the pages this block needs are mapped again; the rest stay with the remainder
                const std::int64_t need = std::min(unmapped, roundUp(size, small ? kSmallBuffer : kLargeBuffer));
                mapChecked(need);
                if (const int rest = m_blocks[std::size_t(id)].next; rest >= 0 && m_blocks[std::size_t(rest)].free)
                    m_blocks[std::size_t(rest)].unmapped += unmapped - need;
            }
            m_allocated += m_blocks[std::size_t(id)].size;
            m_peakAllocated = std::max(m_peakAllocated, m_allocated);
            m_phasePeakAllocated = std::max(m_phasePeakAllocated, m_allocated);
            return id;
        }

        // The block goes back to its pool, merged with free neighbours in its segment (try_merge_blocks).
        void release(int id)
        {
            Block& b = m_blocks[std::size_t(id)];
            m_allocated -= b.size;
            b.free = true;
            int at = id;
            if (const int prev = b.prev; prev >= 0 && m_blocks[std::size_t(prev)].free) {
                eraseFree(prev);
                absorb(prev, at);
                at = prev;
            }
            if (const int next = m_blocks[std::size_t(at)].next; next >= 0 && m_blocks[std::size_t(next)].free) {
                eraseFree(next);
                absorb(at, next);
            }
            insertFree(at);
        }

        // The state as what decides every later request: each segment's blocks in address order with their size,
        // whether they are free (and their unmapped pages) or whose they are (`owner`, by block id). Two states alike
        // here replay the same requests alike: the free sets' order is by size, segment and offset, never by id.
        void snapshot(const std::vector<int>& owner, std::vector<std::int64_t>& out) const
        {
            out.clear();
            out.push_back(m_outOfMemory);
            for (const Segment& seg : m_segments) {
                out.push_back(seg.size);
                int first = seg.last;
                while (first >= 0 && m_blocks[std::size_t(first)].prev >= 0)
                    first = m_blocks[std::size_t(first)].prev;
                for (int b = first; b >= 0; b = m_blocks[std::size_t(b)].next) {
                    const Block& k = m_blocks[std::size_t(b)];
                    out.push_back(k.size);
                    out.push_back(k.free ? -1 - k.unmapped : owner[std::size_t(b)]);
                }
                out.push_back(-1); // the segment's end
            }
        }
        std::size_t blockCount() const { return m_blocks.size(); }
        std::int64_t blockSize(int id) const { return m_blocks[std::size_t(id)].size; }

        std::int64_t peakAllocated() const { return m_peakAllocated; }
        std::int64_t peakReserved() const { return m_peakReserved; }
        // What torch.cuda.memory_allocated and memory_reserved say now, and their highest since beginPhase() (as
        // after torch.cuda.reset_peak_memory_stats).
        PhaseMemory phaseMemory() const
        {
            return { double(m_allocated), double(m_reserved), double(m_phasePeakAllocated),
                     double(m_phasePeakReserved) };
        }
        void beginPhase()
        {
            m_phasePeakAllocated = m_allocated;
            m_phasePeakReserved = m_reserved;
        }
        int segmentsAtPeak() const { return m_segmentsAtPeak; }
        bool outOfMemory() const { return m_outOfMemory; }

    private:
        void insertFree(int id)
        {
            const Block& b = m_blocks[std::size_t(id)];
            m_free[b.small].insert(id);
        }
        void eraseFree(int id)
        {
            const Block& b = m_blocks[std::size_t(id)];
            m_free[b.small].erase(id);
        }

        // A new segment from cudaMalloc, or, with expandable segments, the pool's one segment mapped further.
        void grow(bool small, std::int64_t size)
        {
            if (m_expandable) {
                const std::int64_t page = small ? kSmallBuffer : kLargeBuffer;
                int& seg = m_expandableSegment[small];
                if (seg < 0) {
                    seg = int(m_segments.size());
                    m_segments.push_back({ small, 0, -1 });
                }
                Segment& s = m_segments[std::size_t(seg)];
                const int tail = s.last;
                const bool tailFree = tail >= 0 && m_blocks[std::size_t(tail)].free;
                const std::int64_t have = tailFree ? m_blocks[std::size_t(tail)].size : 0;
                const std::int64_t more = roundUp(size - have, page);
                if (s.size == 0 && more > 0)
                    ++m_heldSegments;
                s.size += more; // before reserve(), which counts the segments holding memory
                mapChecked(more);
                if (tailFree) {
                    eraseFree(tail);
                    m_blocks[std::size_t(tail)].size += more;
                    insertFree(tail);
                } else {
                    addBlock(seg, s.size - more, more, tail);
                }
                return;
            }
            const std::int64_t bytes = segmentSize(size);
            // cudaMalloc failing: the allocator returns its wholly free segments to the driver and tries again
            // (release_cached_blocks); failing again is the out-of-memory error.
            if (m_limit > 0 && m_reserved + bytes > m_limit)
                releaseFreeSegments();
            if (m_limit > 0 && m_reserved + bytes > m_limit)
                m_outOfMemory = true;
            const int seg = int(m_segments.size());
            m_segments.push_back({ small, bytes, -1 });
            ++m_heldSegments;
            reserve(bytes);
            addBlock(seg, 0, bytes, -1);
        }

        // Expandable segments: mapping `bytes` more pages, under the limit. When the driver has none left the
        // allocator unmaps the whole pages of every free block (release_cached_blocks -> release_blocks ->
        // unmap_block) and tries again; failing again is the out-of-memory error.
        void mapChecked(std::int64_t bytes)
        {
            if (m_limit > 0 && m_reserved + bytes > m_limit)
                unmapFreePages();
            if (m_limit > 0 && m_reserved + bytes > m_limit)
                m_outOfMemory = true;
            reserve(bytes);
        }

        void unmapFreePages()
        {
            for (const auto& pool : m_free)
                pool.forEach([&](int id) { unmapPages(m_blocks[std::size_t(id)]); });
        }

        // The whole pages inside a free block (ExpandableSegment::unmap keeps a page a neighbour still uses).
        void unmapPages(Block& b)
        {
            const std::int64_t page = m_segments[std::size_t(b.segment)].small ? kSmallBuffer : kLargeBuffer;
            const std::int64_t first = roundUp(b.offset, page), end = (b.offset + b.size) / page * page;
            const std::int64_t whole = std::max<std::int64_t>(0, end - first) - b.unmapped;
            if (whole > 0) {
                b.unmapped += whole;
                m_reserved -= whole;
            }
        }

        void releaseFreeSegments()
        {
            for (Segment& seg : m_segments) {
                const int only = seg.last;
                if (seg.size == 0 || only < 0)
                    continue;
                const Block& b = m_blocks[std::size_t(only)];
                if (b.free && b.prev < 0 && b.size == seg.size) {
                    eraseFree(only);
                    m_reserved -= seg.size;
                    seg.size = 0;
                    --m_heldSegments;
                    seg.last = -1;
                }
            }
        }

        void reserve(std::int64_t bytes)
        {
            m_reserved += bytes;
            m_phasePeakReserved = std::max(m_phasePeakReserved, m_reserved);
            if (m_reserved > m_peakReserved) {
                m_peakReserved = m_reserved;
                m_segmentsAtPeak = m_heldSegments;
            }
        }

        void addBlock(int seg, std::int64_t offset, std::int64_t size, int prev)
        {
            const int id = newBlock({ .size = size,
                                      .offset = offset,
                                      .segment = seg,
                                      .prev = prev,
                                      .small = m_segments[std::size_t(seg)].small });
            if (prev >= 0)
                m_blocks[std::size_t(prev)].next = id;
            m_segments[std::size_t(seg)].last = id;
            insertFree(id);
        }

        // Keeps `size` bytes in block `id`; the rest becomes a free block after it.
        void split(int id, std::int64_t size)
        {
            Block& b = m_blocks[std::size_t(id)];
            const Block r {
                .size = b.size - size,
                .offset = b.offset + size,
                .segment = b.segment,
                .prev = id,
                .next = b.next,
                .small = b.small,
            };
            b.size = size;
            const int rest = newBlock(r);
            if (r.next >= 0)
                m_blocks[std::size_t(r.next)].prev = rest;
            else
                m_segments[std::size_t(r.segment)].last = rest;
            m_blocks[std::size_t(id)].next = rest;
            insertFree(rest);
        }

        // Block `b`, which follows `a` in their segment, becomes part of `a`.
        void absorb(int a, int b)
        {
            Block& first = m_blocks[std::size_t(a)];
            const Block& second = m_blocks[std::size_t(b)];
            first.size += second.size;
            first.unmapped += second.unmapped;
            first.next = second.next;
            if (second.next >= 0)
                m_blocks[std::size_t(second.next)].prev = a;
            else
                m_segments[std::size_t(first.segment)].last = a;
            m_dead.push_back(b);
        }

        // A block's id: one that an absorbed block left, else a new one. Without reuse a step's replay left millions
        // of dead blocks behind, and the live ones scattered among them.
        int newBlock(const Block& b)
        {
            if (m_dead.empty()) {
                m_blocks.push_back(b);
                return int(m_blocks.size()) - 1;
            }
            const int id = m_dead.back();
            m_dead.pop_back();
            m_blocks[std::size_t(id)] = b;
            return id;
        }

        bool m_expandable = false;
        std::int64_t m_limit = 0;
        bool m_outOfMemory = false;
        std::vector<Block> m_blocks;
        std::vector<int> m_dead; // ids of absorbed blocks, for newBlock()
        std::vector<Segment> m_segments;
        FreePool m_free[2] { FreePool { m_blocks }, FreePool { m_blocks } }; // [large, small]
        int m_expandableSegment[2] = { -1, -1 };
        std::int64_t m_allocated = 0, m_peakAllocated = 0;
        std::int64_t m_reserved = 0, m_peakReserved = 0;
        std::int64_t m_phasePeakAllocated = 0, m_phasePeakReserved = 0;
        int m_segmentsAtPeak = 0;
        int m_heldSegments = 0; // segments holding memory (size > 0); counting them at each new peak was quadratic
    };

    // A size or limit in whole bytes. Past 2^44 (16 TiB, far beyond any GPU's memory) it is held there: a request
    // that large fails under any capacity, and sums of such requests stay inside 64 bits (fuzz_gpu and
    // fuzz_hfconfig found a replay of absurd sizes overflowing m_reserved; tests/fuzz/regressions).
    constexpr double kMaxBytes = 17592186044416.0; // 2^44

    std::int64_t bytesOf(double v) { return !(v > 0.0) ? 0 : std::int64_t(std::llround(std::min(v, kMaxBytes))); }

    // A schedule lowered with one block of each run of identical ones (Schedule::repeats) as the real model runs it:
    // its steps in order, a repeated block's once per run, and which copy of a block each free releases. Each block
    // has a copy per run of the repeated block that allocates it; a free releases the latest copy (backward runs the
    // blocks in reverse, and a run frees what it allocated), with two exceptions the lowering's walk reads from the
    // repeat's counts:
    //   * a block's input that is the block before's output (the residual stream; `carry` in StepRepeat): the one
    //     block built reads the block before the run (X), so X's free in a run stands for the input of that run's
    //     block: X itself for the first, else the copy of the output (Y: allocated in the repeat, freed at its carry
    //     layer, of X's size) that the run before allocated;
    //   * a block of the repeat freed after it, not at the carry layer, frees every run's copy at once.
    // tst_allocator repeatedBlocksReplayAsEveryBlock holds the replay to the schedule lowered block by block.
    class RealSteps {
    public:
        explicit RealSteps(const Schedule& s)
            : m_s(s)
            , m_partner(s.repeats.empty() ? 0 : s.blocks.size(), -1)
        {
            m_steps.reserve(std::size_t(s.realSteps));
            std::size_t r = 0;
            for (std::int32_t i = 0; i < std::int32_t(s.steps.size());) {
                if (r < s.repeats.size() && i == s.repeats[r].first) {
                    const StepRepeat& rep = s.repeats[r];
                    for (int run = 0; run < rep.count; ++run)
                        for (std::int32_t k = rep.first; k <= rep.last; ++k)
                            m_steps.push_back({ k, run, std::int32_t(r) });
                    i = rep.last + 1;
                    ++r;
                    continue;
                }
                m_steps.push_back({ i++, 0, -1 });
            }
            if (s.repeats.empty())
                return;
            const std::vector<bool> output = pairCarries();
            m_free.assign(s.blocks.size(), Free::Latest);
            for (std::size_t b = 0; b < s.blocks.size(); ++b) {
                const MemoryBlock& k = s.blocks[b];
                if (m_partner[b] >= 0)
                    m_free[b] = Free::Input;
                else if (!output[b] && k.alloc >= 0 && s.repeatOf(k.alloc) >= 0
                         && s.repeatOf(std::max(k.alloc, k.lastUse)) < 0)
                    m_free[b] = Free::EveryCopy;
            }
        }
        enum class Free : std::uint8_t { Latest, Input, EveryCopy };
        const std::vector<StepRun>& steps() const { return m_steps; }
        // What a free of block `b` releases: its latest copy, a run's input (X: inputRun) or every run's copy (a
        // repeated block's, freed after the repeat, not an output freed at the carry layer).
        Free freeOf(std::size_t b) const { return m_free.empty() ? Free::Latest : m_free[b]; }
        // X's partner Y.
        int partner(std::size_t b) const { return m_partner[b]; }
        // For X freed at `at`: 0 when that run's input is X itself, else 1 + the run of Y's repeat whose copy it is.
        int inputRun(std::size_t x, const StepRun& at) const
        {
            const MemoryBlock& y = m_s.blocks[std::size_t(m_partner[x])];
            const StepRepeat& made = m_s.repeats[std::size_t(m_s.repeatOf(y.alloc))];
            return (m_s.layerOf(at) - made.layer) * made.layerStride;
        }

    private:
        // Pairs each input X with an output Y (m_partner); returns which blocks are paired outputs.
        std::vector<bool> pairCarries()
        {
            std::vector<int> outputs; // allocated in a repeat, freed after it at its carry layer
            for (std::size_t b = 0; b < m_s.blocks.size(); ++b) {
                const MemoryBlock& k = m_s.blocks[b];
                const std::int32_t r = k.alloc >= 0 ? m_s.repeatOf(k.alloc) : -1;
                const std::int32_t freed = std::max(k.alloc, k.lastUse);
                if (r >= 0 && m_s.repeatOf(freed) < 0
                    && m_s.steps[std::size_t(freed)].layer == m_s.repeats[std::size_t(r)].carry)
                    outputs.push_back(int(b));
            }
            std::vector<bool> paired(m_s.blocks.size(), false);
            for (std::size_t x = 0; x < m_s.blocks.size(); ++x) {
                const MemoryBlock& k = m_s.blocks[x];
                if (k.alloc < 0 || m_s.repeatOf(k.alloc) >= 0 || m_s.repeatOf(std::max(k.alloc, k.lastUse)) < 0)
                    continue;
                for (int& y : outputs) {
                    if (y >= 0 && m_s.blocks[std::size_t(y)].bytes == k.bytes) {
                        m_partner[x] = y;
                        paired[std::size_t(y)] = true;
                        y = -1;
                        break;
                    }
                }
            }
            return paired;
        }

        const Schedule& m_s;
        std::vector<StepRun> m_steps;
        std::vector<int> m_partner; // per block: for a repeat's input X, its output Y
        std::vector<Free> m_free;   // per block; empty without repeats
    };

    // Each block's live copies in the order they were allocated; a copy freed out of order leaves a hole (-2). One
    // flat array, each block with room for its copies of three training steps (the replay's most; a copy never freed
    // stays), rather than a vector per block and its second indirection at every allocation and free.
    class Copies {
    public:
        void reset(const Schedule& s)
        {
            const std::size_t n = s.blocks.size();
            m_begin.resize(n + 1);
            m_size.assign(n, 0);
            m_base.assign(n, 0);
            std::size_t at = 0;
            for (std::size_t b = 0; b < n; ++b) {
                m_begin[b] = at;
                const std::int32_t alloc = s.blocks[b].alloc;
                const std::int32_t r = alloc >= 0 ? s.repeatOf(alloc) : -1;
                at += 3 * std::size_t(r >= 0 ? s.repeats[std::size_t(r)].count : 1);
            }
            m_begin[n] = at;
            m_slots.resize(at);
        }
        void push(std::size_t b, int id) { m_slots[m_begin[b] + m_size[b]++] = id; }
        // The latest copy, taken out; -3 when none is left. `thisIteration`: only one this training step allocated.
        int popLatest(std::size_t b, bool thisIteration = false)
        {
            trim(b);
            if (m_size[b] == 0 || (thisIteration && m_size[b] <= m_base[b]))
                return -3;
            const int id = m_slots[m_begin[b] + --m_size[b]];
            trim(b);
            return id;
        }
        // The copy of block `b` this training step allocated `k`-th (from 0), taken out; -3 when none is there.
        int takeNth(std::size_t b, int k)
        {
            const std::size_t at = m_base[b] + std::size_t(k);
            if (k < 0 || at >= m_size[b] || m_slots[m_begin[b] + at] == -2)
                return -3;
            int& slot = m_slots[m_begin[b] + at];
            const int id = slot;
            slot = -2; // a hole, so that the copies after it keep their places
            return id;
        }
        // A new training step: holes closed, the copies it allocates counted from here.
        void newIteration()
        {
            for (std::size_t b = 0; b < m_size.size(); ++b) {
                int* copies = m_slots.data() + m_begin[b];
                std::size_t kept = 0;
                for (std::size_t i = 0; i < m_size[b]; ++i) {
                    if (copies[i] != -2)
                        copies[kept++] = copies[i];
                }
                m_size[b] = m_base[b] = kept;
            }
        }
        std::size_t blocks() const { return m_size.size(); }
        std::span<const int> ids(std::size_t b) const { return { m_slots.data() + m_begin[b], m_size[b] }; }

    private:
        void trim(std::size_t b)
        {
            while (m_size[b] > 0 && m_slots[m_begin[b] + m_size[b] - 1] == -2)
                --m_size[b];
        }
        std::vector<int> m_slots;
        std::vector<std::size_t> m_begin, m_size, m_base;
    };

    // What the first training step allocates besides its tensors, in PyTorch's order: autograd's device thread takes
    // its cuBLAS workspaces (one per handle, CublasHandlePool.cpp) at its first matmul, here the start of the first
    // backward pass; torch.optim creates its states at the first step() (adamw.py `_init_group`: exp_avg and
    // exp_avg_sq, zeros_like each parameter in turn), after the first forward and backward passes have cached their
    // blocks. Each is allocated once and then cleared.
    struct FirstStep {
        std::vector<std::int64_t> backwardWorkspaces;
        std::vector<double> states;
    };

    // One training step's allocations and frees: every run of a repeated block, each free releasing the copy the real
    // model frees (RealSteps); `first` (the first step only) adds FirstStep's at their phases.
    void replayIteration(CachingAllocator& a, const Schedule& s, const RealSteps& real, Copies& live,
                         const std::vector<double>& sizes, const std::vector<std::int64_t>& whole, double& requested,
                         double& requestedPeak, std::array<PhaseMemory, 3>& phases, FirstStep* first, int& failedPhase)
    {
        // The memory at each phase's end, as the probe reads it (after_forward, after_backward, and after the
        // optimizer's step, before zero_grad): with several micro-batches, the last one's, and the highest of their
        // peaks.
        int phase = -1;
        phases = {};
        double zeroGrad = 0.0;       // gradients the optimizer phase frees: zero_grad, after the probe's reading
        std::vector<int> tensorList; // the optimizer's temporary list's blocks (Schedule::optimizerTempTensors)
        auto release = [&](std::size_t b, int id) { // a copy of block b; -1: one of no bytes, -3: none
            if (id == -3)
                return;
            requested -= sizes[b];
            if (id < 0)
                return;
            if (phase == int(Phase::Optimizer) && s.blocks[b].category == MemoryCategory::Gradients)
                zeroGrad += double(a.blockSize(id));
            a.release(id);
        };
        auto endPhase = [&] {
            if (phase < 0)
                return;
            PhaseMemory& p = phases[std::size_t(phase)];
            const PhaseMemory now = a.phaseMemory();
            p = { now.allocatedBytes + zeroGrad, now.reservedBytes,
                  std::max(p.peakAllocatedBytes, now.peakAllocatedBytes),
                  std::max(p.peakReservedBytes, now.peakReservedBytes) };
            zeroGrad = 0.0;
        };
        for (const StepRun& at : real.steps()) {
            const Step& st = s.steps[std::size_t(at.step)];
            if (int(st.phase) != phase) {
                endPhase();
                phase = int(st.phase);
                a.beginPhase();
                if (first && st.phase == Phase::Backward) {
                    for (const std::int64_t w : first->backwardWorkspaces)
                        a.allocate(w);
                    first->backwardWorkspaces.clear();
                }
                if (first && st.phase == Phase::Optimizer) {
                    for (const double b : first->states) {
                        a.allocate(bytesOf(b));
                        requested += b;
                    }
                    first->states.clear();
                }
            }
            const std::int32_t* ev = s.events.data() + st.eventsBegin;
            for (std::int32_t k = 0; k < st.allocCount; ++k) {
                const auto b = std::size_t(ev[k]);
                requested += sizes[b];
                if (std::int32_t(b) == s.optimizerTempBlock && !s.optimizerTempTensors.empty()) {
                    for (const double t : s.optimizerTempTensors) // a list of tensors, allocated in turn
                        tensorList.push_back(a.allocate(std::max<std::int64_t>(1, bytesOf(t))));
                    live.push(b, -1);
                    continue;
                }
                live.push(b, whole[b] > 0 ? a.allocate(whole[b]) : -1);
            }
            requestedPeak = std::max(requestedPeak, requested);
            if (failedPhase < 0 && a.outOfMemory())
                failedPhase = phase;
            for (std::int32_t k = st.allocCount; k < st.allocCount + st.freeCount; ++k) {
                const auto b = std::size_t(ev[k]);
                if (std::int32_t(b) == s.optimizerTempBlock) {
                    for (const int id : tensorList)
                        a.release(id);
                    tensorList.clear();
                }
                switch (real.freeOf(b)) {
                case RealSteps::Free::Latest:
                    release(b, live.popLatest(b));
                    break;
                case RealSteps::Free::Input:
                    if (const int run = real.inputRun(b, at); run == 0)
                        release(b, live.popLatest(b));
                    else
                        release(std::size_t(real.partner(b)), live.takeNth(std::size_t(real.partner(b)), run - 1));
                    break;
                case RealSteps::Free::EveryCopy:
                    for (int id = live.popLatest(b, true); id != -3; id = live.popLatest(b, true))
                        release(b, id);
                    break;
                }
            }
        }
        endPhase();
    }

    // Whose each allocator block is, for CachingAllocator::snapshot: a schedule block's copy (block + blocks x copy),
    // or -2 for a resident tensor or a workspace.
    void labelCopies(const Copies& live, std::size_t allocatorBlocks, std::vector<int>& owner)
    {
        owner.assign(allocatorBlocks, -2);
        const int blocks = int(live.blocks());
        for (std::size_t b = 0; b < live.blocks(); ++b) {
            int copy = 0;
            for (const int id : live.ids(b)) {
                if (id >= 0)
                    owner[std::size_t(id)] = int(b) + blocks * copy;
                copy += id == -2 ? 0 : 1;
            }
        }
    }

} // namespace

double allocatorRoundedSize(double bytes) { return double(roundSize(bytesOf(bytes))); }
double allocatorSegmentSize(double bytes) { return double(segmentSize(roundSize(bytesOf(bytes)))); }
bool allocatorSmallPool(double roundedBytes) { return bytesOf(roundedBytes) <= kSmallSize; }

ResidentTensors residentTensors(const Graph& g, const Schedule& s, const TrainingConfig& c)
{
    ResidentTensors r;
    const double batch = double(c.microBatch);
    const bool flat = c.dataParallel > 1;
    // `total` spread over the parameters in proportion to their size, `perParam` tensors each.
    auto spread = [&](double total, bool trainableOnly, int perParam) {
        if (total <= 0.0)
            return;
        double sum = 0.0;
        for (const Parameter& p : g.params)
            sum += (!trainableOnly || p.trainable) ? p.numel : 0.0;
        if (sum <= 0.0)
            return;
        for (const Parameter& p : g.params) {
            if (trainableOnly && !p.trainable)
                continue;
            for (int k = 0; k < perParam; ++k)
                r.bytes.push_back(total * p.numel / sum / perParam);
        }
    };
    const double weights = s.resident[index(MemoryCategory::Weights)].at(batch);
    if (flat && c.zeroStage >= 3)
        r.bytes.push_back(weights);
    else
        spread(weights, false, 1);
    const double states = s.resident[index(MemoryCategory::OptimizerStates)].at(batch);
    const bool adam = c.optimizer == OptimizerKind::AdamW || c.optimizer == OptimizerKind::Adam;
    if (flat && c.zeroStage >= 1) {
        r.bytes.push_back(states); // DeepSpeed's flat partitions, made when the engine is built
    } else {
        const std::size_t before = r.bytes.size();
        spread(states, true, adam ? 2 : 1);
        r.atFirstStep.assign(r.bytes.begin() + std::ptrdiff_t(before), r.bytes.end());
        r.bytes.resize(before);
    }
    for (int k = 0; k < kMemoryCategoryCount; ++k) {
        if (k != index(MemoryCategory::Weights) && k != index(MemoryCategory::OptimizerStates)
            && s.resident[std::size_t(k)].at(batch) > 0.0)
            r.bytes.push_back(s.resident[std::size_t(k)].at(batch));
    }
    return r;
}

double defaultCublasWorkspaceBytes(const GpuSpec& gpu)
{
    const int major = std::atoi(gpu.computeCapability.c_str());
    return major >= 9 ? 4096.0 * 1024 * 8 : 4096.0 * 1024 * 2 + 16.0 * 1024 * 8;
}

double cublasWorkspaceChangeBytes(const GpuSpec& gpu, const TrainingConfig& config)
{
    if (!config.cublasWorkspaceBytes)
        return 0.0;
    return kTrainingCublasHandles * (*config.cublasWorkspaceBytes - defaultCublasWorkspaceBytes(gpu));
}

double cublasLtWorkspaceBytesFor(TorchVersion torch) { return torch >= TorchVersion { 2, 11 } ? 0.0 : 1024.0 * 1024; }

std::optional<double> cublasWorkspaceConfigBytes(std::string_view config)
{
    double total = 0.0;
    bool any = false;
    std::size_t i = 0;
    auto number = [&](double* out) {
        const std::size_t start = i;
        double v = 0.0;
        while (i < config.size() && config[i] >= '0' && config[i] <= '9' && i - start < 12)
            v = v * 10.0 + (config[i++] - '0');
        *out = v;
        return i > start;
    };
    while (i < config.size()) {
        if (config[i] != ':') {
            ++i;
            continue;
        }
        const std::size_t at = i++;
        double size = 0.0, count = 0.0;
        if (number(&size) && i < config.size() && config[i] == ':') {
            ++i;
            if (number(&count)) {
                total += size * 1024.0 * count;
                any = true;
                continue;
            }
        }
        i = at + 1;
    }
    return any ? std::optional<double>(total) : std::nullopt;
}

AllocatorEstimate replayCachingAllocator(const Schedule& s, const ResidentTensors& residents, double microBatch,
                                         const AllocatorSettings& settings, double overheadBytes)
{
    AllocatorEstimate out;
    out.expandableSegments = settings.expandableSegments;
    const int handles = std::max(1, settings.cublasHandles);
    out.cublasWorkspaceBytes = double(handles) * (settings.cublasWorkspaceBytes + settings.cublasLtWorkspaceBytes);
    const RealSteps real(s);
    out.convolutionSteps = int(std::count_if(real.steps().begin(), real.steps().end(), [&](const StepRun& at) {
        return s.steps[std::size_t(at.step)].convolution;
    }));
    out.contextBytes = std::max(0.0, overheadBytes - out.cublasWorkspaceBytes);
    out.ncclBytes = settings.ncclBytes;
    out.ncclCommunicators = settings.ncclCommunicators;
    out.capacityBytes = settings.capacityBytes;
    CachingAllocator a(settings.expandableSegments,
                       settings.capacityBytes > 0.0
                           ? bytesOf(std::max(0.0, settings.capacityBytes - out.contextBytes - out.ncclBytes))
                           : 0);
    double requested = 0.0, requestedPeak = 0.0;
    for (double r : residents.bytes) {
        if (bytesOf(r) > 0) {
            a.allocate(bytesOf(r));
            requested += r;
        }
    }
    // The Python thread's workspaces before the first forward matmul; the others' and the states in the first step.
    FirstStep first;
    for (double r : residents.atFirstStep) {
        if (bytesOf(r) > 0)
            first.states.push_back(r);
    }
    for (int handle = 0; handle < handles; ++handle) {
        for (double w : { settings.cublasWorkspaceBytes, settings.cublasLtWorkspaceBytes }) {
            if (w <= 0.0)
                continue;
            if (handle == 0)
                a.allocate(bytesOf(w));
            else
                first.backwardWorkspaces.push_back(bytesOf(w));
        }
    }
    requestedPeak = requested;
    thread_local Copies live;
    live.reset(s);
    std::vector<int> owner(a.blockCount(), -2); // a resident tensor or a workspace
    std::vector<std::int64_t> before, after;
    a.snapshot(owner, before);
    // Each block's size at this micro-batch, once: every iteration requests the same.
    std::vector<double> sizes(s.blocks.size());
    std::vector<std::int64_t> whole(s.blocks.size());
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
        sizes[b] = s.blocks[b].bytes.at(microBatch);
        whole[b] = bytesOf(sizes[b]);
    }
    auto held = [](const auto& v) { return std::any_of(v.begin(), v.end(), [](double x) { return x > kMaxBytes; }); };
    out.sizesHeld = held(sizes) || held(residents.bytes) || held(residents.atFirstStep) || held(s.optimizerTempTensors);
    for (int iteration = 0; iteration < 3; ++iteration) {
        live.newIteration();
        replayIteration(a, s, real, live, sizes, whole, requested, requestedPeak, out.phases,
                        iteration == 0 ? &first : nullptr, out.failedPhase);
        // A step that leaves the allocator as the one before it did is followed by the same step again: the figures
        // are those already reached (the planner replays thousands of layouts, most of them steady after one step).
        labelCopies(live, a.blockCount(), owner);
        a.snapshot(owner, after);
        if (after == before)
            break;
        std::swap(before, after);
    }
    out.computed = true;
    out.requestedPeakBytes = requestedPeak;
    out.peakAllocatedBytes = double(a.peakAllocated());
    out.peakReservedBytes = double(a.peakReserved());
    out.segments = a.segmentsAtPeak();
    out.outOfMemory = a.outOfMemory();
    out.deviceBytes = out.peakReservedBytes + out.contextBytes + out.ncclBytes;
    return out;
}

FitVerdict fitVerdict(double peakBytes, double capacityBytes, const AllocatorEstimate& replay)
{
    FitVerdict v;
    v.capacityBytes = capacityBytes;
    v.neededBytes = peakBytes;
    v.fits = peakBytes <= capacityBytes;
    if (replay.computed && (v.fits || replay.deviceBytes >= peakBytes)) {
        v.decidedBy = FitRule::Allocator;
        v.neededBytes = replay.deviceBytes;
        v.fits = v.fits && replay.fits();
    }
    return v;
}

} // namespace headroom
