// How fast `headroom plan` ranks layouts: the goal is at least 10,000 layouts simulated in under 1 s on this
// 2-core machine, so that a Plan view can stay live. Each layout is a simulate() on a cached lowered step (every
// pipeline stage that can be the most loaded walked), and those whose peaks fit are decided by the caching allocator
// replayed. Reported as layouts per second (the `layouts` counter, a rate).

#include "catalogloader.h"
#include "planner.h"

#include <benchmark/benchmark.h>

#include <algorithm>

using namespace headroom;

namespace {

// GPT-3 175B as Megatron's estimator takes it (tests/tst_pipeline.cpp: h 12288, a 96, L 96, V 51200, s 2048).
ModelSpec gpt3()
{
    ModelSpec m;
    m.id = "gpt3-175b";
    m.name = "GPT-3 175B";
    auto& t = m.transformer;
    t.layers = 96;
    t.hidden = 12288;
    t.heads = t.kvHeads = 96;
    t.ffn = 4 * t.hidden;
    t.vocab = 51200;
    t.maxPositions = 2048;
    t.causal = t.preNorm = t.fusedQkv = t.tiedEmbeddings = true;
    t.activation = Activation::Gelu;
    t.head = HeadKind::CausalLM;
    t.embeddingDropout = t.attentionDropout = t.hiddenDropout = 0.1;
    return m;
}

const Catalog& cat()
{
    static const Catalog c = [] {
        Catalog k = CatalogLoader::bundled();
        k.addModel(gpt3());
        return k;
    }();
    return c;
}

void plan(benchmark::State& state, const char* model, int gpus, std::int64_t global, std::int64_t seq = 4096,
          const char* gpu = "h100-sxm5-80gb", bool levers = false)
{
    PlanRequest r;
    r.base = defaultScenario();
    r.base.gpuId = gpu;
    r.base.overrides = {};
    r.base.modelId = model;
    r.base.config.sequenceLength = seq;
    r.levers.precision = r.levers.optimizer = r.levers.offload = levers;
    r.base.config.precision = Precision::MixedBF16;
    r.gpus = gpus;
    r.globalBatch = global;
    std::int64_t evaluated = 0, considered = 0, fit = 0;
    for (auto _ : state) {
        const auto p = headroom::plan(cat(), r);
        evaluated += p ? p->evaluated : 0;
        considered += p ? p->considered : 0;
        fit += p ? std::int64_t(
                   std::count_if(p->layouts.begin(), p->layouts.end(), [](const PlanLayout& l) { return l.fits; }))
                 : 0;
        benchmark::DoNotOptimize(p);
    }
    state.counters["layouts"] = benchmark::Counter(double(evaluated), benchmark::Counter::kIsRate);
    state.counters["per_plan"] = double(evaluated) / double(state.iterations());
    state.counters["considered"] = double(considered) / double(state.iterations());
    state.counters["fit"] = double(fit) / double(state.iterations());
}

} // namespace

BENCHMARK_CAPTURE(plan, llama_2_7b_64gpus, "llama-2-7b", 64, 512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(plan, llama_2_7b_512gpus, "llama-2-7b", 512, 4096)->Unit(benchmark::kMillisecond)->UseRealTime();

// Issue 31's case: GPT-3 175B on 1024 A100s, GPT-3's global batch of 1536 sequences of 2048 tokens.
BENCHMARK_CAPTURE(plan, gpt3_175b_1024gpus, "gpt3-175b", 1024, 1536, 2048, "a100-sxm4-80gb")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// `headroom plan`'s default levers (precision, optimizer, offload) on the laptops of issue 31.
BENCHMARK_CAPTURE(plan, llama_2_7b_8_a3000_levers, "llama-2-7b", 8, 64, 512, "rtx-a3000-12gb-laptop", true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
