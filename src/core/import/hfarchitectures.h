#pragma once

// Readers of the Hugging Face config.json fields of each supported architecture, internal to hfconfig.cpp. Each
// turns a config into the TransformerSpec of the model transformers builds from it, and throws
// detail::ParseFailure naming the config field when a value is missing, of the wrong type or out of range.

#include "jsonreader.h"
#include "modelspec.h"

#include <cstdint>
#include <string>

namespace headroom::detail::hf {

struct Imported {
    TransformerSpec t;
    std::int64_t sequence = 0; // the checkpoint's context in tokens, or its image side in pixels
    std::string notes;         // what the simulation leaves out, appended to the model's description
};

Imported readBert(const ObjectReader& r);
Imported readRoberta(const ObjectReader& r);
Imported readGpt2(const ObjectReader& r);
Imported readGptNeoX(const ObjectReader& r);
Imported readLlama(const ObjectReader& r);
Imported readMistral(const ObjectReader& r);
Imported readQwen2(const ObjectReader& r);
Imported readQwen3(const ObjectReader& r);
Imported readMixtral(const ObjectReader& r);
Imported readQwen2Moe(const ObjectReader& r);
Imported readQwen3Moe(const ObjectReader& r);
Imported readOlmoe(const ObjectReader& r);
Imported readVit(const ObjectReader& r);
int labelCount(const ObjectReader& r); // PretrainedConfig.num_labels

} // namespace headroom::detail::hf
