#pragma once

// Create or edit a custom transformer (token input): layers, hidden size, heads, KV heads, head dim, FFN, vocabulary,
// positions, norm, activation, head, tied embeddings and dropout, starting from a model in the list so that the
// implementation details the form does not show (biases, norm placement, fused QKV, ...) come from a real model.
// The parameter count is the simulator's own (buildGraph(...).parameterCount()), live; "Compare with checkpoint"
// reads .safetensors headers and shows their exact count and dtypes beside it. Save writes the model into the
// user's data directory (UserData::saveModel); Import reads a Hugging Face config.json or a Headroom model file.

#include "catalog.h"
#include "checkpointcomparison.h"

#include "editordialog.h"

#include <memory>
#include <optional>

namespace Ui {
class ModelEditor;
}

QT_BEGIN_NAMESPACE
class QPushButton;
QT_END_NAMESPACE

namespace headroom::gui {

class ModelEditorDialog : public EditorDialog {
    Q_OBJECT

public:
    // `base` (usually the current model; may be null or a model outside the catalog) fills the fields when it is a
    // token transformer, else the first such model in the catalog does. A base that is one of the user's own
    // models is edited in place (same id); any other base gets a new id so that it is not shadowed by accident.
    ModelEditorDialog(const Catalog& catalog, const ModelSpec* base, QWidget* parent = nullptr);
    ~ModelEditorDialog() override;

    ModelSpec model() const; // what the fields describe
    QString validationMessage() const override;
    std::int64_t parameterCount() const; // the simulator's count for model(); -1 while the fields are invalid

    void setBase(const ModelSpec& base, bool keepId);
    // A Hugging Face config.json, the checkpoint directory holding one, or a Headroom model file.
    std::optional<QString> importFromFile(const QString& path);
    // Sums the headers of one or more .safetensors files (a sharded checkpoint) and shows them beside the count.
    std::optional<QString> compareWithCheckpoint(const QStringList& paths);
    std::optional<QString> exportToFile(const QString& path);

protected:
    void changeEvent(QEvent* event) override;
    std::optional<QString> save(QString* path) const override;
    std::optional<QString> removeSaved(const std::string& id) const override;

private:
    ModelSpec fields() const; // model() before its provenance is updated
    void populateChoices();
    void populateBases(const ModelSpec* base);
    void selectBase(); // setBase() from the based-on combo
    void addExtraBase(const ModelSpec& model, const QString& label);
    void updateState();
    void updateCounts();

    std::unique_ptr<Ui::ModelEditor> m_ui;
    const Catalog& m_catalog;
    ModelSpec m_base;
    std::vector<ModelSpec> m_extraBases; // bases not in the catalog (the current model, imported files)
    double m_loadedDropout = 0.0;
    CheckpointComparison m_checkpoint;
    bool m_loading = false;
};

} // namespace headroom::gui
