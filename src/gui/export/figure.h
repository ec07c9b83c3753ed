#pragma once

// Exported figures: one chart or all four, with the category legend and an optional caption that states the
// scenario, rendered to PNG (any pixel size and HiDPI scale), SVG or PDF. The window's File > Export and the
// headless `headroom export` both go through Figure, with their own chart views laid out at the requested size
// in a fixed style (exportChartStyle), so the two produce the same file for the same scenario.

#include "chartstyle.h"
#include "simulate.h"

#include <QImage>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QPainter;
class QWidget;
QT_END_NAMESPACE

namespace headroom::gui {

// Logical pixels per inch of the vector formats (SVG, the PDF figure and the PDF report).
inline constexpr int kVectorResolution = 96;

class BatchSweepView;
class ChartPanel;
class MemoryChartView;
class RooflineView;
class TimelineView;

enum class FigureChart { Memory, Sweep, Timeline, Roofline, All };
enum class FigureFormat { Png, Svg, Pdf };

std::optional<FigureChart> figureChartFromString(const QString& s); // memory, sweep, timeline, roofline, all
QString toString(FigureChart c);
std::optional<FigureFormat> figureFormatForPath(const QString& path); // by suffix

struct FigureOptions {
    FigureChart chart = FigureChart::All;
    QSize size { 1600, 1000 }; // logical pixels; PNG files are size * scale pixels, SVG and PDF are vector
    qreal scale = 1.0;         // PNG only: 2 for a HiDPI figure
    bool caption = true;
    bool dark = false;
    bool presentation = false; // large fonts and thick lines, for slides

    // Checks the ranges a caller could get wrong (from the command line or a dialog).
    std::optional<QString> validate() const;
};

class Figure {
public:
    explicit Figure(const FigureOptions& options);
    ~Figure();
    Figure(const Figure&) = delete;
    Figure& operator=(const Figure&) = delete;

    // Call setBaseline() first when comparing: the charts then show it beside the result.
    void setBaseline(const std::shared_ptr<const SimulationResult>& baseline);
    // With the one answer to "does it fit?" (the caching allocator replayed under the capacity, searchFits) that the
    // window and `headroom estimate` give: `search` where the caller has it (the window's background search), else
    // computed here.
    void setResult(const std::shared_ptr<const SimulationResult>& result, const SearchResult* search = nullptr);
    const FigureOptions& options() const { return m_options; }

    // Paints the figure into `painter` at logical size options().size.
    void paint(QPainter* painter);
    QImage toImage();
    QByteArray toSvg();
    QByteArray toPdf();
    // Writes by the path's suffix (.png, .svg, .pdf), atomically. On failure returns a message naming the path.
    std::optional<QString> write(const QString& path);

    // The caption's lines (title, settings, what-if, verdict), also used as SVG title/description and PDF title.
    QStringList captionLines() const;

private:
    QList<ChartPanel*> charts() const;
    void layout();
    double legendHeight() const;
    double captionHeight(double width) const;
    void paintLegend(QPainter* painter, const QRectF& rect) const;
    void paintCaption(QPainter* painter, const QRectF& rect) const;

    FigureOptions m_options;
    ChartStyle m_style; // exportChartStyle() of the options
    std::shared_ptr<const SimulationResult> m_result;
    std::shared_ptr<const SimulationResult> m_baseline;
    SearchResult m_search;           // the result's verdict, largest micro-batch and allocator replay
    SearchResult m_baselineSearch;   // the baseline's
    std::unique_ptr<QWidget> m_host; // invisible parent of the chart views: they lay out without a display
    MemoryChartView* m_memory = nullptr;
    BatchSweepView* m_sweep = nullptr;
    TimelineView* m_timeline = nullptr;
    RooflineView* m_roofline = nullptr;
    QList<QRectF> m_cells;
};

} // namespace headroom::gui
