#include "batchsweepview.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"
#include "plotitems.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

namespace headroom::gui {

namespace {
    using units::kGiB;
}

BatchSweepView::BatchSweepView(QWidget* parent)
    : ChartPanel(parent)
{
    auto* chart = new QChart;
    m_axisX = new QLogValueAxis(chart);
    m_axisX->setBase(2.0);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisX->setMinorTickCount(0);
    m_axisY = new QValueAxis(chart);
    m_axisY->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_capacity = new QLineSeries(chart);
    m_cursor = new QLineSeries(chart);
    m_marker = new QScatterSeries(chart);
    m_marker->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_capacity, m_cursor, m_marker }) {
        chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    m_capacity->append({ QPointF(1, 0), QPointF(2, 0) });
    m_areas = new StackedAreasItem(chart, m_capacity);
    m_capacityLine = new PolylineItem(chart, m_capacity);
    m_baselineCurve = new PolylineItem(chart, m_capacity);
    m_baselineCurve->setVisible(false);
    m_cursor->append({ QPointF(1, 0), QPointF(1, 0) });
    m_marker->append(QPointF(1, 0));
    chart->legend()->setVisible(false); // the memory chart beside it carries the category legend
    m_label = new QGraphicsSimpleTextItem(chart);
    m_label->setZValue(20);
    m_fitMark = new QGraphicsLineItem(chart);
    m_fitMark->setZValue(20);
    m_fitMark->setVisible(false);
    connect(m_areas, &StackedAreasItem::clicked, this, [this](int c) {
        ExplainRequest r;
        r.topic = ExplainRequest::Topic::Category;
        r.category = MemoryCategory(c);
        emit explainRequested(r);
    });
    adoptChart(chart);
    retranslate();
}

BatchSweepView::~BatchSweepView() = default;

void BatchSweepView::retranslate()
{
    setTitleText(tr("Memory at the peak against micro-batch"), tr("Batch sweep"));
    setAxisTitle(m_axisX, tr("micro-batch"));
    setAxisTitle(m_axisY, tr("GiB"));
}

void BatchSweepView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    m_capacity->setPen(QPen(Qt::NoPen));
    m_capacityLine->setPen(QPen(style.capacity, style.lineWidth, Qt::DashLine));
    m_cursor->setPen(QPen(style.foreground, style.lineWidth * 0.75, Qt::DotLine));
    m_baselineCurve->setPen(QPen(style.foreground, style.lineWidth, Qt::DashDotLine));
    m_marker->setColor(style.foreground);
    m_marker->setBorderColor(style.background);
    m_marker->setMarkerSize(11.0 * style.markerScale);
    m_label->setFont(style.annotationFont);
    m_label->setBrush(style.foreground);
    m_fitMark->setPen(QPen(style.foreground, style.lineWidth * 1.5));
    placeLabels();
}

void BatchSweepView::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    const SimulationResult& r = *result;
    const Estimate& e = r.estimate;
    m_batches.clear();
    std::array<QList<double>, kMemoryCategoryCount> values;
    double top = e.capacityBytes;
    for (const SweepPoint& p : r.sweep) {
        m_batches.append(p.batch);
        for (int c = 0; c < kMemoryCategoryCount; ++c)
            values[c].append(p.atPeak[c]);
        top = std::max(top, p.peakBytes);
    }
    if (m_batches.isEmpty())
        return;
    QList<QPointF> base;
    if (m_baseline && m_baseline->model) {
        for (const SweepPoint& p : m_baseline->sweep) {
            if (p.batch >= m_batches.front() && p.batch <= std::max(m_batches.back(), m_batches.front() * 2.0)) {
                base.append(QPointF(p.batch, p.peakBytes / kGiB));
                top = std::max(top, p.peakBytes);
            }
        }
    }
    m_baselineCurve->setVisible(!base.isEmpty());
    m_baselineCurve->setPoints(base);
    for (auto& v : values)
        for (double& d : v)
            d /= kGiB;
    m_areas->setData(m_batches, values);
    const double lo = m_batches.front(), hi = std::max(m_batches.back(), lo * 2.0);
    if (m_axisX->min() != lo || m_axisX->max() != hi)
        m_axisX->setRange(lo, hi);
    setStableTop(m_axisY, top * 1.05 / kGiB);
    m_capacityBytes = e.capacityBytes;
    replaceIfChanged(m_capacity, { QPointF(lo, e.capacityBytes / kGiB), QPointF(hi, e.capacityBytes / kGiB) });
    m_capacityLine->setPoints(m_capacity->points());
    const double b = double(e.config.microBatch);
    replaceIfChanged(m_cursor, { QPointF(b, 0.0), QPointF(b, m_axisY->max()) });
    replaceIfChanged(m_marker, { QPointF(b, e.peakBytes / kGiB) });
    setLargestFitting(e.maxMicroBatch);
}

void BatchSweepView::setLargestFitting(std::int64_t microBatch)
{
    m_maxBatch = double(microBatch);
    setTextIfChanged(m_label, microBatch > 0 ? tr("largest that fits: %1").arg(microBatch) : tr("nothing fits"));
    placeLabels();
}

void BatchSweepView::placeLabels()
{
    // Every power of two where there is room, else every second or fourth.
    fitLogTicks(m_axisX, { 2.0, 4.0, 16.0 }, QStringLiteral("4096"));
    if (m_batches.isEmpty())
        return;
    const double x = m_maxBatch >= 1.0 ? std::clamp(m_maxBatch, m_axisX->min(), m_axisX->max()) : m_axisX->min();
    const QPointF at = chart()->mapToPosition(QPointF(x, m_capacityBytes / kGiB), m_capacity);
    const QRectF br = m_label->boundingRect();
    // Down from just above the line (the label stands over it), into the stack.
    m_fitMark->setLine(QLineF(at.x(), at.y() - 3.0, at.x(), at.y() + 0.8 * br.height()));
    m_fitMark->setVisible(m_maxBatch >= m_axisX->min() && m_maxBatch <= m_axisX->max());
    const QRectF plot = chart()->plotArea();
    double left = std::clamp(at.x() - br.width() / 2.0, plot.left(), plot.right() - br.width());
    // The current batch's dotted line must not run through the text: move the label beside it.
    if (m_cursor->count() == 2) {
        const double cursor = chart()->mapToPosition(m_cursor->at(0), m_cursor).x();
        if (cursor > left - 2.0 && cursor < left + br.width() + 2.0)
            left = cursor + 4.0 + br.width() <= plot.right() ? cursor + 4.0 : cursor - 4.0 - br.width();
    }
    m_label->setPos(std::max(plot.left(), left), at.y() - br.height() - 4.0);
}

double BatchSweepView::peakAt(int i) const { return m_areas->topAt(i) * kGiB; }
QPointF BatchSweepView::marker() const { return QPointF(m_marker->at(0).x(), m_marker->at(0).y() * kGiB); }
QList<QPointF> BatchSweepView::baselineCurve() const
{
    QList<QPointF> out;
    if (m_baselineCurve->isVisible()) {
        for (const QPointF& p : m_baselineCurve->points())
            out.append(QPointF(p.x(), p.y() * kGiB));
    }
    return out;
}

QLineF BatchSweepView::largestFittingMark() const { return m_fitMark->isVisible() ? m_fitMark->line() : QLineF(); }

double BatchSweepView::capacityLine() const { return m_capacity->at(0).y() * kGiB; }

} // namespace headroom::gui
