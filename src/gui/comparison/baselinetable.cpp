#include "baselinetable.h"

#include "baseline.h"
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

namespace {

    QString quantityName(const BaselineRow& x)
    {
        switch (x.quantity) {
        case BaselineQuantity::Category:
            return Labels::category(x.category);
        case BaselineQuantity::Peak:
            return BaselineTable::tr("Peak (+ CUDA context)");
        case BaselineQuantity::Needs:
            return BaselineTable::tr("Needed (verdict)");
        case BaselineQuantity::Free:
            return BaselineTable::tr("Free (negative: over)");
        case BaselineQuantity::MaxMicroBatch:
            return BaselineTable::tr("Largest micro-batch");
        case BaselineQuantity::StepTime:
            return BaselineTable::tr("Step time");
        case BaselineQuantity::Throughput:
            return BaselineTable::tr("Throughput");
        case BaselineQuantity::Mfu:
            return BaselineTable::tr("MFU");
        case BaselineQuantity::Fits:
            return BaselineTable::tr("Fits");
        }
        return {};
    }

    // A value of either side, in the unit of its row (the throughput in the images or tokens of that side's model).
    QString valueText(const BaselineRow& x, double v, const Estimate& side)
    {
        switch (x.quantity) {
        case BaselineQuantity::Category:
        case BaselineQuantity::Peak:
        case BaselineQuantity::Needs:
        case BaselineQuantity::Free:
            return formatBytes(v);
        case BaselineQuantity::MaxMicroBatch:
            return QString::number(qlonglong(v));
        case BaselineQuantity::StepTime:
            return formatSeconds(v);
        case BaselineQuantity::Throughput:
            return formatRate(v, side.vision ? BaselineTable::tr("images") : BaselineTable::tr("tokens"));
        case BaselineQuantity::Mfu:
            return formatPercent(v);
        case BaselineQuantity::Fits:
            return v > 0 ? BaselineTable::tr("yes") : BaselineTable::tr("no");
        }
        return {};
    }

} // namespace

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

void BaselineTable::setResults(const std::shared_ptr<const SimulationResult>& baseline, const SearchResult* baselineFit,
                               const std::shared_ptr<const SimulationResult>& current, const SearchResult* currentFit)
{
    m_baseline = baseline;
    m_current = current;
    m_baselineFit = baselineFit ? std::optional<SearchResult>(*baselineFit) : std::nullopt;
    m_currentFit = currentFit ? std::optional<SearchResult>(*currentFit) : std::nullopt;
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
    // The core's comparison (baseline.h), the same `headroom estimate --baseline` prints, in the window's words.
    for (const BaselineRow& x : compareToBaseline(*m_baseline, *m_current, m_baselineFit ? &*m_baselineFit : nullptr,
                                                  m_currentFit ? &*m_currentFit : nullptr)) {
        Row row { quantityName(x), valueText(x, x.baseline, b), valueText(x, x.current, c), {}, x.better, {} };
        if (x.quantity == BaselineQuantity::Category)
            row.swatch = categoryColor(x.category);
        if (x.kind == BaselineChange::Bytes) {
            row.change = (x.change >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + formatBytes(std::abs(x.change));
            if (x.baseline > 0)
                row.change += QStringLiteral(" (%1%2)").arg(x.change >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                                                            formatPercent(std::abs(x.change) / x.baseline, 0));
        } else if (x.kind == BaselineChange::Ratio && x.change > 0) {
            row.change = QStringLiteral("×%1").arg(QLocale().toString(x.change, 'f', x.change < 10 ? 2 : 1));
        }
        rows.push_back(row);
    }

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
