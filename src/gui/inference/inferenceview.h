#pragma once

// "And how fast will it answer afterwards?": the window's serving panel. The scenario's GPU (with its what-if
// figures) and model, served with the weights, KV cache, batch, prompt, generated tokens and tensor parallelism set
// here: the verdict, where the memory goes, the largest batch and context, prefill time and decode speed, and a
// chart of the peak against the context length with the capacity line. Computed by simulateInference() while the
// panel is visible; the chart's series are updated in place.

#include "comparison.h"
#include "simulate.h"

#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace Ui {
class InferenceView;
}

namespace headroom::gui {

struct ChartStyle;

class InferenceView : public QWidget {
    Q_OBJECT

public:
    // The catalog must outlive the view (the SimulationController's does).
    explicit InferenceView(const Catalog& catalog, QWidget* parent = nullptr);
    ~InferenceView() override;

    InferenceConfig config() const;
    void setConfig(const InferenceConfig& config);
    // The last result; empty when the model is not a decoder or a value is refused.
    const std::optional<InferenceEstimate>& result() const { return m_result; }
    QString resultText() const;
    // What the chart shows (for tests): the peak against the context, in GiB, and the capacity line's height.
    QList<QPointF> peakPoints() const;
    // The same serving on the explainer's GPUs (and the scenario's), each at its own figures: the compare view of
    // this mode.
    const std::vector<ServingComparisonRow>& gpuRows() const { return m_rows; }
    double capacityLineGiB() const;
    void setChartStyle(const ChartStyle& style);
    // Room for the chart to read (its plot a good part of its height); the chart and the table themselves take what
    // the panel is given, down to their minimum, rather than asking for a height (their policies ignore their hints:
    // a scroll area gives a word-wrapping panel at least its preferred height, and scrolled at 1024x768).
    QSize sizeHint() const override;

public slots:
    // Takes the GPU, its what-if overrides and the model of the training scenario.
    void setScenario(const headroom::Scenario& scenario);
    void refresh();

signals:
    void resultChanged();
    // The result's lines wrapped to more (or fewer) lines: the panel's minimum height changed.
    void minimumHeightChanged();

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitContext(const ModelSpec* model); // the prompt shortened to the positions the model learned
    void fitResultLabel();
    void compute();
    void showResult(const ModelSpec& model);
    void updateChart();
    void updateGpuTable();
    void retranslate();
    void updateFormatNames();
    QString errorText(const Error& e, const ModelSpec* model);

    std::unique_ptr<Ui::InferenceView> m_ui;
    const Catalog& m_catalog;
    InferenceScenario m_scenario;
    bool m_haveScenario = false;
    bool m_weightsChosen = false; // the user picked the weights' format: a new scenario keeps it
    bool m_dirty = true;
    std::optional<InferenceEstimate> m_result;
    std::vector<ServingComparisonRow> m_rows; // the same serving on the explainer's GPUs and the scenario's
    QString m_error;
    QChart* m_chart = nullptr;
    QLineSeries* m_peak = nullptr;
    QLineSeries* m_capacity = nullptr;
    QScatterSeries* m_current = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

} // namespace headroom::gui
