// Number formatting for people: thousands separators, GiB, compact parameter counts.
// The engine computes; this only decides how a number reads.
#pragma once

#include <string>

namespace ui {

std::string WithThousands(long long value);      // 1234567 -> "1,234,567"
std::string GibText(double bytes);              // "15.0 GiB", "512 MiB"
std::string ParamsText(double params);          // "8.03 B", "41.9 M"

}  // namespace ui
