#pragma once

// The table of the GPU comparison: one row per GPU (compareGpus() in the core), columns for memory, the verdict,
// the largest micro-batch and the times. Display text goes through the formatting helpers; Qt::UserRole holds the
// raw number of each cell (bytes, seconds, counts) for sorting and for tests; fitting is told by text and colour.

#include "comparison.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace headroom::gui {

class GpuComparisonModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        GpuColumn,
        CapacityColumn,
        PeakColumn,
        FitsColumn,
        MaxBatchColumn,
        StepColumn,
        ThroughputColumn,
        EpochColumn,
        ColumnCount
    };
    // Qt::UserRole: the raw value of the cell; GpuIdRole (any column): the GPU's id.
    static constexpr int GpuIdRole = Qt::UserRole + 1;

    explicit GpuComparisonModel(QObject* parent = nullptr);

    // `currentGpuId` is marked as the scenario's GPU; `vision` picks images/s over tokens/s.
    void setRows(std::vector<GpuComparisonRow> rows, const QString& currentGpuId, std::int64_t microBatch, bool vision);
    const std::vector<GpuComparisonRow>& rows() const { return m_rows; }
    // "NVIDIA GeForce RTX 3090" as "RTX 3090": the table and the chart name many NVIDIA cards side by side; the
    // full name is in the tooltip and the CSV.
    static QString shortName(const GpuSpec& gpu);
    void setColors(const QColor& fits, const QColor& overflow);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // RFC 4180 text with a fixed English header and C-locale numbers (bytes, seconds), for reports and spreadsheets.
    // Times of a row that does not fit are left empty, as the table shows them.
    QString csv() const;

private:
    QString displayText(const GpuComparisonRow& r, int column) const;
    QVariant rawValue(const GpuComparisonRow& r, int column) const;
    QString toolTip(const GpuComparisonRow& r, int column) const;

    std::vector<GpuComparisonRow> m_rows;
    QString m_currentGpuId;
    std::int64_t m_microBatch = 0;
    bool m_vision = false;
    QColor m_fits;
    QColor m_overflow;
};

} // namespace headroom::gui
