#pragma once

// Create or edit a GPU: capacity, memory type, bandwidth, the dense peak of each math unit, the links and the
// framework overhead, starting from a GPU in the list. Figures left as the base GPU has them keep its sources;
// figures the user changes cite the source "user" with confidence "user". Save writes the GPU into the user's
// data directory (UserData::saveGpu) and stays open if that fails; Import and Export read and write shared files.

#include "catalog.h"

#include "editordialog.h"
#include <QHash>

#include <memory>
#include <optional>

namespace Ui {
class GpuEditor;
}

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QPushButton;
QT_END_NAMESPACE

namespace headroom::gui {

class GpuEditorDialog : public EditorDialog {
    Q_OBJECT

public:
    // `base` (usually the current GPU; may be null) fills the fields. A base that is one of the user's own GPUs is
    // edited in place (same id); any other base gets a new id so that it is not shadowed by accident.
    GpuEditorDialog(const Catalog& catalog, const GpuSpec* base, QWidget* parent = nullptr);
    ~GpuEditorDialog() override;

    GpuSpec gpu() const; // what the fields describe
    QString validationMessage() const override;

    void setBase(const GpuSpec& base, bool keepId);
    // Load a shared GPU file into the fields (validated by the same parser as bundled files).
    std::optional<QString> importFromFile(const QString& path);
    std::optional<QString> exportToFile(const QString& path);

protected:
    void changeEvent(QEvent* event) override;
    std::optional<QString> save(QString* path) const override;
    std::optional<QString> removeSaved(const std::string& id) const override;

private:
    void populateBases(const GpuSpec* base);
    void updateState();
    // Each figure's spin box with the figure it edits in `g`.
    QList<QPair<QDoubleSpinBox*, SourcedFigure*>> figures(GpuSpec& g) const;

    std::unique_ptr<Ui::GpuEditor> m_ui;
    const Catalog& m_catalog;
    GpuSpec m_base;
    std::vector<GpuSpec> m_extraBases;             // a base not in the catalog (an imported file)
    QHash<const QDoubleSpinBox*, double> m_loaded; // what each spin showed for the base
    bool m_loading = false;
};

} // namespace headroom::gui
