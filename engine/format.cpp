#include "format.h"

#include <cmath>
#include <cstdio>

#include "units.h"

namespace engine {

std::string Num(double value) {
  char buf[32];
  const double magnitude = std::fabs(value);
  if (magnitude != 0 && (magnitude >= 1e5 || magnitude < 1e-3)) {
    std::snprintf(buf, sizeof buf, "%.3g", value);
    std::string s = buf;
    // "8.03e+09" -> "8.03e9", "1e-05" -> "1e-5"
    const auto e = s.find('e');
    if (e == std::string::npos) return s;  // %g keeps 1e-4..1e-3 in plain notation: "0.000886"
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    const bool negative = exponent[0] == '-';
    exponent.erase(0, 1);
    exponent.erase(0, exponent.find_first_not_of('0'));
    return mantissa + "e" + (negative ? "-" : "") + exponent;
  }
  std::snprintf(buf, sizeof buf, magnitude >= 1000 ? "%.0f" : "%.3g", value);
  return buf;
}

std::string Money(double amount) {
  const std::string digits = std::to_string(std::llround(std::fabs(amount)));
  std::string out = amount < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string GiBText(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
  return buf;
}

}  // namespace engine
