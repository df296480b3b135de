#include "engine/format.h"

#include <gtest/gtest.h>

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

}  // namespace
