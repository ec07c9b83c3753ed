#include "catalogloader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace headroom {

std::optional<QString> CatalogLoader::writeFile(const QString& path, const QByteArray& contents)
{
    // QSaveFile's direct-write fallback is off, so a directory it cannot create files in fails instead of truncating.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("CatalogLoader", "%1: cannot write (%2)").arg(path, file.errorString());
    if (file.write(contents) != contents.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return QCoreApplication::translate("CatalogLoader", "%1: cannot write (%2)").arg(path, reason);
    }
    if (!file.commit())
        return QCoreApplication::translate("CatalogLoader", "%1: cannot save (%2)").arg(path, file.errorString());
    return std::nullopt;
}

const Catalog& CatalogLoader::bundledShared()
{
    static const Catalog catalog = bundled();
    return catalog;
}

std::optional<QString> CatalogLoader::readFile(const QString& path, QByteArray* contents, qint64 maxBytes)
{
    QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1: no such file").arg(path);
    if (info.isDir())
        return QStringLiteral("%1: is a directory, not a file").arg(path);
    // A FIFO would block open() until something writes to it, and a device may never end: read regular files only.
    if (!info.isFile())
        return QStringLiteral("%1: is not a regular file").arg(path);
    if (info.size() > maxBytes)
        return QStringLiteral("%1: file is %2 bytes; the limit is %3").arg(path).arg(info.size()).arg(maxBytes);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString());
    *contents = f.read(maxBytes + 1);
    if (contents->size() > maxBytes)
        return QStringLiteral("%1: file is larger than %2 bytes").arg(path).arg(maxBytes);
    return std::nullopt;
}

void CatalogLoader::addDirectory(Catalog& catalog, const QString& dir, bool gpus, LoadReport* report)
{
    QDir d(dir);
    if (!d.exists())
        return;
    const QStringList files = d.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        const QString path = d.filePath(name);
        QByteArray text;
        if (auto err = readFile(path, &text)) {
            if (report)
                report->errors << *err;
            continue;
        }
        // Resource paths (":/gpus/t4.json") are shown without the colon prefix.
        const QString origin = path.startsWith(QLatin1Char(':')) ? path.mid(2) : path;
        const std::string originUtf8 = origin.toStdString();
        const std::string_view view(text.constData(), std::size_t(text.size()));
        auto error = gpus ? catalog.addGpuJson(view, originUtf8) : catalog.addModelJson(view, originUtf8);
        if (error) {
            if (report)
                report->errors << QString::fromStdString(error->toString());
            continue;
        }
        if (report)
            ++(gpus ? report->gpuFiles : report->modelFiles);
    }
}

Catalog CatalogLoader::bundled(LoadReport* report)
{
    Catalog c;
    addDirectory(c, QStringLiteral(":/gpus"), true, report);
    addDirectory(c, QStringLiteral(":/models"), false, report);
    return c;
}

QString CatalogLoader::userGpuDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/gpus");
}

QString CatalogLoader::userModelDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/models");
}

Catalog CatalogLoader::withUserData(LoadReport* report)
{
    Catalog c = bundled(report);
    addDirectory(c, userGpuDirectory(), true, report);
    addDirectory(c, userModelDirectory(), false, report);
    return c;
}

} // namespace headroom
