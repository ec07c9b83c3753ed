#pragma once

// What a fine-tuning method trains, how it stores each weight, and PEFT's adapted Linear written operator by
// operator, so that the graph saves what autograd saves around a frozen, adapted or 4-bit layer:
//   peft/tuners/lora/layer.py Linear.forward, lora/bnb.py Linear4bit.forward, lora/dora.py (PEFT @ 5d602fd);
//   bitsandbytes nn/modules.py Linear4bit.forward and autograd/_functions.py MatMul4Bit (@ 95f9af3);
//   peft/utils/other.py prepare_model_for_kbit_training (the QLoRA recipe).
// docs/references/finetuning.md has the facts with their sources.

#include "error.h"
#include "graphbuilder.h"
#include "modelspec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

// Where a parameter sits in the model, which decides whether a method trains it and how it is stored.
enum class ParameterRole : std::uint8_t {
    Embedding,      // token, type and position embeddings, ViT's patch projection, class token, position table
    Norm,           // LayerNorm / RMSNorm weights and biases
    Linear,         // the weight of a Linear inside a block (and BERT's MLM transform)
    Bias,           // the bias of such a Linear
    OutputHead,     // the vocabulary projection (lm_head, MLM decoder): PEFT never adapts it
    ClassifierHead, // a freshly initialised task head: trained by every method (PEFT modules_to_save)
};

class FinetunePolicy {
public:
    FinetunePolicy(const ModelSpec& model, const TrainingConfig& config, const PrecisionPlan& plan);

    // layer: -1 embeddings, 0..L-1 blocks, L the head.
    ParameterKind kind(ParameterRole role, int layer) const;
    // Whether PEFT puts an adapter beside the block Linear with this operator label.
    bool adapts(std::string_view label) const;
    bool quantized() const { return m_cfg.method == FinetuneMethod::QLoRA; }
    // transformers' enable_input_require_grads(): the embeddings' output requires grad, so that reentrant
    // checkpointing of a frozen model still reaches the adapters. PEFT and the Trainer turn it on with checkpointing.
    bool inputRequiresGrad(const TrainingConfig& config) const;
    // The first block whose parameters are made differently from the block before it (Freeze: the first one that
    // trains), or -1 when every block is made the same.
    int blockKindChange() const
    {
        const bool split = m_cfg.method == FinetuneMethod::Freeze && m_frozenLayers > 0 && m_frozenLayers < m_layers;
        return split ? m_frozenLayers : -1;
    }

    const FinetuneConfig& config() const { return m_cfg; }
    DType adapterType() const { return m_adapter; }
    DType computeType() const { return m_compute; } // bnb_4bit_compute_dtype
    bool autocast() const { return m_autocast; }

private:
    FinetuneConfig m_cfg;
    int m_layers = 0;
    int m_frozenLayers = 0;
    bool m_autocast = false;
    DType m_trainable = DType::F32;
    DType m_frozen = DType::F32;
    DType m_adapter = DType::F32;
    DType m_compute = DType::F32;
    std::vector<std::string> m_targets; // operator labels
};

// A block Linear (weight in x out, optional bias) as the method runs it: plain, frozen, 4-bit, and with a LoRA or
// DoRA adapter beside it when the policy targets its label.
TensorId finetuneLinear(GraphBuilder& b, const FinetunePolicy& policy, TensorId x, double rows, double in, double out,
                        bool bias, std::string_view label, ParameterRole role = ParameterRole::Linear);

// The operator labels of the block Linear layers a transformer has, and the names PEFT users write for them.
std::vector<std::string_view> linearLabels(const TransformerSpec& t);
std::vector<std::string> targetLabels(std::string_view name); // empty when the name is unknown

// Model-dependent checks: LoRA targets that name no Linear of the model, adapters on a CNN, frozen layers beyond
// the model's depth, a task head the model cannot take.
std::optional<Error> validateFinetune(const ModelSpec& model, const TrainingConfig& config, std::string_view origin);

} // namespace headroom
