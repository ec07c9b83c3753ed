#include "verdictwidget.h"

#include <QEvent>

#include "formatting.h"
#include "labels.h"
#include "scenariotext.h"

#include <QLabel>
#include <QTextDocument>
#include <QTimer>

#include <cmath>

namespace headroom::gui {

VerdictWidget::VerdictWidget(QWidget* parent)
    : QWidget(parent)
{
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("verdictHeadline"));
    m_headline->setWordWrap(true); // a presentation font at 1024 px needs two lines
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("verdictDetails"));
    m_details->setWordWrap(true);
    m_fixes = new QLabel(this);
    m_fixes->setObjectName(QStringLiteral("verdictFixes"));
    m_fixes->setWordWrap(true);
    m_fixes->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    for (QLabel* l : { m_headline, m_details })
        l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    // No QLayout: the labels are placed by fitHeights(). A new text in a label in a layout re-lays out every layout
    // up to the window's on each tick (QLayout::activate() ends in updateGeometry() of its widget, which invalidates
    // the parent's layout, and so on up), and the control panel's labels with it: 2-3 ms a tick. A widget without a
    // layout ends that climb; this one changes its own height only when a label needs another line.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_shrink = new QTimer(this);
    m_shrink->setSingleShot(true);
    m_shrink->setInterval(800);
    connect(m_shrink, &QTimer::timeout, this, &VerdictWidget::fitHeightsNow);
    connect(m_fixes, &QLabel::linkActivated, this, [this](const QString& link) {
        bool ok = false;
        const int i = link.mid(4).toInt(&ok);
        if (link.startsWith(QLatin1String("fix:")) && ok && i >= 0 && i < int(m_background.fixes.size()))
            emit fixRequested(m_background.fixes[i].config);
    });
    connect(m_fixes, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("warnings"))
            m_warningsExpanded = !m_warningsExpanded;
        else if (link == QLatin1String("fixes"))
            m_fixesExpanded = !m_fixesExpanded;
        else
            return;
        if (link == QLatin1String("fixes") && m_result)
            render();
        else
            showFixesAndWarnings();
        fitHeightsNow(); // a click folds at once
    });
    connect(m_details, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link != QLatin1String("details")) {
            emit explainRequested(link);
            return;
        }
        m_detailsExpanded = !m_detailsExpanded;
        render();
        fitHeightsNow();
    });
    setPresentationMode(false);
}

void VerdictWidget::setPresentationMode(bool on)
{
    const bool changed = m_presentation != on;
    m_presentation = on;
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * (on ? 2.0 : 1.35));
    f.setBold(true);
    m_headline->setFont(f);
    QFont d = font();
    d.setPointSizeF(d.pointSizeF() * (on ? 1.5 : 1.0));
    m_details->setFont(d);
    m_fixes->setFont(d);
    if (changed && m_result)
        render(); // the number of suggestions shown
    fitHeightsNow();
}

void VerdictWidget::setCompact(bool on)
{
    if (m_compact == on)
        return;
    m_compact = on;
    if (m_result)
        render();
    fitHeightsNow();
}

bool VerdictWidget::brief() const { return m_presentation && m_compact && !m_detailsExpanded; }

// A line of the details as the language sets it: Chinese text is drawn in the CJK fallback font, whose lines are
// taller than the widget font's metrics say (19 against 14 px), and the window's fold, counted in these lines, came too
// late (the four charts fell into tabs when the suggestions appeared).
int VerdictWidget::detailLineSpacing() const
{
    QTextDocument doc;
    doc.setDefaultFont(m_details->font());
    doc.setDocumentMargin(0);
    doc.setPlainText(tr("What would help:") + QStringLiteral(" Ag"));
    return std::max(QFontMetrics(m_details->font()).lineSpacing(), int(std::ceil(doc.size().height())));
}

int VerdictWidget::textWidth() const { return width() - kMargins.left() - kMargins.right(); }

void VerdictWidget::fitHeights()
{
    // Each label is as tall as its text needs at the current width, so that nothing is cut (a narrow window, Chinese
    // text, five suggestions). The details keep at least three lines, so that the charts below do not jump on every
    // tick as the numbers change; the height only changes when the text needs a new line. The suggestions take no
    // room while the step fits.
    const int line = QFontMetrics(m_details->font()).lineSpacing();
    const int width = textWidth();
    if (width < 200)
        return; // not laid out yet
    // A tick renders the verdict twice (its result, then the background's pending state): the second lays out the
    // same texts at the same width, in the same fonts.
    const QString key = QStringLiteral("%1|%2|%3|%4|%5|%6")
                            .arg(width)
                            .arg(m_headline->font().key(), m_details->font().key(), m_headline->text(),
                                 m_details->text(), m_fixes->text());
    if (key == m_fitted && !m_shrinkNow)
        return;
    m_fitted = key;
    // The height is laid out here, not asked of QLabel::heightForWidth(): in a window that had been narrow, that
    // kept answering with the height for the narrow width (the verdict then stayed twice as tall as it needed).
    int y = kMargins.top();
    auto textHeight = [width](const QLabel* l, const QString& html) {
        if (html.isEmpty())
            return 0;
        QTextDocument doc;
        doc.setDefaultFont(l->font());
        doc.setDocumentMargin(0);
        doc.setHtml(html);
        // One character's slack: QLabel can break a line a glyph earlier than this document does (Chinese
        // text breaks between any two characters), and a line short here would overlap the label below.
        doc.setTextWidth(width - QFontMetrics(l->font()).horizontalAdvance(QChar(0x4E2D)));
        return int(std::ceil(doc.size().height())) + 2;
    };
    auto place = [width, &y, &textHeight](QLabel* l, int minimum) {
        const int h = std::max(minimum, textHeight(l, l->text()));
        const QRect r(kMargins.left(), y, width, h);
        if (l->geometry() != r)
            l->setGeometry(r);
        y += h > 0 ? h + kSpacing : 0;
    };
    place(m_headline, QFontMetrics(m_headline->font()).lineSpacing() + 2);
    place(m_details, (brief() ? 2 : 3) * line + 2);
    const int beforeFixes = y;
    place(m_fixes, 0);
    const int height = y - kSpacing + kMargins.bottom();
    // Without the suggestions: the warnings' line alone, if any (the window keeps its charts whether they show).
    m_withoutSuggestions = height;
    if (!m_fixesHtml.isEmpty()) {
        const int warnings = textHeight(m_fixes, warningsHtml());
        m_withoutSuggestions = beforeFixes + (warnings > 0 ? warnings + kSpacing : 0) - kSpacing + kMargins.bottom();
    }
    // The only change that re-lays out the window. It grows at once; it shrinks only once the text has stayed
    // shorter for a moment after the last change, so that a drag across the fit boundary (suggestions shown, then none,
    // then shown) does not move the charts up and down on every tick.
    const bool fixed = minimumHeight() == maximumHeight();
    if (!fixed || height > maximumHeight() || (height < maximumHeight() && m_shrinkNow))
        setFixedHeight(height);
    else if (height < maximumHeight())
        m_shrink->start(); // again: the moment counts from the last tick
    else
        m_shrink->stop();
}

void VerdictWidget::fitHeightsNow()
{
    m_shrinkNow = true;
    fitHeights();
    m_shrinkNow = false;
}

void VerdictWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_shrinkNow = true; // a new width lays the window out anyway
    if (!m_warnings.isEmpty() && !m_warningsExpanded)
        showFixesAndWarnings(); // the collapsed line is elided to the new width
    else
        fitHeights();
    m_shrinkNow = false;
}

QString VerdictWidget::warningsHtml() const
{
    if (m_warnings.isEmpty())
        return {};
    const QString sign = QStringLiteral("⚠ ");
    if (m_warningsExpanded) {
        QStringList lines;
        for (const QString& w : m_warnings)
            lines << sign + w.toHtmlEscaped();
        return lines.join(QStringLiteral("<br>")) + QStringLiteral(" <a href=\"warnings\">%1</a>").arg(tr("(hide)"));
    }
    // Collapsed: one line, the first warning cut to what is left beside the link, however many there are.
    const QString link = m_warnings.size() > 1 ? tr("(all %1 warnings)").arg(m_warnings.size()) : tr("(more)");
    const QFontMetrics fm(m_fixes->font());
    const int width = textWidth() - 4;
    const int room = width - fm.horizontalAdvance(sign + QLatin1Char(' ') + link);
    const QString first = m_warnings.front();
    if (m_warnings.size() == 1 && fm.horizontalAdvance(sign + first) <= width)
        return sign + first.toHtmlEscaped();
    return sign + fm.elidedText(first, Qt::ElideRight, std::max(room, 40)).toHtmlEscaped()
        + QStringLiteral(" <a href=\"warnings\">%1</a>").arg(link);
}

void VerdictWidget::setResult(const std::shared_ptr<const SimulationResult>& result)
{
    m_result = result;
    render();
}

void VerdictWidget::setBackground(const SearchResult& background, bool pending)
{
    m_background = background;
    m_pending = pending;
    render();
}

void VerdictWidget::setMeasured(std::shared_ptr<const Measured> measured)
{
    m_measured = std::move(measured);
    render();
}

// The measurement against the prediction (ScenarioText::measured).
QString VerdictWidget::measuredLine() const
{
    return m_measured ? ScenarioText::measured(m_result->estimate, *m_measured, m_background.allocator) : QString();
}

void VerdictWidget::render()
{
    if (!m_result || !m_result->model)
        return;
    const Estimate& e = m_result->estimate;
    // The core's one answer (fitVerdict): the peak's until the worker's allocator replay arrives, then the replay's.
    const FitVerdict verdict = m_pending ? m_result->verdict : m_background.verdict;
    const QString used = formatBytes(verdict.neededBytes);
    const QString capacity = formatBytes(verdict.capacityBytes);
    if (verdict.fits) {
        m_headline->setText(tr("✔ Fits: %1 of %2 used, %3 free").arg(used, capacity, formatBytes(verdict.freeBytes())));
        m_headline->setStyleSheet(QStringLiteral("color: #009E73;"));
    } else {
        m_headline->setText(
            tr("✘ Does not fit: needs %1 of %2, %3 over").arg(used, capacity, formatBytes(-verdict.freeBytes())));
        m_headline->setStyleSheet(QStringLiteral("color: #D55E00;"));
    }
    m_headline->setToolTip(verdict.decidedBy == FitRule::Allocator
                               ? tr("Decided by PyTorch's caching allocator replayed under the GPU's memory")
                               : tr("Decided by the simulated peak"));
    const int layers = e.schedule ? e.schedule->layers : 0;
    QString where = tr("Peak in the %1 of %2 (%3)")
                        .arg(e.peakInRecompute ? tr("recomputation") : Labels::phase(e.peakPhase),
                             Labels::layer(e.peakLayer, layers),
                             QString::fromStdString(e.peakOperator).toHtmlEscaped());
    // With a pipeline the memory is one stage's (the most loaded unless another was chosen), the time the pipeline's.
    const int stages = e.config.pipelineParallel;
    if (stages > 1) {
        where = (m_result->showsMostLoaded() ? tr("Stage %1 of %2, the most loaded: %3") : tr("Stage %1 of %2: %3"))
                    .arg(e.config.pipelineStage + 1)
                    .arg(stages)
                    .arg(where);
    }
    const bool vision = e.vision;
    QString sequence;
    if (m_pending)
        sequence = tr("longest %1: …").arg(vision ? tr("image side") : tr("sequence"));
    else
        sequence = tr("longest %1 that fits: %2")
                       .arg(vision ? tr("image side") : tr("sequence"), ScenarioText::longest(m_background));
    const QString unit = vision ? tr("images") : tr("tokens");
    // What a fine-tuning method trains, as PEFT's print_trainable_parameters() counts it.
    const FinetuneMethod method = e.config.finetune.method;
    const double share = e.parameters > 0 ? e.trainableParameters / e.parameters : 0.0;
    const QString parameters = method == FinetuneMethod::Full
        ? tr("%1 parameters").arg(formatCount(e.parameters))
        : tr("%1 parameters, %2 trainable (%3, %4)")
              .arg(formatCount(e.parameters), formatCount(e.trainableParameters),
                   formatPercent(share, share < 0.01 ? 2 : 1), Labels::finetune(method));
    // The step time, and between which figures it lies with every kernel at the fast or the slow end of its
    // measured efficiency (a link to the assumptions in Explain).
    QString stepText = formatSeconds(e.stepSeconds);
    if (!m_pending && m_background.timeRange.computed)
        stepText = tr("%1 <a href=\"time\">(%2–%3)</a>")
                       .arg(stepText, formatSeconds(m_background.timeRange.fastSeconds),
                            formatSeconds(m_background.timeRange.slowSeconds));
    if (stages > 1)
        stepText = tr("%1, of it pipeline bubble %2").arg(stepText, formatSeconds(e.pipelineBubbleSeconds));
    // Which clock bounds the step (timemodel.h): the host issuing the operators, or the GPU running them.
    stepText = e.hostBound()
        ? tr("%1, <a href=\"time\">host-bound</a> (GPU busy %2)").arg(stepText, formatSeconds(e.gpuBusySeconds))
        : tr("%1, <a href=\"time\">GPU-bound</a>").arg(stepText);
    // What torch.cuda would report, from the caching allocator replayed on the worker (allocator.h).
    const AllocatorEstimate& a = m_background.allocator;
    // Its terms, each with its rule and where it is set, are in Explain.
    const QString pytorch = m_pending || !a.computed
        ? tr("PyTorch: max_memory_reserved …")
        : QStringLiteral("<a href=\"allocator\">%1</a>").arg(ScenarioText::pytorch(a, e.capacityBytes));
    const std::int64_t largest = m_pending ? e.maxMicroBatch : m_background.maxMicroBatch;
    const QString largestText = largest > 0 ? QString::number(largest) : tr("none, even at batch 1");
    if (brief()) {
        // On a projector short of room (a dock open at 1024x768): the two lines a class reads, the rest a click away.
        m_details->setText(tr("Largest micro-batch that fits: <b>%1</b> · %2<br>Step %3 · %4")
                               .arg(largestText, sequence, stepText, formatRate(e.throughputPerSecond, unit))
                           + QStringLiteral(" <a href=\"details\">%1</a>").arg(tr("(more)")));
    } else {
        m_details->setText(
            tr("%1 · largest micro-batch that fits: <b>%2</b> · %3<br>Step %4 · %5 · MFU %6 of %7 · %8<br>%9")
                .arg(where, largestText, sequence, stepText, formatRate(e.throughputPerSecond, unit),
                     formatPercent(e.mfu), Labels::unit(e.mfuUnit), parameters, pytorch)
            + (m_presentation && m_compact ? QStringLiteral(" <a href=\"details\">%1</a>").arg(tr("(fewer)"))
                                           : QString())
            + (m_measured ? QStringLiteral("<br>") + measuredLine().toHtmlEscaped() : QString()));
    }
    renderFixes(e);
}

void VerdictWidget::renderFixes(const Estimate& e)
{
    // The core's one answer (allocator.h fitVerdict): the replay's once the searches ran, else the peak's.
    const FitVerdict verdict = m_pending ? m_result->verdict : m_background.verdict;
    QString fixes;
    if (!verdict.fits) {
        if (m_pending) {
            fixes = tr("Looking for changes that would make it fit…");
        } else if (m_background.fixes.empty()) {
            fixes = tr(
                "No change or combination of changes makes it fit; a GPU with more memory or more data-parallel GPUs with ZeRO would.");
        } else {
            // One suggestion per line: the change (click to apply), what it saves, what it costs.
            QStringList items;
            const std::size_t all = std::min<std::size_t>(m_background.fixes.size(), m_presentation ? 2 : 4);
            const bool folded = m_compact && !m_fixesExpanded && all > 1;
            for (std::size_t i = 0; i < (folded ? 1 : all); ++i) {
                const Fix& f = m_background.fixes[i];
                items << QStringLiteral("→ <a href=\"fix:%1\">%2</a> — %3")
                             .arg(i)
                             .arg(Labels::fix(f).toHtmlEscaped(), ScenarioText::fixEffect(f, e).toHtmlEscaped());
            }
            if (folded)
                items.back() += QStringLiteral(" <a href=\"fixes\">%1</a>").arg(tr("(%n more)", nullptr, int(all - 1)));
            else if (m_compact && all > 1)
                items.back() += QStringLiteral(" <a href=\"fixes\">%1</a>").arg(tr("(fewer)"));
            fixes = tr("What would help:") + QStringLiteral("<br>") + items.join(QStringLiteral("<br>"));
        }
    }
    m_warnings.clear();
    m_warnings << Labels::warnings(e);
    m_fixesHtml = fixes;
    showFixesAndWarnings();
}

void VerdictWidget::showFixesAndWarnings()
{
    QString fixes = m_fixesHtml;
    if (const QString w = warningsHtml(); !w.isEmpty())
        fixes += (fixes.isEmpty() ? QString() : QStringLiteral("<br>")) + w;
    if (m_fixes->text() != fixes)
        m_fixes->setText(fixes);
    fitHeights();
}

void VerdictWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        render();
    QWidget::changeEvent(event);
}

QString VerdictWidget::headline() const { return m_headline->text(); }
QString VerdictWidget::details() const { return m_details->text(); }
QString VerdictWidget::suggestions() const { return m_fixes->text(); }

} // namespace headroom::gui
