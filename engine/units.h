// Unit constants. Inside the engine every quantity is in SI base units (bytes, seconds,
// FLOP/s, USD); conversions to GiB/hours/TFLOP/s happen only at the edges.
#pragma once

namespace engine {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;  // 2^30 bytes
inline constexpr double kGB = 1e9;                         // vendor gigabyte
inline constexpr double kTera = 1e12;
inline constexpr double kBillion = 1e9;

inline constexpr double kSecondsPerHour = 3600;

// Calendar hours, as cloud and colocation prices count them: a 365-day year and its
// twelfth, the 730-hour month (AWS and most clouds bill a month as 730 hours).
inline constexpr double kHoursPerYear = 8760;
inline constexpr double kHoursPerMonth = kHoursPerYear / 12;

}  // namespace engine
