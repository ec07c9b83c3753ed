#pragma once

// Errors that name what was wrong and where: the file (origin), the field (a JSON path such as
// "memory.bandwidth_gb_per_s.value") and the reason. Loaders return Expected<T> and never throw.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace headroom {

// Whose fault an error is, or that none is (the caller stopped the work). Callers and the fuzzers tell them apart by
// this, never by the message's text (which quotes the user's input).
enum class ErrorKind : std::uint8_t {
    BadInput,  // the file or option is wrong: the user can fix it
    Internal,  // Headroom broke its own invariant, whatever the input (a bug to report)
    Cancelled, // the caller stopped the work (a plan a newer request superseded): nothing was wrong
};

struct Error {
    std::string origin;                   // file name or "command line"
    std::string field;                    // JSON path or option name; may be empty
    std::string message;                  // the reason, in plain words
    ErrorKind kind = ErrorKind::BadInput; // last, so that Error { origin, field, message } stays a bad input

    std::string toString() const
    {
        std::string s = origin.empty() ? std::string() : origin + ": ";
        if (!field.empty())
            s += field + ": ";
        return s + message;
    }
};

template <typename T>
class Expected {
public:
    Expected(T value)
        : m_v(std::move(value))
    {
    }
    Expected(Error error)
        : m_v(std::move(error))
    {
    }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_v); }
    const T& value() const { return std::get<0>(m_v); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, Error> m_v;
};

} // namespace headroom
