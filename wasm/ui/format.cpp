#include "format.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "engine/format.h"
#include "engine/units.h"
#include "i18n.h"

namespace ui {

std::string WithThousands(long long value) { return engine::Money(double(value)); }

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

std::string SecondsText(double s) {
  char buf[32];
  if (s < 1) {
    std::snprintf(buf, sizeof buf, "%.0f ms", s * 1e3);
  } else if (s < 120) {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
  }
  return buf;
}

std::string HoursText(double h) {
  char buf[32];
  if (h < 1) {
    std::snprintf(buf, sizeof buf, "%.0f min", h * 60);
  } else if (h < 48) {
    std::snprintf(buf, sizeof buf, "%.1f h", h);
  } else {
    std::snprintf(buf, sizeof buf, T("%.1f days"), h / 24);
  }
  return buf;
}

std::string FlopsText(double flops) {
  char buf[32];
  if (flops >= 1e12) {
    std::snprintf(buf, sizeof buf, "%.2f TFLOP", flops / 1e12);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GFLOP", flops / 1e9);
  }
  return buf;
}

std::string GbText(double bytes) {
  char buf[32];
  if (bytes >= 1e12) {
    std::snprintf(buf, sizeof buf, "%.2f TB", bytes / 1e12);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  }
  return buf;
}

std::string Printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(size > 0 ? size_t(size) : 0, '\0');
  if (size > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

std::string QuantityText(double v) {
  char buf[32];
  if (v >= 1000) return WithThousands(std::llround(v));
  std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.2f", v);
  return buf;
}

}  // namespace ui
