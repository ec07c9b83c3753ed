#pragma once

// A scenario file (.headroom.json): GPU, model, every training setting and every what-if override, so that a
// saved scenario reproduces the same estimate. A custom model can be embedded in the file.

#include "error.h"
#include "gpuspec.h"
#include "modelspec.h"
#include "trainingconfig.h"

#include <optional>
#include <string>
#include <string_view>

namespace headroom {

// The default scenario the project was asked for: RTX A3000 12 GB with a what-if 392 GB/s bandwidth roof.
struct Scenario {
    std::string gpuId;
    std::string modelId;
    TrainingConfig config;
    GpuOverrides overrides;

    bool operator==(const Scenario&) const = default;
};
Scenario defaultScenario();

struct ScenarioDocument {
    Scenario scenario;
    std::optional<ModelSpec> embeddedModel; // when the model is not a catalog preset
    std::string title;                      // optional, for reports and the window title
};

namespace detail {
    class ObjectReader;
}

Expected<ScenarioDocument> parseScenario(std::string_view jsonText, std::string_view origin);
// A scenario's `finetune` object (method, lora_rank, lora_alpha, lora_dropout, lora_targets, frozen_layers); also
// the `scenario.finetune` of a measurement (measured.h). Throws the reader's failure naming the field.
FinetuneConfig readFinetune(const detail::ObjectReader& r);
std::string serializeScenario(const ScenarioDocument& doc);

// Checks a configuration for values the simulator cannot take (a zero batch, ZeRO stage 5, ...).
std::optional<Error> validateConfig(const TrainingConfig& config, std::string_view origin = {});
// The checks that need the model: a sequence past learned positions (GPT-2 has no embedding for token 1025), then
// the fine-tuning method and task head against the model (finetune.h validateFinetune).
std::optional<Error> validateForModel(const ModelSpec& model, const TrainingConfig& c, std::string_view origin);

} // namespace headroom
