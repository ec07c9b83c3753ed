#pragma once

// Serving a decoder-only language model: the weights in their stored format, the KV cache, the transient
// activations of prefill and decode, and the roofline time of both phases. One forward pass per phase, operator by
// operator as the engines run it (fused dequantizing kernels, FlashAttention or eager attention, logits of the last
// token only), with the engine's floor under every kernel and host time (inferenceengine.h). Formulas and sources:
// docs/formulas.md sec. 8 and docs/references/inference.md. Callers go through simulateInference() (simulate.h).

#include "error.h"
#include "gpuspec.h"
#include "modelspec.h"
#include "timemodel.h"
#include "trainingconfig.h"
#include "weightformat.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

inline constexpr std::int64_t kMaxInferenceBatch = std::int64_t(1) << 30;

// The program that runs the model, which sets the time the roofline leaves out (docs/inference.md sec. 4): a floor
// under every kernel, the bandwidth its mat-vec kernels reach and the host's time per token. Auto: llama.cpp for a
// GGUF format, the roofline for the others.
enum class InferenceEngine : std::uint8_t {
    Auto,
    Roofline,         // every operator on the roofline, no floors, no host: an ideal engine replaying CUDA graphs
    LlamaCpp,         // llama.cpp with CUDA graphs, as build 2837 (May 2024) runs: F16 mat-vecs by dmmv
    LlamaCppNoGraphs, // llama.cpp launching each kernel, as build 1680 (Dec 2023) runs: F16 mat-vecs by cuBLAS
    Transformers,     // Hugging Face transformers' generate() in eager PyTorch
};
std::string_view toString(InferenceEngine e);
std::optional<InferenceEngine> inferenceEngineFromString(std::string_view s);
inline constexpr std::string_view kInferenceEngineChoices
    = "auto, roofline, llama.cpp, llama.cpp-no-graphs, transformers";
inline constexpr std::int64_t kMaxInferenceTokens = std::int64_t(1) << 30;

struct InferenceConfig {
    std::int64_t batch = 1;      // sequences decoded together
    std::int64_t prompt = 512;   // tokens per sequence read in the prefill
    std::int64_t generate = 128; // tokens per sequence generated, one decode step each
    WeightFormat weights = WeightFormat::Fp16;
    int groupSize = 0; // GPTQ/AWQ group, NF4 block; 0 = the format's default (128, 64)
    KvCacheType kvCache = KvCacheType::Fp16;
    int tensorParallel = 1;
    AttentionImpl attention = AttentionImpl::Fused;
    InferenceEngine engine = InferenceEngine::Auto;
    int kvBlockTokens = 16;         // vLLM's paged block; the cache grows a block at a time (1: contiguous)
    double memoryUtilization = 1.0; // vLLM gpu_memory_utilization: the rest of the capacity is the engine's reserve
    std::optional<double> overheadBytes; // CUDA context and workspaces; default: the GPU file's
};

// The weights a training scenario's model is served in, where the user has not picked a format: a QLoRA base as it
// was loaded, in NF4 (bitsandbytes' Linear4bit serves as it trains; the adapter is merged or kept beside it); BF16
// where the model itself is BF16 (model.to(torch.bfloat16)); FP16 otherwise, the usual serving format
// (from_pretrained(torch_dtype=torch.float16)).
inline WeightFormat servingWeights(const TrainingConfig& c)
{
    if (c.finetune.method == FinetuneMethod::QLoRA)
        return WeightFormat::Nf4;
    return c.precision == Precision::PureBF16 ? WeightFormat::Bf16 : WeightFormat::Fp16;
}

// What serving covers: decoder-only language models with a causal-LM head.
inline bool servable(const ModelSpec& model)
{
    const TransformerSpec& t = model.transformer;
    return model.family == ModelFamily::Transformer && t.input == InputKind::Tokens && t.causal
        && t.head == HeadKind::CausalLM;
}

// The longest context (prompt + generated tokens) a servable model takes: the positions it learned, where its
// positions are learned (GPT-2's 1024); none where they are computed (rotary, ALiBi).
inline std::optional<std::int64_t> servingContextLimit(const ModelSpec& model)
{
    if (!servable(model) || model.transformer.position != PositionKind::Learned)
        return std::nullopt;
    return model.transformer.maxPositions;
}

// The key/value heads each tensor-parallel rank holds: vLLM splits them over the ranks and replicates them once the
// ranks outnumber them, so each rank has max(kv / tp, 1).
inline int kvHeadsPerRank(int kvHeads, int tensorParallel)
{
    return std::max(1, std::max(1, kvHeads) / std::max(1, tensorParallel));
}

// Checks ranges; names the field (`origin` is "command line" or a file) on failure.
std::optional<Error> validateInferenceConfig(const InferenceConfig& c, std::string_view origin);

// One stored tensor of the model on one tensor-parallel rank.
struct WeightTensor {
    std::string name; // GGUF naming: "blk.3.attn_v.weight"
    WeightRole role = WeightRole::Vector;
    int layer = -1;                // -1 outside the blocks
    std::int64_t rows = 1;         // output features (1 for a vector)
    std::int64_t cols = 1;         // input features, the row length
    double bytes = 0.0;            // on this rank
    GgmlType ggml = GgmlType::F16; // the stored type where it is a ggml type (GGUF presets and files)
    bool sharded = false;          // split over the tensor-parallel ranks
    bool onHost = false;           // llama.cpp keeps the input embedding in host memory
};

// The tensors a decoder stores in a weight format, and the parameter count (all ranks; each tensor once, tied
// embeddings once). A GGUF file gives its own tensor table instead (gguf.h).
struct InferenceWeights {
    std::vector<WeightTensor> tensors;
    double parameters = 0.0;
    double bytes = 0.0;     // in GPU memory, on one rank
    double hostBytes = 0.0; // in host memory (llama.cpp's input embedding)
    std::string format;     // "awq-4bit", or the GGUF file's file type
};
Expected<InferenceWeights> inferenceWeights(const ModelSpec& model, const InferenceConfig& config);

// One operator of a phase, summed over the layers: a roofline point.
struct InferenceOp {
    std::string_view name;  // a literal: "q_proj", "attention", "lm_head"
    std::string_view stage; // "prefill" or "decode"
    OpKind kind = OpKind::Gemm;
    MathUnit unit = MathUnit::Fp16Tensor;
    double flops = 0.0;
    double bytes = 0.0;
    double seconds = 0.0;

    double intensity() const { return bytes > 0 ? flops / bytes : 0.0; }
};

struct InferenceMemory {
    double weights = 0.0;
    double kvCache = 0.0;     // at the peak: the prompt's after prefill, the whole context at the end
    double activations = 0.0; // transient tensors at the peak
    double overhead = 0.0;
    double engineReserve = 0.0; // capacity the engine leaves unused (1 - memoryUtilization)
    double peak = 0.0;          // weights + KV cache + activations + overhead
};

// The peak against the context (prompt + generated tokens, the generated count fixed): the window's chart.
struct InferenceContextPoint {
    std::int64_t context = 0;
    double peakBytes = 0.0;
};

// Something the numbers rest on that the user should know; `kind` is stable for scripts (JSON "kind").
struct InferenceWarning {
    enum class Kind : std::uint8_t {
        UnitFallback,    // no tensor unit for the weights' type: the GEMMs are timed on another
        BeyondPositions, // a context past the positions the model was trained for
    };
    Kind kind = Kind::UnitFallback;
    std::string message; // in English
};

// Where the time of one forward pass goes (decode: per token; prefill: the whole prompt). The GPU's part is the
// operators' roofline time plus the kernel floors; the host's (graph building, launches, Python) either adds to
// it (llama.cpp) or runs ahead of it, so that the pass takes the longer of the two (eager PyTorch).
struct InferenceTimeSplit {
    double gpuSeconds = 0.0;         // the kernels, floors included
    double kernelFloorSeconds = 0.0; // of which the per-kernel floors
    double hostSeconds = 0.0;
    double kernels = 0.0;      // launched per pass
    bool hostOverlaps = false; // the host issues ahead of the GPU: the pass takes max(gpu, host), else the sum
    bool hostBound = false;    // the host's part is the longer
    double seconds() const { return hostOverlaps ? std::max(gpuSeconds, hostSeconds) : gpuSeconds + hostSeconds; }
};

// Where the prefill's GPU time goes: its GEMMs (the weights' and, without flash attention, the attention's two
// products) and the rate they run at, and the format conversions of an engine's cuBLAS path (llama.cpp dequantizes a
// quantized weight to F16 and converts the activations and results; inferenceforward.h).
struct PrefillSplit {
    double passes = 1.0;             // the engine's passes over the prompt (llama.cpp: of n_ubatch tokens)
    double gemmSeconds = 0.0;        // floors included
    double gemmFlops = 0.0;          // so gemmFlops / gemmSeconds is the rate reached
    double conversionSeconds = 0.0;  // dequantize and convert_f16
    double cublasRate = 0.0;         // FLOP/s the engine's cuBLAS GEMMs are priced at; 0: the time model's rate
    double fp16AccumulateRate = 0.0; // the tensor cores' FP16-accumulate rate that is a fraction of; 0: not known
};

struct InferenceEstimate {
    EffectiveGpu gpu;
    InferenceConfig config;
    std::string modelId;
    InferenceWeights weights;
    MathUnit unit = MathUnit::Fp16Tensor;               // the compute unit of the GEMMs after fallback
    InferenceEngine engine = InferenceEngine::Roofline; // config.engine resolved
    double clockHz = 0.0;                               // the boost clock the kernel floors are scaled by
    bool clockFromFile = false;                         // derived from the GPU file (else a typical clock)

    InferenceMemory memory;
    std::string_view peakStage = "decode"; // "prefill" or "decode"
    double kvBytesPerToken = 0.0;          // per sequence, on one rank
    double capacityBytes = 0.0;
    bool fits = false;
    std::int64_t maxBatch = 0;   // at this prompt and generation length
    std::int64_t maxContext = 0; // prompt + generated tokens at this batch
    bool maxContextLimitedByModel = false;

    double prefillSeconds = 0.0;
    double decodeSecondsPerToken = 0.0; // averaged over the generated tokens
    double tokensPerSecond = 0.0;       // batch / decodeSecondsPerToken
    double communicationSecondsPerToken = 0.0;
    InferenceTimeSplit decode;  // per token, at the middle of the generation (communication aside)
    InferenceTimeSplit prefill; // the whole prompt (communication aside)
    PrefillSplit prefillSplit;

    std::vector<InferenceContextPoint> memoryByContext; // 48 points up to the model's context (or this one)
    std::vector<InferenceOp> prefillOps;
    std::vector<InferenceOp> decodeOps; // at the middle of the generation
    std::vector<InferenceWarning> warnings;
};

Expected<InferenceEstimate> estimateInference(const ModelSpec& model, const InferenceWeights& weights,
                                              const GpuSpec& gpu, const GpuOverrides& overrides,
                                              const InferenceConfig& config, const Efficiency& efficiency = {});

} // namespace headroom
