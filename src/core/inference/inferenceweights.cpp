// The stored tensors of a decoder in an inference weight format: names and shapes as convert_hf_to_gguf writes
// them, bytes as each quantizer stores them (weightformat.h), split over tensor-parallel ranks as vLLM shards them.

#include "inference.h"
#include "inferenceengine.h"

#include <algorithm>

namespace headroom {

namespace {

    bool isLinear(WeightRole r)
    {
        return r == WeightRole::Query || r == WeightRole::Key || r == WeightRole::Value || r == WeightRole::Qkv
            || r == WeightRole::AttentionOutput || r == WeightRole::Gate || r == WeightRole::Up
            || r == WeightRole::Down;
    }

    class TensorList {
    public:
        TensorList(const TransformerSpec& t, const InferenceConfig& c)
            : m_t(t)
            , m_c(c)
        {
        }

        void add(std::string name, WeightRole role, int layer, std::int64_t rows, std::int64_t cols)
        {
            WeightTensor w { std::move(name), role, layer, rows, cols, 0.0, GgmlType::F16, false };
            m_parameters += double(rows) * double(cols);
            w.sharded = role != WeightRole::Vector && role != WeightRole::PositionEmbedding;
            w.bytes = storedBytes(w);
            if (w.sharded)
                w.bytes *= shardFraction(role);
            m_total += w.bytes;
            m_tensors.push_back(std::move(w));
        }

        void addVector(const std::string& name, int layer, std::int64_t n)
        {
            add(name, WeightRole::Vector, layer, 1, n);
        }

        // llama.cpp always keeps the input embedding on the host ("there is very little benefit to offloading the
        // input layer", llama-model.cpp load_tensors); a tied one is duplicated onto the GPU as the output. So for
        // a GGUF format, and for any format llama.cpp runs (an F16 GGUF is `fp16` with the llama.cpp engine).
        InferenceWeights finish(std::string format)
        {
            double host = 0.0;
            const InferenceEngine engine = detail::resolveEngine(m_c.engine, m_c.weights);
            if (engine == InferenceEngine::LlamaCpp || engine == InferenceEngine::LlamaCppNoGraphs) {
                for (WeightTensor& w : m_tensors) {
                    if (w.role != WeightRole::TokenEmbedding)
                        continue;
                    w.onHost = true;
                    host += w.bytes;
                    if (!m_t.tiedEmbeddings)
                        m_total -= w.bytes;
                }
            }
            return InferenceWeights { std::move(m_tensors), m_parameters, m_total, host, std::move(format) };
        }

    private:
        double storedBytes(WeightTensor& w) const
        {
            const double n = double(w.rows) * double(w.cols);
            const WeightFormat f = m_c.weights;
            if (isGguf(f)) {
                const int gqa = std::max(1, m_t.heads / std::max(1, m_t.kvHeads));
                // A tied embedding is also the output matrix, and llama.cpp quantizes it as the output.
                const WeightRole role = (w.role == WeightRole::TokenEmbedding && m_t.tiedEmbeddings)
                    ? WeightRole::Output
                    : w.role;
                w.ggml = ggufTensorType(f, role, w.layer, m_t.layers, w.cols, gqa);
                if (w.cols % ggmlTypeInfo(w.ggml).blockElements != 0)
                    w.ggml = GgmlType::F16; // rows that are not whole blocks stay unquantized
                return ggmlBytes(w.ggml, n);
            }
            if (f == WeightFormat::Fp32) {
                w.ggml = GgmlType::F32;
                return 4 * n;
            }
            w.ggml = f == WeightFormat::Bf16 ? GgmlType::BF16 : GgmlType::F16;
            // The Hugging Face quantizers replace the blocks' Linear layers only: embeddings, norms and lm_head
            // keep the 16-bit compute dtype (AutoGPTQ/AutoAWQ skip lm_head; bitsandbytes' llm_int8_skip_modules).
            if (isLinear(w.role))
                return quantizedLinearBytes(f, w.rows, w.cols, m_c.groupSize);
            return 2 * n;
        }

        // vLLM shards every projection and the vocabulary, and the key/value heads as kvHeadsPerRank says.
        double shardFraction(WeightRole role) const
        {
            const int tp = std::max(1, m_c.tensorParallel);
            if (role == WeightRole::Key || role == WeightRole::Value)
                return double(kvHeadsPerRank(m_t.kvHeads, tp)) / double(std::max(1, m_t.kvHeads));
            return 1.0 / tp;
        }

        const TransformerSpec& m_t;
        const InferenceConfig& m_c;
        std::vector<WeightTensor> m_tensors;
        double m_parameters = 0.0;
        double m_total = 0.0;
    };

} // namespace

Expected<InferenceWeights> inferenceWeights(const ModelSpec& model, const InferenceConfig& config)
{
    const TransformerSpec& t = model.transformer;
    if (!servable(model)) {
        return Error { model.id, "model",
                       "inference covers decoder-only language models with a causal-LM head; \"" + model.id
                           + "\" is not one" };
    }
    if (t.moe.any())
        return Error { model.id, "model",
                       "\"" + model.id
                           + "\" is a mixture-of-experts model; serving one (every expert resident, "
                             "active experts per token) is not modelled yet. headroom estimate models its training." };
    TensorList list(t, config);
    const std::int64_t h = t.hidden;
    const std::int64_t hd = t.effectiveHeadDim();
    const std::int64_t q = std::int64_t(t.heads) * hd;
    const std::int64_t kv = std::int64_t(t.kvHeads) * hd;
    const bool layerNorm = t.norm == NormKind::LayerNorm;
    auto norm = [&](const std::string& name, int layer) {
        list.addVector(name + ".weight", layer, h);
        if (layerNorm && t.normBias)
            list.addVector(name + ".bias", layer, h);
    };
    list.add("token_embd.weight", WeightRole::TokenEmbedding, -1, t.vocab, h);
    if (t.position == PositionKind::Learned)
        list.add("position_embd.weight", WeightRole::PositionEmbedding, -1, t.maxPositions, h);
    for (int i = 0; i < t.layers; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        norm(b + "attn_norm", i);
        if (t.fusedQkv) {
            list.add(b + "attn_qkv.weight", WeightRole::Qkv, i, q + 2 * kv, h);
            if (t.qkvBias)
                list.addVector(b + "attn_qkv.bias", i, q + 2 * kv);
        } else {
            list.add(b + "attn_q.weight", WeightRole::Query, i, q, h);
            list.add(b + "attn_k.weight", WeightRole::Key, i, kv, h);
            list.add(b + "attn_v.weight", WeightRole::Value, i, kv, h);
            if (t.qkvBias) {
                list.addVector(b + "attn_q.bias", i, q);
                list.addVector(b + "attn_k.bias", i, kv);
                list.addVector(b + "attn_v.bias", i, kv);
            }
        }
        if (t.qkNorm != QkNorm::None) { // Qwen3: one head's channels; OLMoE: the whole projection
            list.addVector(b + "attn_q_norm.weight", i, t.qkNorm == QkNorm::PerHead ? hd : q);
            list.addVector(b + "attn_k_norm.weight", i, t.qkNorm == QkNorm::PerHead ? hd : kv);
        }
        list.add(b + "attn_output.weight", WeightRole::AttentionOutput, i, h, q);
        if (t.outBias)
            list.addVector(b + "attn_output.bias", i, h);
        norm(b + "ffn_norm", i);
        if (t.gatedFfn) {
            list.add(b + "ffn_gate.weight", WeightRole::Gate, i, t.ffn, h);
            if (t.ffnBias)
                list.addVector(b + "ffn_gate.bias", i, t.ffn);
        }
        list.add(b + "ffn_up.weight", WeightRole::Up, i, t.ffn, h);
        if (t.ffnBias)
            list.addVector(b + "ffn_up.bias", i, t.ffn);
        list.add(b + "ffn_down.weight", WeightRole::Down, i, h, t.ffn);
        if (t.ffnBias)
            list.addVector(b + "ffn_down.bias", i, h);
    }
    if (t.finalNorm)
        norm("output_norm", -1);
    if (!t.tiedEmbeddings)
        list.add("output.weight", WeightRole::Output, -1, t.vocab, h);
    if (t.headBias)
        list.addVector("output.bias", -1, t.vocab);
    return list.finish(std::string(toString(config.weights)));
}

} // namespace headroom
