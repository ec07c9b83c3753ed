#include "timemodel.h"

#include <cmath>
#include <cstdlib>

namespace headroom {

namespace {

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

} // namespace

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
    case MathUnit::Fp16Tensor:
        return MathUnit::Fp32Vector;
    case MathUnit::Fp32Vector:
        return u;
    }
    return MathUnit::Fp32Vector;
}

namespace {

    // The host's costs at one end of the range: the fitted figures' spread over the H200 runs is about a fifth either
    // way (docs/accuracy.md 3.2).
    Efficiency withHostScale(Efficiency e, double scale)
    {
        for (double* c : { &e.hostForwardOpSeconds, &e.hostBackwardOpSeconds, &e.hostRecomputeOpSeconds,
                           &e.hostOptimizerOpSeconds, &e.hostParameterSeconds, &e.hostStepSeconds })
            *c *= scale;
        return e;
    }

} // namespace

Efficiency fastEfficiency()
{
    return withHostScale({ .gemmTensor = 0.87,
                           .convTensor = 0.42,
                           .gemmFp8 = 0.776,
                           .gemmVector = 0.70,
                           .attention = 0.73,
                           .vector = 0.60,
                           .memoryHbm = 0.92,
                           .memoryGddr = 0.83,
                           .link = 0.90,
                           .launchSeconds = 2e-6 },
                         0.8);
}

Efficiency slowEfficiency()
{
    return withHostScale({ .gemmTensor = 0.60,
                           .convTensor = 0.34,
                           .gemmFp8 = 0.55,
                           .gemmVector = 0.60,
                           .attention = 0.50,
                           .vector = 0.40,
                           .memoryHbm = 0.77,
                           .memoryGddr = 0.75,
                           .link = 0.65,
                           .launchSeconds = 5e-6 },
                         1.25);
}

TimeModel::TimeModel(const EffectiveGpu& g, const Efficiency& e)
{
    // A GPU file's measured bandwidth (a STREAM-like copy) replaces the generic fraction for its memory type; the
    // fast and slow ends keep their ratio to the default (fastEfficiency, slowEfficiency).
    const Efficiency generic;
    const bool gddr = g.spec && g.spec->isGddr();
    double memoryEfficiency = gddr ? e.memoryGddr : e.memoryHbm;
    if (g.spec && g.spec->measuredBandwidthGBps.present() && g.spec->bandwidthGBps.present())
        memoryEfficiency *= g.spec->measuredBandwidthGBps.value / g.spec->bandwidthGBps.value
            / (gddr ? generic.memoryGddr : generic.memoryHbm);
    winogradSpeedup = e.winogradSpeedup;
    attentionScale = e.attention / generic.attention;
    secondsPerByte = g.bandwidthBytesPerSecond > 0 ? 1.0 / (memoryEfficiency * g.bandwidthBytesPerSecond) : 0.0;
    launchSeconds = e.launchSeconds;
    // The alignN fallback was measured on Hopper (compute capability 9.0: tests/data/measured-heldout/*-kernels.*),
    // where aligned GEMMs run TMA and wgmma kernels (nvjet) and an unaligned one falls back to CUTLASS's sm75 and
    // sm80 mma.sync kernels. On Ampere and Ada the aligned kernels are mma.sync kernels too, so the penalty is
    // smaller there and unmeasured: none is applied before compute capability 9.
    const int major = g.spec ? std::atoi(g.spec->computeCapability.c_str()) : 0;
    alignedGemmBytes = major >= 9 ? e.alignedGemmBytes : 1.0;

    auto atFraction = [&](double fraction) {
        return g.bandwidthBytesPerSecond > 0 && fraction > 0 ? 1.0 / (fraction * g.bandwidthBytesPerSecond)
                                                             : secondsPerByte;
    };
    // None runs faster than the sustained bandwidth.
    nativeBatchNormSecondsPerByte = std::max(secondsPerByte, atFraction(e.nchwBatchNormBandwidth));
    cudnnBatchNormSecondsPerByte = major >= 9 ? nativeBatchNormSecondsPerByte : secondsPerByte;
    castingSecondsPerByte = std::max(secondsPerByte, atFraction(e.castingBandwidth));
    columnReduceSecondsPerByte = std::max(secondsPerByte, atFraction(e.columnReduceBandwidth));
    stridedCopySecondsPerByte = std::max(secondsPerByte, atFraction(e.stridedCopyBandwidth));
    for (int u = 0; u < kMathUnitCount; ++u) {
        resolved[u] = resolveUnit(g, MathUnit(u));
        const double peak = g.peakFlopsPerSecond[int(resolved[u])];
        peakFlopsPerSecond[u] = peak;
        convolutionSecondsPerFlop[u] = peak > 0 ? 1.0 / (e.convTensor * peak) : 0.0;
        for (int k = 0; k < kOpKindCount; ++k) {
            const double eff = computeEfficiency(e, OpKind(k), resolved[u]);
            secondsPerFlop[k][u] = peak > 0 ? 1.0 / (eff * peak) : 0.0;
        }
    }
}

HostModel::HostModel(const TrainingConfig& config, const Efficiency& e)
{
    const double speed = std::max(1e-3, config.host.speed);
    step = e.hostStepSeconds / speed;
    parameter = e.hostParameterSeconds / speed;
    syncBeforeOptimizer = config.precision == Precision::MixedFP16
        && config.mixedStyle == MixedPrecisionStyle::Autocast;
    if (config.host.execution == Execution::CudaGraphs) {
        // The replay issues every kernel of the step: the per-operator work was done once, at capture.
        step += e.graphLaunchSeconds / speed;
        parameter = 0.0;
        return;
    }
    forwardOp = e.hostForwardOpSeconds / speed;
    backwardOp = e.hostBackwardOpSeconds / speed;
    recomputeOp = e.hostRecomputeOpSeconds / speed;
    optimizerOp = e.hostOptimizerOpSeconds / speed;
}

namespace {

    struct Clocks {
        double host = 0.0, gpu = 0.0;
        // The host spends h issuing a step; its kernels start when both it is issued and the GPU is free.
        void issue(double h, double g)
        {
            host += h;
            gpu = std::max(gpu, host) + g;
        }
        double lag() const { return gpu - host; }
    };

    struct ClockPlayer {
        const Schedule& s;
        const std::vector<double>& gpu;
        const std::vector<double>& host;
        std::vector<double>* wall; // null: play without recording
        Clocks c;
        double hostTotal = 0.0, busy = 0.0;
        std::vector<double> runWall;

        void one(std::size_t i)
        {
            const double before = c.gpu;
            c.issue(host[i], gpu[i]);
            hostTotal += host[i];
            busy += gpu[i];
            if (wall)
                (*wall)[i] += c.gpu - before;
        }

        // `count` runs of a repeated block. The clocks are shift-invariant, so once a run leaves the lag between
        // them as it found it, or the GPU is so far behind that it never waits for the host again, every further
        // run adds exactly what this one added.
        void repeated(const StepRepeat& rep)
        {
            const auto first = std::size_t(rep.first), n = std::size_t(rep.length());
            double runHost = 0.0, runGpu = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                runHost += host[first + k];
                runGpu += gpu[first + k];
            }
            runWall.assign(n, 0.0);
            double lastLag = c.lag();
            for (int run = 0; run < rep.count; ++run) {
                const Clocks start = c;
                for (std::size_t k = 0; k < n; ++k) {
                    const double before = c.gpu;
                    one(first + k);
                    runWall[k] = c.gpu - before;
                }
                const double left = double(rep.count - 1 - run);
                const bool steady = std::abs(c.lag() - lastLag) <= 1e-12 * std::max(1e-6, std::abs(c.lag()));
                const bool gpuAhead = c.lag() >= runHost && runGpu >= runHost;
                if (left > 0 && (steady || gpuAhead)) {
                    const double dh = c.host - start.host, dg = c.gpu - start.gpu;
                    c.host += dh * left;
                    c.gpu += gpuAhead && !steady ? runGpu * left : dg * left;
                    hostTotal += runHost * left;
                    busy += runGpu * left;
                    for (std::size_t k = 0; wall && k < n; ++k)
                        (*wall)[first + k] += (gpuAhead && !steady ? gpu[first + k] : runWall[k]) * left;
                    break;
                }
                lastLag = c.lag();
            }
            for (std::size_t k = 0; wall && k < n; ++k)
                (*wall)[first + k] /= double(rep.count);
        }

        void range(std::size_t begin, std::size_t end)
        {
            std::size_t r = 0;
            while (r < s.repeats.size() && std::size_t(s.repeats[r].first) < begin)
                ++r;
            for (std::size_t i = begin; i < end;) {
                if (r < s.repeats.size() && i == std::size_t(s.repeats[r].first) && s.repeats[r].count > 1) {
                    repeated(s.repeats[r]);
                    i = std::size_t(s.repeats[r].last) + 1;
                    ++r;
                    continue;
                }
                if (r < s.repeats.size() && i == std::size_t(s.repeats[r].last))
                    ++r;
                one(i++);
            }
        }
    };

} // namespace

StepClocks playClocks(const Schedule& s, const std::vector<double>& gpu, const std::vector<double>& host, int micro,
                      const HostModel& hostModel, std::vector<double>& wall)
{
    wall.assign(s.steps.size(), 0.0);
    const std::size_t n = s.steps.size();
    const std::size_t optimizer = s.optimizerBegin >= 0 ? std::size_t(s.optimizerBegin) : n;
    ClockPlayer p { s, gpu, host, &wall, {}, 0.0, 0.0, {} };
    p.range(0, optimizer);
    // Further micro-batches: the host runs on into the next one while the GPU finishes this one. A step maps the lag
    // l = gpu - host to max(l - h, 0) + g, so a micro-batch maps it to max(l + A, B) (max-plus affine), with
    // A = its kernels' time less its host time and B >= 0 (what it leaves from any lag below). The first one, played
    // from lag 0, left max(A, B): when A < 0 that is B, and every further one leaves B again; when A >= 0 each
    // further one adds A. So m - 1 more add their host time to the host's clock and (m - 1) max(A, 0) to the lag,
    // which playing each of them until the lag settles gave to within rounding.
    const int m = std::max(1, micro);
    if (m > 1) {
        const double more = double(m - 1);
        const double microHost = p.hostTotal, microBusy = p.busy, a = microBusy - microHost;
        const double lag = p.c.lag() + std::max(0.0, a) * more;
        p.c.host += microHost * more;
        p.c.gpu = p.c.host + lag;
        p.hostTotal += microHost * more;
        p.busy += microBusy * more;
    }
    StepClocks out;
    out.microSeconds = p.c.gpu;
    if (hostModel.syncBeforeOptimizer)
        p.c.host = std::max(p.c.host, p.c.gpu);
    p.wall = &wall;
    p.range(optimizer, n);
    // zero_grad and the loop's own Python; then the step's end waits for both clocks.
    p.c.host += hostModel.step;
    p.hostTotal += hostModel.step;
    out.optimizerSeconds = std::max(p.c.host, p.c.gpu) - out.microSeconds;
    out.hostSeconds = p.hostTotal;
    out.gpuBusySeconds = p.busy;
    return out;
}

} // namespace headroom
