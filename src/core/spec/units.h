#pragma once

// Units, once. Memory is counted in bytes everywhere in the core; these turn bytes into the binary units the CUDA
// driver and nvidia-smi report (GiB, MiB) and rates into the decimal units datasheets use (GB/s, TFLOP/s).

namespace headroom::units {

inline constexpr double kKiB = 1024.0;
inline constexpr double kMiB = 1024.0 * kKiB; // 1048576
inline constexpr double kGiB = 1024.0 * kMiB; // 1073741824
inline constexpr double kGB = 1e9;            // decimal: datasheet capacities and bandwidths
inline constexpr double kTera = 1e12;         // TFLOP/s

inline constexpr double toGiB(double bytes) { return bytes / kGiB; }
inline constexpr double toMiB(double bytes) { return bytes / kMiB; }
inline constexpr double fromGiB(double gib) { return gib * kGiB; }
inline constexpr double fromMiB(double mib) { return mib * kMiB; }

} // namespace headroom::units
