// MainWindow's chart area: how many of the four charts have room to be readable, in how many columns, with tabs for
// the others; docks beside the charts take room from them, so the charts go to one column or to tabs instead of
// shrinking to thumbnails. A running guided tour puts its card beside the chart it talks about, inside the window.

#include "mainwindow.h"

#include "categorylegend.h"
#include "tour.h"
#include "ui_mainwindow.h"
#include "verdictwidget.h"

#include <QDockWidget>
#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QScrollArea>
#include <QTabBar>
#include <QTimer>

namespace headroom::gui {

namespace {

    // Which two charts show together: the explainer's pairs first (where the memory goes, what the roofline says).
    constexpr int kPairs[4][2] = { { 0, 3 }, { 1, 2 }, { 0, 1 }, { 2, 3 } };

    bool pairHolds(int pair, int chart) { return kPairs[pair][0] == chart || kPairs[pair][1] == chart; }

} // namespace

void MainWindow::setupChartArea()
{
    m_chartTabs = new QTabBar(m_ui->results);
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setExpanding(false);
    m_chartTabs->setElideMode(Qt::ElideRight);
    m_chartTabs->setDocumentMode(true);
    for (int i = 0; i < 4; ++i)
        m_chartTabs->addTab(QString());
    m_chartTabs->hide();
    m_ui->resultsLayout->insertWidget(m_ui->resultsLayout->indexOf(m_legend) + 1, m_chartTabs);
    connect(m_chartTabs, &QTabBar::tabBarClicked, this, [this](int index) {
        if (index >= 0 && index < 4)
            showChart(charts()[index]);
    });
    // The room for the charts changes with the window, the docks beside them and the verdict's height.
    m_ui->results->installEventFilter(this);
    m_ui->verdict->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if ((watched == m_ui->results || watched == m_ui->verdict) && event->type() == QEvent::Resize) {
        arrangeCharts();
        placeOverlay();
    }
    return QMainWindow::eventFilter(watched, event);
}

// At 300 x 220 px a chart keeps three ticks on each axis and its title on two lines at the desktop font.
constexpr QSize kReadableChart(300, 220);

QSize MainWindow::readableChartSize() const
{
    // Presentation fonts need proportionally more.
    const double scale = m_presentation ? std::max(1.0, m_appliedScale * 0.8) : 1.0;
    return QSize(int(kReadableChart.width() * scale), int(kReadableChart.height() * scale));
}

// The verdict's height as it has set it (VerdictWidget::fitHeights()), which its geometry takes once the layout runs.
int MainWindow::verdictHeight() const
{
    const QWidget* v = m_ui->verdict;
    return v->minimumHeight() == v->maximumHeight() ? v->maximumHeight() : v->height();
}

// The room under the verdict, the legend and the tabs (counted whether they show or not, so that showing them
// cannot change the arrangement that showed them).
QSize MainWindow::chartArea() const
{
    const int spacing = m_ui->resultsLayout->spacing();
    int height = m_ui->results->height() - verdictHeight() - m_legend->height() - m_chartTabs->sizeHint().height()
        - 3 * spacing;
    if (m_ui->pipelineSchedule->isVisibleTo(m_ui->results))
        height -= m_ui->pipelineSchedule->height() + spacing;
    return QSize(m_ui->results->width(), height);
}

// Short of room, the verdict folds its suggestions to one: where the results area could not hold the verdict with
// four of them and two readable charts (a 1024x768 window with a dock open). Decided by the area's height alone,
// never by the verdict's, so that folding cannot unfold it again. Nor may suggestions that appear (a drag across the
// fit boundary) take a row of charts away: where they would, they fold until the window's size changes (in Chinese at
// 1024x768 the four charts fell into tabs at micro-batch 26 and came back at 25).
void MainWindow::foldSuggestions(bool laidOut, int chartHeight)
{
    const QSize need = readableChartSize();
    const int gap = m_ui->chartGrid->spacing();
    if (m_ui->results->size() != m_foldedAt) {
        m_foldedAt = m_ui->results->size();
        m_foldForCharts = false;
    }
    auto rows = [&](int height) { return height >= 2 * need.height() + gap ? 2 : height >= need.height() ? 1 : 0; };
    const int without = chartHeight + verdictHeight() - m_ui->verdict->heightWithoutSuggestions();
    if (laidOut && rows(chartHeight) < rows(without))
        m_foldForCharts = true;
    // The details' own lines: in presentation mode their font is half as big again (the widget's is not).
    const int line = m_ui->verdict->detailLineSpacing();
    m_ui->verdict->setCompact(laidOut && (m_foldForCharts || m_ui->results->height() < 2 * need.height() + 18 * line));
}

QList<ChartPanel*> MainWindow::visibleCharts() const
{
    QList<ChartPanel*> out;
    for (ChartPanel* c : charts()) {
        if (!c->isHidden())
            out << c;
    }
    return out;
}

void MainWindow::arrangeCharts()
{
    if (!m_chartTabs)
        return;
    const QList<ChartPanel*> all = charts();
    const QSize need = readableChartSize();
    QSize area = chartArea();
    const int gap = m_ui->chartGrid->spacing();
    // Not laid out yet (a window never shown): all four, as a fresh window shows them.
    const bool laidOut = m_ui->results->isVisible() && area.width() > 0 && area.height() > 0;
    foldSuggestions(laidOut, area.height());
    area = chartArea(); // the verdict as it is now, folded or not
    const bool twoColumns = !laidOut || area.width() >= 2 * need.width() + gap;
    const bool twoRows = !laidOut || area.height() >= 2 * need.height() + gap;
    const bool touring = m_tour && m_tour->running() && m_tourCard;
    if (laidOut && (area.width() < need.width() || area.height() < need.height())) {
        // After this resize is over: resizing docks inside it would re-enter the window's layout.
        QTimer::singleShot(0, this, &MainWindow::shrinkSideDocks);
    }
    int capacity = twoColumns || twoRows ? 2 : 1;
    if (!m_presentation && twoColumns && twoRows)
        capacity = 4;
    QList<QWidget*> shown;
    int columns = twoColumns ? 2 : 1;
    if (touring) {
        // The chart the tour talks about and the tour's card beside it (under it where the area is narrow).
        const int focus = m_tourChart ? int(all.indexOf(static_cast<ChartPanel*>(m_tourChart))) : m_chartFocus;
        shown << all[std::max(0, focus)] << m_tourCard;
        columns = twoColumns || !twoRows ? 2 : 1;
    } else if (capacity == 4) {
        shown = { all[0], all[1], all[2], all[3] };
    } else if (capacity == 2) {
        if (!pairHolds(m_chartPair, m_chartFocus)) {
            for (int p = 0; p < 4; ++p) {
                if (pairHolds(p, m_chartFocus)) {
                    m_chartPair = p;
                    break;
                }
            }
        }
        shown << all[kPairs[m_chartPair][0]] << all[kPairs[m_chartPair][1]];
    } else {
        shown << all[m_chartFocus];
        columns = 1;
    }
    m_chartCapacity = touring ? 4 : capacity;
    m_ui->nextChartsAction->setEnabled(m_chartCapacity < 4);
    QString key = QString::number(columns);
    for (QWidget* w : shown)
        key += QLatin1Char(' ') + w->objectName();
    if (key == m_arrangement)
        return;
    m_arrangement = key;
    placeChartWidgets(shown, columns);
}

// Docks beside and under the charts give way (down to their own minimum) where one readable chart has no room left.
void MainWindow::shrinkSideDocks()
{
    if (!m_ui->results->isVisible())
        return;
    const QSize need = readableChartSize(), area = chartArea();
    auto shrink = [this](int pixels, Qt::Orientation o) {
        if (pixels <= 0)
            return;
        QList<QDockWidget*> docks;
        QList<int> sizes;
        for (QDockWidget* d : findChildren<QDockWidget*>()) {
            const Qt::DockWidgetArea a = dockWidgetArea(d);
            const bool beside = o == Qt::Horizontal ? (a == Qt::RightDockWidgetArea || a == Qt::LeftDockWidgetArea)
                                                    : (a == Qt::BottomDockWidgetArea || a == Qt::TopDockWidgetArea);
            const int size = o == Qt::Horizontal ? d->width() : d->height();
            const int least = o == Qt::Horizontal ? d->minimumSizeHint().width() : d->minimumSizeHint().height();
            if (d->isVisible() && !d->isFloating() && beside && size > least) {
                docks << d;
                sizes << std::max(least, size - pixels);
            }
        }
        if (!docks.isEmpty())
            resizeDocks(docks, sizes, o);
    };
    shrink(need.width() - area.width(), Qt::Horizontal);
    shrink(need.height() - area.height(), Qt::Vertical);
}

// A bottom panel just shown gets the height its content asks for (up to half the window), out of what the charts
// have beyond one readable row: at 1024x768 the Plan dock opened at its minimum, a header over no table, beside two
// charts twice as tall as they needed. In presentation mode, where even its minimum would leave no readable chart,
// it floats over the charts instead.
void MainWindow::fitBottomDock(QDockWidget* dock)
{
    if (dock == m_overlaidDock && !m_presentation) {
        const bool floating = dock->isFloating();
        endOverlay(); // a floating one is docked again and fitted once it is laid out there
        if (floating)
            return;
    }
    if (!dock->isVisible() || dock->isFloating() || dockWidgetArea(dock) != Qt::BottomDockWidgetArea
        || !m_ui->results->isVisible())
        return;
    const auto* area = qobject_cast<QScrollArea*>(dock->widget());
    const QWidget* panel = area ? area->widget() : dock->widget();
    const int frame = dock->height() - dock->widget()->height(); // the title bar
    // A panel's preferred height can be under its minimum (a chart or table that takes what is left asks for none).
    const int natural = std::max(panel->sizeHint().height(), panel->minimumSizeHint().height());
    const int wanted = std::min(natural + frame, height() / 2);
    // In presentation mode a row of charts readable at the charts' own font scale (1.16 at 1024x768): at the desktop's
    // 220 px, under the Plan panel docked, BERT's timeline put its peak label on the tick labels and the phase chart
    // its verdict on the capacity's label.
    const double fontScale = m_presentation ? std::max(1.0, m_appliedScale) : 1.0;
    const int readable = std::max(readableChartSize().height(), int(std::lround(kReadableChart.height() * fontScale)));
    const int spare = chartArea().height() - readable;
    // A third of the window shows a panel's controls and a few rows: less is a header over nothing.
    if (m_presentation && spare + dock->height() - std::min(wanted, height() / 3) < 0) {
        if (QDockWidget* before = m_overlaidDock; before && before != dock) {
            before->hide(); // one panel over the charts at a time: the new one takes the place
            endOverlay();
            if (!m_displacedDocks.contains(before))
                m_displacedDocks << before;
        }
        m_displacedDocks.removeAll(dock); // shown again: closing it now is the user's choice
        m_overlaidDock = dock;
        dock->setFloating(true);
        placeOverlay();
        dock->show();
        dock->raise();
        return;
    }
    // It grows into what the charts have beyond their readable size; where Qt gave it more than leaves them that
    // (the Plan panel shown in presentation mode at 1024x768 got 355 px, the charts 165), it gives it back, down to
    // a third of the window.
    const int least = std::min(dock->height(), std::min(wanted, height() / 3));
    const int target = spare >= 0 ? std::min(wanted, dock->height() + spare) : std::max(least, dock->height() + spare);
    // Qt sizes the area, the tabs of panels sharing it included: asked for the dock's height alone, the dock came out
    // a tab bar (25 px) short and the GPU comparison scrolled.
    if (target > dock->height() || (spare < 0 && target < dock->height()))
        resizeDocks({ dock }, { target + dockTabBarHeight(dock) }, Qt::Vertical);
}

// The height of the tab bar under (or over) a dock that shares its area with others as tabs; 0 for a dock alone.
int MainWindow::dockTabBarHeight(QDockWidget* dock) const
{
    if (tabifiedDockWidgets(dock).isEmpty())
        return 0;
    const QRect d = dock->geometry();
    for (const QTabBar* bar : findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        const QRect b = bar->geometry();
        const bool touches = b.top() == d.bottom() + 1 || b.bottom() + 1 == d.top();
        if (bar->isVisible() && touches && b.left() < d.right() && b.right() > d.left())
            return b.height();
    }
    return 0;
}

void MainWindow::fitBottomDocks()
{
    for (QDockWidget* d : { m_comparisonDock, m_inferenceDock, m_scalingDock, m_planDock })
        if (d->isVisible())
            fitBottomDock(d);
}

// The overlaid panel covers the results below the verdict: the charts, their legend and tabs.
void MainWindow::placeOverlay()
{
    if (!m_overlaidDock || !m_overlaidDock->isFloating())
        return;
    const int top = m_ui->verdict->geometry().bottom() + 1;
    QRect area(m_ui->results->mapToGlobal(QPoint(0, top)),
               QSize(m_ui->results->width(), m_ui->results->height() - top));
    // Not over the tour's card: its text and its Back, Next and End buttons stay in sight (the tour's GPU comparison
    // step in presentation mode at 1024x768 covered them, and the tour could only be left by a key no one could see).
    // The panel takes the rest of the window's width beside the card, over the settings the tour is not using (beside
    // the card alone it was 355 px wide, its table cut after the first column).
    if (m_tour && m_tour->running() && m_tourCard && m_tourCard->isVisible()) {
        const QRect card(m_tourCard->mapToGlobal(QPoint(0, 0)), m_tourCard->size());
        const QRect window(mapToGlobal(QPoint(0, 0)), size());
        if (card.intersects(area)) {
            if (card.left() - window.left() >= window.right() - card.right())
                area.setCoords(window.left(), area.top(), card.left() - 1, area.bottom());
            else
                area.setCoords(card.right() + 1, area.top(), window.right(), area.bottom());
        }
    }
    m_overlaidDock->setGeometry(area);
}

void MainWindow::endOverlay()
{
    QDockWidget* dock = m_overlaidDock;
    m_overlaidDock = nullptr;
    if (dock && dock->isFloating()) {
        const bool shown = dock->isVisible();
        dock->setFloating(false); // back to the bottom, among the panels it was a tab of
        dock->setVisible(shown);
        if (shown)
            QTimer::singleShot(0, this, [this, dock] { fitBottomDock(dock); });
    }
}

void MainWindow::placeChartWidgets(const QList<QWidget*>& shown, int columns)
{
    QGridLayout* grid = m_ui->chartGrid;
    const QList<ChartPanel*> all = charts();
    QList<QWidget*> every(all.begin(), all.end());
    if (m_tourCard)
        every << m_tourCard;
    for (QWidget* w : every) {
        grid->removeWidget(w);
        if (!shown.contains(w))
            w->hide();
    }
    for (int i = 0; i < shown.size(); ++i) {
        grid->addWidget(shown[i], i / columns, i % columns);
        shown[i]->show();
    }
    // Equal rows and columns whatever was laid out before.
    for (int i = 0; i < 2; ++i) {
        grid->setColumnStretch(i, i < columns ? 1 : 0);
        grid->setRowStretch(i, i < (int(shown.size()) + columns - 1) / columns ? 1 : 0);
    }
    // The tabs name the charts that have no room beside the ones shown.
    const bool tabs = m_chartCapacity < 4;
    // Both charts shown name themselves in the tab bar, not only the one its current tab marks (F10 in presentation
    // mode showed "Phase peaks" current beside the roofline, whose tab looked as hidden as the others): the tabs of
    // the charts out of sight are greyed.
    for (int i = 0; i < all.size(); ++i) {
        m_chartTabs->setTabText(i, all[i]->tabName());
        m_chartTabs->setTabToolTip(i, all[i]->title());
        m_chartTabs->setTabTextColor(i,
                                     palette().color(shown.contains(all[i]) ? QPalette::WindowText
                                                                            : QPalette::PlaceholderText));
    }
    for (int i = 0; i < all.size(); ++i) {
        if (shown.contains(all[i])) {
            m_chartTabs->setCurrentIndex(i);
            break;
        }
    }
    const bool shownOrHidden = m_chartTabs->isHidden() == tabs;
    m_chartTabs->setVisible(tabs);
    if (shownOrHidden) {
        // Shown from inside a resize, the results' layout has already been set: lay it out again once that is over,
        // or the tabs keep the zero height they had hidden (a 1024x768 window resized to 860x640: no tabs).
        QTimer::singleShot(0, m_ui->results, [layout = m_ui->resultsLayout] {
            layout->invalidate();
            layout->activate();
        });
    }
}

void MainWindow::showNextChartPair()
{
    if (m_chartCapacity == 2) {
        m_chartPair = (m_chartPair + 1) % 4;
        m_chartFocus = kPairs[m_chartPair][0];
    } else if (m_chartCapacity == 1) {
        m_chartFocus = (m_chartFocus + 1) % 4;
    }
    arrangeCharts();
}

void MainWindow::showChart(QWidget* chart, bool forTour)
{
    // Not every target is a chart (the tour's GPU comparison is a dock): find it among the charts as a widget.
    int index = -1;
    const QList<ChartPanel*> all = charts();
    for (int i = 0; i < int(all.size()); ++i)
        index = static_cast<QWidget*>(all[i]) == chart ? i : index;
    if (forTour)
        m_tourChart = index >= 0 ? chart : nullptr;
    if (index >= 0) {
        m_chartFocus = index;
        if (!pairHolds(m_chartPair, index)) {
            for (int p = 0; p < 4; ++p) {
                if (pairHolds(p, index)) {
                    m_chartPair = p;
                    break;
                }
            }
        }
    }
    arrangeCharts();
}

} // namespace headroom::gui
