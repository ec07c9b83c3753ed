#pragma once

// View › Scaling: throughput per GPU and memory per GPU against the number of GPUs (1 to 1024, log scale) for the
// current model and setting, the extra GPUs as data-parallel replicas, over PCIe and over NVLink (8 per node, 100
// GbE or InfiniBand between nodes), against the one-replica throughput that perfect scaling would keep. Where the
// lines fall below it, communication and the pipeline bubble eat the gain (core: scaling.h).
//
// The main window calls setScenario() on every change; the curves are computed on a worker only while the view is
// visible, a moment after the last change (LazyToolView), and the charts' series are updated in place.

#include "chartstyle.h"
#include "lazytoolview.h"
#include "scaling.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace headroom::gui {

class ScalingView : public LazyToolView {
    Q_OBJECT

public:
    explicit ScalingView(const Catalog& catalog, QWidget* parent = nullptr);
    ~ScalingView() override;

    // The curves last computed (call refresh() first to flush a pending change).
    const Scaling& scaling() const { return m_scaling; }
    QString summary() const;
    QChart* throughputChart() const { return m_throughputChart; }
    QChart* memoryChart() const { return m_memoryChart; }
    void setChartStyle(const ChartStyle& style);

public slots:
    void setScenario(const headroom::Scenario& scenario);

protected:
    void changeEvent(QEvent* event) override;
    Work job() override;

private:
    struct Lines {
        QLineSeries* throughput = nullptr;
        QLineSeries* memory = nullptr;
    };
    QChart* makeChart(QChartView* view, QLogValueAxis*& x, QValueAxis*& y);
    static void fitGpuTicks(QChart* chart, QLogValueAxis* x); // a power of two per tick, or of four where narrow
    void showCurves();
    void retranslate();

    const Catalog& m_catalog;
    Scenario m_scenario;
    Scaling m_scaling;
    QString m_error;
    ChartStyle m_style;
    QLabel* m_summary = nullptr;
    QChart* m_throughputChart = nullptr;
    QChart* m_memoryChart = nullptr;
    QLogValueAxis* m_tx = nullptr;
    QLogValueAxis* m_mx = nullptr;
    QValueAxis* m_ty = nullptr;
    QValueAxis* m_my = nullptr;
    Lines m_lines[2];                               // by ScalingFabric
    QLineSeries* m_ideal = nullptr;                 // one replica's throughput per GPU, kept
    QLineSeries* m_capacity = nullptr;              // the GPU's memory
    QScatterSeries* m_overflow = nullptr;           // points whose step does not fit
    QScatterSeries* m_overflowThroughput = nullptr; // the same points on the throughput chart
};

} // namespace headroom::gui
