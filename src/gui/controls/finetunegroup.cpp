#include "finetunegroup.h"

#include "finetune.h"
#include "labels.h"
#include "ui_finetunegroup.h"

#include <algorithm>

namespace headroom::gui {

namespace {

    // The targets combo's entries: PEFT's default, "all-linear", or the scenario's own list of names.
    const QString kDefaultTargets = QStringLiteral("default");
    const QString kAllLinear = QStringLiteral("all-linear");
    const QString kScenarioTargets = QStringLiteral("scenario");

    QString targetsKey(const FinetuneConfig& f)
    {
        if (f.loraTargets.empty())
            return kDefaultTargets;
        if (f.loraTargets == std::vector<std::string> { "all-linear" })
            return kAllLinear;
        return kScenarioTargets;
    }

    QString methodToolTip(FinetuneMethod m)
    {
        switch (m) {
        case FinetuneMethod::Full:
            return FinetuneGroup::tr("Every parameter trains: plain model training, as without PEFT.");
        case FinetuneMethod::Freeze:
            return FinetuneGroup::tr("The embeddings and the first blocks are frozen (requires_grad_(False)); the "
                                     "rest and the head train.");
        case FinetuneMethod::LoRA:
            return FinetuneGroup::tr("peft.get_peft_model(model, LoraConfig(r=8, target_modules=[...])): the base is "
                                     "frozen, low-rank adapters beside the chosen Linear layers train.");
        case FinetuneMethod::DoRA:
            return FinetuneGroup::tr("LoraConfig(use_dora=True): LoRA plus a magnitude vector per adapted layer, which "
                                     "keeps more activations for backward.");
        case FinetuneMethod::QLoRA:
            return FinetuneGroup::tr(
                "LoRA over a 4-bit base: from_pretrained(quantization_config=BitsAndBytesConfig(load_in_4bit=True, "
                "bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=True)), prepare_model_for_kbit_training, "
                "then get_peft_model.");
        }
        return {};
    }

} // namespace

FinetuneGroup::FinetuneGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::FinetuneGroup>())
{
    m_ui->setupUi(this);
    m_methodToolTip = m_ui->finetuneCombo->toolTip();
    populateMethods();
    editOnChoice(m_ui->finetuneCombo, Control::FinetuneMethod);
    connect(m_ui->loraRankSpin, &QSpinBox::valueChanged, this,
            [this](int r) { edit(Control::LoraRank, std::int64_t(r)); });
    connect(m_ui->loraTargetsCombo, &QComboBox::currentIndexChanged, this, [this] {
        const QString key = m_ui->loraTargetsCombo->currentData().toString();
        if (key == kDefaultTargets || key == kAllLinear) // the scenario's own list is not chosen, only kept
            edit(Control::LoraTargets, key == kAllLinear ? std::string("all-linear") : std::string());
    });
    connect(m_ui->loraDropoutSpin, &QDoubleSpinBox::valueChanged, this,
            [this](double p) { edit(Control::LoraDropout, p); });
    connect(m_ui->frozenLayersSpin, &QSpinBox::valueChanged, this,
            [this](int n) { edit(Control::FrozenLayers, std::int64_t(n)); });
}

FinetuneGroup::~FinetuneGroup() = default;

// The methods with their names and tooltips in the window's language, the one chosen kept.
void FinetuneGroup::populateMethods()
{
    QComboBox* combo = m_ui->finetuneCombo;
    const QVariant current = combo->currentData();
    const QSignalBlocker blocker(combo);
    combo->clear();
    for (FinetuneMethod m : { FinetuneMethod::Full, FinetuneMethod::Freeze, FinetuneMethod::LoRA, FinetuneMethod::DoRA,
                              FinetuneMethod::QLoRA }) {
        combo->addItem(Labels::finetune(m), int(m));
        combo->setItemData(combo->count() - 1, methodToolTip(m), Qt::ToolTipRole);
    }
    if (const int i = combo->findData(current); i >= 0)
        combo->setCurrentIndex(i);
}

void FinetuneGroup::retranslate()
{
    m_ui->retranslateUi(this);
    m_methodToolTip = m_ui->finetuneCombo->toolTip();
    populateMethods();
    // The targets' names depend on the model: retranslated() has the panel show the scenario again.
    const QSignalBlocker blocker(m_ui->loraTargetsCombo);
    m_ui->loraTargetsCombo->clear();
}

void FinetuneGroup::sync(const Scenario& scenario, const Catalog& catalog)
{
    const ModelSpec* model = catalog.model(scenario.modelId);
    const FinetuneConfig& f = scenario.config.finetune;
    // validateFinetune refuses every method but full training on a CNN.
    const bool transformer = model && model->family != ModelFamily::Cnn;
    if (const int i = m_ui->finetuneCombo->findData(int(f.method)); i >= 0)
        m_ui->finetuneCombo->setCurrentIndex(i);
    QString tip = m_methodToolTip;
    if (model && !transformer)
        tip += QStringLiteral("\n\n")
            + tr("%1 is a CNN: its fine-tuning methods are not modelled, only full training.")
                  .arg(QString::fromStdString(model->name));
    if (m_ui->finetuneCombo->toolTip() != tip)
        m_ui->finetuneCombo->setToolTip(tip);
    m_ui->finetuneCombo->setEnabled(transformer);
    m_ui->finetuneLabel->setEnabled(transformer);

    m_ui->loraRankSpin->setValue(std::min(f.loraRank, m_ui->loraRankSpin->maximum()));
    m_ui->loraDropoutSpin->setValue(f.loraDropout);
    // Only when it changes: QSpinBox re-lays out the whole window on every setMaximum, a slider tick included.
    if (transformer && m_ui->frozenLayersSpin->maximum() != model->transformer.layers)
        m_ui->frozenLayersSpin->setMaximum(model->transformer.layers);
    m_ui->frozenLayersSpin->setValue(f.frozenLayers);
    syncTargets(f, model);

    const bool adapters = transformer && f.adapters();
    const bool freeze = transformer && f.method == FinetuneMethod::Freeze;
    for (QWidget* w :
         std::initializer_list<QWidget*> { m_ui->loraRankLabel, m_ui->loraRankSpin, m_ui->loraTargetsLabel,
                                           m_ui->loraTargetsCombo, m_ui->loraDropoutLabel, m_ui->loraDropoutSpin })
        w->setEnabled(adapters);
    m_ui->frozenLayersLabel->setEnabled(freeze);
    m_ui->frozenLayersSpin->setEnabled(freeze);
}

// The targets: PEFT's default and all-linear, and the scenario's own list while it has one.
void FinetuneGroup::syncTargets(const FinetuneConfig& f, const ModelSpec* model)
{
    QComboBox* targets = m_ui->loraTargetsCombo;
    const QList<QPair<QString, QString>> entries = [&] {
        FinetuneConfig all;
        all.loraTargets = { "all-linear" };
        QList<QPair<QString, QString>> e { { kDefaultTargets, Labels::loraTargets({}, model) },
                                           { kAllLinear, Labels::loraTargets(all, model) } };
        if (targetsKey(f) == kScenarioTargets)
            e.append({ kScenarioTargets, Labels::loraTargets(f, model) });
        return e;
    }();
    bool same = targets->count() == entries.size();
    for (int i = 0; same && i < entries.size(); ++i)
        same = targets->itemData(i).toString() == entries[i].first && targets->itemText(i) == entries[i].second;
    if (!same) {
        targets->clear();
        for (const auto& [key, text] : entries) {
            targets->addItem(text, key);
            targets->setItemData(targets->count() - 1, text, Qt::ToolTipRole);
        }
    }
    targets->setCurrentIndex(targets->findData(targetsKey(f)));
}

void FinetuneGroup::setPresentationMode(bool on)
{
    for (QWidget* w :
         std::initializer_list<QWidget*> { m_ui->loraTargetsLabel, m_ui->loraTargetsCombo, m_ui->loraDropoutLabel,
                                           m_ui->loraDropoutSpin, m_ui->frozenLayersLabel, m_ui->frozenLayersSpin })
        w->setVisible(!on);
}

QComboBox* FinetuneGroup::methodCombo() const { return m_ui->finetuneCombo; }
QSpinBox* FinetuneGroup::rankSpin() const { return m_ui->loraRankSpin; }
QComboBox* FinetuneGroup::targetsCombo() const { return m_ui->loraTargetsCombo; }
QDoubleSpinBox* FinetuneGroup::dropoutSpin() const { return m_ui->loraDropoutSpin; }
QSpinBox* FinetuneGroup::frozenLayersSpin() const { return m_ui->frozenLayersSpin; }

} // namespace headroom::gui
