#pragma once

// The options of `headroom estimate` for what PyTorch's allocator and libraries hold beside the tensors: the
// framework overhead, the caching allocator's settings (expandable segments, a flat reserve), the cuBLAS and cuDNN
// workspaces and NCCL's channels (allocator.h, ncclmemory.h).

#include "trainingconfig.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>

namespace headroom {

void addAllocatorOptions(QCommandLineParser& parser);
QStringList allocatorOptionNames();
// Applies the options that are set; a message naming the option when a value is bad.
std::optional<QString> readAllocatorOptions(const QCommandLineParser& p, TrainingConfig* c);
// The options that reproduce c's settings, none for the defaults.
void appendAllocatorArguments(const TrainingConfig& c, QStringList& a);

} // namespace headroom
