#include "figure.h"

#include "batchsweepview.h"
#include "catalogloader.h"
#include "chartstyle.h"
#include "labels.h"
#include "memorychartview.h"
#include "pdftext.h"
#include "rooflineview.h"
#include "scenariotext.h"
#include "timelineview.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace headroom::gui {

namespace {

    struct Names {
        FigureChart chart;
        const char* name;
    };
    constexpr Names kNames[] = { { FigureChart::Memory, "memory" },
                                 { FigureChart::Sweep, "sweep" },
                                 { FigureChart::Timeline, "timeline" },
                                 { FigureChart::Roofline, "roofline" },
                                 { FigureChart::All, "all" } };

} // namespace

std::optional<FigureChart> figureChartFromString(const QString& s)
{
    for (const Names& n : kNames) {
        if (s == QLatin1String(n.name))
            return n.chart;
    }
    return std::nullopt;
}

QString toString(FigureChart c)
{
    for (const Names& n : kNames) {
        if (n.chart == c)
            return QLatin1String(n.name);
    }
    return {};
}

std::optional<FigureFormat> figureFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return FigureFormat::Png;
    if (suffix == QLatin1String("svg"))
        return FigureFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return FigureFormat::Pdf;
    return std::nullopt;
}

std::optional<QString> FigureOptions::validate() const
{
    // Below 320 x 240 a chart has no room for its axes; above 16384 a PNG needs gigabytes.
    if (size.width() < 320 || size.height() < 240 || size.width() > 16384 || size.height() > 16384)
        return QApplication::translate("Figure", "size %1×%2: width and height must be between 320×240 and 16384×16384")
            .arg(size.width())
            .arg(size.height());
    if (!(scale >= 0.25 && scale <= 8.0))
        return QApplication::translate("Figure", "scale %1: must be between 0.25 and 8").arg(scale);
    if (double(size.width()) * size.height() * scale * scale > 400e6)
        return QApplication::translate("Figure", "size %1×%2 at scale %3: more than 400 megapixels")
            .arg(size.width())
            .arg(size.height())
            .arg(scale);
    return std::nullopt;
}

Figure::Figure(const FigureOptions& options)
    : m_options(options)
    , m_style(exportChartStyle(options.dark, options.presentation))
    , m_host(std::make_unique<QWidget>())
{
    // Shown but never on a screen: the views then get resize events and lay out synchronously.
    m_host->setAttribute(Qt::WA_DontShowOnScreen);
    m_memory = new MemoryChartView(m_host.get());
    m_sweep = new BatchSweepView(m_host.get());
    m_timeline = new TimelineView(m_host.get());
    m_roofline = new RooflineView(m_host.get());
    for (ChartPanel* c : charts()) {
        c->setRenderHint(QPainter::Antialiasing, true);
        c->setRenderHint(QPainter::TextAntialiasing, true);
        c->setChartStyle(m_style);
    }
    m_host->resize(m_options.size);
    m_host->show();
}

Figure::~Figure() = default;

QList<ChartPanel*> Figure::charts() const { return { m_memory, m_sweep, m_timeline, m_roofline }; }

void Figure::setBaseline(const std::shared_ptr<const SimulationResult>& baseline)
{
    m_baseline = baseline;
    m_baselineSearch = baseline && baseline->model ? searchFits(*baseline) : SearchResult {};
}

void Figure::setResult(const std::shared_ptr<const SimulationResult>& result, const SearchResult* search)
{
    m_result = result;
    m_search = search ? *search : (result ? searchFits(*result) : SearchResult {});
    layout();
}

QStringList Figure::captionLines() const
{
    if (!m_result)
        return {};
    QStringList lines = ScenarioText::caption(*m_result, &m_search);
    if (m_baseline && m_baseline->model)
        lines << QApplication::translate("Figure",
                                         "Faint bars, dash-dotted lines and hollow markers: the baseline, %1; %2")
                     .arg(ScenarioText::settings(*m_baseline), ScenarioText::verdict(*m_baseline, &m_baselineSearch));
    return lines;
}

namespace {

    // Positions of the legend's entries, wrapped into rows that fit `width` and centred per row.
    struct LegendEntry {
        QPointF at; // top-left of the swatch
        QString text;
        QColor color;
    };

    std::vector<LegendEntry> legendEntries(const QFont& font, double width, double* height)
    {
        const QFontMetricsF fm(font);
        const double box = fm.height() - 4, gap = 6, space = 18, rowHeight = fm.height() + 4;
        std::vector<std::vector<LegendEntry>> rows(1);
        std::vector<double> rowWidth(1, 0.0);
        for (int c = 0; c < kMemoryCategoryCount; ++c) {
            const QString text = Labels::category(MemoryCategory(c));
            const double w = box + gap + fm.horizontalAdvance(text);
            if (!rows.back().empty() && rowWidth.back() + space + w > width) {
                rows.emplace_back();
                rowWidth.push_back(0.0);
            }
            const double x = rows.back().empty() ? 0.0 : rowWidth.back() + space;
            rows.back().push_back(
                { QPointF(x, (rows.size() - 1) * rowHeight), text, categoryColor(MemoryCategory(c)) });
            rowWidth.back() = x + w;
        }
        std::vector<LegendEntry> out;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const double shift = std::max(0.0, (width - rowWidth[r]) / 2);
            for (LegendEntry e : rows[r]) {
                e.at.rx() += shift;
                out.push_back(e);
            }
        }
        *height = rows.size() * rowHeight;
        return out;
    }

} // namespace

double Figure::legendHeight() const
{
    if (m_options.chart == FigureChart::Roofline)
        return 0.0;
    const double margin = m_options.presentation ? 20.0 : 12.0;
    double h = 0.0;
    legendEntries(m_style.labelFont, m_options.size.width() - 2 * margin, &h);
    return h + 6.0;
}

double Figure::captionHeight(double width) const
{
    if (!m_options.caption || !m_result)
        return 0.0;
    const ChartStyle& s = m_style;
    double h = 6.0;
    const QStringList lines = captionLines();
    for (int i = 0; i < lines.size(); ++i) {
        const QFontMetricsF fm(i == 0 ? s.titleFont : s.annotationFont);
        h += fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, lines[i]).height() + 2.0;
    }
    return h;
}

void Figure::layout()
{
    const double w = m_options.size.width(), h = m_options.size.height();
    const double margin = m_options.presentation ? 20.0 : 12.0;
    const double gap = 8.0;
    const double top = margin + legendHeight();
    const double bottom = h - margin - captionHeight(w - 2 * margin);
    const QRectF area(margin, top, w - 2 * margin, std::max(120.0, bottom - top));
    m_cells.clear();
    if (m_options.chart == FigureChart::All) {
        const double cw = (area.width() - gap) / 2, ch = (area.height() - gap) / 2;
        for (int i = 0; i < 4; ++i) {
            const int column = i % 2, row = i / 2;
            m_cells << QRectF(area.left() + column * (cw + gap), area.top() + row * (ch + gap), cw, ch);
        }
    } else {
        m_cells << area;
    }
    const QList<ChartPanel*> all = charts();
    for (int i = 0; i < all.size(); ++i) {
        ChartPanel* c = all[i];
        const bool used = m_options.chart == FigureChart::All || int(m_options.chart) == i;
        c->setVisible(used);
        if (!used)
            continue;
        const QRectF cell = m_cells[m_options.chart == FigureChart::All ? i : 0];
        c->setGeometry(cell.toAlignedRect());
        c->setBaseline(m_baseline);
        if (m_result)
            c->setResult(m_result);
        // Qt Charts lays out on a posted event; a figure is painted before any event loop runs.
        c->chart()->layout()->activate();
    }
    QCoreApplication::sendPostedEvents();
    for (ChartPanel* c : all) {
        if (c->isVisible() && m_result) {
            c->setResult(m_result); // labels placed against the final plot area
            c->chart()->layout()->activate();
        }
    }
    if (m_result && m_search.allocator.computed) { // the window's verdict label and largest micro-batch
        m_memory->setFitVerdict(m_search.verdict, m_search.allocator);
        m_sweep->setLargestFitting(m_search.maxMicroBatch);
        m_timeline->setFitVerdict(m_search.verdict);
        m_sweep->setAllocatorCurve(m_search.allocatorCurve);
    }
    // Series shown for the first time (the baseline's) compute their geometry on a posted event.
    QCoreApplication::sendPostedEvents();
}

void Figure::paintLegend(QPainter* p, const QRectF& rect) const
{
    const ChartStyle& s = m_style;
    p->setFont(s.labelFont);
    const QFontMetricsF fm(s.labelFont);
    const double box = fm.height() - 4;
    double h = 0.0;
    for (const LegendEntry& e : legendEntries(s.labelFont, rect.width(), &h)) {
        const QPointF at = rect.topLeft() + e.at;
        p->setPen(QPen(e.color.darker(120), 1.0));
        p->setBrush(e.color);
        p->drawRect(QRectF(at.x(), at.y() + 2, box, box));
        p->setPen(s.foreground);
        p->drawText(QRectF(at.x() + box + 6, at.y(), fm.horizontalAdvance(e.text) + 2, fm.height()),
                    Qt::AlignVCenter | Qt::AlignLeft, e.text);
    }
}

void Figure::paintCaption(QPainter* p, const QRectF& rect) const
{
    const ChartStyle& s = m_style;
    double y = rect.top() + 6.0;
    const QStringList lines = captionLines();
    for (int i = 0; i < lines.size(); ++i) {
        const QFont f = i == 0 ? s.titleFont : s.annotationFont;
        p->setFont(f);
        p->setPen(s.foreground);
        const QRectF r = QFontMetricsF(f).boundingRect(QRectF(0, 0, rect.width(), 1e6), Qt::TextWordWrap, lines[i]);
        p->drawText(QRectF(rect.left(), y, rect.width(), r.height()), Qt::TextWordWrap | Qt::AlignLeft, lines[i]);
        y += r.height() + 2.0;
    }
}

void Figure::paint(QPainter* p)
{
    const ChartStyle& s = m_style;
    const double w = m_options.size.width(), h = m_options.size.height();
    const double margin = m_options.presentation ? 20.0 : 12.0;
    p->save();
    p->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    p->fillRect(QRectF(0, 0, w, h), s.background);
    if (const double lh = legendHeight(); lh > 0)
        paintLegend(p, QRectF(margin, margin, w - 2 * margin, lh));
    const QList<ChartPanel*> all = charts();
    for (int i = 0; i < all.size(); ++i) {
        if (!all[i]->isVisible())
            continue;
        const QRectF cell = m_cells[m_options.chart == FigureChart::All ? i : 0];
        // Qt Charts' dashed lines are painted as paths with whatever brush the painter holds.
        p->setBrush(Qt::NoBrush);
        p->setPen(Qt::NoPen);
        all[i]->render(p, cell, QRect(QPoint(0, 0), all[i]->viewport()->size()), Qt::IgnoreAspectRatio);
    }
    if (const double ch = captionHeight(w - 2 * margin); ch > 0)
        paintCaption(p, QRectF(margin, h - margin - ch, w - 2 * margin, ch));
    p->restore();
}

QImage Figure::toImage()
{
    const QSize pixels = (QSizeF(m_options.size) * m_options.scale).toSize();
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(m_options.scale);
    const int dpm = qRound(kVectorResolution * m_options.scale / 0.0254);
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    image.fill(Qt::transparent);
    QPainter p(&image);
    paint(&p);
    p.end();
    image.setText(QStringLiteral("Title"), captionLines().value(0));
    image.setText(QStringLiteral("Description"), captionLines().join(QLatin1Char('\n')));
    image.setText(QStringLiteral("Software"), QStringLiteral("Headroom " HEADROOM_VERSION));
    return image;
}

QByteArray Figure::toSvg()
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(m_options.size);
    svg.setViewBox(QRect(QPoint(0, 0), m_options.size));
    svg.setResolution(kVectorResolution);
    const QStringList caption = captionLines();
    svg.setTitle(caption.value(0));
    svg.setDescription(caption.join(QLatin1Char('\n')));
    QPainter p(&svg);
    paint(&p);
    p.end();
    return bytes;
}

QByteArray Figure::toPdf()
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setResolution(kVectorResolution);
    const QSizeF points = QSizeF(m_options.size) * 72.0 / kVectorResolution;
    const bool landscape = points.width() > points.height();
    const QPageSize page(landscape ? points.transposed() : points, QPageSize::Point, QString(), QPageSize::ExactMatch);
    pdf.setPageLayout(QPageLayout(page, landscape ? QPageLayout::Landscape : QPageLayout::Portrait, QMarginsF()));
    pdf.setTitle(captionLines().value(0));
    pdf.setCreator(QStringLiteral("Headroom " HEADROOM_VERSION));
    QPainter p(&pdf);
    // The painter's window is the page in device pixels at kVectorResolution; map the figure onto it exactly.
    const QRect device = p.viewport();
    p.scale(device.width() / double(m_options.size.width()), device.height() / double(m_options.size.height()));
    paint(&p);
    p.end();
    restoreIdeographs(bytes, m_style.labelFont);
    return bytes;
}

std::optional<QString> Figure::write(const QString& path)
{
    const auto format = figureFormatForPath(path);
    if (!format)
        return QApplication::translate("Figure", "%1: unknown figure type; use .png, .svg or .pdf").arg(path);
    QByteArray bytes;
    if (*format == FigureFormat::Png) {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!toImage().save(&buffer, "PNG"))
            return QApplication::translate("Figure", "%1: could not encode the PNG").arg(path);
    } else {
        bytes = *format == FigureFormat::Svg ? toSvg() : toPdf();
    }
    return CatalogLoader::writeFile(path, bytes);
}

} // namespace headroom::gui
