#pragma once

// Reads GPU and model files into the core's Catalog: the bundled ones (compiled in as Qt resources), then the
// user's own (QStandardPaths data directory), which may replace bundled entries with the same id. File errors are
// collected with the file name and field; they never stop the rest from loading.

#include "catalog.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace headroom {

struct LoadReport {
    QStringList errors;
    int gpuFiles = 0;
    int modelFiles = 0;
};

class CatalogLoader {
public:
    // Bundled data only (deterministic: what the tests and `headroom estimate` use by default).
    static Catalog bundled(LoadReport* report = nullptr);
    // Bundled data plus the user's files.
    static Catalog withUserData(LoadReport* report = nullptr);

    static QString userGpuDirectory();
    static QString userModelDirectory();

    // Reads a whole text file with a size limit. On failure returns a message naming the path and the reason.
    static std::optional<QString> readFile(const QString& path, QByteArray* contents, qint64 maxBytes = 16 << 20);

    // Writes atomically (QSaveFile: a temporary file renamed over the target), so a failed save never leaves a
    // truncated file. On failure returns a message naming the path and the reason.
    static std::optional<QString> writeFile(const QString& path, const QByteArray& contents);

    // The bundled data, read once for the whole process: for "is this id bundled?" and "what did the bundled
    // entry say?" without parsing every file again. Entries stay at fixed addresses.
    static const Catalog& bundledShared();

    static void addDirectory(Catalog& catalog, const QString& dir, bool gpus, LoadReport* report);
};

} // namespace headroom
