// Money as people read it: the currency's sign, thousands separators, cents only where
// they matter, compact millions. Expectations written by hand.
#include <gtest/gtest.h>

#include <limits>

#include "wasm/ui/format.h"
#include "wasm/ui/i18n.h"

namespace {

TEST(MoneyText, PutsTheSignOfKnownCurrenciesInFront) {
  EXPECT_EQ(ui::MoneyText(136, "USD"), "$136");
  EXPECT_EQ(ui::MoneyText(1234, "CNY"), "\u00A51,234");
  EXPECT_EQ(ui::MoneyText(116, "EUR"), "\u20AC116");
  EXPECT_EQ(ui::MoneyText(250, "GBP"), "\u00A3250");
}

// Issue 18: the 中文 page counts millions in 万 and 亿, as Chinese readers do.
TEST(MoneyText, ChineseCountsInWanAndYi) {
  ui::SetLanguage(ui::Lang::kZh);
  EXPECT_EQ(ui::MoneyText(2.2e6, "CNY"), "\u00A5220\u4E07");           // ¥220万
  EXPECT_EQ(ui::MoneyText(13275072, "CNY"), "\u00A51,328\u4E07");      // ¥1,328万
  EXPECT_EQ(ui::MoneyText(2.5e8, "USD"), "$2.5\u4EBF");                 // $2.5亿
  EXPECT_EQ(ui::MoneyText(40000, "CNY"), "\u00A540,000");              // below a million: digits
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_EQ(ui::MoneyText(2.2e6, "CNY"), "\u00A52.2M");
}

TEST(MoneyText, WritesOtherCodesAfterTheAmount) {
  EXPECT_EQ(ui::MoneyText(136, "CHF"), "136 CHF");
  EXPECT_EQ(ui::MoneyText(136, ""), "136");
}

TEST(MoneyText, RoundsToWholeUnitsWithThousandsSeparators) {
  EXPECT_EQ(ui::MoneyText(40000, "USD"), "$40,000");
  EXPECT_EQ(ui::MoneyText(135.6, "USD"), "$136");
  EXPECT_EQ(ui::MoneyText(999999.4, "USD"), "$999,999");
  EXPECT_EQ(ui::MoneyText(100, "USD"), "$100");
}

TEST(MoneyText, KeepsCentsBelowAHundred) {
  EXPECT_EQ(ui::MoneyText(2.4, "USD"), "$2.40");
  EXPECT_EQ(ui::MoneyText(98.32, "USD"), "$98.32");
  EXPECT_EQ(ui::MoneyText(0.35, "EUR"), "\u20AC0.35");
  EXPECT_EQ(ui::MoneyText(99.996, "USD"), "$100");  // rounds up to whole units, not "$100.00"
  EXPECT_EQ(ui::MoneyText(0, "USD"), "$0");
}

TEST(MoneyText, IsCompactFromAMillion) {
  EXPECT_EQ(ui::MoneyText(1.2e6, "USD"), "$1.2M");
  EXPECT_EQ(ui::MoneyText(999999.6, "USD"), "$1M");
  EXPECT_EQ(ui::MoneyText(35e6, "CNY"), "\u00A535M");
  EXPECT_EQ(ui::MoneyText(123.4e6, "USD"), "$123M");
  EXPECT_EQ(ui::MoneyText(1.5e9, "USD"), "$1.5B");
  EXPECT_EQ(ui::MoneyText(999.7e6, "USD"), "$1B");
}

TEST(MoneyText, PutsTheMinusBeforeTheSign) {
  EXPECT_EQ(ui::MoneyText(-5, "USD"), "-$5.00");
  EXPECT_EQ(ui::MoneyText(-4200, "CHF"), "-4,200 CHF");
  EXPECT_EQ(ui::MoneyText(-0.001, "USD"), "$0");
}

// Issue 14: amounts past 9.2e18 went through llround and came out "$--9,223,372,…".
// Every finite double reads right: trillions, then e-notation from 999.5 trillion.
TEST(MoneyText, IsSafeForAnyAmount) {
  EXPECT_EQ(ui::MoneyText(0, "USD"), "$0");
  EXPECT_EQ(ui::MoneyText(1234.5, "USD"), "$1,235");
  EXPECT_EQ(ui::MoneyText(-1234.5, "USD"), "-$1,235");
  EXPECT_EQ(ui::MoneyText(2.5e12, "USD"), "$2.5T");
  EXPECT_EQ(ui::MoneyText(999.4e12, "USD"), "$999T");
  EXPECT_EQ(ui::MoneyText(9.3e18, "USD"), "$9.3e18");
  EXPECT_EQ(ui::MoneyText(-9.3e18, "USD"), "-$9.3e18");
  EXPECT_EQ(ui::MoneyText(1e300, "USD"), "$1e300");
  EXPECT_EQ(ui::MoneyText(1e300, "CHF"), "1e300 CHF");
  EXPECT_EQ(ui::MoneyText(std::numeric_limits<double>::infinity(), "USD"), "$inf");
  EXPECT_EQ(ui::MoneyTickText(9.3e18, "EUR"), "\u20AC9.3e18");
  EXPECT_EQ(ui::WithThousands(9.3e18), "9.3e18");
  EXPECT_EQ(ui::WithThousands(1234567), "1,234,567");
  EXPECT_EQ(ui::QuantityText(1e300), "1e300");
  EXPECT_EQ(ui::QuantityText(0.000412), "0.000412");  // a 100M-token dataset in TB, not "0.00"
  EXPECT_EQ(ui::QuantityText(2.5), "2.50");
}

TEST(MoneyText, PerHourAndTicks) {
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_EQ(ui::MoneyPerHourText(2.4, "USD"), "$2.40/h");
  EXPECT_EQ(ui::MoneyPerHourText(1234, "CNY"), "\u00A51,234/h");
  EXPECT_EQ(ui::MoneyTickText(0, "USD"), "$0");
  EXPECT_EQ(ui::MoneyTickText(500, "USD"), "$500");
  EXPECT_EQ(ui::MoneyTickText(20000, "EUR"), "\u20AC20k");
  EXPECT_EQ(ui::MoneyTickText(2500, "USD"), "$2.5k");
  EXPECT_EQ(ui::MoneyTickText(1.5e6, "USD"), "$1.5M");
}

TEST(FlopsRateText, UsesTeraOrPeta) {
  EXPECT_EQ(ui::FlopsRateText(989.4e12), "989 TFLOP/s");
  EXPECT_EQ(ui::FlopsRateText(2.25e15), "2.25 PFLOP/s");
}

}  // namespace
