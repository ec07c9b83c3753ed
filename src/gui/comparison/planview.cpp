#include "planview.h"

#include "formatting.h"
#include "units.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace headroom::gui {

namespace {

    constexpr int kShownLayouts = 50;

    QString text(std::string_view s) { return QString::fromLatin1(s.data(), qsizetype(s.size())); }

    // The planner's names (bf16-pure, adamw-8bit, offload, qlora), as `headroom plan` prints them.
    QString leversText(const std::vector<std::string>& levers)
    {
        QStringList l;
        for (const std::string& x : levers)
            l << QString::fromStdString(x);
        return l.isEmpty() ? QStringLiteral("–") : l.join(QLatin1Char('+'));
    }

} // namespace

PlanView::PlanView(const Catalog& catalog, QWidget* parent)
    : QWidget(parent)
    , m_catalog(catalog)
    , m_debounce(new QTimer(this))
    , m_watcher(new QFutureWatcher<Outcome>(this))
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
        connect(box, &QSpinBox::valueChanged, this, [this] {
            m_dirty = true;
            if (isVisible())
                m_debounce->start();
        });
    };
    spin(m_gpusLabel, m_gpus, "planGpus", 1, 4096, 8);
    spin(m_perNodeLabel, m_perNode, "planGpusPerNode", 1, 64, 8);
    spin(m_batchLabel, m_globalBatch, "planGlobalBatch", 1, 1 << 20, 64);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto* body = new QHBoxLayout;
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setColumnCount(16);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    body->addWidget(m_table, 3);
    auto* chartView = new QChartView(this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumSize(280, 260);
    m_chart = chartView->chart(); // the view's own: setChart() would hand it back to us, to leak
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_x = new QValueAxis(m_chart);
    m_y = new QValueAxis(m_chart);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_layouts = new QScatterSeries(m_chart);
    m_layouts->setMarkerSize(7);
    m_front = new QLineSeries(m_chart);
    m_front->setPointsVisible(true);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_layouts, m_front }) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    body->addWidget(chartView, 2);
    layout->addLayout(body, 1);
    m_rejected = new QLabel(this);
    m_rejected->setObjectName(QStringLiteral("planRejected"));
    m_rejected->setWordWrap(true);
    layout->addWidget(m_rejected);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        if (isVisible())
            start();
    });
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        show(m_watcher->result());
        if (m_dirty && isVisible())
            start(); // a change came in while this plan ran
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (row >= 0 && row < int(m_result.layouts.size()))
            emit layoutRequested(m_result.layouts[std::size_t(row)].config);
    });
    setChartStyle(chartStyle(palette(), false));
    retranslate();
}

PlanView::~PlanView() { m_watcher->waitForFinished(); }

PlanLevers PlanView::windowLevers()
{
    PlanLevers l;
    l.precision = l.optimizer = l.offload = true;
    l.onlyIfNeeded = true;
    return l;
}

bool PlanView::busy() const { return m_watcher->isRunning() || m_dirty; }

void PlanView::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    m_dirty = true;
    if (isVisible())
        m_debounce->start();
}

void PlanView::refresh()
{
    if (m_dirty)
        start();
}

void PlanView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        start();
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
    case PlanReason::SelectiveFused:
        return tr("selective recomputation: fused attention saves nothing it would recompute (the same as none)");
    case PlanReason::DoesNotFit:
        return tr("does not fit: the most loaded rank's peak is above the GPU's memory");
    case PlanReason::Refused:
        break;
    }
    return QString::fromStdString(rejection.reason);
}

void PlanView::start()
{
    m_debounce->stop();
    if (m_watcher->isRunning())
        return; // finished() starts the newest request
    m_dirty = false;
    PlanRequest r;
    r.base = m_scenario;
    r.gpus = m_gpus->value();
    r.gpusPerNode = m_perNode->value();
    r.globalBatch = m_globalBatch->value();
    r.levers = windowLevers();
    const unsigned generation = ++m_generation;
    m_status->setText(tr("Planning %n GPU(s)…", nullptr, r.gpus));
    // The worker gets its own copy of the model and the GPU: importing a model or editing a GPU while it plans
    // changes the window's catalog, which the worker must not be reading.
    auto catalog = std::make_shared<Catalog>();
    if (const ModelSpec* m = m_catalog.model(r.base.modelId))
        catalog->addModel(*m);
    if (const GpuSpec* g = m_catalog.gpu(r.base.gpuId))
        catalog->addGpu(*g);
    m_watcher->setFuture(QtConcurrent::run([catalog, r, generation] {
        Outcome o;
        o.generation = generation;
        auto p = plan(*catalog, r);
        if (p)
            o.result = std::move(*p);
        else
            o.error = QString::fromStdString(p.error().field + ": " + p.error().message);
        return o;
    }));
}

void PlanView::show(const Outcome& o)
{
    m_result = o.result;
    m_error = o.error;
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
                                  text(toString(c.checkpointing)),
                                  QString::number(c.microBatch),
                                  QString::number(c.gradientAccumulation),
                                  formatGiB(l.peakBytes),
                                  formatSeconds(l.stepSeconds),
                                  formatCount(l.throughputPerSecond),
                                  formatPercent(l.mfu) + (l.pareto ? QStringLiteral(" ★") : QString()),
                                  leversText(l.levers) };
        for (int k = 0; k < cells.size(); ++k) {
            auto* item = m_table->item(i, k);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(i, k, item);
            }
            item->setText(cells[k]);
        }
    }
    double maxPeak = 0.0, maxStep = 0.0;
    for (const PlanLayout& l : m_result.layouts) {
        if (!l.fits)
            continue;
        const QPointF p(units::toGiB(l.peakBytes), l.stepSeconds);
        all << p;
        if (l.pareto)
            front << p;
        maxPeak = std::max(maxPeak, p.x());
        maxStep = std::max(maxStep, p.y());
    }
    std::sort(front.begin(), front.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    replaceIfChanged(m_layouts, all);
    replaceIfChanged(m_front, front);
    setStableTop(m_x, maxPeak * 1.05);
    setStableTop(m_y, maxStep * 1.05);
    QStringList reasons;
    for (const PlanRejection& x : m_result.rejected)
        reasons << tr("%1 × %2").arg(x.count).arg(reasonText(x));
    m_rejected->setText(reasons.isEmpty() ? QString() : tr("Rejected: %1").arg(reasons.join(QStringLiteral("; "))));
    m_status->setText(status());
    emit planShown();
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
    m_table->setHorizontalHeaderLabels({ tr("t"), tr("p"), tr("cp"), tr("dp"), tr("ep"), tr("schedule"), tr("SP"),
                                         tr("ZeRO"), tr("checkpointing"), tr("micro-batch"), tr("accumulation"),
                                         tr("peak/GPU"), tr("step"), tr("throughput"), tr("MFU"), tr("levers") });
    m_chart->setTitle(tr("Layouts that fit: step time against memory per GPU"));
    if (m_watcher->isRunning()) // a plan started before the switch says so in the new language
        m_status->setText(tr("Planning %n GPU(s)…", nullptr, m_gpus->value()));
    m_x->setTitleText(tr("peak per GPU (GiB)"));
    m_y->setTitleText(tr("step (s)"));
    m_layouts->setName(tr("layouts"));
    m_front->setName(tr("Pareto front"));
    if (m_generation > 0 && !m_watcher->isRunning())
        m_status->setText(status());
}

void PlanView::setChartStyle(const ChartStyle& style)
{
    applyStyle(m_chart, style);
    for (QAbstractAxis* a : std::initializer_list<QAbstractAxis*> { m_x, m_y })
        applyAxisStyle(a, style);
    m_layouts->setColor(QColor(0x56, 0xB4, 0xE9));
    m_layouts->setBorderColor(QColor(0x56, 0xB4, 0xE9));
    m_front->setPen(QPen(QColor(0xD5, 0x5E, 0x00), style.lineWidth));
}

} // namespace headroom::gui
