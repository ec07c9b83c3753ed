#pragma once

// Reads the header of a .gguf file (ggml's format, docs/gguf.md in ggml; ggml/src/gguf.cpp): the magic "GGUF", a
// version, the tensor and key-value counts, the metadata (typed values, arrays, strings as a u64 length and bytes)
// and the tensor table (name, dimensions, ggml type, offset into the aligned data section). Only the header is
// read, never the weights: it gives the architecture and the exact stored bytes of every tensor.

#include "error.h"
#include "inference.h"
#include "modelspec.h"
#include "weightformat.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

// Tokenizer arrays make headers of a few MiB (128k-token vocabularies); the caller reads at most this much.
inline constexpr std::uint64_t kMaxGgufHeaderBytes = 256ull << 20;

struct GgufTensor {
    std::string name;
    std::vector<std::uint64_t> dims; // ggml order: dims[0] is the row length
    GgmlType type = GgmlType::F32;
    std::uint64_t offset = 0; // into the data section
    std::uint64_t bytes = 0;

    double elements() const;
};

struct GgufFile {
    std::uint32_t version = 3;
    std::string architecture;                     // general.architecture
    std::map<std::string, std::int64_t> integers; // the integer and boolean keys
    std::map<std::string, std::string> strings;
    std::map<std::string, double> floats;
    std::map<std::string, std::uint64_t> arrayLengths; // tokenizer.ggml.tokens -> 32000
    std::vector<GgufTensor> tensors;
    std::uint32_t alignment = 32; // general.alignment
    std::uint64_t dataOffset = 0; // where the tensor data starts
};

// `bytes` is the start of the file and `fileSize` its whole size (tensors must lie inside it). When `bytes` ends
// inside the header, `*truncated` is set (if given) and an error returned, so that the caller can read more.
Expected<GgufFile> parseGgufHeader(std::string_view bytes, std::uint64_t fileSize, std::string_view origin,
                                   bool* truncated = nullptr);

// The decoder the file describes, from its tensor table (fused QKV, biases, gated FFN, tied or separate output,
// learned positions) and its architecture's keys (layers, width, heads, KV heads, FFN, context, RMSNorm, RoPE).
Expected<ModelSpec> ggufModel(const GgufFile& file, std::string_view id, std::string_view origin);

// The file's tensors as stored, on one of `tensorParallel` ranks (llama.cpp keeps the input embedding on the host).
InferenceWeights ggufWeights(const GgufFile& file, int tensorParallel);

// llama.cpp's name of general.file_type ("Q4_K_M"), or "type N" for one it does not name here.
std::string ggufFileTypeName(std::int64_t fileType);

} // namespace headroom
