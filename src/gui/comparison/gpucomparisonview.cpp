#include "gpucomparisonview.h"

#include "chartstyle.h"
#include "gpucomparisonchart.h"
#include "gpucomparisonmodel.h"
#include "labels.h"
#include "wrappedlabel.h"

#include <QApplication>
#include <QClipboard>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace headroom::gui {

namespace {
    constexpr int kIdRole = Qt::UserRole;
    constexpr int kSearchRole = Qt::UserRole + 1; // vendor and segment, in both languages: the filter matches them
    // Long enough to fold a slider drag into one computation, short enough to feel immediate.
    constexpr int kDebounceMs = 60;
}

// The left side: which GPUs (a filter, the list, the default selection).
QWidget* GpuComparisonView::buildGpuList()
{
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* listLabel = m_listLabel = new QLabel(left);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("gpuFilterEdit"));
    m_filter->setClearButtonEnabled(true);
    m_gpuList = new QListWidget(left);
    m_gpuList->setObjectName(QStringLiteral("gpuList"));
    m_gpuList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_gpuList->setTextElideMode(Qt::ElideMiddle);
    listLabel->setBuddy(m_gpuList);
    m_resetButton = new QPushButton(left);
    m_resetButton->setObjectName(QStringLiteral("resetSelectionButton"));
    // The data set (for the time per epoch) and the copy of the table: the controls on this side, the results on
    // the other, whose height at 1024x768 is the table's two rows over the charts.
    auto* datasetLabel = m_datasetLabel = new QLabel(left);
    m_dataset = new QDoubleSpinBox(left);
    m_dataset->setObjectName(QStringLiteral("datasetSpin"));
    m_dataset->setDecimals(0);
    m_dataset->setRange(1.0, 1e13);
    m_dataset->setSingleStep(10000.0);
    m_dataset->setGroupSeparatorShown(true);
    m_dataset->setValue(1'000'000.0);
    datasetLabel->setBuddy(m_dataset);
    m_copyButton = new QPushButton(left);
    m_copyButton->setObjectName(QStringLiteral("copyCsvButton"));
    leftLayout->addWidget(listLabel);
    leftLayout->addWidget(m_filter);
    leftLayout->addWidget(m_gpuList, 1);
    leftLayout->addWidget(m_resetButton);
    leftLayout->addWidget(datasetLabel);
    leftLayout->addWidget(m_dataset);
    leftLayout->addWidget(m_copyButton);

    return left;
}

// The right side: what is compared, the table and the charts.
QWidget* GpuComparisonView::buildResults()
{
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(right);
    m_summary->setObjectName(QStringLiteral("comparisonSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->installEventFilter(this); // its minimum height at each width (fitWrappedLabelHeight)

    m_model = new GpuComparisonModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(right);
    m_table->setObjectName(QStringLiteral("comparisonTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the order of the list until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Every column as wide as what it holds, and the name too (fitNameColumn): a row says which GPU it is before
    // anything else. Where the dock is narrower than the numbers (a 1024-pixel window) the table scrolls sideways;
    // where it is wider, the name takes the room left. When the name took only what the numbers left, it came down
    // to "RTX..." and "A10..." at 1024 pixels.
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(GpuComparisonModel::GpuColumn, QHeaderView::Interactive);
    header->setMinimumSectionSize(QFontMetrics(m_table->font()).averageCharWidth() * 8);
    m_table->viewport()->installEventFilter(this);
    connect(m_table->horizontalScrollBar(), &QScrollBar::rangeChanged, this, &GpuComparisonView::fitTableHeight);
    m_chart = new GpuComparisonChart(right);
    rightLayout->addWidget(m_summary);
    m_table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    rightLayout->addWidget(m_table, 1);
    rightLayout->addWidget(m_chart, 1);

    return right;
}

GpuComparisonView::GpuComparisonView(const Catalog& catalog, QWidget* parent)
    : LazyToolView(kDebounceMs, parent)
    , m_catalog(catalog)
{
    setObjectName(QStringLiteral("gpuComparisonView"));

    QWidget* left = buildGpuList();
    QWidget* right = buildResults();

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 220, 1000 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2); // the dock's title bar above, its edge below
    layout->addWidget(splitter);

    setChartStyle(gui::chartStyle(palette(), false));
    retranslate();
    reloadGpus();
    resetSelection();

    connect(m_gpuList, &QListWidget::itemChanged, this, &GpuComparisonView::onItemChanged);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (int i = 0; i < m_gpuList->count(); ++i) {
            QListWidgetItem* item = m_gpuList->item(i);
            item->setHidden(!text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive)
                            && !item->toolTip().contains(text, Qt::CaseInsensitive)
                            && !item->data(kIdRole).toString().contains(text, Qt::CaseInsensitive)
                            && !item->data(kSearchRole).toString().contains(text, Qt::CaseInsensitive));
        }
    });
    connect(m_dataset, &QDoubleSpinBox::valueChanged, this, [this] { markStale(); });
    connect(m_resetButton, &QPushButton::clicked, this, &GpuComparisonView::resetSelection);
    connect(m_copyButton, &QPushButton::clicked, this, &GpuComparisonView::copyAsCsv);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QString id = index.data(GpuComparisonModel::GpuIdRole).toString();
        if (!id.isEmpty())
            emit gpuRequested(id);
    });
}

GpuComparisonView::~GpuComparisonView() = default;

void GpuComparisonView::reloadGpus()
{
    const QStringList selected = selectedGpuIds();
    const QSignalBlocker blocker(m_gpuList);
    m_gpuList->clear();
    // The explainer's GPUs first, then the catalog's order.
    std::vector<const GpuSpec*> order;
    for (const std::string& id : explainerGpuIds()) {
        if (const GpuSpec* g = m_catalog.gpu(id))
            order.push_back(g);
    }
    for (const GpuSpec& g : m_catalog.gpus()) {
        if (std::find(order.begin(), order.end(), &g) == order.end())
            order.push_back(&g);
    }
    for (const GpuSpec* g : order) {
        auto* item = new QListWidgetItem(GpuComparisonModel::shortName(*g), m_gpuList);
        item->setData(kIdRole, QString::fromStdString(g->id));
        item->setToolTip(QString::fromStdString(g->name));
        item->setData(kSearchRole,
                      QString::fromStdString(g->vendor) + QLatin1Char(' ')
                          + Labels::segmentSearchTerms(g->segmentKind()).join(QLatin1Char(' ')));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(selected.contains(QString::fromStdString(g->id)) ? Qt::Checked : Qt::Unchecked);
    }
    markStale();
}

QStringList GpuComparisonView::selectedGpuIds() const
{
    QStringList ids;
    for (int i = 0; i < m_gpuList->count(); ++i) {
        if (m_gpuList->item(i)->checkState() == Qt::Checked)
            ids << m_gpuList->item(i)->data(kIdRole).toString();
    }
    return ids;
}

void GpuComparisonView::setSelectedGpuIds(const QStringList& ids)
{
    {
        const QSignalBlocker blocker(m_gpuList);
        for (int i = 0; i < m_gpuList->count(); ++i) {
            QListWidgetItem* item = m_gpuList->item(i);
            item->setCheckState(ids.contains(item->data(kIdRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    m_autoAddedGpu.clear();
    markStale();
}

void GpuComparisonView::resetSelection()
{
    QStringList ids;
    for (const std::string& id : defaultComparisonGpuIds(m_catalog, m_haveScenario ? m_scenario.gpuId : std::string()))
        ids << QString::fromStdString(id);
    setSelectedGpuIds(ids);
}

double GpuComparisonView::datasetSamples() const { return m_dataset->value(); }

void GpuComparisonView::setDatasetSamples(double samples) { m_dataset->setValue(samples); }

const std::vector<GpuComparisonRow>& GpuComparisonView::rows() const { return m_model->rows(); }

QString GpuComparisonView::csv() const { return m_model->csv(); }

void GpuComparisonView::copyAsCsv() { QApplication::clipboard()->setText(csv()); }

void GpuComparisonView::setChartStyle(const ChartStyle& style)
{
    m_chart->setChartStyle(style);
    m_model->setColors(GpuComparisonChart::fitsColor(), style.overflow);
}

void GpuComparisonView::setScenario(const Scenario& scenario)
{
    const bool gpuChanged = !m_haveScenario || scenario.gpuId != m_scenario.gpuId;
    m_scenario = scenario;
    m_haveScenario = true;
    if (gpuChanged) {
        // The scenario's GPU is always compared; one that was only checked for an earlier scenario goes again.
        const QSignalBlocker blocker(m_gpuList);
        const QString id = QString::fromStdString(scenario.gpuId);
        QListWidgetItem* current = nullptr;
        for (int i = 0; i < m_gpuList->count(); ++i) {
            QListWidgetItem* item = m_gpuList->item(i);
            const QString itemId = item->data(kIdRole).toString();
            if (itemId == id)
                current = item;
            else if (itemId == m_autoAddedGpu)
                item->setCheckState(Qt::Unchecked);
        }
        m_autoAddedGpu.clear();
        if (current && current->checkState() != Qt::Checked) {
            current->setCheckState(Qt::Checked);
            m_autoAddedGpu = id;
        }
    }
    markStale();
}

void GpuComparisonView::onItemChanged(QListWidgetItem* item)
{
    if (item->data(kIdRole).toString() == m_autoAddedGpu)
        m_autoAddedGpu.clear(); // the user's choice now
    markStale();
}

void GpuComparisonView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        setChartStyle(gui::chartStyle(palette(), m_chart->chartStyle().presentation));
    if (event->type() == QEvent::LanguageChange) {
        // Labels, the list's segment names, the table's headers and cells, the charts and the summary: everything
        // this view wrote with tr() is written again (a fresh view in the new language would read the same).
        retranslate();
        markStale(); // a hidden view computes when it is shown
    }
}

void GpuComparisonView::retranslate()
{
    m_listLabel->setText(tr("&GPUs to compare:"));
    m_filter->setPlaceholderText(tr("Filter GPUs"));
    m_resetButton->setText(tr("&Default selection"));
    m_resetButton->setToolTip(tr("The explainer's RTX A3000 laptop GPU, RTX 3090, A100 and H100, and the current GPU"));
    m_datasetLabel->setText(tr("Data &set size:"));
    m_dataset->setSuffix(tr(" samples"));
    m_dataset->setToolTip(tr("Samples in one epoch: sequences for language models, images for vision models"));
    m_copyButton->setText(tr("&Copy as CSV"));
    m_table->setToolTip(tr("Double-click a GPU to make it the current one"));
}

LazyToolView::Work GpuComparisonView::job()
{
    std::vector<std::string> ids;
    for (const QString& id : selectedGpuIds())
        ids.push_back(id.toStdString());
    const bool known = m_haveScenario && m_catalog.model(m_scenario.modelId);
    auto catalog = LazyJob::snapshot(m_catalog, m_scenario.modelId, ids);
    return [catalog, ids, known, scenario = m_scenario, samples = datasetSamples(), self = this]() -> Show {
        std::vector<GpuComparisonRow> rows;
        if (known) {
            std::vector<const GpuSpec*> gpus;
            gpus.reserve(ids.size());
            for (const std::string& id : ids)
                gpus.push_back(catalog->gpu(id));
            rows = compareGpus(*catalog, scenario, gpus, samples);
        }
        return [self, catalog, rows = std::move(rows)] { self->showRows(rows, catalog); }; // on the GUI thread
    };
}

void GpuComparisonView::showRows(const std::vector<GpuComparisonRow>& rows, std::shared_ptr<const Catalog> catalog)
{
    const ModelSpec* model = m_haveScenario ? m_catalog.model(m_scenario.modelId) : nullptr;
    m_model->setRows(rows, QString::fromStdString(m_scenario.gpuId), m_scenario.config.microBatch,
                     model && model->isVision());
    m_chart->setRows(rows);
    m_rowsCatalog = std::move(catalog);
    fitNameColumn();
    fitTableHeight();
    updateSummary(model);
    emit comparisonChanged();
}

void GpuComparisonView::fitNameColumn()
{
    // The names whole up to about 32 characters (a longer one elided, whole in its tooltip), or the room the other
    // columns leave, whichever is wider.
    const int cap = std::max(1, QFontMetrics(m_table->font()).averageCharWidth()) * 32;
    m_table->resizeColumnToContents(GpuComparisonModel::GpuColumn);
    int room = m_table->viewport()->width();
    for (int c = 0; c < GpuComparisonModel::ColumnCount; ++c) {
        if (c != GpuComparisonModel::GpuColumn)
            room -= m_table->columnWidth(c);
    }
    const int name = std::min(m_table->columnWidth(GpuComparisonModel::GpuColumn), cap);
    m_table->setColumnWidth(GpuComparisonModel::GpuColumn, std::max(name, room));
}

bool GpuComparisonView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    else if (watched == m_summary && event->type() == QEvent::Resize && fitWrappedLabelHeight(m_summary))
        emit minimumHeightChanged();
    return LazyToolView::eventFilter(watched, event);
}

void GpuComparisonView::fitTableHeight()
{
    // The table at most as tall as its rows (up to a dozen, then it scrolls), the charts below it; where the panel is
    // short (a 1024x768 window) both give way, the table down to two rows, the charts to a line a GPU, so the panel
    // does not scroll with its charts below the fold.
    const int rows = std::clamp(m_model->rowCount(), 1, 12);
    int frame = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    if (m_table->horizontalScrollBar()->maximum() > 0) // the columns wider than the panel: it scrolls sideways
        frame += m_table->horizontalScrollBar()->sizeHint().height();
    const int row = m_table->verticalHeader()->defaultSectionSize();
    m_table->setMinimumHeight(frame + std::min(rows, 2) * row);
    m_table->setMaximumHeight(frame + rows * row);
}

void GpuComparisonView::updateSummary(const ModelSpec* model)
{
    if (!model) {
        m_summary->setText(
            m_haveScenario ? tr("The model %1 is not in the catalog.").arg(QString::fromStdString(m_scenario.modelId))
                           : tr("No scenario yet."));
        return;
    }
    const TrainingConfig& c = m_scenario.config;
    const QLocale locale;
    const qlonglong perStep = qlonglong(std::max<std::int64_t>(1, c.microBatch)) * std::max(1, c.gradientAccumulation)
        * std::max(1, c.dataParallel);
    QString text = tr("%1, %2 %3, %4: micro-batch %5 × %6 accumulation steps × %7 data-parallel GPUs = %8 samples "
                      "per optimizer step.")
                       .arg(QString::fromStdString(model->name), model->isVision() ? tr("image side") : tr("sequence"))
                       .arg(c.sequenceLength)
                       .arg(Labels::precision(c.precision))
                       .arg(c.microBatch)
                       .arg(c.gradientAccumulation)
                       .arg(c.dataParallel)
                       .arg(locale.toString(perStep));
    text += QLatin1Char(' ') + tr("Each GPU at its datasheet figures and its own framework overhead.");
    const GpuOverrides& o = m_scenario.overrides;
    if (o.memoryBytes || o.bandwidthBytesPerSecond || o.peakFlopsPerSecond || c.overheadBytes)
        text += QLatin1Char(' ') + tr("The current scenario's what-if figures are not applied here.");
    m_summary->setText(text);
    if (fitWrappedLabelHeight(m_summary))
        emit minimumHeightChanged();
}

} // namespace headroom::gui
