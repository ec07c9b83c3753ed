#include "safetensors.h"

#include "jsonreader.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace headroom {

using detail::ObjectReader;
using detail::ParseFailure;
using nlohmann::json;

namespace {

    // Bits per element of each dtype the safetensors crate knows (tensor.rs, Dtype::bitsize); F4 and the F6
    // formats pack several elements into a byte.
    constexpr std::pair<std::string_view, std::uint64_t> kDtypeBits[] = {
        { "BOOL", 8 }, { "F4", 4 },      { "F6_E2M3", 6 }, { "F6_E3M2", 6 }, { "U8", 8 },
        { "I8", 8 },   { "F8_E5M2", 8 }, { "F8_E4M3", 8 }, { "F8_E8M0", 8 }, { "I16", 16 },
        { "U16", 16 }, { "F16", 16 },    { "BF16", 16 },   { "I32", 32 },    { "U32", 32 },
        { "F32", 32 }, { "C64", 64 },    { "F64", 64 },    { "I64", 64 },    { "U64", 64 },
    };

    // Totals stay exact when the GUI and the reports turn them into doubles.
    constexpr std::uint64_t kMaxTotal = std::uint64_t(1) << 53;
    constexpr std::size_t kMaxRank = 64;

    struct Span {
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
        const std::string* name = nullptr;
    };

    bool multiply(std::uint64_t a, std::uint64_t b, std::uint64_t* out)
    {
        if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
            return false;
        *out = a * b;
        return true;
    }

    std::uint64_t dtypeBits(const ObjectReader& r, const std::string& dtype)
    {
        std::string valid;
        for (const auto& [name, bits] : kDtypeBits) {
            if (name == dtype)
                return bits;
            valid += (valid.empty() ? "" : ", ") + std::string(name);
        }
        r.fail("dtype", "unknown dtype \"" + dtype + "\"; valid: " + valid);
    }

    std::uint64_t nonNegative(const json& v, const std::string& field)
    {
        if (v.is_number_unsigned())
            return v.get<std::uint64_t>();
        if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
            return std::uint64_t(v.get<std::int64_t>());
        throw ParseFailure { field, "must be a non-negative whole number, got " + detail::describe(v) };
    }

    std::uint64_t elementCount(const ObjectReader& r)
    {
        const json& shape = r.array("shape", kMaxRank);
        std::uint64_t elements = 1; // a rank-0 tensor holds one element
        for (std::size_t i = 0; i < shape.size(); ++i) {
            const std::uint64_t dim = nonNegative(shape[i], r.path("shape") + "[" + std::to_string(i) + "]");
            if (!multiply(elements, dim, &elements) || elements > kMaxTotal)
                r.fail("shape", "has more than 2^53 elements");
        }
        return elements;
    }

    // {"dtype": "BF16", "shape": [4096, 4096], "data_offsets": [begin, end]}, offsets relative to the data.
    Span readTensor(const std::string& name, const json& entry, SafetensorsSummary& s)
    {
        const ObjectReader r(entry, name);
        const std::string dtype = r.string("dtype", 32);
        const std::uint64_t bits = dtypeBits(r, dtype);
        const std::uint64_t elements = elementCount(r);
        const json& offsets = r.array("data_offsets", 2);
        if (offsets.size() != 2)
            r.fail("data_offsets", "must be [begin, end]");
        const std::uint64_t begin = nonNegative(offsets[0], r.path("data_offsets") + "[0]");
        const std::uint64_t end = nonNegative(offsets[1], r.path("data_offsets") + "[1]");
        if (end < begin)
            r.fail("data_offsets",
                   "ends at byte " + std::to_string(end) + ", before it begins at " + std::to_string(begin));
        // elements <= 2^53 and bits <= 64: the product fits.
        const std::uint64_t totalBits = elements * bits;
        if (totalBits % 8 != 0) {
            r.fail("shape",
                   std::to_string(elements) + " elements of " + dtype + " do not fill a whole number of bytes");
        }
        const std::uint64_t bytes = totalBits / 8;
        if (end - begin != bytes) {
            r.fail("data_offsets",
                   "span " + std::to_string(end - begin) + " bytes, but " + std::to_string(elements) + " elements of "
                       + dtype + " take " + std::to_string(bytes));
        }
        SafetensorsDtypeTotals& totals = s.byDtype[dtype];
        ++totals.tensors;
        totals.elements += elements;
        totals.bytes += bytes;
        ++s.tensors;
        s.parameters += elements;
        if (s.parameters > kMaxTotal)
            r.fail("shape", "brings the file above 2^53 elements");
        return { begin, end, &name };
    }

    void readMetadata(const json& node, SafetensorsSummary& s)
    {
        const ObjectReader r(node, "__metadata__");
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (!it->is_string())
                r.fail(it.key(), "must be a string, got " + detail::describe(*it));
            s.metadata[it.key()] = it->get<std::string>();
        }
    }

    // Metadata::validate in the crate: sorted by offset, each tensor starts where the previous one ends and the
    // first starts at 0, so the tensors cover the data exactly once.
    std::uint64_t coveredBytes(std::vector<Span>& spans)
    {
        std::sort(spans.begin(), spans.end(),
                  [](const Span& a, const Span& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
        std::uint64_t at = 0;
        for (const Span& t : spans) {
            if (t.begin != at) {
                throw ParseFailure { *t.name + ".data_offsets",
                                     t.begin < at ? "overlaps the tensor before it (starts at byte "
                                             + std::to_string(t.begin) + ", which ends at " + std::to_string(at) + ")"
                                                  : "leaves bytes " + std::to_string(at) + " to "
                                             + std::to_string(t.begin) + " of the data unused" };
            }
            at = t.end;
        }
        if (at > kMaxTotal)
            throw ParseFailure { "", "describes more than 2^53 bytes of tensor data" };
        return at;
    }

} // namespace

Expected<SafetensorsSummary> parseSafetensorsHeader(std::string_view headerJson, std::string_view origin)
{
    try {
        // The format's README: the header MUST begin with '{' (it may end with spaces as padding).
        if (headerJson.empty() || headerJson.front() != '{')
            throw ParseFailure { "", "the header must be a JSON object starting with '{'" };
        const json doc = detail::parseDocument(headerJson, kMaxSafetensorsHeaderBytes);
        const ObjectReader top(doc, "");
        SafetensorsSummary s;
        std::vector<Span> spans;
        spans.reserve(doc.size());
        for (auto it = doc.begin(); it != doc.end(); ++it) {
            if (it.key() == "__metadata__")
                readMetadata(*it, s);
            else
                spans.push_back(readTensor(it.key(), *it, s));
        }
        s.dataBytes = coveredBytes(spans);
        return s;
    } catch (const ParseFailure& f) {
        return Error { std::string(origin), f.field, f.message };
    } catch (const std::exception& e) {
        return Error { std::string(origin), "", e.what() };
    }
}

} // namespace headroom
