#pragma once

// Base of every chart view: a QChartView that receives the simulation result and a style, and updates its series
// in place. Subclasses create their chart, axes and series once; setResult() only replaces points and values, so
// a slider tick never rebuilds a QChart.

#include "chartstyle.h"
#include "explainrequest.h"
#include "simulate.h"

#include <QChartView>

#include <initializer_list>

#include <vector>

QT_BEGIN_NAMESPACE
class QLogValueAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace headroom::gui {

class ChartPanel : public QChartView {
    Q_OBJECT

public:
    explicit ChartPanel(QWidget* parent = nullptr);

    virtual void setResult(const std::shared_ptr<const SimulationResult>& result) = 0;
    // A pinned earlier result drawn faintly beside the current one (ghosted bars, a dashed outline, hollow dots);
    // null to stop comparing. Takes effect with the next setResult().
    void setBaseline(const std::shared_ptr<const SimulationResult>& baseline) { m_baseline = baseline; }
    virtual void setChartStyle(const ChartStyle& style);
    const ChartStyle& chartStyle() const { return m_style; }
    QString title() const;
    // The chart's name on the window's tabs: a short one where the title is long ("Roofline"), else the title. The
    // four titles side by side did not fit a 1024 px window's tabs in English ("Memory at the peak of e...").
    QString tabName() const;
    // Where the chart draws its data (dots, markers), in scene coordinates: the places its own labels must leave
    // free. tst_realwindow checks every text item against them.
    virtual QList<QRectF> dataRects() const { return {}; }

signals:
    void explainRequested(const headroom::gui::ExplainRequest& request);

protected:
    // Sets the texts that do not depend on the result (titles, axis names); called again on a language change,
    // before the window passes the result again.
    virtual void retranslate() {}
    void changeEvent(QEvent* event) override;

    // Makes `chart` (built by the subclass) the one shown, deleting QChartView's default chart, and re-places the
    // labels whenever the chart's plot area moves (a resize, a font, a wrapped title, a new axis range).
    void adoptChart(QChart* chart);
    // The chart's title and axis titles: set through these, they wrap onto more lines where the chart is too narrow
    // for them instead of being cut short ("Memory at the peak of each p...").
    void setTitleText(const QString& text, const QString& tabName = QString());
    void setAxisTitle(QAbstractAxis* axis, const QString& text);
    // A log axis labels every power of the first base in `bases` that leaves room for its widest label, a gap
    // between labels, or of the last base: a narrow chart or presentation fonts ran "16 32 64" into "...". A
    // vertical axis needs room for a label's height.
    void fitLogTicks(QLogValueAxis* axis, std::initializer_list<double> bases, const QString& widest);
    // The same for a value axis: the first of `counts` ticks that leaves room for its widest label, or the last.
    void fitTickCount(QValueAxis* axis, std::initializer_list<int> counts, const QString& widest);
    // Where Qt Charts drew `axis`'s title, in the chart's coordinates; empty while it draws none.
    QRectF axisTitleRect(const QAbstractAxis* axis) const;
    // Places the view's own labels (capacity, verdict, roof labels...) on the current plot area.
    virtual void placeLabels() {}
    void resizeEvent(QResizeEvent* event) override;

    ChartStyle m_style;
    std::shared_ptr<const SimulationResult> m_baseline;

private:
    void fitTexts();
    void fitAxisTitle(QAbstractAxis* axis, const QString& text);

    QString m_title;
    QString m_tabName;
    std::vector<std::pair<QAbstractAxis*, QString>> m_axisTitles;
};

// `text` broken into balanced lines no wider than `width` when it does not fit on one (at spaces, or between any two
// CJK characters), joined by "\n" for a plain text item, or as HTML for Qt Charts' titles.
QString wrappedText(const QString& text, const QFont& font, qreal width);
QString wrappedHtml(const QString& text, const QFont& font, qreal width);
// `title` as `chart` can show it whole: wrapped to the width Qt Charts gives its title (wrappedHtml).
QString fittedTitle(const QChart* chart, const QString& title);

} // namespace headroom::gui
