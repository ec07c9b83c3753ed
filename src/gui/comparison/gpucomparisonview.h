#pragma once

// "Which card do I need, and how long would an epoch take?": the current model and training setting on several
// GPUs side by side, each at its datasheet figures. A checkable list picks the GPUs (by default the explainer's
// RTX A3000 laptop, RTX 3090, A100 and H100, plus the scenario's GPU), a field sets the data set size, and a
// table and two bar charts show memory, the verdict, the largest micro-batch and the times.
//
// The main window calls setScenario() on every scenario change. The comparison is computed on a worker only while
// the view is visible, a short moment after the last change (a slider drag folds into one computation), or at once
// when the view is shown again (LazyToolView).

#include "comparison.h"
#include "lazytoolview.h"

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

namespace headroom::gui {

struct ChartStyle;
class GpuComparisonChart;
class GpuComparisonModel;

class GpuComparisonView : public LazyToolView {
    Q_OBJECT

public:
    // The catalog must outlive the view (the SimulationController's does). Its GPUs are listed now; call
    // reloadGpus() after adding GPUs to it.
    explicit GpuComparisonView(const Catalog& catalog, QWidget* parent = nullptr);
    ~GpuComparisonView() override;

    const Scenario& scenario() const { return m_scenario; }

    QStringList selectedGpuIds() const;
    // Unknown ids are ignored; an empty list selects nothing.
    void setSelectedGpuIds(const QStringList& ids);
    double datasetSamples() const;
    void setDatasetSamples(double samples);

    // The rows last computed (call refresh() first to flush a pending change).
    const std::vector<GpuComparisonRow>& rows() const;
    GpuComparisonModel* model() const { return m_model; }
    GpuComparisonChart* chart() const { return m_chart; }
    QTableView* table() const { return m_table; }
    // The table as CSV text (see GpuComparisonModel::csv()); copyAsCsv() puts it on the clipboard.
    QString csv() const;

    void setChartStyle(const ChartStyle& style);

public slots:
    void setScenario(const headroom::Scenario& scenario);
    void copyAsCsv();
    // Back to the default selection for the current scenario's GPU.
    void resetSelection();
    void reloadGpus();

signals:
    // The user asked to make this GPU the scenario's (double-click on a row).
    void gpuRequested(const QString& gpuId);
    // After each computation.
    void comparisonChanged();
    // The summary wrapped to another number of lines: the panel's minimum height changed.
    void minimumHeightChanged();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    Work job() override;

private:
    QWidget* buildGpuList();
    QWidget* buildResults();
    void retranslate();
    void showRows(const std::vector<GpuComparisonRow>& rows, std::shared_ptr<const Catalog> catalog);
    void onItemChanged(QListWidgetItem* item);
    void updateSummary(const ModelSpec* model);
    void fitNameColumn();
    void fitTableHeight();

    const Catalog& m_catalog;
    Scenario m_scenario;
    bool m_haveScenario = false;
    QString m_autoAddedGpu; // the scenario's GPU, checked for it rather than by the user

    QLabel* m_listLabel = nullptr;
    QLabel* m_datasetLabel = nullptr;
    QPushButton* m_resetButton = nullptr;
    QPushButton* m_copyButton = nullptr;
    QLineEdit* m_filter = nullptr;
    QListWidget* m_gpuList = nullptr;
    QDoubleSpinBox* m_dataset = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    GpuComparisonModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    GpuComparisonChart* m_chart = nullptr;
    std::shared_ptr<const Catalog> m_rowsCatalog; // the worker's copy, which the rows' GPU pointers point into
};

} // namespace headroom::gui
