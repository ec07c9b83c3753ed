#include "memorychartview.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"

#include "plotitems.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>

namespace headroom::gui {

namespace {

    using units::kGiB;
    constexpr Phase kPhases[] = { Phase::Forward, Phase::Backward, Phase::Optimizer };

    // How much of `r` covers the obstacles (each kept two pixels clear: "fits: 1.97 GiB free" touched "12.0 GiB
    // capacity" at micro-batch 21), or a great deal where `r` leaves the plot.
    qreal coveredArea(const QRectF& r, const QRectF& plot, const QList<QRectF>& obstacles)
    {
        const bool inside = r.top() >= plot.top() + 2.0 && r.bottom() <= plot.bottom() && r.left() >= plot.left()
            && r.right() <= plot.right();
        qreal area = inside ? 0.0 : 1e9;
        for (const QRectF& o : obstacles) {
            const QRectF x = o.adjusted(-2, -2, 2, 2).intersected(r);
            area += x.isEmpty() ? 0.0 : x.width() * x.height();
        }
        return area;
    }

} // namespace

MemoryChartView::MemoryChartView(QWidget* parent)
    : ChartPanel(parent)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    // The three bars sit at x = 0, 1, 2 of a category axis spanning [-0.5, 2.5]; the capacity line spans it.
    m_axisX = new QCategoryAxis(chart);
    m_axisX->setRange(-0.5, 2.5);
    m_axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    m_axisX->setStartValue(-0.5);
    m_axisY = new QValueAxis(chart);
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_capacity = new QLineSeries(chart);
    m_capacity->append(-0.5, 0.0);
    m_capacity->append(2.5, 0.0);
    chart->addSeries(m_capacity);
    m_capacity->attachAxis(m_axisX);
    m_capacity->attachAxis(m_axisY);
    chart->legend()->setVisible(false); // the window's category legend serves all memory charts

    m_ghost = new StackedBarsItem(chart, m_capacity, 3);
    m_ghost->setGhost(true);
    m_ghost->setAcceptHoverEvents(false);
    m_ghost->setAcceptedMouseButtons(Qt::NoButton);
    m_ghost->setVisible(false);
    m_bars = new StackedBarsItem(chart, m_capacity, 3);
    connect(m_bars, &StackedBarsItem::hovered, this, [this](int bar, int c, bool on) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(),
                           tr("<b>%1</b> at the %2 peak: %3<br>%4<br><i>Click for the formula and its source.</i>")
                               .arg(Labels::category(MemoryCategory(c)), Labels::phase(kPhases[bar]),
                                    formatBytes(m_bars->value(bar, MemoryCategory(c)) * kGiB),
                                    Labels::categoryDescription(MemoryCategory(c))),
                           this);
    });
    connect(m_bars, &StackedBarsItem::clicked, this, [this](int, int c) {
        ExplainRequest r;
        r.topic = ExplainRequest::Topic::Category;
        r.category = MemoryCategory(c);
        emit explainRequested(r);
    });
    m_cache = new QGraphicsPathItem(chart);
    m_cache->setZValue(m_bars->zValue() + 1);
    m_baselineLabel = new QGraphicsSimpleTextItem(chart);
    m_baselineLabel->setZValue(20);
    m_baselineLabel->setVisible(false);
    m_verdict = new QGraphicsSimpleTextItem(chart);
    m_capacityLabel = new QGraphicsSimpleTextItem(chart);
    m_verdict->setZValue(20);
    m_capacityLabel->setZValue(20);
    adoptChart(chart);
    retranslate();
}

void MemoryChartView::retranslate()
{
    setTitleText(tr("Memory at the peak of each phase"), tr("Phase peaks"));
    for (const QString& l : m_axisX->categoriesLabels())
        m_axisX->remove(l);
    m_phaseNames = { tr("Forward"), tr("Backward"), tr("Optimizer") };
    //: Short for Forward, Backward and Optimizer under the bars of a narrow chart
    m_phaseShort = { tr("Fwd"), tr("Bwd"), tr("Optim") };
    for (int p = 0; p < 3; ++p)
        m_axisX->append(m_phaseNames[p], p + 0.5);
    setAxisTitle(m_axisY, tr("GiB"));
    m_capacity->setName(tr("Capacity"));
}

void MemoryChartView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    applyOverflowStyle();
    m_verdict->setFont(style.titleFont);
    m_capacityLabel->setFont(style.annotationFont);
    m_capacityLabel->setBrush(style.foreground);
    m_baselineLabel->setFont(style.annotationFont);
    m_baselineLabel->setBrush(style.foreground);
    m_cache->setPen(QPen(style.foreground, style.lineWidth * 0.75, Qt::DashLine));
    QColor hatch = style.foreground;
    hatch.setAlphaF(0.35);
    m_cache->setBrush(QBrush(hatch, Qt::BDiagPattern));
    placeLabels();
}

void MemoryChartView::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    const SimulationResult& r = *result;
    const Estimate& e = r.estimate;
    m_tallest = 0;
    for (int p = 0; p < 3; ++p) {
        m_totals[p] = e.phasePeaks[p].totalBytes;
        m_bars->setValues(p, e.phasePeaks[p].atPeak, kGiB);
        if (m_totals[p] > m_totals[m_tallest])
            m_tallest = p;
    }
    // With a baseline: its bars faint on the left of each phase, the current ones on the right.
    const bool compare = m_baseline && m_baseline->model;
    m_ghost->setVisible(compare);
    m_barWidth = compare ? 0.38 : 0.6;
    m_barOffset = compare ? 0.2 : 0.0;
    m_bars->setBarWidth(m_barWidth);
    m_bars->setOffset(m_barOffset);
    // The axis keeps room for the last answer's outlines until this result's arrives: dragging through a batch that
    // does not fit, the top went 14, 16, 14, 16 GiB as each answer came.
    const double lastOutlines = *std::max_element(m_device.begin(), m_device.end());
    m_device = {}; // this result's replay comes with its verdict
    m_baselineKeyWanted = compare;
    m_baselineLabel->setVisible(compare);
    m_baseTotals = {};
    if (compare) {
        const auto& base = m_baseline->estimate.phasePeaks;
        m_ghost->setBarWidth(0.38);
        m_ghost->setOffset(-0.2);
        for (int p = 0; p < 3; ++p) {
            m_ghost->setValues(p, base[p].atPeak, kGiB);
            m_baseTotals[p] = base[p].totalBytes;
        }
        setTextIfChanged(m_baselineLabel, tr("faint: baseline (%1)").arg(formatBytes(m_baseline->estimate.peakBytes)));
    }
    m_capacityBytes = e.capacityBytes;
    replaceIfChanged(m_capacity, { QPointF(-0.5, e.capacityBytes / kGiB), QPointF(2.5, e.capacityBytes / kGiB) });
    fitAxis(lastOutlines);

    showFit(e.fits, e.headroomBytes);
    m_capacityText = tr("%1 capacity").arg(formatGiB(e.capacityBytes, 1));
    if (e.gpu.memoryOverridden)
        m_capacityText += tr(" (what-if)");
    placeLabels();
}

void MemoryChartView::setFitVerdict(const FitVerdict& verdict, const AllocatorEstimate& replay)
{
    for (int p = 0; p < 3; ++p)
        m_device[p] = replay.phaseDeviceBytes(kPhases[p]);
    if (replay.outOfMemory) {
        // The step stops at its failed cudaMalloc: the phases the replay ran on after it (the cached segments
        // released) are not a step that runs. One outline, on the phase where it failed, at what the step needs (the
        // QLoRA example at micro-batch 13 drew its forward and optimizer outlines lower than at 12; BERT at 26 drew
        // it on the forward pass, the tallest bar, under "peak in the backward").
        for (int p = 0; p < 3; ++p)
            m_device[p] = p == replay.failedPhase ? replay.deviceBytes : 0.0;
    }
    const bool barsUnder = std::all_of(m_totals.begin(), m_totals.end(),
                                       [&](double t) { return t <= verdict.capacityBytes; });
    showFit(verdict.fits, verdict.freeBytes(), verdict.decidedBy == FitRule::Allocator && barsUnder,
            replay.outOfMemory ? replay.failedPhase : -1);
    fitAxis(0.0);
    placeLabels();
}

// The value axis up to the capacity, the bars, the baseline's and the outlines, and at least `atLeast` bytes.
void MemoryChartView::fitAxis(double atLeast)
{
    double top = std::max(m_capacityBytes, atLeast);
    for (int p = 0; p < 3; ++p)
        top = std::max({ top, m_totals[p], m_baseTotals[p], m_device[p] });
    setStableTop(m_axisY, top * 1.12 / kGiB);
}

// `byCache`: over only with what the allocator holds besides the tensors (every bar under the capacity line).
// `failedPhase`: the Phase of the replay's failed cudaMalloc, where the outline stands; often not the tallest bar's
// (BERT at micro-batch 50 runs out in the forward pass, its tensors peak in the backward), so the text names it.
void MemoryChartView::showFit(bool fits, double freeBytes, bool byCache, int failedPhase)
{
    const bool overflowChanged = m_overflow != !fits;
    m_overflow = !fits;
    const QString over = formatBytes(-freeBytes);
    const QString phase = failedPhase >= 0 ? Labels::phase(Phase(failedPhase)) : QString();
    if (fits)
        m_verdictText = tr("fits: %1 free").arg(formatBytes(freeBytes));
    else if (!phase.isEmpty())
        m_verdictText = byCache ? tr("out of memory in the %1 with the allocator's cache: %2 over").arg(phase, over)
                                : tr("out of memory in the %1: %2 over").arg(phase, over);
    else
        m_verdictText = byCache ? tr("does not fit with the allocator's cache: %1 over").arg(over)
                                : tr("does not fit: %1 over").arg(over);
    // Restyling the whole chart invalidates every cached item: only the overflow colours depend on the result.
    if (overflowChanged)
        applyOverflowStyle();
}

void MemoryChartView::applyOverflowStyle()
{
    m_capacity->setPen(m_overflow ? QPen(m_style.overflow, m_style.lineWidth * 1.5, Qt::DashLine)
                                  : QPen(m_style.capacity, m_style.lineWidth, Qt::DashLine));
    m_verdict->setBrush(m_overflow ? m_style.overflow : m_style.foreground);
}

// The phase names shrink (to no less than 75 %), then become short names ("Fwd"), which shrink to no less than 60 %,
// rather than being cut short ("Backw...") under narrow bars.
void MemoryChartView::fitPhaseNames()
{
    // Qt Charts gives each of the axis's four labels (the start value's is empty) a quarter of the plot's width
    // less 4 px of padding on either side, and cuts a label that needs more.
    const qreal room = chart()->plotArea().width() / 4.0 - 10.0;
    const QFontMetricsF fm(m_style.labelFont);
    auto widest = [&fm](const std::array<QString, 3>& names) {
        qreal w = 0.0;
        for (const QString& n : names)
            w = std::max(w, fm.horizontalAdvance(n));
        return w;
    };
    const bool full = room <= 0.0 || widest(m_phaseNames) * 0.75 <= room;
    const std::array<QString, 3>& names = full ? m_phaseNames : m_phaseShort;
    QFont font = m_style.labelFont;
    if (const qreal w = widest(names); room > 0.0 && w > room)
        font = scaledFont(font, std::max(full ? 0.75 : 0.6, room / w));
    if (m_axisX->labelsFont() != font)
        m_axisX->setLabelsFont(font);
    const QStringList shown = m_axisX->categoriesLabels();
    for (int p = 0; p < 3 && p < shown.size(); ++p) {
        if (shown[p] != names[p])
            m_axisX->replaceLabel(shown[p], names[p]);
    }
}

// The three bars (each as tall as the taller of it and the baseline's) in chart coordinates.
QList<QRectF> MemoryChartView::barRects() const
{
    QList<QRectF> bars;
    for (int p = 0; p < 3; ++p) {
        const double total = std::max({ m_totals[p], m_baseTotals[p], m_device[p] });
        bars << QRectF(chart()->mapToPosition(QPointF(p - 0.42, total / kGiB), m_capacity),
                       chart()->mapToPosition(QPointF(p + 0.42, 0.0), m_capacity))
                    .normalized();
    }
    return bars;
}

// The capacity line across the plot, as a band 3 px tall that no text may cross.
QRectF MemoryChartView::capacityBand() const
{
    const QRectF plot = chart()->plotArea();
    const qreal y = chart()->mapToPosition(QPointF(0.0, m_capacityBytes / kGiB), m_capacity).y();
    return QRectF(plot.left(), y - 1.5, plot.width(), 3.0);
}

QList<QRectF> MemoryChartView::dataRects() const
{
    QList<QRectF> rects;
    for (const QRectF& r : barRects())
        rects << chart()->mapRectToScene(r);
    if (const QRectF band = capacityBand(); band.intersects(chart()->plotArea()))
        rects << chart()->mapRectToScene(band);
    return rects;
}

// Inside the plot, off the bars, the capacity line and its label: above the tallest bar where that is clear, else
// above the capacity line over it, else above another bar, else at the top of the plot. In a smaller font, then on
// two lines, where the plot is too narrow for it.
bool MemoryChartView::placeVerdict()
{
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    // Clear of the axis's line: two pixels put a Chinese verdict's first glyph, which fills its width, on it.
    constexpr qreal inset = 5.0;
    const qreal room = plot.width() - 2.0 * inset;
    QFont font = m_style.titleFont;
    const qreal wide = QFontMetricsF(font).horizontalAdvance(m_verdictText);
    if (wide > room && room > 0.0)
        font = scaledFont(font, std::max(0.75, room / wide));
    if (m_verdict->font() != font)
        m_verdict->setFont(font);
    // A figure stays on one line with its unit ("4.81 GiB").
    QString text = m_verdictText;
    static const QRegularExpression digitSpace(QStringLiteral("(\\d) ")); // compiled once, not on every tick
    text.replace(digitSpace, QStringLiteral("\\1") + QChar(QChar::Nbsp));
    setTextIfChanged(m_verdict, wrappedText(text, font, room));
    const QSizeF size = m_verdict->boundingRect().size();
    const QList<QRectF> bars = barRects();
    const QRectF band = capacityBand();
    QList<QRectF> obstacles = bars;
    obstacles << band << m_capacityLabel->mapRectToParent(m_capacityLabel->boundingRect());
    // With a baseline its key at the top left ("faint: baseline (6.76 GiB)" under "fits: 4.17 GiB free" in a narrow
    // chart beside the Baseline dock).
    const QRectF key = m_baselineLabel->isVisible() ? m_baselineLabel->mapRectToParent(m_baselineLabel->boundingRect())
                                                    : QRectF();
    if (!key.isNull())
        obstacles << key;
    auto over = [&](int bar, qreal bottom) {
        const qreal x = std::clamp(bars[bar].center().x() - size.width() / 2.0, plot.left() + inset,
                                   std::max(plot.left() + inset, plot.right() - size.width() - inset));
        return QRectF(QPointF(x, bottom - size.height()), size);
    };
    QList<QRectF> candidates { over(m_tallest, bars[m_tallest].top() - 4.0), over(m_tallest, band.top() - 4.0) };
    for (int p = 0; p < 3; ++p) {
        if (p != m_tallest)
            candidates << over(p, bars[p].top() - 4.0);
    }
    // Then anywhere along the band above the capacity line (at the left, in the middle, at the right: the capacity's
    // label is at the right), and along the top, in the middle first (at the left it hugged the axis, far from the
    // bars: ZeRO-3's tour step, its outlines just under the line).
    const qreal left = plot.left() + inset, middle = plot.center().x() - size.width() / 2.0,
                right = plot.right() - size.width() - inset;
    for (const qreal x : { left, middle, right })
        candidates << QRectF(QPointF(x, band.top() - 4.0 - size.height()), size);
    for (const qreal x : { middle, left, right })
        candidates << QRectF(QPointF(x, plot.top() + 2.0), size);
    // Under the baseline's key, where a narrow chart has no room beside it.
    if (!key.isNull()) {
        for (const qreal x : { left, middle, right })
            candidates << QRectF(QPointF(x, key.bottom() + 4.0), size);
    }
    // The first clear place; where none is, the one that covers least.
    auto covered = [&](const QRectF& r) { return coveredArea(r, plot, obstacles); };
    QRectF chosen = candidates.front();
    qreal least = covered(chosen);
    for (const QRectF& r : candidates) {
        if (least == 0.0)
            break;
        if (const qreal a = covered(r); a < least) {
            chosen = r;
            least = a;
        }
    }
    m_verdict->setPos(chosen.topLeft());
    return least == 0.0;
}

// On the capacity line, off the bars: above or under it, at its right or its left end, then in a gap between bars,
// the first of these that touches no bar (a bar that reaches the line covered "12.0 GiB capacity" at the right end).
// Where bars leave no room on the line (Llama 2 7B on the 12 GB A3000: the line under every bar), the label becomes
// a key, "- - 12.0 GiB capacity", in the clear space above the bars.
void MemoryChartView::placeCapacityLabel()
{
    QChart* c = chart();
    const QRectF plot = c->plotArea();
    const QList<QRectF> bars = barRects();
    auto clear = [&](const QRectF& r) {
        return r.top() >= plot.top() && r.bottom() <= plot.bottom() && r.left() >= plot.left() - 0.5
            && r.right() <= plot.right() + 0.5
            && std::none_of(bars.begin(), bars.end(), [&](const QRectF& b) { return b.intersects(r); });
    };
    // Measured, not set, until its place is known: setting the text twice on every tick re-lays out the item twice.
    const QFontMetricsF fm(m_capacityLabel->font());
    const QString key = tr("- - %1").arg(m_capacityText);
    // The height the item draws (its text, or the key: the same characters), which a fallback font's taller glyphs
    // make more than the font's own (Chinese: 16 px for 12.8, and "容量 12.0 GiB" sat on the line it labels).
    const qreal height = std::max(fm.height(),
                                  m_capacityLabel->text().isEmpty() ? 0.0 : m_capacityLabel->boundingRect().height());
    const QSizeF size(fm.horizontalAdvance(m_capacityText), height);
    const QPointF right = c->mapToPosition(QPointF(2.5, m_capacityBytes / kGiB), m_capacity);
    const qreal above = right.y() - size.height() - 2.0, below = right.y() + 2.0;
    QList<qreal> xs { right.x() - size.width() - 2.0, plot.left() + 2.0 };
    // The gaps between the bars (and beside the outer ones), in order from the right.
    QList<qreal> edges { plot.left() };
    for (const QRectF& b : bars)
        edges << b.left() << b.right();
    edges << plot.right();
    for (qsizetype i = edges.size() - 2; i >= 0; i -= 2) {
        if (edges[i + 1] - edges[i] >= size.width() + 4.0)
            xs << (edges[i] + edges[i + 1] - size.width()) / 2.0;
    }
    for (const qreal x : xs) {
        for (const qreal y : { above, below }) {
            if (clear(QRectF(QPointF(x, y), size))) {
                setTextIfChanged(m_capacityLabel, m_capacityText);
                m_capacityLabel->setPos(x, y);
                return;
            }
        }
    }
    const QSizeF keySize(fm.horizontalAdvance(key), height);
    QPointF chosen(plot.right() - keySize.width() - 2.0, plot.top() + 2.0);
    for (const qreal x : { plot.right() - keySize.width() - 2.0, plot.left() + 2.0 }) {
        if (clear(QRectF(QPointF(x, plot.top() + 2.0), keySize))) {
            chosen = QPointF(x, plot.top() + 2.0);
            break;
        }
    }
    setTextIfChanged(m_capacityLabel, key);
    m_capacityLabel->setPos(chosen);
}

// Each bar's outline from its top up to what the device holds at that phase's peak, where that is more.
void MemoryChartView::placeCache()
{
    QPainterPath path;
    QStringList lines;
    for (int p = 0; p < 3; ++p) {
        if (m_device[p] <= m_totals[p])
            continue;
        const double x = p + m_barOffset;
        path.addRect(QRectF(chart()->mapToPosition(QPointF(x - m_barWidth / 2, m_device[p] / kGiB), m_capacity),
                            chart()->mapToPosition(QPointF(x + m_barWidth / 2, m_totals[p] / kGiB), m_capacity))
                         .normalized());
        lines << tr("%1: %2 (%3 with the tensors)")
                     .arg(Labels::phase(kPhases[p]), formatBytes(m_device[p] - m_totals[p]), formatBytes(m_device[p]));
    }
    m_cache->setPath(path);
    m_cache->setToolTip(lines.isEmpty() ? QString()
                                        : tr("<b>Held by PyTorch's caching allocator</b> besides the tensors at each "
                                             "phase's peak: segments reserved by then and not in use (the allocator "
                                             "replayed over three steps). The verdict counts them.<br>%1")
                                              .arg(lines.join(QStringLiteral("<br>"))));
}

double MemoryChartView::cacheTop(Phase phase) const
{
    const int p = int(phase);
    return m_device[p] > m_totals[p] ? m_device[p] : 0.0;
}

void MemoryChartView::placeLabels()
{
    fitPhaseNames();
    placeCache();
    QChart* c = chart();
    placeCapacityLabel();
    const QRectF plot = c->plotArea();
    m_baselineLabel->setPos(plot.left() + 6.0, plot.top() + 4.0); // before the verdict, which keeps clear of it
    m_baselineLabel->setVisible(m_baselineKeyWanted);
    // In a chart too short for both above the capacity line (beside the Baseline dock at 1024x768, a 96 px plot), the
    // baseline's key gives way to the verdict: the dock beside it names the baseline.
    bool clear = placeVerdict();
    if (!clear && m_baselineKeyWanted) {
        m_baselineLabel->setVisible(false);
        clear = placeVerdict();
    }
    if (!clear && makeRoomForVerdict())
        placeVerdict();
}

// Where no place is clear, the value axis grows until the verdict fits above the tallest bar: at 1024x768 BERT at
// micro-batch 50, its forward outline near the top of the axis, put "在前向阶段显存不足，超出 10.30 GiB" on the
// outline and "out of memory in the forward: 10.30 GiB over" on the backward bar. False where it cannot grow.
bool MemoryChartView::makeRoomForVerdict()
{
    const QRectF plot = chart()->plotArea();
    const qreal need = m_verdict->boundingRect().height() + 10.0;
    double tallest = m_capacityBytes;
    for (int p = 0; p < 3; ++p)
        tallest = std::max({ tallest, m_totals[p], m_baseTotals[p], m_device[p] });
    if (plot.height() < 2.0 * need || tallest <= 0.0)
        return false;
    const double top = tallest / kGiB * plot.height() / (plot.height() - need);
    if (top <= m_axisY->max())
        return false;
    setStableTop(m_axisY, top);
    return true;
}

double MemoryChartView::barValue(Phase phase, MemoryCategory category) const
{
    return m_bars->value(int(phase), category) * kGiB;
}

double MemoryChartView::baselineBarValue(Phase phase, MemoryCategory category) const
{
    return m_ghost->isVisible() ? m_ghost->value(int(phase), category) * kGiB : 0.0;
}

double MemoryChartView::capacityLine() const { return m_capacity->at(0).y() * kGiB; }
QString MemoryChartView::verdictText() const { return m_verdictText; }
bool MemoryChartView::overflowShown() const { return m_overflow; }

} // namespace headroom::gui
