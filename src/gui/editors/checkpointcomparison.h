#pragma once

// The parameter count of a checkpoint beside the count Headroom derives from a configuration: the summed headers of
// one or more .safetensors files (a sharded checkpoint), their dtypes, and the difference, in words.

#include "safetensors.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace headroom::gui {

class CheckpointComparison {
    Q_DECLARE_TR_FUNCTIONS(CheckpointComparison)

public:
    // Reads every file's header (never the weights) and sums them. On failure returns the message of the first
    // file that fails, naming it, and leaves the comparison unchanged.
    std::optional<QString> read(const QStringList& paths);
    bool isEmpty() const { return m_files.isEmpty(); }
    const SafetensorsSummary& summary() const { return m_summary; }

    // Rich text: the checkpoint's count and dtypes, then (when configCount > 0) checkpoint minus config.
    QString describe(std::int64_t configCount) const;

private:
    SafetensorsSummary m_summary;
    QStringList m_files; // file names, for the text
};

} // namespace headroom::gui
