#pragma once

// The verdict line: fits or not, used and free memory, where the peak happens, the largest micro-batch and the
// longest sequence that fit, step time, throughput and MFU; when it does not fit, the cheapest changes that
// would make it fit, each with the memory it saves (click one to apply it).

#include "measured.h"
#include "simulate.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
QT_END_NAMESPACE

namespace headroom::gui {

class VerdictWidget : public QWidget {
    Q_OBJECT

public:
    explicit VerdictWidget(QWidget* parent = nullptr);

    void setResult(const std::shared_ptr<const SimulationResult>& result);
    void setBackground(const SearchResult& background, bool pending);
    void setPresentationMode(bool on);
    // Short of room (a small window with a dock open): one suggestion, and a link to the others, so that the charts
    // under the verdict keep their height. The link expands them (and folds them again).
    void setCompact(bool on);
    bool compact() const { return m_compact; }
    // A line of the details and suggestions, in the font they have now and the language's script (half as tall again
    // in presentation mode).
    int detailLineSpacing() const;
    // The height the verdict needs without its suggestions, as laid out at its width now.
    int heightWithoutSuggestions() const { return m_withoutSuggestions; }
    // A measurement to state beside the prediction while the scenario is the one it ran; null for none.
    void setMeasured(std::shared_ptr<const Measured> measured);

    QString headline() const;
    QString details() const;
    QString suggestions() const;

signals:
    void fixRequested(const headroom::TrainingConfig& config);
    void explainRequested(const QString& topic);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    QString measuredLine() const;
    void fitHeights();    // places the labels and sets this widget's height (lower only after a moment)
    void fitHeightsNow(); // and lower at once
    int textWidth() const;
    void renderFixes(const Estimate& e); // the suggestions, one per line, and the warnings
    void showFixesAndWarnings();
    QString warningsHtml() const; // collapsed to one line with a link that expands them, unless expanded

    static constexpr QMargins kMargins { 8, 4, 8, 4 };
    static constexpr int kSpacing = 2;
    QLabel* m_headline = nullptr;
    QLabel* m_details = nullptr;
    QLabel* m_fixes = nullptr;
    std::shared_ptr<const SimulationResult> m_result;
    SearchResult m_background;
    std::shared_ptr<const Measured> m_measured;
    bool m_pending = true;
    QString m_fixesHtml;
    QStringList m_warnings;
    bool m_presentation = false; // at most two suggestions: the projected verdict must leave room for a chart
    bool m_warningsExpanded = false;
    bool m_compact = false;
    bool m_fixesExpanded = false;
    class QTimer* m_shrink = nullptr; // lowers the height once the text has stayed shorter
    bool m_shrinkNow = false;
    QString m_fitted;               // what fitHeights() last laid out: width, fonts and texts
    int m_withoutSuggestions = 0;   // heightWithoutSuggestions()
    bool m_detailsExpanded = false; // in presentation mode short of room: every detail rather than two lines
    bool brief() const;
};

} // namespace headroom::gui
