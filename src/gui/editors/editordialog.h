#pragma once

// The frame the GPU and model editors share: the fields checked as they change (Save and Export enabled only while
// every field is valid, the problems listed in the dialog), Save writing the user's file into the data directory
// and staying open with the reason if that fails, Delete removing the user's file of the current id.

#include <QDialog>

#include <optional>
#include <string>

QT_BEGIN_NAMESPACE
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace headroom::gui {

class EditorDialog : public QDialog {
    Q_OBJECT

public:
    virtual QString validationMessage() const = 0; // one line per invalid field, naming it; empty when valid
    bool isValid() const { return validationMessage().isEmpty(); }
    QString savedPath() const { return m_savedPath; } // after a successful save
    QPushButton* saveButton() const;
    // Deletes the user's saved file with the current id, emits deleted() and closes the dialog.
    std::optional<QString> deleteSaved();
    void accept() override; // saves; on failure shows why and stays open

signals:
    void deleted(const QString& id);

protected:
    explicit EditorDialog(QWidget* parent);
    // The parts of the editor's .ui the frame uses; before anything else.
    void setFrame(QDialogButtonBox* buttons, QLabel* message, QLineEdit* id, QPushButton* exportButton);
    // The id typed in, trimmed.
    std::string currentId() const;
    // Shows the fields' problems (none: hidden) and enables Save and Export by them; true when there are none.
    bool showProblems();
    virtual std::optional<QString> save(QString* path) const = 0; // UserData::saveGpu, saveModel
    virtual std::optional<QString> removeSaved(const std::string& id) const = 0;

private:
    QDialogButtonBox* m_buttons = nullptr;
    QLabel* m_message = nullptr;
    QLineEdit* m_id = nullptr;
    QPushButton* m_export = nullptr;
    QString m_savedPath;
};

} // namespace headroom::gui
