#include "controlpanel.h"

#include "units.h"
#include "wheelguard.h"

#include "allocatorgroup.h"
#include "finetunegroup.h"
#include "formatting.h"
#include "hostgroup.h"
#include "labels.h"
#include "overridegroup.h"
#include "parallelgroup.h"
#include "pickersearch.h"
#include "precisiongroup.h"
#include "sliderlink.h"
#include "ui_controlpanel.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QEvent>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QStringListModel>
#include <QStyle>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace headroom::gui {

namespace {

    constexpr double kSeqMinTokens = 64.0; // slider range 64 .. 131072 tokens
    constexpr double kSeqMinPixels = 32.0; // 32 .. 4096 pixels for vision models
    constexpr int kSeqSpinMax = 1048576;   // ui/controlpanel.ui's seqSpin
    constexpr int kRole = Qt::UserRole + 1;
    constexpr int kSearchRole = Qt::UserRole + 2; // what the picker's search matches

    QString gpuGroup(const GpuSpec& g)
    {
        return QString::fromStdString(g.vendor) + QStringLiteral(" · ") + Labels::segment(g.segmentKind());
    }

    // A picker section: its header, the words its items are also found by, and its items (id, name).
    struct PickerGroup {
        QString title;
        QStringList keywords;
        QList<QPair<QString, QString>> items;
    };

    // A searchable, grouped picker: header rows are disabled, items carry the id. The search matches a part of an
    // item's name, its group or the group's keywords ("4060 laptop", "data center", and 笔记本 or 数据中心 in an
    // English window): the completer offers "name — group" and choosing one selects the item by its id.
    void setupPicker(QComboBox* combo, const QList<PickerGroup>& groups)
    {
        auto* model = new QStandardItemModel(combo);
        auto* searchModel = new QStandardItemModel(combo);
        for (const auto& [group, keywords, items] : groups) {
            QStringList extra = keywords;
            extra.removeIf([&name = group](const QString& k) { return name.contains(k, Qt::CaseInsensitive); });
            const QString searchSuffix = extra.isEmpty() ? QString()
                                                         : QStringLiteral(" · ") + extra.join(QStringLiteral(" · "));
            auto* header = new QStandardItem(group);
            header->setFlags(Qt::NoItemFlags);
            QFont f = header->font();
            f.setBold(true);
            header->setFont(f);
            model->appendRow(header);
            for (const auto& [id, name] : items) {
                auto* item = new QStandardItem(name);
                item->setData(id, kRole);
                item->setToolTip(id);
                model->appendRow(item);
                auto* entry = new QStandardItem(name + QStringLiteral(" — ") + group);
                entry->setData(id, kRole);
                entry->setData(entry->text() + searchSuffix, kSearchRole);
                searchModel->appendRow(entry);
            }
        }
        combo->setModel(model);
        auto* completer = new QCompleter(searchModel, combo);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        completer->setFilterMode(Qt::MatchContains);
        completer->setCompletionRole(kSearchRole);
        completer->setCompletionMode(QCompleter::PopupCompletion);
        combo->setCompleter(completer);
        // QComboBox's own handler selects the entry's row of the search list as a row of the picker, which has group
        // headers and another order (choosing "ResNet-50" selected GPT-2 Large); the item is found by its id instead.
        QObject::disconnect(completer, qOverload<const QModelIndex&>(&QCompleter::activated), combo, nullptr);
        QObject::connect(completer, qOverload<const QModelIndex&>(&QCompleter::activated), combo,
                         [combo](const QModelIndex& index) {
                             const int i = combo->findData(index.data(kRole), kRole);
                             if (i < 0)
                                 return;
                             combo->setCurrentIndex(i);
                             // The line edit then receives the search entry ("ResNet-50 — Vision"): show the name.
                             QTimer::singleShot(0, combo, [combo] {
                                 combo->lineEdit()->setText(combo->itemText(combo->currentIndex()));
                             });
                         });
    }

    int findId(QComboBox* combo, const std::string& id) { return combo->findData(QString::fromStdString(id), kRole); }

} // namespace

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::ControlPanel>())
{
    m_ui->setupUi(this);
    for (ControlGroup* group : groups()) {
        connect(group, &ControlGroup::edited, this, &ControlPanel::edited);
        connect(group, &ControlGroup::retranslated, this, [this, group] {
            if (m_catalog)
                group->showScenario(m_scenario, *m_catalog);
        });
    }

    connect(m_ui->parallelGroup, &ParallelGroup::stageShown, this, &ControlPanel::stageShown);
    m_ui->batchSlider->setRange(0, BatchScale::kPositions);
    m_ui->batchSlider->setPageStep(BatchScale::kPositions / 12); // one doubling on the logarithmic part
    auto send = [this](Control control) {
        return [this, control](std::int64_t value, bool dragging) { edit(control, value, dragging); };
    };
    linkSliderAndSpin(
        this, m_ui->batchSlider, m_ui->batchSpin, &m_syncing, [this](int p) { return batchFromPosition(p); },
        [this](int v) { return positionFromBatch(v); }, send(Control::MicroBatch));
    linkSliderAndSpin(
        this, m_ui->seqSlider, m_ui->seqSpin, &m_syncing,
        [this](int p) { return fromLog(p, m_vision ? kSeqMinPixels : kSeqMinTokens); },
        [this](int v) { return toLog(v, m_vision ? kSeqMinPixels : kSeqMinTokens); }, send(Control::SequenceLength));
    connect(m_ui->accumSpin, &QSpinBox::valueChanged, this,
            [this](int steps) { edit(Control::Accumulation, std::int64_t(steps)); });
    // A combo's minimum is a short name, not its longest entry ("B300 (HGX B300 ... Blackwell Ultra)"): the panel's
    // minimum width (which the window keeps it from going below) then leaves a 1024-pixel window room for the charts.
    for (QComboBox* c : findChildren<QComboBox*>()) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    connectPickers();
    WheelGuard::install(this);
    retranslate();
}

ControlPanel::~ControlPanel() = default;

void ControlPanel::connectPickers()
{
    for (QComboBox* c : { m_ui->gpuCombo, m_ui->modelCombo }) {
        connect(c, &QComboBox::currentIndexChanged, this, [this, c] {
            const QVariant id = c->currentData(kRole);
            if (!id.isValid())
                return; // a group header
            edit(c == m_ui->gpuCombo ? Control::Gpu : Control::Model, id.toString().toStdString());
        });
        connect(c->lineEdit(), &QLineEdit::editingFinished, this, [this, c] { resolveTypedName(c); });
        // A name longer than the field shows its start ("NVIDIA RTX A3000..."), not its end, while not being typed.
        connect(c->lineEdit(), &QLineEdit::textChanged, this, [c] {
            if (!c->lineEdit()->hasFocus())
                c->lineEdit()->setCursorPosition(0);
        });
    }
}

// Each what-if is its own edit: on with the spin box's figure, or off.
void ControlPanel::edit(Control control, EditValue value, bool dragging)
{
    if (m_syncing || !m_catalog)
        return;
    emit edited(ScenarioEdit { control, std::move(value) }, dragging);
}

void ControlPanel::setCatalog(const Catalog* catalog)
{
    m_catalog = catalog;
    populatePickers();
    syncFromScenario();
}

void ControlPanel::populatePickers()
{
    if (!m_catalog)
        return;
    const bool was = m_syncing;
    m_syncing = true;
    QList<PickerGroup> gpus;
    for (const GpuSpec& g : m_catalog->gpus()) {
        const QString group = gpuGroup(g);
        auto it = std::find_if(gpus.begin(), gpus.end(), [&](const PickerGroup& p) { return p.title == group; });
        if (it == gpus.end()) {
            gpus.append({ group, Labels::segmentSearchTerms(g.segmentKind()), {} });
            it = gpus.end() - 1;
        }
        it->items.append({ QString::fromStdString(g.id), QString::fromStdString(g.name) });
    }
    // By vendor, then laptop, desktop, workstation, data center.
    auto groupKey = [](const GpuSpec& g) { return std::make_pair(g.vendor, int(g.segmentKind())); };
    std::map<QString, std::pair<std::string, int>> keyOf;
    for (const GpuSpec& g : m_catalog->gpus())
        keyOf.emplace(gpuGroup(g), groupKey(g));
    std::stable_sort(gpus.begin(), gpus.end(),
                     [&](const PickerGroup& a, const PickerGroup& b) { return keyOf[a.title] < keyOf[b.title]; });
    setupPicker(m_ui->gpuCombo, gpus);

    QList<PickerGroup> models = { { tr("Language models"), {}, {} },
                                  { tr("Encoders"), {}, {} },
                                  { tr("Vision"), {}, {} } };
    for (const ModelSpec& m : m_catalog->models()) {
        int group = 0;
        if (m.isVision())
            group = 2;
        else if (!m.transformer.causal)
            group = 1;
        models[group].items.append({ QString::fromStdString(m.id),
                                     QStringLiteral("%1 (%2)").arg(QString::fromStdString(m.name),
                                                                   formatCount(double(m.reference.parameters))) });
    }
    setupPicker(m_ui->modelCombo, models);
    m_syncing = was;
}

void ControlPanel::resolveTypedName(QComboBox* combo)
{
    // A search entry ("ResNet-50 — Vision") stands for its name.
    const QString typed = combo->lineEdit()->text().section(QStringLiteral(" — "), 0, 0).trimmed();
    if (!m_catalog || typed.isEmpty() || typed == combo->itemText(combo->currentIndex()))
        return;
    // An entry chosen in the search popup is selected by the completer's handler (setupPicker).
    const QAbstractItemView* popup = combo->completer() ? combo->completer()->popup() : nullptr;
    if (popup && popup->isVisible() && popup->currentIndex().isValid())
        return;
    QList<PickerCandidate> candidates;
    const bool gpu = combo == m_ui->gpuCombo;
    if (gpu) {
        for (const GpuSpec& g : m_catalog->gpus())
            candidates.append({ QString::fromStdString(g.id), QString::fromStdString(g.name) });
    } else {
        for (const ModelSpec& m : m_catalog->models())
            candidates.append({ QString::fromStdString(m.id), QString::fromStdString(m.name) });
    }
    const int best = bestPickerMatch(candidates, typed);
    const int row = best < 0 ? -1 : combo->findData(candidates[best].id, kRole);
    if (row < 0) {
        const QString note = gpu ? tr("No GPU matches “%1”").arg(typed) : tr("No model matches “%1”").arg(typed);
        combo->lineEdit()->setText(combo->itemText(combo->currentIndex()));
        combo->lineEdit()->setCursorPosition(0);
        QToolTip::showText(combo->mapToGlobal(QPoint(0, combo->height())), note, combo);
        emit noteRequested(note);
        return;
    }
    const bool changed = row != combo->currentIndex();
    combo->setCurrentIndex(row);
    combo->lineEdit()->setText(combo->itemText(row));
    combo->lineEdit()->setCursorPosition(0);
    if (changed)
        emit noteRequested(tr("“%1”: %2").arg(typed, candidates[best].name));
}

void ControlPanel::syncBatchSlider(std::int64_t batch)
{
    QSlider* s = m_ui->batchSlider;
    if (s->isSliderDown()) {
        // Held: the scale stays anchored where the drag started; the handle only follows a value set elsewhere.
        if (batchFromPosition(s->value()) != batch)
            s->setValue(positionFromBatch(batch));
        return;
    }
    // A few pixels per value in the linear zone, whatever the slider's width (presentation fonts widen it).
    const int groove = std::max(60, s->width() - s->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, s));
    // At most a quarter of the slider per side for the linear zone (a narrow or hidden slider): the logarithmic
    // ends keep room to reach every value near the anchor and 1 and 4096.
    const int step = std::clamp(int(std::lround(6.0 * BatchScale::kPositions / groove)), 2,
                                BatchScale::kPositions / (4 * BatchScale::kFineValues));
    // The handle stays where the keyboard or a drag left it when that still shows this value.
    m_batchScale.anchor(batch, batchFromPosition(s->value()) == batch ? s->value() : -1, step);
    s->setSingleStep(m_batchScale.positionsPerValue()); // an arrow key: one more or one fewer
    if (s->value() != positionFromBatch(batch))
        s->setValue(positionFromBatch(batch));
}

void ControlPanel::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    syncFromScenario();
}

void ControlPanel::syncFromScenario()
{
    if (!m_catalog)
        return;
    m_syncing = true;
    const Scenario& s = m_scenario;
    const TrainingConfig& c = s.config;
    if (int i = findId(m_ui->gpuCombo, s.gpuId); i >= 0)
        m_ui->gpuCombo->setCurrentIndex(i);
    if (int i = findId(m_ui->modelCombo, s.modelId); i >= 0)
        m_ui->modelCombo->setCurrentIndex(i);
    updateSequenceMode();
    m_ui->batchSpin->setValue(int(std::min<std::int64_t>(c.microBatch, m_ui->batchSpin->maximum())));
    syncBatchSlider(c.microBatch);
    m_ui->seqSpin->setValue(int(std::min<std::int64_t>(c.sequenceLength, m_ui->seqSpin->maximum())));
    m_ui->seqSlider->setValue(toLog(double(c.sequenceLength), m_vision ? kSeqMinPixels : kSeqMinTokens));
    m_ui->accumSpin->setValue(c.gradientAccumulation);
    for (ControlGroup* group : groups()) {
        group->showScenario(s, *m_catalog);
        group->setPresentationMode(m_presenting);
    }
    updateRangeNote();

    m_syncing = false;
}

void ControlPanel::updateSequenceMode()
{
    const ModelSpec* m = m_catalog ? m_catalog->model(m_scenario.modelId) : nullptr;
    m_vision = m && m->isVision();
    m_ui->seqLabel->setText(m_vision ? tr("&Image size (pixels)") : tr("&Sequence length (tokens)"));
    // Learned positions end the range: GPT-2 has no embedding for a token after its 1024th, and the core refuses it.
    int sliderMax = m_vision ? 70 : 110;
    int spinMax = kSeqSpinMax;
    if (m && !m_vision && m->family == ModelFamily::Transformer && m->transformer.position == PositionKind::Learned) {
        const double limit = double(m->transformer.maxPositions);
        sliderMax = std::clamp(int(std::floor(10.0 * std::log2(limit / kSeqMinTokens))), 0, sliderMax);
        spinMax = int(std::min<double>(limit, kSeqSpinMax));
    }
    m_ui->seqSlider->setMaximum(sliderMax);
    m_ui->seqSpin->setMaximum(spinMax);
}

void ControlPanel::updateRangeNote()
{
    const TrainingConfig& c = m_scenario.config;
    QStringList beyond;
    auto check = [&](std::int64_t value, const QSpinBox* spin, const QString& what) {
        if (value < spin->minimum() || value > spin->maximum())
            beyond << tr("%1 %2 (the control shows %3)").arg(what).arg(value).arg(spin->value());
    };
    check(c.microBatch, m_ui->batchSpin, tr("micro-batch"));
    check(c.sequenceLength, m_ui->seqSpin, m_vision ? tr("image side") : tr("sequence length"));
    check(c.gradientAccumulation, m_ui->accumSpin, tr("accumulation steps"));
    check(c.dataParallel, m_ui->parallelGroup->dataParallelSpin(), tr("data-parallel GPUs"));
    if (c.finetune.adapters())
        check(c.finetune.loraRank, m_ui->finetuneGroup->rankSpin(), tr("LoRA rank"));
    const QString note = beyond.isEmpty() ? QString()
                                          : tr("Kept from the scenario, beyond the controls' range: %1. Changing that "
                                               "control replaces it.")
                                                .arg(beyond.join(QStringLiteral("; ")));
    if (m_ui->rangeNote->text() != note)
        m_ui->rangeNote->setText(note);
    m_ui->rangeNote->setVisible(!note.isEmpty());
}

void ControlPanel::setPresentationMode(bool on)
{
    // In front of a class only the essential sliders stay.
    m_ui->accumSpin->setVisible(!on);
    m_ui->accumLabel->setVisible(!on);
    m_presenting = on;
    for (ControlGroup* group : groups())
        group->setPresentationMode(on);
}

void ControlPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        retranslate();
    }
    QWidget::changeEvent(event);
}

void ControlPanel::retranslate()
{
    const bool was = m_syncing;
    m_syncing = true;
    populatePickers();
    m_syncing = was;
    syncFromScenario();
}

QSlider* ControlPanel::batchSlider() const { return m_ui->batchSlider; }
QSlider* ControlPanel::sequenceSlider() const { return m_ui->seqSlider; }
QSlider* ControlPanel::zeroSlider() const { return m_ui->parallelGroup->zeroSlider(); }
QSlider* ControlPanel::dataParallelSlider() const { return m_ui->parallelGroup->dataParallelSlider(); }
QComboBox* ControlPanel::tensorParallelCombo() const { return m_ui->parallelGroup->tensorParallelCombo(); }
QComboBox* ControlPanel::pipelineCombo() const { return m_ui->parallelGroup->pipelineCombo(); }
QComboBox* ControlPanel::stageCombo() const { return m_ui->parallelGroup->stageCombo(); }
QComboBox* ControlPanel::expertParallelCombo() const { return m_ui->parallelGroup->expertParallelCombo(); }
QComboBox* ControlPanel::contextParallelCombo() const { return m_ui->parallelGroup->contextParallelCombo(); }
QComboBox* ControlPanel::stageSplitCombo() const { return m_ui->parallelGroup->stageSplitCombo(); }
QComboBox* ControlPanel::gpuCombo() const { return m_ui->gpuCombo; }
QComboBox* ControlPanel::modelCombo() const { return m_ui->modelCombo; }
QComboBox* ControlPanel::precisionCombo() const { return m_ui->precisionGroup->precisionCombo(); }
QString ControlPanel::rangeNoteText() const
{
    return m_ui->rangeNote->isVisibleTo(this) ? m_ui->rangeNote->text() : QString();
}
QComboBox* ControlPanel::optimizerCombo() const { return m_ui->precisionGroup->optimizerCombo(); }
QComboBox* ControlPanel::checkpointingCombo() const { return m_ui->precisionGroup->checkpointingCombo(); }
QComboBox* ControlPanel::attentionCombo() const { return m_ui->precisionGroup->attentionCombo(); }
QComboBox* ControlPanel::loopCombo() const { return m_ui->precisionGroup->loopCombo(); }
QComboBox* ControlPanel::finetuneCombo() const { return m_ui->finetuneGroup->methodCombo(); }
QSpinBox* ControlPanel::loraRankSpin() const { return m_ui->finetuneGroup->rankSpin(); }
QComboBox* ControlPanel::loraTargetsCombo() const { return m_ui->finetuneGroup->targetsCombo(); }
QDoubleSpinBox* ControlPanel::loraDropoutSpin() const { return m_ui->finetuneGroup->dropoutSpin(); }
QSpinBox* ControlPanel::frozenLayersSpin() const { return m_ui->finetuneGroup->frozenLayersSpin(); }

std::array<ControlGroup*, 6> ControlPanel::groups() const
{
    return { m_ui->precisionGroup, m_ui->finetuneGroup, m_ui->parallelGroup,
             m_ui->allocatorGroup, m_ui->hostGroup,     m_ui->overrideGroup };
}

} // namespace headroom::gui
