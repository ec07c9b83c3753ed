#include "gpucomparisonmodel.h"

#include "formatting.h"

#include <QFont>
#include <QLocale>
#include <QStringList>

#include <algorithm>

namespace headroom::gui {

namespace {

    QString csvField(const QString& s)
    {
        if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
            return s;
        QString quoted = s;
        quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + quoted + QLatin1Char('"');
    }

    // C locale, shortest form that reads back to the same double.
    QString csvNumber(double v) { return QString::number(v, 'g', 17); }

} // namespace

QString GpuComparisonModel::shortName(const GpuSpec& gpu)
{
    QString s = QString::fromStdString(gpu.name);
    for (const char* prefix : { "NVIDIA ", "GeForce ", "Tesla " }) {
        if (s.startsWith(QLatin1String(prefix)))
            s.remove(0, int(qstrlen(prefix)));
    }
    return s;
}

GpuComparisonModel::GpuComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void GpuComparisonModel::setRows(std::vector<GpuComparisonRow> rows, const QString& currentGpuId,
                                 std::int64_t microBatch, bool vision)
{
    const bool sameGpus = rows.size() == m_rows.size() && m_vision == vision && m_currentGpuId == currentGpuId
        && std::equal(rows.begin(), rows.end(), m_rows.begin(),
                      [](const GpuComparisonRow& a, const GpuComparisonRow& b) { return a.gpu == b.gpu; });
    // The same GPUs: update the cells in place, so that the view keeps its selection, sort and scroll position.
    if (sameGpus) {
        m_rows = std::move(rows);
        if (!m_rows.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        if (m_microBatch != microBatch) {
            m_microBatch = microBatch;
            emit headerDataChanged(Qt::Horizontal, PeakColumn, PeakColumn);
        }
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    m_currentGpuId = currentGpuId;
    m_microBatch = microBatch;
    m_vision = vision;
    endResetModel();
}

void GpuComparisonModel::setColors(const QColor& fits, const QColor& overflow)
{
    m_fits = fits;
    m_overflow = overflow;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), { Qt::ForegroundRole });
}

int GpuComparisonModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int GpuComparisonModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GpuComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case CapacityColumn:
            return tr("Device memory the framework can use");
        case PeakColumn:
            return tr("What one training step holds on the device at the scenario's micro-batch, as the window's "
                      "verdict counts it: PyTorch's reserved segments and the CUDA context (the caching allocator "
                      "replayed); the tensors' own peak is in each cell's tooltip");
        case MaxBatchColumn:
            return tr("The largest micro-batch that fits on this GPU");
        case StepColumn:
            return tr("One optimizer step: every accumulated micro-batch, the update and exposed communication");
        case EpochColumn:
            return tr("Optimizer steps per epoch (the last, partial one counted in full) times the step time");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case GpuColumn:
        return tr("GPU");
    case CapacityColumn:
        return tr("Memory");
    case PeakColumn:
        return tr("Needs at batch %1").arg(m_microBatch);
    case FitsColumn:
        return tr("Fits?");
    case MaxBatchColumn:
        return tr("Max. batch");
    case StepColumn:
        return tr("Step time");
    case ThroughputColumn:
        return tr("Throughput");
    case EpochColumn:
        return tr("Time per epoch");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant GpuComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const GpuComparisonRow& r = m_rows[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(r, column);
    case Qt::UserRole:
        return rawValue(r, column);
    case GpuIdRole:
        return QString::fromStdString(r.gpu->id);
    case Qt::ToolTipRole:
        return toolTip(r, column);
    case Qt::TextAlignmentRole:
        return column == GpuColumn || column == FitsColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == PeakColumn || column == FitsColumn) {
            const QColor& c = r.fits ? m_fits : m_overflow;
            if (c.isValid())
                return c;
        }
        return {};
    case Qt::FontRole:
        if (column == GpuColumn && QString::fromStdString(r.gpu->id) == m_currentGpuId) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QString GpuComparisonModel::displayText(const GpuComparisonRow& r, int column) const
{
    const QString none = QStringLiteral("—");
    switch (Column(column)) {
    case GpuColumn: {
        const QString name = shortName(*r.gpu);
        return QString::fromStdString(r.gpu->id) == m_currentGpuId ? tr("%1 (current)").arg(name) : name;
    }
    case CapacityColumn:
        return formatGiB(r.capacityBytes);
    case PeakColumn:
        return formatGiB(r.neededBytes);
    case FitsColumn:
        return r.fits ? tr("✔ Yes, %1 free").arg(formatGiB(r.headroomBytes))
                      : tr("✘ No, %1 over").arg(formatGiB(-r.headroomBytes));
    case MaxBatchColumn:
        return r.maxMicroBatch > 0 ? QLocale().toString(qlonglong(r.maxMicroBatch)) : tr("none");
    case StepColumn:
        return r.fits ? formatSeconds(r.stepSeconds) : none;
    case ThroughputColumn:
        return r.fits ? formatRate(r.tokensPerSecond, m_vision ? tr("images") : tr("tokens")) : none;
    case EpochColumn:
        return r.fits ? formatDuration(r.epochSeconds) : none;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant GpuComparisonModel::rawValue(const GpuComparisonRow& r, int column) const
{
    switch (Column(column)) {
    case GpuColumn:
        return QString::fromStdString(r.gpu->name);
    case CapacityColumn:
        return r.capacityBytes;
    case PeakColumn:
        return r.neededBytes;
    case FitsColumn:
        return r.headroomBytes; // sorts from the most room to the furthest over
    case MaxBatchColumn:
        return qlonglong(r.maxMicroBatch);
    case StepColumn:
        return r.stepSeconds;
    case ThroughputColumn:
        return r.tokensPerSecond;
    case EpochColumn:
        return r.epochSeconds;
    case ColumnCount:
        break;
    }
    return {};
}

QString GpuComparisonModel::toolTip(const GpuComparisonRow& r, int column) const
{
    switch (Column(column)) {
    case GpuColumn:
        return tr("%1: %2, %3 at %4")
            .arg(QString::fromStdString(r.gpu->name), QString::fromStdString(r.gpu->architecture),
                 QString::fromStdString(r.gpu->memoryType), formatBandwidth(r.gpu->bandwidthBytesPerSecond()));
    case CapacityColumn:
        return tr("%1 the framework can use (the driver-reported total where known)").arg(formatBytes(r.capacityBytes));
    case PeakColumn:
    case FitsColumn:
        return (r.fits
                    ? tr("Fits: needs %1 of %2 at micro-batch %3 (its tensors with the CUDA context peak at %4)")
                    : tr(
                        "Does not fit: needs %1 of %2 at micro-batch %3 (its tensors with the CUDA context peak at %4)"))
            .arg(formatBytes(r.neededBytes), formatBytes(r.capacityBytes))
            .arg(m_microBatch)
            .arg(formatBytes(r.peakBytes));
    case MaxBatchColumn:
        return r.maxMicroBatch > 0 ? tr("The largest micro-batch that fits in %1, the caching allocator replayed")
                                         .arg(formatBytes(r.capacityBytes))
                                   : tr("Even one sample does not fit");
    case StepColumn:
    case ThroughputColumn:
    case EpochColumn:
        if (!r.fits)
            return tr("Does not fit at micro-batch %1; if the memory were there, a step would take %2 and an epoch %3")
                .arg(m_microBatch)
                .arg(formatSeconds(r.stepSeconds), formatDuration(r.epochSeconds));
        return tr("%1 optimizer steps of %2 samples; %3 per step, %4 (MFU %5)")
            .arg(QLocale().toString(qlonglong(r.stepsPerEpoch)), QLocale().toString(qlonglong(r.samplesPerStep)),
                 formatSeconds(r.stepSeconds), formatRate(r.samplesPerSecond, tr("samples")), formatPercent(r.mfu));
    case ColumnCount:
        break;
    }
    return {};
}

QString GpuComparisonModel::csv() const
{
    QString out = QStringLiteral(
        "gpu_id,gpu,capacity_bytes,peak_bytes,fits,max_micro_batch,samples_per_step,"
        "step_seconds,samples_per_second,tokens_per_second,steps_per_epoch,epoch_seconds,needed_bytes\n");
    for (const GpuComparisonRow& r : m_rows) {
        QStringList f;
        f << csvField(QString::fromStdString(r.gpu->id)) << csvField(QString::fromStdString(r.gpu->name))
          << csvNumber(r.capacityBytes) << csvNumber(r.peakBytes)
          << (r.fits ? QStringLiteral("true") : QStringLiteral("false")) << QString::number(r.maxMicroBatch)
          << QString::number(r.samplesPerStep);
        if (r.fits)
            f << csvNumber(r.stepSeconds) << csvNumber(r.samplesPerSecond) << csvNumber(r.tokensPerSecond)
              << QString::number(r.stepsPerEpoch) << csvNumber(r.epochSeconds);
        else
            f << QString() << QString() << QString() << QString::number(r.stepsPerEpoch) << QString();
        f << csvNumber(r.neededBytes);
        out += f.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace headroom::gui
