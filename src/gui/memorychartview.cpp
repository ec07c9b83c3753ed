#include "memorychartview.h"

#include "formatting.h"
#include "labels.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>

namespace headroom::gui {

namespace {
    constexpr double kGiB = 1073741824.0;
    constexpr Phase kPhases[] = { Phase::Forward, Phase::Backward, Phase::Optimizer };
}

MemoryChartView::MemoryChartView(QWidget* parent)
    : ChartPanel(parent)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    m_bars = new QStackedBarSeries(chart);
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        auto* set = new QBarSet(Labels::category(MemoryCategory(c)));
        set->append({ 0.0, 0.0, 0.0 });
        set->setColor(categoryColor(MemoryCategory(c)));
        set->setBorderColor(categoryColor(MemoryCategory(c)).darker(115));
        m_sets[c] = set;
        m_bars->append(set);
        connect(set, &QBarSet::hovered, this, [this, c](bool on, int index) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const double v = m_sets[c]->at(index) * kGiB;
            QToolTip::showText(QCursor::pos(),
                               tr("<b>%1</b> at the %2 peak: %3<br>%4<br><i>Click for the formula and its source.</i>")
                                   .arg(Labels::category(MemoryCategory(c)), Labels::phase(kPhases[index]), formatBytes(v),
                                        Labels::categoryDescription(MemoryCategory(c))),
                               this);
        });
        connect(set, &QBarSet::clicked, this, [this, c](int) {
            ExplainRequest r;
            r.topic = ExplainRequest::Topic::Category;
            r.category = MemoryCategory(c);
            emit explainRequested(r);
        });
    }
    m_bars->setBarWidth(0.6);
    chart->addSeries(m_bars);

    m_capacity = new QLineSeries(chart);
    m_capacity->append(-0.5, 0.0);
    m_capacity->append(2.5, 0.0);
    chart->addSeries(m_capacity);

    m_axisX = new QBarCategoryAxis(chart);
    m_axisHidden = new QValueAxis(chart);
    m_axisHidden->setRange(-0.5, 2.5);
    m_axisHidden->setVisible(false);
    m_axisY = new QValueAxis(chart);
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisHidden, Qt::AlignTop);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    m_bars->attachAxis(m_axisX);
    m_bars->attachAxis(m_axisY);
    m_capacity->attachAxis(m_axisHidden);
    m_capacity->attachAxis(m_axisY);

    chart->legend()->setVisible(false); // the window's category legend serves all memory charts
    m_verdict = new QGraphicsSimpleTextItem(chart);
    m_capacityLabel = new QGraphicsSimpleTextItem(chart);
    m_verdict->setZValue(20);
    m_capacityLabel->setZValue(20);
    setChart(chart);
    retranslate();
}

void MemoryChartView::retranslate()
{
    chart()->setTitle(tr("Memory at the peak of each phase"));
    m_axisX->clear();
    m_axisX->append({ tr("Forward"), tr("Backward"), tr("Optimizer") });
    m_axisY->setTitleText(tr("GiB"));
    m_capacity->setName(tr("Capacity"));
    for (int c = 0; c < kMemoryCategoryCount; ++c)
        m_sets[c]->setLabel(Labels::category(MemoryCategory(c)));
}

void MemoryChartView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    QPen pen(style.capacity, style.lineWidth, Qt::DashLine);
    m_capacity->setPen(m_overflow ? QPen(style.overflow, style.lineWidth * 1.5, Qt::DashLine) : pen);
    m_verdict->setFont(style.titleFont);
    m_capacityLabel->setFont(style.annotationFont);
    m_capacityLabel->setBrush(style.foreground);
    m_verdict->setBrush(m_overflow ? style.overflow : style.foreground);
    placeLabels();
}

void MemoryChartView::setResult(const SimulationResult& r)
{
    const Estimate& e = r.estimate;
    // The highest point of each phase, and its breakdown.
    std::array<CategoryBytes, 3> at {};
    std::array<double, 3> best { -1.0, -1.0, -1.0 };
    if (e.schedule && e.timeline.size() == e.schedule->steps.size()) {
        for (std::size_t i = 0; i < e.timeline.size(); ++i) {
            const int p = int(e.schedule->steps[i].phase);
            double total = 0.0;
            for (double v : e.timeline[i])
                total += v;
            if (total > best[p]) {
                best[p] = total;
                at[p] = e.timeline[i];
            }
        }
    } else {
        at[int(e.peakPhase)] = e.atPeak;
        best[int(e.peakPhase)] = e.peakBytes;
    }
    double top = e.capacityBytes;
    m_tallest = 0;
    for (int p = 0; p < 3; ++p) {
        m_totals[p] = std::max(0.0, best[p]);
        for (int c = 0; c < kMemoryCategoryCount; ++c)
            m_sets[c]->replace(p, std::max(0.0, at[p][c]) / kGiB);
        top = std::max(top, m_totals[p]);
        if (m_totals[p] > m_totals[m_tallest])
            m_tallest = p;
    }
    m_capacityBytes = e.capacityBytes;
    m_capacity->replace(0, QPointF(-0.5, e.capacityBytes / kGiB));
    m_capacity->replace(1, QPointF(2.5, e.capacityBytes / kGiB));
    m_axisY->setRange(0.0, top * 1.15 / kGiB);
    m_axisY->applyNiceNumbers();

    m_overflow = !e.fits;
    m_verdict->setText(e.fits ? tr("fits: %1 free").arg(formatBytes(e.headroomBytes))
                              : tr("does not fit: %1 over").arg(formatBytes(-e.headroomBytes)));
    QString capacity = tr("%1 capacity").arg(formatGiB(e.capacityBytes, 1));
    if (e.gpu.memoryOverridden)
        capacity += tr(" (what-if)");
    m_capacityLabel->setText(capacity);
    setChartStyle(m_style);
}

void MemoryChartView::placeLabels()
{
    QChart* c = chart();
    if (!m_bars->isVisible())
        return;
    const QPointF top = c->mapToPosition(QPointF(m_tallest, m_totals[m_tallest] / kGiB), m_bars);
    const QRectF vr = m_verdict->boundingRect();
    m_verdict->setPos(top.x() - vr.width() / 2.0, top.y() - vr.height() - 4.0);
    const QPointF end = c->mapToPosition(QPointF(2.5, m_capacityBytes / kGiB), m_capacity);
    const QRectF cr = m_capacityLabel->boundingRect();
    m_capacityLabel->setPos(end.x() - cr.width() - 2.0, end.y() - cr.height() - 2.0);
}

void MemoryChartView::resizeEvent(QResizeEvent* event)
{
    ChartPanel::resizeEvent(event);
    placeLabels();
}

double MemoryChartView::barValue(Phase phase, MemoryCategory category) const
{
    return m_sets[index(category)]->at(int(phase)) * kGiB;
}

double MemoryChartView::capacityLine() const { return m_capacity->at(0).y() * kGiB; }
QString MemoryChartView::verdictText() const { return m_verdict->text(); }
bool MemoryChartView::overflowShown() const { return m_overflow; }

} // namespace headroom::gui
