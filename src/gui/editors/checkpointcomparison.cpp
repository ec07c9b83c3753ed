#include "checkpointcomparison.h"

#include "formatting.h"
#include "modelimport.h"

#include <QFileInfo>
#include <QLocale>

namespace headroom::gui {

namespace {

} // namespace

std::optional<QString> CheckpointComparison::read(const QStringList& paths)
{
    SafetensorsSummary total;
    QStringList files;
    for (const QString& path : paths) {
        SafetensorsSummary s;
        if (auto error = readSafetensorsHeader(path, &s))
            return error;
        total.parameters += s.parameters;
        total.dataBytes += s.dataBytes;
        total.tensors += s.tensors;
        for (const auto& [dtype, t] : s.byDtype) {
            SafetensorsDtypeTotals& sum = total.byDtype[dtype];
            sum.tensors += t.tensors;
            sum.elements += t.elements;
            sum.bytes += t.bytes;
        }
        files << QFileInfo(path).fileName();
    }
    m_summary = std::move(total);
    m_files = files;
    return std::nullopt;
}

QString CheckpointComparison::describe(std::int64_t configCount) const
{
    if (m_files.isEmpty())
        return {};
    QStringList dtypes;
    for (const auto& [dtype, totals] : m_summary.byDtype)
        dtypes << tr("%1: %2").arg(QString::fromStdString(dtype), formatWhole(std::int64_t(totals.elements)));
    const QString files = m_files.size() == 1 ? m_files.front().toHtmlEscaped()
                                              : tr("%n files", nullptr, int(m_files.size()));
    QString text = tr("Checkpoint %1: <b>%2</b> parameters (tensors: %3; %4)")
                       .arg(files, formatWhole(std::int64_t(m_summary.parameters)), formatWhole(m_summary.tensors),
                            dtypes.join(QStringLiteral(", ")));
    if (configCount > 0) {
        const std::int64_t difference = std::int64_t(m_summary.parameters) - configCount;
        const QString signedDifference = (difference > 0 ? QStringLiteral("+") : QString()) + formatWhole(difference);
        text += QStringLiteral("<br>")
            + tr("Checkpoint minus config: %1 (%2%)")
                  .arg(signedDifference, QLocale().toString(100.0 * double(difference) / double(configCount), 'f', 2));
        if (difference != 0) {
            text += QStringLiteral("<br>")
                + tr("A checkpoint can also hold buffers (attention masks, position ids), stores tied weights once, "
                     "and may be one shard of several.");
        }
    }
    return text;
}

} // namespace headroom::gui
