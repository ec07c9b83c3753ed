#pragma once

// Reads the JSON header of a .safetensors file (https://github.com/huggingface/safetensors, "Format"): an 8-byte
// little-endian length N, N bytes of JSON, then the tensor data. The header maps each tensor name to its dtype,
// shape and [begin, end) byte offsets into the data, plus an optional "__metadata__" map of strings. The caller
// reads the length and the header; the weights are never read.

#include "error.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace headroom {

// The safetensors crate refuses headers above 100,000,000 bytes (MAX_HEADER_SIZE); Headroom allows 100 MiB.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100ull << 20;

struct SafetensorsDtypeTotals {
    std::int64_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;
};

struct SafetensorsSummary {
    std::uint64_t parameters = 0; // elements of every tensor (buffers stored in the file count too)
    std::uint64_t dataBytes = 0;  // bytes of tensor data after the header
    std::int64_t tensors = 0;
    std::map<std::string, SafetensorsDtypeTotals> byDtype; // "F32", "BF16", "F8_E4M3", ...
    std::map<std::string, std::string> metadata;           // "__metadata__", e.g. {"format": "pt"}
};

// Validates the header as the safetensors crate does: known dtypes, shapes of non-negative integers, offsets
// [begin, end] with end - begin = elements x dtype size, and tensors that cover the data without gaps or overlaps.
// Sizes use checked arithmetic; totals above 2^53 (exact in a double) are refused.
Expected<SafetensorsSummary> parseSafetensorsHeader(std::string_view headerJson, std::string_view origin);

} // namespace headroom
