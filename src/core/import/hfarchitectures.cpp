#include "hfarchitectures.h"

#include "moespec.h"

#include <algorithm>
#include <cmath>

namespace headroom::detail::hf {

namespace {

    constexpr std::int64_t kMaxHeads = 65536;
    constexpr std::int64_t kMaxFfn = kMaxModelWidth * 16;
    constexpr std::int64_t kMaxPositions = std::int64_t(1) << 24;
    constexpr std::int64_t kMaxLabels = std::int64_t(1) << 24;
    constexpr double kMaxDropout = 0.999;

    // transformers ACT2FN names (activations.py) and how the reference code writes each: "gelu_new" is
    // NewGELUActivation (tanh approximation as tensor ops), "gelu_pytorch_tanh" is F.gelu(approximate="tanh").
    const std::initializer_list<std::pair<std::string_view, Activation>> kActivations {
        { "gelu", Activation::Gelu },
        { "gelu_new", Activation::GeluComposite },
        { "gelu_pytorch_tanh", Activation::GeluTanh },
        { "quick_gelu", Activation::QuickGelu },
        { "silu", Activation::Silu },
        { "swish", Activation::Silu },
        { "relu", Activation::Relu },
    };

    struct SizeKeys {
        std::string_view layers, hidden, heads;
    };
    constexpr SizeKeys kStandardKeys { "num_hidden_layers", "hidden_size", "num_attention_heads" };
    constexpr SizeKeys kGpt2Keys { "n_layer", "n_embd", "n_head" };

    void readSizes(const ObjectReader& r, TransformerSpec& t, const SizeKeys& k)
    {
        t.layers = int(r.integer(k.layers, 1, kMaxModelLayers));
        t.hidden = int(r.integer(k.hidden, 1, kMaxModelWidth));
        t.heads = t.kvHeads = int(r.integer(k.heads, 1, kMaxHeads));
    }

    void requireHeadsDivideHidden(const ObjectReader& r, const TransformerSpec& t, const SizeKeys& k)
    {
        if (t.hidden % t.heads != 0) {
            r.fail(k.heads,
                   "must divide " + std::string(k.hidden) + " (" + std::to_string(t.hidden) + "), got "
                       + std::to_string(t.heads));
        }
    }

    double dropout(const ObjectReader& r, std::string_view key, double fallback)
    {
        return r.numberOr(key, fallback, 0.0, kMaxDropout);
    }

    std::int64_t vocab(const ObjectReader& r) { return r.integer("vocab_size", 1, kMaxModelVocab); }

    void refuseCrossAttention(const ObjectReader& r)
    {
        if (r.booleanOr("add_cross_attention", false))
            r.fail("add_cross_attention", "cross-attention layers are not modelled");
    }

    // BertForMaskedLM and RobertaForMaskedLM (transformers modeling_bert.py, modeling_roberta.py): a post-LN
    // encoder over summed word, position and token-type embeddings with LayerNorm, and the MLM head: dense,
    // activation, LayerNorm, then a decoder tied to the word embeddings with its own bias. The *ForMaskedLM
    // classes build the encoder with add_pooling_layer=False: no pooler. `positionOffset` is the number of
    // position rows that no token uses.
    Imported readBertFamily(const ObjectReader& r, std::int64_t positionOffset)
    {
        Imported m;
        TransformerSpec& t = m.t;
        readSizes(r, t, kStandardKeys);
        requireHeadsDivideHidden(r, t, kStandardKeys);
        t.ffn = int(r.integer("intermediate_size", 1, kMaxFfn));
        t.vocab = vocab(r);
        t.maxPositions = r.integer("max_position_embeddings", 1, kMaxPositions);
        if (t.maxPositions <= positionOffset) {
            r.fail("max_position_embeddings",
                   "must exceed pad_token_id + 1 (" + std::to_string(positionOffset)
                       + "): RoBERTa numbers positions after the padding index");
        }
        t.typeVocab = int(r.integerOr("type_vocab_size", 2, 1, 1024));
        const std::string positions = r.stringOr("position_embedding_type", "absolute", 64);
        if (positions != "absolute") {
            r.fail("position_embedding_type",
                   "\"" + positions
                       + "\" adds relative-position parameters that are not modelled; supported: absolute");
        }
        refuseCrossAttention(r);
        t.activation = r.choiceOr("hidden_act", Activation::Gelu, kActivations);
        t.embeddingDropout = t.hiddenDropout = dropout(r, "hidden_dropout_prob", 0.1);
        t.attentionDropout = dropout(r, "attention_probs_dropout_prob", 0.1);
        t.causal = false;
        t.preNorm = false;
        t.finalNorm = false;
        t.embeddingNorm = true;
        t.head = HeadKind::MaskedLM;
        t.headBias = true;
        t.tiedEmbeddings = r.booleanOr("tie_word_embeddings", true);
        // Eager BertSelfAttention leaves the softmax in FP32 under autocast; the second matmul casts it.
        t.probsCast = ProbsCast::AtMatmul;
        m.sequence = t.maxPositions - positionOffset;
        return m;
    }

    // Llama and the models written as its copies: RMSNorm as LlamaRMSNorm writes it (FP32 upcast), a SwiGLU MLP,
    // rotary positions, grouped-query attention, no biases unless the variant adds them.
    Imported readLlamaFamily(const ObjectReader& r, std::int64_t defaultPositions)
    {
        Imported m;
        TransformerSpec& t = m.t;
        readSizes(r, t, kStandardKeys);
        t.ffn = int(r.integer("intermediate_size", 1, kMaxFfn));
        t.kvHeads = int(r.integerOr("num_key_value_heads", t.heads, 1, kMaxHeads));
        if (t.heads % t.kvHeads != 0) {
            r.fail("num_key_value_heads",
                   "must divide num_attention_heads (" + std::to_string(t.heads) + "), got "
                       + std::to_string(t.kvHeads));
        }
        // Configs give head_dim where it is not hidden_size / num_attention_heads (Mistral Nemo: 32 heads of 128
        // in a 5120-wide model).
        if (r.has("head_dim")) {
            const int headDim = int(r.integer("head_dim", 1, kMaxHeads));
            t.headDim = t.hidden % t.heads == 0 && headDim == t.hidden / t.heads ? 0 : headDim;
        } else {
            requireHeadsDivideHidden(r, t, kStandardKeys);
        }
        t.vocab = vocab(r);
        t.maxPositions = r.integerOr("max_position_embeddings", defaultPositions, 1, kMaxPositions);
        t.activation = r.choiceOr("hidden_act", Activation::Silu, kActivations);
        t.attentionDropout = dropout(r, "attention_dropout", 0.0);
        t.tiedEmbeddings = r.booleanOr("tie_word_embeddings", false);
        t.norm = NormKind::RMSNorm;
        t.normImpl = NormImpl::Upcast;
        t.normBias = false;
        t.gatedFfn = true;
        t.position = PositionKind::Rotary;
        t.qkvBias = t.outBias = t.ffnBias = false;
        // Eager LlamaAttention: softmax(scores, dim=-1, dtype=torch.float32).to(query.dtype).
        t.softmaxFp32 = true;
        m.sequence = t.maxPositions;
        return m;
    }

    std::string slidingWindowNote(const ObjectReader& r)
    {
        if (!r.has("sliding_window"))
            return {};
        const std::string w = std::to_string(r.integer("sliding_window", 1, kMaxPositions));
        return " Its " + w + "-token sliding window is not modelled: up to " + w
            + " tokens it is full causal attention.";
    }

} // namespace

// PretrainedConfig: num_labels is the size of id2label when the file has one, else num_labels, else 2.
int labelCount(const ObjectReader& r)
{
    if (!r.has("id2label"))
        return int(r.integerOr("num_labels", 2, 1, kMaxLabels));
    const std::size_t n = r.object("id2label").node().size();
    if (n < 1 || n > std::size_t(kMaxLabels))
        r.fail("id2label", "must name between 1 and " + std::to_string(kMaxLabels) + " labels");
    return int(n);
}

Imported readBert(const ObjectReader& r) { return readBertFamily(r, 0); }

// RoBERTa numbers positions from padding_idx + 1 (create_position_ids_from_input_ids), so its table of
// max_position_embeddings rows, all of them parameters, holds max_position_embeddings - pad_token_id - 1 tokens:
// 514 rows and 512 tokens for roberta-base. RobertaLMHead applies gelu whatever hidden_act says; every RoBERTa
// checkpoint uses gelu, so the two agree.
Imported readRoberta(const ObjectReader& r)
{
    return readBertFamily(r, r.integerOr("pad_token_id", 1, 0, kMaxPositions) + 1);
}

// GPT2LMHeadModel (modeling_gpt2.py): pre-LN blocks with one c_attn projection for Q, K and V, learned positions,
// an lm_head tied to wte unless tie_word_embeddings is false. n_inner null means 4 * n_embd (GPT2MLP).
Imported readGpt2(const ObjectReader& r)
{
    Imported m;
    TransformerSpec& t = m.t;
    readSizes(r, t, kGpt2Keys);
    requireHeadsDivideHidden(r, t, kGpt2Keys);
    t.ffn = int(r.integerOr("n_inner", 4 * std::int64_t(t.hidden), 1, kMaxFfn));
    t.vocab = vocab(r);
    t.maxPositions = r.integer("n_positions", 1, kMaxPositions);
    refuseCrossAttention(r);
    t.activation = r.choiceOr("activation_function", Activation::GeluComposite, kActivations);
    t.embeddingDropout = dropout(r, "embd_pdrop", 0.1);
    t.attentionDropout = dropout(r, "attn_pdrop", 0.1);
    t.hiddenDropout = dropout(r, "resid_pdrop", 0.1);
    t.fusedQkv = true;
    t.tiedEmbeddings = r.booleanOr("tie_word_embeddings", true);
    m.sequence = t.maxPositions;
    return m;
}

// GPTNeoXForCausalLM (modeling_gpt_neox.py; EleutherAI/pythia-*): one query_key_value projection, rotary
// positions on rotary_pct of each head, attention and MLP in parallel on the block input
// (use_parallel_residual), an untied embed_out, biases on every Linear and LayerNorm. GPTNeoXConfig defaults:
// rotary_pct 0.25, use_parallel_residual true, tie_word_embeddings false, attention_bias true, dropout 0.
Imported readGptNeoX(const ObjectReader& r)
{
    Imported m;
    TransformerSpec& t = m.t;
    readSizes(r, t, kStandardKeys);
    requireHeadsDivideHidden(r, t, kStandardKeys);
    t.ffn = int(r.integer("intermediate_size", 1, kMaxFfn));
    t.vocab = vocab(r);
    t.maxPositions = r.integerOr("max_position_embeddings", 2048, 1, kMaxPositions);
    t.activation = r.choiceOr("hidden_act", Activation::Gelu, kActivations);
    const char* rotaryKey = r.has("rotary_pct") || !r.has("partial_rotary_factor") ? "rotary_pct"
                                                                                   : "partial_rotary_factor";
    t.rotaryFraction = r.numberOr(rotaryKey, 0.25, 0.0, 1.0);
    // rotate_half splits the rotary channels in two: int(head_size * rotary_pct) must leave at least a pair.
    const int headDim = t.effectiveHeadDim();
    if (std::floor(headDim * t.rotaryFraction) < 2.0)
        r.fail(rotaryKey, "rotates fewer than 2 of the " + std::to_string(headDim) + " channels of a head");
    t.position = PositionKind::Rotary;
    t.parallelResidual = r.booleanOr("use_parallel_residual", true);
    t.fusedQkv = true;
    t.qkvBias = t.outBias = r.booleanOr("attention_bias", true);
    t.tiedEmbeddings = r.booleanOr("tie_word_embeddings", false);
    t.embeddingDropout = t.hiddenDropout = dropout(r, "hidden_dropout", 0.0);
    t.attentionDropout = dropout(r, "attention_dropout", 0.0);
    m.sequence = t.maxPositions;
    return m;
}

// LlamaForCausalLM: attention_bias puts biases on q, k, v and o_proj, mlp_bias on the MLP (LlamaConfig).
Imported readLlama(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, 2048);
    m.t.qkvBias = m.t.outBias = r.booleanOr("attention_bias", false);
    m.t.ffnBias = r.booleanOr("mlp_bias", false);
    return m;
}

// MistralForCausalLM: Llama's layers without biases; MistralConfig's default context is 4096 * 32.
Imported readMistral(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, std::int64_t(4096) * 32);
    m.notes = slidingWindowNote(r);
    return m;
}

// Qwen2ForCausalLM: Qwen2Attention gives q_proj, k_proj and v_proj a bias and o_proj none; the sliding window
// applies only with use_sliding_window.
Imported readQwen2(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, 32768);
    m.t.qkvBias = true;
    if (r.booleanOr("use_sliding_window", false))
        m.notes = slidingWindowNote(r);
    return m;
}

// Qwen3ForCausalLM: Qwen2's layers without the q/k/v biases (attention_bias false) and with Qwen3RMSNorm on each
// head's queries and keys (q_norm, k_norm over head_dim) before the rotary embedding.
Imported readQwen3(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, 32768);
    m.t.qkvBias = m.t.outBias = r.booleanOr("attention_bias", false);
    m.t.qkNorm = QkNorm::PerHead;
    if (r.booleanOr("use_sliding_window", false))
        m.notes = slidingWindowNote(r);
    return m;
}

namespace {

    // The router and experts shared by the MoE configs: `expertsKey` experts, num_experts_per_tok of them per token,
    // each an intermediate of `widthKey`.
    MoeSpec readExperts(const ObjectReader& r, const TransformerSpec& t, std::string_view expertsKey,
                        std::int64_t defaultExperts, std::int64_t defaultTopK, std::string_view widthKey,
                        bool defaultNormalize)
    {
        MoeSpec e;
        e.experts = int(r.integerOr(expertsKey, defaultExperts, 1, 1 << 16));
        e.topK = int(r.integerOr("num_experts_per_tok", defaultTopK, 1, 1 << 16));
        e.expertFfn = int(r.integer(widthKey, 1, kMaxFfn));
        e.normalizeTopK = r.booleanOr("norm_topk_prob", defaultNormalize);
        detail::checkMoe(r, e, t.layers, "num_experts_per_tok", "mlp_only_layers");
        return e;
    }

    // Qwen2MoeConfig / Qwen3MoeConfig: layer l is sparse when it is not in mlp_only_layers and
    // (l + 1) % decoder_sparse_step == 0; the dense layers are an MLP of intermediate_size.
    void readSparseLayers(const ObjectReader& r, Imported& m)
    {
        MoeSpec& e = m.t.moe;
        e.sparseStep = int(r.integerOr("decoder_sparse_step", 1, 1, kMaxModelLayers));
        e.denseLayers = detail::readLayerList(r, "mlp_only_layers");
        detail::checkMoe(r, e, m.t.layers, "num_experts_per_tok", "mlp_only_layers");
    }

} // namespace

// MixtralForCausalLM: Mistral's attention; every layer's MLP is MixtralSparseMoeBlock, num_local_experts experts of
// intermediate_size with num_experts_per_tok per token, the top-k weights always renormalised. Router jitter
// (router_jitter_noise) multiplies the input by noise without saving more than the input.
Imported readMixtral(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, std::int64_t(4096) * 32);
    m.t.moe = readExperts(r, m.t, "num_local_experts", 8, 2, "intermediate_size", true);
    m.t.moe.normalizeTopK = true;
    if (!r.has("sliding_window") || r.find("sliding_window")->is_null())
        return m;
    m.notes = slidingWindowNote(r);
    return m;
}

// Qwen2MoeForCausalLM (Qwen1.5-MoE): Qwen2's attention (q/k/v biases); sparse layers route to num_experts experts of
// moe_intermediate_size and add a shared expert of shared_expert_intermediate_size gated by a sigmoid.
Imported readQwen2Moe(const ObjectReader& r)
{
    Imported m = readQwen2(r);
    m.t.moe = readExperts(r, m.t, "num_experts", 60, 4, "moe_intermediate_size", false);
    m.t.moe.sharedFfn = int(r.integerOr("shared_expert_intermediate_size", 0, 0, kMaxFfn));
    readSparseLayers(r, m);
    return m;
}

// Qwen3MoeForCausalLM: Qwen3's attention (q_norm / k_norm, no biases) and Qwen2-MoE's routing without the shared
// expert.
Imported readQwen3Moe(const ObjectReader& r)
{
    Imported m = readQwen3(r);
    m.t.moe = readExperts(r, m.t, "num_experts", 128, 8, "moe_intermediate_size", false);
    readSparseLayers(r, m);
    return m;
}

// OlmoeForCausalLM (modeling_olmoe.py): Llama-style layers whose q_norm and k_norm are RMSNorms over the whole query
// and key projections; every MLP is sparse, num_experts experts of intermediate_size, top-k weights not
// renormalised by default. clip_qkv clamps in place and saves nothing.
Imported readOlmoe(const ObjectReader& r)
{
    Imported m = readLlamaFamily(r, 4096);
    m.t.qkvBias = m.t.outBias = r.booleanOr("attention_bias", false);
    m.t.qkNorm = QkNorm::Projection;
    m.t.moe = readExperts(r, m.t, "num_experts", 64, 8, "intermediate_size", false);
    return m;
}

// ViTForImageClassification (modeling_vit.py): a conv patch embedding, class token and learned positions, a pre-LN
// encoder with separate query, key and value (qkv_bias), a final LayerNorm and a linear classifier on the class
// token. ViTModel is built with add_pooling_layer=False: no pooler. ViTConfig's dropouts default to 0.
Imported readVit(const ObjectReader& r)
{
    Imported m;
    TransformerSpec& t = m.t;
    readSizes(r, t, kStandardKeys);
    requireHeadsDivideHidden(r, t, kStandardKeys);
    t.ffn = int(r.integer("intermediate_size", 1, kMaxFfn));
    t.input = InputKind::Patches;
    t.imageSize = int(r.integer("image_size", 1, 65536));
    t.patchSize = int(r.integer("patch_size", 1, 4096));
    if (t.patchSize > t.imageSize)
        r.fail("patch_size", "is larger than image_size (" + std::to_string(t.imageSize) + ")");
    t.channels = int(r.integerOr("num_channels", 3, 1, 4096));
    t.positionsFollowImage = false; // ViTEmbeddings.interpolate_pos_encoding
    t.vocab = 0;
    t.maxPositions = 0;
    t.qkvBias = r.booleanOr("qkv_bias", true);
    t.activation = r.choiceOr("hidden_act", Activation::Gelu, kActivations);
    t.embeddingDropout = t.hiddenDropout = dropout(r, "hidden_dropout_prob", 0.0);
    t.attentionDropout = dropout(r, "attention_probs_dropout_prob", 0.0);
    t.causal = false;
    t.tiedEmbeddings = false;
    t.head = HeadKind::Classifier;
    t.headBias = true;
    t.classes = labelCount(r);
    // ViTSelfAttention is BertSelfAttention's copy: the softmax stays FP32 until the second matmul.
    t.probsCast = ProbsCast::AtMatmul;
    m.sequence = t.imageSize;
    return m;
}

} // namespace headroom::detail::hf
