#include "dates.h"

#include <algorithm>
#include <cctype>

namespace engine {

// Howard Hinnant's days_from_civil (public-domain algorithm, chrono date library).
long DaysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

namespace {

int Digits(const std::string& s, size_t at, size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// A year token counts as a date from the end of its period: "2021" = 2021-12-31,
// "2021-06" = 2021-06-30 (the figure was true at least until then).
long EndOfPeriod(int year, int month) {
  if (month < 1) return DaysFromCivil(year, 12, 31);
  return DaysFromCivil(month == 12 ? year + 1 : year, month == 12 ? 1 : month + 1, 1) - 1;
}

}  // namespace

long NewestDay(const std::string& text) {
  long newest = -1;
  for (size_t i = 0; i + 4 <= text.size(); ++i) {
    const bool starts_word = i == 0 || !std::isdigit(static_cast<unsigned char>(text[i - 1]));
    const int year = Digits(text, i, 4);
    if (!starts_word || year < 1990 || year > 2100 || (i + 4 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 4])))) {
      continue;
    }
    int month = -1;
    if (i + 7 <= text.size() && text[i + 4] == '-' && (i + 7 == text.size() || !std::isdigit(static_cast<unsigned char>(text[i + 7])))) {
      month = Digits(text, i + 5, 2);
      if (month > 12) month = -1;  // "2023-24" is a range of years, not a month
    }
    // A whole date is a period of one day.
    const bool has_day = month > 0 && i + 10 <= text.size() && text[i + 7] == '-' &&
                         (i + 10 == text.size() || !std::isdigit(static_cast<unsigned char>(text[i + 10])));
    const int day = has_day ? Digits(text, i + 8, 2) : -1;
    newest = std::max(newest, day >= 1 && day <= 31 ? DaysFromCivil(year, month, day) : EndOfPeriod(year, month));
  }
  return newest;
}

long PriceAgeDays(const std::string& price_date, const std::string& as_of) {
  const long seen = NewestDay(price_date);
  const long today = NewestDay(as_of);
  // A period that ends after `as_of` ("2026" read on 2026-12-04) held the price then.
  return seen < 0 || today < 0 ? -1 : std::max(0L, today - seen);
}

}  // namespace engine
