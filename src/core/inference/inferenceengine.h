#pragma once

// What an inference engine adds to the roofline of one forward pass (docs/inference.md sec. 4): a floor under every
// kernel, in cycles of the GPU's boost clock; the bandwidth its decode kernels reach; the host's time per pass and
// per operator. Internal to the inference estimate (inference.cpp). Every constant is sourced in
// docs/references/decode-speed.md; the llama.cpp ones are fitted to LLaMA-2 7B results only and checked against
// Llama 3 8B results they were not fitted to (tests/tst_decodecalibration.cpp).

#include "inference.h"

#include <optional>
#include <string_view>

namespace headroom::detail {

struct EngineCosts {
    double floorCycles = 0.0;        // per kernel on the GPU, in cycles of its boost clock
    double hostSecondsPerPass = 0.0; // per forward pass: graph build, synchronisation, logits to the host
    double hostSecondsPerOp = 0.0;   // per framework operator the host issues (eager PyTorch)
    double matvecHbm = 0.0;          // fraction of the datasheet bandwidth decode reaches on HBM (0: the roofline's)
    double matvecGddr = 0.0;         // ... and on GDDR
    double weightMatvecHbm = 0.0;    // ... in the kernel that multiplies the weights by the token (0: as the rest)
    double weightMatvecGddr = 0.0;
    bool hostOverlaps = false; // the host issues ahead of the GPU: a pass takes the longer of the two
    double passTokens = 0.0;   // prefill runs in passes of this many tokens (llama.cpp's n_ubatch); 0: one
    // Above this many rows a weight is multiplied in cuBLAS at FP16 (llama.cpp: a quantized weight dequantized to
    // F16 first, the F32 activations converted to F16 and the F16 result back); 0: never.
    double cublasAboveRows = 0.0;
    // The fraction of the tensor cores' FP16-accumulate rate (fp16AccumulateFlopsPerSecond) those cuBLAS GEMMs
    // reach; 0: the time model's GEMM rate.
    double cublasGemmEfficiency = 0.0;
    // The whole context's KV cache and a compute buffer for the worst-case graph are allocated when the context is
    // made (llama.cpp), not as the tokens come.
    bool reservesContext = false;
};

// Auto: llama.cpp for a GGUF format, the roofline for the others.
InferenceEngine resolveEngine(InferenceEngine e, WeightFormat f);
// `quantized`: weights stored in a quantized type (their mat-vec kernel differs from a 16-bit one's).
EngineCosts engineCosts(InferenceEngine e, bool quantized);

// The boost clock: FP32 rate = 2 x CUDA cores x clock, the cores from the GPU file's chip ("82 SMs, 10496 CUDA
// cores"; or its SMs times the architecture's cores per SM). nullopt where the file does not say.
std::optional<double> boostClockHz(const GpuSpec& g);
// The dense FP16 tensor-core rate with FP16 accumulation (cuBLAS's CUBLAS_COMPUTE_16F, which llama.cpp's prompt GEMMs
// use): SMs x boost clock x the architecture's FLOPs per SM and cycle. nullopt where the file or the architecture
// does not say.
std::optional<double> fp16AccumulateFlopsPerSecond(const GpuSpec& g);
// The median boost clock of the GPU files whose clock can be derived (63 files: 1.71 GHz), for the others.
inline constexpr double kTypicalClockHz = 1.71e9;

// The kernels the GPU runs and the operators the host issues for one operator of Forward (inferenceforward.h) in
// an engine; `quantized`: weights stored in a quantized type (llama.cpp quantizes the activations first).
struct OpLaunches {
    double kernels = 0.0;
    double hostOps = 0.0;
};
// `cublas`: a weight multiplied on the cuBLAS path (EngineCosts::cublasAboveRows), its conversions their own
// operators.
OpLaunches launchesOf(InferenceEngine e, std::string_view op, bool quantized, bool gqa, bool cublas = false);

} // namespace headroom::detail
