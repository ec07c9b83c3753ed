#pragma once

// Strict, path-aware reading of the JSON files Headroom loads. Every failure names the field by its JSON path and
// says what was expected, so that a bad file yields "gpus/t4.json: memory.bandwidth_gb_per_s.value: must be a
// number between 1 and 100000, got -5". Internal to the core's loaders.

#include "error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace headroom::detail {

struct ParseFailure {
    std::string field;
    std::string message;
};

inline constexpr std::size_t kMaxJsonBytes = 16u << 20; // 16 MiB: no preset or GPU file comes near it
inline constexpr int kMaxJsonDepth = 32;

// Parses text, rejecting oversized input, excessive nesting and syntax errors (with the byte offset).
nlohmann::json parseDocument(std::string_view text, std::size_t maxBytes = kMaxJsonBytes);

std::string describe(const nlohmann::json& j); // "a string", "the number 3", ...
std::string formatNumber(double v);

class ObjectReader {
public:
    ObjectReader(const nlohmann::json& j, std::string path);

    const nlohmann::json* find(std::string_view key) const;
    bool has(std::string_view key) const { return find(key) != nullptr; }
    std::string path(std::string_view key) const;

    double number(std::string_view key, double min, double max) const;
    double numberOr(std::string_view key, double fallback, double min, double max) const;
    std::int64_t integer(std::string_view key, std::int64_t min, std::int64_t max) const;
    std::int64_t integerOr(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max) const;
    bool boolean(std::string_view key) const;
    bool booleanOr(std::string_view key, bool fallback) const;
    std::string string(std::string_view key, std::size_t maxLength = 4096) const;
    std::string stringOr(std::string_view key, std::string fallback, std::size_t maxLength = 4096) const;
    ObjectReader object(std::string_view key) const;
    std::optional<ObjectReader> objectOr(std::string_view key) const;
    const nlohmann::json& array(std::string_view key, std::size_t maxItems) const;

    template <typename E>
    E choice(std::string_view key, std::initializer_list<std::pair<std::string_view, E>> table) const
    {
        const std::string s = string(key, 64);
        for (const auto& [name, value] : table) {
            if (name == s)
                return value;
        }
        std::string valid;
        for (const auto& [name, value] : table)
            valid += (valid.empty() ? "" : ", ") + std::string(name);
        throw ParseFailure { path(key), "unknown value \"" + s + "\"; valid: " + valid };
    }
    template <typename E>
    E choiceOr(std::string_view key, E fallback, std::initializer_list<std::pair<std::string_view, E>> table) const
    {
        return has(key) ? choice(key, table) : fallback;
    }

    [[noreturn]] void fail(std::string_view key, std::string message) const;
    const nlohmann::json& node() const { return m_j; }
    const std::string& basePath() const { return m_path; }

private:
    const nlohmann::json& require(std::string_view key) const;
    const nlohmann::json& m_j;
    std::string m_path;
};

} // namespace headroom::detail
