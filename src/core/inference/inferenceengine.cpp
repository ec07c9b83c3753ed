#include "inferenceengine.h"

#include <array>
#include <cctype>
#include <string>

namespace headroom {

namespace {
    constexpr std::array<std::pair<InferenceEngine, std::string_view>, 5> kEngineNames { {
        { InferenceEngine::Auto, "auto" },
        { InferenceEngine::Roofline, "roofline" },
        { InferenceEngine::LlamaCpp, "llama.cpp" },
        { InferenceEngine::LlamaCppNoGraphs, "llama.cpp-no-graphs" },
        { InferenceEngine::Transformers, "transformers" },
    } };
} // namespace

std::string_view toString(InferenceEngine e)
{
    for (const auto& [engine, name] : kEngineNames)
        if (engine == e)
            return name;
    return "auto";
}

std::optional<InferenceEngine> inferenceEngineFromString(std::string_view s)
{
    for (const auto& [engine, name] : kEngineNames)
        if (name == s)
            return engine;
    return std::nullopt;
}

namespace detail {

    // The llama.cpp figures are fitted to XiongjieDai/GPU-Benchmarks-on-LLM-Inference's LLaMA-2 7B Q4_0 and F16
    // decode rates on seven GPUs (llama.cpp build 1680, Dec 2023, no CUDA graphs), by least squares on the relative
    // error of t = weight bytes / (eta_w x bandwidth) + other bytes / (eta x bandwidth) + kernels x floor / clock +
    // host (docs/references/decode-speed.md sec. 2; tools/calibration/fit_decode.py):
    //   eta_w of the quantized mat-vec (mul_mat_vec_q): 0.91 of the datasheet bandwidth on GDDR, 0.54 on HBM
    //        (llama.cpp #9817: "a high percentage of peak on GDDR", "large room for improvement" on HBM);
    //   eta of the 16-bit kernels (cuBLAS, the element-wise ones): 0.93 on GDDR, 0.81 on HBM;
    //   floor: 4,100 cycles per kernel launched one by one.
    // Not fitted: the host's 0.85 ms per token, from #7456 (NVIDIA: the CPU's part is 10-15 % of a Llama-2 7B token
    // on an A100 or H100, 0.7-1.0 ms at their 130-160 tokens/s). CUDA graphs take 1,200 cycles off each kernel: the
    // mean of the three published before/after pairs on one build (#6766: RTX 3090 116.31 -> 128.27, RTX 4090
    // 138.31 -> 146.81 t/s; #6763: H100 PCIe 143.35 -> 163.83 t/s), each as (1/before - 1/after) x clock / 1,093
    // kernels.
    constexpr double kLlamaCppFloorCycles = 4100.0;
    constexpr double kCudaGraphSavedCycles = 1200.0;
    constexpr double kLlamaCppHostSeconds = 0.85e-3;
    constexpr double kLlamaCppQuantizedMatvecHbm = 0.54;
    constexpr double kLlamaCppQuantizedMatvecGddr = 0.91;
    constexpr double kLlamaCppMatvecHbm = 0.81;
    constexpr double kLlamaCppMatvecGddr = 0.93;
    constexpr double kLlamaCppUbatch = 512.0; // llama.cpp's default n_ubatch (common.h, since Mar 2024)
    // Build 2837's F16 mat-vec (dequantize_mul_mat_vec) loads its weights two halves at a time. Vectorising those
    // loads (llama.cpp #9816, NVIDIA, Oct 2024) sped the kernel up 1.33x on an H100 SXM and 1.01x on GDDR GPUs
    // (Llama 3 8B F16, batch 1; #9817): taken as what the scalar loads leave of the bandwidth the other decode
    // kernels reach. Not fitted: no F16 row of that build is in the fit.
    constexpr double kDmmvF16VectorLoadsHbm = 1.33;
    constexpr double kDmmvF16VectorLoadsGddr = 1.01;
    // Eager PyTorch: 25 us of host time per operator issued (Python module call, dispatcher, launch: pytorch#41383
    // 5-7 us per op, PR #50431 nn.Linear 9.7 us, a 20 us launch-to-start on V100; time-anchors' c_fwd); its kernels
    // are launched one by one, as llama.cpp's without graphs.
    constexpr double kEagerHostSecondsPerOp = 25e-6;

    InferenceEngine resolveEngine(InferenceEngine e, WeightFormat f)
    {
        if (e != InferenceEngine::Auto)
            return e;
        return isGguf(f) ? InferenceEngine::LlamaCpp : InferenceEngine::Roofline;
    }

    EngineCosts engineCosts(InferenceEngine e, bool quantized)
    {
        EngineCosts c;
        switch (e) {
        case InferenceEngine::LlamaCpp:
        case InferenceEngine::LlamaCppNoGraphs:
            c.floorCycles = kLlamaCppFloorCycles - (e == InferenceEngine::LlamaCpp ? kCudaGraphSavedCycles : 0.0);
            c.hostSecondsPerPass = kLlamaCppHostSeconds;
            c.matvecHbm = kLlamaCppMatvecHbm;
            c.matvecGddr = kLlamaCppMatvecGddr;
            if (quantized) {
                c.weightMatvecHbm = kLlamaCppQuantizedMatvecHbm;
                c.weightMatvecGddr = kLlamaCppQuantizedMatvecGddr;
            } else if (e == InferenceEngine::LlamaCpp) {
                c.weightMatvecHbm = kLlamaCppMatvecHbm / kDmmvF16VectorLoadsHbm;
                c.weightMatvecGddr = kLlamaCppMatvecGddr / kDmmvF16VectorLoadsGddr;
            }
            c.passTokens = kLlamaCppUbatch;
            break;
        case InferenceEngine::Transformers:
            c.floorCycles = kLlamaCppFloorCycles;
            c.hostSecondsPerOp = kEagerHostSecondsPerOp;
            c.hostOverlaps = true;
            break;
        default:
            break;
        }
        return c;
    }

    namespace {
        // The number written just before `word` in `s` ("10496 CUDA cores", "82 SMs"), 0 if none.
        double numberBefore(const std::string& s, std::string_view word)
        {
            const auto at = s.find(word);
            if (at == std::string::npos || at < 2)
                return 0.0;
            std::size_t end = at - 1; // the space before the word
            std::size_t begin = end;
            while (begin > 0 && (std::isdigit(static_cast<unsigned char>(s[begin - 1])) || s[begin - 1] == ','))
                --begin;
            std::string digits;
            for (std::size_t i = begin; i < end; ++i)
                if (s[i] != ',')
                    digits += s[i];
            return digits.empty() ? 0.0 : std::stod(digits);
        }
    } // namespace

    std::optional<double> boostClockHz(const GpuSpec& g)
    {
        const double fp32 = g.peakFlopsPerSecond(MathUnit::Fp32Vector);
        if (g.vendor != "NVIDIA" || fp32 <= 0)
            return std::nullopt;
        double cores = numberBefore(g.chip, "CUDA cores");
        if (cores <= 0) {
            // FP32 lanes per SM: 64 on GA100, GP100, Volta and Turing; 128 on Hopper, Ada, Blackwell and GA10x.
            const bool narrow = g.chip.rfind("GA100", 0) == 0 || g.chip.rfind("GP100", 0) == 0
                || g.architecture == "Volta" || g.architecture == "Turing";
            cores = numberBefore(g.chip, "SMs") * (narrow ? 64.0 : 128.0);
        }
        if (cores <= 0)
            return std::nullopt;
        return fp32 / (2.0 * cores);
    }

    namespace {
        // llama.cpp's graph (llm_build_llama, src/llama.cpp, builds 1680-2837) and the CUDA kernels each node runs
        // (ggml_cuda_mul_mat in ggml-cuda.cu of those builds): RMS norm then the weight's mul; ggml_rope on Q and K;
        // K and V copied into the cache; without -fa: KQ, soft_max_ext, KQV and the cont of the merged heads (with
        // -fa: flash_attn_ext). KQ and KQV go to ggml_cuda_mul_mat_batched_cublas: the activations converted to F16,
        // cublasGemmStridedBatchedEx (under GQA's broadcast k_compute_batched_ptrs, then cublasGemmBatchedEx), the
        // F16 result converted to F32. A quantized weight's mat-vec first quantizes the activations to q8_1, then
        // mul_mat_vec_q; an F16 weight's is, in build 1680 (CUDA_USE_TENSOR_CORES, Dec 2023), the same batched
        // cuBLAS path with its two conversions, and in build 2837 (May 2024) dequantize_mul_mat_vec, one kernel.
        OpLaunches llamaCpp(InferenceEngine e, std::string_view op, bool quantized, bool gqa)
        {
            const double batchedCublas = gqa ? 4.0 : 3.0;
            if (op == "attn_norm" || op == "ffn_norm" || op == "final_norm" || op == "rope" || op == "kv_cache_write"
                || op == "act_mul")
                return { 2, 2 };
            if (op == "qk_matmul")
                return { batchedCublas, 1 };
            if (op == "sv_matmul")
                return { batchedCublas + 1, 2 }; // KQV, then the cont of the merged heads
            if (op == "attention" || op == "softmax" || op == "residual_add" || op == "activation" || op == "embedding")
                return { 1, 1 };
            if (quantized) // a projection or lm_head
                return { 2, 1 };
            return { e == InferenceEngine::LlamaCppNoGraphs ? 3.0 : 1.0, 1.0 };
        }

        // transformers' LlamaForCausalLM in eager PyTorch (modeling_llama.py, 4.4x-5.x): LlamaRMSNorm is to(fp32),
        // pow, mean, add, rsqrt, mul, to(dtype), mul; apply_rotary_pos_emb is q*cos + rotate_half(q)*sin for Q and K
        // (slices, neg, cat); DynamicCache.update concatenates K and V; repeat_kv copies them under GQA; SDPA, then
        // transpose and reshape; the head reads the last position and casts the logits to FP32.
        OpLaunches eager(std::string_view op, bool gqa)
        {
            if (op == "attn_norm" || op == "ffn_norm" || op == "final_norm")
                return { 8, 8 };
            if (op == "q_proj" || op == "k_proj" || op == "v_proj")
                return { 1, 3 };
            if (op == "qkv_proj")
                return { 1, 4 };
            if (op == "rope")
                return { 10, 16 };
            if (op == "kv_cache_write")
                return { 2, 2 };
            if (op == "attention")
                return { gqa ? 4.0 : 2.0, gqa ? 7.0 : 3.0 };
            if (op == "qk_matmul")
                return { gqa ? 3.0 : 1.0, gqa ? 5.0 : 1.0 };
            if (op == "softmax")
                return { 3, 4 };
            if (op == "sv_matmul")
                return { 2, 3 };
            if (op == "o_proj")
                return { 1, 2 };
            if (op == "act_mul")
                return { 2, 2 };
            if (op == "lm_head")
                return { 2, 3 };
            return { 1, 1 }; // residual_add, gate/up/down, activation, embedding
        }
    } // namespace

    OpLaunches launchesOf(InferenceEngine e, std::string_view op, bool quantized, bool gqa)
    {
        switch (e) {
        case InferenceEngine::LlamaCpp:
        case InferenceEngine::LlamaCppNoGraphs:
            return llamaCpp(e, op, quantized, gqa);
        case InferenceEngine::Transformers:
            return eager(op, gqa);
        default:
            return {};
        }
    }

} // namespace detail

} // namespace headroom
