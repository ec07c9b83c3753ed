#pragma once

// The differences between a pinned baseline and the current scenario: memory per category at the peak, the peak,
// what the step needs, the free memory, the largest micro-batch, step time, throughput and MFU, each with the change
// (baseline.h). Shown beside the charts while a baseline is pinned (Edit > Compare with a Baseline). What fits is the
// verdict's answer: each side's search (the allocator replayed under the capacity) once it is there.

#include "simulate.h"

#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace headroom::gui {

class BaselineTable : public QWidget {
    Q_OBJECT

public:
    explicit BaselineTable(QWidget* parent = nullptr);
    // `baselineFit` and `currentFit`: each side's search, null while it is pending (the result's own verdict then).
    void setResults(const std::shared_ptr<const SimulationResult>& baseline, const SearchResult* baselineFit,
                    const std::shared_ptr<const SimulationResult>& current, const SearchResult* currentFit);
    QTableWidget* table() const { return m_table; }
    // The width its contents need (set by setResults()).
    int neededWidth() const { return m_neededWidth; }
    // For tests and the clipboard: the table as tab-separated text.
    QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    QLabel* m_header = nullptr;
    QTableWidget* m_table = nullptr;
    std::shared_ptr<const SimulationResult> m_baseline;
    std::shared_ptr<const SimulationResult> m_current;
    std::optional<SearchResult> m_baselineFit;
    std::optional<SearchResult> m_currentFit;
    int m_neededWidth = 0;
};

} // namespace headroom::gui
