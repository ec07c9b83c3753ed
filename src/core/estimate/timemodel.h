#pragma once

// How long a step of the schedule takes: two clocks played against each other (docs/formulas.md 1.5a).
//  * The GPU runs each step's kernels in order for the longest of their compute time (FLOPs over the attainable
//    peak of their unit), their memory time (bytes over the attainable bandwidth) and a floor per kernel.
//  * The host (eager PyTorch: one CPU thread running the Python of every module and dispatching each ATen operator)
//    issues each step at a cost per operator; a kernel starts no earlier than it was issued.
// The step ends when both have (the loop synchronises at its end). This is the critical path of Lin et al. 2022
// (arXiv 2201.07821) and Lumos (MLSys'25) without a trace: the operators come from the schedule.

#include "gpuspec.h"
#include "lowering.h"

#include <algorithm>
#include <array>
#include <vector>

namespace headroom {

// Fractions of the datasheet peaks that kernels reach. Defaults and their sources: docs/formulas.md and
// docs/references/roofline.md sec. 5.
struct Efficiency {
    double gemmTensor = 0.80; // large BF16/FP16/TF32 GEMMs: A100 86.9 %, H100 80.3 % of peak (MAMF table)
    // cuDNN convolutions on tensor cores (implicit GEMM over C x R x S, mostly 64-512 channels): fitted to the
    // measured PyTorch ResNet-50 rows of docs/accuracy.md section 3 (0.34-0.42 across A100 TF32, A100 AMP and
    // V100 AMP); not a first-principles figure.
    double convTensor = 0.38;
    double gemmFp8 = 0.70;    // FP8 GEMMs: H100 70.9 %, H200 73.4 %
    double gemmVector = 0.65; // FP32 SIMT GEMMs: 0.6-0.7
    double attention = 0.60;  // FlashAttention-2: 50-73 % of peak on A100
    double vector = 0.50;     // arithmetic of elementwise kernels (they are memory-bound in practice)
    double memoryHbm = 0.85;  // V100 0.92, A100 PCIe 0.83 of datasheet bandwidth
    double memoryGddr = 0.78; // Titan RTX 0.83, T4 0.77
    double link = 0.80;       // NCCL bus bandwidth over link peak
    // The GPU side of a kernel: what it costs beyond its compute or memory time (the device's launch latency, the
    // ramp of its first wave and the tail of its last): the latency term of a latency-bandwidth model, added to each
    // kernel. Fitted with the host costs below to the 27 H200 runs (docs/accuracy.md 3.2), inside the 2-7 us band of
    // docs/references/time-anchors.md §2 (PyTorch autoparallel's 7 us floor per operator on H100 includes the host).
    double launchSeconds = 3e-6;
    // The host's cost per operator it issues, on the calibrated host (HostConfig::speed 1: the 16-core VM of the H200
    // runs, torch 2.11, transformers 5.17). Forward: nn.Module.__call__, the model's Python, the dispatcher,
    // autocast and autograd's recording, per operator of the graph (pytorch#41383: ~7 us per op with grad from
    // Python; PR #50431: an nn.Linear call 9.7 us). Backward: the autograd engine's node, its dispatch and launch, per
    // kernel. Optimizer: per operator it dispatches (a foreach op over a tensor list, or one per tensor for the
    // for-loop implementation), plus its Python loop over the parameters (_init_group) and zero_grad's.
    // Recompute: a checkpointed block's forward again, inside backward, under torch.utils.checkpoint's
    // non-reentrant saved-tensor hooks (a Python pack and unpack per saved tensor, and its determinism check of
    // their metadata). Fitted: forward 37.5 us, backward 32.5 us per autograd node's first kernel, recompute 100 us
    // per operator of the graph (the graph holds the operators that compute; views and reshapes ride on them).
    // docs/accuracy.md 3.2.
    double hostForwardOpSeconds = 37.5e-6;
    double hostBackwardOpSeconds = 32.5e-6;
    double hostRecomputeOpSeconds = 100e-6;
    // Not fitted (too small to show in the H200 runs): an optimizer operator as a backward one; the Python loops
    // over the parameters (Optimizer._init_group, zero_grad) at ~2 us per tensor; the loop's own calls per step.
    double hostOptimizerOpSeconds = 15e-6;
    double hostParameterSeconds = 2e-6;
    double hostStepSeconds = 200e-6;
    // CUDA graphs: one replay per step instead of every operator (PyTorch blog 2021-10-26: "processing meta-data is
    // a fixed cost").
    double graphLaunchSeconds = 20e-6;
    // FP32 3x3 convolutions on the vector units: cuDNN's Winograd F(2x2, 3x3) does 16 multiplies per 2x2 output
    // tile where the direct method does 36 (Lavin & Gray 2016), and cudnn.benchmark picks it where it is faster.
    double winogradSpeedup = 2.25;
    double hostOptimizerParamsPerSecond = 1.0e9; // DeepSpeed CPU Adam, order of magnitude on a many-core host
    // A 16-bit batch norm on NCHW tensors (graph.h SlowBatchNorm), as a fraction of the datasheet bandwidth. Measured
    // on an H200 (torch 2.11, ResNet-50 BF16 b256, tests/data/measured-heldout/*-kernels.*): PyTorch's native
    // batch_norm_collect_statistics, _transform_input and _backward_kernel took 59.3 ms for the traffic the model
    // counts at 47.5 GB, 0.80 TB/s of 4.8. They reduce per channel over N x H x W. cuDNN's, which PyTorch runs for
    // FP16 input, was no faster there: ResNet-50 b64 ran in 28.6 ms in FP16 and 28.8 ms in BF16. Before Hopper the
    // FP16 one keeps the sustained bandwidth: channels_last speeds ResNet-50 under AMP up by about 30 % on a V100 and
    // an A100 (MosaicML's method card), which a batch norm at this rate would make 2x. FP32 keeps it everywhere
    // (NVIDIA's FP32 NCHW ResNet-50 rows on A100 and V100, tests/data/throughput).
    double nchwBatchNormBandwidth = 0.167;
    // TensorIterator's unrolled kernel, which converts dtypes element by element (Step::loop, graph.h LoopKind), as a
    // fraction of the datasheet bandwidth. Measured on an H200 (torch 2.11, BF16 autocast,
    // tests/data/measured-heldout/*-kernels.*): GPT-2's gelu_new at b32 x 512 multiplies its BF16 half-input by the
    // FP32 tanh term, [16384, 3072], 503 MB in 190 us (unrolled BinaryFunctor<float> MulFunctor): 2.65 TB/s; its FP32
    // scalar products and tanh, vectorized, move 403 MB in 95 us: 4.2 TB/s. ViT-B/16's BF16 + FP32 residual adds at
    // b128, 194 MB in 77 us: 2.5 TB/s. 2.6 of 4.8 TB/s.
    double castingBandwidth = 0.54;
    // A sum over rows (Step::columnReduceBytes: bias gradients, a LayerNorm's weight and bias gradients): reduce_kernel
    // measured on an H200 (BF16, tests/data/measured-heldout/*-kernels.*) at 1.55 TB/s over GPT-2's four biases at
    // b32 x 512 (48 calls, 36 us each, 56 MB on average) and 1.84 TB/s over ViT-B/16's at b128 (50 calls, 47 us):
    // 0.32 and 0.38 of 4.8 TB/s. (GammaBetaBackwardCUDAKernel, not used for the figure: 1.3 TB/s for GPT-2's.)
    double columnReduceBandwidth = 0.35;
    // Copies of a non-contiguous tensor (GraphOp::forwardStridedBytes: TensorIterator's elementwise_kernel with offset
    // calculators), as a fraction of the datasheet bandwidth. Read off one H200 profile (ViT-B/16 BF16 at b128,
    // tests/data/measured-heldout/vit-b-16-*-kernels.*): its 112 strided direct copies took 8.52 ms; the 8 a layer
    // that torch.nn.functional's MultiheadAttention makes (TransformerBuilder::packedInProjection) move 12.1 GB at
    // 1.42 TB/s, 0.30 of 4.8.
    double stridedCopyBandwidth = 0.30;
    // A tensor-core GEMM whose operands' rows align to fewer bytes (Step::alignBytes) reaches alignBytes /
    // alignedGemmBytes of peak at most: CUTLASS's alignN kernels (TimeModel::gemmSecondsPerFlop).
    double alignedGemmBytes = 16.0;
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
    std::array<double, kMathUnitCount> peakFlopsPerSecond {};        // of the unit each resolves to
    double secondsPerByte = 0.0;
    double nativeBatchNormSecondsPerByte = 0.0; // Step::slowBatchNorm Native
    double cudnnBatchNormSecondsPerByte = 0.0;  // Step::slowBatchNorm Cudnn
    double castingSecondsPerByte = 0.0;         // Step::loop == LoopKind::Casting
    double columnReduceSecondsPerByte = 0.0;    // Step::columnReduceBytes
    double stridedCopySecondsPerByte = 0.0;     // Step::stridedBytes
    double alignedGemmBytes = 16.0;             // Efficiency::alignedGemmBytes
    // A step's own attention efficiency (Step::efficiency) in this efficiency's band: Efficiency::attention over
    // the default's, so that the fast and slow ends move it as they move the generic figure.
    double attentionScale = 1.0;
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
    // A tensor-core GEMM whose operands' rows are not a multiple of 16 bytes (Step::alignBytes) runs CUTLASS's
    // alignN kernels, which load alignBytes at a time: at alignBytes / 16 of peak. Measured on an H200 (torch 2.11,
    // BF16, tests/data/measured-heldout/*-kernels.*): GPT-2's head (50,257 columns, 2-byte alignment) 9.6-15.4 %
    // of peak over its three GEMMs (0.125 predicted), BERT's MLM head (30,522, 4-byte) 24-26.5 % (0.25 predicted).
    double gemmSecondsPerFlop(const Step& st) const
    {
        if (st.convolution && onTensorCores(st))
            return convolutionSecondsPerFlop[int(st.unit)];
        const double aligned = secondsPerFlop[int(st.kind)][int(st.unit)];
        const double peak = peakFlopsPerSecond[int(st.unit)];
        // A fused attention kernel whose speed is measured on this GPU (sdpaspeed.h): its tiles' FLOPs at its rate.
        if (st.kind == OpKind::Attention && st.efficiency > 0.0f && onTensorCores(st) && peak > 0.0)
            return double(st.work) / (double(st.efficiency) * attentionScale * peak);
        if (st.kind != OpKind::Gemm || double(st.alignBytes) >= alignedGemmBytes || !onTensorCores(st) || peak <= 0.0)
            return aligned;
        return std::max(aligned, alignedGemmBytes / (double(st.alignBytes) * peak));
    }
    double memorySecondsPerByte(const Step& st) const
    {
        if (st.slowBatchNorm != SlowBatchNorm::None)
            return st.slowBatchNorm == SlowBatchNorm::Native ? nativeBatchNormSecondsPerByte
                                                             : cudnnBatchNormSecondsPerByte;
        return st.loop == LoopKind::Casting ? castingSecondsPerByte : secondsPerByte;
    }
    // The GPU's time for a step in its parts: the longer of compute and memory (the other 0), the sums over rows
    // and layout copies in kernels of their own, and each kernel's latency.
    struct Parts {
        double compute = 0.0, memory = 0.0, extra = 0.0, launch = 0.0;
        double total() const { return compute + memory + extra + launch; }
    };
    Parts parts(const Step& st, double batch) const
    {
        const double tc = flops(st, batch) * gemmSecondsPerFlop(st);
        const double tm = bytes(st, batch) * memorySecondsPerByte(st);
        return { tc >= tm ? tc : 0.0, tm > tc ? tm : 0.0,
                 st.columnReduceBytes.at(batch) * columnReduceSecondsPerByte
                     + st.stridedBytes.at(batch) * stridedCopySecondsPerByte,
                 st.kernels * launchSeconds };
    }
    // The GPU's time for a step: the longer of compute and memory, plus each kernel's latency.
    double seconds(const Step& st, double batch) const { return parts(st, batch).total(); }
};

// The host's side: what issuing each step costs on the configured host and in the configured execution mode.
struct HostModel {
    double forwardOp = 0.0, backwardOp = 0.0, recomputeOp = 0.0, optimizerOp = 0.0, parameter = 0.0, step = 0.0;
    bool syncBeforeOptimizer = false; // GradScaler.step reads found_inf (.item()): the host waits for the GPU

    HostModel(const TrainingConfig& config, const Efficiency& efficiency);
    double seconds(const Step& st) const
    {
        if (st.phase == Phase::Optimizer)
            return st.hostOps * optimizerOp;
        if (st.recompute)
            return st.hostOps * recomputeOp;
        return st.hostOps * (st.phase == Phase::Backward ? backwardOp : forwardOp);
    }
};

// What one step's two clocks give (timemodel.cpp playClocks).
struct StepClocks {
    double microSeconds = 0.0;     // every micro-batch's forward and backward, from the step's start to the GPU's end
    double optimizerSeconds = 0.0; // from there to the end of the step (the optimizer, the host's tail)
    double hostSeconds = 0.0;      // the host's time issuing the step
    double gpuBusySeconds = 0.0;   // the GPU's time running kernels
    double seconds() const { return microSeconds + optimizerSeconds; }
};

// Plays the schedule's steps on both clocks: `gpu` and `host` hold each schedule step's seconds (one run of a repeated
// block), `micro` the micro-batches per step. `wall` gets, per schedule step, how far the step moved the GPU's clock
// (its kernels and the wait for the host before them) in the first micro-batch, averaged over a block's runs.
StepClocks playClocks(const Schedule& s, const std::vector<double>& gpu, const std::vector<double>& host, int micro,
                      const HostModel& hostModel, std::vector<double>& wall);

} // namespace headroom
