#pragma once

// The fine-tuning options of `headroom estimate` (issue 13's contract): --finetune, --lora-rank, --lora-alpha,
// --lora-dropout, --lora-targets, --frozen-layers, --task and --num-labels.

#include "modelspec.h"
#include "trainingconfig.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>

namespace headroom {

void addFinetuneOptions(QCommandLineParser& parser);
// Applies the options that are set to *f; a message naming the option when a value is bad.
std::optional<QString> readFinetuneOptions(const QCommandLineParser& p, TrainingConfig* c);
// Checks that need the model (its learned positions, LoRA targets it has, frozen layers within its depth, a task it
// can take), named by option.
std::optional<QString> checkFinetuneForModel(const ModelSpec& model, const TrainingConfig& c);
// The options that reproduce c's task and fine-tuning, none for full training of the model's own head.
void appendFinetuneArguments(const TrainingConfig& c, QStringList& a);

} // namespace headroom
