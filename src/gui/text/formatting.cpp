#include "formatting.h"
#include "units.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace headroom::gui {

namespace {
    QString number(double v, int decimals) { return QLocale().toString(v, 'f', decimals); }
}

QString formatBytes(double bytes, int decimals)
{
    const double a = std::fabs(bytes);
    if (!std::isfinite(bytes))
        return QStringLiteral("∞");
    if (a >= 1099511627776.0)
        return QCoreApplication::translate("Format", "%1 TiB").arg(number(bytes / 1099511627776.0, decimals));
    if (a >= units::kGiB)
        return QCoreApplication::translate("Format", "%1 GiB").arg(number(bytes / units::kGiB, decimals));
    if (a >= units::kMiB)
        return QCoreApplication::translate("Format", "%1 MiB")
            .arg(number(bytes / units::kMiB, decimals > 1 ? 1 : decimals));
    if (a >= 1024.0)
        return QCoreApplication::translate("Format", "%1 KiB").arg(number(bytes / 1024.0, 1));
    return QCoreApplication::translate("Format", "%1 B").arg(number(bytes, 0));
}

QString formatGiB(double bytes, int decimals)
{
    return QCoreApplication::translate("Format", "%1 GiB").arg(number(bytes / units::kGiB, decimals));
}

QString formatSeconds(double s)
{
    if (!std::isfinite(s))
        return QStringLiteral("∞");
    if (s >= 86400.0)
        return QCoreApplication::translate("Format", "%1 days").arg(number(s / 86400.0, 1));
    if (s >= 3600.0)
        return QCoreApplication::translate("Format", "%1 h").arg(number(s / 3600.0, 1));
    if (s >= 1.0)
        return QCoreApplication::translate("Format", "%1 s").arg(number(s, 2));
    if (s >= 1e-3)
        return QCoreApplication::translate("Format", "%1 ms").arg(number(s * 1e3, 1));
    return QCoreApplication::translate("Format", "%1 µs").arg(number(s * 1e6, 0));
}

QString formatDuration(double s)
{
    if (std::isfinite(s) && s >= 60.0 && s < 3600.0)
        return QCoreApplication::translate("Format", "%1 min").arg(number(s / 60.0, 1));
    return formatSeconds(s);
}

QString formatFlopsPerSecond(double f)
{
    if (f >= 1e15)
        return QCoreApplication::translate("Format", "%1 PFLOP/s").arg(number(f / 1e15, 2));
    if (f >= 1e12)
        return QCoreApplication::translate("Format", "%1 TFLOP/s").arg(number(f / 1e12, f >= 1e14 ? 0 : 1));
    return QCoreApplication::translate("Format", "%1 GFLOP/s").arg(number(f / 1e9, 1));
}

QString formatBandwidth(double b)
{
    if (b >= 1e12)
        return QCoreApplication::translate("Format", "%1 TB/s").arg(number(b / 1e12, 2));
    return QCoreApplication::translate("Format", "%1 GB/s").arg(number(b / 1e9, 0));
}

QString formatWhole(std::int64_t n) { return QLocale().toString(qint64(n)); }

QString formatCount(double n)
{
    if (n >= 1e12)
        return QCoreApplication::translate("Format", "%1T").arg(number(n / 1e12, 2));
    if (n >= 1e9)
        return QCoreApplication::translate("Format", "%1B").arg(number(n / 1e9, 2));
    if (n >= 1e6)
        return QCoreApplication::translate("Format", "%1M").arg(number(n / 1e6, 1));
    if (n >= 1e3)
        return QCoreApplication::translate("Format", "%1K").arg(number(n / 1e3, 1));
    return number(n, 0);
}

QString formatRate(double perSecond, const QString& unit)
{
    return QCoreApplication::translate("Format", "%1 %2/s").arg(formatCount(perSecond), unit);
}

QString formatPercent(double fraction, int decimals)
{
    return QCoreApplication::translate("Format", "%1%").arg(number(fraction * 100.0, decimals));
}

} // namespace headroom::gui
