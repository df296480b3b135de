#include "estimate.h"

#include <algorithm>

#include "finite_guard.h"
#include "post_training.h"
#include "format.h"
#include "scenario_check.h"
#include "units.h"
#include "vision.h"

namespace engine {
namespace {

std::vector<Warning> CollectWarnings(const Scenario& s) {
  std::vector<Warning> w = s.input_warnings;
  const ModelSpec& m = s.model;
  const Parallelism& p = s.parallel;
  if (s.model_derived) {
    w.push_back(MakeWarning("derived_shape", {CountArg("layers", m.layers), CountArg("hidden", m.hidden)}));
  }
  if (m.max_context > 0 && s.training.seq_len > m.max_context) {
    w.push_back(MakeWarning("seq_len_beyond_context",
                            {CountArg("seq_len", s.training.seq_len), CountArg("max_context", m.max_context)}));
  }
  if (p.tp > p.gpus_per_node) {
    w.push_back(MakeWarning("tp_across_nodes", {CountArg("tp", p.tp), CountArg("gpus_per_node", p.gpus_per_node)}));
  }
  if (p.tp > m.kv_heads) {
    w.push_back(MakeWarning("tp_exceeds_kv_heads", {CountArg("tp", p.tp), CountArg("kv_heads", m.kv_heads)}));
  }
  if (m.layers % p.pp != 0 && !p.UnevenEnds()) {
    w.push_back(MakeWarning("uneven_pipeline", {CountArg("pp", p.pp), CountArg("layers", m.layers)}));
  }
  if (p.sequence_parallel && p.tp == 1) {
    w.push_back(MakeWarning("sequence_parallel_without_tp", {}));
  }
  if (!s.training.flash_attention && s.training.seq_len >= 8192) {
    w.push_back(MakeWarning("no_flash_attention_long_context", {}));
  }
  return w;
}

void AddTimeWarnings(const Scenario& s, const Estimate& e, std::vector<Warning>& w) {
  const Parallelism& p = s.parallel;
  if (p.pp > 1 && MicroBatchesPerStep(s.training, p) < 4 * p.pp) {
    w.push_back(MakeWarning(
        "pipeline_bubble",
        {CountArg("micro_batches", MicroBatchesPerStep(s.training, p)), CountArg("pp", p.pp),
         NumberArg("bubble_percent", 100 * e.throughput.breakdown.pp_bubble_s / e.throughput.step_time_s)}));
  }
  if (!s.training.auto_restart && e.reliability.expected_interruptions >= 1) {
    w.push_back(MakeWarning("no_auto_restart", {NumberArg("interruptions", e.reliability.expected_interruptions)}));
  }
  if (e.reliability.ettr < 0.9 && e.time.tokens > 0) {
    w.push_back(MakeWarning("low_goodput", {NumberArg("goodput_percent", 100 * e.reliability.ettr)}));
  }
}

// A preset whose layers the engine cannot express exactly (linear attention, interleaved
// MoE, chunked attention) says so in the result, with the catalog's reason.
void AddApproximateModelWarning(const Scenario& s, const Catalog& catalog, std::vector<Warning>& w) {
  if (s.model_derived) return;
  const ModelPreset* preset = catalog.FindModel(s.model.id);
  if (preset == nullptr || preset->approximate.empty()) return;
  w.push_back(MakeWarning("approximate_model",
                          {TextArg("model", s.model.name), LocalTextArg("why", preset->approximate)}));
}

// Nodes hold 8 GPUs in every HGX/DGX and most PCIe servers; a larger node is only real
// where the catalog lists one (a server, or a cloud node's max_gpus) or the GPU's scale-up
// domain spans it (GB200 NVL72). Past that the time model runs rings over PCIe, which
// describes no machine one can buy, so the plan says so instead of pricing it quietly.
void AddNodeSizeWarning(const Scenario& s, const GpuSpec& gpu, const Catalog& catalog, std::vector<Warning>& w) {
  int largest = std::max(8, gpu.scale_up_domain);
  for (const ServerOption& server : catalog.servers) {
    if (server.gpu_id == gpu.id) largest = std::max(largest, server.gpus);
  }
  for (const CloudOffer& offer : catalog.offers) {
    if (offer.gpu_id == gpu.id) largest = std::max(largest, offer.max_gpus);
  }
  if (s.parallel.gpus_per_node <= largest) return;
  w.push_back(MakeWarning("node_larger_than_servers", {CountArg("gpus_per_node", s.parallel.gpus_per_node),
                                                       TextArg("gpu", gpu.name), CountArg("largest_node", largest)}));
}

// Every number the estimate returns, through the finite guard.
FiniteGuard GuardFigures(const Estimate& e) {
  FiniteGuard g;
  const MemoryBreakdown& m = e.memory;
  g.Check({{"params.total", e.params.total}, {"memory.per_gpu", e.need_bytes}, {"memory.weights", m.weights.bytes},
           {"memory.gradients", m.gradients.bytes}, {"memory.optimizer", m.optimizer.bytes},
           {"memory.activations", m.activations.bytes}, {"memory.logits", m.logits.bytes},
           {"memory.overhead", m.overhead.bytes}, {"memory.cpu_ram", m.cpu_ram.bytes}});
  const Throughput& t = e.throughput;
  g.Check({{"throughput.step_time_s", t.step_time_s}, {"throughput.tokens_per_s", t.tokens_per_s},
           {"throughput.mfu", t.mfu}, {"throughput.hfu", t.hfu}, {"throughput.tokens_per_step", t.tokens_per_step},
           {"throughput.flops_per_token", t.flops_per_token.model},
           {"throughput.breakdown_s.compute", t.breakdown.compute_s},
           {"throughput.breakdown_s.tp_comm", t.breakdown.tp_comm_s},
           {"throughput.breakdown_s.dp_comm", t.breakdown.dp_comm_s},
           {"throughput.breakdown_s.pp_bubble", t.breakdown.pp_bubble_s},
           {"throughput.breakdown_s.other", t.breakdown.other_s}});
  g.Check({{"time.steps", e.time.steps}, {"time.wall_hours", e.time.wall_hours}, {"time.gpu_hours", e.time.gpu_hours}});
  const Reliability& r = e.reliability;
  g.Check({{"reliability.checkpoint_write_s", r.checkpoint_write_s}, {"reliability.job_mtbf_hours", r.job_mtbf_hours},
           {"reliability.interval_hours", r.interval_hours},
           {"reliability.expected_interruptions", r.expected_interruptions}, {"reliability.ettr", r.ettr},
           {"reliability.wall_hours_with_failures", r.wall_hours_with_failures}});
  g.Check({{"server.total_power_w", e.server.total_power_w}, {"server.ram_needed", e.server.ram_needed_bytes},
           {"claim.implied_tokens_per_s", e.claim.implied_tokens_per_s}, {"claim.implied_mfu", e.claim.implied_mfu}});
  const EstimateCosts& c = e.costs;
  g.Check({{"costs.hours", c.hours}, {"costs.own_share", c.own_share}, {"costs.storage_cost", c.storage_cost}});
  if (c.rent) g.Check({{"costs.rent.total", c.rent->total}, {"costs.rent.price_per_hour", c.rent->price_per_hour}});
  if (c.own) g.Check({{"costs.own.capex", c.own->capex}, {"costs.own.job_total", c.own->job_total}});
  if (c.rent_vs_buy) {
    for (double amount : c.rent_vs_buy->rent) g.Check("costs.rent_vs_buy.rent", amount);
    for (double amount : c.rent_vs_buy->own) g.Check("costs.rent_vs_buy.own", amount);
  }
  for (const BomLine& line : e.server.lines) g.Check("server.lines", line.quantity);
  for (const FabricSpeed& f : e.network_effect) g.Check("network_effect.tokens_per_s", f.tokens_per_s);
  return g;
}

Result<Estimate> ComputeEstimate(const Scenario& s, const Catalog& catalog, const CostBasis& basis) {
  if (auto error = ValidateScenario(s, catalog)) return *error;
  Estimate e;
  e.model = s.model;
  e.model_derived = s.model_derived;
  e.params = CountParams(s.model);
  {
    const Scenario update = UpdateScenario(s);
    e.sequence = SampleSequenceOf(update);
    e.vision_activation_bytes = VisionActivationBytesOnGpu(update);
    e.vision_flops = VisionFlopsPerSample(update);
  }
  const GpuSpec& gpu = *catalog.FindGpu(s.gpu_id);
  e.memory = EstimateMemory(s, e.params, /*explain=*/true, ShippedCalibration(), gpu.memory_bytes);
  e.need_bytes = e.memory.GpuBytes();
  e.capacity_bytes = gpu.memory_bytes;
  e.fits = e.need_bytes <= e.capacity_bytes;
  for (const GpuSpec& g : catalog.gpus) {
    // A post-training rollout engine takes what each GPU's memory allows: its need is that GPU's.
    const double need = s.training.post.kind == PostTraining::kNone
                            ? e.need_bytes
                            : EstimateMemory(s, e.params, /*explain=*/false, ShippedCalibration(), g.memory_bytes).GpuBytes();
    e.fit_by_gpu.push_back({g.id, g.name, g.memory_bytes, need <= g.memory_bytes, need});
  }
  const FabricSpec& fabric = *catalog.FindFabric(s.parallel.network);
  e.throughput = EstimateThroughput(s, e.params, gpu, fabric);
  e.time = EstimateTime(s, e.throughput);
  e.network_effect = NetworkEffect(s, e.params, gpu, catalog, e.throughput.tokens_per_s);
  StorageSpec storage = DefaultStorage(s.parallel.Nodes());
  if (const StorageTier* tier = catalog.FindStorage(s.storage)) {
    storage = StorageFor(*tier, s.parallel.Nodes(), s.parallel.gpus_per_node, CheckpointBytes(s, e.params));
  }
  e.reliability = EstimateReliability(s, e.params, e.time, storage);
  e.server = BuildBillOfMaterials(s, gpu, fabric, e.memory, e.reliability);
  e.claim = CheckClaim(s, gpu, e.throughput, e.fits);
  e.startup = EstimateStartup(s, e.params, Provisioning::kCloudInstance, e.throughput.tokens_per_s);
  // Priced for the job's hours, start-up and tear-down included, when tokens are given; else per hour.
  const double cost_hours =
      e.time.tokens > 0 ? e.reliability.wall_hours_with_failures + e.startup.TotalSeconds() / kSecondsPerHour : 1.0;
  e.costs = EstimateJobCosts(s, e.params, cost_hours, catalog, basis);
  // Post-training's sequences are its update's (prompt + response): the checklist and the
  // warnings speak of those.
  const Scenario trained = TrainedScenario(s);
  e.checklist = PreOrderChecklist(trained, e, gpu);
  e.warnings = CollectWarnings(trained);
  AddApproximateModelWarning(s, catalog, e.warnings);
  AddNodeSizeWarning(s, gpu, catalog, e.warnings);
  AddTimeWarnings(s, e, e.warnings);
  if (e.costs.rent && !e.costs.rent->within_capacity) {
    const CloudOffer& offer = *e.costs.rent->offer;
    e.warnings.push_back(MakeWarning("rent_needs_sales", {TextArg("offer", offer.provider_name + " " + offer.instance),
                                                          CountArg("gpus", s.parallel.gpus),
                                                          CountArg("capacity", offer.capacity_gpus)}));
  }
  if (!e.fits) {
    e.fit_options = FitOptions(s, catalog);
    e.warnings.push_back(MakeWarning("does_not_fit", {BytesArg("need_bytes", e.need_bytes), TextArg("gpu", gpu.name),
                                                      BytesArg("capacity_bytes", e.capacity_bytes)}));
  }
  return e;
}

// The input whose default brings every figure back to finite: the one that took the
// estimate outside what the engine can compute. Empty when no single input does.
std::string BlameInput(const Scenario& s, const Catalog& catalog) {
  const Scenario defaults;
  const std::pair<const char*, void (*)(Scenario&, const Scenario&)> resets[] = {
      {"mfu", [](Scenario& x, const Scenario& d) { x.training.mfu = d.training.mfu; }},
      {"node_gbps", [](Scenario& x, const Scenario& d) { x.parallel.node_gbps = d.parallel.node_gbps; }},
      {"tokens", [](Scenario& x, const Scenario& d) { x.training.tokens = d.training.tokens; }},
      {"dataset_tokens", [](Scenario& x, const Scenario& d) { x.training.dataset_tokens = d.training.dataset_tokens; }},
      {"epochs", [](Scenario& x, const Scenario& d) { x.training.epochs = d.training.epochs; }},
      {"claim", [](Scenario& x, const Scenario& d) { x.training.claim = d.training.claim; }},
      {"restart_minutes", [](Scenario& x, const Scenario& d) { x.training.restart_minutes = d.training.restart_minutes; }},
      {"seq_len", [](Scenario& x, const Scenario& d) { x.training.seq_len = d.training.seq_len; }},
      {"global_batch", [](Scenario& x, const Scenario& d) { x.training.global_batch = d.training.global_batch; }},
      {"micro_batch", [](Scenario& x, const Scenario& d) { x.training.micro_batch = d.training.micro_batch; }},
      {"storage", [](Scenario& x, const Scenario& d) { x.storage = d.storage; }},
      {"network", [](Scenario& x, const Scenario& d) { x.parallel.network = d.parallel.network; }},
  };
  for (const auto& [field, reset] : resets) {
    Scenario changed = s;
    reset(changed, defaults);
    auto retry = ComputeEstimate(changed, catalog, CostBasis{});
    if (retry.ok() && GuardFigures(retry.value()).ok()) return field;
  }
  return "";
}

}  // namespace

Result<Estimate> RunEstimate(const Scenario& s, const Catalog& catalog, const CostBasis& basis) {
  auto estimate = ComputeEstimate(s, catalog, basis);
  if (!estimate.ok()) return estimate;
  const FiniteGuard guard = GuardFigures(estimate.value());
  if (guard.ok()) return estimate;
  StrictGuardFailed(guard.failed());
  const std::string input = BlameInput(s, catalog);
  if (input.empty()) return MakeInputError("scenario", "input.outside_engine", {TextArg("figure", guard.failed())});
  return MakeInputError(input, "input.outside_engine.field",
                        {TextArg("field", input), TextArg("figure", guard.failed())});
}

}  // namespace engine
