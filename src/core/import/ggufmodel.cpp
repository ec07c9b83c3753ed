// A .gguf header as a decoder and its stored tensors. The architecture's keys ("llama.block_count", ...) give the
// sizes; the tensor table says how the blocks are built, so any llama.cpp decoder with the usual tensor names
// (llama, mistral, qwen2, gpt2, ...) is read the same way.

#include "gguf.h"

#include <algorithm>
#include <array>

namespace headroom {

namespace {

    struct NamedRole {
        std::string_view suffix;
        WeightRole role;
    };
    constexpr std::array<NamedRole, 11> kRoles { {
        { "attn_q.weight", WeightRole::Query },
        { "attn_k.weight", WeightRole::Key },
        { "attn_v.weight", WeightRole::Value },
        { "attn_qkv.weight", WeightRole::Qkv },
        { "attn_output.weight", WeightRole::AttentionOutput },
        { "ffn_gate.weight", WeightRole::Gate },
        { "ffn_up.weight", WeightRole::Up },
        { "ffn_down.weight", WeightRole::Down },
        { "token_embd.weight", WeightRole::TokenEmbedding },
        { "position_embd.weight", WeightRole::PositionEmbedding },
        { "output.weight", WeightRole::Output },
    } };

    bool endsWith(std::string_view s, std::string_view suffix)
    {
        return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
    }

    WeightRole roleOf(const GgufTensor& t)
    {
        if (t.dims.size() >= 2)
            for (const NamedRole& r : kRoles)
                if (endsWith(t.name, r.suffix) && (r.role != WeightRole::Output || t.name == "output.weight"))
                    return r.role;
        return WeightRole::Vector;
    }

    int layerOf(std::string_view name)
    {
        if (name.substr(0, 4) != "blk.")
            return -1;
        int layer = 0;
        std::size_t i = 4;
        for (; i < name.size() && name[i] >= '0' && name[i] <= '9' && layer < (1 << 20); ++i)
            layer = layer * 10 + (name[i] - '0');
        return i > 4 ? layer : -1;
    }

    bool has(const GgufFile& f, std::string_view name)
    {
        return std::any_of(f.tensors.begin(), f.tensors.end(), [&](const GgufTensor& t) { return t.name == name; });
    }

    const GgufTensor* find(const GgufFile& f, std::string_view name)
    {
        for (const GgufTensor& t : f.tensors)
            if (t.name == name)
                return &t;
        return nullptr;
    }

} // namespace

std::string ggufFileTypeName(std::int64_t fileType)
{
    // enum llama_ftype (include/llama.h).
    switch (fileType) {
    case 0:
        return "F32";
    case 1:
        return "F16";
    case 2:
        return "Q4_0";
    case 3:
        return "Q4_1";
    case 7:
        return "Q8_0";
    case 8:
        return "Q5_0";
    case 9:
        return "Q5_1";
    case 10:
        return "Q2_K";
    case 11:
        return "Q3_K_S";
    case 12:
        return "Q3_K_M";
    case 13:
        return "Q3_K_L";
    case 14:
        return "Q4_K_S";
    case 15:
        return "Q4_K_M";
    case 16:
        return "Q5_K_S";
    case 17:
        return "Q5_K_M";
    case 18:
        return "Q6_K";
    case 25:
        return "IQ4_NL";
    case 30:
        return "IQ4_XS";
    case 32:
        return "BF16";
    default:
        return "type " + std::to_string(fileType);
    }
}

Expected<ModelSpec> ggufModel(const GgufFile& f, std::string_view id, std::string_view origin)
{
    const std::string a = f.architecture;
    if (a.empty())
        return Error { std::string(origin), "general.architecture", "missing" };
    auto key = [&](const char* name) {
        auto it = f.integers.find(a + "." + name);
        return it == f.integers.end() ? std::int64_t(-1) : it->second;
    };
    const GgufTensor* embedding = find(f, "token_embd.weight");
    if (!embedding || embedding->dims.size() != 2)
        return Error { std::string(origin), "token_embd.weight", "the file has no 2-D token embedding: not a decoder" };
    if (key("expert_count") > 0 || find(f, "blk.0.ffn_gate_inp.weight"))
        return Error { std::string(origin), a + ".expert_count",
                       "a mixture-of-experts GGUF file: serving one is not modelled yet (import its Hugging Face "
                       "config.json to simulate its training)" };
    ModelSpec m;
    m.id = std::string(id);
    m.name = f.strings.count("general.name") ? f.strings.at("general.name") : std::string(id);
    m.description = "Read from the GGUF header of " + std::string(origin) + " (" + a + ").";
    TransformerSpec& t = m.transformer;
    const std::int64_t layers = key("block_count");
    const std::int64_t hidden = key("embedding_length");
    const std::int64_t heads = key("attention.head_count");
    const std::int64_t ffn = key("feed_forward_length");
    const std::pair<const char*, std::int64_t> required[] = { { "block_count", layers },
                                                              { "embedding_length", hidden },
                                                              { "attention.head_count", heads },
                                                              { "feed_forward_length", ffn } };
    for (const auto& [name, value] : required)
        if (value < 1 || value > kMaxModelWidth)
            return Error { std::string(origin), a + "." + name, value < 0 ? "missing" : "out of range" };
    if (layers > kMaxModelLayers || hidden % heads != 0 || std::int64_t(embedding->dims[0]) != hidden)
        return Error { std::string(origin), a + ".embedding_length",
                       "does not match the layers, heads or token_embd.weight" };
    t.layers = int(layers);
    t.hidden = int(hidden);
    t.heads = int(heads);
    const std::int64_t kv = key("attention.head_count_kv");
    t.kvHeads = kv > 0 && heads % kv == 0 ? int(kv) : t.heads;
    const std::int64_t headDim = key("attention.key_length");
    t.headDim = headDim > 0 && headDim <= kMaxModelWidth ? int(headDim) : 0;
    t.ffn = int(ffn);
    t.vocab = std::int64_t(std::min<std::uint64_t>(embedding->dims[1], std::uint64_t(kMaxModelVocab)));
    const std::int64_t context = key("context_length");
    t.maxPositions = context > 0 ? context : 2048;
    t.causal = true;
    t.preNorm = true;
    t.norm = f.floats.count(a + ".attention.layer_norm_rms_epsilon") ? NormKind::RMSNorm : NormKind::LayerNorm;
    t.normBias = has(f, "blk.0.attn_norm.bias");
    t.gatedFfn = has(f, "blk.0.ffn_gate.weight");
    t.activation = t.gatedFfn ? Activation::Silu : Activation::GeluTanh;
    t.fusedQkv = has(f, "blk.0.attn_qkv.weight");
    t.qkvBias = has(f, "blk.0.attn_q.bias") || has(f, "blk.0.attn_qkv.bias");
    t.outBias = has(f, "blk.0.attn_output.bias");
    t.ffnBias = has(f, "blk.0.ffn_up.bias");
    t.position = has(f, "position_embd.weight")
        ? PositionKind::Learned
        : (key("rope.dimension_count") > 0 ? PositionKind::Rotary : PositionKind::None);
    t.finalNorm = has(f, "output_norm.weight");
    t.tiedEmbeddings = !has(f, "output.weight");
    t.head = HeadKind::CausalLM;
    double parameters = 0.0;
    for (const GgufTensor& x : f.tensors)
        parameters += x.elements();
    m.reference.implementation = "llama.cpp " + a;
    m.reference.parameters = std::int64_t(parameters);
    m.reference.parametersSource = "sum of the tensor shapes in the GGUF header";
    m.defaultSequence = int(std::min<std::int64_t>(t.maxPositions, 4096));
    return m;
}

InferenceWeights ggufWeights(const GgufFile& f, int tensorParallel)
{
    const double tp = std::max(1, tensorParallel);
    // K and V are replicated once the ranks outnumber the KV heads (as in inferenceWeights).
    const auto kvKey = f.integers.find(f.architecture + ".attention.head_count_kv");
    const int kvHeads = kvKey != f.integers.end() && kvKey->second > 0 && kvKey->second <= kMaxModelWidth
        ? int(kvKey->second)
        : int(tp);
    const double kvShare = double(kvHeadsPerRank(kvHeads, int(tp))) / kvHeads;
    InferenceWeights w;
    for (const GgufTensor& t : f.tensors) {
        WeightTensor x;
        x.name = t.name;
        x.role = roleOf(t);
        x.layer = layerOf(t.name);
        x.cols = std::int64_t(t.dims[0]);
        x.rows = std::int64_t(t.elements() / double(std::max<std::uint64_t>(1, t.dims[0])));
        x.ggml = t.type;
        x.sharded = x.role != WeightRole::Vector && x.role != WeightRole::PositionEmbedding;
        const bool kv = x.role == WeightRole::Key || x.role == WeightRole::Value;
        x.bytes = double(t.bytes) * (kv ? kvShare : (x.sharded ? 1.0 / tp : 1.0));
        x.onHost = x.role == WeightRole::TokenEmbedding;
        w.parameters += t.elements();
        (x.onHost ? w.hostBytes : w.bytes) += x.bytes;
        if (x.onHost && !has(f, "output.weight"))
            w.bytes += x.bytes; // the tied output: llama.cpp duplicates the embedding onto the GPU
        w.tensors.push_back(std::move(x));
    }
    const auto type = f.integers.find("general.file_type");
    w.format = "gguf " + (type != f.integers.end() ? ggufFileTypeName(type->second) : std::string("file"));
    return w;
}

} // namespace headroom
