#include "editorfiles.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace headroom::gui {

namespace {

    QString& lastDirectory()
    {
        static QString dir = QDir::homePath();
        return dir;
    }

    void run(QWidget* parent, const QStringList& paths, const QString& failureTitle, const FileAction& action)
    {
        if (paths.isEmpty())
            return;
        lastDirectory() = QFileInfo(paths.front()).absolutePath();
        if (auto error = action(paths))
            QMessageBox::warning(parent, failureTitle, *error);
    }

} // namespace

void openWithDialog(QWidget* parent, const QString& title, const QString& filter, bool many,
                    const QString& failureTitle, const FileAction& action)
{
    QStringList paths;
    if (many)
        paths = QFileDialog::getOpenFileNames(parent, title, lastDirectory(), filter);
    else if (const QString path = QFileDialog::getOpenFileName(parent, title, lastDirectory(), filter); !path.isEmpty())
        paths << path;
    run(parent, paths, failureTitle, action);
}

void saveWithDialog(QWidget* parent, const QString& title, const QString& fileName, const QString& filter,
                    const QString& failureTitle, const FileAction& action)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, QDir(lastDirectory()).filePath(fileName), filter);
    run(parent, path.isEmpty() ? QStringList() : QStringList { path }, failureTitle, action);
}

void confirmAndRun(QWidget* parent, const QString& title, const QString& question, const QString& failureTitle,
                   const std::function<std::optional<QString>()>& action)
{
    if (QMessageBox::question(parent, title, question) != QMessageBox::Yes)
        return;
    if (auto error = action())
        QMessageBox::warning(parent, failureTitle, *error);
}

} // namespace headroom::gui
