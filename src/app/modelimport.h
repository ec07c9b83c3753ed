#pragma once

// Reads the model files a user brings: a Headroom model JSON, a Hugging Face config.json or the checkpoint
// directory that holds one, and the header of a .safetensors file. Only headers are read, never the weights.

#include "gguf.h"
#include "modelspec.h"
#include "safetensors.h"

#include <QString>

#include <optional>

namespace headroom {

// Reads the 8-byte header length and the JSON header after it. Refuses lengths above 100 MiB or past the end of
// the file, and files whose size disagrees with the data the header describes. On failure returns a message
// naming the path (and the tensor or field) and the reason.
std::optional<QString> readSafetensorsHeader(const QString& path, SafetensorsSummary* out);

// Reads the header of a .gguf file (metadata and tensor table; 8 MiB first, more only for a larger header, never the
// weights). On failure returns a message naming the path, the key or tensor, and the reason.
std::optional<QString> readGgufHeader(const QString& path, GgufFile* out);

// `path` is a Headroom model file, a Hugging Face config.json, or a directory holding a config.json. The
// directory's name (or the file's base name) becomes the model id.
std::optional<QString> importModelFile(const QString& path, ModelSpec* out);

} // namespace headroom
