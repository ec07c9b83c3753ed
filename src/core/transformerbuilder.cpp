// Transformer forward passes written the way their reference implementations write them, so that the graph
// records the same autograd saves: Hugging Face transformers (BertForMaskedLM, GPT2LMHeadModel,
// LlamaForCausalLM and its relatives) and torchvision's VisionTransformer.

#include "finetune.h"
#include "graphbuilder.h"
#include "modelgraph.h"

#include <algorithm>
#include <cmath>

namespace headroom {

double transformerTokens(const TransformerSpec& t, std::int64_t sequenceSetting)
{
    if (t.input == InputKind::Patches) {
        const double side = std::floor(double(sequenceSetting) / t.patchSize);
        return side * side + (t.classToken ? 1.0 : 0.0);
    }
    return double(sequenceSetting);
}

namespace {

    class TransformerBuilder {
    public:
        TransformerBuilder(const ModelSpec& model, const TrainingConfig& config, Graph& graph)
            : m(model.transformer)
            , cfg(config)
            , g(graph)
            , b(graph, planPrecision(config))
            , policy(model, config, b.plan())
        {
            s = transformerTokens(m, config.sequenceLength);
            h = m.hidden;
            a = m.heads;
            kv = m.kvHeads > 0 ? m.kvHeads : m.heads;
            d = m.effectiveHeadDim();
            f = m.ffn;
            // GPTNeoXAttention: rotary_ndims = int(head_size * rotary_pct).
            rd = m.rotaryFraction < 1.0 ? std::max(1.0, std::floor(d * m.rotaryFraction)) : d;
        }

        void build();

    private:
        TensorId norm(TensorId x, std::string_view name);
        TensorId attention(TensorId x);
        TensorId mlp(TensorId x);
        TensorId activation(TensorId x);
        TensorId rope(TensorId x);
        TensorId rotate(TensorId x);
        TensorId block(TensorId x);
        TensorId embeddings();
        void head(TensorId x);
        TensorId linearParam(TensorId x, double in, double out, bool bias, std::string_view name);
        void next(ParameterRole role) { b.setParameterKind(policy.kind(role, b.layer())); }

        const TransformerSpec& m;
        const TrainingConfig& cfg;
        Graph& g;
        GraphBuilder b;
        FinetunePolicy policy;
        double s = 0, h = 0, a = 0, kv = 0, d = 0, f = 0;
        double rd = 0; // rotary channels per head
        TensorId ids = kNoTensor, labels = kNoTensor, wte = kNoTensor;
        TensorId cosT = kNoTensor, sinT = kNoTensor, causalMask = kNoTensor, paddingMask = kNoTensor;
    };

    TensorId TransformerBuilder::linearParam(TensorId x, double in, double out, bool bias, std::string_view name)
    {
        return finetuneLinear(b, policy, x, s, in, out, bias, name);
    }

    TensorId TransformerBuilder::norm(TensorId x, std::string_view name)
    {
        next(ParameterRole::Norm);
        if (m.norm == NormKind::LayerNorm) {
            const TensorId gamma = b.normParameter(name, h);
            const TensorId beta = m.normBias ? b.normParameter(name, h) : kNoTensor;
            return b.layerNorm(x, gamma, beta, s, h, name);
        }
        const TensorId gamma = b.normParameter(name, h);
        if (m.normImpl == NormImpl::Fused)
            return b.rmsNorm(x, gamma, s, h, name);
        // transformers LlamaRMSNorm.forward: the variance is computed in FP32 and the weight multiplies the
        // normalised tensor cast back to the input dtype.
        const DType inputType = b.tensor(x).dtype;
        const TensorId x32 = b.cast(x, DType::F32, name);
        const TensorId sq = b.unary(x32, UnaryFn::Square, name);
        const TensorId var = b.reduceMean(sq, 1.0 / h, name);
        const TensorId eps = b.unary(var, UnaryFn::AddConstant, name);
        const TensorId r = b.unary(eps, UnaryFn::Rsqrt, name);
        const TensorId normed = b.mul(x32, r, name);
        const TensorId back = b.cast(normed, inputType, name);
        return b.mul(gamma, back, name);
    }

    TensorId TransformerBuilder::activation(TensorId x)
    {
        switch (m.activation) {
        case Activation::Gelu:
            return b.unary(x, UnaryFn::Gelu, "mlp.act");
        case Activation::GeluTanh:
            return b.unary(x, UnaryFn::GeluTanh, "mlp.act");
        case Activation::Silu:
            return b.unary(x, UnaryFn::Silu, "mlp.act");
        case Activation::Relu:
            return b.unary(x, UnaryFn::Relu, "mlp.act");
        case Activation::QuickGelu: {
            // x * torch.sigmoid(1.702 * x)
            const TensorId scaled = b.unary(x, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId sig = b.unary(scaled, UnaryFn::Sigmoid, "mlp.act");
            return b.mul(x, sig, "mlp.act");
        }
        case Activation::GeluComposite: {
            // transformers NewGELUActivation:
            // 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
            const TensorId cube = b.unary(x, UnaryFn::PowCube, "mlp.act");
            const TensorId c1 = b.unary(cube, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId inner = b.add(x, c1, "mlp.act");
            const TensorId c2 = b.unary(inner, UnaryFn::ScaleByConstant, "mlp.act");
            const TensorId t = b.unary(c2, UnaryFn::Tanh, "mlp.act");
            const TensorId onePlus = b.unary(t, UnaryFn::AddConstant, "mlp.act");
            const TensorId half = b.unary(x, UnaryFn::ScaleByConstant, "mlp.act");
            return b.mul(half, onePlus, "mlp.act");
        }
        }
        return x;
    }

    TensorId TransformerBuilder::rope(TensorId x)
    {
        if (rd < d) {
            // Partial rotary (GPT-NeoX rotary_pct): transformers apply_rotary_pos_emb rotates the first rotary_dim
            // channels of each head and concatenates the rest back unchanged.
            const double fractions[] = { rd / d, 1.0 - rd / d };
            const auto parts = b.split(x, fractions, "attn.rope");
            return b.concat(rotate(parts[0]), parts[1], "attn.rope");
        }
        return rotate(x);
    }

    TensorId TransformerBuilder::rotate(TensorId x)
    {
        // transformers apply_rotary_pos_emb: (x * cos) + (rotate_half(x) * sin), rotate_half = cat(-x2, x1).
        const TensorId xc = b.mul(x, cosT, "attn.rope");
        const double halves[] = { 0.5, 0.5 };
        const auto parts = b.split(x, halves, "attn.rope");
        const TensorId neg = b.unary(parts[1], UnaryFn::Neg, "attn.rope");
        const TensorId rot = b.concat(neg, parts[0], "attn.rope");
        const TensorId xs = b.mul(rot, sinT, "attn.rope");
        return b.add(xc, xs, "attn.rope");
    }

    TensorId TransformerBuilder::attention(TensorId x)
    {
        const double qDim = a * d, kvDim = kv * d;
        TensorId q = kNoTensor, k = kNoTensor, v = kNoTensor;
        if (m.fusedQkv) {
            const TensorId qkv = linearParam(x, h, qDim + 2.0 * kvDim, m.qkvBias, "attn.qkv");
            const double tot = qDim + 2.0 * kvDim;
            const double fr[] = { qDim / tot, kvDim / tot, kvDim / tot };
            const auto parts = b.split(qkv, fr, "attn.split");
            q = parts[0];
            k = parts[1];
            v = parts[2];
        } else {
            q = linearParam(x, h, qDim, m.qkvBias, "attn.q");
            k = linearParam(x, h, kvDim, m.qkvBias, "attn.k");
            v = linearParam(x, h, kvDim, m.qkvBias, "attn.v");
        }
        if (m.position == PositionKind::Rotary) {
            q = rope(q);
            k = rope(k);
        }
        const bool selective = cfg.checkpointing == Checkpointing::Selective;
        TensorId ctx = kNoTensor;
        if (cfg.attention == AttentionImpl::Fused) {
            ctx = b.fusedAttention(q, k, v, s, a, d, m.causal, m.attentionDropout, "attn.core");
        } else {
            if (kv < a) {
                // repeat_kv materialises K and V for every query head before the eager matmuls.
                k = b.repeat(k, a / kv, "attn.repeat_kv");
                v = b.repeat(v, a / kv, "attn.repeat_kv");
            }
            if (selective)
                b.beginRegion();
            TensorId scores = b.matmul(q, k, a, s, s, d, "attn.scores");
            if (m.causal && m.position == PositionKind::Learned) {
                // GPT-2 divides by torch.full([], sqrt(d)), a 0-d tensor that DivBackward saves.
                const TensorId divisor = b.constant(1.0, b.tensor(scores).dtype, 0.0, "attn.scale", false);
                scores = b.mul(scores, divisor, "attn.scale");
            } else {
                scores = b.unary(scores, UnaryFn::ScaleByConstant, "attn.scale");
            }
            if (causalMask != kNoTensor || paddingMask != kNoTensor) {
                // Additive mask: Llama's 4-D causal mask, BERT's extended padding mask.
                scores = b.add(scores, causalMask != kNoTensor ? causalMask : paddingMask, "attn.mask");
            } else if (m.causal) {
                // GPT-2: torch.where(causal_mask, scores, min) with a boolean buffer.
                scores = b.unary(scores, UnaryFn::ScaleByConstant, "attn.mask");
            }
            const DType valueType = b.tensor(v).dtype;
            TensorId probs = b.softmax(scores, a * s, s, "attn.softmax", m.softmaxFp32);
            if (m.probsCast == ProbsCast::BeforeDropout && (b.plan().autocast || m.softmaxFp32))
                probs = b.cast(probs, b.plan().autocast ? b.plan().lowType : valueType, "attn.probs_cast");
            probs = b.dropout(probs, m.attentionDropout, "attn.dropout");
            ctx = b.matmul(probs, v, a, s, d, s, "attn.context");
            if (selective)
                b.endRegion();
        }
        return linearParam(ctx, qDim, h, m.outBias, "attn.out");
    }

    TensorId TransformerBuilder::mlp(TensorId x)
    {
        if (m.gatedFfn) {
            const TensorId gate = linearParam(x, h, f, m.ffnBias, "mlp.gate");
            const TensorId up = linearParam(x, h, f, m.ffnBias, "mlp.up");
            const TensorId act = activation(gate);
            const TensorId prod = b.mul(act, up, "mlp.mul");
            return linearParam(prod, f, h, m.ffnBias, "mlp.down");
        }
        TensorId y = linearParam(x, h, f, m.ffnBias, "mlp.fc1");
        y = activation(y);
        y = b.dropout(y, m.ffnDropout, "mlp.dropout");
        return linearParam(y, f, h, m.ffnBias, "mlp.fc2");
    }

    TensorId TransformerBuilder::embeddings()
    {
        b.setLayer(-1);
        next(ParameterRole::Embedding);
        if (m.input == InputKind::Patches) {
            // torchvision VisionTransformer._process_input: conv_proj, flatten, then cat the class token and add
            // the position embedding.
            const double side = std::floor(double(cfg.sequenceLength) / m.patchSize);
            const double patches = side * side;
            const TensorId image = b.input("images", DType::F32,
                                           double(m.channels) * cfg.sequenceLength * cfg.sequenceLength);
            labels = b.input("labels", DType::I64, 1.0);
            const double k2 = double(m.patchSize) * m.patchSize;
            const TensorId w = b.parameter("conv_proj", h * m.channels * k2, true, m.patchSize, m.patchSize);
            const TensorId bias = b.parameter("conv_proj", h, false);
            TensorId x = b.conv2d(image, w, bias, m.channels, h, k2, 1.0, patches, "embed.patches");
            if (m.classToken) {
                const TensorId cls = b.parameter("class_token", h, false);
                x = b.concat(cls, x, "embed.class_token");
            }
            const double refSide = std::floor(double(m.imageSize) / m.patchSize);
            const TensorId pos = b.parameter("encoder.pos_embedding", (refSide * refSide + (m.classToken ? 1 : 0)) * h,
                                             false, h, refSide * refSide + 1);
            x = b.add(x, pos, "embed.position");
            return b.dropout(x, m.embeddingDropout, "embed.dropout");
        }
        ids = b.input("input_ids", DType::I64, s);
        b.input("attention_mask", DType::I64, s);
        if (m.head == HeadKind::CausalLM || m.head == HeadKind::MaskedLM)
            labels = b.input("labels", DType::I64, s);
        wte = b.parameter("embed.tokens", double(m.vocab) * h, false, h, double(m.vocab));
        TensorId x = b.embedding(wte, ids, s, h, "embed.tokens");
        if (policy.inputRequiresGrad(cfg))
            b.requireGrad(x);
        if (m.typeVocab > 0) {
            const TensorId typeIds = b.input("token_type_ids", DType::I64, s);
            const TensorId wtt = b.parameter("embed.token_types", double(m.typeVocab) * h, false, h, m.typeVocab);
            const TensorId tt = b.embedding(wtt, typeIds, s, h, "embed.token_types");
            x = b.add(x, tt, "embed.sum");
        }
        if (m.position == PositionKind::Learned) {
            // Position ids are a [1, s] buffer slice: one lookup shared by the whole batch.
            const TensorId wpe = b.parameter("embed.positions", double(m.maxPositions) * h, false, h,
                                             double(m.maxPositions));
            // GPT-2 builds position ids with torch.arange on every forward; BERT reads a registered buffer.
            const TensorId positionIds = m.causal ? b.constant(s, DType::I64, 0.0, "embed.position_ids", false) : ids;
            const TensorId pos = b.embedding(wpe, positionIds, s, h, "embed.positions", false);
            x = b.add(x, pos, "embed.sum", m.typeVocab > 0); // BERT: embeddings += position_embeddings
        }
        if (!m.causal && cfg.attention == AttentionImpl::Eager) {
            // get_extended_attention_mask: (1 - mask) * min, shape [B, 1, 1, s], in the parameters' dtype.
            paddingMask = b.constant(s, b.plan().paramType, 2.0, "attention_mask");
        }
        if (m.embeddingNorm)
            x = norm(x, "embed.norm");
        x = b.dropout(x, m.embeddingDropout, "embed.dropout");
        if (m.position == PositionKind::Rotary) {
            // LlamaRotaryEmbedding returns cos and sin of shape [B, s, head_dim] in the hidden states' dtype
            // (GPTNeoXRotaryEmbedding: [B, s, rotary_ndims]).
            const DType t = b.tensor(x).dtype;
            cosT = b.constant(s * rd, t, 4.0, "rotary", false); // [1, s, d]: position ids are [1, s]
            sinT = b.constant(s * rd, t, 4.0, "rotary", false);
            if (cfg.attention == AttentionImpl::Eager && m.causal) {
                // _update_causal_mask builds a [B, 1, s, s] additive mask in the model dtype for eager attention.
                causalMask = b.constant(s * s, t, 1.0, "causal_mask");
            }
        }
        return x;
    }

    void TransformerBuilder::head(TensorId x)
    {
        b.setLayer(m.layers);
        if (m.preNorm && m.finalNorm)
            x = norm(x, "final_norm");
        const double vocab = double(m.vocab);
        next(m.head == HeadKind::Classifier ? ParameterRole::ClassifierHead : ParameterRole::OutputHead);
        switch (m.head) {
        case HeadKind::CausalLM: {
            const TensorId w = m.tiedEmbeddings ? wte : b.parameter("lm_head", vocab * h, true, h, vocab);
            const TensorId bias = m.headBias ? b.parameter("lm_head", vocab, false) : kNoTensor;
            const TensorId logits = b.linear(x, w, bias, s, h, vocab, "lm_head");
            // transformers ForCausalLMLoss upcasts the logits (logits.float()) before cross_entropy, and pads and
            // shifts the labels into a new int64 tensor that nll_loss saves.
            const TensorId logits32 = b.cast(logits, DType::F32, "loss.upcast");
            const TensorId lsm = b.logSoftmax(logits32, s, vocab, "loss.log_softmax");
            const TensorId shifted = b.constant(s, DType::I64, 0.0, "loss.shift_labels");
            b.nllLoss(lsm, shifted, s, "loss.nll");
            break;
        }
        case HeadKind::MaskedLM: {
            // BertLMPredictionHead: transform (dense, activation, LayerNorm), then a decoder tied to the word
            // embeddings with its own bias, over every position; CrossEntropyLoss on the flattened scores.
            TensorId t = linearParam(x, h, h, true, "mlm.transform");
            t = activation(t);
            t = norm(t, "mlm.norm");
            next(ParameterRole::OutputHead);
            const TensorId w = m.tiedEmbeddings ? wte : b.parameter("mlm.decoder", vocab * h, true, h, vocab);
            const TensorId bias = m.headBias ? b.parameter("mlm.decoder", vocab, false) : kNoTensor;
            const TensorId logits = b.linear(t, w, bias, s, h, vocab, "mlm.decoder");
            const TensorId lsm = b.logSoftmax(logits, s, vocab, "loss.log_softmax");
            b.nllLoss(lsm, labels, s, "loss.nll");
            break;
        }
        case HeadKind::Classifier: {
            // torchvision: x = x[:, 0]; x = self.heads(x)
            const TensorId cls = b.view(x, h);
            const TensorId w = b.parameter("heads.head", double(m.classes) * h, true, h, m.classes);
            const TensorId bias = m.headBias ? b.parameter("heads.head", m.classes, false) : kNoTensor;
            // One row per sample.
            const double saved = s;
            s = 1.0;
            const TensorId logits = b.linear(cls, w, bias, 1.0, h, m.classes, "heads.head");
            s = saved;
            const TensorId lsm = b.logSoftmax(logits, 1.0, m.classes, "loss.log_softmax");
            b.nllLoss(lsm, labels, 1.0, "loss.nll");
            break;
        }
        case HeadKind::None:
            break;
        }
    }

    TensorId TransformerBuilder::block(TensorId x)
    {
        if (m.parallelResidual) {
            // GPT-NeoX use_parallel_residual: both branches read the block input and
            // hidden_states = mlp_output + attn_output + hidden_states (transformers GPTNeoXLayer.forward).
            TensorId y = attention(norm(x, "attn.norm"));
            y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
            TensorId z = mlp(norm(x, "mlp.norm"));
            z = b.dropout(z, m.hiddenDropout, "mlp.dropout_out");
            return b.add(b.add(z, y, "mlp.residual"), x, "attn.residual");
        }
        if (m.preNorm) {
            TensorId y = norm(x, "attn.norm");
            y = attention(y);
            y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
            x = b.add(y, x, "attn.residual");
            y = norm(x, "mlp.norm");
            y = mlp(y);
            y = b.dropout(y, m.hiddenDropout, "mlp.dropout_out");
            return b.add(y, x, "mlp.residual");
        }
        // BERT: LayerNorm(dropout(dense(x)) + input) after attention and after the FFN.
        TensorId y = attention(x);
        y = b.dropout(y, m.hiddenDropout, "attn.dropout_out");
        x = norm(b.add(y, x, "attn.residual"), "attn.norm");
        y = mlp(x);
        y = b.dropout(y, m.hiddenDropout, "mlp.dropout_out");
        return norm(b.add(y, x, "mlp.residual"), "mlp.norm");
    }

    void TransformerBuilder::build()
    {
        g.layers = m.layers;
        g.samplesTokens = m.input == InputKind::Patches ? 1.0 : s;
        TensorId x = embeddings();
        const bool full = cfg.checkpointing == Checkpointing::Full;
        for (int l = 0; l < m.layers; ++l) {
            b.setLayer(l);
            if (full)
                b.beginRegion();
            x = block(x);
            if (full)
                b.endRegion();
        }
        head(x);
    }

} // namespace

void buildTransformerGraph(const ModelSpec& model, const TrainingConfig& config, Graph& g)
{
    g.clear();
    const auto& t = model.transformer;
    const std::size_t estimate = std::size_t(t.layers + 2) * 48;
    g.ops.reserve(estimate);
    g.tensors.reserve(estimate * 2);
    g.storages.reserve(estimate * 2);
    g.refs.reserve(estimate * 8);
    g.params.reserve(std::size_t(t.layers + 2) * 16);
    TransformerBuilder builder(model, config, g);
    builder.build();
}

void buildGraph(const ModelSpec& model, const TrainingConfig& config, Graph& out)
{
    if (model.family == ModelFamily::Cnn)
        buildCnnGraph(model, config, out);
    else
        buildTransformerGraph(model, config, out);
}

Graph buildGraph(const ModelSpec& model, const TrainingConfig& config)
{
    Graph g;
    buildGraph(model, config, g);
    return g;
}

} // namespace headroom
