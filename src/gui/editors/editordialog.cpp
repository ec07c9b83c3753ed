#include "editordialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace headroom::gui {

EditorDialog::EditorDialog(QWidget* parent)
    : QDialog(parent)
{
}

void EditorDialog::setFrame(QDialogButtonBox* buttons, QLabel* message, QLineEdit* id, QPushButton* exportButton)
{
    m_buttons = buttons;
    m_message = message;
    m_id = id;
    m_export = exportButton;
    // The problems in a colour that reads in light and dark palettes (Okabe-Ito vermillion).
    QPalette p = m_message->palette();
    p.setColor(QPalette::WindowText, QColor(0xD5, 0x5E, 0x00));
    m_message->setPalette(p);
}

QPushButton* EditorDialog::saveButton() const { return m_buttons->button(QDialogButtonBox::Save); }

std::string EditorDialog::currentId() const { return m_id->text().trimmed().toStdString(); }

bool EditorDialog::showProblems()
{
    const QString problems = validationMessage();
    m_message->setText(problems);
    m_message->setVisible(!problems.isEmpty());
    saveButton()->setEnabled(problems.isEmpty());
    m_export->setEnabled(problems.isEmpty());
    return problems.isEmpty();
}

std::optional<QString> EditorDialog::deleteSaved()
{
    const std::string id = currentId();
    if (auto error = removeSaved(id))
        return error;
    emit deleted(QString::fromStdString(id));
    QDialog::reject();
    return std::nullopt;
}

void EditorDialog::accept()
{
    if (!isValid())
        return;
    if (auto error = save(&m_savedPath)) {
        m_message->setText(*error);
        m_message->setVisible(true);
        return;
    }
    QDialog::accept();
}

} // namespace headroom::gui
