#include "timemodel.h"

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

Efficiency fastEfficiency()
{
    return { .gemmTensor = 0.87,
             .convTensor = 0.42,
             .gemmFp8 = 0.776,
             .gemmVector = 0.70,
             .attention = 0.73,
             .vector = 0.60,
             .memoryHbm = 0.92,
             .memoryGddr = 0.83,
             .link = 0.90,
             .launchSeconds = 4e-6 };
}

Efficiency slowEfficiency()
{
    return { .gemmTensor = 0.60,
             .convTensor = 0.34,
             .gemmFp8 = 0.55,
             .gemmVector = 0.60,
             .attention = 0.50,
             .vector = 0.40,
             .memoryHbm = 0.77,
             .memoryGddr = 0.75,
             .link = 0.65,
             .launchSeconds = 6e-6 };
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
    secondsPerByte = g.bandwidthBytesPerSecond > 0 ? 1.0 / (memoryEfficiency * g.bandwidthBytesPerSecond) : 0.0;
    launchSeconds = e.launchSeconds;
    for (int u = 0; u < kMathUnitCount; ++u) {
        resolved[u] = resolveUnit(g, MathUnit(u));
        const double peak = g.peakFlopsPerSecond[int(resolved[u])];
        convolutionSecondsPerFlop[u] = peak > 0 ? 1.0 / (e.convTensor * peak) : 0.0;
        for (int k = 0; k < kOpKindCount; ++k) {
            const double eff = computeEfficiency(e, OpKind(k), resolved[u]);
            secondsPerFlop[k][u] = peak > 0 ? 1.0 / (eff * peak) : 0.0;
        }
    }
}

} // namespace headroom
