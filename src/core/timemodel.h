#pragma once

// How long a step of the schedule takes on a GPU: the roofline with efficiencies. Each step takes the longest of
// its compute time (FLOPs over the attainable peak of its unit), its memory time (bytes over the attainable
// bandwidth) and its kernel launches. Defaults and sources of the efficiencies: docs/formulas.md.

#include "gpuspec.h"
#include "lowering.h"

#include <algorithm>
#include <array>

namespace headroom {

// Fractions of the datasheet peaks that kernels reach. Defaults and their sources: docs/formulas.md and
// docs/references/roofline.md sec. 5.
struct Efficiency {
    double gemmTensor = 0.80; // large BF16/FP16/TF32 GEMMs: A100 86.9 %, H100 80.3 % of peak (MAMF table)
    // cuDNN convolutions on tensor cores (implicit GEMM over C x R x S, mostly 64-512 channels): fitted to the
    // measured PyTorch ResNet-50 rows of docs/accuracy.md section 3 (0.34-0.42 across A100 TF32, A100 AMP and
    // V100 AMP); not a first-principles figure.
    double convTensor = 0.38;
    double gemmFp8 = 0.70;       // FP8 GEMMs: H100 70.9 %, H200 73.4 %
    double gemmVector = 0.65;    // FP32 SIMT GEMMs: 0.6-0.7
    double attention = 0.60;     // FlashAttention-2: 50-73 % of peak on A100
    double vector = 0.50;        // arithmetic of elementwise kernels (they are memory-bound in practice)
    double memoryHbm = 0.85;     // V100 0.92, A100 PCIe 0.83 of datasheet bandwidth
    double memoryGddr = 0.78;    // Titan RTX 0.83, T4 0.77
    double link = 0.80;          // NCCL bus bandwidth over link peak
    double launchSeconds = 5e-6; // per kernel: "about 4-6 us" of CPU launch overhead in eager mode
    // FP32 3x3 convolutions on the vector units: cuDNN's Winograd F(2x2, 3x3) does 16 multiplies per 2x2 output
    // tile where the direct method does 36 (Lavin & Gray 2016), and cudnn.benchmark picks it where it is faster.
    double winogradSpeedup = 2.25;
    double hostOptimizerParamsPerSecond = 1.0e9; // DeepSpeed CPU Adam, order of magnitude on a many-core host
};

// The ends of the ranges those fractions are measured in (docs/formulas.md section 6, docs/references/roofline.md
// sec. 5): the step time is given between the two, as no single figure holds for every GEMM shape, GPU and stack.
//   GEMMs: large BF16/FP16 GEMMs reach 77.6-86.9 % of peak (MAMF table); small or odd ones lose to tile and wave
//     quantization, down to about 60 %. FP8: 70.9-77.6 %. FP32 SIMT: 0.6-0.7.
//   Attention: FlashAttention-2 reaches 50-73 % on A100.
//   Memory: 0.77 (T4) to 0.92 (V100) of the datasheet bandwidth; GDDR 0.75-0.83.
//   Launches: about 4-6 us each.
Efficiency fastEfficiency();
Efficiency slowEfficiency();

// Falls back to a unit the GPU has: FP8 -> BF16, else FP16, else FP32; BF16, FP16 and TF32 -> FP32. PyTorch
// emulates BF16 on GPUs without BF16 tensor cores at FP32 speed; Transformer Engine refuses FP8 below compute
// capability 8.9.
MathUnit resolveUnit(const EffectiveGpu& gpu, MathUnit unit);

struct TimeModel {
    std::array<MathUnit, kMathUnitCount> resolved {};
    // Seconds per FLOP for each (kind, unit) and seconds per byte: 1 / (efficiency x peak).
    std::array<std::array<double, kMathUnitCount>, kOpKindCount> secondsPerFlop {};
    std::array<double, kMathUnitCount> convolutionSecondsPerFlop {}; // tensor units at Efficiency::convTensor
    double secondsPerByte = 0.0;
    double launchSeconds = 0.0;

    TimeModel(const EffectiveGpu& gpu, const Efficiency& efficiency);

    double winogradSpeedup = 1.0;
    // Whether the GPU runs a step's unit on tensor cores (not the vector units it falls back to).
    bool onTensorCores(const Step& st) const { return resolved[int(st.unit)] != MathUnit::Fp32Vector; }

    // What the GPU does for a step: FLOPs as executed (a Winograd convolution's fewer multiplies) and bytes moved
    // (with the layout transposes tensor-core convolutions need on NCHW tensors).
    double flops(const Step& st, double batch) const
    {
        const double f = st.cost.flops.at(batch);
        return st.winograd && !onTensorCores(st) ? f / winogradSpeedup : f;
    }
    double bytes(const Step& st, double batch) const
    {
        const double b = st.cost.bytes.at(batch);
        return onTensorCores(st) ? b + st.layoutBytes.at(batch) : b;
    }
    double seconds(const Step& st, double batch) const
    {
        const double tc = flops(st, batch)
            * (st.convolution && onTensorCores(st) ? convolutionSecondsPerFlop[int(st.unit)]
                                                   : secondsPerFlop[int(st.kind)][int(st.unit)]);
        const double tm = bytes(st, batch) * secondsPerByte;
        return std::max({ tc, tm, st.kernels * launchSeconds });
    }
};

} // namespace headroom
