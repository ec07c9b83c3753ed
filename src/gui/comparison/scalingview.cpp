#include "scalingview.h"

#include "formatting.h"
#include "units.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace headroom::gui {

namespace {

    // Okabe & Ito: PCIe in vermillion's neighbour orange, NVLink in blue; the ideal in the foreground, dashed.
    QColor fabricColor(ScalingFabric f)
    {
        return f == ScalingFabric::Pcie ? QColor(0xE6, 0x9F, 0x00) : QColor(0x00, 0x72, 0xB2);
    }

} // namespace

ScalingView::ScalingView(const Catalog& catalog, QWidget* parent)
    : LazyToolView(150, parent)
    , m_catalog(catalog)
    , m_style(chartStyle(palette(), false))
{
    setObjectName(QStringLiteral("scalingView"));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("scalingSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* throughputView = new QChartView(this);
    auto* memoryView = new QChartView(this);
    throughputView->setObjectName(QStringLiteral("scalingThroughput"));
    memoryView->setObjectName(QStringLiteral("scalingMemory"));
    auto* charts = new QHBoxLayout;
    charts->addWidget(throughputView, 1);
    charts->addWidget(memoryView, 1);
    layout->addLayout(charts, 1);
    m_throughputChart = makeChart(throughputView, m_tx, m_ty);
    m_memoryChart = makeChart(memoryView, m_mx, m_my);

    for (Lines& lines : m_lines) {
        for (auto [chart, series, x, y] : { std::tuple { m_throughputChart, &lines.throughput, m_tx, m_ty },
                                            std::tuple { m_memoryChart, &lines.memory, m_mx, m_my } }) {
            *series = new QLineSeries(chart);
            (*series)->setPointsVisible(true);
            chart->addSeries(*series);
            (*series)->attachAxis(x);
            (*series)->attachAxis(y);
        }
    }
    m_ideal = new QLineSeries(m_throughputChart);
    m_capacity = new QLineSeries(m_memoryChart);
    m_overflow = new QScatterSeries(m_memoryChart);
    m_overflow->setMarkerSize(11);
    m_overflowThroughput = new QScatterSeries(m_throughputChart);
    m_overflowThroughput->setMarkerSize(11);
    for (auto [chart, series, x, y] :
         { std::tuple<QChart*, QXYSeries*, QLogValueAxis*, QValueAxis*> { m_throughputChart, m_ideal, m_tx, m_ty },
           { m_throughputChart, m_overflowThroughput, m_tx, m_ty },
           { m_memoryChart, m_capacity, m_mx, m_my },
           { m_memoryChart, m_overflow, m_mx, m_my } }) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }

    setChartStyle(m_style);
    retranslate();
}

ScalingView::~ScalingView() = default;

QChart* ScalingView::makeChart(QChartView* view, QLogValueAxis*& x, QValueAxis*& y)
{
    QChart* chart = view->chart(); // the view's own: setChart() would hand it back to us, to leak
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(260);
    chart->legend()->setAlignment(Qt::AlignBottom);
    x = new QLogValueAxis(chart);
    x->setBase(2.0);
    x->setLabelFormat(QStringLiteral("%d"));
    x->setRange(1, 1024);
    y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart, x] { fitGpuTicks(chart, x); });
    QObject::connect(x, &QLogValueAxis::rangeChanged, chart, [chart, x] { fitGpuTicks(chart, x); });
    return chart;
}

// Qt Charts gives each label of a horizontal axis an equal share of the plot's width, less 4 px of padding each side
// (qtcharts horizontalaxis.cpp, updateGeometry), and cuts a wider one short: at 1024x768 eleven powers of two left
// "1024" as "10...". Where they do not fit, every other power (1, 4, 16 ... 1024) does.
void ScalingView::fitGpuTicks(QChart* chart, QLogValueAxis* x)
{
    const QFontMetricsF fm(x->labelsFont());
    const double widest = fm.horizontalAdvance(QString::number(int(x->max()))) + 10.0;
    const double doublings = std::log2(std::max(x->max() / std::max(x->min(), 1.0), 1.0));
    double base = 2.0;
    while (base < 32.0 && chart->plotArea().width() / (std::floor(doublings / std::log2(base)) + 1.0) < widest)
        base *= 2.0;
    if (x->base() != base)
        x->setBase(base);
}

void ScalingView::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    markStale();
}

void ScalingView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange)
        setChartStyle(chartStyle(palette(), m_style.presentation));
}

LazyToolView::Work ScalingView::job()
{
    auto catalog = LazyJob::snapshot(m_catalog, m_scenario.modelId, { m_scenario.gpuId });
    return [catalog, scenario = m_scenario, self = this]() -> Show {
        auto r = std::make_shared<Expected<Scaling>>(headroom::scaling(*catalog, scenario));
        return [self, r] { // on the GUI thread
            self->m_error = *r ? QString() : QString::fromStdString(r->error().message);
            self->m_scaling = *r ? std::move(**r) : Scaling {};
            self->showCurves();
        };
    };
}

void ScalingView::showCurves()
{
    double topThroughput = 0.0, topMemory = 0.0;
    QList<QPointF> overflow, overflowThroughput;
    for (int f = 0; f < 2; ++f) {
        QList<QPointF> t, m;
        for (const ScalingSeries& s : m_scaling.series) {
            if (int(s.fabric) != f)
                continue;
            for (const ScalingPoint& p : s.points) {
                t << QPointF(p.gpus, p.throughputPerGpu);
                // What the verdict holds against the capacity: a point that does not fit is above the line (at the
                // simulated peak, under it, the replay's OOM showed as a "does not fit" dot below the capacity).
                m << QPointF(p.gpus, units::toGiB(p.neededBytes));
                topThroughput = std::max(topThroughput, p.throughputPerGpu);
                topMemory = std::max(topMemory, units::toGiB(p.neededBytes));
                if (!p.fits) {
                    overflow << QPointF(p.gpus, units::toGiB(p.neededBytes));
                    overflowThroughput << QPointF(p.gpus, p.throughputPerGpu); // a speed it cannot run at
                }
            }
        }
        replaceIfChanged(m_lines[f].throughput, t);
        replaceIfChanged(m_lines[f].memory, m);
        for (QLineSeries* s : { m_lines[f].throughput, m_lines[f].memory }) {
            s->setVisible(!t.isEmpty());
            for (QLegendMarker* marker : s->chart()->legend()->markers(s))
                marker->setVisible(!t.isEmpty());
        }
    }
    replaceIfChanged(m_overflow, overflow);
    replaceIfChanged(m_overflowThroughput, overflowThroughput);
    // Each legend entry gets an equal share of a chart's width (Qt Charts' LegendLayout), and at 1024x768 four cut
    // every name short ("NVLink pair..."): the fabrics, and on each chart one more, are named; the summary says the
    // rest (perfect scaling is dashed; the marked points do not fit, and stand above the memory chart's capacity).
    for (QLegendMarker* marker : m_throughputChart->legend()->markers(m_overflowThroughput))
        marker->setVisible(!overflow.isEmpty());
    for (QAbstractSeries* quiet : std::initializer_list<QAbstractSeries*> { m_ideal, m_overflow })
        for (QLegendMarker* marker : quiet->chart()->legend()->markers(quiet))
            marker->setVisible(false);
    const ModelSpec* model = m_catalog.model(m_scenario.modelId);
    m_ty->setTitleText(model && model->isVision() ? tr("images/s") : tr("tokens/s"));
    const double first = m_scaling.series.empty() || m_scaling.series.front().points.empty()
        ? 0.0
        : m_scaling.series.front().points.front().throughputPerGpu;
    const double lo = std::max(1, m_scaling.replicaGpus);
    replaceIfChanged(m_ideal, { QPointF(lo, first), QPointF(1024, first) });
    const GpuSpec* gpu = m_catalog.gpu(m_scenario.gpuId);
    const double capacity = gpu ? units::toGiB(gpu->memoryBytes()) : 0.0;
    replaceIfChanged(m_capacity, { QPointF(lo, capacity), QPointF(1024, capacity) });
    m_tx->setRange(lo, 1024);
    m_mx->setRange(lo, 1024);
    setStableTop(m_ty, topThroughput * 1.05);
    setStableTop(m_my, std::max(topMemory, capacity) * 1.05);
    retranslate(); // the NVLink line's name follows the GPU; the summary follows the curves
}

QString ScalingView::summary() const
{
    if (!m_error.isEmpty())
        return m_error;
    if (m_scaling.series.empty() || m_scaling.series.front().points.empty())
        return tr("Nothing to scale.");
    const ScalingPoint& one = m_scaling.series.front().points.front();
    const ModelSpec* model = m_catalog.model(m_scenario.modelId);
    const QString unit = model && model->isVision() ? tr("images") : tr("tokens");
    QString text = tr("Each added GPU is another data-parallel replica of %n GPU(s), with the same micro-batch: "
                      "perfect scaling keeps %1 per GPU (dashed).",
                      nullptr, m_scaling.replicaGpus)
                       .arg(formatRate(one.throughputPerGpu, unit));
    // Where the smallest job does not fit (ZeRO shards over the replicas): from how many GPUs it does. Where it fits
    // alone but not beside other replicas: from how many GPUs it stops fitting.
    if (one.fits) {
        int stops = 0;
        for (const ScalingSeries& s : m_scaling.series)
            for (const ScalingPoint& p : s.points)
                if (!p.fits && (stops == 0 || p.gpus < stops))
                    stops = p.gpus;
        if (stops > 0)
            text += QLatin1Char(' ')
                + tr("From %1 GPUs on it does not fit (the marked points): each GPU then also holds data "
                     "parallelism's gradient buckets and NCCL's buffers.")
                      .arg(stops);
    } else {
        const auto& points = m_scaling.series.front().points;
        const auto first = std::find_if(points.begin(), points.end(), [](const ScalingPoint& p) { return p.fits; });
        text += QLatin1Char(' ')
            + (first == points.end()
                   ? tr("It does not fit on any number of these GPUs up to %1.").arg(points.back().gpus)
                   : tr("It fits from %1 GPUs on, where ZeRO shards enough of the states (the marked points do not fit).")
                         .arg(first->gpus));
    }
    // What each fabric keeps of it in one node (8 GPUs) and across eight nodes (64).
    for (const ScalingSeries& s : m_scaling.series) {
        const ScalingPoint *node = nullptr, *nodes = nullptr;
        for (const ScalingPoint& p : s.points) {
            node = p.gpus <= kScalingGpusPerNode ? &p : node;
            nodes = p.gpus <= 8 * kScalingGpusPerNode ? &p : nodes;
        }
        if (!node || !nodes || one.throughputPerGpu <= 0.0)
            continue;
        text += QLatin1Char(' ')
            + tr("%1: %2 of it at %3 GPUs, %4 at %5.")
                  .arg(s.fabric == ScalingFabric::Pcie ? tr("Over PCIe") : tr("With NVLink"),
                       formatPercent(node->throughputPerGpu / one.throughputPerGpu, 0))
                  .arg(node->gpus)
                  .arg(formatPercent(nodes->throughputPerGpu / one.throughputPerGpu, 0))
                  .arg(nodes->gpus);
    }
    return text;
}

void ScalingView::retranslate()
{
    m_throughputChart->setTitle(tr("Throughput per GPU against GPUs"));
    m_memoryChart->setTitle(tr("Memory per GPU (most loaded rank) against GPUs"));
    m_tx->setTitleText(tr("GPUs (8 per node; the link in brackets joins the nodes)"));
    m_mx->setTitleText(tr("GPUs (8 per node; the link in brackets joins the nodes)"));
    m_my->setTitleText(tr("GiB"));
    m_lines[0].throughput->setName(tr("PCIe (+ 100 GbE)"));
    m_lines[0].memory->setName(tr("PCIe (+ 100 GbE)"));
    // A bridge joins pairs: past them the GPUs meet over PCIe with peer-to-peer.
    const GpuSpec* gpu = m_catalog.gpu(m_scenario.gpuId);
    const QString nvlink = gpu && gpu->gpuLinkMaxGpus < kScalingGpusPerNode ? tr("NVLink pairs (+ IB)")
                                                                            : tr("NVLink (+ IB)");
    m_lines[1].throughput->setName(nvlink);
    m_lines[1].memory->setName(nvlink);
    m_ideal->setName(tr("perfect scaling"));
    m_capacity->setName(tr("GPU memory"));
    m_overflow->setName(tr("does not fit"));
    m_overflowThroughput->setName(tr("does not fit"));
    m_summary->setText(summary());
}

void ScalingView::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    for (QChart* c : { m_throughputChart, m_memoryChart })
        applyStyle(c, style);
    for (QAbstractAxis* a : std::initializer_list<QAbstractAxis*> { m_tx, m_mx, m_ty, m_my })
        applyAxisStyle(a, style);
    for (int f = 0; f < 2; ++f) {
        for (QLineSeries* s : { m_lines[f].throughput, m_lines[f].memory }) {
            QPen pen(fabricColor(ScalingFabric(f)), style.lineWidth);
            s->setPen(pen);
        }
    }
    QPen dashed(style.foreground, style.lineWidth * 0.75, Qt::DashLine);
    m_ideal->setPen(dashed);
    m_capacity->setPen(QPen(style.capacity, style.lineWidth, Qt::DashDotLine));
    for (QScatterSeries* dots : { m_overflow, m_overflowThroughput }) {
        dots->setColor(style.overflow);
        dots->setBorderColor(style.overflow);
    }
}

} // namespace headroom::gui
