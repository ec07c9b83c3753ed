#include "pipelinescheduleview.h"

#include "formatting.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace headroom::gui {

namespace {

    constexpr qreal kRowHeight = 13.0;
    constexpr qreal kMaxRows = 16.0; // more stages share the same height

    // Forward and backward as the roofline's phases would be: two hues that stay apart on light and dark
    // backgrounds and in grey print (Tableau 10's blue and orange).
    QColor spanColor(bool forward) { return forward ? QColor(0x4e, 0x79, 0xa7) : QColor(0xf2, 0x8e, 0x2b); }

} // namespace

PipelineScheduleView::PipelineScheduleView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("pipelineSchedule"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setVisible(false);
}

void PipelineScheduleView::setTimeline(const PipelineTimeline& timeline, int shownStage, double stepSeconds)
{
    m_timeline = timeline;
    m_stages = 0;
    for (const PipelineSpan& s : m_timeline.spans)
        m_stages = std::max(m_stages, s.stage + 1);
    m_shown = shownStage;
    m_stepSeconds = stepSeconds;
    setVisible(timeline.computed);
    setToolTip(summary());
    updateGeometry();
    update();
}

void PipelineScheduleView::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    updateGeometry();
    update();
}

QString PipelineScheduleView::summary() const
{
    if (!m_timeline.computed)
        return {};
    double busy = 0.0;
    for (const PipelineSpan& s : m_timeline.spans)
        busy += s.stage == m_shown ? s.end - s.start : 0.0;
    return tr("Pipeline schedule: stage %1 works %2 of the pipeline's %3 and waits %4 (the bubble); blue forward, "
              "orange backward")
        .arg(m_shown + 1)
        .arg(formatSeconds(busy), formatSeconds(m_timeline.seconds), formatSeconds(m_timeline.seconds - busy));
}

QSize PipelineScheduleView::sizeHint() const
{
    const QFontMetricsF fm(m_style.annotationFont);
    const qreal rows = std::min<qreal>(m_stages, kMaxRows) * kRowHeight;
    return QSize(400, int(std::ceil(rows + 2.0 * fm.height() + 10.0)));
}

QSize PipelineScheduleView::minimumSizeHint() const { return QSize(200, sizeHint().height()); }

QRectF PipelineScheduleView::rowsArea() const
{
    const QFontMetricsF fm(m_style.annotationFont);
    const qreal left = fm.horizontalAdvance(tr("stage %1").arg(m_stages)) + 10.0;
    const qreal rows = std::min<qreal>(m_stages, kMaxRows) * kRowHeight;
    return QRectF(left, fm.height() + 4.0, std::max(10.0, width() - left - 6.0), rows);
}

void PipelineScheduleView::paintEvent(QPaintEvent*)
{
    if (!m_timeline.computed || m_timeline.seconds <= 0.0)
        return;
    QPainter painter(this);
    painter.fillRect(rect(), m_style.background);
    painter.setFont(m_style.annotationFont);
    const QFontMetricsF fm(m_style.annotationFont);
    const QRectF area = rowsArea();
    const int p = m_stages;
    const qreal row = area.height() / p;
    const qreal scale = area.width() / m_timeline.seconds;
    painter.setPen(m_style.foreground);
    // Elided where the window is narrow; the whole line is the widget's tooltip.
    painter.drawText(QPointF(2.0, fm.ascent() + 1.0), fm.elidedText(summary(), Qt::ElideRight, width() - 4.0));
    for (int s = 0; s < p; ++s) {
        const QRectF band(area.left(), area.top() + s * row, area.width(), row);
        if (s == m_shown)
            painter.fillRect(band.adjusted(-area.left(), 0, 4, 0), m_style.grid);
        if (row >= fm.height() * 0.8) {
            QFont f = m_style.annotationFont;
            f.setBold(s == m_shown);
            painter.setFont(f);
            painter.drawText(QRectF(2.0, band.top(), area.left() - 6.0, row), Qt::AlignRight | Qt::AlignVCenter,
                             tr("stage %1").arg(s + 1));
        }
    }
    painter.setFont(m_style.annotationFont);
    for (const PipelineSpan& span : m_timeline.spans) {
        const QRectF r(area.left() + span.start * scale, area.top() + span.stage * row + 1.0,
                       std::max(1.0, (span.end - span.start) * scale), std::max(1.0, row - 2.0));
        painter.fillRect(r, spanColor(span.forward));
        const QString label = QString::number(span.microBatch + 1);
        if (r.width() > fm.horizontalAdvance(label) + 3.0 && r.height() >= fm.height() * 0.8) {
            painter.setPen(Qt::white);
            painter.drawText(r, Qt::AlignCenter, label);
        }
    }
    // The time axis: the pipeline's start and end, against the step (the optimizer follows).
    painter.setPen(m_style.foreground);
    const qreal y = area.bottom() + fm.ascent() + 3.0;
    painter.drawText(QPointF(area.left(), y), QStringLiteral("0"));
    const QString end = tr("%1 of the %2 step").arg(formatSeconds(m_timeline.seconds), formatSeconds(m_stepSeconds));
    painter.drawText(QPointF(area.right() - fm.horizontalAdvance(end), y), end);
}

const PipelineSpan* PipelineScheduleView::spanAt(const QPointF& pos) const
{
    const QRectF area = rowsArea();
    const int p = m_stages;
    if (!area.contains(pos) || p == 0 || m_timeline.seconds <= 0.0)
        return nullptr;
    const int stage = std::clamp(int((pos.y() - area.top()) / (area.height() / p)), 0, p - 1);
    const double t = (pos.x() - area.left()) / area.width() * m_timeline.seconds;
    for (const PipelineSpan& s : m_timeline.spans)
        if (s.stage == stage && s.start <= t && t <= s.end)
            return &s;
    return nullptr;
}

bool PipelineScheduleView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        if (const PipelineSpan* s = spanAt(help->pos())) {
            const QString what = s->forward ? tr("forward") : tr("backward");
            QString text = tr("Stage %1, micro-batch %2: %3, %4 to %5")
                               .arg(s->stage + 1)
                               .arg(s->microBatch + 1)
                               .arg(what, formatSeconds(s->start), formatSeconds(s->end));
            if (s->chunk > 0)
                text += tr(" (model chunk %1)").arg(s->chunk + 1);
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::showText(help->globalPos(), summary(), this);
        }
        return true;
    }
    return QWidget::event(e);
}

} // namespace headroom::gui
