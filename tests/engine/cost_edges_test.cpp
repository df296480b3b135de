// Issue 14: a break-even of 0 months meant "never", so a real 0 and "never" were the same
// number. Now a finite value is a break-even, +∞ is never, NaN is "no rental to compare
// with" (engine/cost_model.h). Every expected figure is worked out by hand below.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/cost_model.h"

namespace engine {
namespace {

// One 8-GPU server for $100,000 drawing 10 kW, at PUE 1 and $0.10/kWh, full average draw,
// no colocation, maintenance, network, installation; 4-year life, 50% resale.
struct OneServer {
  Catalog catalog;
  OwnershipAssumptions a;
  OneServer() {
    ServerOption s;
    s.id = "node";
    s.gpu_id = "gpu-x";
    s.gpus = 8;
    s.power_kw = 10;
    s.price_usd_new = 100000;
    catalog.servers = {s};
    a.pue = 1;
    a.electricity_per_kwh_usd = 0.10;
    a.colocation_per_kw_month_usd = 0;
    a.depreciation_years = 4;
    a.resale_fraction = 0.5;
    a.maintenance_rate = 0;
    a.network_storage_fraction = 0;
    a.install_fraction = 0;
    a.sustained_power_fraction = 1;
  }
  OwnCost At(double cloud_per_gpu_hour) const {
    return OwnOptions(catalog, a, "gpu-x", 8, 1.0, "USD", cloud_per_gpu_hour).at(0);
  }
};

// Power 10 kW × $0.10 = $1.00/h. Renting 8 GPUs at $2 = $16/h, so owning saves
// (16 − 1) × 730 = $10,950 a month; the purchase net of resale, $50,000, is earned back
// in 50,000 / 10,950 = 4.566 months. Fixed = 50,000 / (4 × 8760) = $1.4269/h, per GPU
// 0.17837; u* = 0.17837 / (2 − 1/8) = 0.0951.
TEST(BreakEven, IsAFiniteNumberOfMonthsWhenBuyingPaysBack) {
  const OwnCost o = OneServer().At(2.0);
  EXPECT_TRUE(BreaksEven(o.break_even_months));
  EXPECT_NEAR(o.break_even_months, 4.566, 0.001);
  EXPECT_NEAR(o.break_even_utilization, 0.0951, 0.0001);
}

// At $0.10 per GPU-hour the rent, $0.80/h for 8 GPUs, is below the $1.00/h of power
// alone: buying never pays back, at any utilization. That is +∞, not 0.
TEST(BreakEven, NeverIsInfiniteNotZero) {
  const OwnCost o = OneServer().At(0.10);
  EXPECT_FALSE(BreaksEven(o.break_even_months));
  EXPECT_TRUE(HasRentalToCompare(o.break_even_months));
  EXPECT_TRUE(std::isinf(o.break_even_months));
  EXPECT_NE(o.break_even_months, 0);
  EXPECT_EQ(o.break_even_utilization, kNoBreakEvenUtilization);  // finite, far above full use
}

// No rental price (purchase "own" prices no cloud): nothing to compare, neither 0 nor never.
TEST(BreakEven, WithoutARentalThereIsNoComparison) {
  const OwnCost o = OneServer().At(0);
  EXPECT_FALSE(HasRentalToCompare(o.break_even_months));
  EXPECT_FALSE(BreaksEven(o.break_even_months));
  EXPECT_EQ(o.break_even_utilization, kNoBreakEvenUtilization);
}

// The series says whether it crosses, not just a month that is 0 when it does not:
// $20/h vs $100,000 + $3/h crosses in month 9 (100,000 / 12,410 = 8.06); $2.5/h never.
TEST(BreakEven, RentVsBuySeriesSaysWhetherItCrosses) {
  OwnCost own;
  own.capex = 100000;
  own.running_per_hour = 2;
  own.power_per_hour = 1;
  const RentVsBuy crosses = RentVsBuySeries(20, own, 1.0, 24);
  EXPECT_TRUE(crosses.breaks_even);
  EXPECT_EQ(crosses.break_even_month, 9);
  const RentVsBuy never = RentVsBuySeries(2.5, own, 1.0, 24);
  EXPECT_FALSE(never.breaks_even);
}

}  // namespace
}  // namespace engine
