#pragma once

// Which kernel torch.nn.functional.scaled_dot_product_attention runs in a training step, decided as PyTorch decides
// it: select_sdp_backend in aten/src/ATen/native/transformers/cuda/sdp_utils.cpp (CUDA) and select_sdp_backend_cpp
// in sdp_utils_cpp.cpp (CPU) try the backends in their priority order, each through a list of checks, and take the
// first whose checks all pass; math always passes. What each saves for backward differs (graphbuildergemm.cpp,
// transformerbuilder.cpp): flash, memory-efficient and cuDNN keep Q, K, V, the output and an FP32 log-sum-exp per
// query row; math is the composite matmul-softmax-matmul of _scaled_dot_product_attention_math (attention.cpp) and
// keeps the s x s probabilities like eager attention. docs/formulas.md, "SDPA's kernel", lists the rules.

#include "modelspec.h"
#include "trainingconfig.h"
#include "types.h"

#include <array>
#include <string>
#include <string_view>

namespace headroom {

enum class SdpaKernel : std::uint8_t { Flash, MemoryEfficient, CuDnn, Math };

// The check that refused a kernel, each named after the PyTorch function that makes it (sdpaSource).
enum class SdpaRule : std::uint8_t {
    NoSdpa,          // torch < 2.0: there is no scaled_dot_product_attention
    FlashDtype,      // check_dtypes_flash_attention: FP16/BF16 from sm80, FP16 below
    FlashMask,       // check_for_attn_mask: no attn_mask
    FlashHeadDim,    // check_head_dim_size_flash: head dim <= 256 (FlashAttention-2, torch >= 2.2; 128 before)
    FlashArch,       // check_flash_attention_hardware_support: sm80 .. sm121 (sm75 with FlashAttention-1)
    FlashBackward,   // check_requires_grad_and_head_dim_gt192_constraints_on_sm86_89_or_120
    MemEffArch,      // check_mem_efficient_hardware_support: sm50 .. sm121
    MemEffHeadDim,   // check_head_dim_size_mem_efficient: head dim a multiple of minimum_gemm_alignment
    MemEffGqa,       // check_batch_size_and_num_heads_dense<supports_gqa = false>: no enable_gqa before PR #191085
    MemEffDtype,     // can_use_mem_efficient_attention: FP16/FP32 below sm80, and BF16 from sm80
    CudnnDtype,      // check_dtypes_low_precision: FP16/BF16
    CudnnDropout,    // check_cudnn_dropout: p a multiple of 1/16
    CudnnHeadDim,    // check_cudnn_tensor_shapes: head dim a multiple of 8, <= 128 (<= 256 on sm90/sm100)
    CpuFlashDropout, // sdp_utils_cpp.h check_for_dropout: the CPU flash kernel takes no dropout
};

// What transformers' attention (integrations/sdpa_attention.py) and torchvision's nn.MultiheadAttention pass to SDPA
// in training, and where it runs.
struct SdpaCall {
    KernelBackend device = KernelBackend::Cuda;
    DType dtype = DType::BF16; // of Q, K and V, after autocast
    int headDim = 64;
    int heads = 12;
    int kvHeads = 12;
    bool mask = false; // an attn_mask tensor; transformers passes none without padding (is_causal instead)
    double dropout = 0.0;
    int computeCapability = 0; // major * 10 + minor; 0: unknown, decided as on sm80
    TorchVersion torch = kTorchRelease;

    // transformers' use_gqa_in_sdpa: enable_gqa=True from torch 2.5 when there is no mask; otherwise repeat_kv
    // copies K and V to every query head before SDPA.
    bool enableGqa() const { return kvHeads < heads && !mask && torch >= TorchVersion { 2, 5 }; }
    bool repeatKv() const { return kvHeads < heads && !enableGqa(); }
};

SdpaCall sdpaCallFor(const TransformerSpec& model, const TrainingConfig& config);

struct SdpaRefusal {
    SdpaKernel kernel = SdpaKernel::Flash;
    SdpaRule rule = SdpaRule::FlashDtype;
};

struct SdpaChoice {
    SdpaKernel kernel = SdpaKernel::Flash;
    bool cudnnFirst = false;            // priority_order put cuDNN first (sm90/sm100, torch >= 2.9)
    std::array<SdpaRefusal, 3> refused; // the kernels tried before it, in order, each with the check it failed
    int refusedCount = 0;
    // Math on FP16/BF16 computes in FP32 (attention.cpp: query_acc, unless allow_fp16_bf16_reduction_math_sdp).
    bool upcast = false;
};

SdpaChoice chooseSdpaKernel(const SdpaCall& call);

std::string_view toString(SdpaKernel k); // "flash", "efficient", "cudnn", "math"

// Whether the attention core saves the s x s probabilities for backward: eager attention and SDPA's math kernel do,
// the fused kernels save the output and a log-sum-exp, and a CNN has no attention. Selective recomputation
// (Korthikanti et al. 2022, sec. 5) drops exactly those probabilities; where none are saved it recomputes nothing.
bool attentionSavesScores(const ModelSpec& model, const TrainingConfig& config);
// The PyTorch source of a rule: "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_dtypes_flash_attention".
std::string_view sdpaSource(SdpaRule r);
// Why that kernel, in words: "FP32 with grouped-query attention"; for the first kernel tried, why it is first.
std::string sdpaReason(const SdpaChoice& choice, const SdpaCall& call);

// Rows of the FP32 log-sum-exp a fused kernel saves for `seq` queries per head: the memory-efficient kernel pads
// them to a multiple of 32 (attention.cu _efficient_attention_forward, kAlignLSE); 0 for math.
double sdpaLogSumExpRows(SdpaKernel k, double seq);

// Bytes per sample the backward kernel of `k` allocates and frees inside the call, for `seq` queries of `heads` heads
// of `headDim`, all FP32:
//   * flash: FlashAttention-2's mha_bwd (flash_api.cpp), softmax_d, B x heads x seq rounded up to 128, and dq_accum,
//     B x seq rounded up to 128 x heads x headDim rounded up to 32 (256 past 192), as PyTorch's deterministic-off
//     default allocates it;
//   * cuDNN: the graph's workspace, which PyTorch takes from the caching allocator (MHA.cpp run_cudnn_SDP_bprop,
//     get_workspace_size): cudnn-frontend's SDPA backward node (scaled_dot_product_flash_attention.h) keeps dQ_accum,
//     Q's shape, B x heads x seq x headDim, from cuDNN 9 on (the dP workspace variant only for dBias or determinism);
//     the backend plan's own workspace is not known and left out;
//   * memory-efficient and math: 0, not modelled.
double sdpaBackwardScratch(SdpaKernel k, double seq, double heads, double headDim);

} // namespace headroom
