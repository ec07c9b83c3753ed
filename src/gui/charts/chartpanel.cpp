#include "chartpanel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLogValueAxis>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace headroom::gui {

namespace {

    // The lines QTextLayout breaks `text` into at `width`.
    QStringList breakLines(const QString& text, const QFont& font, qreal width)
    {
        QTextLayout layout(text, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        QStringList lines;
        layout.beginLayout();
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            lines << text.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
        return lines;
    }

    // `text` in as few lines as `width` allows, each as short as that count allows.
    QStringList wrappedLines(const QString& text, const QFont& font, qreal width)
    {
        if (width <= 0.0 || QFontMetricsF(font).horizontalAdvance(text) <= width)
            return { text };
        // As many lines as the width needs, then the narrowest width that keeps that many: lines of even length.
        const qsizetype count = breakLines(text, font, width).size();
        qreal low = 0.0, high = width;
        for (int i = 0; i < 12; ++i) {
            const qreal mid = (low + high) / 2.0;
            (breakLines(text, font, mid).size() > count ? low : high) = mid;
        }
        return breakLines(text, font, high);
    }

    // Room one tick label takes along its axis, and the length of the axis. Qt Charts gives each of n labels the
    // axis length over n, less its padding on both sides, and cuts a label that needs more.
    std::pair<double, double> tickRoom(const QAbstractAxis* axis, const QRectF& plot, const QString& widest)
    {
        const QFontMetricsF fm(axis->labelsFont());
        if (axis->orientation() == Qt::Vertical)
            return { fm.height() + 8.0, plot.height() };
        return { fm.horizontalAdvance(widest) + 12.0, plot.width() };
    }

    // The first of `options` whose `labels(option)` tick labels each get `needed` of the axis's `length`, or the last.
    template <class T, class Labels>
    T firstThatFits(std::initializer_list<T> options, double needed, double length, Labels labels)
    {
        for (const T option : options) {
            if (length / std::max(1.0, double(labels(option))) >= needed)
                return option;
        }
        return *(options.end() - 1);
    }

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing, false);
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    // Repaints only what changed. The chart's text and grid items are not cached as pixmaps: Qt Charts moves and
    // re-creates them on every layout (a resize, a dock opening, a new axis range), and a cached item then kept
    // painting its old pixmap or nothing, so titles and tick labels vanished after the first resize (issue 8).
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
}

void ChartPanel::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle(chart(), style);
    // The viewport fills the background once; the chart's own background and plot area (the same colour) would fill
    // every pixel twice more on each repaint. Exports fill the figure's background themselves (Figure::paint).
    chart()->setBackgroundVisible(false);
    chart()->setPlotAreaBackgroundVisible(false);
    QPalette palette = viewport()->palette();
    palette.setColor(QPalette::Base, style.background);
    viewport()->setPalette(palette);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    fitTexts();
}

void ChartPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QChartView::changeEvent(event);
}

QString ChartPanel::title() const { return m_title; }

QString ChartPanel::tabName() const { return m_tabName.isEmpty() ? m_title : m_tabName; }

void ChartPanel::adoptChart(QChart* chart)
{
    QChart* const previous = this->chart();
    setChart(chart);
    delete previous;
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        fitTexts();
        placeLabels();
    });
}

void ChartPanel::setTitleText(const QString& text, const QString& tabName)
{
    m_title = text;
    m_tabName = tabName;
    fitTexts();
}

void ChartPanel::setAxisTitle(QAbstractAxis* axis, const QString& text)
{
    const auto known = std::find_if(m_axisTitles.begin(), m_axisTitles.end(),
                                    [axis](const auto& a) { return a.first == axis; });
    if (known == m_axisTitles.end())
        m_axisTitles.emplace_back(axis, text);
    else if (known->second == text)
        return;
    else
        known->second = text;
    fitAxisTitle(axis, text); // only this one: the timeline's changes on every slider tick
}

void ChartPanel::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitTexts();
    placeLabels();
}

void ChartPanel::fitLogTicks(QLogValueAxis* axis, std::initializer_list<double> bases, const QString& widest)
{
    const auto [needed, length] = tickRoom(axis, chart()->plotArea(), widest);
    const double chosen = firstThatFits(bases, needed, length, [axis](double base) {
        return std::floor(std::log(axis->max() / axis->min()) / std::log(base) + 1e-9) + 1.0;
    });
    if (axis->base() != chosen) {
        axis->setBase(chosen);
        axis->setMinorTickCount(0);
    }
}

void ChartPanel::fitTickCount(QValueAxis* axis, std::initializer_list<int> counts, const QString& widest)
{
    const auto [needed, length] = tickRoom(axis, chart()->plotArea(), widest);
    const int chosen = firstThatFits(counts, needed, length, [](int count) { return count; });
    if (axis->tickCount() != chosen)
        axis->setTickCount(chosen);
}

QRectF ChartPanel::axisTitleRect(const QAbstractAxis* axis) const
{
    // Qt Charts keeps the title's item to itself: it is the text item that shows the title's text.
    auto flat = [](QString text) {
        text.replace(QChar::LineSeparator, QLatin1Char(' ')).replace(QChar::ParagraphSeparator, QLatin1Char(' '));
        return text.replace(QLatin1Char('\n'), QLatin1Char(' ')).simplified();
    };
    const QString title = flat(QTextDocumentFragment::fromHtml(axis->titleText()).toPlainText());
    if (title.isEmpty() || !chart()->scene())
        return {};
    for (const QGraphicsItem* item : chart()->scene()->items()) {
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (text && text->isVisible() && flat(text->toPlainText()) == title)
            return chart()->mapRectFromScene(text->mapRectToScene(text->boundingRect()));
    }
    return {};
}

// Sets a text only when it changes: a new title re-lays out the chart, which calls this again.
void ChartPanel::fitTexts()
{
    QChart* c = chart();
    const QString title = fittedTitle(c, m_title);
    if (c->title() != title)
        c->setTitle(title);
    for (const auto& [axis, text] : m_axisTitles)
        fitAxisTitle(axis, text);
}

// On as few lines as the plot's side allows; where that is more than two, in a font up to a fifth smaller: Qt
// Charts cuts the third line of a small chart's axis title ("(FLOP/byte..."), for want of height.
void ChartPanel::fitAxisTitle(QAbstractAxis* axis, const QString& text)
{
    const QRectF plot = chart()->plotArea();
    const qreal room = (axis->orientation() == Qt::Horizontal ? plot.width() : plot.height()) - 4.0;
    QFont font = m_style.labelFont;
    for (const qreal k : { 1.0, 0.9, 0.8 }) {
        font = scaledFont(m_style.labelFont, k);
        if (wrappedLines(text, font, room).size() <= 2)
            break;
    }
    if (axis->titleFont() != font)
        axis->setTitleFont(font);
    const QString fitted = wrappedHtml(text, font, room);
    if (axis->titleText() != fitted)
        axis->setTitleText(fitted);
}

QString wrappedText(const QString& text, const QFont& font, qreal width)
{
    return wrappedLines(text, font, width).join(QLatin1Char('\n'));
}

QString fittedTitle(const QChart* chart, const QString& title)
{
    if (title.isEmpty())
        return {};
    // The title spans the chart less its layout's margins, the chart's margins and the text margins Qt Charts keeps
    // on either side.
    qreal left = 0, top = 0, right = 0, bottom = 0;
    if (chart->layout())
        chart->layout()->getContentsMargins(&left, &top, &right, &bottom);
    const QMarginsF m = chart->margins();
    return wrappedHtml(title, chart->titleFont(), chart->size().width() - left - right - m.left() - m.right() - 16.0);
}

QString wrappedHtml(const QString& text, const QFont& font, qreal width)
{
    QStringList lines = wrappedLines(text, font, width);
    for (QString& l : lines)
        l = l.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

} // namespace headroom::gui
