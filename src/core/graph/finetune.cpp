#include "finetune.h"

#include <algorithm>
#include <array>

namespace headroom {

namespace {

    // Names PEFT users write in target_modules (module-name suffixes of the reference implementations), and the
    // operator labels of the block Linear layers they select. An ambiguous suffix selects every Linear it ends
    // (GPT-2's c_proj is both the attention and the MLP output; BERT's dense is three of them).
    struct Alias {
        std::string_view name;
        std::array<std::string_view, 4> labels;
    };
    constexpr std::array<Alias, 32> kAliases { {
        { "q_proj", { "attn.q" } },
        { "query", { "attn.q" } },
        { "q", { "attn.q" } },
        { "wq", { "attn.q" } },
        { "k_proj", { "attn.k" } },
        { "key", { "attn.k" } },
        { "k", { "attn.k" } },
        { "wk", { "attn.k" } },
        { "v_proj", { "attn.v" } },
        { "value", { "attn.v" } },
        { "v", { "attn.v" } },
        { "wv", { "attn.v" } },
        { "c_attn", { "attn.qkv" } },
        { "query_key_value", { "attn.qkv" } },
        { "qkv_proj", { "attn.qkv" } },
        { "in_proj", { "attn.qkv" } },
        { "o_proj", { "attn.out" } },
        { "out_proj", { "attn.out" } },
        { "wo", { "attn.out" } },
        { "c_proj", { "attn.out", "mlp.fc2" } },
        { "dense", { "attn.out", "mlp.fc1", "mlp.fc2", "mlm.transform" } },
        { "gate_proj", { "mlp.gate" } },
        { "w1", { "mlp.gate" } },
        { "up_proj", { "mlp.up" } },
        { "w3", { "mlp.up" } },
        { "down_proj", { "mlp.down" } },
        { "w2", { "mlp.down" } },
        { "fc1", { "mlp.fc1" } },
        { "c_fc", { "mlp.fc1" } },
        { "dense_h_to_4h", { "mlp.fc1" } },
        { "fc2", { "mlp.fc2" } },
        { "dense_4h_to_h", { "mlp.fc2" } },
    } };

    constexpr std::array<std::string_view, 11> kLabels { "attn.q",   "attn.k",   "attn.v",       "attn.qkv",
                                                         "attn.out", "mlp.gate", "mlp.up",       "mlp.down",
                                                         "mlp.fc1",  "mlp.fc2",  "mlm.transform" };

    bool hasLabel(const std::vector<std::string_view>& labels, std::string_view l)
    {
        return std::find(labels.begin(), labels.end(), l) != labels.end();
    }

} // namespace

std::vector<std::string_view> linearLabels(const TransformerSpec& t)
{
    std::vector<std::string_view> l;
    if (t.fusedQkv)
        l.emplace_back("attn.qkv");
    else
        l.insert(l.end(), { "attn.q", "attn.k", "attn.v" });
    l.emplace_back("attn.out");
    if (t.gatedFfn)
        l.insert(l.end(), { "mlp.gate", "mlp.up", "mlp.down" });
    else
        l.insert(l.end(), { "mlp.fc1", "mlp.fc2" });
    if (t.head == HeadKind::MaskedLM)
        l.emplace_back("mlm.transform");
    return l;
}

std::vector<std::string> targetLabels(std::string_view name)
{
    if (std::find(kLabels.begin(), kLabels.end(), name) != kLabels.end())
        return { std::string(name) };
    for (const Alias& a : kAliases) {
        if (a.name != name)
            continue;
        std::vector<std::string> out;
        for (std::string_view l : a.labels) {
            if (!l.empty())
                out.emplace_back(l);
        }
        return out;
    }
    return {};
}

FinetunePolicy::FinetunePolicy(const ModelSpec& model, const TrainingConfig& config, const PrecisionPlan& plan)
    : m_cfg(config.finetune)
    , m_layers(model.transformer.layers)
    , m_autocast(plan.autocast)
    , m_trainable(plan.paramType)
{
    const auto& t = model.transformer;
    m_frozenLayers = m_cfg.frozenLayers < 0 ? m_layers : std::min(m_cfg.frozenLayers, m_layers);
    // A frozen weight needs no FP32 copy: PEFT recipes load the base model in the 16-bit compute type
    // (from_pretrained(torch_dtype=torch.bfloat16)) and autocast runs on it as it is.
    m_frozen = plan.autocast ? plan.lowType : plan.paramType;
    // PEFT creates adapters in the base weight's dtype and then, with autocast_adapter_dtype=True (the default of
    // get_peft_model), upcasts 16-bit adapters to FP32. Under DeepSpeed/Megatron-style master weights the engine casts
    // the whole module to 16 bits and keeps an FP32 master copy of what trains.
    const bool master = isMixed(config.precision) && config.mixedStyle == MixedPrecisionStyle::MasterWeights;
    m_adapter = master ? plan.paramType : DType::F32;
    // bnb_4bit_compute_dtype: the training type's 16-bit type; FP32 (bitsandbytes' default) when training in FP32.
    const bool sixteen = config.precision != Precision::FP32 && config.precision != Precision::TF32;
    m_compute = sixteen ? plan.lowType : DType::F32;
    if (!m_cfg.adapters())
        return;
    if (m_cfg.loraTargets.empty()) {
        // TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: q and v (c_attn / query_key_value where fused).
        if (t.fusedQkv)
            m_targets = { "attn.qkv" };
        else
            m_targets = { "attn.q", "attn.v" };
        return;
    }
    const auto present = linearLabels(t);
    for (const std::string& name : m_cfg.loraTargets) {
        if (name == "all-linear") {
            // PEFT INCLUDE_LINEAR_LAYERS_SHORTHAND: every Linear except the output layer.
            m_targets.assign(present.begin(), present.end());
            return;
        }
        for (std::string& l : targetLabels(name)) {
            if (hasLabel(present, l) && std::find(m_targets.begin(), m_targets.end(), l) == m_targets.end())
                m_targets.push_back(std::move(l));
        }
    }
}

ParameterKind FinetunePolicy::kind(ParameterRole role, int layer) const
{
    const ParameterKind trains { true, m_trainable };
    const ParameterKind frozen { false, m_frozen };
    if (role == ParameterRole::ClassifierHead)
        return trains;
    switch (m_cfg.method) {
    case FinetuneMethod::Full:
        return trains;
    case FinetuneMethod::Freeze:
        if (role == ParameterRole::Embedding)
            return frozen;
        return layer >= 0 && layer < m_frozenLayers ? frozen : trains;
    case FinetuneMethod::LoRA:
    case FinetuneMethod::DoRA:
        return frozen;
    case FinetuneMethod::QLoRA:
        // Linear4bit replaces every Linear but the output layer; prepare_model_for_kbit_training then upcasts every
        // other 16-bit parameter (embeddings, norms, biases, lm_head) to FP32.
        if (role == ParameterRole::Linear)
            return { false, DType::NF4 };
        return { false, DType::F32 };
    }
    return trains;
}

bool FinetunePolicy::adapts(std::string_view label) const
{
    return std::find(m_targets.begin(), m_targets.end(), label) != m_targets.end();
}

bool FinetunePolicy::inputRequiresGrad(const TrainingConfig& config) const
{
    return m_cfg.method != FinetuneMethod::Full && config.checkpointing != Checkpointing::None;
}

std::optional<Error> validateFinetune(const ModelSpec& model, const TrainingConfig& config, std::string_view origin)
{
    auto err = [&](const char* field, std::string msg) { return Error { std::string(origin), field, std::move(msg) }; };
    if (config.task != Task::Model) {
        const std::string task(toString(config.task));
        if (model.isVision())
            return err("task", "\"" + task + "\" is a text task; " + model.id + " is a vision model (use \"model\")");
        if (config.task == Task::CausalLM && !model.transformer.causal)
            return err("task",
                       "causal-lm needs a decoder; " + model.id + " is an encoder (masked-lm, seq-cls or token-cls)");
        if (config.task == Task::MaskedLM && model.transformer.causal)
            return err("task",
                       "masked-lm needs an encoder; " + model.id + " is a decoder (causal-lm, seq-cls or token-cls)");
    }
    const FinetuneConfig& f = config.finetune;
    if (f.method == FinetuneMethod::Full)
        return std::nullopt;
    if (model.family == ModelFamily::Cnn)
        return err("finetune",
                   "\"" + std::string(toString(f.method)) + "\" is modelled for transformers; " + model.id
                       + " is a CNN (use \"full\")");
    if (f.method == FinetuneMethod::Freeze && f.frozenLayers > model.transformer.layers)
        return err("frozen_layers",
                   "must be at most " + std::to_string(model.transformer.layers) + " (" + model.id + " has "
                       + std::to_string(model.transformer.layers) + " blocks), or -1 for all of them");
    if (!f.adapters())
        return std::nullopt;
    const auto present = linearLabels(model.transformer);
    for (const std::string& name : f.loraTargets) {
        if (name == "all-linear")
            continue;
        const auto labels = targetLabels(name);
        const bool found = std::any_of(labels.begin(), labels.end(),
                                       [&](const std::string& l) { return hasLabel(present, l); });
        if (!found) {
            std::string msg = "\"" + name + "\" names no Linear layer of " + model.id + "; its layers:";
            for (std::string_view l : present) {
                msg += ' ';
                msg += l;
            }
            msg += " (or their Hugging Face names such as q_proj, v_proj), or all-linear";
            return err("lora_targets", std::move(msg));
        }
    }
    return std::nullopt;
}

} // namespace headroom
