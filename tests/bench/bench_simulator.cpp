// How fast the core answers: one full simulation (graph, lowering, timeline walk, roofline), the batch-slider
// fast path on a cached schedule, and the largest-micro-batch search. Goal on a 2-core machine: < 50 us per
// simulation and < 1 ms per search, so a slider can drive it at 120 frames per second; and, since identical blocks
// are built and lowered once (GraphLayers::RepeatIdentical), a 32-block Llama-2-7B at most 1.5x a 12-block GPT-2.

#include "allocator.h"
#include "catalogloader.h"
#include "estimate.h"
#include "lowering.h"
#include "modelgraph.h"
#include "simulate.h"

#include <benchmark/benchmark.h>

#include <memory>

using namespace headroom;

namespace {

const Catalog& cat()
{
    static const Catalog c = CatalogLoader::bundled();
    return c;
}

TrainingConfig configFor(const ModelSpec& m)
{
    TrainingConfig c;
    c.microBatch = 8;
    c.sequenceLength = m.defaultSequence;
    c.precision = Precision::MixedBF16;
    return c;
}

EstimateOptions fastOptions()
{
    EstimateOptions o;
    o.searchMaxSequence = false;
    return o;
}

void fullSimulation(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const GpuSpec& g = *cat().gpu("a100-sxm4-80gb");
    const TrainingConfig c = configFor(m);
    const EstimateOptions o = fastOptions();
    Estimate e; // reused, as the window reuses its result: a simulation then allocates nothing
    for (auto _ : state) {
        estimate(m, g, c, {}, o, e);
        benchmark::DoNotOptimize(e.peakBytes);
    }
}

void batchTick(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const GpuSpec& g = *cat().gpu("a100-sxm4-80gb");
    TrainingConfig c = configFor(m);
    auto schedule = std::make_shared<const Schedule>(
        lowerTrainingStep(buildGraph(m, c, GraphLayers::RepeatIdentical), c));
    const EstimateOptions o = fastOptions();
    std::int64_t b = 1;
    Estimate e;
    for (auto _ : state) {
        c.microBatch = b;
        b = b % 64 + 1;
        evaluate(schedule, m, g, c, {}, o, e);
        benchmark::DoNotOptimize(e.peakBytes);
    }
}

void maxBatchSearch(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const TrainingConfig c = configFor(m);
    for (auto _ : state) {
        const Schedule s = lowerTrainingStep(buildGraph(m, c, GraphLayers::RepeatIdentical), c);
        benchmark::DoNotOptimize(maxMicroBatch(s, 80e9, 500 * 1048576.0, 0.0));
    }
}

void maxSequenceSearch(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const TrainingConfig c = configFor(m);
    for (auto _ : state)
        benchmark::DoNotOptimize(maxSequence(m, c, 80e9, 500 * 1048576.0));
}

// simulate(), the entry point the window calls on every change: a new structure (the schedule is lowered), and a
// micro-batch tick on the cached schedule (what dragging the batch slider costs, with the sweep).
void simulateNewStructure(benchmark::State& state, const char* modelId)
{
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = modelId;
    s.config = configFor(*cat().model(modelId));
    SimulationResult r;
    for (auto _ : state) {
        simulate(cat(), s, SimulateOptions::interactive(), nullptr, r);
        benchmark::DoNotOptimize(r.estimate.peakBytes);
    }
}

void simulateBatchTick(benchmark::State& state, const char* modelId)
{
    Scenario s;
    s.gpuId = "a100-sxm4-80gb";
    s.modelId = modelId;
    s.config = configFor(*cat().model(modelId));
    SimulationCache cache;
    SimulationResult r;
    std::int64_t b = 1;
    for (auto _ : state) {
        s.config.microBatch = b;
        b = b % 64 + 1;
        simulate(cat(), s, SimulateOptions::interactive(), &cache, r);
        benchmark::DoNotOptimize(r.estimate.peakBytes);
    }
}

// The caching allocator replay the worker adds to the searches: the step lowered (one block of each run of identical
// ones, replayed as every run of them), then three steps of allocations and frees.
void allocatorReplay(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const TrainingConfig c = configFor(m);
    for (auto _ : state) {
        const Graph g = buildGraph(m, c, GraphLayers::RepeatIdentical); // as replayStep builds it
        const Schedule s = lowerTrainingStep(g, c);
        const AllocatorEstimate a = replayCachingAllocator(s, residentTensors(g, s, c), double(c.microBatch),
                                                           AllocatorSettings {}, 0.0);
        benchmark::DoNotOptimize(a.peakReservedBytes);
    }
}

// The replay alone, on a step lowered once: what the planner pays for each layout it replays (a replay's events
// counted in `events`, a rate).
void allocatorReplayOnly(benchmark::State& state, const char* modelId)
{
    const ModelSpec& m = *cat().model(modelId);
    const TrainingConfig c = configFor(m);
    const Graph g = buildGraph(m, c, GraphLayers::RepeatIdentical);
    const Schedule s = lowerTrainingStep(g, c);
    const ResidentTensors residents = residentTensors(g, s, c);
    double events = 0.0; // of the real model's steps: a repeated block's once per run
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        const std::int32_t r = s.repeatOf(std::int32_t(i));
        events += double(s.steps[i].allocCount + s.steps[i].freeCount) * (r >= 0 ? s.repeats[std::size_t(r)].count : 1);
    }
    for (auto _ : state) {
        const AllocatorEstimate a = replayCachingAllocator(s, residents, double(c.microBatch), AllocatorSettings {},
                                                           0.0);
        benchmark::DoNotOptimize(a.peakReservedBytes);
    }
    state.counters["events"] = benchmark::Counter(events * double(state.iterations()), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK_CAPTURE(fullSimulation, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(fullSimulation, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(fullSimulation, resnet50, "resnet50")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(batchTick, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(batchTick, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(maxBatchSearch, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(maxBatchSearch, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(maxSequenceSearch, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(maxSequenceSearch, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(simulateNewStructure, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(simulateNewStructure, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(simulateBatchTick, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(simulateBatchTick, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);

BENCHMARK_CAPTURE(allocatorReplay, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocatorReplay, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocatorReplayOnly, gpt2, "gpt2")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(allocatorReplayOnly, llama_2_7b, "llama-2-7b")->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
