// The seed's four scenarios, shipped as one-click examples (catalog/examples.json): each
// estimates and plans, and their answers are the sensible ones.
#include <gtest/gtest.h>

#include <string>

#include "catalog/catalog_loader.h"
#include "engine/contract/json_fields.h"
#include "engine/cost_model.h"
#include "engine/service/api.h"

namespace catalog {
namespace {

std::string ExampleScenario(const std::string& id) {
  for (const engine::Example& x : Embedded().value().examples) {
    if (x.id == id) return x.scenario_json;
  }
  ADD_FAILURE() << "no example " << id;
  return "{}";
}

engine::contract::Json Call(const engine::service::Response& r) {
  EXPECT_TRUE(r.ok) << r.json;
  return engine::contract::Json::parse(r.json);
}

TEST(Examples, EveryExampleEstimatesAndPlans) {
  ASSERT_EQ(Embedded().value().examples.size(), 4u);
  for (const engine::Example& x : Embedded().value().examples) {
    EXPECT_TRUE(engine::service::Session().Estimate(x.scenario_json).ok) << x.id;
    const engine::contract::Json plan = Call(engine::service::Session().Plan(x.scenario_json));
    EXPECT_FALSE(plan["pareto"].empty()) << x.id;
  }
}

// QLoRA keeps a 7.7B base in NF4 (0.516 B/param on linear weights ≈ 3.6 GiB + 16-bit
// embeddings ≈ 2.3 GiB): with checkpointing it fits one 24 GB card.
TEST(Examples, SevenBillionQloraFitsOneTwentyFourGigabyteCard) {
  engine::contract::Json s = engine::contract::Json::parse(ExampleScenario("seed-7b-lora"));
  s["method"] = "qlora";
  s["gpu"] = "rtx-4090-24gb";
  const engine::contract::Json r = Call(engine::service::Session().Estimate(s.dump()));
  EXPECT_TRUE(r["memory"]["fits"].get<bool>());
}

// 70B pre-training on 1e12 tokens: 6 × 70e9 × 1e12 = 4.2e23 FLOP; at 40% of one 8-GPU H100
// node (8 × 989 TFLOP/s) that is 4.2e23 / 3.2e15 s = 4.2 years. Every plan within the
// 60-day deadline is multi-node on a scale-out fabric.
TEST(Examples, SeventyBillionPretrainingNeedsManyNodes) {
  const engine::contract::Json plan = Call(engine::service::Session().Plan(ExampleScenario("seed-70b-pretrain")));
  ASSERT_TRUE(plan["constraints_met"].get<bool>());
  for (const engine::contract::Json& p : plan["pareto"]) {
    EXPECT_GT(p["nodes"].get<int>(), 8) << p.dump();
    EXPECT_LE(p["wall_days"].get<double>(), 60.0);
  }
}

// The seed's "8×A100 at $3.5/hr ≈ $84/day": every catalog offer for eight A100 80GB costs
// more per day (the cheapest on-demand rental is what the planner would pay).
TEST(Examples, SeedsEightyFourDollarsADayIsBelowEveryCatalogOffer) {
  const engine::Catalog& cat = Embedded().value();
  const auto options = engine::CloudOptions(cat, "a100-sxm-80gb", 8, 24.0, "USD", {});
  ASSERT_FALSE(options.empty());
  double cheapest_on_demand = 1e300;
  for (const auto& o : options) {
    if (o.pricing == engine::Pricing::kOnDemand) cheapest_on_demand = std::min(cheapest_on_demand, o.total);
  }
  EXPECT_GT(cheapest_on_demand, 84.0);
}

// The start-up example stays within its $40k budget and compares renting with buying.
TEST(Examples, StartupPlansStayWithinBudget) {
  const engine::contract::Json plan = Call(engine::service::Session().Plan(ExampleScenario("seed-startup-budget")));
  ASSERT_FALSE(plan["picks"].empty());
  for (const engine::contract::Json& p : plan["picks"]) {
    EXPECT_LE(p["cash_outlay"].get<double>(), 40000.0);
    EXPECT_GE(p["server"]["lines"].size(), 4u);  // each pick carries its bill of materials
  }
}

}  // namespace
}  // namespace catalog
