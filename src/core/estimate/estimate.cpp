// evaluate(): one walk of the lowered schedule gives the memory timeline, the peaks and the per-step times; named
// pieces then turn those into the memory summary, communication and offload time, throughput and MFU, roofline
// points and warnings (as Megatron's theoretical_memory_usage.py keeps one function per memory term).

#include "estimate.h"

#include "allocator.h"
#include "links.h"

#include "graphbuilder.h"
#include "modelgraph.h"
#include "pipeline.h"
#include "schedulewalk.h"
#include "sdpa.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace headroom {

namespace {

    // What the walk adds up about time and work.
    struct WorkTotals {
        double micro = 0.0, forward = 0.0, backward = 0.0, optimizer = 0.0;
        double flops = 0.0, bytes = 0.0;
        std::array<RooflinePoint, kOpKindCount> kinds {};
        std::array<double, kMathUnitCount> unitFlops {};                               // model work by unit, for MFU
        std::array<std::array<double, kMathUnitCount>, kOpKindCount> kindUnitFlops {}; // each kind's main unit
    };

    // The visitor of the one walk: memory at each step (timeline, peak, phase peaks, largest batch) and the time,
    // FLOPs and bytes of each step.
    struct EvaluationWalk {
        const Schedule& s;
        Estimate& e;
        const TimeModel& tm;
        const std::vector<double>& wall;            // playClocks: per step, its share of the step's time
        const std::vector<TimeModel::Parts>& parts; // stepClocks: per step, its GPU time in parts
        std::vector<RooflinePoint>& groups;
        double batch, overhead, reserve;
        int ga;
        bool keepTimeline;
        bool timed; // EstimateOptions::time
        LargestBatch largest;
        WorkTotals work {};
        CategoryBytes maxima {};
        double peak = -1.0;
        std::array<double, 3> phaseBest { -1.0, -1.0, -1.0 };
        std::array<double, 2> runSeconds {}; // one run of each repeated block (Schedule::repeats)

        void atStep(const StepVisit& at, const LiveBytes& live)
        {
            largest.consider(live.total);
            if (at.step == kResidentOnly)
                return;
            memory(at, live);
            if (timed && at.run == 0)
                time(at);
        }

        void afterStep(const StepVisit& at, const LiveBytes& live)
        {
            if (at.step == s.forwardEnd)
                e.components[index(MemoryCategory::Activations)]
                    = live.byCategory[index(MemoryCategory::Activations)].at(batch);
        }

        // The breakdown of a step (overhead and the reserve on the allocated bytes in the overhead category).
        CategoryBytes breakdown(const LiveBytes& live, double allocated) const
        {
            CategoryBytes point;
            for (int c = 0; c < kMemoryCategoryCount; ++c)
                point[c] = live.byCategory[c].at(batch);
            point[index(MemoryCategory::Overhead)] += overhead + allocated * reserve;
            return point;
        }

        void memory(const StepVisit& at, const LiveBytes& live)
        {
            const double allocated = live.total.at(batch);
            const double now = allocated * (1.0 + reserve) + overhead;
            // The steady sizes of weight copies and gradients are their highest points.
            for (const MemoryCategory c : { MemoryCategory::WeightCopies, MemoryCategory::Gradients })
                maxima[index(c)] = std::max(maxima[index(c)], live.byCategory[index(c)].at(batch));
            const auto real = std::int32_t(at.real);
            // The first highest step in the real model's order (a repeated block's last run is seen out of order).
            // The sum of the breakdown is `now` (allocated bytes, the reserve on them and the overhead).
            const bool highest = now > peak || (now == peak && real < e.peakStep);
            const int phase = int(s.steps[at.step].phase);
            const bool phaseHighest = now > phaseBest[phase]
                || (now == phaseBest[phase] && real < e.phasePeaks[phase].step);
            const bool kept = keepTimeline && at.run == 0;
            if (!kept && !highest && !phaseHighest)
                return;
            const CategoryBytes point = breakdown(live, allocated);
            if (kept)
                e.timeline[at.step] = point;
            if (highest) {
                peak = now;
                e.peakStep = real;
                e.atPeak = point;
            }
            if (phaseHighest) {
                phaseBest[phase] = now;
                e.phasePeaks[phase].atPeak = point;
                e.phasePeaks[phase].step = real;
            }
        }

        // Time: how far the step moved the step's clock (its kernels' time, TimeModel, and any wait for the host
        // before them: playClocks). A repeated block's step counts once per run; the runs after the first are added
        // to the clock when the block ends.
        void time(const StepVisit& at)
        {
            const Step& st = s.steps[at.step];
            const double t = wall[std::size_t(at.step)];
            if (keepTimeline)
                e.stepStart[at.step] = work.micro + work.optimizer;
            const bool opt = st.phase == Phase::Optimizer;
            const double runs = double(at.runs);
            const double repeat = (opt ? 1.0 : double(ga)) * runs;
            const double f = tm.flops(st, batch) * repeat; // as executed (TimeModel::flops, bytes)
            const double by = tm.bytes(st, batch) * repeat;
            if (opt) {
                work.optimizer += t;
            } else {
                work.micro += t;
                (st.phase == Phase::Forward ? work.forward : work.backward) += t * runs;
            }
            work.flops += f;
            work.bytes += by;
            const MathUnit used = tm.resolved[int(st.unit)];
            if (!opt)
                work.unitFlops[std::size_t(used)] += f;
            work.kindUnitFlops[std::size_t(st.kind)][std::size_t(used)] += f;
            RooflinePoint& k = work.kinds[int(st.kind)];
            k.flops += f;
            k.bytes += by;
            k.seconds += t * repeat;
            k.count += at.runs * st.kernels; // kernels, not operators (a Linear's backward is two or three)
            RooflinePoint& gp = groups[s.stepGroup[at.step]];
            gp.flops += f;
            gp.bytes += by;
            gp.seconds += t * repeat;
            gp.count += at.runs * st.kernels;
            const TimeModel::Parts& p = parts[std::size_t(at.step)];
            gp.computeSeconds += p.compute * repeat;
            gp.memorySeconds += p.memory * repeat;
            gp.extraSeconds += p.extra * repeat;
            gp.launchSeconds += p.launch * repeat;
            if (at.repeat) {
                const auto r = std::size_t(at.repeat - s.repeats.data());
                runSeconds[r] += t;
                if (at.step == at.repeat->last)
                    work.micro += runSeconds[r] * double(at.runs - 1);
            }
        }
    };

    // This thread's per-step time vectors (a slider tick allocates nothing).
    struct ClockScratch {
        std::vector<double> gpu, host, wall;
        std::vector<TimeModel::Parts> parts; // gpu in its parts, for the roofline's dots
    };
    ClockScratch& clockScratch()
    {
        thread_local ClockScratch scratch;
        return scratch;
    }

    // Both clocks over the step: each schedule step's kernels on the GPU (TimeModel) and its issue on the host
    // (HostModel), played against each other (playClocks). Fills the estimate's host and GPU figures.
    StepClocks stepClocks(Estimate& e, const Schedule& s, const TimeModel& tm, const HostModel& host, double batch)
    {
        ClockScratch& c = clockScratch();
        c.gpu.resize(s.steps.size());
        c.parts.resize(s.steps.size());
        c.host.resize(s.steps.size());
        for (std::size_t i = 0; i < s.steps.size(); ++i) {
            const Step& st = s.steps[i];
            c.parts[i] = tm.parts(st, batch);
            c.gpu[i] = c.parts[i].total();
            c.host[i] = host.seconds(st) + (st.phase == Phase::Optimizer ? s.optimizer.tensors * host.parameter : 0.0);
        }
        const StepClocks clocks = playClocks(s, c.gpu, c.host, e.config.gradientAccumulation, host, c.wall);
        e.hostSeconds = clocks.hostSeconds;
        e.gpuBusySeconds = clocks.gpuBusySeconds;
        return clocks;
    }

    // Starts from a clean estimate but keeps the capacity of its vectors (a slider tick then allocates nothing).
    void resetKeepingCapacity(Estimate& e)
    {
        auto timeline = std::move(e.timeline);
        auto stepStart = std::move(e.stepStart);
        auto runDelta = std::move(e.runDelta);
        auto runSeconds = std::move(e.runSeconds);
        auto operators = std::move(e.operatorPoints);
        auto kinds = std::move(e.kindPoints);
        auto warnings = std::move(e.warnings);
        e = Estimate {};
        e.timeline = std::move(timeline);
        e.stepStart = std::move(stepStart);
        e.runDelta = std::move(runDelta);
        e.runDelta.clear();
        e.runSeconds = std::move(runSeconds);
        e.runSeconds.clear();
        e.operatorPoints = std::move(operators);
        e.operatorPoints.clear();
        e.kindPoints = std::move(kinds);
        e.kindPoints.clear();
        e.warnings = std::move(warnings);
        e.warnings.clear();
    }

    // `components` are the steady sizes of each category; `atPeak` the breakdown at the peak.
    void summarizeMemory(Estimate& e, const Schedule& s, const EvaluationWalk& walk, double batch)
    {
        e.peakBytes = walk.peak;
        if (e.peakStep >= 0) {
            const StepRun at = s.locate(e.peakStep);
            const Step& st = s.steps[std::size_t(at.step)];
            e.peakPhase = st.phase;
            e.peakOperator = std::string(st.label);
            e.peakLayer = s.layerOf(at);
            e.peakInRecompute = st.recompute;
        }
        for (int p = 0; p < 3; ++p)
            e.phasePeaks[p].totalBytes = std::max(0.0, walk.phaseBest[p]);
        e.components[index(MemoryCategory::Weights)] = s.resident[index(MemoryCategory::Weights)].at(batch);
        e.components[index(MemoryCategory::WeightCopies)] = walk.maxima[index(MemoryCategory::WeightCopies)];
        e.savedWeightCopyBytes = s.savedWeightCopyBytes.at(batch); // the lowering's, not the walk's
        e.components[index(MemoryCategory::Gradients)] = walk.maxima[index(MemoryCategory::Gradients)];
        e.components[index(MemoryCategory::OptimizerStates)] = s.resident[index(MemoryCategory::OptimizerStates)].at(
            batch);
        e.components[index(MemoryCategory::Transient)] = e.atPeak[index(MemoryCategory::Transient)];
        e.components[index(MemoryCategory::Overhead)] = e.atPeak[index(MemoryCategory::Overhead)];

        e.capacityBytes = e.gpu.memoryBytes;
        e.headroomBytes = e.capacityBytes - e.peakBytes;
        e.fits = e.headroomBytes >= 0.0;
        e.maxMicroBatch = walk.largest.result();
    }

    // Collectives on NVLink / Infinity Fabric when every rank is on it (a bridge pairs two cards, an SXM board joins
    // eight), else on the host link; one direction is half the bidirectional figure the catalog stores.
    void communicationTime(Estimate& e, const Schedule& s, const GpuSpec& gpu, const Efficiency& eff,
                           const WorkTotals& work, double batch)
    {
        const TrainingConfig& config = e.config;
        // Megatron's rank order, innermost first: t, cp, ep within dp, dp, p. The gradients reduce over dp x cp.
        const int cp = std::max(1, config.contextParallel);
        const int ranks = gradientRanks(config);
        const int tp = std::max(1, config.tensorParallel);
        const int dpSpan = dataParallelSpan(config); // t x dp x cp: data-parallel ranks sit t x cp GPUs apart
        const int pp = std::max(1, config.pipelineParallel);
        const int ga = std::max(1, config.gradientAccumulation);
        // One direction of the link that joins GPUs [0, span) (links.h: the cluster's, or the GPU file's).
        auto linkBandwidth = [&](int span) { return collectiveBandwidth(gpu, config, eff.link, span); };
        // NCCL's latency for `calls` collectives of `ranks` ranks over GPUs [0, span) (links.h).
        auto latency = [&](double calls, int span, int n, CollectiveShape shape) {
            const double seconds = calls * collectiveLatency(gpu, config, span, n, shape);
            e.communicationLatencySeconds += seconds;
            return seconds;
        };
        // Transfers every micro-batch waits for: `bytes` per step over the link joining a span of GPUs, plus the
        // latency of their calls.
        auto waitedFor = [&](double bytes, int span, double alpha, double& bytesOut, double& secondsOut) {
            bytesOut = bytes;
            if (const double bw = linkBandwidth(span); bw > 0.0) {
                secondsOut = bytes / bw + alpha;
                e.communicationSeconds += secondsOut;
                e.exposedCommunicationSeconds += secondsOut;
            }
        };
        // Tensor parallelism all-reduces inside every block, forward and backward, on the critical path: Megatron
        // does not overlap these by default. With sequence parallelism they are all-gathers and reduce-scatters.
        if (tp > 1)
            waitedFor(s.tpCommBytesPerMicroBatch.at(batch) * ga, tp,
                      latency(s.tpCallsPerMicroBatch * ga, tp, tp,
                              config.sequenceParallel ? CollectiveShape::Ring : CollectiveShape::AllReduce),
                      e.tensorParallelBytes, e.tensorParallelSeconds);
        // Pipeline sends and receives between neighbouring stages: Megatron's 1F1B waits for them (no overlap
        // unless --overlap-p2p-comm); a rank sends and receives at once, so its sent bytes set the time. Stages are
        // outermost.
        if (pp > 1)
            waitedFor(s.pipelineBytesPerMicroBatch.at(batch) * ga, dpSpan * pp,
                      latency(s.pipelineCallsPerMicroBatch * ga, dpSpan * pp, 2, CollectiveShape::PointToPoint),
                      e.pipelineBytes, e.pipelineSeconds);
        // Expert parallelism: the token all-to-alls inside each MoE layer, forward and backward; the ep ranks are
        // consecutive data-parallel ranks (t x cp GPUs apart), and Megatron's dispatcher waits for them.
        if (const int ep = std::max(1, config.expertParallel); ep > 1)
            waitedFor(s.epCommBytesPerMicroBatch.at(batch) * ga, tp * cp * ep,
                      latency(s.epCallsPerMicroBatch * ga, tp * cp * ep, ep, CollectiveShape::Ring),
                      e.expertParallelBytes, e.expertParallelSeconds);
        // Context parallelism: the ring of keys and values runs beside the attention kernels it feeds (ring
        // attention, Liu et al. 2023; Transformer Engine overlaps each chunk's transfer with the previous chunk's
        // attention), so only what outlasts them waits.
        if (cp > 1) {
            e.contextParallelBytes = s.cpCommBytesPerMicroBatch.at(batch) * ga;
            if (const double bw = linkBandwidth(tp * cp); bw > 0.0) {
                e.contextParallelSeconds = e.contextParallelBytes / bw;
                e.contextParallelExposedSeconds = std::max(0.0,
                                                           e.contextParallelSeconds
                                                               - work.kinds[int(OpKind::Attention)].seconds);
                e.communicationSeconds += e.contextParallelSeconds;
                e.exposedCommunicationSeconds += e.contextParallelExposedSeconds;
            }
        }
        const double linkBw = linkBandwidth(dpSpan);
        if (ranks <= 1 || linkBw <= 0.0)
            return;
        e.dataParallelBytes = s.commBytesPerMicroBatch * ga + s.commBytesPerStep;
        // DDP all-reduces its buckets; ZeRO reduce-scatters and all-gathers them.
        const CollectiveShape shape = config.zeroStage == 0 ? CollectiveShape::AllReduce : CollectiveShape::Ring;
        const double perMicro = s.commBytesPerMicroBatch / linkBw
            + latency(s.dpCallsPerMicroBatch * ga, dpSpan, ranks, shape) / ga;
        const double perStep = s.commBytesPerStep / linkBw + latency(s.dpCallsPerStep, dpSpan, ranks, shape);
        e.dataParallelSeconds = perMicro * ga + perStep;
        e.communicationSeconds += e.dataParallelSeconds;
        const double overlapMicro = config.zeroStage >= 3 ? work.forward + work.backward : work.backward;
        double exposed = std::max(0.0, perMicro - overlapMicro) * ga;
        if (config.zeroStage == 0)
            exposed += std::max(0.0, perStep - work.backward);
        else
            exposed += perStep; // the parameter all-gather after the optimizer step waits for the step
        e.exposedCommunicationSeconds += exposed;
    }

    // ZeRO-Offload: partitions cross PCIe both ways and the host updates them.
    double offloadTime(const Schedule& s, const GpuSpec& gpu, const Efficiency& eff)
    {
        const double pcie = gpu.pcieGBps.value * 1e9 / 2.0 * eff.link;
        return (pcie > 0 ? s.offloadBytesPerStep / pcie : 0.0) + s.offloadParameters / eff.hostOptimizerParamsPerSecond;
    }

    void throughputAndMfu(Estimate& e, const Schedule& s, const TimeModel& tm, const WorkTotals& work, double batch)
    {
        const int ga = std::max(1, e.config.gradientAccumulation);
        const int ranks = std::max(1, e.config.dataParallel);
        e.stepSeconds = work.micro * ga + e.optimizerSeconds + e.exposedCommunicationSeconds;
        const double samples = batch * ga * ranks;
        e.throughputPerSecond = e.stepSeconds > 0 ? samples * s.tokensPerSample / e.stepSeconds : 0.0;
        e.modelFlopsPerStep = s.modelFlops.at(batch) * ga;
        e.hardwareFlopsPerStep = work.flops;
        // MFU against the peak of the unit that does most of the model's work: in FP32, PyTorch runs convolutions
        // on TF32 (cudnn.allow_tf32 defaults to True) while matmuls stay FP32, so a CNN's MFU is measured against
        // TF32.
        const MathUnit unit = gemmUnit(e.config);
        e.mfuUnit = tm.resolved[int(unit)];
        if (const auto top = std::max_element(work.unitFlops.begin(), work.unitFlops.end()); *top > 0.0)
            e.mfuUnit = MathUnit(top - work.unitFlops.begin());
        const double peakFlops = e.gpu.peakFlopsPerSecond[int(e.mfuUnit)];
        // Model FLOPs use the dense convention (PaLM: causal attention counted whole), while the step executes
        // only the causal half: at very long sequences the dense count exceeds the work done and MFU passed 100 %.
        // The numerator is never more than the FLOPs the step executes.
        const double useful = std::min(e.modelFlopsPerStep, e.hardwareFlopsPerStep);
        e.mfu = (e.stepSeconds > 0 && peakFlops > 0) ? std::min(1.0, useful / (e.stepSeconds * peakFlops)) : 0.0;
        e.hfu = (e.stepSeconds > 0 && peakFlops > 0)
            ? std::min(1.0, e.hardwareFlopsPerStep / (e.stepSeconds * peakFlops))
            : 0.0;
    }

    void rooflinePoints(Estimate& e, const Schedule& s, const TimeModel& tm, WorkTotals& work,
                        std::vector<RooflinePoint>& groups)
    {
        static constexpr const char* kKindNames[] = { "GEMM",      "attention", "normalization", "elementwise",
                                                      "embedding", "loss",      "optimizer" };
        for (int k = 0; k < kOpKindCount; ++k) {
            RooflinePoint& p = work.kinds[k];
            if (p.count == 0)
                continue;
            p.name = kKindNames[k];
            p.kind = OpKind(k);
            const auto& byUnit = work.kindUnitFlops[std::size_t(k)];
            p.unit = MathUnit(std::max_element(byUnit.begin(), byUnit.end()) - byUnit.begin());
            e.kindPoints.push_back(p);
        }
        e.operatorPoints.reserve(groups.size());
        for (std::size_t gi = 0; gi < groups.size(); ++gi) {
            RooflinePoint& p = groups[gi];
            p.name = s.groups[gi].label;
            p.kind = s.groups[gi].kind;
            p.phase = s.groups[gi].phase;
            p.unit = tm.resolved[int(s.groups[gi].unit)];
            e.operatorPoints.push_back(p);
        }
        e.wholeStep.name = "training step";
        e.wholeStep.flops = work.flops;
        e.wholeStep.bytes = work.bytes;
        e.wholeStep.seconds = e.stepSeconds;
        e.wholeStep.unit = e.mfuUnit;
    }

    void addWarnings(Estimate& e, const GpuSpec& gpu, const TimeModel& tm, const ModelSpec& model)
    {
        const TrainingConfig& config = e.config;
        const TransformerSpec& t = model.transformer;
        if (model.family == ModelFamily::Transformer && t.input == InputKind::Tokens && t.position != PositionKind::None
            && config.sequenceLength > t.maxPositions) {
            const std::string limit = std::to_string(t.maxPositions);
            e.warnings.push_back({ EstimateWarning::Kind::BeyondPositions,
                                   {},
                                   {},
                                   t.position == PositionKind::Learned
                                       ? "the sequence is longer than the model's " + limit
                                           + " learned positions: the model has no position embedding for the "
                                             "tokens after them"
                                       : "the sequence is longer than the " + limit
                                           + " positions the model was trained for: rotary positions need scaling" });
        }
        if (config.microBatch > kHugeMicroBatch) {
            e.warnings.push_back({ EstimateWarning::Kind::HugeMicroBatch,
                                   {},
                                   {},
                                   "a micro-batch of " + std::to_string(config.microBatch)
                                       + " is far beyond any training run's; check the setting" });
        }
        if (config.checkpointing == Checkpointing::Selective && !attentionSavesScores(model, config)) {
            EstimateWarning w;
            w.kind = EstimateWarning::Kind::SelectiveRecomputesNothing;
            if (model.family == ModelFamily::Transformer)
                w.kernel = chooseSdpaKernel(sdpaCallFor(t, config)).kernel;
            w.message = "selective checkpointing recomputes the attention scores, and "
                + (w.kernel ? "SDPA's " + std::string(toString(*w.kernel)) + " kernel saves none"
                            : std::string("the model has no attention"))
                + ": memory and time are as without checkpointing";
            e.warnings.push_back(std::move(w));
        }
        const MathUnit unit = gemmUnit(config);
        if (tm.resolved[int(unit)] != unit) {
            e.warnings.push_back({ EstimateWarning::Kind::UnitFallback, unit, tm.resolved[int(unit)],
                                   std::string(gpu.name) + " has no " + std::string(toString(unit))
                                       + " peak: GEMMs are timed on "
                                       + std::string(toString(tm.resolved[int(unit)])) });
        }
        if (config.zeroStage > 0 && gradientRanks(config) == 1) {
            e.warnings.push_back({ EstimateWarning::Kind::ZeroWithOneRank,
                                   {},
                                   {},
                                   "ZeRO partitions over data-parallel ranks; with 1 rank it saves no memory" });
        }
        if (e.schedule && e.schedule->optimizer.paged && e.hostBytes > 0) {
            char gib[32];
            std::snprintf(gib, sizeof gib, "%.2f", e.hostBytes / 1073741824.0);
            e.warnings.push_back({ EstimateWarning::Kind::PagedOptimizer,
                                   {},
                                   {},
                                   std::string("the paged optimizer's ") + gib
                                       + " GiB of states live in unified memory: the peak leaves them out; they use "
                                         "the room left on the GPU and are paged over PCIe when there is none, "
                                         "which the step time does not include" });
        }
        if (config.precision == Precision::MixedFP8 && !gpu.supports(MathUnit::Fp8Tensor)) {
            e.warnings.push_back({ EstimateWarning::Kind::Fp8Unsupported,
                                   {},
                                   {},
                                   "FP8 training needs FP8 tensor cores (compute capability 8.9 or later)" });
        }
    }

} // namespace

double frameworkOverheadBytes(const GpuSpec& gpu, const TrainingConfig& config)
{
    const double overhead = config.overheadBytes ? *config.overheadBytes : gpu.overheadBytes();
    // The GPU's figure holds the default cuBLAS workspaces; another CUBLAS_WORKSPACE_CONFIG changes them, not the
    // context.
    return std::max(0.0, overhead + cublasWorkspaceChangeBytes(gpu, config));
}

MathUnit gemmUnit(const TrainingConfig& config)
{
    const PrecisionPlan p = planPrecision(config);
    return p.fp8Gemms ? p.fp8Unit : p.matmulUnit;
}

std::int64_t timelineSize(const Estimate& e) { return e.schedule && !e.timeline.empty() ? e.schedule->realSteps : 0; }

TimelineStep timelineStep(const Estimate& e, std::int64_t real)
{
    const Schedule& s = *e.schedule;
    const StepRun at = s.locate(real);
    TimelineStep t { &s.steps[std::size_t(at.step)], s.layerOf(at), e.timeline[std::size_t(at.step)],
                     e.stepStart[std::size_t(at.step)] };
    if (at.repeat >= 0 && at.run > 0) {
        const double runs = double(at.run);
        const CategoryBytes& d = e.runDelta[std::size_t(at.repeat)];
        for (int c = 0; c < kMemoryCategoryCount; ++c)
            t.bytes[c] += d[c] * runs;
        t.start += e.runSeconds[std::size_t(at.repeat)] * runs;
    }
    return t;
}

PhaseStarts phaseStarts(const Estimate& e)
{
    PhaseStarts p;
    if (!e.schedule || e.stepStart.size() != e.schedule->steps.size())
        return p;
    // The steps as the schedule holds them: a repeated block's first run, whose start is the phase's where the
    // block opens it (the loss's backward opens the backward pass, the optimizer step is never repeated).
    for (std::size_t i = 0; i < e.schedule->steps.size(); ++i) {
        const Phase phase = e.schedule->steps[i].phase;
        if (phase == Phase::Backward && p.backward == 0.0)
            p.backward = e.stepStart[i];
        if (phase == Phase::Optimizer) {
            p.optimizer = e.stepStart[i];
            break;
        }
    }
    return p;
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
    resetKeepingCapacity(e);
    const Schedule& s = *schedule;
    e.config = config;
    e.modelId = model.id;
    e.vision = model.isVision();
    e.parameters = s.parameters;
    e.activeParameters = s.activeParameters;
    e.trainableParameters = s.trainableParameters;
    e.parametersPerGpu = s.parametersPerGpu;
    e.tokensPerSample = s.tokensPerSample;
    e.gpu = applyOverrides(gpu, overrides, gemmUnit(config));
    e.overheadBytes = frameworkOverheadBytes(gpu, config);
    const double batch = double(std::max<std::int64_t>(1, config.microBatch));
    const double reserve = std::max(0.0, config.allocatorReserveFraction);
    if (options.keepTimeline) {
        e.timeline.resize(s.steps.size());
        e.stepStart.resize(s.steps.size());
    } else {
        e.timeline.clear();
        e.stepStart.clear();
    }

    const TimeModel tm(e.gpu, options.efficiency);
    const StepClocks clocks = options.time ? stepClocks(e, s, tm, HostModel(config, options.efficiency), batch)
                                           : StepClocks {};
    thread_local std::vector<RooflinePoint> groups;
    groups.assign(s.groups.size(), RooflinePoint {});
    EvaluationWalk walk { s,
                          e,
                          tm,
                          clockScratch().wall,
                          clockScratch().parts,
                          groups,
                          batch,
                          e.overheadBytes,
                          reserve,
                          std::max(1, config.gradientAccumulation),
                          options.keepTimeline,
                          options.time,
                          LargestBatch { (e.gpu.memoryBytes - e.overheadBytes) / (1.0 + reserve) } };
    walkSchedule<WalkDetail::ByCategory>(s, walk);
    if (options.keepTimeline) {
        for (std::size_t r = 0; r < s.repeats.size(); ++r) {
            CategoryBytes d;
            for (int c = 0; c < kMemoryCategoryCount; ++c)
                d[c] = s.repeats[r].delta[c].at(batch);
            d[index(MemoryCategory::Overhead)] += s.repeats[r].deltaTotal.at(batch) * reserve;
            e.runDelta.push_back(d);
            e.runSeconds.push_back(walk.runSeconds[r]);
        }
    }

    summarizeMemory(e, s, walk, batch);
    if (options.searchMaxSequence)
        e.maxSequence = maxSequence(model, config, e.capacityBytes, e.overheadBytes, &e.maxSequenceLimitedByModel);
    e.hostBytes = s.hostBytes;
    if (!options.time) {
        e.schedule = std::move(schedule);
        return;
    }
    // The micro-batches' time is the clocks' over all of them (the first may differ from the others).
    walk.work.micro = clocks.microSeconds / double(std::max(1, config.gradientAccumulation));
    e.microBatchSeconds = walk.work.micro;
    communicationTime(e, s, gpu, options.efficiency, walk.work, batch);
    double optimizer = clocks.optimizerSeconds;
    if (config.offloadOptimizer) {
        e.offloadSeconds = offloadTime(s, gpu, options.efficiency);
        optimizer += e.offloadSeconds;
    }
    e.optimizerSeconds = optimizer;
    throughputAndMfu(e, s, tm, walk.work, batch);
    rooflinePoints(e, s, tm, walk.work, groups);
    e.schedule = std::move(schedule);
    addWarnings(e, gpu, tm, model);
}

void estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config, const GpuOverrides& overrides,
              const EstimateOptions& options, Estimate& out)
{
    // Reuse this thread's graph, and the last schedule when no estimate holds it any more: rebuilding then
    // allocates nothing.
    thread_local Graph graph;
    thread_local std::shared_ptr<Schedule> spare;
    TrainingConfig onGpu = config; // SDPA's kernel choice reads the GPU's compute capability (sdpa.h)
    onGpu.computeCapability = computeCapabilityCode(gpu.computeCapability);
    buildGraph(model, onGpu, graph, options.layers);
    if (out.schedule && out.schedule.use_count() == 1 && out.schedule != spare)
        spare = std::const_pointer_cast<Schedule>(out.schedule);
    out.schedule.reset();
    if (!spare || spare.use_count() > 1)
        spare = std::make_shared<Schedule>();
    lowerTrainingStep(graph, onGpu, *spare);
    evaluate(spare, model, gpu, onGpu, overrides, options, out);
}

Estimate estimate(const ModelSpec& model, const GpuSpec& gpu, const TrainingConfig& config,
                  const GpuOverrides& overrides, const EstimateOptions& options)
{
    Estimate e;
    estimate(model, gpu, config, overrides, options, e);
    return e;
}

} // namespace headroom
