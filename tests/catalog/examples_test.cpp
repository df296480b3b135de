// The seed's four scenarios and two of its reference cases, shipped as one-click examples
// (catalog/examples.json): each estimates and plans, and their answers are the sensible ones.
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
  ASSERT_EQ(Embedded().value().examples.size(), 7u);
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

// The document example's sequence, worked by hand in its description: 1280 × 960 px pages
// resize to 1288 × 952 (multiples of 28), 46 × 34 = 1,564 tokens + 2 markers each; two of
// them and 300 text tokens make 3,432.
TEST(Examples, TheDocumentExampleRunsAtItsStatedLength) {
  const engine::contract::Json r =
      Call(engine::service::Session().Estimate(ExampleScenario("qwen25vl-7b-documents-lora")));
  EXPECT_EQ(r["sequence"]["total_tokens"], 3432);
  EXPECT_EQ(r["sequence"]["image"]["resized"], engine::contract::Json::array({1288, 952}));
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

// "13B pre-training on 4×A100-80GB, 10B tokens, FP16, 12 days": 1e10 / (12 × 86,400 s) =
// 9,645 tokens/s. Llama-2-13B at seq 4096 does 6 × 12,851,609,600 GEMM weights + 12 × 40
// × 5120 × 4096 attention = 87.18e9 FLOP/token: 8.41e14 FLOP/s, 67.4% of 4 × 312e12, above
// the best published A100 runs (65%).
TEST(Examples, ThirteenBillionInTwelveDaysIsImplausible) {
  const engine::contract::Json r = Call(engine::service::Session().Estimate(ExampleScenario("seed-13b-pretrain-claim")));
  const engine::contract::Json& claim = r["claim_check"];
  EXPECT_EQ(claim["verdict"], "implausible");
  EXPECT_EQ(claim["checked"], "wall_hours");
  EXPECT_NEAR(claim["implied_tokens_per_s"].get<double>(), 9645, 1);
  EXPECT_NEAR(claim["implied_mfu"].get<double>(), 0.6737, 1e-3);
}

// "Llama-3-70B instruction tuning on 8×H100 in 3.5 days, ZeRO-3, seq 4k", with the
// example's 1e8 tokens × 2 epochs: 2e8 / (3.5 × 86,400 s) = 661.4 tokens/s. Llama-3-70B
// at seq 4096: 80 layers × (2 × 8192² + 2 × 8192 × 1024 + 3 × 8192 × 28672) + LM head
// 8192 × 128256 = 69,501,714,432 GEMM weights; × 6 + 12 × 80 × 8192 × 4096 attention =
// 449.2e9 FLOP/token: 2.97e14 FLOP/s, 3.75% of 8 × 989.4e12. With the optimizer in CPU
// memory it fits, and one 8-GPU server does it well over 1/0.6 times faster: conservative.
TEST(Examples, SeventyBillionInstructionTuningFitsWithOffloadAndIsConservative) {
  const engine::contract::Json r = Call(engine::service::Session().Estimate(ExampleScenario("seed-70b-instruct")));
  EXPECT_TRUE(r["memory"]["fits"].get<bool>());
  const engine::contract::Json& claim = r["claim_check"];
  EXPECT_EQ(claim["verdict"], "conservative");
  EXPECT_EQ(claim["checked"], "wall_hours");
  EXPECT_NEAR(claim["implied_tokens_per_s"].get<double>(), 661, 1);
  EXPECT_NEAR(claim["implied_mfu"].get<double>(), 0.0375, 5e-4);
  EXPECT_GT(claim["predicted_tokens_per_s"].get<double>(), 661.4 / 0.6);
}

}  // namespace
}  // namespace catalog
