#include "gpumodelgroup.h"

#include "formatting.h"
#include "labels.h"
#include "pickersearch.h"
#include "ui_gpumodelgroup.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace headroom::gui {

namespace {

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

GpuModelGroup::GpuModelGroup(QWidget* parent)
    : ControlGroup(parent)
    , m_ui(std::make_unique<Ui::GpuModelGroup>())
{
    m_ui->setupUi(this);
    connectPickers();
}

GpuModelGroup::~GpuModelGroup() = default;

void GpuModelGroup::setCatalog(const Catalog* catalog)
{
    m_catalog = catalog;
    if (m_catalog)
        populate(*m_catalog);
}

void GpuModelGroup::sync(const Scenario& scenario, const Catalog&)
{
    if (int i = findId(m_ui->gpuCombo, scenario.gpuId); i >= 0)
        m_ui->gpuCombo->setCurrentIndex(i);
    if (int i = findId(m_ui->modelCombo, scenario.modelId); i >= 0)
        m_ui->modelCombo->setCurrentIndex(i);
}

void GpuModelGroup::setPresentationMode(bool) {} // the GPU and the model always show

void GpuModelGroup::retranslate()
{
    m_ui->retranslateUi(this);
    if (m_catalog)
        populate(*m_catalog); // the groups' names; retranslated() has the panel select the scenario's again
}

void GpuModelGroup::connectPickers()
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

void GpuModelGroup::populate(const Catalog& catalog)
{
    // Refilling selects other rows: no edit goes out (the panel shows the scenario again after it).
    const QSignalBlocker gpuBlocker(m_ui->gpuCombo), modelBlocker(m_ui->modelCombo);
    QList<PickerGroup> gpus;
    for (const GpuSpec& g : catalog.gpus()) {
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
    for (const GpuSpec& g : catalog.gpus())
        keyOf.emplace(gpuGroup(g), groupKey(g));
    std::stable_sort(gpus.begin(), gpus.end(),
                     [&](const PickerGroup& a, const PickerGroup& b) { return keyOf[a.title] < keyOf[b.title]; });
    setupPicker(m_ui->gpuCombo, gpus);

    QList<PickerGroup> models = { { tr("Language models"), {}, {} },
                                  { tr("Encoders"), {}, {} },
                                  { tr("Vision"), {}, {} } };
    for (const ModelSpec& m : catalog.models()) {
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
}

void GpuModelGroup::resolveTypedName(QComboBox* combo)
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

QComboBox* GpuModelGroup::gpuCombo() const { return m_ui->gpuCombo; }
QComboBox* GpuModelGroup::modelCombo() const { return m_ui->modelCombo; }

} // namespace headroom::gui
