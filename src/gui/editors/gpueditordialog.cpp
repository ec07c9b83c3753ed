#include "gpueditordialog.h"

#include "catalogloader.h"
#include "editorfiles.h"
#include "ui_gpueditor.h"
#include "userdata.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QPushButton>
#include <QRegularExpression>

#include <algorithm>
#include <set>

namespace headroom::gui {

namespace {

    constexpr const char* kUserSource = "user";

    QString plain(const QString& labelText) { return QString(labelText).remove(QLatin1Char('&')); }

} // namespace

GpuEditorDialog::GpuEditorDialog(const Catalog& catalog, const GpuSpec* base, QWidget* parent)
    : EditorDialog(parent)
    , m_ui(std::make_unique<Ui::GpuEditor>())
    , m_catalog(catalog)
{
    m_ui->setupUi(this);
    setFrame(m_ui->buttonBox, m_ui->messageLabel, m_ui->idEdit, m_ui->exportButton);
    m_ui->memoryTypeCombo->addItems({ QStringLiteral("GDDR5"), QStringLiteral("GDDR5X"), QStringLiteral("GDDR6"),
                                      QStringLiteral("GDDR6X"), QStringLiteral("GDDR7"), QStringLiteral("HBM2"),
                                      QStringLiteral("HBM2e"), QStringLiteral("HBM3"), QStringLiteral("HBM3e"),
                                      QStringLiteral("LPDDR5"), QStringLiteral("LPDDR5X") });

    populateBases(base);
    for (QLineEdit* e : { m_ui->idEdit, m_ui->nameEdit, m_ui->vendorEdit, m_ui->architectureEdit })
        connect(e, &QLineEdit::textChanged, this, &GpuEditorDialog::updateState);
    GpuSpec scratch;
    for (const auto& [spin, figure] : figures(scratch))
        connect(spin, &QDoubleSpinBox::valueChanged, this, &GpuEditorDialog::updateState);
    connect(m_ui->memoryTypeCombo, &QComboBox::currentTextChanged, this, &GpuEditorDialog::updateState);
    connect(m_ui->baseCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_loading)
            return;
        const QString id = m_ui->baseCombo->currentData().toString();
        const int extra = m_ui->baseCombo->currentData(Qt::UserRole + 1).toInt();
        if (extra > 0)
            setBase(m_extraBases[std::size_t(extra - 1)], true);
        else if (const GpuSpec* g = m_catalog.gpu(id.toStdString()))
            setBase(*g, !UserData::userGpuFile(g->id).isEmpty());
    });
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &GpuEditorDialog::accept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &GpuEditorDialog::reject);
    connect(m_ui->importButton, &QPushButton::clicked, this, [this] {
        openWithDialog(this, tr("Import a GPU"), tr("Headroom GPU files (*.json);;All files (*)"), false,
                       tr("Cannot import the GPU"),
                       [this](const QStringList& paths) { return importFromFile(paths.front()); });
    });
    connect(m_ui->exportButton, &QPushButton::clicked, this, [this] {
        saveWithDialog(this, tr("Export the GPU"), UserData::fileNameForId(gpu().id) + QStringLiteral(".json"),
                       tr("Headroom GPU files (*.json)"), tr("Cannot export the GPU"),
                       [this](const QStringList& paths) { return exportToFile(paths.front()); });
    });
    connect(m_ui->deleteButton, &QPushButton::clicked, this, [this] {
        confirmAndRun(this, tr("Delete the saved GPU"),
                      tr("Delete your saved GPU \u201c%1\u201d? If it took the place of a bundled GPU, the bundled one "
                         "comes back.")
                          .arg(m_ui->idEdit->text().trimmed()),
                      tr("Cannot delete the GPU"), [this] { return deleteSaved(); });
    });

    if (base)
        setBase(*base, !UserData::userGpuFile(base->id).isEmpty());
    else if (!m_catalog.gpus().empty())
        setBase(m_catalog.gpus().front(), false);
    else
        updateState();
}

GpuEditorDialog::~GpuEditorDialog() = default;

QList<QPair<QDoubleSpinBox*, SourcedFigure*>> GpuEditorDialog::figures(GpuSpec& g) const
{
    auto peak = [&](MathUnit u) { return &g.peakTflops[std::size_t(u)]; };
    return {
        { m_ui->capacitySpin, &g.capacityGB },          { m_ui->bandwidthSpin, &g.bandwidthGBps },
        { m_ui->fp32Spin, peak(MathUnit::Fp32Vector) }, { m_ui->tf32Spin, peak(MathUnit::Tf32Tensor) },
        { m_ui->fp16Spin, peak(MathUnit::Fp16Tensor) }, { m_ui->bf16Spin, peak(MathUnit::Bf16Tensor) },
        { m_ui->fp8Spin, peak(MathUnit::Fp8Tensor) },   { m_ui->pcieSpin, &g.pcieGBps },
        { m_ui->gpuLinkSpin, &g.gpuLinkGBps },          { m_ui->overheadSpin, &g.frameworkOverheadMiB },
    };
}

void GpuEditorDialog::populateBases(const GpuSpec* base)
{
    m_loading = true;
    std::vector<const GpuSpec*> sorted;
    for (const GpuSpec& g : m_catalog.gpus())
        sorted.push_back(&g);
    std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
    if (base && !m_catalog.gpu(base->id)) {
        m_extraBases.push_back(*base);
        m_ui->baseCombo->addItem(QString::fromStdString(base->name), QString::fromStdString(base->id));
        m_ui->baseCombo->setItemData(0, 1, Qt::UserRole + 1);
    }
    for (const GpuSpec* g : sorted)
        m_ui->baseCombo->addItem(QString::fromStdString(g->name), QString::fromStdString(g->id));
    if (base && m_catalog.gpu(base->id))
        m_ui->baseCombo->setCurrentIndex(m_ui->baseCombo->findData(QString::fromStdString(base->id)));
    m_loading = false;
}

void GpuEditorDialog::setBase(const GpuSpec& base, bool keepId)
{
    m_loading = true;
    m_base = base;
    QString id = QString::fromStdString(base.id);
    QString name = QString::fromStdString(base.name);
    if (!keepId) {
        // A copy of a bundled GPU gets its own id, so that it sits beside the original instead of replacing it.
        QString candidate = id + QStringLiteral("-custom");
        for (int n = 2; m_catalog.gpu(candidate.toStdString()); ++n)
            candidate = id + QStringLiteral("-custom-%1").arg(n);
        id = candidate;
        name = tr("%1 (custom)").arg(name);
    }
    m_ui->idEdit->setText(id);
    m_ui->nameEdit->setText(name);
    m_ui->vendorEdit->setText(QString::fromStdString(base.vendor));
    m_ui->architectureEdit->setText(QString::fromStdString(base.architecture));
    m_ui->memoryTypeCombo->setCurrentText(QString::fromStdString(base.memoryType));
    m_ui->notesEdit->setPlainText(QString::fromStdString(base.notes));
    GpuSpec copy = base;
    m_loaded.clear();
    for (const auto& [spin, figure] : figures(copy)) {
        spin->setValue(figure->value);
        m_loaded.insert(spin, spin->value()); // as rounded by the spin box
    }
    m_loading = false;
    updateState();
}

GpuSpec GpuEditorDialog::gpu() const
{
    GpuSpec g = m_base;
    g.id = m_ui->idEdit->text().trimmed().toStdString();
    g.name = m_ui->nameEdit->text().trimmed().toStdString();
    g.vendor = m_ui->vendorEdit->text().trimmed().toStdString();
    g.architecture = m_ui->architectureEdit->text().trimmed().toStdString();
    g.memoryType = m_ui->memoryTypeCombo->currentText().trimmed().toStdString();
    g.notes = m_ui->notesEdit->toPlainText().trimmed().toStdString();
    for (const auto& [spin, figure] : figures(g)) {
        const double value = spin->value();
        if (m_loaded.contains(spin) && m_loaded.value(spin) == value)
            continue;                                     // as the base has it, with its sources
        const bool optional = spin != m_ui->overheadSpin; // an overhead of 0 is a figure; a peak of 0 is none
        if (optional && value <= 0.0)
            *figure = SourcedFigure {};
        else
            *figure = SourcedFigure { value, { kUserSource }, {}, kUserSource };
    }
    // The driver-reported size stands for the capacity where known; a new capacity makes it stale.
    if (m_ui->capacitySpin->value() != m_loaded.value(m_ui->capacitySpin, -1.0))
        g.reportedMiB = SourcedFigure {};
    // A measured bandwidth belongs to the datasheet figure it was measured against.
    if (m_ui->bandwidthSpin->value() != m_loaded.value(m_ui->bandwidthSpin, -1.0))
        g.measuredBandwidthGBps = SourcedFigure {};

    // Keep only the sources some figure still cites, and define "user" when a figure cites it.
    std::set<std::string> cited;
    for (const SourcedFigure* f :
         { &g.capacityGB, &g.reportedMiB, &g.busWidthBits, &g.bandwidthGBps, &g.measuredBandwidthGBps, &g.pcieGBps,
           &g.gpuLinkGBps, &g.nvlinkGeneration, &g.frameworkOverheadMiB })
        cited.insert(f->sources.begin(), f->sources.end());
    cited.insert(g.peerToPeer.sources.begin(), g.peerToPeer.sources.end());
    for (const SourcedFigure& f : g.peakTflops)
        cited.insert(f.sources.begin(), f.sources.end());
    std::erase_if(g.sources, [&](const auto& entry) { return !cited.count(entry.first); });
    if (cited.count(kUserSource))
        g.sources[kUserSource] = SourceRef { "Entered in Headroom's GPU editor", {} };
    return g;
}

QString GpuEditorDialog::validationMessage() const
{
    QStringList problems;
    auto problem = [&](const QWidget* label, const QString& text) {
        problems << tr("%1: %2").arg(plain(static_cast<const QLabel*>(label)->text()), text);
    };
    static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9.-]{1,64}$"));
    if (!idPattern.match(m_ui->idEdit->text().trimmed()).hasMatch())
        problem(m_ui->idLabel, tr("use 1 to 64 lowercase letters, digits, '-' or '.'"));
    if (m_ui->nameEdit->text().trimmed().isEmpty())
        problem(m_ui->nameLabel, tr("must not be empty"));
    if (m_ui->capacitySpin->value() < 0.1)
        problem(m_ui->capacityLabel, tr("must be at least 0.1 GB"));
    if (m_ui->memoryTypeCombo->currentText().trimmed().isEmpty())
        problem(m_ui->memoryTypeLabel, tr("must not be empty"));
    if (m_ui->bandwidthSpin->value() < 1.0)
        problem(m_ui->bandwidthLabel, tr("must be at least 1 GB/s"));
    if (m_ui->fp32Spin->value() <= 0.0)
        problem(m_ui->fp32Label, tr("every GPU has an FP32 peak; enter it"));
    if (m_ui->pcieSpin->value() < 0.1)
        problem(m_ui->pcieLabel, tr("must be at least 0.1 GB/s"));
    const GpuSpec g = gpu();
    if (problems.isEmpty() && g.overheadBytes() >= g.memoryBytes())
        problem(m_ui->overheadLabel, tr("must be smaller than the memory capacity"));
    // The same parser as the bundled files: what is saved always loads again.
    if (problems.isEmpty()) {
        if (auto error = UserData::validateGpu(g))
            problems << *error;
    }
    return problems.join(QLatin1Char('\n'));
}

void GpuEditorDialog::updateState()
{
    if (m_loading)
        return;
    showProblems();
    const std::string id = currentId();
    m_ui->storageLabel->setText(UserData::gpuSaveNote(id));
    m_ui->deleteButton->setEnabled(!UserData::userGpuFile(id).isEmpty());
}

std::optional<QString> GpuEditorDialog::importFromFile(const QString& path)
{
    GpuSpec g;
    if (auto error = UserData::readGpuFile(path, &g))
        return error;
    m_extraBases.push_back(g);
    m_loading = true;
    m_ui->baseCombo->insertItem(0, tr("%1 (from %2)").arg(QString::fromStdString(g.name), QFileInfo(path).fileName()),
                                QString::fromStdString(g.id));
    m_ui->baseCombo->setItemData(0, int(m_extraBases.size()), Qt::UserRole + 1);
    m_ui->baseCombo->setCurrentIndex(0);
    m_loading = false;
    setBase(g, true);
    return std::nullopt;
}

std::optional<QString> GpuEditorDialog::exportToFile(const QString& path) { return UserData::exportGpu(gpu(), path); }

std::optional<QString> GpuEditorDialog::save(QString* path) const { return UserData::saveGpu(gpu(), path); }

std::optional<QString> GpuEditorDialog::removeSaved(const std::string& id) const { return UserData::removeGpu(id); }

void GpuEditorDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        m_ui->retranslateUi(this);
        updateState();
    }
    QDialog::changeEvent(event);
}

} // namespace headroom::gui
