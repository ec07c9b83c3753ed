#pragma once

// Writes small .gguf files for the tests (ggml docs/gguf.md, version 3): the header, metadata, tensor table and a
// zero-filled, 32-byte aligned data section of the sizes ggml's block layouts give. Independent of the reader in
// src/core/import/gguf.cpp: the block sizes are written out here from ggml-common.h.

#include <QByteArray>
#include <QString>
#include <QtEndian>

#include <cstdint>
#include <string>
#include <vector>

namespace test {

struct GgufTensorSpec {
    std::string name;
    std::vector<std::uint64_t> dims; // ggml order: row length first
    std::uint32_t type;              // enum ggml_type
};

// ggml-common.h: (elements per block, bytes per block) of the types the fixtures use.
inline std::uint64_t ggufTensorBytes(const GgufTensorSpec& t)
{
    std::uint64_t n = 1;
    for (std::uint64_t d : t.dims)
        n *= d;
    switch (t.type) {
    case 0:
        return n * 4; // F32
    case 1:
        return n * 2; // F16
    case 2:
        return n / 32 * 18; // Q4_0
    case 8:
        return n / 32 * 34; // Q8_0
    case 12:
        return n / 256 * 144; // Q4_K
    case 14:
        return n / 256 * 210; // Q6_K
    default:
        return 0;
    }
}

class GgufWriter {
public:
    void u32(std::uint32_t v) { put(v); }
    void u64(std::uint64_t v) { put(v); }
    void str(const std::string& s)
    {
        u64(s.size());
        m_bytes.append(s.data(), qsizetype(s.size()));
    }
    void keyU32(const std::string& k, std::uint32_t v)
    {
        str(k);
        u32(4);
        u32(v);
        ++m_keys;
    }
    void keyF32(const std::string& k, float v)
    {
        str(k);
        u32(6);
        put(v);
        ++m_keys;
    }
    void keyString(const std::string& k, const std::string& v)
    {
        str(k);
        u32(8);
        str(v);
        ++m_keys;
    }
    void keyStringArray(const std::string& k, int n)
    {
        str(k);
        u32(9);
        u32(8);
        u64(std::uint64_t(n));
        for (int i = 0; i < n; ++i)
            str("tok" + std::to_string(i));
        ++m_keys;
    }

    // The whole file: header counts, the metadata written so far, the tensor table and the data.
    QByteArray file(const std::vector<GgufTensorSpec>& tensors) const
    {
        GgufWriter head;
        head.m_bytes.append("GGUF", 4);
        head.u32(3);
        head.u64(tensors.size());
        head.u64(m_keys);
        head.m_bytes.append(m_bytes);
        std::uint64_t offset = 0;
        for (const GgufTensorSpec& t : tensors) {
            head.str(t.name);
            head.u32(std::uint32_t(t.dims.size()));
            for (std::uint64_t d : t.dims)
                head.u64(d);
            head.u32(t.type);
            head.u64(offset);
            offset += (ggufTensorBytes(t) + 31) / 32 * 32;
        }
        QByteArray out = head.m_bytes;
        out.append(QByteArray((32 - out.size() % 32) % 32, '\0'));
        out.append(QByteArray(qsizetype(offset), '\0'));
        return out;
    }

private:
    template <typename T>
    void put(T v)
    {
        char b[sizeof(T)];
        qToLittleEndian(v, b);
        m_bytes.append(b, sizeof(T));
    }

    QByteArray m_bytes;
    std::uint64_t m_keys = 0;
};

// A two-block Llama in Q4_K_M's mix: 256 wide, 4 heads of 64, 2 KV heads, FFN 512, 512 tokens, untied output.
inline std::vector<GgufTensorSpec> tinyLlamaTensors()
{
    std::vector<GgufTensorSpec> t { { "token_embd.weight", { 256, 512 }, 12 } };
    for (int i = 0; i < 2; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        t.push_back({ b + "attn_norm.weight", { 256 }, 0 });
        t.push_back({ b + "attn_q.weight", { 256, 256 }, 12 });
        t.push_back({ b + "attn_k.weight", { 256, 128 }, 12 });
        t.push_back({ b + "attn_v.weight", { 256, 128 }, 14 });
        t.push_back({ b + "attn_output.weight", { 256, 256 }, 12 });
        t.push_back({ b + "ffn_norm.weight", { 256 }, 0 });
        t.push_back({ b + "ffn_gate.weight", { 256, 512 }, 12 });
        t.push_back({ b + "ffn_up.weight", { 256, 512 }, 12 });
        t.push_back({ b + "ffn_down.weight", { 512, 256 }, 14 });
    }
    t.push_back({ "output_norm.weight", { 256 }, 0 });
    t.push_back({ "output.weight", { 256, 512 }, 14 });
    return t;
}

inline QByteArray tinyLlamaGguf(const std::vector<GgufTensorSpec>& tensors = tinyLlamaTensors())
{
    GgufWriter w;
    w.keyString("general.architecture", "llama");
    w.keyString("general.name", "tiny llama");
    w.keyU32("general.file_type", 15); // LLAMA_FTYPE_MOSTLY_Q4_K_M
    w.keyU32("llama.block_count", 2);
    w.keyU32("llama.embedding_length", 256);
    w.keyU32("llama.feed_forward_length", 512);
    w.keyU32("llama.attention.head_count", 4);
    w.keyU32("llama.attention.head_count_kv", 2);
    w.keyU32("llama.context_length", 2048);
    w.keyU32("llama.rope.dimension_count", 64);
    w.keyF32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    w.keyStringArray("tokenizer.ggml.tokens", 512);
    return w.file(tensors);
}

} // namespace test
