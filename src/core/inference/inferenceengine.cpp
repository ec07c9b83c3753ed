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
    // Above 32 rows (MMQ_MAX_BATCH_SIZE) builds 1680-2837 multiply a weight in cuBLAS when the GPU has tensor cores
    // (ggml_cuda_mul_mat: "when tensor cores are available, use them for large batch size", PR #3776, Oct 2023):
    // ggml_cuda_op_mul_mat_cublas dequantizes a quantized weight to F16 (to_fp16_cuda), converts the F32 activations
    // to F16, runs cublasGemmEx with CUBLAS_COMPUTE_16F and converts the F16 result to F32. Those GEMMs reach 0.53
    // of the tensor cores' FP16-accumulate rate: fitted by least squares on the relative error to the pp512 rates of
    // Llama 3 8B Q4_K_M on 11 GPUs (XiongjieDai's May 2024 tables, build 2837); the F16 rows and the pp4096 rates are
    // held out (docs/references/decode-speed.md sec. 5).
    constexpr double kLlamaCppCublasAboveRows = 32.0;
    constexpr double kLlamaCppCublasGemm = 0.53;
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
            c.cublasAboveRows = kLlamaCppCublasAboveRows;
            c.cublasGemmEfficiency = kLlamaCppCublasGemm;
            c.reservesContext = true;
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

    std::optional<double> fp16AccumulateFlopsPerSecond(const GpuSpec& g)
    {
        const auto clock = boostClockHz(g);
        const double sms = numberBefore(g.chip, "SMs");
        if (!clock || sms <= 0)
            return std::nullopt;
        // Dense FP16 FLOPs per SM and cycle with FP16 accumulation, from NVIDIA's whitepapers: Volta and Turing 1024
        // (V100 125 TFLOPS = 80 SMs x 1.53 GHz x 1024); GA100 2048 (A100 312 = 108 x 1.41 x 2048); GA10x and AD10x
        // 1024 (RTX 3090 142 "with FP16 accumulate" = 82 x 1.695 x 1024, RTX 4090 330 = 128 x 2.52 x 1024; GeForce
        // halves only FP32 accumulation). Hopper's 4096 (H100 SXM 989 = 132 x 1.83 x 4096) is the rate of its
        // warpgroup instruction (wgmma); counted at Ampere's 2048 per SM, the rate of the mma.sync instruction the
        // sm_80 kernels issue, as the H100 PCIe's pp512 rates (its F16 row held out) show those builds' GEMMs running
        // (docs/references/decode-speed.md sec. 5). Blackwell and other vendors: not known.
        const std::string& cc = g.computeCapability;
        double perCycle = 0.0;
        if (cc.rfind("7.", 0) == 0 || cc == "8.6" || cc == "8.7" || cc == "8.9")
            perCycle = 1024.0;
        else if (cc == "8.0" || cc == "9.0")
            perCycle = 2048.0;
        if (perCycle <= 0)
            return std::nullopt;
        return sms * *clock * perCycle;
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
        OpLaunches llamaCpp(InferenceEngine e, std::string_view op, bool quantized, bool gqa, bool cublas)
        {
            const double batchedCublas = gqa ? 4.0 : 3.0;
            if (op == "dequantize")
                return { 1, 1 };
            if (op == "convert_f16")
                return { 2, 2 }; // the activations to F16, the result to F32
            if (cublas)
                return { 1, 1 }; // cublasGemmEx
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

    OpLaunches launchesOf(InferenceEngine e, std::string_view op, bool quantized, bool gqa, bool cublas)
    {
        switch (e) {
        case InferenceEngine::LlamaCpp:
        case InferenceEngine::LlamaCppNoGraphs:
            return llamaCpp(e, op, quantized, gqa, cublas);
        case InferenceEngine::Transformers:
            return eager(op, gqa);
        default:
            return {};
        }
    }

} // namespace detail

} // namespace headroom
