#include "sdpa.h"

#include <cmath>
#include <cstdio>

// Sources: pytorch/pytorch aten/src/ATen/native/transformers/cuda/sdp_utils.cpp, sdp_utils_cpp.h, sdp_utils_cpp.cpp
// and aten/src/ATen/Context.h (sdp_priority_order), read at the main-branch snapshot of late 2026; where a rule is
// younger than a release, the release that has it is named beside it (the PR that changed it, and PyTorch's release
// calendar in RELEASE.md).

namespace headroom {

namespace {

    constexpr TorchVersion v(int major, int minor) { return TorchVersion { major, minor }; }

    bool halfType(DType t) { return t == DType::F16 || t == DType::BF16; }

    class Chooser {
    public:
        explicit Chooser(const SdpaCall& c)
            : call(c)
            , cc(c.computeCapability > 0 ? c.computeCapability : 80)
        {
        }

        SdpaChoice run();

    private:
        bool refuse(SdpaKernel k, SdpaRule r)
        {
            if (out.refusedCount < int(out.refused.size()))
                out.refused[std::size_t(out.refusedCount++)] = { k, r };
            return false;
        }
        bool flash();
        bool memoryEfficient();
        bool cudnn();
        bool cpuFlash();

        const SdpaCall& call;
        int cc;
        SdpaChoice out;
    };

    // can_use_flash_attention, its general constraints in order, then the dense ones.
    bool Chooser::flash()
    {
        const bool fa2 = call.torch >= v(2, 2); // FlashAttention-2 replaced FlashAttention-1 in torch 2.2
        if (call.mask)
            return refuse(SdpaKernel::Flash, SdpaRule::FlashMask); // check_for_attn_mask
        if (call.headDim > (fa2 ? 256 : 128))
            return refuse(SdpaKernel::Flash, SdpaRule::FlashHeadDim); // check_head_dim_size_flash
        // check_flash_attention_hardware_support: check_sm_version<sm80, sm121> (FlashAttention-1: sm75 and up).
        if (cc < (fa2 ? 80 : 75) || cc > 121)
            return refuse(SdpaKernel::Flash, SdpaRule::FlashArch);
        // check_requires_grad_and_head_dim_gt192_constraints_on_sm86_89_or_120: training on sm86-sm89 (and
        // sm120/sm121) takes head dim <= 192, or > 224 without dropout.
        const bool smallSmem = (cc >= 86 && cc <= 89) || cc == 120 || cc == 121;
        if (smallSmem && call.headDim > 192 && (call.dropout > 0.0 || call.headDim <= 224))
            return refuse(SdpaKernel::Flash, SdpaRule::FlashBackward);
        // check_dtypes_flash_attention -> check_dtypes_low_precision: {Half, BFloat16} from sm80, {Half} below.
        if (!(call.dtype == DType::F16 || (call.dtype == DType::BF16 && cc >= 80)))
            return refuse(SdpaKernel::Flash, SdpaRule::FlashDtype);
        // check_batch_size_and_num_heads_dense<backend_supports_grouped_query_attention = true>: enable_gqa is taken.
        return true;
    }

    // can_use_mem_efficient_attention.
    bool Chooser::memoryEfficient()
    {
        if (cc < 50 || cc > 121) // check_mem_efficient_hardware_support: check_sm_version<sm50, sm121>
            return refuse(SdpaKernel::MemoryEfficient, SdpaRule::MemEffArch);
        // check_head_dim_size_mem_efficient: the last dimension a multiple of minimum_gemm_alignment, which is
        // max(4, 128 / bits) from sm80, 128 / 16 = 8 for FP16 on sm70-sm75 tensor cores, else 1.
        const bool half = halfType(call.dtype);
        const int alignment = cc >= 80 ? (half ? 8 : 4) : (cc >= 70 && half ? 8 : 1);
        if (call.headDim % alignment != 0)
            return refuse(SdpaKernel::MemoryEfficient, SdpaRule::MemEffHeadDim);
        // check_batch_size_and_num_heads_dense<supports_gqa>: false on CUDA until PR #191085 (July 2026, after
        // the 2.13 branch cut): grouped heads with enable_gqa are refused, and torch 2.11 falls to math.
        if (call.enableGqa() && call.torch < v(2, 14))
            return refuse(SdpaKernel::MemoryEfficient, SdpaRule::MemEffGqa);
        // greater_than_or_equal_sm80_mem_efficient_dtypes {Half, Float, BFloat16}; below sm80 {Half, Float}.
        if (call.dtype == DType::BF16 && cc < 80)
            return refuse(SdpaKernel::MemoryEfficient, SdpaRule::MemEffDtype);
        return true;
    }

    // can_use_cudnn_attention.
    bool Chooser::cudnn()
    {
        if (!halfType(call.dtype)) // check_dtypes_low_precision
            return refuse(SdpaKernel::CuDnn, SdpaRule::CudnnDtype);
        // check_cudnn_dropout: cuDNN's dropout probability has a resolution of 1/16 (PR #174245, merged 2026-02-26,
        // after the 2.11 branch cut of Feb 16-19: torch 2.12 on). Torch 2.11 runs cuDNN with BERT's and GPT-2's 0.1
        // (the H200 profiles, tests/data/measured-heldout/*-kernels.*: cudnn ..._sdpa_sm90_flash_fprop and bprop
        // kernels and philox::unpack_cudnn in each of the 12 layers).
        if (call.torch >= v(2, 12) && call.dropout * 16.0 != std::floor(call.dropout * 16.0))
            return refuse(SdpaKernel::CuDnn, SdpaRule::CudnnDropout);
        // check_cudnn_tensor_shapes: head dim a multiple of 8 and <= 128, <= 256 on sm90/sm10x (cuDNN >= 9.5.1,
        // PR #149904). GQA passes check_batch_size_and_num_heads_dense<supports_gqa = true>.
        const int limit = (cc == 90 || (cc >= 100 && cc <= 109)) ? 256 : 128;
        if (call.headDim % 8 != 0 || call.headDim > limit)
            return refuse(SdpaKernel::CuDnn, SdpaRule::CudnnHeadDim);
        return true;
    }

    // sdp_utils_cpp.cpp use_flash_attention_cpp: check_for_dropout, check_head_dim_size_cpp (q, k, v alike) and
    // cpp_supported_flash_dtypes {Float, Double, BFloat16, Half}; GQA is taken.
    bool Chooser::cpuFlash()
    {
        if (call.dropout > 0.0)
            return refuse(SdpaKernel::Flash, SdpaRule::CpuFlashDropout);
        return true;
    }

    SdpaChoice Chooser::run()
    {
        // attention.cpp _scaled_dot_product_attention_math: query_acc = query.to(kFloat) for Half and BFloat16
        // unless allow_fp16_bf16_reduction_math_sdp (False by default; torch 2.5).
        out.upcast = halfType(call.dtype) && call.torch >= v(2, 5);
        if (call.torch < v(2, 0)) {
            refuse(SdpaKernel::Flash, SdpaRule::NoSdpa);
            out.kernel = SdpaKernel::Math;
            return out;
        }
        if (call.device == KernelBackend::Cpu) { // priority_order_cpp: flash, math
            out.kernel = cpuFlash() ? SdpaKernel::Flash : SdpaKernel::Math;
            return out;
        }
        // Context.h sdp_priority_order: flash, efficient, math, cudnn. priority_order puts cuDNN first when
        // check_prefer_cudnn_attention: sm90 or sm10x with a runtime cuDNN > 9.15 (PR #162073 for 2.9; PR #171627
        // keeps it off for CUDA < 12.9 wheels, whose cuDNN is older). Behind math, cuDNN is never reached.
        out.cudnnFirst = call.torch >= v(2, 9) && (cc == 90 || (cc >= 100 && cc <= 109));
        if (out.cudnnFirst && cudnn())
            out.kernel = SdpaKernel::CuDnn;
        else if (flash())
            out.kernel = SdpaKernel::Flash;
        else if (memoryEfficient())
            out.kernel = SdpaKernel::MemoryEfficient;
        else
            out.kernel = SdpaKernel::Math;
        return out;
    }

    std::string phrase(SdpaRule r, const SdpaCall& c)
    {
        char buf[96];
        switch (r) {
        case SdpaRule::NoSdpa:
            return "no SDPA before torch 2.0";
        case SdpaRule::FlashDtype:
        case SdpaRule::CudnnDtype:
        case SdpaRule::MemEffDtype:
            if (c.dtype == DType::F32)
                return "FP32";
            return c.dtype == DType::BF16 ? "BF16 before sm80" : "this dtype";
        case SdpaRule::FlashMask:
            return "an attention mask";
        case SdpaRule::FlashHeadDim:
        case SdpaRule::CudnnHeadDim:
        case SdpaRule::MemEffHeadDim:
            std::snprintf(buf, sizeof buf, "head dim %d", c.headDim);
            return buf;
        case SdpaRule::FlashArch:
        case SdpaRule::MemEffArch:
            std::snprintf(buf, sizeof buf, "compute capability %d.%d", c.computeCapability / 10,
                          c.computeCapability % 10);
            return buf;
        case SdpaRule::FlashBackward:
            std::snprintf(buf, sizeof buf, "training with head dim %d on sm86-sm89", c.headDim);
            return buf;
        case SdpaRule::MemEffGqa:
            return "grouped-query attention";
        case SdpaRule::CudnnDropout:
            std::snprintf(buf, sizeof buf, "dropout %g (cuDNN takes multiples of 1/16)", c.dropout);
            return buf;
        case SdpaRule::CpuFlashDropout:
            return "dropout on the CPU";
        }
        return {};
    }

} // namespace

SdpaCall sdpaCallFor(const TransformerSpec& model, const TrainingConfig& config)
{
    SdpaCall c;
    c.device = config.kernels;
    switch (config.precision) {
    case Precision::FP32:
    case Precision::TF32:
        c.dtype = DType::F32;
        break;
    case Precision::MixedFP16:
        c.dtype = DType::F16;
        break;
    default: // autocast to BF16, a BF16 model, or Transformer Engine's BF16 around its FP8 GEMMs
        c.dtype = DType::BF16;
        break;
    }
    c.headDim = model.effectiveHeadDim();
    c.heads = model.heads;
    c.kvHeads = model.kvHeads > 0 ? model.kvHeads : model.heads;
    c.dropout = model.attentionDropout;
    c.computeCapability = config.computeCapability;
    c.torch = config.torch;
    return c;
}

SdpaChoice chooseSdpaKernel(const SdpaCall& call) { return Chooser(call).run(); }

bool attentionSavesScores(const ModelSpec& model, const TrainingConfig& config)
{
    return model.family == ModelFamily::Transformer
        && (config.attention == AttentionImpl::Eager
            || chooseSdpaKernel(sdpaCallFor(model.transformer, config)).kernel == SdpaKernel::Math);
}

std::string_view toString(SdpaKernel k)
{
    switch (k) {
    case SdpaKernel::Flash:
        return "flash";
    case SdpaKernel::MemoryEfficient:
        return "efficient";
    case SdpaKernel::CuDnn:
        return "cudnn";
    case SdpaKernel::Math:
        return "math";
    }
    return "math";
}

std::string_view sdpaSource(SdpaRule r)
{
    switch (r) {
    case SdpaRule::NoSdpa:
        return "torch/nn/functional.py (scaled_dot_product_attention, torch 2.0)";
    case SdpaRule::FlashDtype:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_dtypes_flash_attention";
    case SdpaRule::FlashMask:
        return "aten/src/ATen/native/transformers/sdp_utils_cpp.h check_for_attn_mask";
    case SdpaRule::FlashHeadDim:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_head_dim_size_flash";
    case SdpaRule::FlashArch:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_flash_attention_hardware_support";
    case SdpaRule::FlashBackward:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp "
               "check_requires_grad_and_head_dim_gt192_constraints_on_sm86_89_or_120";
    case SdpaRule::MemEffArch:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_mem_efficient_hardware_support";
    case SdpaRule::MemEffHeadDim:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_head_dim_size_mem_efficient";
    case SdpaRule::MemEffGqa:
        return "aten/src/ATen/native/transformers/sdp_utils_cpp.h check_batch_size_and_num_heads_dense "
               "(can_use_mem_efficient_attention: supports_gqa)";
    case SdpaRule::MemEffDtype:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp can_use_mem_efficient_attention "
               "(less_than_sm80_mem_efficient_dtypes)";
    case SdpaRule::CudnnDtype:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_dtypes_low_precision";
    case SdpaRule::CudnnDropout:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_cudnn_dropout";
    case SdpaRule::CudnnHeadDim:
        return "aten/src/ATen/native/transformers/cuda/sdp_utils.cpp check_cudnn_tensor_shapes";
    case SdpaRule::CpuFlashDropout:
        return "aten/src/ATen/native/transformers/sdp_utils_cpp.h check_for_dropout (use_flash_attention_cpp)";
    }
    return {};
}

std::string sdpaReason(const SdpaChoice& choice, const SdpaCall& call)
{
    std::string out;
    int phrases = 0;
    for (int i = 0; i < choice.refusedCount; ++i) {
        const std::string p = phrase(choice.refused[std::size_t(i)].rule, call);
        if (p.empty() || out.find(p) != std::string::npos)
            continue;
        out += phrases == 0 ? "" : phrases == 1 ? " with " : ", ";
        out += p;
        ++phrases;
    }
    if (phrases > 0)
        return out;
    if (choice.kernel == SdpaKernel::CuDnn)
        return "cuDNN first on sm90/sm100 from torch 2.9";
    return call.device == KernelBackend::Cpu ? "the CPU's first choice" : "first in PyTorch's order";
}

double sdpaLogSumExpRows(SdpaKernel k, double seq)
{
    switch (k) {
    case SdpaKernel::MemoryEfficient:
        return std::ceil(seq / 32.0) * 32.0;
    case SdpaKernel::Math:
        return 0.0;
    default:
        return seq;
    }
}

double sdpaBackwardScratch(SdpaKernel k, double seq, double heads, double headDim)
{
    if (k == SdpaKernel::CuDnn)
        return heads * seq * headDim * 4.0;
    if (k != SdpaKernel::Flash)
        return 0.0;
    const double rows = std::ceil(seq / 128.0) * 128.0;
    const double width = headDim <= 192.0 ? std::ceil(headDim / 32.0) * 32.0 : 256.0;
    return (heads * rows + rows * heads * width) * 4.0;
}

} // namespace headroom
