// Dates as the catalog writes them ("2024-08", "2023-24 new / 2026-05 used", "2021
// (datasheet r4)"): how old a price is, for the page's "older than a year" flag and the
// CLI's stale-price list.
#pragma once

#include <string>

namespace engine {

// A price more than this many days older than the catalog's compile date is flagged
// (issue 19: prices under a year old, or shown with their date).
inline constexpr long kStalePriceDays = 365;

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
long DaysFromCivil(int year, int month, int day);

// Days since 1970-01-01 of the newest date `text` mentions, each read as the end of its
// period ("2021" → 2021-12-31, "2026-05" → 2026-05-31, "2026-05-08" that day); -1 when it
// names none.
long NewestDay(const std::string& text);

// How many days before `as_of` (a catalog compile date) the price dated `price_date` was
// last seen (0 when its period runs past `as_of`); -1 when either names no date.
long PriceAgeDays(const std::string& price_date, const std::string& as_of);

// A price to check before trusting: seen more than kStalePriceDays before `as_of`, or undated.
inline bool PriceIsStale(const std::string& price_date, const std::string& as_of) {
  const long age_days = PriceAgeDays(price_date, as_of);
  return age_days < 0 || age_days > kStalePriceDays;
}

}  // namespace engine
