#include "batchsweepview.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"
#include "plotitems.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

namespace headroom::gui {

namespace {
    using units::kGiB;

    // A curve's points with their heights in bytes; none while it is hidden.
    QList<QPointF> inBytes(const PolylineItem* curve)
    {
        QList<QPointF> out;
        if (curve->isVisible()) {
            for (const QPointF& p : curve->points())
                out.append(QPointF(p.x(), p.y() * kGiB));
        }
        return out;
    }
} // namespace

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
    m_allocatorLine = new PolylineItem(chart, m_capacity);
    m_allocatorLine->setVisible(false);
    m_allocatorKey = new QGraphicsSimpleTextItem(chart);
    m_allocatorKey->setZValue(20);
    m_allocatorKey->setVisible(false);
    m_keyPlate = new QGraphicsRectItem(chart);
    m_keyPlate->setZValue(19);
    m_keyPlate->setPen(Qt::NoPen);
    m_keyPlate->setVisible(false);
    m_cursor->append({ QPointF(1, 0), QPointF(1, 0) });
    m_marker->append(QPointF(1, 0));
    chart->legend()->setVisible(false); // the memory chart beside it carries the category legend
    m_label = new QGraphicsSimpleTextItem(chart);
    m_label->setZValue(20);
    // On a plate of the background, as the roofline's roof labels: in a narrow chart no place beside the tick is
    // clear of the current batch's dotted line, which then ran through "largest that fits: 25".
    m_labelPlate = new QGraphicsRectItem(chart);
    m_labelPlate->setZValue(19);
    m_labelPlate->setPen(Qt::NoPen);
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
    //: Key of the dashed curve: what the GPU holds by the caching allocator's replay (reserved + CUDA context)
    m_allocatorKey->setText(tr("- - with PyTorch's allocator"));
}

void BatchSweepView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    m_capacity->setPen(QPen(Qt::NoPen));
    m_capacityLine->setPen(QPen(style.capacity, style.lineWidth, Qt::DashLine));
    m_cursor->setPen(QPen(style.foreground, style.lineWidth * 0.75, Qt::DotLine));
    m_baselineCurve->setPen(QPen(style.foreground, style.lineWidth, Qt::DashDotLine));
    m_allocatorLine->setPen(QPen(style.foreground, style.lineWidth, Qt::DashLine));
    m_allocatorKey->setFont(style.annotationFont);
    m_allocatorKey->setBrush(style.foreground);
    m_marker->setColor(style.foreground);
    m_marker->setBorderColor(style.background);
    m_marker->setMarkerSize(11.0 * style.markerScale);
    m_label->setFont(style.annotationFont);
    m_label->setBrush(style.foreground);
    QColor plate = style.plotBackground;
    plate.setAlpha(215);
    m_labelPlate->setBrush(plate);
    m_keyPlate->setBrush(plate);
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
    m_allocatorLine->setVisible(false); // this result's comes with its background search
    m_allocatorKey->setVisible(false);
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

void BatchSweepView::setAllocatorCurve(const std::vector<std::pair<double, double>>& curve)
{
    // On the axes the areas set: the curve leaves the plot at its top rather than rescale the chart a moment after
    // every change (its crossing of the capacity is what it is for).
    QList<QPointF> points;
    for (const auto& [batch, bytes] : curve)
        points.append(QPointF(batch, bytes / kGiB));
    m_allocatorLine->setPoints(points);
    m_allocatorLine->setVisible(!points.isEmpty());
    m_allocatorKey->setVisible(!points.isEmpty());
    placeLabels();
}

QList<QPointF> BatchSweepView::allocatorCurve() const { return inBytes(m_allocatorLine); }

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
    m_fitMark->setLine(QLineF(at.x(), at.y() - 1.5, at.x(), at.y() + 0.8 * br.height()));
    m_fitMark->setVisible(m_maxBatch >= m_axisX->min() && m_maxBatch <= m_axisX->max());
    const QRectF plot = chart()->plotArea();
    // Just left of its tick, where the curves that cross the line there are still under it (right of the tick the
    // allocator's curve ran through the text), then over the tick, then right of it: the first the current batch's
    // dotted line does not run through (beside that line the label named the current batch's dot instead).
    const double cursor = cursorX();
    auto clear = [&](double x, double width) { return cursor < x - 2.0 || cursor > x + width + 2.0; };
    auto inside = [&](double x, double width) {
        return std::clamp(x, plot.left() + 2.0, std::max(plot.left() + 2.0, plot.right() - width - 2.0));
    };
    double left = inside(at.x() - 6.0 - br.width(), br.width());
    for (const double x : { at.x() - 6.0 - br.width(), at.x() - br.width() / 2.0, at.x() + 6.0 }) {
        if (clear(inside(x, br.width()), br.width())) {
            left = inside(x, br.width());
            break;
        }
    }
    m_label->setPos(left, at.y() - br.height() - 4.0);
    m_labelPlate->setRect(m_label->mapRectToParent(br).adjusted(-2, 0, 2, 0));
    // The key in the top left corner, or beside the current batch's line where that runs through it.
    const double keyWidth = m_allocatorKey->boundingRect().width();
    double keyLeft = plot.left() + 4.0;
    if (!clear(keyLeft, keyWidth))
        keyLeft = cursor + 6.0 + keyWidth <= plot.right() ? cursor + 6.0
                                                          : std::max(plot.left() + 4.0, cursor - 6.0 - keyWidth);
    m_allocatorKey->setPos(keyLeft, plot.top() + 2.0);
    // Where the line has to run through it (room on neither side: the QLoRA example at micro-batch 4, 1024x768), a
    // plate under the key hides the line there.
    const QRectF key = allocatorKeyRect();
    m_keyPlate->setRect(key.adjusted(-2, 0, 2, 0));
    m_keyPlate->setVisible(!key.isNull() && !clear(keyLeft, keyWidth));
}

double BatchSweepView::peakAt(int i) const { return m_areas->topAt(i) * kGiB; }
QPointF BatchSweepView::marker() const { return QPointF(m_marker->at(0).x(), m_marker->at(0).y() * kGiB); }
QList<QPointF> BatchSweepView::baselineCurve() const { return inBytes(m_baselineCurve); }

QRectF BatchSweepView::largestFittingPlate() const { return m_labelPlate->rect(); }
QRectF BatchSweepView::allocatorKeyRect() const
{
    return m_allocatorKey->isVisible() ? m_allocatorKey->mapRectToParent(m_allocatorKey->boundingRect()) : QRectF();
}
QRectF BatchSweepView::allocatorKeyPlate() const { return m_keyPlate->isVisible() ? m_keyPlate->rect() : QRectF(); }
double BatchSweepView::cursorX() const
{
    return m_cursor->count() == 2 ? chart()->mapToPosition(m_cursor->at(0), m_cursor).x() : -1e9;
}
QRectF BatchSweepView::largestFittingLabel() const { return m_label->mapRectToParent(m_label->boundingRect()); }

QLineF BatchSweepView::largestFittingMark() const { return m_fitMark->isVisible() ? m_fitMark->line() : QLineF(); }

double BatchSweepView::capacityLine() const { return m_capacity->at(0).y() * kGiB; }

} // namespace headroom::gui
