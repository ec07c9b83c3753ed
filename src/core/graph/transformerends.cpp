// The two ends of a transformer: the embeddings (tokens, or ViT's patches) and the task head with its loss, written as
// their reference implementations write them (transformers BertForMaskedLM, *ForSequenceClassification,
// *ForTokenClassification, LlamaForCausalLM; torchvision VisionTransformer).

#include "transformerbuilder.h"

#include <cmath>

namespace headroom::detail {

TensorId TransformerBuilder::embeddings()
{
    b.setLayer(-1);
    next(ParameterRole::Embedding);
    if (m.input == InputKind::Patches) {
        // torchvision VisionTransformer._process_input: conv_proj, flatten, then cat the class token and add
        // the position embedding.
        const double side = std::floor(double(cfg.sequenceLength) / m.patchSize);
        const double patches = side * side;
        const TensorId image = b.input("images", b.plan().paramType, // the model's dtype, as for a CNN
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
        // VisionTransformer(image_size=...) sizes its position embedding for the image it is built for, as
        // torchvision's interpolate_embeddings does for pretrained weights at another resolution. HF's ViT keeps
        // image_size's positions and interpolates them to the image on every forward (interpolate_pos_encoding).
        const double tokens = patches + (m.classToken ? 1 : 0);
        const double refSide = std::floor(double(m.imageSize) / m.patchSize);
        const double stored = m.positionsFollowImage ? tokens : refSide * refSide + (m.classToken ? 1 : 0);
        TensorId pos = b.parameter("encoder.pos_embedding", stored * h, false, h, stored);
        if (stored != tokens)
            pos = b.constant(tokens * h, b.plan().paramType, 1.0, "embed.position_interpolated", false);
        x = b.add(x, pos, "embed.position");
        return b.dropout(x, m.embeddingDropout, "embed.dropout");
    }
    ids = b.input("input_ids", DType::I64, s);
    b.input("attention_mask", DType::I64, s);
    if (headKind == HeadKind::SequenceClassification)
        labels = b.input("labels", DType::I64, 1.0);
    else if (headKind != HeadKind::None)
        labels = b.input("labels", DType::I64, s);
    // VocabParallelEmbedding: each tensor-parallel rank looks up its rows of the vocabulary, and the partial
    // embeddings are all-reduced.
    const std::size_t firstParam = g.params.size();
    wte = b.parameter("embed.tokens", vocab * h, false, h, vocab);
    shard(firstParam, Split::Column);
    TensorId x = b.embedding(wte, ids, s, h, "embed.tokens");
    allReduce(g.tensors[x].producer, x);
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
    if (m.embeddingNorm)
        x = norm(x, "embed.norm");
    // Sequence parallelism: each rank keeps s/t of the tokens from here to the head. The embeddings are built whole
    // and scattered, and the dropout runs on the shard (Megatron's LanguageModelEmbedding: scatter to the sequence-
    // parallel region, then dropout), so its mask is sbh/t bytes.
    x = scatter(x);
    x = b.dropout(x, m.embeddingDropout, "embed.dropout");
    masksAndRotary(x);
    return x;
}

// What every stage builds for itself before its blocks: the padding or causal mask of eager attention and the rotary
// tables (a later pipeline stage computes its own from the position ids).
void TransformerBuilder::masksAndRotary(TensorId x)
{
    if (!m.causal && cfg.attention == AttentionImpl::Eager) {
        // get_extended_attention_mask: (1 - mask) * min, shape [B, 1, 1, s], in the parameters' dtype.
        paddingMask = b.constant(s, b.plan().paramType, 2.0, "attention_mask");
    }
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
}

// A later pipeline stage's input: the previous stage's output, in the hidden states' dtype (the parameters' type:
// FP32 under autocast, 16-bit with master weights), s/t tokens under sequence parallelism. It requires grad, as
// Megatron's received tensors do, so that backward computes the gradient sent back (GraphBuilder::receive).
TensorId TransformerBuilder::receive(int firstLayer)
{
    b.setLayer(firstLayer);
    if (labels == kNoTensor && headKind != HeadKind::None)
        labels = b.input("labels", DType::I64, headKind == HeadKind::SequenceClassification ? 1.0 : s);
    const TensorId x = b.receive((sp ? s / tp : s) * h, b.plan().paramType, "pipeline.receive");
    masksAndRotary(x);
    return x;
}

void TransformerBuilder::head(TensorId x)
{
    b.setLayer(m.layers);
    if (m.preNorm && m.finalNorm)
        x = norm(x, "final_norm");
    x = gather(x); // the head reads every token
    next(headKind == HeadKind::CausalLM || headKind == HeadKind::MaskedLM ? ParameterRole::OutputHead
                                                                          : ParameterRole::ClassifierHead);
    switch (headKind) {
    case HeadKind::CausalLM: {
        // A column-parallel output layer over this rank's vocabulary rows (Megatron's parallel cross entropy).
        const std::size_t firstParam = g.params.size();
        // A later pipeline stage keeps its own copy of tied word embeddings (Megatron's shared embedding, whose
        // gradient is all-reduced with the first stage's).
        const TensorId w = m.tiedEmbeddings && wte != kNoTensor ? wte
                                                                : b.parameter("lm_head", vocab * h, true, h, vocab);
        const TensorId bias = m.headBias ? b.parameter("lm_head", vocab, false) : kNoTensor;
        shard(firstParam, Split::Column);
        const TensorId logits = b.linear(x, w, bias, s, h, vocab, "lm_head");
        allReduce(g.tensors[logits].producer, x); // the input's gradient, in backward
        g.modelOutput = logits;
        // transformers ForCausalLMLoss upcasts the logits (logits.float()) before cross_entropy, and pads and
        // shifts the labels into a new int64 tensor that nll_loss saves.
        const TensorId logits32 = b.cast(logits, DType::F32, "loss.upcast");
        const TensorId shifted = b.constant(s, DType::I64, 0.0, "loss.shift_labels");
        b.crossEntropy(logits32, shifted, s, vocab);
        break;
    }
    case HeadKind::MaskedLM: {
        // BertLMPredictionHead: transform (dense, activation, LayerNorm), then a decoder tied to the word
        // embeddings with its own bias, over every position; CrossEntropyLoss on the flattened scores.
        TensorId t = linearParam(x, h, h, true, "mlm.transform");
        t = activation(t);
        t = norm(t, "mlm.norm");
        next(ParameterRole::OutputHead);
        const std::size_t firstParam = g.params.size();
        const TensorId w = m.tiedEmbeddings && wte != kNoTensor ? wte
                                                                : b.parameter("mlm.decoder", vocab * h, true, h, vocab);
        const TensorId bias = m.headBias ? b.parameter("mlm.decoder", vocab, false) : kNoTensor;
        shard(firstParam, Split::Column);
        const TensorId logits = b.linear(t, w, bias, s, h, vocab, "mlm.decoder");
        allReduce(g.tensors[logits].producer, t); // the input's gradient, in backward
        g.modelOutput = logits;
        b.crossEntropy(logits, labels, s, vocab);
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
        g.modelOutput = logits;
        b.crossEntropy(logits, labels, 1.0, m.classes);
        break;
    }
    case HeadKind::SequenceClassification:
        sequenceClassifier(x);
        break;
    case HeadKind::TokenClassification:
        tokenClassifier(x);
        break;
    case HeadKind::None:
        break;
    }
}

// F.cross_entropy (log_softmax + nll_loss) over `rows` rows of `classes` scores; transformers' generic losses first
// upcast the logits (logits.float()).
TensorId TransformerBuilder::crossEntropy(TensorId logits, double rows, double classes, bool upcast)
{
    g.modelOutput = logits;
    if (upcast)
        logits = b.cast(logits, DType::F32, "loss.upcast");
    return b.crossEntropy(logits, labels, rows, classes);
}

void TransformerBuilder::sequenceClassifier(TensorId x)
{
    const double n = classes;
    if (!m.causal) {
        // BertForSequenceClassification: BertPooler (dense + tanh on the first token), dropout (classifier_dropout,
        // else hidden_dropout_prob), classifier, CrossEntropyLoss. RobertaClassificationHead has the same
        // parameters with one more dropout before its dense layer, which is not modelled.
        const double saved = s;
        s = 1.0;
        next(ParameterRole::Linear);
        TensorId pooled = linearParam(b.view(x, h), h, h, true, "pooler.dense");
        pooled = b.unary(pooled, UnaryFn::Tanh, "pooler.act");
        pooled = b.dropout(pooled, m.hiddenDropout, "classifier.dropout");
        next(ParameterRole::ClassifierHead);
        const TensorId w = b.parameter("classifier", n * h, true, h, n);
        const TensorId bias = b.parameter("classifier", n, false);
        const TensorId logits = b.linear(pooled, w, bias, 1.0, h, n, "classifier");
        s = saved;
        crossEntropy(logits, 1.0, n, false);
        return;
    }
    // GenericForSequenceClassification (Llama, Qwen2, Mistral; GPT-2's is the same): score without bias at every
    // token, then logits[arange(b), last_non_pad_token], which saves only the indices; fixed_cross_entropy.
    const TensorId w = b.parameter("score", n * h, true, h, n);
    const TensorId logits = b.linear(x, w, kNoTensor, s, h, n, "score");
    crossEntropy(b.view(logits, n), 1.0, n, false);
}

void TransformerBuilder::tokenClassifier(TensorId x)
{
    const double n = classes;
    // BertForTokenClassification and GenericForTokenClassification: dropout (classifier_dropout, else the hidden
    // dropout, else 0.1 in the generic class), a classifier with bias at every token, cross-entropy over the tokens
    // (the generic loss upcasts the logits first).
    const double p = m.causal ? (m.hiddenDropout > 0.0 ? m.hiddenDropout : 0.1) : m.hiddenDropout;
    x = b.dropout(x, p, "classifier.dropout");
    const TensorId w = b.parameter(m.causal ? "score" : "classifier", n * h, true, h, n);
    const TensorId bias = b.parameter(m.causal ? "score" : "classifier", n, false);
    const TensorId logits = b.linear(x, w, bias, s, h, n, m.causal ? "score" : "classifier");
    crossEntropy(logits, s, n, m.causal);
}

} // namespace headroom::detail

namespace headroom {

HeadKind effectiveHead(const TransformerSpec& t, const TrainingConfig& config)
{
    switch (config.task) {
    case Task::Model:
        return t.head;
    case Task::CausalLM:
        return HeadKind::CausalLM;
    case Task::MaskedLM:
        return HeadKind::MaskedLM;
    case Task::SequenceClassification:
        return HeadKind::SequenceClassification;
    case Task::TokenClassification:
        return HeadKind::TokenClassification;
    }
    return t.head;
}

} // namespace headroom
