#include "estimate.h"

#include "graphbuilder.h"
#include "modelgraph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headroom {

namespace {

    constexpr std::int64_t kMaxBatchReported = std::int64_t(1) << 40;

    double overheadFor(const GpuSpec& gpu, const TrainingConfig& config)
    {
        return config.overheadBytes ? *config.overheadBytes : gpu.overheadBytes();
    }

    // Falls back to a unit the GPU has: FP8 -> BF16, else FP16, else FP32; BF16, FP16 and TF32 -> FP32. PyTorch
    // emulates BF16 on GPUs without BF16 tensor cores at FP32 speed; Transformer Engine refuses FP8 below compute
    // capability 8.9.
    MathUnit resolveUnit(const EffectiveGpu& gpu, MathUnit u)
    {
        auto has = [&](MathUnit x) { return gpu.peakFlopsPerSecond[int(x)] > 0.0; };
        if (has(u))
            return u;
        switch (u) {
        case MathUnit::Fp8Tensor:
            return has(MathUnit::Bf16Tensor) ? MathUnit::Bf16Tensor
                                              : (has(MathUnit::Fp16Tensor) ? MathUnit::Fp16Tensor : MathUnit::Fp32Vector);
        case MathUnit::Bf16Tensor:
        case MathUnit::Tf32Tensor:
            return MathUnit::Fp32Vector;
        case MathUnit::Fp16Tensor:
            return MathUnit::Fp32Vector;
        case MathUnit::Fp32Vector:
            return u;
        }
        return MathUnit::Fp32Vector;
    }

    double computeEfficiency(const Efficiency& e, OpKind kind, MathUnit unit)
    {
        if (kind == OpKind::Gemm) {
            if (unit == MathUnit::Fp8Tensor)
                return e.gemmFp8;
            return unit == MathUnit::Fp32Vector ? e.gemmVector : e.gemmTensor;
        }
        if (kind == OpKind::Attention)
            return unit == MathUnit::Fp32Vector ? e.gemmVector : e.attention;
        return e.vector;
    }

    struct TimeModel {
        std::array<MathUnit, kMathUnitCount> resolved {};
        // Seconds per FLOP for each (kind, unit) and seconds per byte: 1 / (efficiency x peak).
        std::array<std::array<double, kMathUnitCount>, kOpKindCount> secondsPerFlop {};
        double secondsPerByte = 0.0;
        double launchSeconds = 0.0;

        TimeModel(const EffectiveGpu& g, const Efficiency& e)
        {
            const double memoryEfficiency = g.spec && g.spec->isGddr() ? e.memoryGddr : e.memoryHbm;
            secondsPerByte = g.bandwidthBytesPerSecond > 0 ? 1.0 / (memoryEfficiency * g.bandwidthBytesPerSecond) : 0.0;
            launchSeconds = e.launchSeconds;
            for (int u = 0; u < kMathUnitCount; ++u) {
                resolved[u] = resolveUnit(g, MathUnit(u));
                const double peak = g.peakFlopsPerSecond[int(resolved[u])];
                for (int k = 0; k < kOpKindCount; ++k) {
                    const double eff = computeEfficiency(e, OpKind(k), resolved[u]);
                    secondsPerFlop[k][u] = peak > 0 ? 1.0 / (eff * peak) : 0.0;
                }
            }
        }

        double seconds(const Step& st, double batch) const
        {
            const double tc = st.cost.flops.at(batch) * secondsPerFlop[int(st.kind)][int(st.unit)];
            const double tm = st.cost.bytes.at(batch) * secondsPerByte;
            return std::max({ tc, tm, st.kernels * launchSeconds });
        }
    };

    double safeFloor(double v)
    {
        if (!std::isfinite(v))
            return v > 0 ? double(kMaxBatchReported) : 0.0;
        return std::floor(std::clamp(v, 0.0, double(kMaxBatchReported)));
    }

} // namespace

MathUnit gemmUnit(const TrainingConfig& config)
{
    const PrecisionPlan p = planPrecision(config);
    return p.fp8Gemms ? p.fp8Unit : p.matmulUnit;
}

double peakBytes(const Schedule& s, double batch, double overheadBytes, double reserveFraction)
{
    Linear live;
    for (const auto& r : s.resident)
        live += r;
    double peak = live.at(batch);
    for (const Step& st : s.steps) {
        const std::int32_t* ev = s.events.data() + st.eventsBegin;
        for (std::int32_t i = 0; i < st.allocCount; ++i)
            live += s.blocks[ev[i]].bytes;
        peak = std::max(peak, live.at(batch));
        for (std::int32_t i = 0; i < st.freeCount; ++i)
            live -= s.blocks[ev[st.allocCount + i]].bytes;
    }
    return peak * (1.0 + reserveFraction) + overheadBytes;
}

std::int64_t maxMicroBatch(const Schedule& s, double capacityBytes, double overheadBytes, double reserveFraction)
{
    // Memory at every step is fixed + perSample * B, so the largest B is the minimum over steps of
    // (budget - fixed) / perSample: exact, with no search.
    const double budget = (capacityBytes - overheadBytes) / (1.0 + reserveFraction);
    Linear live;
    for (const auto& r : s.resident)
        live += r;
    double best = std::numeric_limits<double>::infinity();
    auto consider = [&](const Linear& l) {
        if (l.fixed > budget) {
            best = -1.0;
            return;
        }
        if (l.perSample > 0.0)
            best = std::min(best, (budget - l.fixed) / l.perSample);
    };
    consider(live);
    for (const Step& st : s.steps) {
        const std::int32_t* ev = s.events.data() + st.eventsBegin;
        for (std::int32_t i = 0; i < st.allocCount; ++i)
            live += s.blocks[ev[i]].bytes;
        consider(live);
        for (std::int32_t i = 0; i < st.freeCount; ++i)
            live -= s.blocks[ev[st.allocCount + i]].bytes;
    }
    if (best < 1.0)
        return 0;
    return static_cast<std::int64_t>(safeFloor(best));
}

std::int64_t maxSequence(const ModelSpec& model, const TrainingConfig& config, double capacityBytes,
                         double overheadBytes, bool* limitedByModel)
{
    // Candidate settings are k * step for k in [1, kMax]: tokens for language models, multiples of the patch size
    // for ViT, multiples of 32 for CNNs (their total stride).
    std::int64_t step = 1, kMax = std::int64_t(1) << 20;
    bool modelLimit = false;
    if (model.family == ModelFamily::Cnn) {
        step = 32;
        kMax = 8192 / step;
    } else if (model.transformer.input == InputKind::Patches) {
        step = std::max(1, model.transformer.patchSize);
        kMax = 8192 / step;
    } else if (model.transformer.position == PositionKind::Learned) {
        kMax = std::max<std::int64_t>(1, model.transformer.maxPositions);
        modelLimit = true;
    }
    thread_local Graph g;
    thread_local Schedule s;
    auto fitsAt = [&](std::int64_t k) {
        TrainingConfig c = config;
        c.sequenceLength = k * step;
        buildGraph(model, c, g);
        lowerTrainingStep(g, c, s);
        return peakBytes(s, double(c.microBatch), overheadBytes, c.allocatorReserveFraction) <= capacityBytes;
    };
    if (limitedByModel)
        *limitedByModel = false;
    if (!fitsAt(1))
        return 0;
    if (fitsAt(kMax)) {
        if (limitedByModel)
            *limitedByModel = modelLimit;
        return kMax * step;
    }
    std::int64_t lo = 1, hi = kMax; // fits(lo), !fits(hi)
    while (hi - lo > 1) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        (fitsAt(mid) ? lo : hi) = mid;
    }
    return lo * step;
}

Estimate evaluate(std::shared_ptr<const Schedule> schedule, const ModelSpec& model, const GpuSpec& gpu,
                  const TrainingConfig& config, const GpuOverrides& overrides, const EstimateOptions& options)
{
    Estimate e;
    evaluate(std::move(schedule), model, gpu, config, overrides, options, e);
    return e;
}

void evaluate(std::shared_ptr<const Schedule> schedule, const ModelSpec& model, const GpuSpec& gpu,
              const TrainingConfig& config, const GpuOverrides& overrides, const EstimateOptions& options, Estimate& e)
{
    // Start from a clean estimate but keep the capacity of its vectors.
    {
        auto timeline = std::move(e.timeline);
        auto stepStart = std::move(e.stepStart);
        auto operators = std::move(e.operatorPoints);
        auto kinds = std::move(e.kindPoints);
        auto warnings = std::move(e.warnings);
        e = Estimate {};
        e.timeline = std::move(timeline);
        e.stepStart = std::move(stepStart);
        e.operatorPoints = std::move(operators);
        e.operatorPoints.clear();
        e.kindPoints = std::move(kinds);
        e.kindPoints.clear();
        e.warnings = std::move(warnings);
        e.warnings.clear();
        e.warningKinds.clear();
    }
    const Schedule& s = *schedule;
    e.config = config;
    e.modelId = model.id;
    e.vision = model.isVision();
    e.parameters = s.parameters;
    e.tokensPerSample = s.tokensPerSample;
    const MathUnit unit = gemmUnit(config);
    e.gpu = applyOverrides(gpu, overrides, unit);
    const double batch = double(std::max<std::int64_t>(1, config.microBatch));
    const double overhead = overheadFor(gpu, config);
    const double reserve = std::max(0.0, config.allocatorReserveFraction);
    const int ga = std::max(1, config.gradientAccumulation);
    const int ranks = std::max(1, config.dataParallel);

    // ---- one walk: memory timeline, peak, largest micro-batch, time and roofline ----
    // Memory at every step is fixed + perSample * B, so the largest B that fits is the minimum over steps of
    // (budget - fixed) / perSample: exact, with no search.
    const double budget = (e.gpu.memoryBytes - overhead) / (1.0 + reserve);
    double bestBatch = std::numeric_limits<double>::infinity();
    auto considerBatch = [&](const Linear& l) {
        if (l.fixed > budget)
            bestBatch = -1.0;
        else if (l.perSample > 0.0)
            bestBatch = std::min(bestBatch, (budget - l.fixed) / l.perSample);
    };

    const TimeModel tm(e.gpu, options.efficiency);
    std::array<RooflinePoint, kOpKindCount> kinds {};
    std::array<double, kMathUnitCount> unitFlops {};                                   // model work by unit, for MFU
    std::array<std::array<double, kMathUnitCount>, kOpKindCount> kindUnitFlops {}; // each kind's main unit
    thread_local std::vector<RooflinePoint> groups;
    groups.assign(s.groups.size(), RooflinePoint {});

    std::array<Linear, kMemoryCategoryCount> live = s.resident;
    Linear liveTotal;
    for (const auto& r : s.resident)
        liveTotal += r;
    considerBatch(liveTotal);
    CategoryBytes maxima {};
    double peak = -1.0;
    if (options.keepTimeline) {
        e.timeline.resize(s.steps.size());
        e.stepStart.resize(s.steps.size());
    } else {
        e.timeline.clear();
        e.stepStart.clear();
    }
    double micro = 0.0, backward = 0.0, forward = 0.0, optimizer = 0.0;
    double flops = 0.0, bytes = 0.0;
    const std::size_t nSteps = s.steps.size();
    for (std::size_t i = 0; i < nSteps; ++i) {
        const Step& st = s.steps[i];
        const std::int32_t* ev = s.events.data() + st.eventsBegin;
        for (std::int32_t k = 0; k < st.allocCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[k]];
            live[index(b.category)] += b.bytes;
            liveTotal += b.bytes;
        }
        considerBatch(liveTotal);
        const double allocated = liveTotal.at(batch);
        const double now = allocated * (1.0 + reserve) + overhead;
        CategoryBytes point;
        for (int c = 0; c < kMemoryCategoryCount; ++c) {
            point[c] = live[c].at(batch);
            maxima[c] = std::max(maxima[c], point[c]);
        }
        point[index(MemoryCategory::Overhead)] += overhead + allocated * reserve;
        if (options.keepTimeline)
            e.timeline[i] = point;
        if (now > peak) {
            peak = now;
            e.peakStep = std::int32_t(i);
            e.atPeak = point;
        }
        for (std::int32_t k = 0; k < st.freeCount; ++k) {
            const MemoryBlock& b = s.blocks[ev[st.allocCount + k]];
            live[index(b.category)] -= b.bytes;
            liveTotal -= b.bytes;
        }
        if (std::int32_t(i) == s.forwardEnd)
            e.components[index(MemoryCategory::Activations)] = live[index(MemoryCategory::Activations)].at(batch);

        // Time: max of compute time and memory time, with the launch floor.
        const double t = tm.seconds(st, batch);
        if (options.keepTimeline)
            e.stepStart[i] = micro + optimizer;
        const bool opt = st.phase == Phase::Optimizer;
        const double repeat = opt ? 1.0 : double(ga);
        const double f = st.cost.flops.at(batch) * repeat;
        const double by = st.cost.bytes.at(batch) * repeat;
        if (opt) {
            optimizer += t;
        } else {
            micro += t;
            (st.phase == Phase::Forward ? forward : backward) += t;
        }
        flops += f;
        bytes += by;
        const MathUnit used = tm.resolved[int(st.unit)];
        if (!opt)
            unitFlops[std::size_t(used)] += f;
        kindUnitFlops[std::size_t(st.kind)][std::size_t(used)] += f;
        RooflinePoint& k = kinds[int(st.kind)];
        k.flops += f;
        k.bytes += by;
        k.seconds += t * repeat;
        ++k.count;
        RooflinePoint& gp = groups[s.stepGroup[i]];
        gp.flops += f;
        gp.bytes += by;
        gp.seconds += t * repeat;
        ++gp.count;
    }
    e.peakBytes = peak;
    if (e.peakStep >= 0) {
        const Step& st = s.steps[e.peakStep];
        e.peakPhase = st.phase;
        e.peakOperator = std::string(st.label);
        e.peakLayer = st.layer;
        e.peakInRecompute = st.recompute;
    }
    e.components[index(MemoryCategory::Weights)] = s.resident[index(MemoryCategory::Weights)].at(batch);
    e.components[index(MemoryCategory::WeightCopies)] = maxima[index(MemoryCategory::WeightCopies)];
    e.components[index(MemoryCategory::Gradients)] = maxima[index(MemoryCategory::Gradients)];
    e.components[index(MemoryCategory::OptimizerStates)] = s.resident[index(MemoryCategory::OptimizerStates)].at(batch);
    e.components[index(MemoryCategory::Transient)] = e.atPeak[index(MemoryCategory::Transient)];
    e.components[index(MemoryCategory::Overhead)] = e.atPeak[index(MemoryCategory::Overhead)];

    e.capacityBytes = e.gpu.memoryBytes;
    e.headroomBytes = e.capacityBytes - e.peakBytes;
    e.fits = e.headroomBytes >= 0.0;
    e.maxMicroBatch = bestBatch < 1.0 ? 0 : static_cast<std::int64_t>(safeFloor(bestBatch));
    if (options.searchMaxSequence)
        e.maxSequence = maxSequence(model, config, e.capacityBytes, overhead, &e.maxSequenceLimitedByModel);
    e.microBatchSeconds = micro;

    // Collectives on NVLink / Infinity Fabric when every rank is on it (a bridge pairs two cards, an SXM board joins
    // eight), else on the host link; one direction is half the bidirectional figure the catalog stores.
    const bool onGpuLink = gpu.gpuLinkGBps.present() && ranks <= gpu.gpuLinkMaxGpus;
    const double linkGBps = onGpuLink ? gpu.gpuLinkGBps.value : gpu.pcieGBps.value;
    const double linkBw = linkGBps * 1e9 / 2.0 * options.efficiency.link;
    if (ranks > 1 && linkBw > 0.0) {
        const double perMicro = s.commBytesPerMicroBatch / linkBw;
        const double perStep = s.commBytesPerStep / linkBw;
        e.communicationSeconds = perMicro * ga + perStep;
        const double overlapMicro = config.zeroStage >= 3 ? forward + backward : backward;
        double exposed = std::max(0.0, perMicro - overlapMicro) * ga;
        if (config.zeroStage == 0)
            exposed += std::max(0.0, perStep - backward);
        else
            exposed += perStep; // the parameter all-gather after the optimizer step waits for the step
        e.exposedCommunicationSeconds = exposed;
    }
    if (config.offloadOptimizer) {
        const double pcie = gpu.pcieGBps.value * 1e9 / 2.0 * options.efficiency.link;
        e.offloadSeconds = (pcie > 0 ? s.offloadBytesPerStep / pcie : 0.0)
            + s.offloadParameters / options.efficiency.hostOptimizerParamsPerSecond;
        optimizer += e.offloadSeconds;
    }
    e.optimizerSeconds = optimizer;
    e.stepSeconds = micro * ga + optimizer + e.exposedCommunicationSeconds;

    const double samples = batch * ga * ranks;
    e.throughputPerSecond = e.stepSeconds > 0 ? samples * s.tokensPerSample / e.stepSeconds : 0.0;
    e.modelFlopsPerStep = s.modelFlops.at(batch) * ga;
    e.hardwareFlopsPerStep = flops;
    // MFU against the peak of the unit that does most of the model's work: in FP32, PyTorch runs convolutions on
    // TF32 (cudnn.allow_tf32 defaults to True) while matmuls stay FP32, so a CNN's MFU is measured against TF32.
    e.mfuUnit = tm.resolved[int(unit)];
    if (const auto top = std::max_element(unitFlops.begin(), unitFlops.end()); *top > 0.0)
        e.mfuUnit = MathUnit(top - unitFlops.begin());
    const double peakFlops = e.gpu.peakFlopsPerSecond[int(e.mfuUnit)];
    e.mfu = (e.stepSeconds > 0 && peakFlops > 0) ? e.modelFlopsPerStep / (e.stepSeconds * peakFlops) : 0.0;

    static constexpr const char* kKindNames[] = { "GEMM", "attention", "normalization", "elementwise", "embedding", "loss", "optimizer" };
    for (int k = 0; k < kOpKindCount; ++k) {
        if (kinds[k].count == 0)
            continue;
        kinds[k].name = kKindNames[k];
        kinds[k].kind = OpKind(k);
        const auto& byUnit = kindUnitFlops[std::size_t(k)];
        kinds[k].unit = MathUnit(std::max_element(byUnit.begin(), byUnit.end()) - byUnit.begin());
        e.kindPoints.push_back(kinds[k]);
    }
    e.operatorPoints.reserve(groups.size());
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        RooflinePoint& p = groups[gi];
        p.name = s.groups[gi].label;
        p.kind = s.groups[gi].kind;
        p.phase = s.groups[gi].phase;
        p.unit = tm.resolved[int(s.groups[gi].unit)];
        e.operatorPoints.push_back(std::move(p));
    }
    e.wholeStep.name = "training step";
    e.wholeStep.flops = flops;
    e.wholeStep.bytes = bytes;
    e.wholeStep.seconds = e.stepSeconds;
    e.wholeStep.unit = e.mfuUnit;

    // ---- warnings ----
    if (tm.resolved[int(unit)] != unit) {
        e.warnings.push_back(std::string(gpu.name) + " has no " + std::string(toString(unit))
                             + " peak: GEMMs are timed on " + std::string(toString(tm.resolved[int(unit)])));
        e.warningKinds.push_back({ EstimateWarning::Kind::UnitFallback, unit, tm.resolved[int(unit)] });
    }
    if (config.zeroStage > 0 && ranks == 1) {
        e.warnings.push_back("ZeRO partitions over data-parallel ranks; with 1 rank it saves no memory");
        e.warningKinds.push_back({ EstimateWarning::Kind::ZeroWithOneRank });
    }
    if (config.precision == Precision::MixedFP8 && !gpu.supports(MathUnit::Fp8Tensor)) {
        e.warnings.push_back("FP8 training needs FP8 tensor cores (compute capability 8.9 or later)");
        e.warningKinds.push_back({ EstimateWarning::Kind::Fp8Unsupported });
    }
    e.schedule = std::move(schedule);
}

void estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config, const GpuOverrides& overrides,
              const EstimateOptions& options, Estimate& out)
{
    // Reuse this thread's graph, and the last schedule when no estimate holds it any more: rebuilding then
    // allocates nothing.
    thread_local Graph graph;
    thread_local std::shared_ptr<Schedule> spare;
    buildGraph(model, config, graph);
    if (out.schedule && out.schedule.use_count() == 1 && out.schedule != spare)
        spare = std::const_pointer_cast<Schedule>(out.schedule);
    out.schedule.reset();
    if (!spare || spare.use_count() > 1)
        spare = std::make_shared<Schedule>();
    lowerTrainingStep(graph, config, *spare);
    evaluate(spare, model, gpu, config, overrides, options, out);
}

Estimate estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                  const GpuOverrides& overrides, const EstimateOptions& options)
{
    Estimate e;
    estimate(model, gpu, config, overrides, options, e);
    return e;
}

Scenario defaultScenario()
{
    Scenario s;
    s.gpuId = "rtx-a3000-12gb-laptop";
    s.modelId = "bert-base";
    s.config.microBatch = 16;
    s.config.sequenceLength = 512;
    s.config.precision = Precision::MixedFP16;
    s.config.optimizer = OptimizerKind::AdamW;
    s.config.attention = AttentionImpl::Fused;
    s.overrides.bandwidthBytesPerSecond = 392e9;
    s.overrides.note = "What-if from the explainer: 392 GB/s. The datasheet figure is 336 GB/s (192-bit x 14 Gbps / 8).";
    return s;
}

} // namespace headroom
