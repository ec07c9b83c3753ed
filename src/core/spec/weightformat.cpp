#include "weightformat.h"

#include <array>
#include <cmath>

namespace headroom {

namespace {

    // ggml-common.h block structs; bytes = the sum of their fields (d/dmin are ggml_half, 2 bytes).
    constexpr std::array<GgmlTypeInfo, kGgmlTypeCount> kGgml { {
        { "f32", 0, 1, 4 },         { "f16", 1, 1, 2 },  { "bf16", 30, 1, 2 }, { "q4_0", 2, 32, 18 }, // d + qs[16]
        { "q4_1", 3, 32, 20 },                                                                        // d, m + qs[16]
        { "q5_0", 6, 32, 22 },      // d + qh[4] + qs[16]
        { "q5_1", 7, 32, 24 },      // d, m + qh[4] + qs[16]
        { "q8_0", 8, 32, 34 },      // d + qs[32]
        { "q2_K", 10, 256, 84 },    // scales[16] + qs[64] + d, dmin
        { "q3_K", 11, 256, 110 },   // hmask[32] + qs[64] + scales[12] + d
        { "q4_K", 12, 256, 144 },   // d, dmin + scales[12] + qs[128]
        { "q5_K", 13, 256, 176 },   // d, dmin + scales[12] + qh[32] + qs[128]
        { "q6_K", 14, 256, 210 },   // ql[128] + qh[64] + scales[16] + d
        { "iq4_nl", 20, 32, 18 },   // d + qs[16]
        { "iq4_xs", 23, 256, 136 }, // d + scales_h + scales_l[4] + qs[128]
        { "i8", 24, 1, 1 },         { "i16", 25, 1, 2 }, { "i32", 26, 1, 4 },  { "f64", 28, 1, 8 },
    } };

    struct FormatName {
        WeightFormat format;
        std::string_view name;
    };
    constexpr std::array<FormatName, 17> kFormatNames { {
        { WeightFormat::Fp32, "fp32" },
        { WeightFormat::Fp16, "fp16" },
        { WeightFormat::Bf16, "bf16" },
        { WeightFormat::Fp8, "fp8" },
        { WeightFormat::Int8, "int8" },
        { WeightFormat::Gptq4, "gptq-4bit" },
        { WeightFormat::Awq4, "awq-4bit" },
        { WeightFormat::Nf4, "nf4" },
        { WeightFormat::GgufQ8_0, "gguf-q8_0" },
        { WeightFormat::GgufQ6_K, "gguf-q6_k" },
        { WeightFormat::GgufQ5_K_M, "gguf-q5_k_m" },
        { WeightFormat::GgufQ5_0, "gguf-q5_0" },
        { WeightFormat::GgufQ4_K_M, "gguf-q4_k_m" },
        { WeightFormat::GgufQ4_0, "gguf-q4_0" },
        { WeightFormat::GgufQ3_K_M, "gguf-q3_k_m" },
        { WeightFormat::GgufQ2_K, "gguf-q2_k" },
        { WeightFormat::GgufIq4_XS, "gguf-iq4_xs" },
    } };

    double ceilDiv(double a, double b) { return std::ceil(a / b); }

    // The type every tensor of a preset starts from (llama_model_quantize_impl's default_type).
    GgmlType presetDefault(WeightFormat f)
    {
        switch (f) {
        case WeightFormat::GgufQ8_0:
            return GgmlType::Q8_0;
        case WeightFormat::GgufQ6_K:
            return GgmlType::Q6_K;
        case WeightFormat::GgufQ5_K_M:
            return GgmlType::Q5_K;
        case WeightFormat::GgufQ5_0:
            return GgmlType::Q5_0;
        case WeightFormat::GgufQ4_K_M:
            return GgmlType::Q4_K;
        case WeightFormat::GgufQ4_0:
            return GgmlType::Q4_0;
        case WeightFormat::GgufQ3_K_M:
            return GgmlType::Q3_K;
        case WeightFormat::GgufQ2_K:
            return GgmlType::Q2_K;
        case WeightFormat::GgufIq4_XS:
            return GgmlType::IQ4_XS;
        default:
            return GgmlType::F16;
        }
    }

    // llama.cpp's use_more_bits: the first and last eighth of the layers and every third one between.
    bool useMoreBits(int layer, int layers)
    {
        return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
    }

    GgmlType attentionValueType(WeightFormat f, GgmlType t, int layer, int layers, int gqa)
    {
        using W = WeightFormat;
        if (f == W::GgufQ2_K)
            t = gqa >= 4 ? GgmlType::Q4_K : GgmlType::Q3_K;
        else if (f == W::GgufQ3_K_M)
            t = layer < 2 ? GgmlType::Q5_K : GgmlType::Q4_K;
        else if (f == W::GgufIq4_XS && gqa >= 4)
            t = GgmlType::Q5_K;
        else if ((f == W::GgufQ4_K_M || f == W::GgufQ5_K_M) && useMoreBits(layer, layers))
            t = GgmlType::Q6_K;
        // LLM_TYPE_70B (80 layers): eight heads share attn_v, so 5 bits cost almost nothing.
        if (layers == 80 && (t == GgmlType::Q3_K || t == GgmlType::Q4_K))
            t = GgmlType::Q5_K;
        return t;
    }

    GgmlType ffnDownType(WeightFormat f, GgmlType t, int layer, int layers)
    {
        using W = WeightFormat;
        if (f == W::GgufQ2_K)
            return GgmlType::Q3_K;
        if (f == W::GgufQ3_K_M)
            return layer < layers / 16 ? GgmlType::Q5_K : GgmlType::Q4_K; // llama.cpp's Falcon exception aside
        if ((f == W::GgufQ4_K_M || f == W::GgufQ5_K_M) && useMoreBits(layer, layers))
            return GgmlType::Q6_K;
        if (f == W::GgufIq4_XS && layer < layers / 8)
            return GgmlType::Q5_K; // without an importance matrix
        return t;
    }

    bool isKQuant(GgmlType t)
    {
        return t == GgmlType::Q2_K || t == GgmlType::Q3_K || t == GgmlType::Q4_K || t == GgmlType::Q5_K
            || t == GgmlType::Q6_K || t == GgmlType::IQ4_XS;
    }

    // tensor_type_fallback (llama-quant.cpp @007dbbf): a row that is not a whole number of 256-blocks.
    GgmlType fallback(GgmlType t)
    {
        switch (t) {
        case GgmlType::Q2_K:
        case GgmlType::Q3_K:
            return GgmlType::Q4_0;
        case GgmlType::IQ4_XS:
            return GgmlType::IQ4_NL;
        case GgmlType::Q4_K:
            return GgmlType::Q5_0;
        case GgmlType::Q5_K:
            return GgmlType::Q5_1;
        case GgmlType::Q6_K:
            return GgmlType::Q8_0;
        default:
            return t;
        }
    }

} // namespace

const GgmlTypeInfo& ggmlTypeInfo(GgmlType t) { return kGgml[std::size_t(t)]; }

std::optional<GgmlType> ggmlTypeFromId(std::uint32_t id)
{
    for (std::size_t i = 0; i < kGgml.size(); ++i)
        if (kGgml[i].id == id)
            return GgmlType(i);
    return std::nullopt;
}

double ggmlBytes(GgmlType t, double elements)
{
    const GgmlTypeInfo& info = ggmlTypeInfo(t);
    return ceilDiv(elements, info.blockElements) * info.blockBytes;
}

std::string_view toString(WeightFormat f) { return kFormatNames[std::size_t(f)].name; }

std::optional<WeightFormat> weightFormatFromString(std::string_view s)
{
    for (const FormatName& n : kFormatNames)
        if (n.name == s)
            return n.format;
    return std::nullopt;
}

bool isGguf(WeightFormat f) { return f >= WeightFormat::GgufQ8_0; }

int defaultGroupSize(WeightFormat f) { return f == WeightFormat::Nf4 ? 64 : 128; }

double quantizedLinearBytes(WeightFormat f, std::int64_t rows, std::int64_t cols, int groupSize)
{
    const double out = double(rows);
    const double in = double(cols);
    const double n = out * in;
    const double g = groupSize > 0 ? groupSize : defaultGroupSize(f);
    switch (f) {
    case WeightFormat::Fp32:
        return 4 * n;
    case WeightFormat::Fp16:
    case WeightFormat::Bf16:
        return 2 * n;
    case WeightFormat::Fp8:
        return n + 4; // one fp32 scale per tensor
    case WeightFormat::Int8:
        return n + 4 * out; // Int8Params CB and its fp32 row statistics SCB
    case WeightFormat::Gptq4:
        // qweight int32 [in/8, out], qzeros int32 [groups, out/8], scales fp16 [groups, out], g_idx int32 [in]
        return n / 2 + ceilDiv(in, g) * out / 2 + 2 * ceilDiv(in, g) * out + 4 * in;
    case WeightFormat::Awq4:
        return n / 2 + ceilDiv(in, g) * out / 2 + 2 * ceilDiv(in, g) * out;
    case WeightFormat::Nf4: {
        // Two weights per byte; one absmax per block of g, itself quantized to 8 bits in blocks of 256 with an
        // fp32 constant per block (Dettmers et al. 2023 sec. 3: 4 + 8/64 + 32/(64*256) = 4.127 bits).
        const double blocks = ceilDiv(n, g);
        return std::ceil(n / 2) + blocks + 4 * ceilDiv(blocks, 256);
    }
    default:
        return ggmlBytes(presetDefault(f), n); // a GGUF preset's base type; ggufTensorType has the mix
    }
}

GgmlType ggufTensorType(WeightFormat preset, WeightRole role, int layer, int layers, std::int64_t cols, int gqa)
{
    if (role == WeightRole::Vector)
        return GgmlType::F32; // convert_hf_to_gguf writes norms and biases as F32; the quantizer skips 1-D tensors
    GgmlType t = presetDefault(preset);
    switch (role) {
    case WeightRole::Output:
        // Q6_K unless the preset is Q8_0; a row that is not whole 256-blocks gets Q8_0.
        if (cols % 256 != 0)
            return GgmlType::Q8_0;
        return t == GgmlType::Q8_0 ? t : GgmlType::Q6_K;
    case WeightRole::Value:
        t = attentionValueType(preset, t, layer, layers, gqa);
        break;
    case WeightRole::Down:
        t = ffnDownType(preset, t, layer, layers);
        break;
    case WeightRole::AttentionOutput:
        if (preset == WeightFormat::GgufQ2_K)
            t = GgmlType::Q3_K;
        else if (preset == WeightFormat::GgufQ3_K_M)
            t = GgmlType::Q4_K;
        break;
    case WeightRole::Qkv:
        if (preset == WeightFormat::GgufQ3_K_M)
            t = GgmlType::Q4_K;
        else if (preset == WeightFormat::GgufQ4_K_M)
            t = GgmlType::Q5_K;
        else if (preset == WeightFormat::GgufQ5_K_M)
            t = GgmlType::Q6_K;
        break;
    default:
        break;
    }
    if (isKQuant(t) && cols % 256 != 0)
        t = fallback(t);
    return t;
}

std::string_view toString(KvCacheType t)
{
    constexpr std::array<std::string_view, 5> names { "fp16", "fp8", "int8", "q8_0", "q4_0" };
    return names[std::size_t(t)];
}

std::optional<KvCacheType> kvCacheTypeFromString(std::string_view s)
{
    for (int i = 0; i < 5; ++i)
        if (toString(KvCacheType(i)) == s)
            return KvCacheType(i);
    return std::nullopt;
}

double kvBytesPerElement(KvCacheType t)
{
    switch (t) {
    case KvCacheType::Fp16:
        return 2.0;
    case KvCacheType::Fp8:
    case KvCacheType::Int8:
        return 1.0;
    case KvCacheType::Q8_0:
        return ggmlTypeInfo(GgmlType::Q8_0).bitsPerWeight() / 8;
    case KvCacheType::Q4_0:
        return ggmlTypeInfo(GgmlType::Q4_0).bitsPerWeight() / 8;
    }
    return 2.0;
}

} // namespace headroom
