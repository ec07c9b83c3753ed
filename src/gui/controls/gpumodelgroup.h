#pragma once

// The GPU and model group: two searchable pickers grouped by vendor and segment, and by family. A name typed and
// confirmed with Enter selects the entry that best matches it (pickersearch.h), or says that none does.

#include "controlgroup.h"

#include <memory>

namespace Ui {
class GpuModelGroup;
}

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace headroom::gui {

class GpuModelGroup : public ControlGroup {
    Q_OBJECT

public:
    explicit GpuModelGroup(QWidget* parent = nullptr);
    ~GpuModelGroup() override;

    // The GPUs and models to pick from; again whenever the catalog changes.
    void setCatalog(const Catalog* catalog);
    void setPresentationMode(bool on) override;

    QComboBox* gpuCombo() const;
    QComboBox* modelCombo() const;

signals:
    // A short message for the status bar: what a typed GPU or model name resolved to, or that nothing matches.
    void noteRequested(const QString& message);

protected:
    void sync(const Scenario& scenario, const Catalog& catalog) override;
    void retranslate() override;

private:
    void connectPickers();
    void populate(const Catalog& catalog);
    void resolveTypedName(QComboBox* combo);

    std::unique_ptr<Ui::GpuModelGroup> m_ui;
    const Catalog* m_catalog = nullptr;
};

} // namespace headroom::gui
