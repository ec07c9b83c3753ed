#include "jsonreader.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <vector>

namespace headroom::detail {

using nlohmann::json;

nlohmann::json parseDocument(std::string_view text, std::size_t maxBytes)
{
    if (text.size() > maxBytes)
        throw ParseFailure { "",
                             "file is " + std::to_string(text.size()) + " bytes; the limit is "
                                 + std::to_string(maxBytes >> 20) + " MiB" };
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw ParseFailure { "", "file is empty" };
    bool tooDeep = false;
    // nlohmann keeps the last of two equal keys and drops the first without a word, so a file with two
    // "bandwidth_gb_per_s" (or two sources with one id) would load with one of them ignored: track the keys of
    // every open object, and where each container sits, to name the repeated key by its path.
    struct Open {
        bool isObject = false;
        std::size_t index = 0; // arrays: the element being read
        std::string key;       // objects: the member being read
        std::set<std::string> keys;
    };
    std::vector<Open> open;
    std::optional<ParseFailure> repeated;
    auto pathOfKey = [&](const std::string& key) {
        std::string p;
        for (std::size_t i = 0; i + 1 < open.size(); ++i)
            p += open[i].isObject ? (p.empty() ? "" : ".") + open[i].key : "[" + std::to_string(open[i].index) + "]";
        return p + (p.empty() ? "" : ".") + key;
    };
    auto nextElement = [&] {
        if (!open.empty() && !open.back().isObject)
            ++open.back().index;
    };
    json::parser_callback_t limit = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth > kMaxJsonDepth)
            tooDeep = true;
        if (tooDeep)
            return false;
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            open.push_back({ event == json::parse_event_t::object_start, 0, {}, {} });
            break;
        case json::parse_event_t::key:
            open.back().key = parsed.get<std::string>();
            if (!open.back().keys.insert(open.back().key).second && !repeated)
                repeated = ParseFailure { pathOfKey(open.back().key), "is given twice; a key may appear only once" };
            break;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            open.pop_back();
            nextElement();
            break;
        case json::parse_event_t::value:
            nextElement();
            break;
        }
        return true;
    };
    try {
        json j = json::parse(text.begin(), text.end(), limit, true, false);
        if (tooDeep)
            throw ParseFailure { "", "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels" };
        if (repeated)
            throw ParseFailure(std::move(*repeated));
        return j;
    } catch (const json::parse_error& e) {
        if (tooDeep)
            throw ParseFailure { "", "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels" };
        throw ParseFailure { "", std::string("not valid JSON (byte ") + std::to_string(e.byte) + ")" };
    } catch (const json::exception& e) {
        // "[json.exception.out_of_range.406] number overflow parsing '1e400'": keep the reason, not the class.
        std::string what = e.what();
        if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos)
            what.erase(0, what.find("] ") + 2);
        throw ParseFailure { "", "not valid JSON: " + what };
    }
}

std::string formatNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string describe(const json& j)
{
    switch (j.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return j.get<bool>() ? "true" : "false";
    case json::value_t::string: {
        std::string s = j.get<std::string>();
        if (s.size() > 40)
            s = s.substr(0, 40) + "...";
        return "the string \"" + s + "\"";
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return formatNumber(j.get<double>());
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    default:
        return "an unsupported value";
    }
}

ObjectReader::ObjectReader(const json& j, std::string path)
    : m_j(j)
    , m_path(std::move(path))
{
    if (!m_j.is_object())
        throw ParseFailure { m_path.empty() ? std::string("(top level)") : m_path,
                             "must be an object, got " + describe(m_j) };
}

std::string ObjectReader::path(std::string_view key) const
{
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

void ObjectReader::fail(std::string_view key, std::string message) const
{
    throw ParseFailure { path(key), std::move(message) };
}

const json* ObjectReader::find(std::string_view key) const
{
    auto it = m_j.find(key);
    return it == m_j.end() || it->is_null() ? nullptr : &*it;
}

const json& ObjectReader::require(std::string_view key) const
{
    const json* v = find(key);
    if (!v)
        fail(key, "is required");
    return *v;
}

double ObjectReader::number(std::string_view key, double min, double max) const
{
    const json& v = require(key);
    if (!v.is_number())
        fail(key, "must be a number, got " + describe(v));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < min || d > max)
        fail(key,
             "must be a number between " + formatNumber(min) + " and " + formatNumber(max) + ", got " + describe(v));
    return d;
}

double ObjectReader::numberOr(std::string_view key, double fallback, double min, double max) const
{
    return has(key) ? number(key, min, max) : fallback;
}

std::int64_t ObjectReader::integer(std::string_view key, std::int64_t min, std::int64_t max) const
{
    const json& v = require(key);
    if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
        fail(key, "must be a whole number, got " + describe(v));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < double(min) || d > double(max))
        fail(key,
             "must be a whole number between " + std::to_string(min) + " and " + std::to_string(max) + ", got "
                 + describe(v));
    return v.is_number_integer() ? v.get<std::int64_t>() : static_cast<std::int64_t>(d);
}

std::int64_t ObjectReader::integerOr(std::string_view key, std::int64_t fallback, std::int64_t min,
                                     std::int64_t max) const
{
    return has(key) ? integer(key, min, max) : fallback;
}

bool ObjectReader::boolean(std::string_view key) const
{
    const json& v = require(key);
    if (!v.is_boolean())
        fail(key, "must be true or false, got " + describe(v));
    return v.get<bool>();
}

bool ObjectReader::booleanOr(std::string_view key, bool fallback) const { return has(key) ? boolean(key) : fallback; }

std::string ObjectReader::string(std::string_view key, std::size_t maxLength) const
{
    const json& v = require(key);
    if (!v.is_string())
        fail(key, "must be a string, got " + describe(v));
    std::string s = v.get<std::string>();
    if (s.size() > maxLength)
        fail(key, "is longer than " + std::to_string(maxLength) + " characters");
    return s;
}

std::string ObjectReader::stringOr(std::string_view key, std::string fallback, std::size_t maxLength) const
{
    return has(key) ? string(key, maxLength) : std::move(fallback);
}

ObjectReader ObjectReader::object(std::string_view key) const
{
    const json& v = require(key);
    if (!v.is_object())
        fail(key, "must be an object, got " + describe(v));
    return ObjectReader(v, path(key));
}

std::optional<ObjectReader> ObjectReader::objectOr(std::string_view key) const
{
    if (!has(key))
        return std::nullopt;
    return object(key);
}

const json& ObjectReader::array(std::string_view key, std::size_t maxItems) const
{
    const json& v = require(key);
    if (!v.is_array())
        fail(key, "must be an array, got " + describe(v));
    if (v.size() > maxItems)
        fail(key, "has " + std::to_string(v.size()) + " items; the limit is " + std::to_string(maxItems));
    return v;
}

} // namespace headroom::detail
