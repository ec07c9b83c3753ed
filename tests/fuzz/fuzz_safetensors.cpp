// libFuzzer target for parseSafetensorsHeader (the JSON header of a .safetensors file; readSafetensorsHeader in
// src/app reads the length prefix and passes the header here). An accepted header's totals must agree with each
// other and stay below 2^53.

#include "fuzzsupport.h"

#include "safetensors.h"

using namespace headroom;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > fuzz::kMaxInputBytes)
        return -1;
    constexpr std::string_view origin = "fuzz/model.safetensors";
    const auto s = parseSafetensorsHeader(fuzz::text(data, size), origin);
    if (!s) {
        fuzz::checkError(s.error(), origin);
        return 0;
    }
    std::uint64_t elements = 0, bytes = 0;
    std::int64_t tensors = 0;
    for (const auto& [dtype, totals] : s->byDtype) {
        elements += totals.elements;
        bytes += totals.bytes;
        tensors += totals.tensors;
    }
    if (elements != s->parameters || bytes != s->dataBytes || tensors != s->tensors)
        fuzz::fail("safetensors totals", "per-dtype totals disagree with the file's");
    if (s->parameters > (std::uint64_t(1) << 53) || s->dataBytes > (std::uint64_t(1) << 53))
        fuzz::fail("safetensors totals", "above 2^53");
    return 0;
}
