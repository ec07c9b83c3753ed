#pragma once

// Imports a Hugging Face `config.json` as the model that transformers builds from it for the checkpoint's
// `architectures` entry: BertForMaskedLM, RobertaForMaskedLM, GPT2LMHeadModel, GPTNeoXForCausalLM,
// LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM and ViTForImageClassification. Every size the model needs
// must be in the file (a config.json that relies on transformers' class defaults for its sizes is not a
// checkpoint's); flags that transformers defaults (dropout, biases, tied embeddings) take transformers' defaults.

#include "error.h"
#include "modelspec.h"

#include <string>
#include <string_view>

namespace headroom {

// `origin` names the file in errors; `idHint` (usually the checkpoint's directory name) becomes the model id.
// The returned spec's reference.parameters is the exact parameter count of the model Headroom builds.
Expected<ModelSpec> importHuggingFaceConfig(std::string_view jsonText, std::string_view origin,
                                            std::string_view idHint);

// "BertForMaskedLM (bert), ..." for messages and help texts.
std::string supportedHuggingFaceArchitectures();

// A Headroom model file (it has "format") or a Hugging Face config.json (it has "model_type" or "architectures").
Expected<ModelSpec> importModelJson(std::string_view jsonText, std::string_view origin, std::string_view idHint);

} // namespace headroom
