#pragma once

// The fine-tuning options of `headroom estimate` (issue 13's contract): --finetune, --lora-rank, --lora-alpha,
// --lora-dropout, --lora-targets and --frozen-layers.

#include "modelspec.h"
#include "trainingconfig.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>

namespace headroom {

void addFinetuneOptions(QCommandLineParser& parser);
// Applies the options that are set to *f; a message naming the option when a value is bad.
std::optional<QString> readFinetuneOptions(const QCommandLineParser& p, FinetuneConfig* f);
// Checks that need the model (LoRA targets it has, frozen layers within its depth), named by option.
std::optional<QString> checkFinetuneForModel(const ModelSpec& model, const FinetuneConfig& f);
// The options that reproduce *f, none for full fine-tuning.
void appendFinetuneArguments(const FinetuneConfig& f, QStringList& a);

} // namespace headroom
