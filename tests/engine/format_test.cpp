#include "engine/format.h"

#include <gtest/gtest.h>

#include <limits>

namespace {

// Formula strings quote numbers compactly: 3 significant digits, powers of ten as e-notation.
TEST(Format, NumKeepsThreeSignificantDigits) {
  EXPECT_EQ(engine::Num(4096), "4096");
  EXPECT_EQ(engine::Num(0.5), "0.5");
  EXPECT_EQ(engine::Num(8.03e9), "8.03e9");
  EXPECT_EQ(engine::Num(1e-5), "1e-5");
  EXPECT_EQ(engine::Num(0), "0");
}

// %g writes 1e-4 <= x < 1e-3 without an exponent; this once came out as "0.000886e.000886".
TEST(Format, NumBetweenTenThousandthAndThousandth) {
  EXPECT_EQ(engine::Num(0.000886), "0.000886");
  EXPECT_EQ(engine::Num(-0.0005), "-0.0005");
}

TEST(Format, MoneyGroupsThousands) {
  EXPECT_EQ(engine::Money(40000), "40,000");
  EXPECT_EQ(engine::Money(-1234567.4), "-1,234,567");
  EXPECT_EQ(engine::Money(999), "999");
}

// Issue 14: a Markdown plan once printed the cost -9223372036854775808, an llround of
// 9.3e18. Whole units up to 1e15, e-notation (3 significant digits) above, never an
// integer conversion; half rounds away from zero; no "-0".
TEST(Format, MoneyIsSafeForAnyDouble) {
  EXPECT_EQ(engine::Money(0), "0");
  EXPECT_EQ(engine::Money(1234.5), "1,235");
  EXPECT_EQ(engine::Money(-1234.5), "-1,235");
  EXPECT_EQ(engine::Money(-0.3), "0");
  EXPECT_EQ(engine::Money(999999999999999), "999,999,999,999,999");
  EXPECT_EQ(engine::Money(1e15), "1e15");
  EXPECT_EQ(engine::Money(9.3e18), "9.3e18");
  EXPECT_EQ(engine::Money(-9.3e18), "-9.3e18");
  EXPECT_EQ(engine::Money(1e300), "1e300");
  EXPECT_EQ(engine::Money(-1.7976931348623157e308), "-1.8e308");
  EXPECT_EQ(engine::Money(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(engine::Money(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(engine::Money(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
