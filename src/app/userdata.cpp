#include "userdata.h"

#include "catalog.h"
#include "catalogloader.h"
#include "errortext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace headroom {

namespace {

    enum class Kind { Gpu, Model };

    QString directory(Kind kind)
    {
        return kind == Kind::Gpu ? CatalogLoader::userGpuDirectory() : CatalogLoader::userModelDirectory();
    }

    // The id a file claims, read without validating the rest: enough to find the user's file for an id.
    QString idInFile(const QString& path)
    {
        QByteArray text;
        if (CatalogLoader::readFile(path, &text))
            return {};
        return QJsonDocument::fromJson(text).object().value(QLatin1String("id")).toString();
    }

    // The user's files holding `id`, in the order CatalogLoader reads them (by name): the last one wins.
    QStringList filesWithId(Kind kind, std::string_view id)
    {
        const QDir dir(directory(kind));
        const QString wanted = QString::fromUtf8(id.data(), qsizetype(id.size()));
        QStringList found;
        for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            if (idInFile(dir.filePath(name)) == wanted)
                found << dir.filePath(name);
        }
        return found;
    }

    std::optional<QString> saveEntry(Kind kind, std::string_view id, const std::string& text, QString* savedPath)
    {
        const QString dirPath = directory(kind);
        if (dirPath.startsWith(QLatin1Char(':')) || !QDir().mkpath(dirPath))
            return UserData::tr("%1: cannot create the directory").arg(dirPath);
        // Replace the file that holds this id now (the one that wins at load), else use a fresh name from the id.
        const QStringList existing = filesWithId(kind, id);
        QString path = existing.isEmpty() ? QString() : existing.last();
        if (path.isEmpty()) {
            const QDir dir(dirPath);
            const QString base = UserData::fileNameForId(id);
            path = dir.filePath(base + QStringLiteral(".json"));
            for (int n = 2; QFileInfo::exists(path); ++n)
                path = dir.filePath(QStringLiteral("%1-%2.json").arg(base).arg(n));
        }
        if (auto error = CatalogLoader::writeFile(path, QByteArray::fromStdString(text)))
            return error;
        if (savedPath)
            *savedPath = path;
        return std::nullopt;
    }

    std::optional<QString> removeEntries(Kind kind, std::string_view id)
    {
        for (const QString& path : filesWithId(kind, id)) {
            QFile file(path);
            if (!file.remove())
                return UserData::tr("%1: cannot delete (%2)").arg(path, file.errorString());
        }
        return std::nullopt;
    }

    // JSON has no NaN or infinity: the serialiser would write null, and the parser would call the figure
    // missing. Say what is wrong instead, with the field's path in the file.
    std::optional<QString> nonFiniteFigure(const GpuSpec& g)
    {
        constexpr const char* kUnitKeys[kMathUnitCount] = { "fp32", "tf32", "fp16", "bf16", "fp8" };
        std::vector<std::pair<std::string, double>> figures = {
            { "memory.capacity_gb.value", g.capacityGB.value },
            { "memory.reported_mib.value", g.reportedMiB.value },
            { "memory.bus_width_bits.value", g.busWidthBits.value },
            { "memory.bandwidth_gb_per_s.value", g.bandwidthGBps.value },
            { "memory.measured_bandwidth_gb_per_s.value", g.measuredBandwidthGBps.value },
            { "links.pcie_gb_per_s.value", g.pcieGBps.value },
            { "links.gpu_link_gb_per_s.value", g.gpuLinkGBps.value },
            { "framework_overhead_mib.value", g.frameworkOverheadMiB.value },
        };
        for (int u = 0; u < kMathUnitCount; ++u)
            figures.emplace_back(std::string("compute_tflops.") + kUnitKeys[u] + ".value", g.peakTflops[u].value);
        for (const auto& [field, value] : figures) {
            if (!std::isfinite(value))
                return UserData::tr("%1: %2: must be a finite number, got %3")
                    .arg(QString::fromStdString(g.id), QString::fromStdString(field), QString::number(value));
        }
        return std::nullopt;
    }

} // namespace

QString UserData::fileNameForId(std::string_view id)
{
    QString name;
    for (const char c : id.substr(0, 64)) {
        const char lower = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        const bool ok = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-' || lower == '_'
            || lower == '.';
        name += QLatin1Char(ok ? lower : '-');
    }
    // No hidden files, no "." or "..".
    while (name.startsWith(QLatin1Char('.')))
        name[0] = QLatin1Char('_');
    return name.isEmpty() ? QStringLiteral("unnamed") : name;
}

std::optional<QString> UserData::validateGpu(const GpuSpec& gpu)
{
    if (auto error = nonFiniteFigure(gpu))
        return error;
    const std::string origin = gpu.id.empty() ? std::string("GPU") : gpu.id;
    auto parsed = parseGpuSpec(serializeGpuSpec(gpu), origin);
    if (!parsed)
        return errorText(parsed.error());
    return std::nullopt;
}

std::optional<QString> UserData::validateModel(const ModelSpec& model)
{
    const std::string origin = model.id.empty() ? std::string("model") : model.id;
    auto parsed = parseModelSpec(serializeModelSpec(model), origin);
    if (!parsed)
        return errorText(parsed.error());
    return std::nullopt;
}

std::optional<QString> UserData::saveGpu(const GpuSpec& gpu, QString* savedPath)
{
    if (auto error = validateGpu(gpu))
        return error;
    return saveEntry(Kind::Gpu, gpu.id, serializeGpuSpec(gpu), savedPath);
}

std::optional<QString> UserData::saveModel(const ModelSpec& model, QString* savedPath)
{
    if (auto error = validateModel(model))
        return error;
    return saveEntry(Kind::Model, model.id, serializeModelSpec(model), savedPath);
}

std::optional<QString> UserData::removeGpu(std::string_view id) { return removeEntries(Kind::Gpu, id); }
std::optional<QString> UserData::removeModel(std::string_view id) { return removeEntries(Kind::Model, id); }

QString UserData::userGpuFile(std::string_view id)
{
    const QStringList files = filesWithId(Kind::Gpu, id);
    return files.isEmpty() ? QString() : files.last();
}

QString UserData::userModelFile(std::string_view id)
{
    const QStringList files = filesWithId(Kind::Model, id);
    return files.isEmpty() ? QString() : files.last();
}

bool UserData::isBundledGpu(std::string_view id) { return CatalogLoader::bundledShared().gpu(id) != nullptr; }
bool UserData::isBundledModel(std::string_view id) { return CatalogLoader::bundledShared().model(id) != nullptr; }

QString UserData::gpuSaveNote(std::string_view id)
{
    const QString existing = userGpuFile(id);
    QString note = existing.isEmpty()
        ? tr("Save writes %1.json into your data directory (%2), where Headroom finds it at every start.")
              .arg(fileNameForId(id), QDir::toNativeSeparators(CatalogLoader::userGpuDirectory()))
        : tr("Save replaces your saved GPU in %1.").arg(QDir::toNativeSeparators(existing));
    if (isBundledGpu(id)) {
        note += QLatin1Char(' ')
            + tr("A bundled GPU has the id \u201c%1\u201d: yours will take its place in the GPU list. The bundled "
                 "file is not changed; delete yours to get it back.")
                  .arg(QString::fromUtf8(id.data(), qsizetype(id.size())));
    }
    return note;
}

QString UserData::modelSaveNote(std::string_view id)
{
    const QString existing = userModelFile(id);
    QString note = existing.isEmpty()
        ? tr("Save writes %1.json into your data directory (%2), where Headroom finds it at every start.")
              .arg(fileNameForId(id), QDir::toNativeSeparators(CatalogLoader::userModelDirectory()))
        : tr("Save replaces your saved model in %1.").arg(QDir::toNativeSeparators(existing));
    if (isBundledModel(id)) {
        note += QLatin1Char(' ')
            + tr("A bundled model has the id \u201c%1\u201d: yours will take its place in the model list. The "
                 "bundled file is not changed; delete yours to get it back.")
                  .arg(QString::fromUtf8(id.data(), qsizetype(id.size())));
    }
    return note;
}

std::optional<QString> UserData::exportGpu(const GpuSpec& gpu, const QString& path)
{
    if (auto error = validateGpu(gpu))
        return error;
    return CatalogLoader::writeFile(path, QByteArray::fromStdString(serializeGpuSpec(gpu)));
}

std::optional<QString> UserData::exportModel(const ModelSpec& model, const QString& path)
{
    if (auto error = validateModel(model))
        return error;
    return CatalogLoader::writeFile(path, QByteArray::fromStdString(serializeModelSpec(model)));
}

std::optional<QString> UserData::readGpuFile(const QString& path, GpuSpec* out)
{
    QByteArray text;
    if (auto error = CatalogLoader::readFile(path, &text))
        return error;
    Catalog scratch;
    if (auto error = scratch.addGpuJson({ text.constData(), std::size_t(text.size()) }, path.toStdString()))
        return errorText(*error);
    *out = scratch.gpus().front();
    return std::nullopt;
}

std::optional<QString> UserData::readModelFile(const QString& path, ModelSpec* out)
{
    QByteArray text;
    if (auto error = CatalogLoader::readFile(path, &text))
        return error;
    Catalog scratch;
    if (auto error = scratch.addModelJson({ text.constData(), std::size_t(text.size()) }, path.toStdString()))
        return errorText(*error);
    *out = scratch.models().front();
    return std::nullopt;
}

std::optional<QString> UserData::importGpu(const QString& path, GpuSpec* out)
{
    GpuSpec gpu;
    if (auto error = readGpuFile(path, &gpu))
        return error;
    if (auto error = saveGpu(gpu))
        return error;
    *out = std::move(gpu);
    return std::nullopt;
}

std::optional<QString> UserData::importModel(const QString& path, ModelSpec* out)
{
    ModelSpec model;
    if (auto error = readModelFile(path, &model))
        return error;
    if (auto error = saveModel(model))
        return error;
    *out = std::move(model);
    return std::nullopt;
}

} // namespace headroom
