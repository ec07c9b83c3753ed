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
    Efficiency e;
    e.gemmTensor = 0.87;
    e.gemmFp8 = 0.776;
    e.gemmVector = 0.70;
    e.attention = 0.73;
    e.vector = 0.60;
    e.memoryHbm = 0.92;
    e.memoryGddr = 0.83;
    e.link = 0.90;
    e.launchSeconds = 4e-6;
    return e;
}

Efficiency slowEfficiency()
{
    Efficiency e;
    e.gemmTensor = 0.60;
    e.gemmFp8 = 0.55;
    e.gemmVector = 0.60;
    e.attention = 0.50;
    e.vector = 0.40;
    e.memoryHbm = 0.77;
    e.memoryGddr = 0.75;
    e.link = 0.65;
    e.launchSeconds = 6e-6;
    return e;
}

TimeModel::TimeModel(const EffectiveGpu& g, const Efficiency& e)
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

} // namespace headroom
