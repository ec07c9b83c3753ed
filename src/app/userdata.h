#pragma once

// The GPUs and models a user makes: one JSON file each in the user's data directory
// (CatalogLoader::userGpuDirectory(), userModelDirectory()), written atomically, and files to share with others.
// Every file written or read goes through the same parser as the bundled data, so a saved file always loads
// again at the next start. Saving never touches a bundled file: bundled data are compiled-in resources and user
// files only ever go to the user's directory. A user entry whose id is also a bundled id replaces the bundled
// entry in the catalog (CatalogLoader::withUserData loads user files last); deleting it brings the bundled one back.
//
// Every function returns std::nullopt on success, or a translated message that names the file and, for bad
// contents, the field ("t4.json: memory.bandwidth_gb_per_s.value: must be a number between 1 and 1000000").

#include "gpuspec.h"
#include "modelspec.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>

namespace headroom {

class UserData {
    Q_DECLARE_TR_FUNCTIONS(UserData)

public:
    // A file name for an id: lowercase letters, digits, '-', '_' and '.', never starting with '.', at most 64
    // characters before ".json". Ids the parsers accept are already like this; the rest is defence.
    static QString fileNameForId(std::string_view id);

    // Validates (serialise, then parse as a bundled file would be) and writes the file with QSaveFile: either the
    // whole new file is there afterwards or the old one is untouched. Replaces the user's file with the same id.
    static std::optional<QString> saveGpu(const GpuSpec& gpu, QString* savedPath = nullptr);
    static std::optional<QString> saveModel(const ModelSpec& model, QString* savedPath = nullptr);

    // Removes every file in the user's directory that holds this id. Not finding one is not an error.
    static std::optional<QString> removeGpu(std::string_view id);
    static std::optional<QString> removeModel(std::string_view id);

    // The user's file holding this id (the one loaded last when several do), or an empty string.
    static QString userGpuFile(std::string_view id);
    static QString userModelFile(std::string_view id);

    // Whether a bundled GPU or model has this id (a user entry with it shadows the bundled one).
    static bool isBundledGpu(std::string_view id);
    static bool isBundledModel(std::string_view id);

    // For the editors: where Save puts the entry, and whether it takes the place of a bundled one.
    static QString gpuSaveNote(std::string_view id);
    static QString modelSaveNote(std::string_view id);

    // Writes the entry as a shareable JSON file at `path` (atomically, after the same validation as saving).
    static std::optional<QString> exportGpu(const GpuSpec& gpu, const QString& path);
    static std::optional<QString> exportModel(const ModelSpec& model, const QString& path);

    // Reads and validates a shared file through Catalog::addGpuJson / addModelJson. Saves nothing.
    static std::optional<QString> readGpuFile(const QString& path, GpuSpec* out);
    static std::optional<QString> readModelFile(const QString& path, ModelSpec* out);

    // readGpuFile / readModelFile, then saveGpu / saveModel: the imported entry survives restarts.
    static std::optional<QString> importGpu(const QString& path, GpuSpec* out);
    static std::optional<QString> importModel(const QString& path, ModelSpec* out);

    // Serialises and parses again: the message the parser would give for the saved file, naming the field.
    static std::optional<QString> validateGpu(const GpuSpec& gpu);
    static std::optional<QString> validateModel(const ModelSpec& model);
};

} // namespace headroom
