#pragma once

// The file dialogs behind the editors' Import, Export, Compare and Delete buttons: ask for a path (starting where
// the last one was chosen), run the editor's action on it, and show a failure with the action's message, which
// names the file and the field.

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace headroom::gui {

using FileAction = std::function<std::optional<QString>(const QStringList& paths)>;

// One existing file, or several when `many` (a sharded checkpoint).
void openWithDialog(QWidget* parent, const QString& title, const QString& filter, bool many,
                    const QString& failureTitle, const FileAction& action);
void saveWithDialog(QWidget* parent, const QString& title, const QString& fileName, const QString& filter,
                    const QString& failureTitle, const FileAction& action);
// Asks first; runs `action` on a yes.
void confirmAndRun(QWidget* parent, const QString& title, const QString& question, const QString& failureTitle,
                   const std::function<std::optional<QString>()>& action);

} // namespace headroom::gui
