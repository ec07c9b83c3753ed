#pragma once

// Reading one command-line option's value with its range or its list of valid values. Each returns a message that
// names the option and says what is valid, or nothing when the option is absent (the value is left as it was) or
// good.

#include <QCommandLineParser>
#include <QString>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace headroom {

std::optional<QString> number(const QCommandLineParser& p, const QCommandLineOption& o, double min, double max,
                              double* v);
std::optional<QString> integer(const QCommandLineParser& p, const QCommandLineOption& o, qint64 min, qint64 max,
                               std::int64_t* v);
// The same into an int; min and max must lie within int's range.
std::optional<QString> integer(const QCommandLineParser& p, const QCommandLineOption& o, int min, int max, int* v);

template <typename E>
std::optional<QString> choice(const QCommandLineParser& p, const QCommandLineOption& o,
                              std::optional<E> (*parse)(std::string_view), const char* valid, E* v)
{
    if (!p.isSet(o))
        return std::nullopt;
    const QString text = p.value(o);
    const auto parsed = parse(text.toStdString());
    if (!parsed)
        return QStringLiteral("--%1: unknown value \"%2\"; valid: %3")
            .arg(o.names().first(), text, QLatin1String(valid));
    *v = *parsed;
    return std::nullopt;
}

} // namespace headroom
