// Number formatting for people: thousands separators, GiB, compact parameter counts.
// The engine computes; this only decides how a number reads.
#pragma once

#include <string>

namespace ui {

std::string WithThousands(long long value);      // 1234567 -> "1,234,567"
std::string GibText(double bytes);              // "15.0 GiB", "512 MiB"
std::string ParamsText(double params);          // "8.03 B", "41.9 M"
std::string SecondsText(double seconds);        // "850 ms", "12.3 s", "4.2 min"
std::string HoursText(double hours);            // "45 min", "12.5 h", "3.4 days"
std::string FlopsText(double flops);            // "51.5 GFLOP"
std::string GbText(double bytes);               // "112 GB", "1.6 TB" (decimal, as storage is sold)
std::string QuantityText(double value);         // "3", "1.5", "1,274"

// printf into a std::string, for formats that come from T() (translated formats keep the
// English one's conversions, in the same order).
std::string Printf(const char* format, ...);

}  // namespace ui
