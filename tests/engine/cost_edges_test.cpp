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

// Issue 18: a 2-GPU job on the 8-GPU server above is charged a quarter of it. Capex
// $100,000 / 4 = $25,000 (whole $100,000); power 10 kW / 4 = 2.5 kW × $0.10 = $0.25/h;
// fixed = 25,000 × 0.5 / (4 × 8,760) = $0.35674/h.
TEST(OwnShare, ASmallJobPaysItsGpusShareOfOneServer) {
  const OneServer one;
  const OwnCost o = OwnOptions(one.catalog, one.a, "gpu-x", 2, 1.0, "USD", 0).at(0);
  EXPECT_DOUBLE_EQ(o.share, 0.25);
  EXPECT_EQ(o.job_gpus, 2);
  EXPECT_DOUBLE_EQ(o.capex, 25000);
  EXPECT_DOUBLE_EQ(o.whole_capex, 100000);
  EXPECT_NEAR(o.power_per_hour, 0.25, 1e-9);
  EXPECT_NEAR(o.fixed_per_hour, 0.35674, 1e-5);
}

// The chart's net line is the Own-it card's accounting: after 12 months at 50% use,
// fixed $1.4269 × 8,760 h + power $1.00 × 4,380 used h = 12,500 + 4,380 = $16,880; the
// cash line is the $100,000 purchase + the same power = $104,380 (no colocation here).
TEST(RentVsBuy, NetLineIsTheShareOfOwningAndCashLineThePurchase) {
  const OwnCost o = OneServer().At(2.0);
  const RentVsBuy r = RentVsBuySeries(16.0, o, 0.5, 48);
  EXPECT_NEAR(r.own_net[12], 16880, 1);
  EXPECT_NEAR(r.own[12], 104380, 1);
  EXPECT_NEAR(r.rent[12], 16.0 * 4380, 1);
  EXPECT_DOUBLE_EQ(r.own_net[0], 0);
}

}  // namespace
}  // namespace engine
