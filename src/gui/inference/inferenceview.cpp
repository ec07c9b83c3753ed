#include "inferenceview.h"
#include "wrappedlabel.h"

#include "chartstyle.h"
#include "formatting.h"
#include "ui_inferenceview.h"
#include "units.h"

#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QLocale>
#include <QPen>
#include <QScatterSeries>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QValueAxis>

#include <algorithm>

namespace headroom::gui {

namespace {

    // The formats in the order a 12 GB user reaches for them; the codes are the command line's (--weights).
    constexpr WeightFormat kFormats[] = {
        WeightFormat::Fp16,       WeightFormat::Bf16,     WeightFormat::GgufQ4_K_M, WeightFormat::GgufQ5_K_M,
        WeightFormat::GgufQ8_0,   WeightFormat::GgufQ6_K, WeightFormat::GgufQ5_0,   WeightFormat::GgufQ4_0,
        WeightFormat::GgufQ3_K_M, WeightFormat::GgufQ2_K, WeightFormat::GgufIq4_XS, WeightFormat::Awq4,
        WeightFormat::Gptq4,      WeightFormat::Nf4,      WeightFormat::Int8,       WeightFormat::Fp8,
        WeightFormat::Fp32,
    };

    QString code(std::string_view s) { return QString::fromLatin1(s.data(), qsizetype(s.size())); }

} // namespace

InferenceView::InferenceView(const Catalog& catalog, QWidget* parent)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::InferenceView>())
    , m_catalog(catalog)
{
    m_ui->setupUi(this);
    m_ui->resultLabel->installEventFilter(this); // fitResultLabel() at each width
    for (WeightFormat f : kFormats)
        m_ui->weightsCombo->addItem(code(toString(f)), int(f));
    // Cache element types by name ("Q8_0"); the command line's ids stay in the item data.
    for (int k = 0; k < 5; ++k)
        m_ui->kvCombo->addItem(code(toString(KvCacheType(k))).toUpper(), k);

    // The view's own chart: QChartView::setChart() would hand the one it made back to us, to leak.
    m_chart = m_ui->contextChart->chart();
    m_chart->legend()->hide();
    m_peak = new QLineSeries(m_chart);
    m_capacity = new QLineSeries(m_chart);
    m_current = new QScatterSeries(m_chart);
    m_current->setMarkerSize(10);
    m_x = new QValueAxis(m_chart);
    m_y = new QValueAxis(m_chart);
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (QXYSeries* s : std::initializer_list<QXYSeries*> { m_peak, m_capacity, m_current }) {
        m_chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_ui->contextChart->setRenderHint(QPainter::Antialiasing);

    auto changed = [this] {
        m_dirty = true;
        if (isVisible())
            compute();
    };
    connect(m_ui->weightsCombo, &QComboBox::currentIndexChanged, this, changed);
    connect(m_ui->weightsCombo, &QComboBox::activated, this, [this] { m_weightsChosen = true; });
    connect(m_ui->kvCombo, &QComboBox::currentIndexChanged, this, changed);
    for (QSpinBox* s : { m_ui->batchSpin, m_ui->promptSpin, m_ui->generateSpin, m_ui->tpSpin })
        connect(s, &QSpinBox::valueChanged, this, changed);
    retranslate();
}

InferenceView::~InferenceView() = default;

InferenceConfig InferenceView::config() const
{
    InferenceConfig c;
    c.weights = WeightFormat(m_ui->weightsCombo->currentData().toInt());
    c.kvCache = KvCacheType(m_ui->kvCombo->currentData().toInt());
    c.batch = m_ui->batchSpin->value();
    c.prompt = m_ui->promptSpin->value();
    c.generate = m_ui->generateSpin->value();
    c.tensorParallel = m_ui->tpSpin->value();
    return c;
}

void InferenceView::setConfig(const InferenceConfig& c)
{
    m_weightsChosen = true;
    m_ui->weightsCombo->setCurrentIndex(m_ui->weightsCombo->findData(int(c.weights)));
    m_ui->kvCombo->setCurrentIndex(m_ui->kvCombo->findData(int(c.kvCache)));
    m_ui->batchSpin->setValue(int(std::min<std::int64_t>(c.batch, m_ui->batchSpin->maximum())));
    m_ui->promptSpin->setValue(int(std::min<std::int64_t>(c.prompt, m_ui->promptSpin->maximum())));
    m_ui->generateSpin->setValue(int(std::min<std::int64_t>(c.generate, m_ui->generateSpin->maximum())));
    m_ui->tpSpin->setValue(c.tensorParallel);
    refresh();
}

void InferenceView::setScenario(const Scenario& scenario)
{
    // The weights as the scenario holds them (a QLoRA base in NF4), until the user picks a format.
    const WeightFormat weights = servingWeights(scenario.config);
    const bool follow = !m_weightsChosen && m_ui->weightsCombo->currentData().toInt() != int(weights);
    if (follow) {
        const QSignalBlocker quiet(m_ui->weightsCombo); // computed once, below
        m_ui->weightsCombo->setCurrentIndex(m_ui->weightsCombo->findData(int(weights)));
    }
    if (m_haveScenario && !follow && scenario.gpuId == m_scenario.gpuId && scenario.modelId == m_scenario.modelId
        && scenario.overrides == m_scenario.overrides)
        return; // the other training settings do not change what serving needs
    if (scenario.modelId != m_scenario.modelId)
        fitContext(m_catalog.model(scenario.modelId));
    m_scenario.gpuId = scenario.gpuId;
    m_scenario.modelId = scenario.modelId;
    m_scenario.overrides = scenario.overrides;
    m_haveScenario = true;
    updateFormatNames();
    m_dirty = true;
    if (isVisible())
        compute();
}

// A model picked whose learned positions are fewer than the context asked (GPT-2 XL's 1024 against the panel's 2048
// + 256): the prompt shortened to what it serves, the generated tokens kept to a quarter of it at most. The panel
// opened on its error message alone.
void InferenceView::fitContext(const ModelSpec* model)
{
    const auto limit = model ? servingContextLimit(*model) : std::nullopt;
    const std::int64_t prompt = m_ui->promptSpin->value(), generate = m_ui->generateSpin->value();
    if (!limit || prompt + generate <= *limit || *limit < 2)
        return;
    const std::int64_t kept = std::clamp<std::int64_t>(generate, 1, *limit / 4);
    const QSignalBlocker quietPrompt(m_ui->promptSpin), quietGenerate(m_ui->generateSpin); // computed once, after
    m_ui->generateSpin->setValue(int(kept));
    m_ui->promptSpin->setValue(int(*limit - kept));
}

void InferenceView::refresh()
{
    m_dirty = true;
    compute();
}

void InferenceView::compute()
{
    if (!m_haveScenario || !m_dirty)
        return;
    m_dirty = false;
    m_scenario.config = config();
    const ModelSpec* model = m_catalog.model(m_scenario.modelId);
    auto r = simulateInference(m_catalog, m_scenario);
    if (r) {
        m_result = std::move(*r);
        m_error.clear();
    } else {
        m_result.reset();
        m_error = errorText(r.error(), model);
    }
    if (model)
        showResult(*model);
    // Without a result (an encoder, an unsplittable head count) the message alone: an empty chart with axes of
    // "0 0 0 0 1" and an empty table read as a broken panel.
    const bool shown = m_result.has_value();
    m_ui->contextChart->setVisible(shown);
    m_ui->gpuTable->setVisible(shown);
    updateChart();
    updateGpuTable();
    emit resultChanged();
}

void InferenceView::updateGpuTable()
{
    m_rows.clear();
    if (m_result) {
        std::vector<const GpuSpec*> gpus;
        for (const std::string& id : defaultComparisonGpuIds(m_catalog, m_scenario.gpuId))
            gpus.push_back(m_catalog.gpu(id));
        m_rows = compareGpusServing(m_catalog, m_scenario, gpus);
    }
    QTableWidget* t = m_ui->gpuTable;
    t->setRowCount(int(m_rows.size()));
    const QLocale locale;
    auto set = [t](int row, int column, const QString& text) {
        QTableWidgetItem* item = t->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            item->setTextAlignment(column == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            t->setItem(row, column, item);
        }
        if (item->text() != text)
            item->setText(text);
    };
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const ServingComparisonRow& r = m_rows[std::size_t(i)];
        // The vendor is the same for most rows and the column is narrow: "RTX A3000 12GB Laptop GPU".
        QString name = QString::fromStdString(r.gpu->name);
        const QString vendor = QString::fromStdString(r.gpu->vendor) + QLatin1Char(' ');
        if (name.startsWith(vendor))
            name.remove(0, vendor.size());
        set(i, 0, name);
        // Tokens/s next to the verdict: the question this table answers (how much faster is the bigger GPU), in
        // view even where the panel is too narrow for all five columns (1024 px beside the chart).
        set(i, 1, r.fits ? tr("fits") : tr("does not fit"));
        set(i, 2, locale.toString(r.tokensPerSecond, 'f', 1));
        set(i, 3, r.maxBatch > 0 ? locale.toString(qlonglong(r.maxBatch)) : tr("none"));
        set(i, 4, r.maxContext > 0 ? locale.toString(qlonglong(r.maxContext)) : tr("none"));
    }
    t->resizeColumnsToContents();
}

QString InferenceView::resultText() const { return m_ui->resultLabel->text(); }

QList<QPointF> InferenceView::peakPoints() const { return m_peak->points(); }

double InferenceView::capacityLineGiB() const { return m_capacity->count() ? m_capacity->at(0).y() : 0.0; }

void InferenceView::showResult(const ModelSpec& model)
{
    if (!m_result) {
        m_ui->resultLabel->setTextFormat(Qt::RichText); // escaped once, shown as text: no literal &quot;
        m_ui->resultLabel->setText(m_error.toHtmlEscaped());
        return;
    }
    const InferenceEstimate& e = *m_result;
    const QLocale locale;
    const double free = e.capacityBytes - e.memory.engineReserve - e.memory.peak;
    QStringList lines;
    lines << (e.fits ? tr("<b>Fits</b>: peak %1 of %2, %3 free")
                           .arg(formatBytes(e.memory.peak), formatBytes(e.capacityBytes), formatBytes(free))
                     : tr("<b>Does not fit</b>: peak %1 of %2, %3 over")
                           .arg(formatBytes(e.memory.peak), formatBytes(e.capacityBytes), formatBytes(-free)));
    lines << tr("%1: weights %2 · KV cache %3 · activations %4 · overhead %5")
                 .arg(QString::fromStdString(model.name), formatBytes(e.memory.weights), formatBytes(e.memory.kvCache),
                      formatBytes(e.memory.activations), formatBytes(e.memory.overhead));
    if (e.weights.hostBytes > 0)
        lines << tr("Host memory %1: llama.cpp keeps the input embedding on the CPU")
                     .arg(formatBytes(e.weights.hostBytes));
    const QString batch = e.maxBatch > 0 ? locale.toString(qlonglong(e.maxBatch)) : tr("none");
    if (e.maxContext <= 0) // not a token's cache beside the weights: "0 tokens" read as a context of none to fill
        lines << tr("Largest batch %1 · no context fits").arg(batch);
    else
        lines << (e.maxContextLimitedByModel ? tr("Largest batch %1 · longest context %2 tokens (the model's limit)")
                                             : tr("Largest batch %1 · longest context %2 tokens"))
                     .arg(batch, locale.toString(qlonglong(e.maxContext)));
    lines << tr("Prefill %1 · decode %2 per token · %3 tokens/s")
                 .arg(formatSeconds(e.prefillSeconds), formatSeconds(e.decodeSecondsPerToken),
                      locale.toString(e.tokensPerSecond, 'f', 1));
    if (e.engine == InferenceEngine::Roofline)
        lines << tr("Roofline engine: no kernel floors or host time");
    else
        lines << (e.decode.hostBound ? tr("%1 per token: GPU %2 (kernel floors %3), host %4; the host bounds it")
                                     : tr("%1 per token: GPU %2 (kernel floors %3), host %4; the GPU bounds it"))
                     .arg(QString::fromLatin1(toString(e.engine).data(), qsizetype(toString(e.engine).size())),
                          formatSeconds(e.decode.gpuSeconds), formatSeconds(e.decode.kernelFloorSeconds),
                          formatSeconds(e.decode.hostSeconds));
    // Where the prompt's time goes on llama.cpp's cuBLAS path (the rate's derivation: the command line's table, --json
    // and docs/inference.md): one short line, the panel shares 768 pixels with the charts.
    if (const PrefillSplit& x = e.prefillSplit; x.cublasRate > 0 && x.gemmSeconds > 0)
        lines << tr("Prefill: GEMMs %1 at %2 TFLOP/s, conversions %3")
                     .arg(formatSeconds(x.gemmSeconds), locale.toString(x.gemmFlops / x.gemmSeconds / 1e12, 'f', 1),
                          formatSeconds(x.conversionSeconds));
    for (const InferenceWarning& w : e.warnings) {
        const QString text = w.kind == InferenceWarning::Kind::UnitFallback
            ? tr("This GPU has no tensor unit for these weights: the GEMMs are timed on another unit")
            : tr("The context is longer than the model was trained for: rotary positions need scaling there");
        lines << QStringLiteral("⚠ ") + text.toHtmlEscaped();
    }
    m_ui->resultLabel->setTextFormat(Qt::RichText);
    m_ui->resultLabel->setText(lines.join(QStringLiteral("<br>")));
    fitResultLabel();
}

// The result's lines wrap to the label's width: the panel's minimum height takes the height they wrap to there (a
// word-wrapped QLabel's own minimum is for another width), so that a dock as low as the panel's minimum shows them
// whole and a scroll area scrolls instead of cutting the last line.
void InferenceView::fitResultLabel()
{
    if (fitWrappedLabelHeight(m_ui->resultLabel))
        emit minimumHeightChanged();
}

QSize InferenceView::sizeHint() const
{
    constexpr int kReadableChartHeight = 250;
    QSize hint = QWidget::sizeHint();
    const QMargins m = layout()->contentsMargins();
    hint.setHeight(
        std::max({ hint.height(), minimumSizeHint().height(), kReadableChartHeight + m.top() + m.bottom() }));
    return hint;
}

bool InferenceView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_ui->resultLabel && event->type() == QEvent::Resize)
        fitResultLabel(); // a new width, after the layout placed it: the lines wrap anew
    return QWidget::eventFilter(watched, event);
}

void InferenceView::updateChart()
{
    if (!m_result) {
        replaceIfChanged(m_peak, {});
        replaceIfChanged(m_capacity, {});
        replaceIfChanged(m_current, {});
        return;
    }
    const InferenceEstimate& e = *m_result;
    QList<QPointF> peak;
    double top = e.capacityBytes;
    for (const InferenceContextPoint& p : e.memoryByContext) {
        peak << QPointF(double(p.context), units::toGiB(p.peakBytes));
        top = std::max(top, std::min(p.peakBytes, 2 * e.capacityBytes));
    }
    const double right = e.memoryByContext.empty() ? 1.0 : double(e.memoryByContext.back().context);
    replaceIfChanged(m_peak, peak);
    replaceIfChanged(m_capacity,
                     { QPointF(0, units::toGiB(e.capacityBytes)), QPointF(right, units::toGiB(e.capacityBytes)) });
    replaceIfChanged(m_current, { QPointF(double(e.config.prompt + e.config.generate), units::toGiB(e.memory.peak)) });
    if (m_x->max() != right || m_x->min() != 0)
        m_x->setRange(0, right);
    setStableTop(m_y, units::toGiB(top) * 1.05);
}

void InferenceView::setChartStyle(const ChartStyle& style)
{
    applyStyle(m_chart, style);
    applyAxisStyle(m_x, style);
    applyAxisStyle(m_y, style);
    m_peak->setPen(QPen(categoryColor(MemoryCategory::Activations), style.lineWidth));
    QPen capacity(style.capacity, style.lineWidth);
    capacity.setStyle(Qt::DashLine);
    m_capacity->setPen(capacity);
    m_current->setColor(style.foreground);
    m_current->setBorderColor(style.foreground);
}

// The core's errors in the user's language, from their field and the model's own figures.
QString InferenceView::errorText(const Error& e, const ModelSpec* model)
{
    const QString name = model ? QString::fromStdString(model->name) : QString::fromStdString(m_scenario.modelId);
    const InferenceConfig c = config();
    if (e.field == "model" && model && model->transformer.moe.any())
        return tr("Serving a mixture-of-experts model such as %1 is not modelled yet (every expert resident, the "
                  "active experts per token); the training estimate covers it.")
            .arg(name);
    if (e.field == "model")
        return tr("Serving covers decoder-only language models (GPT-2, Llama, Mistral, Qwen); %1 is not one. Pick "
                  "one in the model list.")
            .arg(name);
    if (e.field == "tp" && model)
        return tr("The %1 attention heads of %2 do not split evenly over %3 GPUs: pick a tensor-parallel size that "
                  "divides %1.")
            .arg(model->transformer.heads)
            .arg(name)
            .arg(c.tensorParallel);
    if (e.field == "prompt" && model)
        return tr("The prompt and the generated tokens (%1) exceed the %2 positions %3 learned: make them shorter.")
            .arg(QLocale().toString(qlonglong(c.prompt) + qlonglong(c.generate)))
            .arg(QLocale().toString(qlonglong(model->transformer.maxPositions)))
            .arg(name);
    return tr("These serving settings cannot be simulated (%1).").arg(QString::fromStdString(e.field));
}

// Each weight format by name and by the bits per weight it gives the current model (every tensor, embeddings and
// norms included, from the core's tensor list), e.g. "GGUF Q4_K_M (4.85 bits/weight)".
void InferenceView::updateFormatNames()
{
    const ModelSpec* model = m_haveScenario ? m_catalog.model(m_scenario.modelId) : nullptr;
    for (int i = 0; i < m_ui->weightsCombo->count(); ++i) {
        const auto f = WeightFormat(m_ui->weightsCombo->itemData(i).toInt());
        QString name = code(toString(f)).toUpper();
        if (isGguf(f))
            name = tr("GGUF %1").arg(name.mid(5));
        else if (f == WeightFormat::Gptq4)
            name = tr("GPTQ 4-bit");
        else if (f == WeightFormat::Awq4)
            name = tr("AWQ 4-bit");
        else if (f == WeightFormat::Nf4)
            name = tr("NF4 (bitsandbytes)");
        else if (f == WeightFormat::Int8)
            name = tr("INT8 (LLM.int8)");
        InferenceConfig c;
        c.weights = f;
        if (model) {
            const auto w = inferenceWeights(*model, c);
            if (w && w->parameters > 0.0)
                name = tr("%1 (%2 bits/weight)")
                           .arg(name, QLocale().toString(8.0 * (w->bytes + w->hostBytes) / w->parameters, 'f', 2));
        }
        m_ui->weightsCombo->setItemText(i, name);
    }
}

void InferenceView::retranslate()
{
    updateFormatNames();
    m_chart->setTitle(tr("Peak memory vs context"));    // whole in the 320 px a 1024 px window leaves it
    m_x->setTitleText(tr("Prompt + generated tokens")); // the context, in what a 1024 px window gives it
    m_y->setTitleText(tr("GiB"));
    m_peak->setName(tr("Peak"));
    m_capacity->setName(tr("Capacity"));
    // What the table is says its first column's title, not a line above it: at 1024x768 the docked panel has
    // room for the result, the table and the chart's axis, and not for that line too (Chinese most of all).
    m_ui->gpuTable->setHorizontalHeaderLabels(
        { tr("GPU (datasheet)"), tr("Verdict"), tr("Tokens/s"), tr("Largest batch"), tr("Longest context") });
    m_ui->gpuTable->setToolTip(tr("The same serving on other GPUs, each at its datasheet figures"));
}

void InferenceView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    compute();
}

void InferenceView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
        m_dirty = true;
        if (isVisible())
            compute();
    }
    QWidget::changeEvent(event);
}

} // namespace headroom::gui
