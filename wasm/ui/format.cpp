#include "format.h"

#include <cmath>
#include <cstdio>

#include "engine/units.h"

namespace ui {

std::string WithThousands(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = int(digits.size()) - 3; i > 0; i -= 3) digits.insert(size_t(i), ",");
  return value < 0 ? "-" + digits : digits;
}

std::string GibText(double bytes) {
  char buf[32];
  const double gib = bytes / engine::kGiB;
  if (std::fabs(gib) < 1.0) {
    std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / (1024.0 * 1024.0));
  } else if (std::fabs(gib) < 100) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
  } else {
    return WithThousands(std::llround(gib)) + " GiB";
  }
  return buf;
}

std::string ParamsText(double params) {
  char buf[32];
  if (params >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f B", params / 1e9);
  } else if (params >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f M", params / 1e6);
  } else {
    return WithThousands(std::llround(params));
  }
  return buf;
}

}  // namespace ui
