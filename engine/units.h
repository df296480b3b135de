// Unit constants. Inside the engine every quantity is in SI base units (bytes, seconds,
// FLOP/s, USD); conversions to GiB/hours/TFLOP/s happen only at the edges.
#pragma once

namespace engine {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;  // 2^30 bytes
inline constexpr double kGB = 1e9;                         // vendor gigabyte
inline constexpr double kTera = 1e12;
inline constexpr double kBillion = 1e9;

}  // namespace engine
