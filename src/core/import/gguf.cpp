#include "gguf.h"

#include <cstring>
#include <limits>

namespace headroom {

namespace {

    // gguf_type (ggml/include/gguf.h).
    enum ValueType : std::uint32_t {
        U8 = 0,
        I8 = 1,
        U16 = 2,
        I16 = 3,
        U32 = 4,
        I32 = 5,
        F32 = 6,
        Bool = 7,
        String = 8,
        Array = 9,
        U64 = 10,
        I64 = 11,
        F64 = 12,
    };

    constexpr std::uint64_t kMaxCount = 1u << 20;       // tensors and keys; llama.cpp files hold hundreds
    constexpr double kMaxElements = 9007199254740992.0; // 2^53: exact in a double

    int scalarSize(std::uint32_t t)
    {
        switch (t) {
        case U8:
        case I8:
        case Bool:
            return 1;
        case U16:
        case I16:
            return 2;
        case U32:
        case I32:
        case F32:
            return 4;
        case U64:
        case I64:
        case F64:
            return 8;
        default:
            return 0;
        }
    }

    // A little-endian cursor that fails with the field it was reading.
    class Reader {
    public:
        Reader(std::string_view bytes, std::string_view origin)
            : m_bytes(bytes)
            , m_origin(origin)
        {
        }

        struct Failure {
            Error error;
            bool truncated;
        };

        template <typename T>
        T scalar(const std::string& field)
        {
            need(sizeof(T), field);
            T v;
            std::memcpy(&v, m_bytes.data() + m_pos, sizeof(T)); // GGUF is little-endian, as every target here
            m_pos += sizeof(T);
            return v;
        }
        std::string string(const std::string& field, std::uint64_t maxLength)
        {
            const auto n = scalar<std::uint64_t>(field);
            if (n > maxLength)
                fail(field, "a string of " + std::to_string(n) + " bytes is longer than " + std::to_string(maxLength));
            need(n, field);
            std::string s(m_bytes.substr(m_pos, std::size_t(n)));
            m_pos += std::size_t(n);
            return s;
        }
        void skip(std::uint64_t n, const std::string& field)
        {
            need(n, field);
            m_pos += std::size_t(n);
        }
        std::uint64_t position() const { return m_pos; }

        [[noreturn]] void fail(const std::string& field, std::string message, bool truncated = false) const
        {
            throw Failure { Error { std::string(m_origin), field, std::move(message) }, truncated };
        }

    private:
        void need(std::uint64_t n, const std::string& field) const
        {
            if (n > m_bytes.size() - m_pos)
                fail(field, "the file ends inside the header", true);
        }

        std::string_view m_bytes;
        std::string_view m_origin;
        std::size_t m_pos = 0;
    };

    // One metadata value: scalars and strings are kept, arrays are skipped and their length kept.
    void readValue(Reader& r, GgufFile& f, const std::string& key, std::uint32_t type, int depth)
    {
        switch (type) {
        case String:
            f.strings[key] = r.string(key, 1u << 20);
            return;
        case F32:
            f.floats[key] = r.scalar<float>(key);
            return;
        case F64:
            f.floats[key] = r.scalar<double>(key);
            return;
        case U8:
        case Bool:
            f.integers[key] = r.scalar<std::uint8_t>(key);
            return;
        case I8: {
            const std::int64_t v = r.scalar<std::uint8_t>(key); // two's complement, read without a signed char
            f.integers[key] = v < 128 ? v : v - 256;
            return;
        }
        case U16:
            f.integers[key] = r.scalar<std::uint16_t>(key);
            return;
        case I16:
            f.integers[key] = r.scalar<std::int16_t>(key);
            return;
        case U32:
            f.integers[key] = r.scalar<std::uint32_t>(key);
            return;
        case I32:
            f.integers[key] = r.scalar<std::int32_t>(key);
            return;
        case I64:
            f.integers[key] = r.scalar<std::int64_t>(key);
            return;
        case U64: {
            const auto v = r.scalar<std::uint64_t>(key);
            f.integers[key] = std::int64_t(std::min<std::uint64_t>(v, std::numeric_limits<std::int64_t>::max()));
            return;
        }
        case Array: {
            if (depth > 2)
                r.fail(key, "arrays nested deeper than 3 levels");
            const auto elementType = r.scalar<std::uint32_t>(key + " (array type)");
            const auto n = r.scalar<std::uint64_t>(key + " (array length)");
            f.arrayLengths[key] = n;
            if (const int size = scalarSize(elementType)) {
                if (n > kMaxGgufHeaderBytes / std::uint64_t(size))
                    r.fail(key, "an array of " + std::to_string(n) + " elements is larger than a header can be", true);
                r.skip(n * std::uint64_t(size), key);
                return;
            }
            if (elementType != String && elementType != Array)
                r.fail(key, "unknown array element type " + std::to_string(elementType));
            if (n > kMaxGgufHeaderBytes / 8)
                r.fail(key, "an array of " + std::to_string(n) + " elements is larger than a header can be", true);
            GgufFile scratch; // the elements' values are not kept
            for (std::uint64_t i = 0; i < n; ++i)
                readValue(r, scratch, key, elementType, depth + 1);
            return;
        }
        default:
            r.fail(key, "unknown value type " + std::to_string(type));
        }
    }

    GgufTensor readTensor(Reader& r, std::uint64_t index)
    {
        GgufTensor t;
        t.name = r.string("tensor " + std::to_string(index) + " name", 64);
        const std::string field = "tensor \"" + t.name + "\"";
        const auto dims = r.scalar<std::uint32_t>(field + " n_dims");
        if (dims < 1 || dims > 4)
            r.fail(field, "has " + std::to_string(dims) + " dimensions; ggml tensors have 1 to 4");
        double elements = 1.0;
        for (std::uint32_t d = 0; d < dims; ++d) {
            const auto n = r.scalar<std::uint64_t>(field + " ne");
            t.dims.push_back(n);
            elements *= double(n);
        }
        if (elements > kMaxElements)
            r.fail(field, "has more than 2^53 elements");
        const auto type = r.scalar<std::uint32_t>(field + " type");
        const auto ggml = ggmlTypeFromId(type);
        if (!ggml)
            r.fail(field, "ggml type " + std::to_string(type) + " is not one Headroom knows the block size of");
        t.type = *ggml;
        const GgmlTypeInfo& info = ggmlTypeInfo(t.type);
        if (t.dims[0] % std::uint64_t(info.blockElements) != 0)
            r.fail(field,
                   "rows of " + std::to_string(t.dims[0]) + " are not whole " + std::string(info.name) + " blocks of "
                       + std::to_string(info.blockElements));
        t.bytes = std::uint64_t(elements) / std::uint64_t(info.blockElements) * std::uint64_t(info.blockBytes);
        t.offset = r.scalar<std::uint64_t>(field + " offset");
        return t;
    }

} // namespace

double GgufTensor::elements() const
{
    double n = 1.0;
    for (std::uint64_t d : dims)
        n *= double(d);
    return n;
}

Expected<GgufFile> parseGgufHeader(std::string_view bytes, std::uint64_t fileSize, std::string_view origin,
                                   bool* truncated)
{
    if (truncated)
        *truncated = false;
    Reader r(bytes, origin);
    GgufFile f;
    try {
        if (bytes.size() >= 4 && bytes.substr(0, 4) != "GGUF")
            r.fail("magic", "not a GGUF file (it does not start with \"GGUF\")");
        r.skip(4, "magic");
        f.version = r.scalar<std::uint32_t>("version");
        if (f.version < 2 || f.version > 3)
            r.fail("version", "GGUF version " + std::to_string(f.version) + "; Headroom reads versions 2 and 3");
        const auto tensors = r.scalar<std::uint64_t>("tensor_count");
        const auto keys = r.scalar<std::uint64_t>("metadata_kv_count");
        if (tensors > kMaxCount || keys > kMaxCount)
            r.fail("tensor_count", "more than 2^20 tensors or keys");
        for (std::uint64_t i = 0; i < keys; ++i) {
            const std::string key = r.string("key " + std::to_string(i), 1024);
            readValue(r, f, key, r.scalar<std::uint32_t>(key + " (type)"), 0);
        }
        if (auto it = f.strings.find("general.architecture"); it != f.strings.end())
            f.architecture = it->second;
        if (auto it = f.integers.find("general.alignment"); it != f.integers.end()) {
            if (it->second <= 0 || it->second > (1 << 30) || (it->second & (it->second - 1)) != 0)
                r.fail("general.alignment", "must be a power of two, got " + std::to_string(it->second));
            f.alignment = std::uint32_t(it->second);
        }
        for (std::uint64_t i = 0; i < tensors; ++i)
            f.tensors.push_back(readTensor(r, i));
        f.dataOffset = (r.position() + f.alignment - 1) / f.alignment * f.alignment;
        const std::uint64_t dataBytes = fileSize > f.dataOffset ? fileSize - f.dataOffset : 0;
        for (const GgufTensor& t : f.tensors) {
            if (t.offset % f.alignment != 0)
                r.fail("tensor \"" + t.name + "\"",
                       "offset " + std::to_string(t.offset) + " is not aligned to " + std::to_string(f.alignment));
            if (t.offset > dataBytes || t.bytes > dataBytes - t.offset)
                r.fail("tensor \"" + t.name + "\"",
                       "its " + std::to_string(t.bytes) + " bytes at offset " + std::to_string(t.offset)
                           + " run past the end of the file");
        }
    } catch (const Reader::Failure& failure) {
        if (truncated)
            *truncated = failure.truncated && bytes.size() < fileSize;
        return failure.error;
    }
    return f;
}

} // namespace headroom
