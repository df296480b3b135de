#include "format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

std::string ExactNum(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e7) return std::to_string(static_cast<long long>(value));
  // Enough digits to tell 0.001 from 0.00099 (Num keeps three significant ones).
  std::string text = Num(value);
  if (std::strtod(text.c_str(), nullptr) == value) return text;
  char buffer[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

// Whole units are written out up to kMoneyDigitsBelow; above it, rounding to the unit
// means nothing (doubles hold whole numbers exactly only below 2^53 ≈ 9.0e15) and no
// training budget comes near it (world GDP was about 1.1e14 USD in 2024, IMF World
// Economic Outlook, October 2024), so the amount reads as e-notation, "9.3e18". Nothing
// goes through an integer type, which overflowed at 9.2e18 ("-9223372036854775808").
constexpr double kMoneyDigitsBelow = 1e15;

std::string Money(double amount) {
  if (std::isnan(amount)) return "nan";
  if (std::isinf(amount)) return amount < 0 ? "-inf" : "inf";
  const double whole = std::round(std::fabs(amount));  // half away from zero: 1234.5 -> 1235
  const std::string minus = amount < 0 && whole > 0 ? "-" : "";  // no "-0"
  if (whole >= kMoneyDigitsBelow) return minus + Num(whole);
  char digits[32];
  std::snprintf(digits, sizeof digits, "%.0f", whole);
  const size_t n = std::strlen(digits);
  std::string out = minus;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
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
