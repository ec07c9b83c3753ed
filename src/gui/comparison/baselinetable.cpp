#include "baselinetable.h"

#include "chartstyle.h"
#include "formatting.h"
#include "labels.h"
#include "scenariotext.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headroom::gui {

BaselineTable::BaselineTable(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_table = new QTableWidget(this);
    m_table->setColumnCount(3);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false); // a value on one line; the dock widens for it
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_header);
    layout->addWidget(m_table, 1);
}

void BaselineTable::setResults(const std::shared_ptr<const SimulationResult>& baseline,
                               const std::shared_ptr<const SimulationResult>& current)
{
    m_baseline = baseline;
    m_current = current;
    fill();
}

void BaselineTable::fill()
{
    if (!m_baseline || !m_current || !m_baseline->model || !m_current->model) {
        m_table->setRowCount(0);
        m_header->clear();
        return;
    }
    const Estimate& b = m_baseline->estimate;
    const Estimate& c = m_current->estimate;
    m_header->setText(tr("<b>Baseline:</b> %1<br>%2")
                          .arg(ScenarioText::title(*m_baseline).toHtmlEscaped(),
                               ScenarioText::settings(*m_baseline).toHtmlEscaped()));
    m_table->setHorizontalHeaderLabels({ tr("Baseline"), tr("Now"), tr("Change") });
    struct Row {
        QString name;
        QString base, now, change;
        int sign; // +1 better, -1 worse, 0 neutral
        QColor swatch;
    };
    std::vector<Row> rows;
    auto bytesRow = [&](const QString& name, double vb, double vc, bool lowerIsBetter, QColor swatch = {}) {
        const double d = vc - vb;
        QString change = (d >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatBytes(std::abs(d));
        if (vb > 0)
            change += QStringLiteral(" (%1%2)").arg(d >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                                                    formatPercent(std::abs(d) / vb, 0));
        const int sign = std::abs(d) < 1.0 ? 0 : ((d < 0) == lowerIsBetter ? 1 : -1);
        rows.push_back({ name, formatBytes(vb), formatBytes(vc), change, sign, swatch });
    };
    for (int i = 0; i < kMemoryCategoryCount; ++i) {
        const auto cat = MemoryCategory(i);
        bytesRow(Labels::category(cat), b.atPeak[std::size_t(i)], c.atPeak[std::size_t(i)], true, categoryColor(cat));
    }
    bytesRow(tr("Peak"), b.peakBytes, c.peakBytes, true);
    bytesRow(tr("Free (negative: over)"), b.headroomBytes, c.headroomBytes, false);
    auto ratioRow = [&](const QString& name, double vb, double vc, const QString& tb, const QString& tc,
                        bool lowerIsBetter) {
        QString change;
        int sign = 0;
        if (vb > 0 && vc > 0) {
            const double r = vc / vb;
            change = QStringLiteral("×%1").arg(QLocale().toString(r, 'f', r < 10 ? 2 : 1));
            sign = std::abs(r - 1.0) < 1e-3 ? 0 : ((r < 1.0) == lowerIsBetter ? 1 : -1);
        }
        rows.push_back({ name, tb, tc, change, sign, {} });
    };
    ratioRow(tr("Largest micro-batch"), double(b.maxMicroBatch), double(c.maxMicroBatch),
             QString::number(b.maxMicroBatch), QString::number(c.maxMicroBatch), false);
    ratioRow(tr("Step time"), b.stepSeconds, c.stepSeconds, formatSeconds(b.stepSeconds), formatSeconds(c.stepSeconds),
             true);
    const QString ub = b.vision ? tr("images") : tr("tokens"), uc = c.vision ? tr("images") : tr("tokens");
    ratioRow(tr("Throughput"), b.throughputPerSecond, c.throughputPerSecond, formatRate(b.throughputPerSecond, ub),
             formatRate(c.throughputPerSecond, uc), false);
    ratioRow(tr("MFU"), b.mfu, c.mfu, formatPercent(b.mfu), formatPercent(c.mfu), false);
    rows.push_back({ tr("Fits"),
                     b.fits ? tr("yes") : tr("no"),
                     c.fits ? tr("yes") : tr("no"),
                     QString(),
                     b.fits == c.fits ? 0 : (c.fits ? 1 : -1),
                     {} });

    m_table->setRowCount(int(rows.size()));
    QStringList names;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        names << row.name;
        auto* head = new QTableWidgetItem(row.name);
        if (row.swatch.isValid()) {
            QPixmap pm(10, 10);
            pm.fill(row.swatch);
            head->setIcon(QIcon(pm));
        }
        m_table->setVerticalHeaderItem(int(r), head);
        const QStringList cells { row.base, row.now, row.change };
        for (int col = 0; col < 3; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (col == 2 && row.sign != 0) {
                // Better or worse in words as well as colour (a tooltip), never colour alone.
                item->setForeground(row.sign > 0 ? QColor(0x00, 0x9E, 0x73) : QColor(0xD5, 0x5E, 0x00));
                item->setToolTip(row.sign > 0 ? tr("better than the baseline") : tr("worse than the baseline"));
                item->setText(cells[col] + (row.sign > 0 ? QStringLiteral(" ▲") : QStringLiteral(" ▼")));
            }
            m_table->setItem(int(r), col, item);
        }
    }
    // The width that shows Baseline, Now and Change without scrolling and cuts no value: the window widens its dock
    // to it as far as there is room (at 1280 px they needed a horizontal scroll bar).
    int width = m_table->verticalHeader()->sizeHint().width() + 2 * m_table->frameWidth();
    for (int col = 0; col < 3; ++col) {
        int column = m_table->horizontalHeader()->sectionSizeHint(col);
        for (int r = 0; r < m_table->rowCount(); ++r)
            column = std::max(column, m_table->sizeHintForIndex(m_table->model()->index(r, col)).width());
        width += column + 4;
    }
    const QMargins m = layout()->contentsMargins();
    m_neededWidth = width + m.left() + m.right();
}

QString BaselineTable::text() const
{
    QStringList lines;
    lines << QStringLiteral("\t%1\t%2\t%3")
                 .arg(m_table->horizontalHeaderItem(0) ? m_table->horizontalHeaderItem(0)->text() : QString(),
                      m_table->horizontalHeaderItem(1) ? m_table->horizontalHeaderItem(1)->text() : QString(),
                      m_table->horizontalHeaderItem(2) ? m_table->horizontalHeaderItem(2)->text() : QString());
    for (int r = 0; r < m_table->rowCount(); ++r) {
        QStringList cells { m_table->verticalHeaderItem(r)->text() };
        for (int c = 0; c < 3; ++c)
            cells << (m_table->item(r, c) ? m_table->item(r, c)->text() : QString());
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void BaselineTable::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        fill();
    QWidget::changeEvent(event);
}

} // namespace headroom::gui
