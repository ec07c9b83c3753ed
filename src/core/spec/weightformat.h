#pragma once

// How inference engines store weights and the KV cache, byte for byte. ggml's block layouts (ggml-common.h), the
// Hugging Face quantizers' buffers (AutoGPTQ QuantLinear, AutoAWQ WQLinear, bitsandbytes Linear4bit / Linear8bitLt)
// and the per-tensor type mix llama.cpp's quantizer gives each GGUF preset. Sources: docs/references/inference.md.

#include <cstdint>
#include <optional>
#include <string_view>

namespace headroom {

// The ggml tensor types a .gguf file can hold; `id` is ggml's enum ggml_type value (the tensor table stores it).
enum class GgmlType : std::uint8_t {
    F32,
    F16,
    BF16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q2_K,
    Q3_K,
    Q4_K,
    Q5_K,
    Q6_K,
    IQ4_NL,
    IQ4_XS,
    I8,
    I16,
    I32,
    F64,
};
inline constexpr int kGgmlTypeCount = 19;

struct GgmlTypeInfo {
    std::string_view name; // as llama.cpp prints it: "q4_K"
    std::uint32_t id = 0;  // enum ggml_type
    int blockElements = 1; // weights per block
    int blockBytes = 4;    // bytes per block

    double bitsPerWeight() const { return 8.0 * blockBytes / blockElements; }
};

const GgmlTypeInfo& ggmlTypeInfo(GgmlType t);
std::optional<GgmlType> ggmlTypeFromId(std::uint32_t id);

// Bytes of `elements` weights stored as `t`; rows must hold whole blocks (ggml refuses otherwise), so callers
// check `elementsPerRow % blockElements` first.
double ggmlBytes(GgmlType t, double elements);

// The weight formats `headroom infer --weights` offers.
enum class WeightFormat : std::uint8_t {
    Fp32,
    Fp16,
    Bf16,
    Fp8,   // per-tensor scaled FP8 (vLLM / TensorRT-LLM "fp8")
    Int8,  // bitsandbytes LLM.int8(): int8 weights and one fp32 scale per output row
    Gptq4, // AutoGPTQ 4-bit, group size g: qweight, qzeros, scales, g_idx
    Awq4,  // AutoAWQ 4-bit GEMM, group size g: qweight, qzeros, scales
    Nf4,   // bitsandbytes NF4, block 64, double-quantized absmax (the QLoRA recipe)
    GgufQ8_0,
    GgufQ6_K,
    GgufQ5_K_M,
    GgufQ5_0,
    GgufQ4_K_M,
    GgufQ4_0,
    GgufQ3_K_M,
    GgufQ2_K,
    GgufIq4_XS,
};

std::string_view toString(WeightFormat f);
std::optional<WeightFormat> weightFormatFromString(std::string_view s);
bool isGguf(WeightFormat f);
inline constexpr std::string_view kWeightFormatChoices
    = "fp32, fp16, bf16, fp8, int8, gptq-4bit, awq-4bit, nf4, gguf-q8_0, gguf-q6_k, gguf-q5_k_m, gguf-q5_0, "
      "gguf-q4_k_m, gguf-q4_0, gguf-q3_k_m, gguf-q2_k, gguf-iq4_xs";

// Bytes of one rows x cols Linear weight (rows = output features) in a Hugging Face format. `groupSize` is the
// GPTQ/AWQ group (128 by default) or the NF4 block (64).
double quantizedLinearBytes(WeightFormat f, std::int64_t rows, std::int64_t cols, int groupSize);
int defaultGroupSize(WeightFormat f);

// The role of a tensor in a decoder, as llama.cpp's quantizer tells them apart.
enum class WeightRole : std::uint8_t {
    TokenEmbedding,
    PositionEmbedding,
    Query,
    Key,
    Value,
    Qkv, // fused (GPT-2 c_attn)
    AttentionOutput,
    Gate,
    Up,
    Down,
    Output, // lm_head
    Vector, // norm weights and biases: 1-D
};

// The ggml type llama.cpp's quantizer (llama_tensor_get_type) gives a 2-D tensor of a GGUF preset, for a model
// without experts. `cols` is the row length (in features); a type whose block does not divide it falls back as
// llama.cpp does. `layer` is -1 for tensors outside the blocks.
GgmlType ggufTensorType(WeightFormat preset, WeightRole role, int layer, int layers, std::int64_t cols, int gqa);

// The KV cache element formats.
enum class KvCacheType : std::uint8_t { Fp16, Fp8, Int8, Q8_0, Q4_0 };
std::string_view toString(KvCacheType t);
std::optional<KvCacheType> kvCacheTypeFromString(std::string_view s);
double kvBytesPerElement(KvCacheType t);

} // namespace headroom
