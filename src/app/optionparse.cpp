#include "optionparse.h"

namespace headroom {

std::optional<QString> number(const QCommandLineParser& p, const QCommandLineOption& o, double min, double max,
                              double* v)
{
    if (!p.isSet(o))
        return std::nullopt;
    bool ok = false;
    const QString text = p.value(o);
    const double d = text.toDouble(&ok);
    if (!ok || !std::isfinite(d) || d < min || d > max) {
        return QStringLiteral("--%1: \"%2\" is not a number between %3 and %4")
            .arg(o.names().first(), text, QString::number(min, 'g', 10), QString::number(max, 'g', 10));
    }
    *v = d;
    return std::nullopt;
}

std::optional<QString> integer(const QCommandLineParser& p, const QCommandLineOption& o, qint64 min, qint64 max,
                               std::int64_t* v)
{
    if (!p.isSet(o))
        return std::nullopt;
    bool ok = false;
    const QString text = p.value(o);
    const qint64 n = text.toLongLong(&ok);
    if (!ok || n < min || n > max) {
        return QStringLiteral("--%1: \"%2\" is not a whole number between %3 and %4")
            .arg(o.names().first(), text)
            .arg(min)
            .arg(max);
    }
    *v = n;
    return std::nullopt;
}

std::optional<QString> integer(const QCommandLineParser& p, const QCommandLineOption& o, int min, int max, int* v)
{
    std::int64_t n = *v;
    auto e = integer(p, o, qint64(min), qint64(max), &n);
    if (!e)
        *v = int(n);
    return e;
}

} // namespace headroom
