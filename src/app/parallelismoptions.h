#pragma once

// The pipeline options of `headroom estimate` (issue 11's contract): --pp, --vpp, --pipeline-schedule and
// --global-batch. --tp, --sp and --dp stay with the other scenario options; the job uses tp x pp x dp GPUs.

#include "trainingconfig.h"

#include <QCommandLineParser>
#include <QStringList>

#include <optional>

namespace headroom {

void addParallelismOptions(QCommandLineParser& parser);
// --gpus-per-node, --intra-link and --inter-link (part of the above), shared with `headroom plan`; a message naming
// the option when a value is bad.
void addClusterOptions(QCommandLineParser& parser);
std::optional<QString> readClusterOptions(const QCommandLineParser& p, ClusterConfig* cluster);
// Applies the options that are set (after --batch, --dp and --grad-accum); a message naming the option when a value
// or a combination is bad. --vpp above 1 picks the interleaved schedule unless --pipeline-schedule says otherwise;
// --global-batch sets the micro-batches per step to global / (batch x dp).
std::optional<QString> readParallelismOptions(const QCommandLineParser& p, TrainingConfig* c);
// The options that reproduce c's pipeline, none without one.
void appendParallelismArguments(const TrainingConfig& c, QStringList& a);

} // namespace headroom
