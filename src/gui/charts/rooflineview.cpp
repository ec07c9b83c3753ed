#include "rooflineview.h"

#include "formatting.h"
#include "labels.h"
#include "plotitems.h"

#include <QChart>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <optional>

#include <cmath>

namespace headroom::gui {

namespace {
    double floorDecade(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
    double ceilDecade(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }
    // The operators of a step as dots of their kind's colour, each with its area proportional to its share of the
    // step time; with a floor, those below or left of it are drawn on it (the baseline's, whose operators may lie
    // outside the axes chosen for the current result).
    std::vector<DotsItem::Dot> operatorDots(const Estimate& e, double markerScale, std::optional<QPointF> floor)
    {
        std::vector<DotsItem::Dot> dots;
        dots.reserve(e.operatorPoints.size());
        for (std::size_t i = 0; i < e.operatorPoints.size(); ++i) {
            const auto& p = e.operatorPoints[i];
            if (p.flops <= 0 || p.bytes <= 0 || p.seconds <= 0)
                continue;
            const double share = e.stepSeconds > 0 ? std::clamp(p.seconds / e.stepSeconds, 0.0, 1.0) : 0.0;
            QPointF at(p.intensity(), p.achievedFlopsPerSecond());
            if (floor)
                at = QPointF(std::max(at.x(), floor->x()), std::max(at.y(), floor->y()));
            dots.push_back({ at, (5.0 + 40.0 * std::sqrt(share)) * markerScale, kindColor(p.kind), int(i) });
        }
        return dots;
    }
} // namespace

RooflineView::RooflineView(QWidget* parent)
    : ChartPanel(parent)
{
    auto* chart = new QChart;
    m_axisX = new QLogValueAxis(chart);
    m_axisY = new QLogValueAxis(chart);
    m_axisX->setLabelFormat(QStringLiteral("%g"));
    m_axisY->setLabelFormat(QStringLiteral("%.0e"));
    m_axisX->setMinorTickCount(0);
    m_axisY->setMinorTickCount(0);
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);
    auto add = [&](QXYSeries* s) {
        chart->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    };
    m_bandwidth = new QLineSeries(chart);
    m_bandwidth->append({ QPointF(1, 1), QPointF(10, 10) });
    add(m_bandwidth);
    m_ridge = new QLineSeries(chart);
    m_ridge->append({ QPointF(1, 1), QPointF(1, 10) });
    add(m_ridge);
    for (int u = 0; u < kMathUnitCount; ++u) {
        m_roofs[u] = new QLineSeries(chart);
        m_roofs[u]->append({ QPointF(1, 1), QPointF(10, 1) });
        add(m_roofs[u]);
        m_roofLabels[u] = new QGraphicsSimpleTextItem(chart);
        m_roofLabels[u]->setZValue(20);
        m_roofPlates[u] = new QGraphicsRectItem(chart);
        m_roofPlates[u]->setZValue(19);
        m_roofPlates[u]->setPen(Qt::NoPen);
    }
    m_step = new QScatterSeries(chart);
    m_step->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_step->append(QPointF(1, 1));
    add(m_step);
    connect(m_step, &QScatterSeries::hovered, this, [this](const QPointF&, bool on) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const auto& w = m_result->estimate.wholeStep;
        QToolTip::showText(QCursor::pos(),
                           tr("<b>Whole training step</b><br>%1 per step, %2 moved<br>intensity %3 FLOP/byte<br>"
                              "achieved %4 in %5")
                               .arg(formatCount(w.flops) + tr("FLOP"), formatBytes(w.bytes))
                               .arg(w.intensity(), 0, 'f', 1)
                               .arg(formatFlopsPerSecond(w.achievedFlopsPerSecond()), formatSeconds(w.seconds)),
                           this);
    });
    m_baselineStep = new QScatterSeries(chart);
    m_baselineStep->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_baselineStep->append(QPointF(1, 1));
    m_baselineStep->setVisible(false);
    add(m_baselineStep);
    m_baselineDots = new DotsItem(chart, m_bandwidth);
    m_baselineDots->setHollow(true);
    m_baselineDots->setAcceptHoverEvents(false);
    m_baselineDots->setAcceptedMouseButtons(Qt::NoButton);
    m_baselineDots->setVisible(false);
    m_dots = new DotsItem(chart, m_bandwidth);
    connect(m_dots, &DotsItem::hovered, this, [this](int id, bool on) {
        if (on)
            showDotTooltip(id);
        else
            QToolTip::hideText();
    });
    connect(m_dots, &DotsItem::clicked, this, [this](int id) {
        ExplainRequest r;
        r.topic = ExplainRequest::Topic::Operator;
        r.operatorIndex = id;
        emit explainRequested(r);
    });
    setupLinkRoof(chart);
    m_bandwidthLabel = new QGraphicsSimpleTextItem(chart);
    m_ridgeLabel = new QGraphicsSimpleTextItem(chart);
    m_bandwidthLabel->setZValue(20);
    m_ridgeLabel->setZValue(20);
    m_ridgePlate = new QGraphicsRectItem(chart);
    m_ridgePlate->setZValue(19);
    m_ridgePlate->setPen(Qt::NoPen);

    // The operator-kind legend sits inside the plot, top left, where no dot can be (above the bandwidth roof), so
    // that a narrow chart keeps its width for data.
    chart->legend()->setVisible(false);
    m_baseMargins = chart->margins();
    m_legendBox = new QGraphicsRectItem(chart);
    m_legendBox->setZValue(15);
    for (int k = 0; k < kOpKindCount; ++k) {
        m_legendDots[k] = new QGraphicsEllipseItem(m_legendBox);
        m_legendDots[k]->setBrush(kindColor(OpKind(k)));
        m_legendDots[k]->setPen(QPen(kindColor(OpKind(k)).darker(140)));
        m_legendTexts[k] = new QGraphicsSimpleTextItem(m_legendBox);
    }
    adoptChart(chart);
    retranslate();
}

void RooflineView::retranslate()
{
    setTitleText(tr("Roofline of the training step"), tr("Roofline"));
    setAxisTitle(m_axisX, tr("arithmetic intensity (FLOP/byte)"));
    setAxisTitle(m_axisY, tr("FLOP/s"));
    for (int k = 0; k < kOpKindCount; ++k)
        m_legendTexts[k]->setText(Labels::kind(OpKind(k)));
}

void RooflineView::setChartStyle(const ChartStyle& style)
{
    ChartPanel::setChartStyle(style);
    m_bandwidth->setPen(QPen(style.bandwidth, style.lineWidth * 1.25));
    m_ridge->setPen(QPen(style.foreground, style.lineWidth * 0.5, Qt::DashLine));
    applyRoofStyle();
    m_bandwidthLabel->setFont(style.annotationFont);
    m_bandwidthLabel->setBrush(style.bandwidth);
    m_ridgeLabel->setFont(style.annotationFont);
    m_ridgeLabel->setBrush(style.foreground);
    for (QGraphicsSimpleTextItem* t : m_legendTexts) {
        t->setFont(style.annotationFont);
        t->setBrush(style.foreground);
    }
    QColor plate = style.plotBackground;
    plate.setAlpha(215);
    m_ridgePlate->setBrush(plate);
    for (QGraphicsRectItem* p : m_roofPlates)
        p->setBrush(plate);
    m_step->setColor(style.foreground);
    m_step->setBorderColor(style.background);
    m_step->setMarkerSize(22.0 * style.markerScale);
    m_baselineStep->setColor(Qt::transparent);
    m_baselineStep->setBorderColor(style.foreground);
    m_baselineStep->setMarkerSize(22.0 * style.markerScale);
    styleLinkRoof();
    placeLabels();
}

// One roof per distinct peak: FP16 and BF16 usually share theirs and are drawn (and named) once; the roof of the
// precision in use is the one kept. Each runs from its own ridge to the right edge (xmax).
void RooflineView::updateRoofs(const Estimate& e, double xmax)
{
    const double bw = e.gpu.bandwidthBytesPerSecond;
    std::array<bool, kMathUnitCount> drawn {};
    for (int u = 0; u < kMathUnitCount; ++u) {
        const double p = e.gpu.peakFlopsPerSecond[u];
        bool duplicate = false;
        for (int v = 0; v < kMathUnitCount; ++v) {
            if (v != u && e.gpu.peakFlopsPerSecond[v] == p
                && (MathUnit(v) == m_activeUnit || (v < u && MathUnit(u) != m_activeUnit)))
                duplicate = true;
        }
        drawn[u] = p > 0 && !duplicate;
        m_roofs[u]->setVisible(drawn[u]);
        m_roofDrawn[u] = drawn[u];
        if (!drawn[u])
            continue;
        replaceIfChanged(m_roofs[u], { QPointF(p / bw, p), QPointF(xmax, p) });
        QStringList names;
        for (int v = 0; v < kMathUnitCount; ++v) {
            if (e.gpu.peakFlopsPerSecond[v] == p)
                names << Labels::unitShort(MathUnit(v));
        }
        QString label = tr("%1 %2").arg(names.join(QStringLiteral("/")), formatFlopsPerSecond(p));
        m_roofShort[u] = formatFlopsPerSecond(p);
        if (e.gpu.peakOverridden && e.gpu.overriddenUnit == MathUnit(u)) {
            label += tr(" (what-if)");
            m_roofShort[u] += tr(" (what-if)");
        }
        m_roofText[u] = label;
    }
}

void RooflineView::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    m_result = result;
    const SimulationResult& r = *result;
    const Estimate& e = r.estimate;
    const double bw = e.gpu.bandwidthBytesPerSecond;
    if (bw <= 0)
        return;
    m_bandwidthBytes = bw;
    const bool unitChanged = m_activeUnit != e.mfuUnit;
    m_activeUnit = e.mfuUnit;
    double peakMax = 0.0, peakMin = 1e300;
    for (int u = 0; u < kMathUnitCount; ++u) {
        if (e.gpu.peakFlopsPerSecond[u] > 0) {
            peakMax = std::max(peakMax, e.gpu.peakFlopsPerSecond[u]);
            peakMin = std::min(peakMin, e.gpu.peakFlopsPerSecond[u]);
        }
    }
    // Axis ranges in whole decades around the roofs and the operators that matter (at least 0.5 % of the step);
    // negligible operators far to the left (a loss gradient's scatter) would squash the plot.
    double xmin = 0.1, xmax = std::max(1e3, 10.0 * peakMax / bw);
    double ymin = peakMin / 1e2, ymax = peakMax * 3.0;
    // With more than one GPU the step against its links too (rooflinelink.cpp), at its FLOPs per byte sent.
    if (e.linkBytesPerSecond() > 0.0)
        xmax = std::max(xmax, 2.0 * e.flopsPerByteSent());
    for (const auto& p : e.operatorPoints) {
        if (p.flops <= 0 || p.bytes <= 0 || p.seconds <= 0 || p.seconds < 0.005 * e.stepSeconds)
            continue;
        xmin = std::min(xmin, p.intensity() / 2.0);
        xmax = std::max(xmax, p.intensity() * 2.0);
        ymin = std::min(ymin, p.achievedFlopsPerSecond() / 3.0);
    }
    xmin = floorDecade(std::max(xmin, 1e-3));
    xmax = ceilDecade(xmax);
    ymin = floorDecade(std::max(ymin, peakMax / 1e6));
    m_axisX->setRange(xmin, xmax);
    m_axisY->setRange(ymin, ymax);
    m_ymin = ymin;
    m_ymax = ymax;

    // Bandwidth slope up to the highest ridge; each compute roof from its own ridge to the right edge.
    const double ridgeMax = peakMax / bw;
    const double x0 = std::max(xmin, ymin / bw);
    replaceIfChanged(m_bandwidth, { QPointF(x0, x0 * bw), QPointF(ridgeMax, peakMax) });
    updateLinkRoof(e, e.gpu.peakFlopsPerSecond[int(e.mfuUnit)], xmin, ymin);
    updateRoofs(e, xmax);
    const double active = e.gpu.peakFlopsPerSecond[int(m_activeUnit)];
    const double ridge = active / bw;
    replaceIfChanged(m_ridge, { QPointF(ridge, ymin), QPointF(ridge, active) });
    setTextIfChanged(m_ridgeLabel, tr("ridge %1 FLOP/B").arg(QLocale().toString(ridge, 'f', ridge < 10 ? 1 : 0)));
    m_bandwidthShort = formatBandwidth(bw);
    m_bandwidthText = e.gpu.bandwidthOverridden ? tr("%1 (what-if)").arg(m_bandwidthShort) : m_bandwidthShort;

    // Dots: operators by kind, area proportional to their share of the step time (Intel Advisor's convention).
    m_kindShown.fill(false);
    std::vector<DotsItem::Dot> dots = operatorDots(e, m_style.markerScale, std::nullopt);
    for (const DotsItem::Dot& d : dots)
        m_kindShown[int(e.operatorPoints[std::size_t(d.id)].kind)] = true;
    m_dots->setDots(std::move(dots));
    const auto& w = e.wholeStep;
    replaceIfChanged(m_step, { QPointF(std::max(w.intensity(), xmin), std::max(w.achievedFlopsPerSecond(), ymin)) });
    // The baseline's operators as hollow dots of the same kind colours, and its step as a hollow star.
    const bool compare = m_baseline && m_baseline->model;
    m_baselineDots->setVisible(compare);
    m_baselineStep->setVisible(compare);
    if (compare) {
        const Estimate& b = m_baseline->estimate;
        std::vector<DotsItem::Dot> ghost = operatorDots(b, m_style.markerScale, QPointF(xmin, ymin));
        m_baselineDots->setDots(std::move(ghost));
        const auto& bw0 = b.wholeStep;
        replaceIfChanged(m_baselineStep,
                         { QPointF(std::max(bw0.intensity(), xmin), std::max(bw0.achievedFlopsPerSecond(), ymin)) });
    }
    // The roofs' pens mark the precision in use; restyling the whole chart on every tick would invalidate every
    // cached item.
    if (unitChanged)
        applyRoofStyle();
    placeLabels();
}

void RooflineView::applyRoofStyle()
{
    const ChartStyle& style = m_style;
    for (int u = 0; u < kMathUnitCount; ++u) {
        const bool active = MathUnit(u) == m_activeUnit;
        m_roofs[u]->setPen(QPen(unitColor(MathUnit(u)), style.lineWidth * (active ? 1.5 : 0.9),
                                active ? Qt::SolidLine : Qt::DashLine));
        m_roofLabels[u]->setFont(style.annotationFont);
        m_roofLabels[u]->setBrush(active ? style.foreground : unitColor(MathUnit(u)).darker(style.dark ? 70 : 120));
    }
}

void RooflineView::showDotTooltip(int operatorIndex)
{
    if (!m_result || operatorIndex < 0 || operatorIndex >= int(m_result->estimate.operatorPoints.size()))
        return;
    const Estimate& e = m_result->estimate;
    const RooflinePoint& p = e.operatorPoints[operatorIndex];
    const double roof = std::min(e.gpu.peakFlopsPerSecond[int(p.unit)], e.gpu.bandwidthBytesPerSecond * p.intensity());
    const bool memoryBound = e.gpu.bandwidthBytesPerSecond * p.intensity() < e.gpu.peakFlopsPerSecond[int(p.unit)];
    QToolTip::showText(QCursor::pos(),
                       tr("<b>%1</b> (%2, %3)<br>%4 FLOP, %5 moved, intensity %6 FLOP/byte<br>"
                          "attainable %7, achieved %8<br>%9 of the step (%10), %11")
                           .arg(QString::fromUtf8(p.name.data(), qsizetype(p.name.size())).toHtmlEscaped(),
                                Labels::phase(p.phase), Labels::kind(p.kind), formatCount(p.flops),
                                formatBytes(p.bytes))
                           .arg(p.intensity(), 0, 'f', 2)
                           .arg(formatFlopsPerSecond(roof), formatFlopsPerSecond(p.achievedFlopsPerSecond()),
                                formatPercent(e.stepSeconds > 0 ? p.seconds / e.stepSeconds : 0.0),
                                formatSeconds(p.seconds), memoryBound ? tr("memory-bound") : tr("compute-bound")),
                       this);
}

double RooflineView::bandwidthSlope() const
{
    if (m_bandwidth->count() < 2)
        return 0.0;
    const QPointF a = m_bandwidth->at(0), b = m_bandwidth->at(1);
    return (b.y() - a.y()) / (b.x() - a.x());
}

double RooflineView::computeRoof(MathUnit unit) const
{
    const auto* r = m_roofs[int(unit)];
    return r->isVisible() && r->count() > 0 ? r->at(0).y() : 0.0;
}

QList<QPointF> RooflineView::dots(OpKind kind) const
{
    QList<QPointF> out;
    if (!m_result)
        return out;
    for (const auto& d : m_dots->dots()) {
        if (m_result->estimate.operatorPoints[d.id].kind == kind)
            out.append(d.at);
    }
    return out;
}

QPointF RooflineView::stepMarker() const { return m_step->at(0); }

QList<QPointF> RooflineView::baselineDots() const
{
    QList<QPointF> out;
    if (m_baselineDots->isVisible()) {
        for (const auto& d : m_baselineDots->dots())
            out.append(d.at);
    }
    return out;
}
QString RooflineView::bandwidthLabel() const { return m_bandwidthText; }

} // namespace headroom::gui
