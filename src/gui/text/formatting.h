#pragma once

// Numbers for people, in the user's locale: bytes in binary units (as the driver reports memory), seconds,
// FLOP/s and counts.

#include <QString>

#include <cstdint>

namespace headroom::gui {

QString formatBytes(double bytes, int decimals = 2);
QString formatGiB(double bytes, int decimals = 1); // "11.4 GiB", the unit of the memory charts
QString formatSeconds(double seconds);
// Long times as people say them: seconds below a minute, then minutes, hours and days ("44.5 min", "4.8 h").
QString formatDuration(double seconds);
QString formatFlopsPerSecond(double flops);
QString formatBandwidth(double bytesPerSecond);
QString formatCount(double n);
QString formatWhole(std::int64_t n); // every digit, grouped in the window's locale: "6,738,415,616"
QString formatRate(double perSecond, const QString& unit);
QString formatPercent(double fraction, int decimals = 1);

} // namespace headroom::gui
