#include "modelimport.h"

#include "catalogloader.h"
#include "errortext.h"
#include "hfconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtEndian>

#include <algorithm>

namespace headroom {

namespace {

    std::string_view view(const QByteArray& bytes) { return { bytes.constData(), std::size_t(bytes.size()) }; }

    std::optional<QString> openRegularFile(const QString& path, const char* what, QFile& f)
    {
        const QFileInfo info(path);
        if (info.isDir())
            return QStringLiteral("%1: is a directory, not %2").arg(path, QLatin1String(what));
        // A FIFO would block open() until something writes to it: read regular files only.
        if (info.exists() && !info.isFile())
            return QStringLiteral("%1: is not a regular file").arg(path);
        if (!f.open(QIODevice::ReadOnly))
            return QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString());
        return std::nullopt;
    }

} // namespace

std::optional<QString> readGgufHeader(const QString& path, GgufFile* out)
{
    QFile f(path);
    if (auto e = openRegularFile(path, "a .gguf file", f))
        return e;
    const quint64 size = quint64(f.size());
    for (quint64 want : { quint64(8) << 20, quint64(kMaxGgufHeaderBytes) }) {
        const QByteArray bytes = f.read(qint64(std::min(want, size)));
        bool truncated = false;
        auto parsed = parseGgufHeader(view(bytes), size, path.toStdString(), &truncated);
        if (parsed) {
            *out = std::move(*parsed);
            return std::nullopt;
        }
        if (!truncated || quint64(bytes.size()) >= size)
            return errorText(parsed.error());
        f.seek(0);
    }
    return QStringLiteral("%1: the GGUF header is larger than %2 MiB").arg(path).arg(kMaxGgufHeaderBytes >> 20);
}

std::optional<QString> readSafetensorsHeader(const QString& path, SafetensorsSummary* out)
{
    QFile f(path);
    if (auto e = openRegularFile(path, "a .safetensors file", f))
        return e;
    const qint64 size = f.size();
    uchar prefix[8];
    if (size < 8 || f.read(reinterpret_cast<char*>(prefix), 8) != 8) {
        return QStringLiteral("%1: file is %2 bytes; a .safetensors file starts with an 8-byte header length")
            .arg(path)
            .arg(size);
    }
    const quint64 length = qFromLittleEndian<quint64>(prefix);
    if (length > kMaxSafetensorsHeaderBytes)
        return QStringLiteral("%1: header length %2 bytes is above the 100 MiB limit").arg(path).arg(length);
    if (length > quint64(size - 8)) {
        return QStringLiteral("%1: header length %2 bytes is longer than the %3 bytes that follow it")
            .arg(path)
            .arg(length)
            .arg(size - 8);
    }
    const QByteArray header = f.read(qint64(length));
    if (header.size() != qint64(length))
        return QStringLiteral("%1: cannot read the header (%2)").arg(path, f.errorString());
    auto parsed = parseSafetensorsHeader(view(header), path.toStdString());
    if (!parsed)
        return errorText(parsed.error());
    // The safetensors crate refuses a file whose data is longer or shorter than its header says
    // (MetadataIncompleteBuffer): a truncated download, or not the file the header was written for.
    const quint64 data = quint64(size) - 8 - length;
    if (parsed->dataBytes != data) {
        return QStringLiteral("%1: the header describes %2 bytes of tensor data, but %3 bytes follow it")
            .arg(path)
            .arg(parsed->dataBytes)
            .arg(data);
    }
    *out = std::move(parsed.value());
    return std::nullopt;
}

std::optional<QString> importModelFile(const QString& path, ModelSpec* out)
{
    const QFileInfo info(path);
    QString file = path;
    QString idHint;
    if (info.isDir()) {
        file = QDir(path).filePath(QStringLiteral("config.json"));
        if (!QFileInfo::exists(file))
            return QStringLiteral("%1: directory has no config.json").arg(path);
        idHint = QDir(QDir(path).absolutePath()).dirName();
    } else if (info.fileName() == QLatin1String("config.json")) {
        // Every checkpoint's file is called config.json; its directory's name says which model it is.
        idHint = info.absoluteDir().dirName();
    } else {
        idHint = info.completeBaseName();
    }
    QByteArray text;
    if (auto e = CatalogLoader::readFile(file, &text))
        return e;
    auto parsed = importModelJson(view(text), file.toStdString(), idHint.toStdString());
    if (!parsed)
        return errorText(parsed.error());
    *out = std::move(parsed.value());
    return std::nullopt;
}

} // namespace headroom
