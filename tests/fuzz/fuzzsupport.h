#pragma once

// Shared by the libFuzzer targets. A loader must never crash, hang or leak on any input; when it accepts one, what it
// returns must survive a save and reload unchanged, and the simulator must turn it into finite, non-negative numbers.
// A broken property calls abort(), so libFuzzer records the input as a crash.

#include "error.h"
#include "estimate.h"
#include "gpuspec.h"
#include "modelspec.h"
#include "report.h"
#include "scenario.h"
#include "sweep.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace headroom::fuzz {

// Inputs above this are not worth the time: the loaders' own limits are tested by tst_loaders.
inline constexpr std::size_t kMaxInputBytes = 256 * 1024;

// Above these sizes only the parser runs: building and walking the graph of a 4096-layer model takes long enough
// to slow the fuzzer down to a crawl without reaching code that a smaller model does not.
inline constexpr int kMaxSimulatedTransformerLayers = 48;
inline constexpr std::size_t kMaxSimulatedCnnLayers = 400;

[[noreturn]] inline void fail(const char* what, const std::string& detail)
{
    std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

// Errors name the file they were given and say something, and blame the input: a loader that reports its own
// invariant broken (ErrorKind::Internal) has a bug, whatever its message says. The kind, never the text, tells them
// apart, since messages quote the input.
inline void checkError(const Error& e, std::string_view origin)
{
    if (e.kind == ErrorKind::Internal)
        fail("a loader broke its own invariant", e.toString());
    if (e.origin != origin)
        fail("error origin", "\"" + e.origin + "\" instead of \"" + std::string(origin) + "\"");
    if (e.message.empty())
        fail("error message", "empty (field \"" + e.field + "\")");
    if (e.toString().rfind(std::string(origin) + ": ", 0) != 0)
        fail("error text", e.toString());
}

inline std::uint64_t hashBytes(const std::uint8_t* data, std::size_t size)
{
    std::uint64_t h = 14695981039346656037ull; // FNV-1a
    for (std::size_t i = 0; i < size; ++i)
        h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

// Takes `n` choices off the hash.
inline int pick(std::uint64_t& h, int n)
{
    const int v = int(h % std::uint64_t(n));
    h /= std::uint64_t(n);
    return v;
}

// A training configuration drawn from the input's hash: every precision, optimizer, ZeRO stage, checkpointing mode
// and kernel backend, with sizes from one sample to the loaders' maxima.
inline TrainingConfig configFrom(std::uint64_t h, const ModelSpec& model)
{
    TrainingConfig c;
    constexpr std::int64_t kBatches[] = { 1, 3, 64, 1000000, std::int64_t(1) << 40 };
    const std::int64_t kSequences[] = { 1, 7, 224, model.defaultSequence, 1000000, std::int64_t(1) << 30 };
    c.microBatch = kBatches[pick(h, 5)];
    c.sequenceLength = kSequences[pick(h, 6)];
    c.precision = Precision(pick(h, 6));
    c.mixedStyle = MixedPrecisionStyle(pick(h, 2));
    c.masterGradients = GradientStorage(pick(h, 2));
    c.zeroStage = pick(h, 4);
    constexpr int kRanks[] = { 1, 8, 1024, 1 << 20 };
    c.dataParallel = kRanks[pick(h, 4)];
    c.offloadOptimizer = pick(h, 2) == 1;
    c.checkpointing = Checkpointing(pick(h, 3));
    c.attention = AttentionImpl(pick(h, 2));
    c.optimizer = OptimizerKind(pick(h, 6));
    c.gradientAccumulation = pick(h, 2) ? 1 : 16;
    c.allocatorReserveFraction = pick(h, 2) ? 0.0 : 0.25;
    c.kernels = KernelBackend(pick(h, 2));
    return c;
}

// An H100 SXM as the catalog describes it, built here so that the fuzzers need no data files.
inline const GpuSpec& referenceGpu()
{
    static const GpuSpec g = [] {
        GpuSpec s;
        s.id = "fuzz-h100";
        s.name = "fuzz H100";
        s.memoryType = "HBM3";
        s.capacityGB.value = 80;
        s.bandwidthGBps.value = 3350;
        const double tflops[kMathUnitCount] = { 67, 494.7, 989.4, 989.4, 1978.9 };
        for (int u = 0; u < kMathUnitCount; ++u)
            s.peakTflops[u].value = tflops[u];
        s.pcieGBps.value = 128;
        s.gpuLinkGBps.value = 900;
        s.frameworkOverheadMiB.value = 600;
        return s;
    }();
    return g;
}

// A two-layer GPT for the GPU and scenario fuzzers, which vary everything but the model.
inline const ModelSpec& tinyModel()
{
    static const ModelSpec m = [] {
        ModelSpec s;
        s.id = "fuzz-gpt";
        s.name = "fuzz GPT";
        s.defaultSequence = 64;
        TransformerSpec& t = s.transformer;
        t.layers = 2;
        t.hidden = 64;
        t.heads = t.kvHeads = 4;
        t.ffn = 256;
        t.vocab = 1000;
        t.maxPositions = 128;
        t.fusedQkv = true;
        t.tiedEmbeddings = true;
        t.embeddingDropout = t.attentionDropout = t.hiddenDropout = 0.1;
        return s;
    }();
    return m;
}

inline bool smallEnoughToSimulate(const ModelSpec& m)
{
    return m.family == ModelFamily::Cnn ? m.cnn.layers.size() <= kMaxSimulatedCnnLayers
                                        : m.transformer.layers <= kMaxSimulatedTransformerLayers;
}

inline void finiteNonNegative(const char* what, double v, double slack = 0.0)
{
    if (!std::isfinite(v) || v < -slack) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        fail(what, buf);
    }
}

// What tst_loaders checks for extreme settings, on every estimate the fuzzers make.
inline void checkEstimate(const Estimate& e)
{
    finiteNonNegative("peakBytes", e.peakBytes);
    finiteNonNegative("parameters", e.parameters);
    finiteNonNegative("capacityBytes", e.capacityBytes);
    if (!std::isfinite(e.headroomBytes))
        fail("headroomBytes", "not finite");
    finiteNonNegative("stepSeconds", e.stepSeconds);
    finiteNonNegative("microBatchSeconds", e.microBatchSeconds);
    finiteNonNegative("optimizerSeconds", e.optimizerSeconds);
    finiteNonNegative("communicationSeconds", e.communicationSeconds);
    finiteNonNegative("throughputPerSecond", e.throughputPerSecond);
    finiteNonNegative("modelFlopsPerStep", e.modelFlopsPerStep);
    finiteNonNegative("hardwareFlopsPerStep", e.hardwareFlopsPerStep);
    finiteNonNegative("mfu", e.mfu);
    if (e.maxMicroBatch < 0 || e.maxSequence < 0)
        fail("maxMicroBatch/maxSequence", "negative");
    // Timeline values are sums and differences of large numbers: allow rounding, relative to the peak.
    const double slack = 1e-6 * std::max(1.0, e.peakBytes);
    for (double v : e.components)
        finiteNonNegative("components", v, slack);
    for (double v : e.atPeak)
        finiteNonNegative("atPeak", v, slack);
    for (const CategoryBytes& point : e.timeline) {
        for (double v : point)
            finiteNonNegative("timeline", v, slack);
    }
    double last = 0.0;
    for (double t : e.stepStart) {
        finiteNonNegative("stepStart", t);
        if (t < last)
            fail("stepStart", "goes backwards");
        last = t;
    }
    for (const RooflinePoint& p : e.operatorPoints) {
        finiteNonNegative("operator flops", p.flops);
        finiteNonNegative("operator bytes", p.bytes);
        finiteNonNegative("operator seconds", p.seconds);
    }
    for (const RooflinePoint& p : e.kindPoints) {
        finiteNonNegative("kind flops", p.flops);
        finiteNonNegative("kind bytes", p.bytes);
        finiteNonNegative("kind seconds", p.seconds);
    }
}

// Runs the whole simulator on a model the loaders accepted: the estimate, the batch sweep, the fix suggestions and
// both reports. `h` picks which of the slower extras run: the longest-sequence search and the fixes each on half the
// small models, the JSON report (dearer than the estimate's walk: it writes every operator's roofline point) on a
// quarter of the inputs.
inline void simulate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                     const GpuOverrides& overrides, std::uint64_t h)
{
    if (!smallEnoughToSimulate(model))
        return;
    const bool small = model.family == ModelFamily::Cnn ? model.cnn.layers.size() <= 64 : model.transformer.layers <= 4;
    EstimateOptions options;
    options.searchMaxSequence = small && (h & 1);
    const Estimate e = estimate(model, gpu, config, overrides, options);
    checkEstimate(e);
    const double batches[] = { 1, 2, 1000, 1e6, 1e12 };
    for (const SweepPoint& p : batchSweep(*e.schedule, batches, gpu.overheadBytes(), config.allocatorReserveFraction))
        finiteNonNegative("sweep peakBytes", p.peakBytes);
    if (small && (h & 2)) {
        for (const Fix& f : suggestFixes(model, gpu, config, overrides, e)) {
            if (auto invalid = validateConfig(f.config))
                fail("a suggested fix is not a valid configuration", invalid->toString());
            finiteNonNegative("fix peakBytes", f.peakBytes);
            finiteNonNegative("fix stepSeconds", f.stepSeconds);
        }
    }
    if (estimateToTable(e, model).empty() || ((h >> 2) % 4 == 0 && estimateToJson(e, model).empty()))
        fail("report", "empty");
}

// A model the loader accepted must save and load back as the same model (the window saves imported models and
// scenarios embed them).
inline void checkModelRoundTrip(const ModelSpec& m)
{
    const std::string saved = serializeModelSpec(m);
    const auto again = parseModelSpec(saved, "round trip");
    if (!again)
        fail("model round trip", again.error().toString() + "\n" + saved);
    if (serializeModelSpec(*again) != saved)
        fail("model round trip", "changed:\n" + saved + "\n" + serializeModelSpec(*again));
}

} // namespace headroom::fuzz
