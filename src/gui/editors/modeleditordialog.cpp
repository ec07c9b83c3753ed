#include "modeleditordialog.h"

#include "catalogloader.h"
#include "custommodel.h"
#include "editorfiles.h"
#include "formatting.h"
#include "labels.h"
#include "modelimport.h"
#include "ui_modeleditor.h"
#include "userdata.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>

namespace headroom::gui {

namespace {

    constexpr int kExtraRole = Qt::UserRole + 1;

    QString plain(const QLabel* label) { return label->text().remove(QLatin1Char('&')); }

    template <typename E>
    void fillCombo(QComboBox* combo, std::initializer_list<E> values, QString (*label)(E))
    {
        const QVariant current = combo->currentData();
        combo->clear();
        for (E v : values)
            combo->addItem(label(v), int(v));
        if (const int i = combo->findData(current); i >= 0)
            combo->setCurrentIndex(i);
    }

    template <typename E>
    void select(QComboBox* combo, E v)
    {
        combo->setCurrentIndex(std::max(0, combo->findData(int(v))));
    }

    template <typename E>
    E selected(const QComboBox* combo)
    {
        return E(combo->currentData().toInt());
    }

} // namespace

ModelEditorDialog::ModelEditorDialog(const Catalog& catalog, const ModelSpec* base, QWidget* parent)
    : EditorDialog(parent)
    , m_ui(std::make_unique<Ui::ModelEditor>())
    , m_catalog(catalog)
{
    m_ui->setupUi(this);
    setFrame(m_ui->buttonBox, m_ui->messageLabel, m_ui->idEdit, m_ui->exportButton);
    populateChoices();
    populateBases(base);

    for (QLineEdit* e : { m_ui->idEdit, m_ui->nameEdit })
        connect(e, &QLineEdit::textChanged, this, &ModelEditorDialog::updateState);
    for (QSpinBox* s :
         { m_ui->layersSpin, m_ui->hiddenSpin, m_ui->headsSpin, m_ui->kvHeadsSpin, m_ui->headDimSpin, m_ui->ffnSpin,
           m_ui->vocabSpin, m_ui->maxPositionsSpin, m_ui->sequenceSpin, m_ui->classesSpin })
        connect(s, &QSpinBox::valueChanged, this, &ModelEditorDialog::updateState);
    for (QComboBox* c : { m_ui->normCombo, m_ui->activationCombo, m_ui->positionCombo, m_ui->headCombo })
        connect(c, &QComboBox::currentIndexChanged, this, &ModelEditorDialog::updateState);
    for (QCheckBox* c : { m_ui->gatedCheck, m_ui->tiedCheck })
        connect(c, &QCheckBox::toggled, this, &ModelEditorDialog::updateState);
    connect(m_ui->dropoutSpin, &QDoubleSpinBox::valueChanged, this, &ModelEditorDialog::updateState);
    connect(m_ui->baseCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_loading)
            return;
        selectBase();
    });
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &ModelEditorDialog::accept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &ModelEditorDialog::reject);
    connect(m_ui->importButton, &QPushButton::clicked, this, [this] {
        openWithDialog(this, tr("Import a model"), tr("Model files (config.json *.json);;All files (*)"), false,
                       tr("Cannot import the model"),
                       [this](const QStringList& paths) { return importFromFile(paths.front()); });
    });
    connect(m_ui->compareButton, &QPushButton::clicked, this, [this] {
        openWithDialog(this, tr("Compare with a checkpoint"), tr("safetensors files (*.safetensors);;All files (*)"),
                       true, tr("Cannot read the checkpoint"),
                       [this](const QStringList& paths) { return compareWithCheckpoint(paths); });
    });
    connect(m_ui->exportButton, &QPushButton::clicked, this, [this] {
        saveWithDialog(this, tr("Export the model"), UserData::fileNameForId(fields().id) + QStringLiteral(".json"),
                       tr("Headroom model files (*.json)"), tr("Cannot export the model"),
                       [this](const QStringList& paths) { return exportToFile(paths.front()); });
    });
    connect(m_ui->deleteButton, &QPushButton::clicked, this, [this] {
        confirmAndRun(
            this, tr("Delete the saved model"),
            tr("Delete your saved model \u201c%1\u201d? If it took the place of a bundled model, the bundled one "
               "comes back.")
                .arg(m_ui->idEdit->text().trimmed()),
            tr("Cannot delete the model"), [this] { return deleteSaved(); });
    });

    selectBase();
}

void ModelEditorDialog::selectBase()
{
    const int extra = m_ui->baseCombo->currentData(kExtraRole).toInt();
    const ModelSpec* m = extra > 0 ? &m_extraBases[std::size_t(extra - 1)]
                                   : m_catalog.model(m_ui->baseCombo->currentData().toString().toStdString());
    // The user's own model is edited in place; anything else is copied under a new id.
    setBase(m ? *m : ModelSpec {}, m && !UserData::userModelFile(m->id).isEmpty());
}

ModelEditorDialog::~ModelEditorDialog() = default;

void ModelEditorDialog::populateChoices()
{
    fillCombo(m_ui->normCombo, { NormKind::LayerNorm, NormKind::RMSNorm }, &Labels::norm);
    fillCombo(m_ui->activationCombo,
              { Activation::Gelu, Activation::GeluTanh, Activation::GeluComposite, Activation::QuickGelu,
                Activation::Silu, Activation::Relu },
              &Labels::activation);
    fillCombo(m_ui->positionCombo, { PositionKind::Learned, PositionKind::Rotary, PositionKind::None },
              &Labels::position);
    fillCombo(m_ui->headCombo, { HeadKind::CausalLM, HeadKind::MaskedLM, HeadKind::Classifier, HeadKind::None },
              &Labels::head);
}

void ModelEditorDialog::populateBases(const ModelSpec* base)
{
    m_loading = true;
    std::vector<const ModelSpec*> sorted;
    for (const ModelSpec& m : m_catalog.models()) {
        if (isEditableTransformer(m))
            sorted.push_back(&m);
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
    for (const ModelSpec* m : sorted)
        m_ui->baseCombo->addItem(QString::fromStdString(m->name), QString::fromStdString(m->id));
    m_loading = false;
    if (base && isEditableTransformer(*base) && !m_catalog.model(base->id))
        addExtraBase(*base, QString::fromStdString(base->name)); // selects it
    else if (base && isEditableTransformer(*base))
        m_ui->baseCombo->setCurrentIndex(m_ui->baseCombo->findData(QString::fromStdString(base->id)));
}

void ModelEditorDialog::addExtraBase(const ModelSpec& model, const QString& label)
{
    m_loading = true;
    m_extraBases.push_back(model);
    m_ui->baseCombo->insertItem(0, label, QString::fromStdString(model.id));
    m_ui->baseCombo->setItemData(0, int(m_extraBases.size()), kExtraRole);
    m_ui->baseCombo->setCurrentIndex(0);
    m_loading = false;
}

void ModelEditorDialog::setBase(const ModelSpec& base, bool keepId)
{
    m_loading = true;
    m_base = base;
    const TransformerSpec& t = base.transformer;
    QString id = QString::fromStdString(base.id);
    QString name = QString::fromStdString(base.name);
    if (!keepId) {
        // A copy of a bundled model gets its own id, so that it sits beside the original instead of replacing it.
        QString candidate = id + QStringLiteral("-custom");
        for (int n = 2; m_catalog.model(candidate.toStdString()); ++n)
            candidate = id + QStringLiteral("-custom-%1").arg(n);
        id = candidate;
        name = tr("%1 (custom)").arg(name);
    }
    m_ui->idEdit->setText(id);
    m_ui->nameEdit->setText(name);
    m_ui->layersSpin->setValue(t.layers);
    m_ui->hiddenSpin->setValue(t.hidden);
    m_ui->headsSpin->setValue(t.heads);
    m_ui->kvHeadsSpin->setValue(t.kvHeads);
    m_ui->headDimSpin->setValue(t.headDim);
    m_ui->ffnSpin->setValue(t.ffn);
    m_ui->gatedCheck->setChecked(t.gatedFfn);
    m_ui->vocabSpin->setValue(int(t.vocab));
    m_ui->maxPositionsSpin->setValue(int(t.maxPositions));
    m_ui->sequenceSpin->setValue(base.defaultSequence);
    select(m_ui->normCombo, t.norm);
    select(m_ui->activationCombo, t.activation);
    select(m_ui->positionCombo, t.position);
    select(m_ui->headCombo, t.head);
    m_ui->classesSpin->setValue(t.classes);
    m_ui->tiedCheck->setChecked(t.tiedEmbeddings);
    m_ui->dropoutSpin->setValue(t.hiddenDropout);
    m_loadedDropout = m_ui->dropoutSpin->value();
    m_loading = false;
    updateState();
}

ModelSpec ModelEditorDialog::fields() const
{
    ModelSpec m = m_base;
    m.family = ModelFamily::Transformer;
    m.id = m_ui->idEdit->text().trimmed().toStdString();
    m.name = m_ui->nameEdit->text().trimmed().toStdString();
    m.defaultSequence = m_ui->sequenceSpin->value();
    TransformerSpec& t = m.transformer;
    t.input = InputKind::Tokens;
    t.layers = m_ui->layersSpin->value();
    t.hidden = m_ui->hiddenSpin->value();
    t.heads = m_ui->headsSpin->value();
    t.kvHeads = m_ui->kvHeadsSpin->value();
    t.headDim = m_ui->headDimSpin->value();
    t.ffn = m_ui->ffnSpin->value();
    t.gatedFfn = m_ui->gatedCheck->isChecked();
    t.vocab = m_ui->vocabSpin->value();
    t.maxPositions = m_ui->maxPositionsSpin->value();
    t.norm = selected<NormKind>(m_ui->normCombo);
    t.activation = selected<Activation>(m_ui->activationCombo);
    t.position = selected<PositionKind>(m_ui->positionCombo);
    t.head = selected<HeadKind>(m_ui->headCombo);
    t.classes = t.head == HeadKind::Classifier ? m_ui->classesSpin->value() : 0;
    t.tiedEmbeddings = m_ui->tiedCheck->isChecked();
    if (t.head == HeadKind::CausalLM)
        t.causal = true;
    else if (t.head == HeadKind::MaskedLM)
        t.causal = false;
    // One dropout rate in the form; the base's separate rates stay until the user changes it.
    if (m_ui->dropoutSpin->value() != m_loadedDropout)
        t.embeddingDropout = t.attentionDropout = t.hiddenDropout = m_ui->dropoutSpin->value();
    return m;
}

ModelSpec ModelEditorDialog::model() const { return isValid() ? withCustomProvenance(fields(), m_base) : fields(); }

QString ModelEditorDialog::validationMessage() const
{
    QStringList problems;
    auto problem = [&](const QLabel* label, const QString& text) { problems << tr("%1: %2").arg(plain(label), text); };
    auto range = [&](const QLabel* label, std::int64_t value, std::int64_t max) {
        if (value < 1 || value > max)
            problem(label, tr("must be between 1 and %1").arg(formatWhole(max)));
    };
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9._-]{1,64}$"));
    if (!idPattern.match(m_ui->idEdit->text().trimmed()).hasMatch())
        problem(m_ui->idLabel, tr("use 1 to 64 lowercase letters, digits, '-', '_' or '.'"));
    if (m_ui->nameEdit->text().trimmed().isEmpty())
        problem(m_ui->nameLabel, tr("must not be empty"));
    const int hidden = m_ui->hiddenSpin->value(), heads = m_ui->headsSpin->value(), kv = m_ui->kvHeadsSpin->value();
    range(m_ui->layersLabel, m_ui->layersSpin->value(), kMaxModelLayers);
    range(m_ui->hiddenLabel, hidden, kMaxModelWidth);
    range(m_ui->headsLabel, heads, 65536);
    if (heads > 0 && hidden > 0 && m_ui->headDimSpin->value() == 0 && hidden % heads != 0)
        problem(m_ui->headsLabel,
                tr("must divide the hidden size (%1) unless a head dim is set").arg(formatWhole(hidden)));
    range(m_ui->kvHeadsLabel, kv, 65536);
    if (kv > 0 && heads > 0 && heads % kv != 0)
        problem(m_ui->kvHeadsLabel, tr("must divide the attention heads (%1)").arg(formatWhole(heads)));
    range(m_ui->ffnLabel, m_ui->ffnSpin->value(), kMaxModelWidth * 16);
    range(m_ui->vocabLabel, m_ui->vocabSpin->value(), kMaxModelVocab);
    const bool learned = selected<PositionKind>(m_ui->positionCombo) == PositionKind::Learned;
    const int positions = m_ui->maxPositionsSpin->value();
    if (learned && positions < 1)
        problem(m_ui->maxPositionsLabel, tr("learned positions need at least one"));
    range(m_ui->sequenceLabel, m_ui->sequenceSpin->value(), std::int64_t(1) << 24);
    if (learned && positions >= 1 && m_ui->sequenceSpin->value() > positions)
        problem(m_ui->sequenceLabel, tr("is longer than the %1 learned positions").arg(formatWhole(positions)));
    if (selected<HeadKind>(m_ui->headCombo) == HeadKind::Classifier && m_ui->classesSpin->value() < 1)
        problem(m_ui->classesLabel, tr("a classifier head needs at least one class"));
    // The same parser as the bundled files: what is saved always loads again.
    if (problems.isEmpty()) {
        if (auto error = UserData::validateModel(fields()))
            problems << *error;
    }
    return problems.join(QLatin1Char('\n'));
}

std::int64_t ModelEditorDialog::parameterCount() const { return isValid() ? configParameterCount(fields()) : -1; }

void ModelEditorDialog::updateState()
{
    if (m_loading)
        return;
    showProblems();
    m_ui->classesSpin->setEnabled(selected<HeadKind>(m_ui->headCombo) == HeadKind::Classifier);
    const int heads = std::max(1, m_ui->headsSpin->value());
    m_ui->headDimSpin->setSpecialValueText(tr("auto (%1)").arg(m_ui->hiddenSpin->value() / heads));
    updateCounts();

    const std::string id = currentId();
    m_ui->storageLabel->setText(UserData::modelSaveNote(id));
    m_ui->deleteButton->setEnabled(!UserData::userModelFile(id).isEmpty());
}

void ModelEditorDialog::updateCounts()
{
    const std::int64_t n = parameterCount();
    if (n < 0) {
        m_ui->countLabel->setText(tr("Config-based count: correct the fields listed below first."));
    } else {
        QString text = tr("Config-based count: <b>%1</b> parameters (%2)").arg(formatWhole(n), formatCount(double(n)));
        const ModelSpec m = fields();
        if (m_base.reference.parameters > 0 && sameStructure(m, m_base))
            text += QStringLiteral("<br>")
                + tr("Published for %1: %2")
                      .arg(QString::fromStdString(m_base.reference.checkpoint.empty() ? m_base.name
                                                                                      : m_base.reference.checkpoint)
                               .toHtmlEscaped(),
                           formatWhole(m_base.reference.parameters));
        m_ui->countLabel->setText(text);
    }
    m_ui->checkpointLabel->setText(m_checkpoint.describe(n));
    m_ui->checkpointLabel->setVisible(!m_checkpoint.isEmpty());
}

std::optional<QString> ModelEditorDialog::importFromFile(const QString& path)
{
    ModelSpec m;
    if (auto error = importModelFile(path, &m))
        return error;
    if (!isEditableTransformer(m))
        return tr("%1: %2 is a vision model; the editor makes language transformers. Pick it in the model list "
                  "as it is.")
            .arg(path, QString::fromStdString(m.name));
    addExtraBase(m, tr("%1 (from %2)").arg(QString::fromStdString(m.name), QFileInfo(path).fileName()));
    setBase(m, true);
    return std::nullopt;
}

std::optional<QString> ModelEditorDialog::compareWithCheckpoint(const QStringList& paths)
{
    if (auto error = m_checkpoint.read(paths))
        return error;
    updateCounts();
    return std::nullopt;
}

std::optional<QString> ModelEditorDialog::exportToFile(const QString& path)
{
    return UserData::exportModel(model(), path);
}

std::optional<QString> ModelEditorDialog::save(QString* path) const { return UserData::saveModel(model(), path); }

std::optional<QString> ModelEditorDialog::removeSaved(const std::string& id) const { return UserData::removeModel(id); }

void ModelEditorDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        m_loading = true;
        populateChoices();
        m_loading = false;
        updateState();
    }
    QDialog::changeEvent(event);
}

} // namespace headroom::gui
