// Properties the models must have whatever the numbers, swept over several architectures
// (dense, GQA, MoE, MLA), methods and GPUs: more ZeRO-3 GPUs never add memory per GPU;
// longer sequences never shrink activations; recomputation never stores more than less
// recomputation; a faster fabric never slows a step; time is linear in tokens; a longer
// rental never costs less; and the planner bills an offer as CloudOptions does. Where a
// property holds only in a precise form, the test says why and checks that form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/cost_model.h"
#include "engine/memory_model.h"
#include "engine/planner.h"
#include "engine/reliability.h"
#include "engine/scenario_check.h"
#include "engine/time_model.h"
#include "engine/units.h"
#include "test_models.h"

namespace engine {
namespace {

// [SECTION] hardware and catalog built by hand

GpuSpec Gpu(const char* id, double memory_gib, double bf16_tflops, double hbm_tb_s, double scale_up_gb_s,
            int scale_up_domain, const char* architecture) {
  GpuSpec g;
  g.id = id;
  g.name = id;
  g.vendor = "NVIDIA";
  g.architecture = *EnumFromName<GpuArchitecture>(kArchitectureNames, architecture);
  g.memory_bytes = memory_gib * kGiB;
  g.memory_bandwidth_bytes_per_s = hbm_tb_s * 1e12;
  g.bf16_flops = bf16_tflops * 1e12;
  g.fp16_flops = g.bf16_flops;
  g.scale_up_bytes_per_s = scale_up_gb_s * 1e9;
  g.scale_up_domain = scale_up_domain;
  g.tdp_w = 700;
  return g;
}

// Datasheet figures: H100 SXM, A100 SXM 40 GB, RTX 4090 (PCIe only).
std::vector<GpuSpec> Gpus() {
  return {Gpu("h100", 79.6, 989.4, 3.35, 900, 8, "hopper"), Gpu("a100", 39.4, 312, 1.555, 600, 8, "ampere"),
          Gpu("rtx4090", 23.6, 165.2, 1.008, 64, 1, "ada")};
}

FabricSpec Fabric(const char* id, double node_gbps, double latency_s, double busbw_fraction) {
  FabricSpec f;
  f.id = id;
  f.name = {id, id};
  f.latency_s = latency_s;
  f.busbw_fraction = busbw_fraction;
  f.default_node_bytes_per_s = node_gbps * 1e9 / 8;
  f.port_bytes_per_s = f.default_node_bytes_per_s / 8;
  return f;
}

Catalog TestCatalog() {
  Catalog c;
  c.gpus = Gpus();
  c.fabrics = {Fabric("ib-ndr", 3200, 5e-6, 0.9)};
  return c;
}

struct ModelCase {
  const char* name;
  ModelSpec (*make)();
};

const ModelCase kModels[] = {{"Llama3_8B", testing::Llama3_8B},
                             {"Llama3_70B", testing::Llama3_70B},
                             {"Mixtral8x7B", testing::Mixtral8x7B},
                             {"Qwen25_7B", testing::Qwen25_7B},
                             {"DeepSeekV3", testing::DeepSeekV3}};

const Method kMethods[] = {Method::kPretrain, Method::kFull, Method::kFreeze, Method::kLora, Method::kQlora};

std::string MethodName(Method m) { return std::string(EnumName(kMethodNames, m)); }

Scenario Base(const ModelCase& model, Method method, int gpus) {
  Scenario s;
  s.model = model.make();
  s.training.method = method;
  s.gpu_id = "h100";
  s.parallel.gpus = gpus;
  s.parallel.gpus_per_node = std::min(gpus, 8);
  return s;
}

// Every swept scenario is one the engine accepts, so a property never rests on input
// the CLI would refuse.
void ExpectValid(const Scenario& s) {
  static const Catalog catalog = TestCatalog();
  const auto error = ValidateScenario(s, catalog);
  EXPECT_FALSE(error) << error->field << ": " << error->message;
}

// Relative slack for sums of doubles computed in different orders.
constexpr double kSlack = 1e-12;

class ModelProperty : public ::testing::TestWithParam<ModelCase> {};

std::string ModelCaseName(const ::testing::TestParamInfo<ModelCase>& info) { return info.param.name; }

// [SECTION] memory

// ZeRO-3 shards weights, gradients and optimizer state over the data-parallel ranks; each
// GPU still runs one micro-batch at a time, so activations per GPU do not change. More
// GPUs can only take memory away (with and without tensor parallelism and offload), with
// two exceptions that are physics, not bugs, on the step from one data-parallel rank to two:
// NCCL starts, whose communicator buffers (0.5 GiB) one process never allocates, and PyTorch
// FSDP starts sharding (on one rank it runs NO_SHARD) and gathers units. With the sharded
// state offloaded to the CPU they outweigh the halving, so that step is checked without them.
TEST_P(ModelProperty, MoreZero3GpusNeverAddMemoryPerGpu) {
  const ParamCounts params = CountParams(GetParam().make());
  for (Method method : kMethods) {
    for (int tp : {1, 2}) {
      for (Offload offload : {Offload::kNone, Offload::kOptimizerAndParams}) {
        double previous = 0;
        for (int gpus = tp; gpus <= 4096; gpus *= 2) {
          Scenario s = Base(GetParam(), method, gpus);
          s.parallel.tp = tp;
          s.parallel.zero = 3;
          s.parallel.offload = offload;
          ExpectValid(s);
          const MemoryBreakdown m = EstimateMemory(s, params, false);
          const double bytes = m.GpuBytes();
          const double communicator = gpus == 2 ? m.overhead_parts.nccl_bytes : 0;
          const double gathering = gpus == 2 * tp ? m.overhead_parts.gathered_bytes : 0;
          if (gpus > tp) {
            EXPECT_LE(bytes - communicator - gathering, previous * (1 + kSlack))
                << MethodName(method) << " tp " << tp << " offload " << int(offload) << ": " << gpus << " GPUs need "
                << bytes / kGiB << " GiB, " << gpus / 2 << " needed " << previous / kGiB;
          }
          previous = bytes;
        }
      }
    }
  }
}

// Stored activations (and the logits) grow with the tokens per sequence, whatever is
// recomputed and with or without fused attention.
TEST_P(ModelProperty, LongerSequencesNeverShrinkActivations) {
  const ParamCounts params = CountParams(GetParam().make());
  for (Method method : {Method::kFull, Method::kQlora}) {
    for (Recompute recompute : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
      for (bool flash : {true, false}) {
        double previous_activations = 0, previous_logits = 0;
        for (int seq_len = 128; seq_len <= 131072; seq_len *= 2) {
          Scenario s = Base(GetParam(), method, 1);
          s.training.seq_len = seq_len;
          s.training.activation_checkpointing = recompute;
          s.training.flash_attention = flash;
          ExpectValid(s);
          const MemoryBreakdown m = EstimateMemory(s, params, false);
          EXPECT_GE(m.activations.bytes, previous_activations)
              << MethodName(method) << " recompute " << int(recompute) << " flash " << flash << " seq " << seq_len;
          EXPECT_GE(m.logits.bytes, previous_logits) << "seq " << seq_len;
          previous_activations = m.activations.bytes;
          previous_logits = m.logits.bytes;
        }
      }
    }
  }
}

// Full recomputation stores at most what selective stores, which stores at most what no
// recomputation stores; recomputing only some layers lands between full and none.
TEST_P(ModelProperty, MoreRecomputationNeverStoresMoreActivations) {
  const ModelSpec model = GetParam().make();
  const ParamCounts params = CountParams(model);
  for (Method method : kMethods) {
    for (int seq_len : {512, 4096, 32768}) {
      for (bool flash : {true, false}) {
        for (int tp : {1, 2}) {
          Scenario s = Base(GetParam(), method, tp);
          s.parallel.tp = tp;
          s.parallel.sequence_parallel = tp > 1;
          s.training.seq_len = seq_len;
          s.training.flash_attention = flash;
          auto activations = [&](Recompute r, int layers) {
            s.training.activation_checkpointing = r;
            s.training.recompute_layers = layers;
            ExpectValid(s);
            return EstimateMemory(s, params, false).activations.bytes;
          };
          const double none = activations(Recompute::kNone, 0);
          const double selective = activations(Recompute::kSelective, 0);
          const double full = activations(Recompute::kFull, 0);
          const double half = activations(Recompute::kFull, model.layers / 2);
          const std::string where = MethodName(method) + " seq " + std::to_string(seq_len) + " flash " +
                                    std::to_string(flash) + " tp " + std::to_string(tp);
          EXPECT_LE(full, selective * (1 + kSlack)) << where;
          EXPECT_LE(selective, none * (1 + kSlack)) << where;
          EXPECT_LE(full, half * (1 + kSlack)) << where;
          EXPECT_LE(half, none * (1 + kSlack)) << where;
        }
      }
    }
  }
}

// [SECTION] time

// Multi-node layouts: data parallel (ZeRO 1 and 3), tensor × data, pipeline × data and
// expert parallel for MoE. Each is timed on fabrics from 25 Gbit/s to 3.2 Tbit/s per
// node with falling latency and rising efficiency; each step must be no slower.
TEST_P(ModelProperty, FasterFabricNeverSlowsAStep) {
  const ModelSpec model = GetParam().make();
  const ParamCounts params = CountParams(model);
  struct Layout {
    int gpus, tp, pp, ep, zero;
  };
  std::vector<Layout> layouts = {{16, 1, 1, 1, 1}, {64, 1, 1, 1, 3}, {64, 8, 1, 1, 1}, {128, 8, 2, 1, 1}};
  if (model.IsMoe()) layouts.push_back({64, 1, 1, 8, 3});
  const double node_gbps[] = {25, 100, 200, 400, 800, 1600, 3200};
  for (const GpuSpec& gpu : Gpus()) {
    for (const Layout& l : layouts) {
      if (model.heads % l.tp != 0) continue;  // Qwen2.5-7B's 28 heads
      Scenario s = Base(GetParam(), Method::kFull, l.gpus);
      s.parallel.tp = l.tp, s.parallel.pp = l.pp, s.parallel.ep = l.ep, s.parallel.zero = l.zero;
      s.parallel.sequence_parallel = l.tp > 1;
      s.training.activation_checkpointing = Recompute::kFull;
      ExpectValid(s);
      double previous = 0;
      for (size_t i = 0; i < std::size(node_gbps); ++i) {
        const FabricSpec fabric = Fabric("f", node_gbps[i], 20e-6 / (i + 1), 0.6 + 0.05 * i);
        const double step_s = EstimateThroughput(s, params, gpu, fabric, false).step_time_s;
        if (i > 0) {
          EXPECT_LE(step_s, previous * (1 + kSlack)) << gpu.id << " gpus " << l.gpus << " tp " << l.tp << " pp " << l.pp
                                                     << " ep " << l.ep << " zero " << l.zero << " at " << node_gbps[i]
                                                     << " Gbit/s";
        }
        previous = step_s;
      }
      // The same through the scenario's node_gbps override on one fabric.
      previous = 0;
      for (double gbps : node_gbps) {
        s.parallel.node_gbps = gbps;
        const double step_s = EstimateThroughput(s, params, gpu, Fabric("f", 400, 5e-6, 0.8), false).step_time_s;
        if (previous > 0) {
          EXPECT_LE(step_s, previous * (1 + kSlack)) << gpu.id << " node_gbps " << gbps;
        }
        previous = step_s;
      }
    }
  }
}

// Wall time is steps × step time with steps = ⌈tokens / tokens per step⌉, so doubling
// the tokens doubles it exactly only for whole steps; otherwise the rounding can save at
// most one step: 2·T(n) − step ≤ T(2n) ≤ 2·T(n). Goodput (reliability.cpp) does not depend
// on the token count, so the wall time with failures and checkpoints scales the same way.
TEST_P(ModelProperty, DoublingTokensDoublesWallTime) {
  const ParamCounts params = CountParams(GetParam().make());
  const GpuSpec gpu = Gpus()[0];
  for (int gpus : {8, 64}) {
    Scenario s = Base(GetParam(), Method::kFull, gpus);
    s.parallel.zero = 3;
    s.training.activation_checkpointing = Recompute::kFull;
    ExpectValid(s);
    const Throughput th = EstimateThroughput(s, params, gpu, Fabric("f", 3200, 5e-6, 0.9), false);
    auto at = [&](double tokens) {
      s.training.tokens = tokens;
      const TrainingTime time = EstimateTime(s, th);
      return std::pair{time, EstimateReliability(s, params, time, DefaultStorage(s.parallel.Nodes()))};
    };
    for (double steps : {1.0, 7.0, 1000.0, 123457.0}) {
      const auto [one, one_r] = at(steps * th.tokens_per_step);
      const auto [two, two_r] = at(2 * steps * th.tokens_per_step);
      EXPECT_NEAR(two.wall_hours / one.wall_hours, 2.0, 2e-9) << steps << " steps";
      EXPECT_NEAR(two.gpu_hours / one.gpu_hours, 2.0, 2e-9);
      EXPECT_NEAR(two_r.wall_hours_with_failures / one_r.wall_hours_with_failures, 2.0, 2e-9);
      EXPECT_DOUBLE_EQ(two_r.ettr, one_r.ettr);
    }
    for (double tokens : {1e6, 3.3e8, 1.7e10, 2.9e12}) {
      const double step_h = th.step_time_s / 3600;
      const double one = at(tokens).first.wall_hours, two = at(2 * tokens).first.wall_hours;
      EXPECT_LE(two, 2 * one * (1 + kSlack)) << tokens;
      EXPECT_GE(two, (2 * one - step_h) * (1 - kSlack)) << tokens;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ModelProperty, ::testing::ValuesIn(kModels), ModelCaseName);

// The planner times every layout on the scenario's network: on a faster one its fastest
// plan is no slower (each layout's step is no slower, so neither is the best of them).
TEST(PlannerProperty, FasterFabricNeverSlowsTheFastestPlan) {
  Catalog c = TestCatalog();
  c.fabrics = {Fabric("slow", 100, 20e-6, 0.6), Fabric("mid", 800, 8e-6, 0.8), Fabric("fast", 3200, 3e-6, 0.9)};
  CloudOffer offer;
  offer.id = "h100-x8", offer.provider = "test", offer.gpu_id = "h100", offer.gpus = 8, offer.max_gpus = 8;
  offer.on_demand_per_hour = 30, offer.billing_granularity = BillingGranularity::kPerSecond;
  c.offers = {offer};
  PlanConstraints goal;
  goal.purchase = Purchase::kCloud;
  goal.max_gpus = 128;
  for (const ModelCase& model : {kModels[0], kModels[1], kModels[2]}) {
    double previous = 0;
    for (const char* network : {"slow", "mid", "fast"}) {
      Scenario s = Base(model, Method::kFull, 1);
      s.training.tokens = 2e10;
      s.parallel.network = network;
      auto r = RunPlan(s, goal, c);
      ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
      ASSERT_FALSE(r.value().plans.empty()) << model.name;
      double fastest = 1e300;
      for (const Plan& p : r.value().plans) fastest = std::min(fastest, p.wall_hours);
      if (previous > 0) {
        EXPECT_LE(fastest, previous * (1 + kSlack)) << model.name << " on " << network;
      }
      previous = fastest;
    }
  }
}

// [SECTION] cost

CloudOffer Offer(const char* id, const char* gpu, int gpus, double per_hour, const char* billing) {
  CloudOffer o;
  o.id = id;
  o.provider = "test";
  o.provider_name = "Test";
  o.instance = id;
  o.gpu_id = gpu;
  o.gpus = gpus;
  o.max_gpus = gpus;
  o.fabric = "ib-ndr";
  o.on_demand_per_hour = per_hour;
  o.spot_per_hour = per_hour * 0.4;
  o.reserved_1yr_per_hour = per_hour * 0.7;
  o.billing_granularity =  // "" = not stated
      EnumFromName<BillingGranularity>(kBillingGranularityNames, billing).value_or(BillingGranularity::kUnknown);
  return o;
}

Catalog PricedCatalog() {
  Catalog c = TestCatalog();
  c.offers = {Offer("h100-by-second", "h100", 8, 31.0, "per-second"),
              Offer("h100-by-minute", "h100", 8, 27.0, "per-minute"),
              Offer("a100-by-hour", "a100", 8, 11.0, "per-hour"), Offer("a100-unknown", "a100", 8, 9.5, "")};
  return c;
}

// The same offer rented longer never costs less, at every billing granularity and
// pricing, across the rounding boundaries (a second, a minute, an hour).
TEST(CostProperty, LongerRentalNeverCostsLess) {
  const Catalog c = PricedCatalog();
  std::vector<double> hours;
  for (double h = 0.0001; h < 200; h *= 1.37) {
    for (double edge : {h, std::floor(h) + 1.0 / 3600, std::floor(h) + 1.0 / 60, std::ceil(h)}) hours.push_back(edge);
  }
  std::sort(hours.begin(), hours.end());
  for (const char* gpu : {"h100", "a100"}) {
    for (int gpus : {1, 8, 24}) {
      std::map<std::pair<std::string, Pricing>, double> previous;
      for (double h : hours) {
        for (const CloudCost& cc : CloudOptions(c, gpu, gpus, h, "USD", {})) {
          const auto key = std::pair{cc.offer->id, cc.pricing};
          if (previous.count(key)) {
            EXPECT_GE(cc.total, previous[key]) << key.first << " at " << h << " h";
          }
          EXPECT_GE(cc.billed_hours, h) << key.first;
          previous[key] = cc.total;
        }
      }
    }
  }
}

// Cloud plans from the planner: more tokens on the same offer and layout never cost less,
// and a plan's rental is what CloudOptions bills for its offer over the plan's wall time
// (the planner once billed per-minute offers by the started hour).
TEST(CostProperty, CloudPlansCostMoreForLongerJobsAndBillLikeCloudOptions) {
  const Catalog c = PricedCatalog();
  PlanConstraints goal;
  goal.purchase = Purchase::kCloud;
  goal.max_gpus = 32;
  std::map<std::string, double> previous;  // offer + layout -> cost
  for (double tokens : {1e7, 3e7, 1e8, 3e8, 1e9, 3e9}) {
    Scenario s = Base(kModels[0], Method::kLora, 1);
    s.training.tokens = tokens;
    s.training.global_batch = 64;
    auto r = RunPlan(s, goal, c);
    ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
    ASSERT_FALSE(r.value().plans.empty());
    for (const Plan& p : r.value().plans) {
      const Parallelism& l = p.layout;
      const std::string key = p.procurement_id + " " + std::to_string(l.gpus) + " " + std::to_string(l.tp) + " " +
                              std::to_string(l.pp) + " " + std::to_string(l.zero) + " " + std::to_string(p.micro_batch) +
                              " " + std::to_string(int(p.activation_checkpointing));
      if (previous.count(key)) {
        EXPECT_GE(p.cost, previous[key]) << key << " at " << tokens << " tokens";
      }
      previous[key] = p.cost;
      const auto options = CloudOptions(c, p.gpu_id, l.gpus, p.wall_hours, "USD", {});
      const auto same = std::find_if(options.begin(), options.end(), [&](const CloudCost& cc) {
        return cc.offer->id == p.procurement_id && cc.pricing == Pricing::kOnDemand;
      });
      ASSERT_NE(same, options.end()) << p.procurement_id;
      EXPECT_NEAR(p.cost - p.storage_cost, same->total, 1e-9 * same->total) << key << " at " << p.wall_hours << " h";
    }
  }
}

}  // namespace
}  // namespace engine
