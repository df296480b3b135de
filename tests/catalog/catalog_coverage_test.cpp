// What the catalog of December 2026 covers (issue 19): every accelerator can be planned or
// says why not, China's own GPUs plan in CNY, today's accelerators and models are there, no
// offer lacks a price, and most server prices are under a year old.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/dates.h"
#include "engine/planner.h"
#include "tests/catalog/embedded_catalog.h"

namespace catalog {
namespace {

bool Priced(const engine::ServerOption& s) { return s.price_usd_new > 0 || s.price_usd_used > 0; }

TEST(CatalogCoverage, EveryAcceleratorHasAPriceOrSaysWhyNot) {
  for (const engine::GpuSpec& g : Cat().gpus) {
    bool priced = !g.unavailable_note.empty();
    for (const engine::CloudOffer& o : Cat().offers) priced |= o.gpu_id == g.id && o.on_demand_per_hour > 0;
    for (const engine::ServerOption& s : Cat().servers) priced |= s.gpu_id == g.id && Priced(s);
    EXPECT_TRUE(priced) << g.id;
  }
}

// China's own parts (the seed's GPU table: H800, H20, A800, 昇腾 910B) plan in region cn and
// CNY: a Llama-3-70B LoRA on 0.2B tokens.
TEST(CatalogCoverage, ChinasGpusPlanInCny) {
  for (const char* id : {"h800-sxm-80gb", "h20-96gb", "a800-sxm-80gb", "ascend-910b-64gb"}) {
    engine::Scenario s;
    s.model = Cat().FindModel("llama-3-70b")->spec;
    s.training.method = engine::Method::kLora;
    s.training.tokens = 2e8;
    s.gpu_id = id;
    engine::PlanConstraints c;
    c.region = "cn";
    c.currency = "CNY";
    c.gpus = {id};
    auto r = engine::RunPlan(s, c, Cat());
    ASSERT_TRUE(r.ok()) << id;
    ASSERT_FALSE(r.value().plans.empty()) << id;
    EXPECT_EQ(r.value().plans.front().gpu_id, id);
  }
}

TEST(CatalogCoverage, HasTheAcceleratorsOf2025) {
  for (const char* id : {"b300-270gb", "gb300-279gb", "mi355x-288gb", "rtx-pro-6000-96gb", "trainium2-96gb",
                         "tpu-v7-192gb"}) {
    EXPECT_NE(Cat().FindGpu(id), nullptr) << id;
  }
}

TEST(CatalogCoverage, AtLeastTwelveModelsFrom2025On) {
  int recent = 0;
  for (const engine::ModelPreset& m : Cat().models) recent += engine::NewestDay(m.released) >= engine::DaysFromCivil(2025, 1, 1);
  EXPECT_GE(recent, 12);
}

TEST(CatalogCoverage, NoOfferWithoutAPrice) {
  for (const engine::CloudOffer& o : Cat().offers) EXPECT_GT(o.on_demand_per_hour, 0) << o.id;
}

// Most server prices seen within 12 months of the catalog's date; the rest are flagged on
// the page with their date (engine::Plan::price_stale). Issue 19 asks for 80%: on
// 2026-12-04, 23 of 28 (H800, A800, Gaudi 2 and 3 and the CloudMatrix node are older).
TEST(CatalogCoverage, MostServerPricesAreUnderAYearOld) {
  int priced = 0, recent = 0;
  for (const engine::ServerOption& s : Cat().servers) {
    if (!Priced(s)) continue;
    ++priced;
    const long age = engine::PriceAgeDays(s.price_date, Cat().date);
    recent += age >= 0 && age <= engine::kStalePriceDays;
  }
  ASSERT_GT(priced, 0);
  EXPECT_GE(recent * 5, priced * 4) << recent << " of " << priced;
}

}  // namespace
}  // namespace catalog
