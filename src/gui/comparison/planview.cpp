#include "planview.h"

#include "chartpanel.h"
#include "formatting.h"
#include "gpucomparisonmodel.h"
#include "labels.h"
#include "units.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QMenu>
#include <QProgressBar>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>

namespace headroom::gui {

namespace {

    constexpr int kShownLayouts = 50;
    constexpr int kProgressAfterMs = 300; // a plan shorter than this shows no bar
    constexpr int kPriceColumn = 3;       // of the GPU types' table
    constexpr int kCostColumn = 4;

    QString text(std::string_view s) { return QString::fromLatin1(s.data(), qsizetype(s.size())); }

    // A plan's error as the tab's status shows it: the field and the reason.
    QString errorText(const Error& e) { return QString::fromStdString(e.field + ": " + e.message); }

    // Where a dot's name of `size` goes: right of the dot at `at`, else left, else a line or up to three above or
    // below, held inside the plot, where it covers no dot and no name placed before it (`taken`, its first `dots`
    // the dots); where every place covers something, the one that covers least, each dot counting twice.
    QRectF namePlace(const QPointF& at, const QSizeF& size, const QRectF& plot, const std::vector<QRectF>& taken,
                     std::size_t dots)
    {
        auto inPlot = [&](double x, double y) {
            return QRectF(QPointF(std::clamp(x, plot.left(), std::max(plot.left(), plot.right() - size.width())),
                                  std::clamp(y, plot.top(), std::max(plot.top(), plot.bottom() - size.height()))),
                          size);
        };
        std::vector<QRectF> places;
        for (const double line : { 0.0, -1.0, 1.0, -2.0, 2.0, -3.0, 3.0 }) {
            const double y = at.y() - size.height() / 2.0 + line * size.height();
            places.push_back(inPlot(at.x() + 7.0, y));
            places.push_back(inPlot(at.x() - 7.0 - size.width(), y));
        }
        auto covered = [&](const QRectF& p) {
            int n = 0;
            for (std::size_t k = 0; k < taken.size(); ++k)
                n += taken[k].intersects(p) ? (k < dots ? 2 : 1) : 0;
            return n;
        };
        return *std::min_element(places.begin(), places.end(),
                                 [&](const QRectF& a, const QRectF& b) { return covered(a) < covered(b); });
    }

    // The planner's names (bf16-pure, adamw-8bit, offload, qlora), as `headroom plan` prints them.
    QString leversText(const std::vector<std::string>& levers)
    {
        QStringList l;
        for (const std::string& x : levers)
            l << QString::fromStdString(x);
        return l.isEmpty() ? QStringLiteral("–") : l.join(QLatin1Char('+'));
    }

    // A table row's cells, reusing the items already there.
    void setRow(QTableWidget* table, int row, const QStringList& cells)
    {
        for (int k = 0; k < cells.size(); ++k) {
            auto* item = table->item(row, k);
            if (!item) {
                item = new QTableWidgetItem;
                table->setItem(row, k, item);
            }
            item->setText(cells[k]);
        }
    }

    // A running plan's bar, hidden until it has run a moment (kProgressAfterMs).
    QProgressBar* newProgressBar(QWidget* parent, const char* name)
    {
        auto* bar = new QProgressBar(parent);
        bar->setObjectName(QLatin1String(name));
        bar->setVisible(false);
        return bar;
    }

    QTableWidget* newTable(QWidget* parent, const char* name, int columns)
    {
        auto* t = new QTableWidget(parent);
        t->setObjectName(QLatin1String(name));
        t->setColumnCount(columns);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->verticalHeader()->hide();
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        return t;
    }

    // The layout a GPU type's plan found fastest, as its knobs: "t 2 · p 1 · dp 4 · ZeRO 1 · checkpointing: Full (every
    // block) · micro-batch 4 × 2".
    QString layoutText(const TrainingConfig& c)
    {
        QStringList parts { PlanView::tr("t %1").arg(c.tensorParallel), PlanView::tr("p %1").arg(c.pipelineParallel) };
        if (c.contextParallel > 1)
            parts << PlanView::tr("cp %1").arg(c.contextParallel);
        parts << PlanView::tr("dp %1").arg(c.dataParallel);
        if (c.expertParallel > 1)
            parts << PlanView::tr("ep %1").arg(c.expertParallel);
        if (c.sequenceParallel)
            parts << PlanView::tr("SP");
        parts << PlanView::tr("ZeRO %1").arg(c.zeroStage)
              << PlanView::tr("checkpointing: %1").arg(Labels::checkpointing(c.checkpointing))
              << PlanView::tr("micro-batch %1 × %2").arg(c.microBatch).arg(c.gradientAccumulation);
        return parts.join(QStringLiteral(" · "));
    }

} // namespace

PlanView::PlanView(const Catalog& catalog, QWidget* parent)
    : QWidget(parent)
    , m_catalog(catalog)
    , m_layoutsJob(new LazyJob(
          200, [this] { return layoutsJob(); }, [this] { return isVisible() && !typesVisible(); }, this))
    , m_typesJob(new LazyJob(
          200, [this] { return typesJob(); }, [this] { return isVisible() && typesVisible(); }, this))
    , m_typeIds(defaultTypeIds())
{
    setObjectName(QStringLiteral("planView"));
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    auto spin = [&](QLabel*& label, QSpinBox*& box, const char* name, int lo, int hi, int value) {
        label = new QLabel(this);
        box = new QSpinBox(this);
        box->setObjectName(QLatin1String(name));
        box->setRange(lo, hi);
        box->setValue(value);
        label->setBuddy(box);
        controls->addWidget(label);
        controls->addWidget(box);
        connect(box, &QSpinBox::valueChanged, this, &PlanView::changed);
    };
    spin(m_gpusLabel, m_gpus, "planGpus", 1, 4096, 8);
    spin(m_perNodeLabel, m_perNode, "planGpusPerNode", 1, 64, 8);
    spin(m_batchLabel, m_globalBatch, "planGlobalBatch", 1, 1 << 20, 64);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("planTabs"));
    layout->addWidget(m_tabs, 1);
    auto* page = new QWidget(m_tabs);
    auto* pageLayout = new QVBoxLayout(page);
    m_status = new QLabel(page);
    m_status->setWordWrap(true);
    pageLayout->addWidget(m_status);
    m_layoutsRun.bar = newProgressBar(page, "planProgress");
    pageLayout->addWidget(m_layoutsRun.bar);

    auto* body = new QHBoxLayout;
    m_table = newTable(page, "planTable", 16);
    body->addWidget(m_table, 3);
    m_layoutChart = buildFrontChart(page, "planChart", body, false, true);
    connect(m_layoutChart.chart, &QChart::plotAreaChanged, this, &PlanView::fitLayoutTicks);
    connect(m_layoutChart.chart, &QChart::plotAreaChanged, this, [this] { fitFrontTitle(m_layoutChart); });
    pageLayout->addLayout(body, 1);
    m_rejected = new QLabel(page);
    m_rejected->setObjectName(QStringLiteral("planRejected"));
    m_rejected->setWordWrap(true);
    pageLayout->addWidget(m_rejected);
    m_tabs->addTab(page, QString());
    buildTypesTab();

    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &PlanView::showProgress);
    connect(m_tabs, &QTabWidget::currentChanged, this, &PlanView::refresh);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (row >= 0 && row < int(m_result.layouts.size()))
            emit layoutRequested(m_result.layouts[std::size_t(row)].config);
    });
    setChartStyle(chartStyle(palette(), false));
    retranslate();
}

// The jobs, deleted after this, wait for their workers: cancelled, those stop at their next run of layouts.
PlanView::~PlanView() { cancelRuns(); }

void PlanView::cancelRuns()
{
    for (Run* run : { &m_layoutsRun, &m_typesRun }) {
        if (run->progress)
            run->progress->cancelled = true;
    }
}

PlanLevers PlanView::windowLevers()
{
    PlanLevers l;
    l.precision = l.optimizer = l.offload = true;
    l.onlyIfNeeded = true;
    return l;
}

bool PlanView::busy() const { return m_layoutsJob->busy(); }

void PlanView::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    showTypeCount(); // the scenario's GPU is always one of them
    changed();
}

void PlanView::showTypeCount() { m_typeButton->setText(tr("GPU t&ypes (%1)").arg(typeIds().size())); }

// A change makes the running plans out of date: they stop (their results are not shown) and the newer compute next.
void PlanView::changed()
{
    cancelRuns();
    m_layoutsJob->markStale();
    m_typesJob->markStale();
}

// The request for a run starting now, counting into a fresh progress.
PlanRequest PlanView::startRun(Run& run)
{
    run.progress = std::make_shared<PlanProgress>();
    run.since.start();
    m_progressTimer->start();
    PlanRequest r = request();
    r.progress = run.progress.get();
    return r;
}

// Each running plan's bar, once it has run a moment: layouts decided of those enumerated so far.
void PlanView::showProgress()
{
    bool any = false;
    for (auto [run, job] : { std::pair { &m_layoutsRun, m_layoutsJob }, std::pair { &m_typesRun, m_typesJob } }) {
        const bool running = job->running() && run->progress;
        any = any || running;
        const bool shown = running && run->since.elapsed() >= kProgressAfterMs;
        if (shown) {
            run->bar->setMaximum(int(std::min<std::int64_t>(run->progress->enumerated, 1 << 30)));
            run->bar->setValue(int(std::min<std::int64_t>(run->progress->decided, 1 << 30)));
        }
        if (run->bar->isVisible() != shown)
            run->bar->setVisible(shown);
    }
    if (!any)
        m_progressTimer->stop();
}

bool PlanView::typesVisible() const { return m_tabs->currentIndex() == 1; }

void PlanView::refresh() { (typesVisible() ? m_typesJob : m_layoutsJob)->start(); }

void PlanView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

PlanRequest PlanView::request() const
{
    PlanRequest r;
    r.base = m_scenario;
    r.gpus = m_gpus->value();
    r.gpusPerNode = m_perNode->value();
    r.globalBatch = m_globalBatch->value();
    r.levers = windowLevers();
    return r;
}

void PlanView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange)
        setChartStyle(chartStyle(palette(), false));
}

// The planner's reason in the window's language; a layout simulate() refused keeps the simulator's own message.
QString PlanView::reasonText(const PlanRejection& rejection)
{
    switch (rejection.kind) {
    case PlanReason::TpBeyondNode:
        return tr("t beyond a node: tensor parallelism keeps its ranks on one node");
    case PlanReason::HeadsNotDivisible:
        return tr("heads not divisible: t must divide the attention heads, key/value heads and FFN width");
    case PlanReason::AdaptersUnderTp:
        return tr("adapters (LoRA, QLoRA) under tensor parallelism are not modelled");
    case PlanReason::PpAboveBlocks:
        return tr("p above the blocks: each stage needs at least one block");
    case PlanReason::PpUneven:
        return tr("p does not divide the blocks evenly");
    case PlanReason::CpNeedsTokens:
        return tr("context parallelism needs a token sequence and fused attention");
    case PlanReason::CpTokens:
        return tr("context parallelism needs 2 cp to divide the tokens");
    case PlanReason::GlobalBatch:
        return tr("global batch not divisible by micro-batch x dp");
    case PlanReason::TooManyMicroBatches:
        return tr("more than 1048576 micro-batches per step");
    case PlanReason::Interleaving:
        return tr("interleaving needs 2p to divide the blocks and p the micro-batches per step");
    case PlanReason::SpTokens:
        return tr("sequence parallelism needs t to divide the tokens");
    case PlanReason::ZeroWithPipeline:
        return tr("ZeRO-2/3 with pipeline parallelism: DeepSpeed refuses the pair");
    case PlanReason::SelectiveNoScores:
        return tr("selective recomputation: the attention kernel saves no scores to recompute (the same as none)");
    case PlanReason::DoesNotFit:
        return tr("does not fit: the most loaded rank's peak is above the GPU's memory");
    case PlanReason::Refused:
        break;
    }
    return QString::fromStdString(rejection.reason);
}

LazyJob::Work PlanView::layoutsJob()
{
    const PlanRequest r = startRun(m_layoutsRun);
    m_status->setText(tr("Planning %n GPU(s)…", nullptr, r.gpus));
    auto catalog = LazyJob::snapshot(m_catalog, r.base.modelId, { r.base.gpuId });
    // `progress` lives while the worker counts into it (r.progress points to it).
    return [catalog, r, progress = m_layoutsRun.progress, self = this]() -> LazyJob::Show {
        auto p = std::make_shared<Expected<PlanResult>>(plan(*catalog, r));
        return [self, p] { // on the GUI thread
            self->showProgress();
            if (!*p && p->error().kind == ErrorKind::Cancelled)
                return; // superseded: the newer plan shows
            self->m_result = *p ? std::move(**p) : PlanResult {};
            self->m_error = *p ? QString() : errorText(p->error());
            self->m_planned = true;
            self->fillLayouts();
            emit self->planShown();
        };
    };
}

// The table, the chart, the rejections and the status of the plan shown, in the window's language.
void PlanView::fillLayouts()
{
    const int rows = std::min<int>(kShownLayouts, int(m_result.layouts.size()));
    m_table->setRowCount(rows);
    QList<QPointF> all, front;
    for (int i = 0; i < rows; ++i) {
        const PlanLayout& l = m_result.layouts[std::size_t(i)];
        const TrainingConfig& c = l.config;
        QString schedule = c.pipelineParallel == 1                ? QStringLiteral("–")
            : c.pipelineSchedule == PipelineSchedule::Interleaved ? tr("interleaved ×%1").arg(c.virtualStages)
                                                                  : text(toString(c.pipelineSchedule));
        // Megatron's uneven stages, where p does not divide the blocks.
        if (c.pipelineParallel > 1 && c.firstStageLayers > 0 && c.lastStageLayers > 0)
            schedule = tr("%1 · first and last stage %2 blocks each").arg(schedule).arg(c.firstStageLayers);
        else if (c.pipelineParallel > 1 && c.firstStageLayers > 0)
            schedule = tr("%1 · first stage %2 blocks").arg(schedule).arg(c.firstStageLayers);
        else if (c.pipelineParallel > 1 && c.lastStageLayers > 0)
            schedule = tr("%1 · last stage %2 blocks").arg(schedule).arg(c.lastStageLayers);
        const QStringList cells { QString::number(c.tensorParallel),
                                  QString::number(c.pipelineParallel),
                                  QString::number(c.contextParallel),
                                  QString::number(c.dataParallel),
                                  QString::number(c.expertParallel),
                                  schedule,
                                  c.sequenceParallel ? tr("on") : QStringLiteral("–"),
                                  QString::number(c.zeroStage),
                                  Labels::checkpointing(c.checkpointing),
                                  QString::number(c.microBatch),
                                  QString::number(c.gradientAccumulation),
                                  formatGiB(l.peakBytes),
                                  formatSeconds(l.stepSeconds),
                                  formatCount(l.throughputPerSecond),
                                  formatPercent(l.mfu) + (l.pareto ? QStringLiteral(" ★") : QString()),
                                  leversText(l.levers) };
        setRow(m_table, i, cells);
    }
    double maxPeak = 0.0, minStep = 1e300, maxStep = 0.0;
    for (const PlanLayout& l : m_result.layouts) {
        if (!l.fits)
            continue;
        const QPointF p(units::toGiB(l.peakBytes), l.stepSeconds);
        all << p;
        if (l.pareto)
            front << p;
        maxPeak = std::max(maxPeak, p.x());
        minStep = std::min(minStep, p.y());
        maxStep = std::max(maxStep, p.y());
    }
    std::sort(front.begin(), front.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    replaceIfChanged(m_layoutChart.points, all);
    replaceIfChanged(m_layoutChart.front, front);
    setStableTop(static_cast<QValueAxis*>(m_layoutChart.x), maxPeak * 1.05);
    // Step times span decades (a 512-GPU plan: 3 s to 6 h): whole decades on a logarithmic axis, so that the fast
    // layouts and the front are not pressed flat under the slowest.
    if (minStep > 0.0 && maxStep >= minStep) {
        const double lo = std::pow(10.0, std::floor(std::log10(minStep)));
        const double hi = std::max(lo * 10.0, std::pow(10.0, std::ceil(std::log10(maxStep))));
        m_layoutChart.y->setRange(lo, hi);
    }
    fitLayoutTicks();
    QStringList reasons;
    for (const PlanRejection& x : m_result.rejected)
        reasons << tr("%1 × %2").arg(x.count).arg(reasonText(x));
    m_rejected->setText(reasons.isEmpty() ? QString() : tr("Rejected: %1").arg(reasons.join(QStringLiteral("; "))));
    m_status->setText(status());
}

QString PlanView::status() const
{
    if (!m_error.isEmpty())
        return m_error;
    const bool fits = !m_result.layouts.empty() && m_result.layouts.front().fits;
    if (!fits) {
        QString t = tr("%n layout(s) simulated; none fits: the lowest peaks are listed.", nullptr,
                       int(m_result.evaluated));
        QStringList levers, gpus;
        for (const PlanSuggestion& x : m_result.suggestions)
            levers << QString::fromStdString(x.lever);
        for (std::size_t i = 0; i < m_result.largerGpus.size() && i < 4; ++i)
            gpus << QString::fromStdString(m_result.largerGpus[i]);
        if (!levers.isEmpty())
            t += QLatin1Char(' ') + tr("It would fit with: %1.").arg(levers.join(QStringLiteral(", ")));
        if (!gpus.isEmpty())
            t += QLatin1Char(' ')
                + tr("GPUs with room for the nearest layout: %1.").arg(gpus.join(QStringLiteral(", ")));
        return t;
    }
    return tr("%n layout(s) simulated; those that fit, fastest first (★ on the front of memory per GPU against "
              "step time). Double-click one to apply it.",
              nullptr, int(m_result.evaluated));
}

void PlanView::retranslate()
{
    m_gpusLabel->setText(tr("&GPUs"));
    m_perNodeLabel->setText(tr("per &node"));
    m_batchLabel->setText(tr("global &batch"));
    for (QProgressBar* bar : { m_layoutsRun.bar, m_typesRun.bar })
        bar->setFormat(tr("%v of %m layouts decided")); // Qt's placeholders: the value and the maximum
    m_table->setHorizontalHeaderLabels({ tr("t"), tr("p"), tr("cp"), tr("dp"), tr("ep"), tr("schedule"), tr("SP"),
                                         tr("ZeRO"), tr("checkpointing"), tr("micro-batch"), tr("accumulation"),
                                         tr("peak/GPU"), tr("step"), tr("throughput"), tr("MFU"), tr("levers") });
    m_layoutChart.title = tr("Layouts that fit: step time against memory per GPU");
    fitFrontTitle(m_layoutChart);
    m_tabs->setTabText(0, tr("Layouts"));
    m_tabs->setTabText(1, tr("GPU types"));
    m_tokensLabel->setText(tr("&tokens to train (billions)"));
    showTypeCount();
    m_typesTable->setHorizontalHeaderLabels({ tr("GPU"), tr("time to train"), tr("GPU-hours"), tr("USD per GPU-hour"),
                                              tr("cost"), tr("throughput"), tr("peak/GPU"), tr("levers"),
                                              tr("fastest layout") });
    m_typesTable->horizontalHeaderItem(kPriceColumn)
        ->setToolTip(tr("Type what a GPU-hour of this type costs you: the cost is the GPU-hours times it"));
    m_typesStatus->setText(m_typesJob->running() ? tr("Planning %n GPU type(s)…", nullptr, int(typeIds().size()))
                                                 : typesStatus());
    if (m_layoutsJob->running()) // a plan started before the switch says so in the new language
        m_status->setText(tr("Planning %n GPU(s)…", nullptr, m_gpus->value()));
    m_layoutChart.x->setTitleText(tr("peak per GPU (GiB)"));
    m_layoutChart.y->setTitleText(tr("step (s)")); // logarithmic: its labels say so (1, 10, 100)
    m_layoutChart.points->setName(tr("layouts"));
    m_layoutChart.front->setName(tr("Pareto front"));
    m_typeChart.title = tr("GPU types that fit: time to train against what it costs");
    fitFrontTitle(m_typeChart);
    m_typeChart.y->setTitleText(tr("time (h)"));
    m_typeChart.points->setName(tr("GPU types"));
    m_typeChart.front->setName(tr("none both faster and cheaper"));
    showTypeChart();
    // What is shown already, in the new language (a plan that came in before the switch: its checkpointing, its
    // schedules, the types' "does not fit").
    if (m_planned && !m_layoutsJob->running())
        fillLayouts();
    if (!m_typesJob->running() && (!m_types.empty() || !m_typesError.isEmpty()))
        fillTypes();
}

void PlanView::setChartStyle(const ChartStyle& style)
{
    for (const FrontChart* c : { &m_layoutChart, &m_typeChart }) {
        applyStyle(c->chart, style);
        for (QAbstractAxis* a : std::initializer_list<QAbstractAxis*> { c->x, c->y })
            applyAxisStyle(a, style);
        c->points->setColor(QColor(0x56, 0xB4, 0xE9));
        c->points->setBorderColor(QColor(0x56, 0xB4, 0xE9));
        c->front->setPen(QPen(QColor(0xD5, 0x5E, 0x00), style.lineWidth));
    }
    placeTypeNames(); // the names take the axis labels' font and colour
}

PlanView::FrontChart PlanView::buildFrontChart(QWidget* page, const char* objectName, QHBoxLayout* into, bool logX,
                                               bool logY)
{
    auto* view = new QChartView(page);
    view->setObjectName(QLatin1String(objectName));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(280, 260);
    FrontChart c;
    c.chart = view->chart(); // the view's own: setChart() would hand it back to us, to leak
    c.chart->legend()->setAlignment(Qt::AlignBottom);
    for (auto [axis, logarithmic] : { std::pair { &c.x, logX }, std::pair { &c.y, logY } }) {
        if (logarithmic) {
            auto* log = new QLogValueAxis(c.chart);
            log->setLabelFormat(QStringLiteral("%g"));
            log->setMinorTickCount(8);
            *axis = log;
        } else {
            *axis = new QValueAxis(c.chart);
        }
    }
    c.chart->addAxis(c.x, Qt::AlignBottom);
    c.chart->addAxis(c.y, Qt::AlignLeft);
    c.points = new QScatterSeries(c.chart);
    c.points->setMarkerSize(7);
    c.front = new QLineSeries(c.chart);
    c.front->setPointsVisible(true);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { c.points, c.front }) {
        c.chart->addSeries(s);
        s->attachAxis(c.x);
        s->attachAxis(c.y);
    }
    into->addWidget(view, 2);
    return c;
}

std::vector<std::string> PlanView::defaultTypeIds() { return { "rtx-3090", "a100-sxm4-80gb", "h100-sxm5-80gb" }; }

void PlanView::buildTypesTab()
{
    auto* page = new QWidget(m_tabs);
    auto* layout = new QVBoxLayout(page);
    auto* controls = new QHBoxLayout;
    m_tokensLabel = new QLabel(page);
    m_tokens = new QDoubleSpinBox(page);
    m_tokens->setObjectName(QStringLiteral("planTokens"));
    m_tokens->setRange(0.001, 1e6);
    m_tokens->setDecimals(3);
    m_tokens->setValue(2.0); // issue 31's question: a 7B model on 2B tokens
    m_tokensLabel->setBuddy(m_tokens);
    connect(m_tokens, &QDoubleSpinBox::valueChanged, this, &PlanView::changed);
    m_typeButton = new QToolButton(page);
    m_typeButton->setObjectName(QStringLiteral("planGpuTypes"));
    m_typeButton->setPopupMode(QToolButton::InstantPopup);
    m_typeMenu = new QMenu(m_typeButton);
    m_typeButton->setMenu(m_typeMenu);
    connect(m_typeMenu, &QMenu::aboutToShow, this, &PlanView::fillTypeMenu);
    controls->addWidget(m_tokensLabel);
    controls->addWidget(m_tokens);
    controls->addWidget(m_typeButton);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_typesStatus = new QLabel(page);
    m_typesStatus->setObjectName(QStringLiteral("planTypesStatus"));
    m_typesStatus->setWordWrap(true);
    layout->addWidget(m_typesStatus);
    m_typesRun.bar = newProgressBar(page, "planTypesProgress");
    layout->addWidget(m_typesRun.bar);
    m_typesTable = newTable(page, "planTypesTable", 9);
    // Only the price is typed in (its items alone are editable); a double-click elsewhere applies the row.
    m_typesTable->setEditTriggers(QAbstractItemView::SelectedClicked | QAbstractItemView::EditKeyPressed
                                  | QAbstractItemView::AnyKeyPressed);
    auto* body = new QHBoxLayout;
    body->addWidget(m_typesTable, 3);
    m_typeChart = buildFrontChart(page, "planTypesChart", body, true, true);
    layout->addLayout(body, 1);
    connect(m_typeChart.chart, &QChart::plotAreaChanged, this, &PlanView::placeTypeNames);
    connect(m_typeChart.chart, &QChart::plotAreaChanged, this, [this] { fitFrontTitle(m_typeChart); });
    connect(m_typesTable, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == kPriceColumn && item->row() < int(m_types.size()))
            setPrice(m_types[std::size_t(item->row())].gpuId, item->text());
    });
    connect(m_typesTable, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
        if (column == kPriceColumn || row < 0 || row >= int(m_types.size()) || !m_types[std::size_t(row)].fits)
            return;
        const GpuTypePlan& t = m_types[std::size_t(row)];
        emit gpuLayoutRequested(QString::fromStdString(t.gpuId), t.plan.layouts.front().config);
    });
    m_tabs->addTab(page, QString());
}

// Every GPU of the catalog, ticked where the tab compares it; the scenario's own GPU is always compared.
void PlanView::fillTypeMenu()
{
    m_typeMenu->clear();
    for (const GpuSpec& g : m_catalog.gpus()) {
        QAction* a = m_typeMenu->addAction(QString::fromStdString(g.name));
        a->setCheckable(true);
        const bool own = g.id == m_scenario.gpuId;
        a->setChecked(own || std::find(m_typeIds.begin(), m_typeIds.end(), g.id) != m_typeIds.end());
        a->setEnabled(!own);
        connect(a, &QAction::toggled, this, [this, id = g.id](bool on) {
            std::vector<std::string> ids = m_typeIds;
            std::erase(ids, id);
            if (on)
                ids.push_back(id);
            setTypeIds(ids);
        });
    }
}

std::vector<std::string> PlanView::typeIds() const
{
    std::vector<std::string> ids { m_scenario.gpuId };
    for (const std::string& id : m_typeIds) {
        if (m_catalog.gpu(id) && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    }
    return ids;
}

void PlanView::setTypeIds(const std::vector<std::string>& ids)
{
    m_typeIds = ids;
    showTypeCount();
    changed();
}

double PlanView::tokens() const { return m_tokens->value() * 1e9; }

LazyJob::Work PlanView::typesJob()
{
    const PlanRequest r = startRun(m_typesRun);
    const std::vector<std::string> ids = typeIds();
    const double tokens = this->tokens();
    m_typesStatus->setText(tr("Planning %n GPU type(s)…", nullptr, int(ids.size())));
    auto catalog = LazyJob::snapshot(m_catalog, r.base.modelId, ids);
    // `progress` lives while the worker counts into it (r.progress points to it).
    return [catalog, r, ids, tokens, progress = m_typesRun.progress, self = this]() -> LazyJob::Show {
        auto t = std::make_shared<Expected<std::vector<GpuTypePlan>>>(planGpuTypes(*catalog, r, ids, tokens));
        return [self, t] { // on the GUI thread
            self->showProgress();
            if (!*t && t->error().kind == ErrorKind::Cancelled)
                return; // superseded: the newer plans show
            self->m_types = *t ? std::move(**t) : std::vector<GpuTypePlan> {};
            self->m_typesError = *t ? QString() : errorText(t->error());
            self->fillTypes();
            emit self->typePlansShown();
        };
    };
}

QString PlanView::priceText(const std::string& gpuId) const
{
    const auto p = m_prices.find(gpuId);
    return p == m_prices.end() ? QString() : QLocale().toString(p->second, 'f', 2);
}

QString PlanView::costText(const GpuTypePlan& t) const
{
    const auto cost = gpuTypeCost(t, m_prices);
    return cost ? tr("$%1").arg(QLocale().toString(*cost, 'f', 0)) : QStringLiteral("–");
}

std::optional<double> PlanView::price(const std::string& gpuId) const
{
    const auto p = m_prices.find(gpuId);
    return p == m_prices.end() ? std::nullopt : std::optional<double>(p->second);
}

// A price typed into the table, in the window's locale or with a dot ("2,5" and "2.5" in German, "$2.5"): the
// row's cost follows; anything else clears the price.
void PlanView::setPrice(const std::string& gpuId, const QString& typed)
{
    QString v = typed.trimmed();
    v.remove(QLatin1Char('$'));
    bool ok = false;
    double usd = QLocale().toDouble(v, &ok);
    if (!ok)
        usd = QLocale::c().toDouble(v, &ok);
    if (ok && usd >= 0.0 && usd <= 1e6)
        m_prices[gpuId] = usd;
    else
        m_prices.erase(gpuId);
    const QSignalBlocker blocker(m_typesTable);
    for (int i = 0; i < int(m_types.size()); ++i) {
        if (m_types[std::size_t(i)].gpuId != gpuId)
            continue;
        m_typesTable->item(i, kPriceColumn)->setText(priceText(gpuId));
        m_typesTable->item(i, kCostColumn)->setText(costText(m_types[std::size_t(i)]));
    }
    showTypeChart();
}

// The GPU types' table, status and chart, in the window's language.
void PlanView::fillTypes()
{
    const QSignalBlocker blocker(m_typesTable);
    m_typesTable->setRowCount(int(m_types.size()));
    const ModelSpec* model = m_catalog.model(m_scenario.modelId);
    const bool vision = model && model->isVision();
    for (int i = 0; i < int(m_types.size()); ++i) {
        const GpuTypePlan& t = m_types[std::size_t(i)];
        const GpuSpec* g = m_catalog.gpu(t.gpuId);
        const QString name = g ? QString::fromStdString(g->name) : QString::fromStdString(t.gpuId);
        const PlanLayout* best = t.plan.layouts.empty() ? nullptr : &t.plan.layouts.front();
        const QString none = QStringLiteral("–");
        if (!t.fits || !best) {
            const QString lowest = best ? tr("lowest peak %1").arg(formatGiB(best->peakBytes)) : none;
            setRow(m_typesTable, i,
                   { name, tr("does not fit"), none, priceText(t.gpuId), none, none, lowest, none, none });
            continue;
        }
        setRow(m_typesTable, i,
               { name, formatDuration(t.seconds), QLocale().toString(t.gpuHours, 'f', 0), priceText(t.gpuId),
                 costText(t), formatRate(best->throughputPerSecond, vision ? tr("images") : tr("tokens")),
                 formatGiB(best->peakBytes), leversText(best->levers), layoutText(best->config) });
    }
    for (int i = 0; i < m_typesTable->rowCount(); ++i) {
        for (int k = 0; k < m_typesTable->columnCount(); ++k) {
            QTableWidgetItem* item = m_typesTable->item(i, k);
            item->setFlags(k == kPriceColumn ? item->flags() | Qt::ItemIsEditable
                                             : item->flags() & ~Qt::ItemIsEditable);
        }
    }
    m_typesStatus->setText(typesStatus());
    showTypeChart();
}

// A dot per GPU type that fits at (its cost, or its GPU-hours while a type that fits has no price; the hours to
// train), and the front through those that no other type beats in both (gpuTypeFront).
void PlanView::showTypeChart()
{
    m_typeFront = gpuTypeFront(m_types, m_prices);
    QList<QPointF> dots, front;
    double minX = 1e300, maxX = 0.0, minY = 1e300, maxY = 0.0;
    for (std::size_t i = 0; i < m_types.size(); ++i) {
        if (!m_types[i].fits)
            continue;
        const QPointF p(m_typeFront.against(m_types[i], m_prices), m_types[i].seconds / 3600.0);
        dots << p;
        if (m_typeFront.onFront[i])
            front << p;
        minX = std::min(minX, p.x());
        maxX = std::max(maxX, p.x());
        minY = std::min(minY, p.y());
        maxY = std::max(maxY, p.y());
    }
    std::sort(front.begin(), front.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    replaceIfChanged(m_typeChart.points, dots);
    replaceIfChanged(m_typeChart.front, front);
    if (!dots.isEmpty() && minX > 0.0 && minY > 0.0) { // half a decade of room around the dots for their names
        m_typeChart.x->setRange(minX / 3.0, maxX * 3.0);
        m_typeChart.y->setRange(minY / 3.0, maxY * 3.0);
    }
    m_typeChart.x->setTitleText(m_typeFront.byCost ? tr("cost (USD)") : tr("GPU-hours (type prices for the cost)"));
    placeTypeNames();
}

// Qt Charts cuts a title wider than the chart ("Layouts that fit: step time against me.." at 1024x768): on two
// lines it shows whole.
void PlanView::fitFrontTitle(const FrontChart& f)
{
    const QString title = fittedTitle(f.chart, f.title);
    if (f.chart->title() != title)
        f.chart->setTitle(title);
}

// Six ticks on the memory axis where each label has room, else three (0, half, the top): in a narrow panel
// (presentation mode at 1024x768) Qt Charts cut "12.0" and "16.0" to "1...". The step axis is logarithmic: a tick
// per decade.
void PlanView::fitLayoutTicks()
{
    auto* axis = static_cast<QValueAxis*>(m_layoutChart.x);
    if (axis->labelFormat() != QLatin1String("%g"))
        axis->setLabelFormat(QStringLiteral("%g"));
    const QFontMetricsF fm(axis->labelsFont());
    const double widest = fm.horizontalAdvance(QString::number(axis->max(), 'g', 6)) + 12.0;
    const int count = m_layoutChart.chart->plotArea().width() / 6.0 >= widest ? 6 : 3;
    if (axis->tickCount() != count)
        axis->setTickCount(count);
}

// Each dot's GPU name (short, as the GPU comparison's) beside it (namePlace), joined to its dot by a thin line
// where it had to move away from it.
void PlanView::placeTypeNames()
{
    QChart* c = m_typeChart.chart;
    std::vector<QRectF> taken; // the dots, then each name placed
    for (const QPointF& p : m_typeChart.points->points()) {
        const QPointF at = c->mapToPosition(p, m_typeChart.points);
        taken.emplace_back(at.x() - 4.0, at.y() - 4.0, 8.0, 8.0);
    }
    const std::size_t dots = taken.size();
    std::size_t shown = 0;
    for (const GpuTypePlan& t : m_types) {
        if (!t.fits)
            continue;
        if (shown == m_typeNames.size()) {
            m_typeNames.push_back(new QGraphicsSimpleTextItem(c));
            m_typeNames.back()->setZValue(10);
            m_typeLeaders.push_back(new QGraphicsLineItem(c));
            m_typeLeaders.back()->setZValue(9);
        }
        QGraphicsSimpleTextItem* name = m_typeNames[shown];
        QGraphicsLineItem* leader = m_typeLeaders[shown++];
        const GpuSpec* g = m_catalog.gpu(t.gpuId);
        name->setText(g ? GpuComparisonModel::shortName(*g) : QString::fromStdString(t.gpuId));
        name->setFont(m_typeChart.x->labelsFont());
        name->setBrush(m_typeChart.x->labelsBrush());
        const QPointF at = c->mapToPosition(QPointF(m_typeFront.against(t, m_prices), t.seconds / 3600.0),
                                            m_typeChart.points);
        const QRectF place = namePlace(at, name->boundingRect().size(), c->plotArea(), taken, dots);
        taken.push_back(place);
        name->setPos(place.topLeft());
        name->setVisible(true);
        const QPointF near(std::clamp(at.x(), place.left(), place.right()),
                           std::clamp(at.y(), place.top(), place.bottom()));
        leader->setLine(QLineF(at, near));
        leader->setPen(QPen(m_typeChart.x->labelsBrush().color(), 0.8));
        leader->setVisible(QLineF(at, near).length() > 10.0);
    }
    for (std::size_t k = shown; k < m_typeNames.size(); ++k) {
        m_typeNames[k]->setVisible(false);
        m_typeLeaders[k]->setVisible(false);
    }
}

QStringList PlanView::typeNamesShown() const
{
    QStringList names;
    for (const QGraphicsSimpleTextItem* n : m_typeNames)
        if (n->isVisible())
            names << n->text();
    return names;
}

QString PlanView::typesStatus() const
{
    if (!m_typesError.isEmpty())
        return m_typesError;
    if (m_types.empty())
        return QString();
    return tr("The same job on %n GPU(s) of each type: the time to train %1 and the GPU-hours, by the fastest layout "
              "that fits (as `headroom plan --gpu … --tokens`), fastest first. Type a price per GPU-hour for the cost; "
              "double-click a type to apply its GPU and layout.",
              nullptr, m_gpus->value())
        .arg(tr("%1 billion tokens").arg(QLocale().toString(m_tokens->value(), 'g', 6)));
}

} // namespace headroom::gui
