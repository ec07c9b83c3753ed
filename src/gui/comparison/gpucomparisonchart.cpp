#include "gpucomparisonchart.h"

#include "formatting.h"
#include "gpucomparisonmodel.h"

#include <QPainter>

#include <algorithm>

namespace headroom::gui {

namespace {

    constexpr int kMargin = 8;
    constexpr int kGap = 6;

    // Okabe & Ito's blue, the bars of a quantity that has no verdict (time).
    QColor timeColor() { return QColor(0x00, 0x72, 0xB2); }

} // namespace

GpuComparisonChart::GpuComparisonChart(QWidget* parent)
    : QWidget(parent)
    , m_style(gui::chartStyle(palette(), false))
{
    setObjectName(QStringLiteral("gpuComparisonChart"));
    // Down to its minimum (a label's line a GPU) where the dock is short: with MinimumExpanding its preferred height
    // was its least, 32 px more than a 1024x768 window's panels, tabbed, could give.
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor GpuComparisonChart::fitsColor() { return QColor(0x00, 0x9E, 0x73); }

void GpuComparisonChart::setRows(const std::vector<GpuComparisonRow>& rows)
{
    const std::size_t before = m_bars.size();
    m_bars.clear();
    m_epochTop = m_memoryTop = 0.0;
    for (const GpuComparisonRow& r : rows) {
        Bar b;
        b.label = GpuComparisonModel::shortName(*r.gpu);
        b.capacityBytes = r.capacityBytes;
        b.peakBytes = r.neededBytes; // the verdict's figure, which its free bytes are counted from
        b.epochSeconds = r.fits ? r.epochSeconds : 0.0;
        b.fits = r.fits;
        m_epochTop = std::max(m_epochTop, b.epochSeconds);
        m_memoryTop = std::max({ m_memoryTop, b.capacityBytes, b.peakBytes });
        m_bars.push_back(std::move(b));
    }
    if (m_bars.size() != before)
        updateGeometry();
    update();
}

void GpuComparisonChart::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    updateGeometry();
    update();
}

QList<double> GpuComparisonChart::epochBars() const
{
    QList<double> v;
    for (const Bar& b : m_bars)
        v << b.epochSeconds;
    return v;
}

int GpuComparisonChart::rowHeight() const { return QFontMetrics(m_style.labelFont, this).height() * 8 / 5; }

QSize GpuComparisonChart::sizeHint() const
{
    const int title = QFontMetrics(m_style.titleFont, this).height() + kGap;
    const int rows = std::max<int>(1, int(m_bars.size()));
    return { 760, 2 * kMargin + title + rows * rowHeight() };
}

int GpuComparisonChart::minimumRowHeight() const { return QFontMetrics(m_style.labelFont, this).height(); }

// Every GPU's row, each a label's line high: a short dock (1024x768) shows all the bars, closer together.
QSize GpuComparisonChart::minimumSizeHint() const
{
    const int title = QFontMetrics(m_style.titleFont, this).height() + kGap;
    const int rows = std::max<int>(1, int(m_bars.size()));
    return { 360, 2 * kMargin + title + rows * minimumRowHeight() };
}

void GpuComparisonChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), m_style.background);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRect inner = rect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int half = (inner.width() - 2 * kMargin) / 2;
    // Rows take the space the layout gives, from a label's line up to twice their natural height.
    const int title = QFontMetrics(m_style.titleFont, this).height() + kGap;
    const int rows = std::max<int>(1, int(m_bars.size()));
    const int rowH = std::clamp((inner.height() - title) / rows, minimumRowHeight(), 2 * rowHeight());
    paintPanel(p, QRect(inner.left(), inner.top(), half, inner.height()), rowH, true);
    paintPanel(p, QRect(inner.right() - half + 1, inner.top(), half, inner.height()), rowH, false);
}

void GpuComparisonChart::paintPanel(QPainter& p, const QRect& area, int rowH, bool epoch) const
{
    // Metrics of the painter's device: a font's default metrics can differ from how this widget draws it.
    p.setFont(m_style.labelFont);
    const QFontMetrics fm = p.fontMetrics();
    p.setFont(m_style.titleFont);
    const QFontMetrics titleMetrics = p.fontMetrics();
    p.setPen(m_style.foreground);
    const QString title = epoch ? tr("Time per epoch") : tr("Memory needed against capacity");
    p.drawText(QRect(area.left(), area.top(), area.width(), titleMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
               titleMetrics.elidedText(title, Qt::ElideRight, area.width()));
    if (m_bars.empty())
        return;

    // Values first, so that the bars get what the labels leave.
    QStringList values;
    for (const Bar& b : m_bars) {
        if (epoch)
            values << (b.fits ? formatDuration(b.epochSeconds) : tr("does not fit"));
        else
            values << (b.fits ? tr("%1 of %2").arg(formatGiB(b.peakBytes), formatGiB(b.capacityBytes))
                              : tr("%1 of %2, does not fit").arg(formatGiB(b.peakBytes), formatGiB(b.capacityBytes)));
    }
    int labelWidth = 0, valueWidth = 0;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(m_bars[i].label));
        valueWidth = std::max(valueWidth, fm.horizontalAdvance(values[int(i)]));
    }
    labelWidth = std::min(labelWidth, area.width() * 9 / 20);
    valueWidth = std::min(valueWidth, area.width() * 2 / 5);
    const int barLeft = area.left() + labelWidth + kGap;
    const int barWidth = std::max(10, area.width() - labelWidth - valueWidth - 2 * kGap);
    // elidedText() can shorten a text whose advance equals the width; elide only what is really too long.
    auto fit = [&](const QString& text, Qt::TextElideMode mode, int width) {
        return fm.horizontalAdvance(text) <= width ? text : fm.elidedText(text, mode, width);
    };
    const double top = epoch ? m_epochTop : m_memoryTop;
    auto x = [&](double v) { return top > 0.0 ? barLeft + barWidth * std::clamp(v / top, 0.0, 1.0) : double(barLeft); };

    int y = area.top() + titleMetrics.height() + kGap;
    p.setFont(m_style.labelFont);
    for (std::size_t i = 0; i < m_bars.size(); ++i, y += rowH) {
        const Bar& b = m_bars[i];
        p.setPen(m_style.foreground);
        p.drawText(QRect(area.left(), y, labelWidth, rowH), Qt::AlignRight | Qt::AlignVCenter,
                   fit(b.label, Qt::ElideMiddle, labelWidth));
        const int barH = rowH * 3 / 5;
        const double barTop = y + (rowH - barH) / 2.0;
        double end = barLeft;
        if (epoch) {
            if (b.fits) {
                end = x(b.epochSeconds);
                p.fillRect(QRectF(barLeft, barTop, end - barLeft, barH), timeColor());
            }
        } else {
            // Capacity: an outlined box the full height of the bar; peak: a thinner bar inside it, in the fits
            // colour, or the overflow colour with the part past the capacity hatched.
            const double cap = x(b.capacityBytes);
            p.setPen(QPen(m_style.capacity, 1.0));
            p.setBrush(m_style.grid);
            p.drawRect(QRectF(barLeft, barTop, cap - barLeft, barH));
            end = x(b.peakBytes);
            const QColor fill = b.fits ? fitsColor() : m_style.overflow;
            const QRectF peak(barLeft, barTop + barH / 4.0, end - barLeft, barH / 2.0);
            p.fillRect(peak, fill);
            if (!b.fits && end > cap)
                p.fillRect(QRectF(cap, peak.top(), end - cap, peak.height()),
                           QBrush(m_style.background, Qt::BDiagPattern));
            end = std::max(end, cap);
        }
        p.setPen(b.fits ? m_style.foreground : m_style.overflow);
        QFont f = m_style.labelFont;
        f.setItalic(!b.fits);
        p.setFont(f);
        const int textLeft = int(end) + kGap;
        p.drawText(QRect(textLeft, y, area.left() + area.width() - textLeft, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fit(values[int(i)], Qt::ElideRight, area.left() + area.width() - textLeft));
        p.setFont(m_style.labelFont);
    }
    // The zero line.
    p.setPen(QPen(m_style.foreground, 0.0));
    const int firstRow = area.top() + titleMetrics.height() + kGap;
    p.drawLine(barLeft, firstRow, barLeft, firstRow + int(m_bars.size()) * rowH);
}

} // namespace headroom::gui
