// How fast `headroom plan` ranks layouts: the goal is at least 10,000 layouts simulated in under 1 s on this
// 2-core machine, so that a Plan view can stay live. Each layout is a full simulate() (every pipeline stage walked)
// on a cached lowered step. Reported as layouts per second (the `layouts` counter, a rate).

#include "catalogloader.h"
#include "planner.h"

#include <benchmark/benchmark.h>

using namespace headroom;

namespace {

const Catalog& cat()
{
    static const Catalog c = CatalogLoader::bundled();
    return c;
}

void plan(benchmark::State& state, const char* model, int gpus, std::int64_t global)
{
    PlanRequest r;
    r.base = defaultScenario();
    r.base.gpuId = "h100-sxm5-80gb";
    r.base.overrides = {};
    r.base.modelId = model;
    r.base.config.sequenceLength = 4096;
    r.base.config.precision = Precision::MixedBF16;
    r.gpus = gpus;
    r.globalBatch = global;
    std::int64_t evaluated = 0;
    for (auto _ : state) {
        const auto p = headroom::plan(cat(), r);
        evaluated += p ? p->evaluated : 0;
        benchmark::DoNotOptimize(p);
    }
    state.counters["layouts"] = benchmark::Counter(double(evaluated), benchmark::Counter::kIsRate);
    state.counters["per_plan"] = double(evaluated) / double(state.iterations());
}

} // namespace

BENCHMARK_CAPTURE(plan, llama_2_7b_64gpus, "llama-2-7b", 64, 512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(plan, llama_2_7b_512gpus, "llama-2-7b", 512, 4096)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
