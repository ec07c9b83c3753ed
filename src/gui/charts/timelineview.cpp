#include "timelineview.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"
#include "plotitems.h"

#include <QAreaSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <cmath>

#include <algorithm>
#include <vector>

namespace headroom::gui {

namespace {
    using units::kGiB;

    // Total memory against % of the step, at most `buckets` points, each the highest step of its bucket.
    QList<QPointF> totalOutline(const Estimate& e, std::size_t buckets)
    {
        QList<QPointF> out;
        const auto n = std::size_t(timelineSize(e));
        const double stepSeconds = e.microBatchSeconds + e.optimizerSeconds;
        if (n == 0 || !(stepSeconds > 0))
            return out;
        buckets = std::min(n, buckets);
        std::size_t begin = 0;
        for (std::size_t b = 0; b < buckets; ++b) {
            const std::size_t end = (b + 1) * n / buckets;
            double best = -1.0;
            double start = 0.0;
            for (std::size_t i = begin; i < end; ++i) {
                const TimelineStep step = timelineStep(e, std::int64_t(i));
                double t = 0.0;
                for (double v : step.bytes)
                    t += v;
                if (t > best) {
                    best = t;
                    start = step.start;
                }
            }
            out.append(QPointF(start * 100.0 / stepSeconds, best / kGiB));
            begin = end;
        }
        out.append(QPointF(100.0, out.back().y()));
        return out;
    }
} // namespace

TimelineView::TimelineView(QWidget* parent)
    : ChartPanel(parent)
{
    auto* chart = new QChart;
    m_axisX = new QValueAxis(chart);
    m_axisY = new QValueAxis(chart);
    m_axisY->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_capacity = new QLineSeries(chart);
    m_phaseLines = new QLineSeries(chart);
    m_peak = new QScatterSeries(chart);
    m_peak->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_capacity, m_phaseLines, m_peak }) {
        chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    m_capacity->append({ QPointF(0, 0), QPointF(1, 0) });
    m_areas = new StackedAreasItem(chart, m_capacity);
    m_capacityLine = new PolylineItem(chart, m_capacity);
    m_baselineLine = new PolylineItem(chart, m_capacity);
    m_baselineLine->setVisible(false);
    m_measuredLine = new PolylineItem(chart, m_capacity);
    m_measuredLine->setVisible(false);
    m_measuredLabel = new QGraphicsSimpleTextItem(chart);
    m_measuredLabel->setZValue(20);
    m_measuredLabel->setVisible(false);
    m_peak->append(QPointF(0, 0));
    chart->legend()->setVisible(false);
    m_peakLabel = new QGraphicsSimpleTextItem(chart);
    m_peakLabel->setZValue(20);
    m_peakPlate = new QGraphicsRectItem(chart);
    m_peakPlate->setZValue(19);
    m_peakPlate->setPen(Qt::NoPen);
    m_lengthLabel = new QGraphicsSimpleTextItem(chart);
    m_lengthLabel->setZValue(20);
    m_baseMargins = chart->margins();
    for (auto& l : m_phaseLabels) {
        l = new QGraphicsSimpleTextItem(chart);
        l->setZValue(20);
    }
    m_axisX->setRange(0.0, 100.0);
    m_axisX->setTickCount(6);
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    adoptChart(chart);
    retranslate();
    connect(m_areas, &StackedAreasItem::clicked, this, [this](int c) {
        ExplainRequest r;
        r.topic = ExplainRequest::Topic::Category;
        r.category = MemoryCategory(c);
        emit explainRequested(r);
    });
}

TimelineView::~TimelineView() = default;

void TimelineView::retranslate()
{
    setTitleText(tr("Memory over one training step"), tr("Timeline"));
    setAxisTitle(m_axisX, timeAxisTitle());
    setAxisTitle(m_axisY, tr("GiB"));
}

// What the timeline spans. Not its length (lengthTexts(), on the line under it): a new axis title re-lays out the
// chart, and a length in it made every slider tick do so (half of a tick's frame).
QString TimelineView::timeAxisTitle() const { return wholeStep() ? tr("time within the step (%)") : tr("time (%)"); }

bool TimelineView::wholeStep() const
{
    return !(m_stepSeconds > 0) || std::abs(m_wholeStepSeconds - m_stepSeconds) <= 0.005 * m_wholeStepSeconds;
}

// The length of 100 %. With accumulation, communication or a pipeline the step is longer than the timeline (one
// micro-batch's forward and backward and the optimizer), and the line says so rather than calling the part the step.
// Whole, and shorter for a narrow chart: cut to its width, the whole sentence lost the step's time ("100 % = 989.0 ms
// without communication; …" at 1024x768).
std::array<QString, 2> TimelineView::lengthTexts() const
{
    if (!(m_stepSeconds > 0))
        return {};
    const QString span = formatSeconds(m_stepSeconds), step = formatSeconds(m_wholeStepSeconds);
    if (wholeStep()) {
        const QString text = tr("100 % = %1").arg(span);
        return { text, text };
    }
    if (m_microBatches > 1)
        return { tr("100 % = %1: one of %2 micro-batches and the optimizer; the step takes %3")
                     .arg(span)
                     .arg(m_microBatches)
                     .arg(step),
                 tr("100 % = %1, 1 of %2 micro-batches; step %3").arg(span).arg(m_microBatches).arg(step) };
    return { tr("100 % = %1 without communication; the step takes %2").arg(span, step),
             tr("100 % = %1; step %2 with communication").arg(span, step) };
}

void TimelineView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    m_capacity->setPen(QPen(Qt::NoPen));
    m_capacityLine->setPen(QPen(style.capacity, style.lineWidth, Qt::DashLine));
    m_phaseLines->setPen(QPen(style.foreground, style.lineWidth * 0.5, Qt::DotLine));
    m_baselineLine->setPen(QPen(style.foreground, style.lineWidth, Qt::DashDotLine));
    m_measuredLine->setPen(QPen(style.foreground, style.lineWidth * 1.5, Qt::DotLine));
    m_measuredLabel->setFont(style.annotationFont);
    m_measuredLabel->setBrush(style.foreground);
    m_peak->setColor(style.overflow);
    m_peak->setBorderColor(style.foreground);
    m_peak->setMarkerSize(13.0 * style.markerScale);
    m_peakLabel->setFont(style.annotationFont);
    m_peakLabel->setBrush(style.foreground);
    QColor plate = style.plotBackground; // as the roofline's plates: the fill shows through, the text reads
    plate.setAlpha(215);
    m_peakPlate->setBrush(plate);
    m_lengthLabel->setFont(style.annotationFont);
    m_lengthLabel->setBrush(style.foreground);
    // A line under the x axis's title for lengthTexts(), kept whether or not it shows.
    QMarginsF margins = m_baseMargins;
    margins.setBottom(margins.bottom() + QFontMetricsF(style.annotationFont).height());
    if (chart()->margins() != margins.toMargins())
        chart()->setMargins(margins.toMargins());
    for (auto* l : m_phaseLabels) {
        l->setFont(style.annotationFont);
        l->setBrush(style.foreground);
    }
    placeLabels();
}

void TimelineView::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    const SimulationResult& r = *result;
    const Estimate& e = r.estimate;
    const auto n = std::size_t(timelineSize(e));
    if (n == 0)
        return;
    // Time is shown as a share of the step, so that the axis stays still while a slider moves; the step's length
    // is in the axis title.
    const double stepSeconds = e.microBatchSeconds + e.optimizerSeconds;
    const double toPercent = stepSeconds > 0 ? 100.0 / stepSeconds : 0.0;
    // Bucket the steps so that the chart stays fast; each bucket shows its highest step, so no peak is lost.
    const std::size_t buckets = std::min<std::size_t>(n, kMaxPoints);
    QList<double> x;
    std::array<QList<double>, kMemoryCategoryCount> values;
    x.reserve(qsizetype(buckets));
    for (auto& v : values)
        v.reserve(qsizetype(buckets));
    std::size_t begin = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::size_t end = (b + 1) * n / buckets;
        std::size_t best = begin;
        double bestTotal = -1.0;
        for (std::size_t i = begin; i < end; ++i) {
            double t = 0.0;
            for (double v : timelineStep(e, std::int64_t(i)).bytes)
                t += v;
            if (t > bestTotal) {
                bestTotal = t;
                best = i;
            }
        }
        if (std::size_t(e.peakStep) >= begin && std::size_t(e.peakStep) < end)
            best = std::size_t(e.peakStep);
        const TimelineStep shown = timelineStep(e, std::int64_t(best));
        x.append(shown.start * toPercent);
        for (int c = 0; c < kMemoryCategoryCount; ++c)
            values[c].append(shown.bytes[c]);
        begin = end;
    }
    // The last step (the optimizer) lasts until the end of the step.
    x.append(100.0);
    const TimelineStep last = timelineStep(e, std::int64_t(n - 1));
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        values[c].append(last.bytes[c]);
    m_points = int(x.size());
    for (auto& v : values)
        for (double& d : v)
            d /= kGiB;
    m_areas->setData(x, values);

    const PhaseStarts starts = phaseStarts(e);
    m_phaseBounds = { 0.0, starts.backward * toPercent, starts.optimizer * toPercent, 100.0 };
    m_stepSeconds = stepSeconds;
    m_wholeStepSeconds = e.stepSeconds;
    m_microBatches = e.config.gradientAccumulation;
    setAxisTitle(m_axisX, timeAxisTitle());
    m_lengthTexts = lengthTexts();
    double top = std::max(e.capacityBytes, e.peakBytes) * 1.1 / kGiB;
    const QList<QPointF> base = m_baseline && m_baseline->model ? totalOutline(m_baseline->estimate, kMaxPoints)
                                                                : QList<QPointF>();
    m_baselineLine->setVisible(!base.isEmpty());
    m_baselineLine->setPoints(base);
    if (!base.isEmpty()) {
        top = std::max(top, m_baseline->estimate.peakBytes * 1.1 / kGiB);
    }
    if (m_measuredBytes)
        top = std::max(top, *m_measuredBytes * 1.1 / kGiB);
    setStableTop(m_axisY, top);
    replaceIfChanged(m_capacity, { QPointF(0.0, e.capacityBytes / kGiB), QPointF(100.0, e.capacityBytes / kGiB) });
    m_capacityLine->setPoints(m_capacity->points());
    const double ymax = m_axisY->max();
    replaceIfChanged(m_phaseLines,
                     { QPointF(m_phaseBounds[1], 0), QPointF(m_phaseBounds[1], ymax), QPointF(m_phaseBounds[2], ymax),
                       QPointF(m_phaseBounds[2], 0) });
    replaceIfChanged(m_peak, { QPointF(timelineStep(e, e.peakStep).start * toPercent, e.peakBytes / kGiB) });
    const int layers = e.schedule->layers;
    m_peakBase = tr("peak in the %1 of %2: %3")
                     .arg(e.peakInRecompute ? tr("recomputation") : Labels::phase(e.peakPhase),
                          Labels::layer(e.peakLayer, layers), formatBytes(e.peakBytes));
    m_peakText = m_peakBase; // this result's verdict comes with its background search
    m_peakBytes = formatBytes(e.peakBytes);
    m_peakShort = tr("peak %1").arg(m_peakBytes);
    m_peakSizes = m_peakShort;
    m_peakCounted = m_peakShort;
    m_phaseNames = { Labels::phase(Phase::Forward), Labels::phase(Phase::Backward), Labels::phase(Phase::Optimizer) };
    placeLabels();
}

void TimelineView::placeLabels()
{
    // Ticks every 20 % where "100" fits between them, every 25 or 50 % where not.
    fitTickCount(m_axisX, { 6, 5, 3, 2 }, QStringLiteral("100"));
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    double labelsBottom = plot.top();
    // Each phase's name centred over it, or where the phase is too short for it, at its start; on the first row
    // inside the plot that has room for it (above the plot it ran into the chart's title).
    std::vector<QRectF> placed;
    for (int p = 0; p < 3; ++p) {
        const double start = c->mapToPosition(QPointF(m_phaseBounds[p], 0), m_phaseLines).x();
        const double end = c->mapToPosition(QPointF(m_phaseBounds[p + 1], 0), m_phaseLines).x();
        setTextIfChanged(m_phaseLabels[p], m_phaseNames[p]);
        QRectF lr = m_phaseLabels[p]->boundingRect();
        double x = end - start > lr.width() + 4 ? (start + end - lr.width()) / 2.0 : start + 2.0;
        // A phase too short for its name at the plot's end (the optimizer step): the name ends just before the
        // phase's boundary, which otherwise ran through it once the name was pushed back inside the plot, and points
        // at its phase (standing over the backward pass, it read as the backward's).
        if (x + lr.width() > plot.right() - 3.0) {
            setTextIfChanged(m_phaseLabels[p], m_phaseNames[p] + QChar(QChar::Nbsp) + QChar(0x2192));
            lr = m_phaseLabels[p]->boundingRect();
            if (start - 3.0 - lr.width() >= plot.left() + 3.0)
                x = start - 3.0 - lr.width();
            else
                setTextIfChanged(m_phaseLabels[p], m_phaseNames[p]);
        }
        // Clear of the plot's frame: a short last phase put "优化器步" against its right edge.
        constexpr double inset = 3.0;
        QRectF r(std::clamp(x, plot.left() + inset, std::max(plot.left() + inset, plot.right() - inset - lr.width())),
                 plot.top() + 2.0, lr.width(), lr.height());
        // Names on one row a character apart at least: 4 px apart, "反向 优化器步 →" read as one phrase.
        const double apart = QFontMetricsF(m_phaseLabels[p]->font()).horizontalAdvance(QChar(0x4E2D));
        while (std::any_of(placed.begin(), placed.end(),
                           [&r, apart](const QRectF& o) { return o.adjusted(-apart, 0, apart, 0).intersects(r); }))
            r.translate(0.0, lr.height() + 2.0);
        placed.push_back(r);
        m_phaseLabels[p]->setPos(r.topLeft());
        labelsBottom = std::max(labelsBottom, r.bottom());
    }
    if (m_measuredBytes) {
        const QPointF end = c->mapToPosition(QPointF(100.0, *m_measuredBytes / kGiB), m_capacity);
        const QRectF mr = m_measuredLabel->boundingRect();
        m_measuredLabel->setPos(std::max(plot.left(), end.x() - mr.width() - 2.0),
                                std::max(labelsBottom + 2.0, end.y() - mr.height() - 1.0));
    }
    // The peak's label above its marker, below the phase names, and inside the plot's width (on more lines where
    // one is too long for it); beside the marker where the phase names leave no room above it.
    const QPointF peak = c->mapToPosition(m_peak->at(0), m_peak);
    // Clear of the marker, which is drawn centred on the peak: half its size and a little more (a fixed 8 px put the
    // presentation mode's larger triangle into the text, "of the hea▲d").
    const double gap = m_peak->markerSize() / 2.0 + 3.0;
    // On at most two lines, else the size alone (the verdict names the phase and the operator): a narrow plot beside
    // a dock otherwise stacks one word per line over the curve.
    // A figure stays on one line with its unit ("11.00 GiB" broke after "11.00").
    static const QRegularExpression digitSpace(QStringLiteral("(\\d) ")); // compiled once, not on every tick
    auto unbroken = [](QString text) { return text.replace(digitSpace, QStringLiteral("\\1") + QChar(QChar::Nbsp)); };
    const QString whole = unbroken(m_peakText), sizes = unbroken(m_peakSizes);
    auto fitted = [&](double width) {
        for (const QString& text : { whole, sizes }) {
            QString wrapped = wrappedText(text, m_peakLabel->font(), width);
            if (wrapped.count(QLatin1Char('\n')) <= 1)
                return wrapped;
        }
        return unbroken(m_peakCounted); // the verdict's figure, which the headline states
    };
    // Over the marker the label stays inside the phase the peak is in, three pixels clear of the dotted lines that
    // bound it and of the plot's edges (the peak often sits just after a boundary, the head's backward, and the line
    // ran through the centred label; at the plot's edge it met the axis's tick labels), on more lines where needed.
    double gapLeft = plot.left() + 3.0, gapRight = plot.right() - 3.0;
    for (const double boundary : phaseBoundaries()) {
        if (boundary <= peak.x())
            gapLeft = std::max(gapLeft, boundary + 3.0);
        else
            gapRight = std::min(gapRight, boundary - 3.0);
    }
    setTextIfChanged(m_peakLabel, fitted(std::max(40.0, gapRight - gapLeft)));
    QRectF br = m_peakLabel->boundingRect();
    // Off the capacity line where it would run through the text: just above it or just under it, whichever keeps
    // the label nearer the peak and clear of the phase names and the plot's bottom.
    const double line = c->mapToPosition(m_capacity->at(0), m_capacity).y();
    auto offTheLine = [&](double y) {
        if (y > line + 1.0 || y + br.height() < line - 1.0)
            return y;
        const double above = line - br.height() - 2.0, below = line + 2.0;
        const bool aboveFits = above >= labelsBottom + 2.0, belowFits = below + br.height() <= plot.bottom();
        const double centre = peak.y() - br.height() / 2.0;
        if (aboveFits && (!belowFits || std::abs(above - centre) <= std::abs(below - centre)))
            return above;
        return belowFits ? below : y;
    };
    // Above the marker only where the capacity line leaves it there: moved under the line, a label over a peak just
    // below the capacity sat on its own marker ("of the hea▲d").
    const double over = offTheLine(peak.y() - br.height() - gap);
    auto inPlot = [&](double x) {
        return std::clamp(x, plot.left() + 3.0, std::max(plot.left() + 3.0, plot.right() - 3.0 - br.width()));
    };
    // (A phase narrower than the label, the optimizer step's at the plot's end: beside the marker instead.)
    if (labelsBottom + 2.0 + br.height() <= peak.y() - gap && over + br.height() <= peak.y() - gap
        && br.width() <= gapRight - gapLeft) {
        m_peakLabel->setPos(std::clamp(peak.x() - br.width() / 2.0, gapLeft, std::max(gapLeft, gapRight - br.width())),
                            over);
    } else {
        const bool right = plot.right() - peak.x() >= peak.x() - plot.left();
        const double room = (right ? plot.right() - peak.x() : peak.x() - plot.left()) - gap - 2.0;
        setTextIfChanged(m_peakLabel, fitted(room));
        br = m_peakLabel->boundingRect();
        // Inside the plot: a label wider than the room beside the marker ran over the axis's tick labels ("8" under
        // the Chinese label at 1920x1080).
        const double x = right ? peak.x() + gap : peak.x() - gap - br.width();
        // No lower than the peak: nothing of the curve is higher, so the text stays off the filled areas (centred on
        // the peak, its second line ran over the backward pass's fill: "head: 16.17 GiB" on GPT-2 Medium at
        // 1600x980 with the scaling panel open). Above the plot's foot too (LoRA's 1.77 GiB under a 12 GiB line).
        const double y = std::min(peak.y() - br.height() - 1.0, plot.bottom() - br.height() - 1.0);
        double at = offTheLine(std::max(labelsBottom + 2.0, y));
        // Moved under the capacity line, it is back on the curve where the line is less than a label's height above
        // the peak: then above the line, where the phase names leave room.
        const double above = line - br.height() - 2.0;
        if (at + br.height() > peak.y() + 1.0 && at > line && above >= labelsBottom + 2.0)
            at = above;
        m_peakLabel->setPos(inPlot(x), at);
    }
    // Where the plot is too small to keep the label off the fill (1024x768, four charts), a plate keeps it legible.
    m_peakPlate->setRect(m_peakLabel->mapRectToParent(m_peakLabel->boundingRect()).adjusted(-2, 0, 2, 0));
    m_peakPlate->setVisible(m_peakLabel->isVisible());
    placeLengthLabel();
}

// Centred on the plot in the line kept under the x axis's title; cut to the chart's width where it is longer.
void TimelineView::placeLengthLabel()
{
    const QRectF title = axisTitleRect(m_axisX);
    const QRectF plot = chart()->plotArea();
    const QFontMetricsF fm(m_lengthLabel->font());
    const double room = chart()->size().width() - 8.0;
    const auto& [whole, brief] = m_lengthTexts;
    setTextIfChanged(m_lengthLabel,
                     fm.horizontalAdvance(whole) <= room ? whole : fm.elidedText(brief, Qt::ElideRight, room));
    const double width = m_lengthLabel->boundingRect().width();
    const double x = std::clamp(plot.center().x() - width / 2.0, 4.0, std::max(4.0, room + 4.0 - width));
    m_lengthLabel->setPos(x, title.isEmpty() ? chart()->size().height() - fm.height() - 2.0 : title.bottom());
}

void TimelineView::setMeasuredPeak(std::optional<double> bytes)
{
    if (m_measuredBytes == bytes)
        return;
    m_measuredBytes = bytes;
    m_measuredLine->setVisible(bytes.has_value());
    m_measuredLabel->setVisible(bytes.has_value());
    if (bytes) {
        m_measuredLine->setPoints({ QPointF(0.0, *bytes / kGiB), QPointF(100.0, *bytes / kGiB) });
        setTextIfChanged(m_measuredLabel, tr("measured max_memory_allocated %1").arg(formatBytes(*bytes)));
        if (*bytes * 1.1 / kGiB > m_axisY->max())
            setStableTop(m_axisY, *bytes * 1.1 / kGiB);
    }
    placeLabels();
}

QString TimelineView::measuredText() const
{
    return m_measuredLabel->isVisible() ? m_measuredLabel->text() : QString();
}

// Each stretch between two points of the curve as the strip under the lower of them, down to the plot's foot: the
// filled areas, which text is hard to read over.
QList<QRectF> TimelineView::fillRects() const
{
    QList<QRectF> rects;
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    for (int i = 0; i + 1 < m_areas->count(); ++i) {
        const QPointF a = c->mapToPosition(QPointF(m_areas->xAt(i), m_areas->topAt(i)), m_capacity);
        const QPointF b = c->mapToPosition(QPointF(m_areas->xAt(i + 1), m_areas->topAt(i + 1)), m_capacity);
        const QRectF strip = QRectF(QPointF(a.x(), std::max(a.y(), b.y())), QPointF(b.x(), plot.bottom()))
                                 .normalized()
                                 .intersected(plot);
        if (strip.height() > 1.0 && strip.width() > 0.0)
            rects << strip;
    }
    return rects;
}

int TimelineView::pointCount() const { return m_points; }
double TimelineView::topAt(int i) const { return m_areas->topAt(i) * kGiB; }
QPointF TimelineView::peakMarker() const { return QPointF(m_peak->at(0).x(), m_peak->at(0).y() * kGiB); }
QString TimelineView::peakText() const { return m_peakText; }

QString TimelineView::peakLabelShown() const { return m_peakLabel->text(); }
QString TimelineView::lengthShown() const { return m_lengthLabel->text(); }

QList<QRectF> TimelineView::phaseLabelRects() const
{
    QList<QRectF> out;
    for (const auto* l : m_phaseLabels)
        out << l->mapRectToParent(l->boundingRect());
    return out;
}

QStringList TimelineView::phaseLabelTexts() const
{
    QStringList out;
    for (const auto* l : m_phaseLabels)
        out << l->text();
    return out;
}

QList<double> TimelineView::phaseBoundaries() const
{
    return { chart()->mapToPosition(QPointF(m_phaseBounds[1], 0), m_phaseLines).x(),
             chart()->mapToPosition(QPointF(m_phaseBounds[2], 0), m_phaseLines).x() };
}

QRectF TimelineView::peakLabelRect() const { return m_peakLabel->mapRectToParent(m_peakLabel->boundingRect()); }

QRectF TimelineView::peakMarkerRect() const
{
    const QPointF at = chart()->mapToPosition(m_peak->at(0), m_peak);
    const double half = m_peak->markerSize() / 2.0;
    return { at.x() - half, at.y() - half, 2.0 * half, 2.0 * half };
}

// What the verdict counts, in the headline's words ("7.86 GiB used", "needs 12.16 GiB"): the allocator's reserve and
// the CUDA context on top of the tensors ("with PyTorch's allocator" read as the max_memory_reserved on the verdict's
// line, which is less by the context).
void TimelineView::setFitVerdict(const FitVerdict& verdict)
{
    const bool replayed = verdict.decidedBy == FitRule::Allocator;
    const QString needed = formatBytes(verdict.neededBytes);
    const QString counted = verdict.fits ? tr("%1 used").arg(needed) : tr("needs %1").arg(needed);
    const QString text = replayed ? tr("%1; %2").arg(m_peakBase, counted) : m_peakBase;
    m_peakSizes = replayed ? tr("peak %1; %2").arg(m_peakBytes, counted) : m_peakShort;
    m_peakCounted = replayed ? counted : m_peakShort;
    if (text == m_peakText)
        return;
    m_peakText = text;
    placeLabels();
}

} // namespace headroom::gui
