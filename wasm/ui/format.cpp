#include "format.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "engine/format.h"
#include "engine/units.h"
#include "i18n.h"

namespace ui {
namespace {

// The sign written before an amount, or "" when the code goes after it.
std::string_view CurrencySign(std::string_view currency) {
  if (currency == "USD") return "$";
  if (currency == "CNY" || currency == "JPY") return "\u00A5";  // ¥
  if (currency == "EUR") return "\u20AC";                       // €
  if (currency == "GBP") return "\u00A3";                       // £
  return "";
}

// An unsigned amount already written out, with the minus and the currency's sign or code.
std::string WithCurrency(bool negative, const std::string& digits, std::string_view currency) {
  const std::string_view sign = CurrencySign(currency);
  const std::string minus = negative ? "-" : "";
  if (!sign.empty()) return minus + std::string(sign) + digits;
  return minus + digits + (currency.empty() ? "" : " " + std::string(currency));
}

// `value` with one decimal, without a trailing ".0": 1.25 -> "1.3", 2.0 -> "2".
std::string OneDecimal(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", value);
  std::string out = buf;
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

// Chinese counts large amounts in 万 (10^4) and 亿 (10^8): a million is "100万", 13.3
// million "1,328万", 250 million "2.5亿", 3 trillion "3万亿".
std::string CompactChinese(double magnitude) {
  if (magnitude >= 0.99995e12) return OneDecimal(magnitude / 1e12) + "万亿";
  if (magnitude >= 0.99995e8) {
    const double yi = magnitude / 1e8;
    return (yi < 99.95 ? OneDecimal(yi) : WithThousands(yi)) + "亿";
  }
  return WithThousands(magnitude / 1e4) + "万";
}

// A magnitude of a million or more as "1.2M", "35M", "1.5B", "2T" (three figures at most),
// and from 999.5 trillion (where "T" would need four figures) in e-notation: "9.3e18"; in
// Chinese with 万 and 亿.
std::string CompactMillions(double magnitude) {
  if (!(magnitude < 999.5e12)) return engine::Num(magnitude);
  if (Language() == Lang::kZh) return CompactChinese(magnitude);
  const bool trillions = magnitude >= 999.5e9, billions = magnitude >= 999.5e6;
  const double unit = trillions ? 1e12 : billions ? 1e9 : 1e6;
  const double value = magnitude / unit;
  const std::string digits = value < 99.95 ? OneDecimal(value) : WithThousands(value);
  return digits + (trillions ? "T" : billions ? "B" : "M");
}

}  // namespace

// engine::Money is the one whole-number writer: it never goes through an integer type.
std::string WithThousands(double value) { return engine::Money(value); }

std::string GibText(double bytes) {
  char buf[32];
  const double gib = bytes / engine::kGiB;
  if (std::fabs(gib) < 1.0) {
    std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / (1024.0 * 1024.0));
  } else if (std::fabs(gib) < 100) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
  } else {
    return WithThousands(gib) + " GiB";
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
    return WithThousands(params);
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
  if (v >= 1000) return WithThousands(v);
  // Below 0.01 two decimals say "0.00": three significant digits instead (0.000412 TB).
  const char* format = v == std::floor(v) ? "%.0f" : std::fabs(v) < 0.01 ? "%.3g" : "%.2f";
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string FlopsRateText(double flops_per_s) {
  char buf[32];
  if (flops_per_s >= 1e15) {
    std::snprintf(buf, sizeof buf, "%.2f PFLOP/s", flops_per_s / 1e15);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f TFLOP/s", flops_per_s / 1e12);
  }
  return buf;
}

std::string MoneyText(double amount, std::string_view currency) {
  if (!std::isfinite(amount)) return WithCurrency(amount < 0, engine::Money(std::fabs(amount)), currency);
  const double magnitude = std::fabs(amount);
  const bool negative = amount < 0 && magnitude >= 0.005;  // no "-$0.00"
  if (magnitude >= 999999.5) return WithCurrency(negative, CompactMillions(magnitude), currency);
  if (magnitude >= 99.995 || magnitude < 0.005) {
    return WithCurrency(negative, WithThousands(magnitude), currency);
  }
  char cents[32];
  std::snprintf(cents, sizeof cents, "%.2f", magnitude);
  return WithCurrency(negative, cents, currency);
}

std::string MoneyPerHourText(double amount, std::string_view currency) {
  return Printf(T("%s/h"), MoneyText(amount, currency).c_str());
}

std::string MoneyTickText(double amount, std::string_view currency) {
  const double magnitude = std::fabs(amount);
  std::string digits;
  if (magnitude >= 999999.5) {
    digits = CompactMillions(magnitude);
  } else if (magnitude >= 999.5) {
    digits = OneDecimal(magnitude / 1e3) + "k";
  } else {
    digits = WithThousands(magnitude);
  }
  return WithCurrency(amount < 0 && magnitude >= 0.5, digits, currency);
}

}  // namespace ui
