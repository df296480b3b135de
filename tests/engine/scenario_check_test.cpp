// Bad scenarios come back as errors that name the field and the allowed values.
#include "engine/scenario_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/estimate.h"
#include "engine/units.h"
#include "test_models.h"

namespace engine {
namespace {

Catalog OneGpuCatalog() {
  Catalog c;
  GpuSpec g;
  g.id = "h100-sxm-80gb";
  g.name = "H100";
  g.memory_bytes = 79.647 * kGiB;
  g.bf16_flops = 989.4e12;
  g.fp8_flops = 1978.9e12;
  g.memory_bandwidth_bytes_per_s = 3.35e12;
  g.scale_up_bytes_per_s = 900e9;
  g.tdp_w = 700;
  g.architecture = engine::GpuArchitecture::kHopper;
  c.gpus.push_back(g);
  GpuSpec a = g;
  a.id = "a100-sxm-80gb", a.name = "A100", a.memory_bytes = 80 * kGiB, a.fp8_flops = 0;
  c.gpus.push_back(a);
  FabricSpec ib;
  ib.id = "ib-ndr";
  ib.busbw_fraction = 0.9;
  ib.latency_s = 1e-6;
  ib.default_node_bytes_per_s = 400e9;
  c.fabrics.push_back(ib);
  return c;
}

Scenario Valid() {
  Scenario s;
  s.model = testing::Llama3_70B();
  s.parallel.gpus = 16;
  return s;
}

std::string FieldOf(const Scenario& s) {
  auto e = ValidateScenario(s, OneGpuCatalog());
  return e ? e->field : "";
}

TEST(ScenarioCheck, AcceptsAValidScenario) { EXPECT_EQ(FieldOf(Valid()), ""); }

TEST(ScenarioCheck, NamesTheFieldOfEachProblem) {
  Scenario s = Valid();
  s.parallel.tp = 3;
  s.parallel.gpus = 12;
  EXPECT_EQ(FieldOf(s), "tp");  // 3 does not divide 64 heads

  s = Valid();
  s.parallel.tp = 8, s.parallel.pp = 4;
  s.parallel.gpus = 48;
  EXPECT_EQ(FieldOf(s), "gpus");  // 48 is not a multiple of 32

  s = Valid();
  s.gpu_id = "tpu-v99";
  EXPECT_EQ(FieldOf(s), "gpu");

  s = Valid();
  s.training.seq_len = 0;
  EXPECT_EQ(FieldOf(s), "seq_len");

  s = Valid();
  s.training.tokens = std::nan("");
  EXPECT_EQ(FieldOf(s), "tokens");

  s = Valid();
  s.parallel.ep = 2;
  EXPECT_EQ(FieldOf(s), "ep");  // dense model

  s = Valid();
  s.parallel.offload = Offload::kOptimizerAndParams;
  EXPECT_EQ(FieldOf(s), "offload");

  s = Valid();
  s.training.global_batch = 10;  // not a multiple of 16 data-parallel ranks
  EXPECT_EQ(FieldOf(s), "global_batch");

  s = Valid();
  s.gpu_id = "a100-sxm-80gb";
  s.training.precision = Precision::kFp8;
  EXPECT_EQ(FieldOf(s), "precision");
}

TEST(Estimate, ReportsFitForEveryCatalogGpu) {
  Scenario s = Valid();
  s.parallel.zero = 3;
  auto r = RunEstimate(s, OneGpuCatalog());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().fit_by_gpu.size(), 2u);
  EXPECT_EQ(r.value().fit_by_gpu[0].gpu_id, "h100-sxm-80gb");
}

TEST(Estimate, SeventyBillionFullFineTuneDoesNotFitOneGpu) {
  Scenario s = Valid();
  s.parallel.gpus = 1;
  auto r = RunEstimate(s, OneGpuCatalog());
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value().fits);
  EXPECT_EQ(r.value().warnings.back().code, "does_not_fit");
}

bool HasWarning(const Result<Estimate>& r, const std::string& code) {
  if (!r.ok()) return false;
  for (const Warning& w : r.value().warnings) {
    if (w.code == code) return true;
  }
  return false;
}

// HGX H100 holds 8 GPUs (NVLink domain of 8); a 16-GPU node is only real once the catalog
// lists one.
TEST(Estimate, WarnsOfANodeLargerThanAnyCatalogServer) {
  Scenario s = Valid();
  s.parallel.zero = 3;
  s.parallel.gpus_per_node = 8;
  Catalog catalog = OneGpuCatalog();
  EXPECT_FALSE(HasWarning(RunEstimate(s, catalog), "node_larger_than_servers"));
  s.parallel.gpus_per_node = 16;
  EXPECT_TRUE(HasWarning(RunEstimate(s, catalog), "node_larger_than_servers"));
  ServerOption sixteen;
  sixteen.gpu_id = "h100-sxm-80gb";
  sixteen.gpus = 16;
  catalog.servers.push_back(sixteen);
  EXPECT_FALSE(HasWarning(RunEstimate(s, catalog), "node_larger_than_servers"));
}

// Issue 19: a preset the engine can only approximate (Qwen3-Next's linear-attention
// layers, Llama 4's interleaved MoE) says so in every estimate, with the catalog's reason
// in both languages; an exact preset says nothing.
TEST(Estimate, AnApproximatePresetCarriesItsReason) {
  Catalog catalog = OneGpuCatalog();
  ModelPreset exact;
  exact.spec = testing::Llama3_70B();
  exact.spec.id = "exact-70b";
  ModelPreset approximate = exact;
  approximate.spec.id = "approximate-70b";
  approximate.approximate = {"Its MoE layers alternate with dense ones.", "其 MoE 层与稠密层交替。"};
  catalog.models = {exact, approximate};
  Scenario s = Valid();
  s.model = exact.spec;
  EXPECT_FALSE(HasWarning(RunEstimate(s, catalog), "approximate_model"));
  s.model = approximate.spec;
  const auto r = RunEstimate(s, catalog);
  ASSERT_TRUE(HasWarning(r, "approximate_model"));
  const Warning& w = *std::find_if(r.value().warnings.begin(), r.value().warnings.end(),
                                   [](const Warning& x) { return x.code == "approximate_model"; });
  EXPECT_NE(w.message.find("Its MoE layers alternate with dense ones."), std::string::npos) << w.message;
  ASSERT_EQ(w.args.size(), 2u);
  EXPECT_EQ(w.args[1].text_zh, "其 MoE 层与稠密层交替。");
  s.model_derived = true;  // a shape guessed from a count is no preset, whatever its id
  EXPECT_FALSE(HasWarning(RunEstimate(s, catalog), "approximate_model"));
}

}  // namespace
}  // namespace engine
