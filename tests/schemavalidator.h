#pragma once

// A validator for the subset of JSON Schema 2020-12 that docs/schema/*.schema.json use, for tst_schemas. A schema
// using any other keyword makes validation fail instead of being half-checked.

#include <nlohmann/json.hpp>

#include <QFile>
#include <QString>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace headroom::test {

using nlohmann::json;

// Where a value sits, written as the loaders write Error::field: "memory.capacity_gb.value", "cnn.layers[1].name".
std::string member(const std::string& at, const std::string& key) { return at.empty() ? key : at + "." + key; }
std::string element(const std::string& at, std::size_t i) { return at + "[" + std::to_string(i) + "]"; }

struct SchemaError {
    std::string at;
    std::string message;
};

// JSON Schema 2020-12, restricted to the keywords below; a schema using another keyword fails the test instead of
// being half-checked. $ref takes "#/$defs/x" or a sibling file's name ("headroom-model.schema.json").
class SchemaValidator {
public:
    static const std::set<std::string>& keywords()
    {
        static const std::set<std::string> k { "$schema",
                                               "$id",
                                               "$ref",
                                               "$defs",
                                               "$comment",
                                               "title",
                                               "description",
                                               "type",
                                               "const",
                                               "enum",
                                               "properties",
                                               "required",
                                               "additionalProperties",
                                               "minProperties",
                                               "maxProperties",
                                               "items",
                                               "minItems",
                                               "maxItems",
                                               "contains",
                                               "minimum",
                                               "maximum",
                                               "exclusiveMinimum",
                                               "exclusiveMaximum",
                                               "minLength",
                                               "maxLength",
                                               "pattern",
                                               "allOf",
                                               "anyOf",
                                               "oneOf",
                                               "not",
                                               "if",
                                               "then",
                                               "else" };
        return k;
    }

    void add(const std::string& fileName, json schema) { m_documents[fileName] = std::move(schema); }
    const json& document(const std::string& fileName) const { return m_documents.at(fileName); }

    std::vector<SchemaError> validate(const json& v, const std::string& fileName) const
    {
        std::vector<SchemaError> errors;
        check(v, document(fileName), document(fileName), "", errors);
        return errors;
    }

private:
    static bool hasType(const json& v, const std::string& t)
    {
        if (t == "integer")
            return v.is_number_integer()
                || (v.is_number_float() && std::isfinite(v.get<double>())
                    && std::floor(v.get<double>()) == v.get<double>());
        return (t == "number" && v.is_number()) || (t == "string" && v.is_string())
            || (t == "boolean" && v.is_boolean()) || (t == "object" && v.is_object()) || (t == "array" && v.is_array())
            || (t == "null" && v.is_null());
    }

    static std::size_t characters(const std::string& s) // code points, as JSON Schema counts string length
    {
        return std::size_t(
            std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    }

    bool valid(const json& v, const json& s, const json& root) const
    {
        std::vector<SchemaError> scratch;
        check(v, s, root, "", scratch);
        return scratch.empty();
    }

    void check(const json& v, const json& s, const json& root, const std::string& at,
               std::vector<SchemaError>& out) const
    {
        auto fail = [&](const std::string& where, std::string message) {
            out.push_back({ where, std::move(message) });
        };
        if (s.is_boolean()) {
            if (!s.get<bool>())
                fail(at, "no value is allowed here");
            return;
        }
        if (auto ref = s.find("$ref"); ref != s.end()) {
            const std::string r = ref->get<std::string>();
            const auto hash = r.find('#');
            const std::string file = r.substr(0, hash);
            const json& target = file.empty() ? root : document(file);
            const json& sub = hash == std::string::npos ? target : target.at(json::json_pointer(r.substr(hash + 1)));
            check(v, sub, target, at, out);
        }
        if (auto t = s.find("type"); t != s.end()) {
            const json types = t->is_array() ? *t : json::array({ *t });
            if (std::none_of(types.begin(), types.end(),
                             [&](const json& x) { return hasType(v, x.get<std::string>()); }))
                return fail(at, "must be of type " + types.dump() + ", got " + v.dump());
        }
        if (auto c = s.find("const"); c != s.end() && v != *c)
            fail(at, "must be " + c->dump() + ", got " + v.dump());
        if (auto e = s.find("enum"); e != s.end() && std::find(e->begin(), e->end(), v) == e->end())
            fail(at, "must be one of " + e->dump() + ", got " + v.dump());
        if (v.is_number()) {
            const double d = v.get<double>();
            if (s.contains("minimum") && d < s["minimum"].get<double>())
                fail(at, "is below the minimum " + s["minimum"].dump());
            if (s.contains("maximum") && d > s["maximum"].get<double>())
                fail(at, "is above the maximum " + s["maximum"].dump());
            if (s.contains("exclusiveMinimum") && d <= s["exclusiveMinimum"].get<double>())
                fail(at, "must be above " + s["exclusiveMinimum"].dump());
            if (s.contains("exclusiveMaximum") && d >= s["exclusiveMaximum"].get<double>())
                fail(at, "must be below " + s["exclusiveMaximum"].dump());
        }
        if (v.is_string()) {
            const std::string& str = v.get_ref<const std::string&>();
            if (s.contains("minLength") && characters(str) < s["minLength"].get<std::size_t>())
                fail(at, "is shorter than " + s["minLength"].dump());
            if (s.contains("maxLength") && characters(str) > s["maxLength"].get<std::size_t>())
                fail(at, "is longer than " + s["maxLength"].dump());
            if (s.contains("pattern") && !std::regex_search(str, regex(s["pattern"].get<std::string>())))
                fail(at, "does not match " + s["pattern"].dump());
        }
        if (v.is_array()) {
            if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>())
                fail(at, "has fewer than " + s["minItems"].dump() + " items");
            if (s.contains("maxItems") && v.size() > s["maxItems"].get<std::size_t>())
                fail(at, "has more than " + s["maxItems"].dump() + " items");
            if (s.contains("items")) {
                for (std::size_t i = 0; i < v.size(); ++i)
                    check(v[i], s["items"], root, element(at, i), out);
            }
            if (s.contains("contains")
                && std::none_of(v.begin(), v.end(), [&](const json& x) { return valid(x, s["contains"], root); }))
                fail(at, "has no item matching " + s["contains"].dump());
        }
        if (v.is_object()) {
            for (const auto& key : s.value("required", json::array())) {
                if (!v.contains(key.get<std::string>()))
                    fail(member(at, key), "is required");
            }
            const json props = s.value("properties", json::object());
            for (const auto& [key, value] : v.items()) {
                if (props.contains(key))
                    check(value, props[key], root, member(at, key), out);
                else if (s.contains("additionalProperties"))
                    check(value, s["additionalProperties"], root, member(at, key), out);
            }
            if (s.contains("minProperties") && v.size() < s["minProperties"].get<std::size_t>())
                fail(at, "has fewer than " + s["minProperties"].dump() + " members");
            if (s.contains("maxProperties") && v.size() > s["maxProperties"].get<std::size_t>())
                fail(at, "has more than " + s["maxProperties"].dump() + " members");
        }
        for (const auto& sub : s.value("allOf", json::array()))
            check(v, sub, root, at, out);
        for (const char* combinator : { "anyOf", "oneOf" }) {
            if (!s.contains(combinator))
                continue;
            std::vector<SchemaError> branches;
            int matched = 0;
            for (const auto& sub : s[combinator]) {
                const std::size_t before = branches.size();
                check(v, sub, root, at, branches);
                matched += branches.size() == before;
            }
            // The branches' own errors come along: they name the field that made the value fit no branch.
            if (matched == 0) {
                fail(at, std::string("matches no branch of ") + combinator);
                out.insert(out.end(), branches.begin(), branches.end());
            } else if (matched > 1 && std::string(combinator) == "oneOf") {
                fail(at, "matches more than one branch of oneOf");
            }
        }
        if (s.contains("not") && valid(v, s["not"], root))
            fail(at, "must not match " + s["not"].dump());
        if (s.contains("if")) {
            const char* branch = valid(v, s["if"], root) ? "then" : "else";
            if (s.contains(branch))
                check(v, s[branch], root, at, out);
        }
    }

    const std::regex& regex(const std::string& pattern) const
    {
        auto it = m_regexes.find(pattern);
        if (it == m_regexes.end())
            it = m_regexes.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
        return it->second;
    }

    std::map<std::string, json> m_documents;
    mutable std::map<std::string, std::regex> m_regexes;
};

} // namespace headroom::test
