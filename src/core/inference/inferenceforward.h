#pragma once

// The operators of one forward pass of a decoder on one tensor-parallel rank, for `tokens` new tokens per sequence
// attending to `context` tokens (the prompt in prefill; the cache plus one in decode). Internal to the inference
// estimate (inference.cpp); each operator is handed to a visitor with its FLOPs and bytes moved.

#include "inference.h"

#include <cmath>
#include <vector>

namespace headroom::detail {

// Weights stored in a quantized type (not FP32, FP16 or BF16).
bool storedQuantized(WeightFormat f);

struct ForwardOp {
    std::string_view name;
    OpKind kind = OpKind::Gemm;
    double flops = 0.0;
    double bytes = 0.0;
    bool cublas = false; // a weight multiplied on the engine's cuBLAS path (EngineCosts::cublasAboveRows)
};

// Stored bytes of one block's tensors on this rank, by role.
struct LayerBytes {
    double query = 0, key = 0, value = 0, qkv = 0, attnOut = 0, gate = 0, up = 0, down = 0, vectors = 0;
};

class Forward {
public:
    Forward(const TransformerSpec& t, const InferenceWeights& w, const InferenceConfig& c);

    // The block's operators except the attention core, for T = batch x tokens rows.
    template <typename Visit>
    void layer(int i, double T, Visit&& visit) const;
    // The attention core of one block for b sequences of t new tokens attending to k: FlashAttention, or eager
    // QK^T, softmax, PV.
    template <typename Visit>
    void attention(double b, double t, double k, Visit&& visit) const;
    // Embedding lookup, final norm and lm_head (the last token of each sequence only).
    template <typename Visit>
    void outside(double batch, double tokens, Visit&& visit) const;

    // Transient bytes alive at once inside one block (the largest sub-layer) plus the logits, for b x t rows
    // attending to k tokens.
    double transientBytes(double b, double t, double k) const;
    // An engine that reserves its context (EngineCosts::reservesContext): the compute buffer of its worst-case
    // graph, and its pool's high-water mark, for b sequences of `context` tokens.
    double computeBufferBytes(double b, double context) const;
    double poolBytes(double b, double context) const;
    double kvBytesPerToken() const; // per sequence, all layers, this rank
    // The engine's passes over `rows` rows (llama.cpp: of n_ubatch); 1 for an engine that takes them at once.
    double passes(double rows) const { return passRows > 0 ? std::ceil(rows / passRows) : 1.0; }
    int layers() const { return int(m_layers.size()); }

    double actBytes = 2.0; // activation element
    double kvElement = 2.0;
    double hidden = 0, headDim = 0, qHeads = 0, kvHeads = 0, ffn = 0, vocab = 0;
    bool gated = false, fused = false, rotary = false, learned = false, softmaxFp32 = false;
    AttentionImpl impl = AttentionImpl::Fused;
    WeightFormat format = WeightFormat::Fp16;
    double embeddingBytesPerElement = 2.0; // of the token embedding as stored
    double headBytes = 0.0;                // lm_head (the embedding when tied) on this rank
    double finalNormBytes = 0.0;
    double largestLinearElements = 0.0; // on this rank: the dequantization buffer of bitsandbytes NF4
    bool quantized = false;             // weights stored in a quantized type
    double cublasAboveRows = 0.0;       // EngineCosts::cublasAboveRows
    double passRows = 0.0;              // the engine's prompt passes (n_ubatch); 0: one
    bool reservesContext = false;       // EngineCosts::reservesContext

private:
    // The rows of the worst-case graph an engine that reserves its context builds for `cells` cells: one pass's.
    double reservedRows(double cells) const { return passRows > 0 ? std::min(cells, passRows) : cells; }

    std::vector<LayerBytes> m_layers;
};

template <typename Visit>
void Forward::layer(int i, double T, Visit&& visit) const
{
    const LayerBytes& w = m_layers[std::size_t(i)];
    const double a = actBytes;
    const double h = hidden;
    const double q = qHeads * headDim;
    const double kv = kvHeads * headDim;
    // Fused dequantizing kernels read the stored weight once; bitsandbytes NF4 dequantizes it to 16 bits first
    // unless one token is multiplied (gemv_4bit), and AutoAWQ's GEMM does the same from 1024 rows on.
    const bool dequant = (format == WeightFormat::Nf4 && T > 1) || (format == WeightFormat::Awq4 && T >= 1024);
    // llama.cpp's cuBLAS path (ggml_cuda_op_mul_mat_cublas): per pass, a quantized weight dequantized to F16; the
    // F32 activations converted to F16 (read 4 bytes, write 2) and the GEMM's F16 result to F32 (read 2, write 4).
    const bool cublas = cublasAboveRows > 0 && T > cublasAboveRows;
    const double weightPasses = cublas ? passes(T) : 1.0;
    auto gemm = [&](std::string_view name, double stored, double in, double out) {
        if (cublas) {
            const double f16 = 2 * in * out;
            if (quantized)
                visit(ForwardOp { "dequantize", OpKind::Elementwise, 0.0, weightPasses * (stored + f16) });
            visit(ForwardOp { "convert_f16", OpKind::Elementwise, 0.0, T * (in + out) * 6 });
            visit(ForwardOp { name, OpKind::Gemm, 2 * T * in * out, weightPasses * f16 + T * (in + out) * 2, true });
            return;
        }
        const double extra = dequant ? 2 * 2 * in * out : 0.0; // write the 16-bit copy, read it in the GEMM
        visit(ForwardOp { name, OpKind::Gemm, 2 * T * in * out, stored + extra + T * (in + out) * a });
    };
    auto norm = [&](std::string_view name) {
        visit(ForwardOp { name, OpKind::Normalization, 5 * T * h, 2 * T * h * a + w.vectors / 2 });
    };
    norm("attn_norm");
    if (fused) {
        gemm("qkv_proj", w.qkv, h, q + 2 * kv);
    } else {
        gemm("q_proj", w.query, h, q);
        gemm("k_proj", w.key, h, kv);
        gemm("v_proj", w.value, h, kv);
    }
    if (rotary)
        visit(ForwardOp { "rope", OpKind::Elementwise, 3 * T * (q + kv), 2 * T * (q + kv) * a });
    // K and V of the new tokens into the cache, converted to its element type.
    visit(ForwardOp { "kv_cache_write", OpKind::Elementwise, 0.0, T * 2 * kv * (a + kvElement) });
    gemm("o_proj", w.attnOut, q, h);
    visit(ForwardOp { "residual_add", OpKind::Elementwise, T * h, 3 * T * h * a });
    norm("ffn_norm");
    if (gated) {
        gemm("gate_proj", w.gate, h, ffn);
        gemm("up_proj", w.up, h, ffn);
        visit(ForwardOp { "act_mul", OpKind::Elementwise, 5 * T * ffn, 5 * T * ffn * a }); // act(gate), then * up
    } else {
        gemm("up_proj", w.up, h, ffn);
        visit(ForwardOp { "activation", OpKind::Elementwise, 8 * T * ffn, 2 * T * ffn * a });
    }
    gemm("down_proj", w.down, ffn, h);
    visit(ForwardOp { "residual_add", OpKind::Elementwise, T * h, 3 * T * h * a });
}

template <typename Visit>
void Forward::attention(double b, double t, double k, Visit&& visit) const
{
    const double a = actBytes;
    const double qd = qHeads * headDim;
    const double kvRead = b * k * 2 * kvHeads * headDim * kvElement;
    const double io = 2 * b * t * qd * a; // read Q, write the output
    if (impl == AttentionImpl::Fused) {
        // Causal: query j of the t new ones sees k - t + j + 1 keys.
        const double pairs = b * (t * k - t * (t - 1) / 2);
        visit(ForwardOp { "attention", OpKind::Attention, 4 * pairs * qd, io + kvRead });
        return;
    }
    // Eager attention computes the whole t x k score matrix and masks it.
    const double scores = b * qHeads * t * k;
    const double flops = 2 * scores * headDim;
    visit(ForwardOp { "qk_matmul", OpKind::Gemm, flops, io / 2 + kvRead / 2 + scores * a });
    const double softmaxBytes = softmaxFp32 ? scores * (a + 4 + 4 + a) : 2 * scores * a;
    visit(ForwardOp { "softmax", OpKind::Elementwise, 5 * scores, softmaxBytes });
    visit(ForwardOp { "sv_matmul", OpKind::Gemm, flops, io / 2 + kvRead / 2 + scores * a });
}

template <typename Visit>
void Forward::outside(double b, double t, Visit&& visit) const
{
    const double T = b * t;
    const double a = actBytes;
    const double pos = learned ? T * hidden * a : 0.0;
    visit(ForwardOp { "embedding", OpKind::Embedding, 0.0,
                      T * hidden * embeddingBytesPerElement + pos + T * hidden * a });
    visit(ForwardOp { "final_norm", OpKind::Normalization, 5 * T * hidden, 2 * T * hidden * a + finalNormBytes });
    // Logits of the last position only, in FP32 for sampling (vLLM, llama.cpp; transformers' logits_to_keep=1).
    visit(ForwardOp { "lm_head", OpKind::Gemm, 2 * b * hidden * vocab, headBytes + b * hidden * a + b * vocab * 4 });
}

} // namespace headroom::detail
