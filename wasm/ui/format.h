// Number formatting for people: thousands separators, GiB, compact parameter counts.
// The engine computes; this only decides how a number reads.
#pragma once

#include <string>
#include <string_view>

namespace ui {

std::string WithThousands(double value);         // 1234567 -> "1,234,567"; 9.3e18 -> "9.3e18" (engine::Money)
std::string GibText(double bytes);              // "15.0 GiB", "512 MiB"
std::string ParamsText(double params);          // "8.03 B", "41.9 M"
std::string SecondsText(double seconds);        // "850 ms", "12.3 s", "4.2 min"
std::string HoursText(double hours);            // "45 min", "12.5 h", "3.4 days"
std::string FlopsText(double flops);            // "51.5 GFLOP"
std::string GbText(double bytes);               // "112 GB", "1.6 TB" (decimal, as storage is sold)
std::string QuantityText(double value);         // "3", "1.5", "1,274"
std::string FlopsRateText(double flops_per_s);  // "989 TFLOP/s", "2.25 PFLOP/s"

// Money with the currency's sign in front where it has a common one ($ USD, ¥ CNY and JPY,
// € EUR, £ GBP), else the code after it ("136 CHF"). Whole units with thousands
// separators from 100 up ("$136", "$40,000"), cents below ("$2.40", so hourly prices keep
// their precision), compact from a million ("$1.2M", "$35M", "$1.5B", "$2T"), e-notation
// from 999.5 trillion ("$9.3e18"). Safe for any double: nothing goes through an integer.
std::string MoneyText(double amount, std::string_view currency);
// An hourly price: "$2.40/h", "¥1,234/h".
std::string MoneyPerHourText(double amount, std::string_view currency);
// A short chart tick: "$0", "$500", "$20k", "$1.5M".
std::string MoneyTickText(double amount, std::string_view currency);

// printf into a std::string, for formats that come from T() (translated formats keep the
// English one's conversions, in the same order).
std::string Printf(const char* format, ...);

}  // namespace ui
