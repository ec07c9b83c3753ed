#include "memorychartview.h"
#include "units.h"

#include "formatting.h"
#include "labels.h"

#include "plotitems.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

namespace headroom::gui {

namespace {
    using units::kGiB;
    constexpr Phase kPhases[] = { Phase::Forward, Phase::Backward, Phase::Optimizer };
}

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
    setTitleText(tr("Memory at the peak of each phase"));
    for (const QString& l : m_axisX->categoriesLabels())
        m_axisX->remove(l);
    m_axisX->append(tr("Forward"), 0.5);
    m_axisX->append(tr("Backward"), 1.5);
    m_axisX->append(tr("Optimizer"), 2.5);
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
    placeLabels();
}

void MemoryChartView::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    const SimulationResult& r = *result;
    const Estimate& e = r.estimate;
    double top = e.capacityBytes;
    m_tallest = 0;
    for (int p = 0; p < 3; ++p) {
        m_totals[p] = e.phasePeaks[p].totalBytes;
        m_bars->setValues(p, e.phasePeaks[p].atPeak, kGiB);
        top = std::max(top, m_totals[p]);
        if (m_totals[p] > m_totals[m_tallest])
            m_tallest = p;
    }
    // With a baseline: its bars faint on the left of each phase, the current ones on the right.
    const bool compare = m_baseline && m_baseline->model;
    m_ghost->setVisible(compare);
    m_bars->setBarWidth(compare ? 0.38 : 0.6);
    m_bars->setOffset(compare ? 0.2 : 0.0);
    m_baselineLabel->setVisible(compare);
    if (compare) {
        const auto& base = m_baseline->estimate.phasePeaks;
        m_ghost->setBarWidth(0.38);
        m_ghost->setOffset(-0.2);
        for (int p = 0; p < 3; ++p) {
            m_ghost->setValues(p, base[p].atPeak, kGiB);
            top = std::max(top, base[p].totalBytes);
        }
        setTextIfChanged(m_baselineLabel, tr("faint: baseline (%1)").arg(formatBytes(m_baseline->estimate.peakBytes)));
    }
    m_capacityBytes = e.capacityBytes;
    replaceIfChanged(m_capacity, { QPointF(-0.5, e.capacityBytes / kGiB), QPointF(2.5, e.capacityBytes / kGiB) });
    setStableTop(m_axisY, top * 1.12 / kGiB);

    const bool overflowChanged = m_overflow != !e.fits;
    m_overflow = !e.fits;
    setTextIfChanged(m_verdict,
                     e.fits ? tr("fits: %1 free").arg(formatBytes(e.headroomBytes))
                            : tr("does not fit: %1 over").arg(formatBytes(-e.headroomBytes)));
    QString capacity = tr("%1 capacity").arg(formatGiB(e.capacityBytes, 1));
    if (e.gpu.memoryOverridden)
        capacity += tr(" (what-if)");
    setTextIfChanged(m_capacityLabel, capacity);
    // Restyling the whole chart invalidates every cached item: only the overflow colours depend on the result.
    if (overflowChanged)
        applyOverflowStyle();
    placeLabels();
}

void MemoryChartView::applyOverflowStyle()
{
    m_capacity->setPen(m_overflow ? QPen(m_style.overflow, m_style.lineWidth * 1.5, Qt::DashLine)
                                  : QPen(m_style.capacity, m_style.lineWidth, Qt::DashLine));
    m_verdict->setBrush(m_overflow ? m_style.overflow : m_style.foreground);
}

// The phase names shrink (to no less than 60 %) rather than being cut short ("Backw...") under narrow bars.
void MemoryChartView::fitPhaseNames()
{
    // Qt Charts cuts a label that leaves less than about 24 px between its neighbours.
    const qreal room = chart()->plotArea().width() / 3.0 - 24.0;
    QFont font = m_style.labelFont;
    const QFontMetricsF fm(font);
    qreal widest = 0.0;
    for (const QString& l : m_axisX->categoriesLabels())
        widest = std::max(widest, fm.horizontalAdvance(l));
    if (room > 0.0 && widest > room) {
        const qreal k = std::max(0.6, room / widest);
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * k);
        else
            font.setPixelSize(std::max(1, int(font.pixelSize() * k)));
    }
    if (m_axisX->labelsFont() != font)
        m_axisX->setLabelsFont(font);
}

void MemoryChartView::placeLabels()
{
    fitPhaseNames();
    QChart* c = chart();
    const QPointF top = c->mapToPosition(QPointF(m_tallest, m_totals[m_tallest] / kGiB), m_capacity);
    const QRectF vr = m_verdict->boundingRect();
    m_verdict->setPos(top.x() - vr.width() / 2.0, top.y() - vr.height() - 4.0);
    const QPointF end = c->mapToPosition(QPointF(2.5, m_capacityBytes / kGiB), m_capacity);
    const QRectF cr = m_capacityLabel->boundingRect();
    m_capacityLabel->setPos(end.x() - cr.width() - 2.0, end.y() - cr.height() - 2.0);
    const QRectF plot = c->plotArea();
    m_baselineLabel->setPos(plot.left() + 6.0, plot.top() + 4.0);
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
QString MemoryChartView::verdictText() const { return m_verdict->text(); }
bool MemoryChartView::overflowShown() const { return m_overflow; }

} // namespace headroom::gui
