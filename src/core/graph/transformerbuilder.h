#pragma once

// The transformer graph builder shared by transformerbuilder.cpp (blocks) and transformerends.cpp (embeddings and
// heads). Internal to the core: modelgraph.h is the interface.

#include "finetune.h"
#include "graphbuilder.h"
#include "modelgraph.h"

#include <algorithm>
#include <cmath>

namespace headroom::detail {

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
        headKind = effectiveHead(m, config);
        classes = config.task == Task::Model ? m.classes : config.numLabels;
        // Megatron tensor parallelism: each rank holds a/t heads, kv/t key/value groups, f/t FFN channels and
        // V/t rows of the vocabulary (validateForModel checks that t divides them).
        tp = std::max(1, config.tensorParallel);
        a /= tp;
        kv /= tp;
        f /= tp;
        vocab = std::ceil(double(m.vocab) / tp);
        sp = tp > 1 && config.sequenceParallel;
        ep = std::max(1, config.expertParallel);
        // Context parallelism: this rank's s/cp tokens of each sequence (validateContext checks that 2 cp divides
        // them); attention still sees all of the sequence's keys.
        cp = std::max(1, config.contextParallel);
        sequence = s;
        s /= cp;
        // transformers 5 decoders keep a DynamicCache in training (use_cache stays on), unless gradient
        // checkpointing turns it off (gradient_checkpointing_enable: "use_cache=True is incompatible with gradient
        // checkpointing"); Megatron's tensor, pipeline and context parallel layouts run their own attention.
        kvCache = m.causal && model.reference.implementation.starts_with("transformers")
            && config.transformers >= Release { 5, 0 } && config.checkpointing != Checkpointing::Full && tp == 1
            && cp == 1 && config.pipelineParallel <= 1;
        // torch.nn.MultiheadAttention (torchvision's VisionTransformer): batch_first inputs are transposed, so its
        // projections are laid out sequence first.
        sequenceFirst = model.reference.implementation.starts_with("torchvision");
    }

    // Builds the graph; with GraphLayers::RepeatIdentical, one block of the longest run of identical blocks
    // (LayerRepeat). Returns false when the built block turns out not to stand for the others (what it hands on
    // differs from what it receives), and the caller builds every block.
    bool build(GraphLayers layers);

private:
    // How a Linear is split over the tensor-parallel ranks (Megatron ColumnParallelLinear / RowParallelLinear).
    enum class Split : std::uint8_t { None, Column, Row };

    TensorId norm(TensorId x, std::string_view name, double width = 0.0); // width 0: the hidden size
    TensorId attention(TensorId input);
    void packedInProjection(TensorId input, TensorId qkv, TensorId q, TensorId out);
    TensorId mlp(TensorId input);
    TensorId moe(TensorId input); // transformermoe.cpp
    TensorId sharedExpert(TensorId x);
    TensorId expertLinear(TensorId x, double rows, double in, double out, std::string_view name, Split split);
    TensorId activation(TensorId x);
    TensorId rope(TensorId x);
    TensorId rotate(TensorId x);
    TensorId block(TensorId x);
    TensorId layer(TensorId x, int l);
    void copyParameters(std::size_t begin, std::size_t end, int layers);
    TensorId embeddings();
    void masksAndRotary(TensorId x);
    TensorId receive(int firstLayer);
    void head(TensorId x);
    void sequenceClassifier(TensorId x);
    void tokenClassifier(TensorId x);
    TensorId crossEntropy(TensorId logits, double rows, double classes, bool upcast);
    TensorId linearParam(TensorId x, double in, double out, bool bias, std::string_view name,
                         Split split = Split::None);
    // Marks the parameters created since `first` as split over the tensor-parallel ranks (a row-parallel bias is
    // replicated), and records the all-reduce that follows a row-parallel Linear or precedes, in backward, the
    // column-parallel ones that read `input`.
    void shard(std::size_t first, Split split);
    void allReduce(std::int32_t op, TensorId tensor, double share = 1.0, int calls = 1);
    // Sequence parallelism (Korthikanti et al. 2022, sec. 4.2.2): the all-gather of a sharded s/t-token tensor
    // before column-parallel linears, and the reduce-scatter after a row-parallel one. Without it, identities.
    TensorId gather(TensorId x);
    TensorId scatter(TensorId y);
    // The column-parallel linears built since `firstOp` read `gathered`: they save `sharded` instead, as Megatron's
    // sequence-parallel linear does, and gather it again in backward.
    void saveSharded(std::int32_t firstOp, TensorId gathered, TensorId sharded);
    TensorId columnInput(TensorId x, std::int32_t& firstOp, TensorId& sharded);
    void next(ParameterRole role) { b.setParameterKind(policy.kind(role, b.layer())); }

    const TransformerSpec& m;
    const TrainingConfig& cfg;
    Graph& g;
    GraphBuilder b;
    FinetunePolicy policy;
    double s = 0, h = 0, a = 0, kv = 0, d = 0, f = 0;
    double rd = 0; // rotary channels per head
    int tp = 1;
    int ep = 1; // expert-parallel ranks (Megatron: carved out of the data-parallel ones)
    int cp = 1; // context-parallel ranks: s is this rank's share of the `sequence` tokens
    double sequence = 0;
    bool sp = false;
    bool kvCache = false;       // keys and values copied into transformers' DynamicCache (attention())
    bool sequenceFirst = false; // q, k and v laid out (s, B, heads, d) in memory (attention())
    double vocab = 0;           // vocabulary rows on this rank
    HeadKind headKind = HeadKind::CausalLM;
    int classes = 0;
    TensorId ids = kNoTensor, labels = kNoTensor, wte = kNoTensor;
    TensorId cosT = kNoTensor, sinT = kNoTensor, causalMask = kNoTensor, paddingMask = kNoTensor;
};

} // namespace headroom::detail
