#include "engine/contract/result_json.h"

#include <cmath>
#include <optional>
#include <string>

#include "engine/contract/message_json.h"
#include "engine/contract/model_json.h"
#include "engine/scenario_fields.h"
#include "engine/units.h"
#include "engine/version.h"

namespace engine::contract {
namespace {

// GiB rounded to 1/10000 so the JSON stays readable and identical across platforms.
double Gib(double bytes) { return std::round(bytes / engine::kGiB * 1e4) / 1e4; }

double R(double v, double scale) { return std::round(v * scale) / scale; }

// An engine text under `key` as today's English, with `key`_code and `key`_args beside it
// (the message's template id and its arguments, as MessageJson has them) so a program or
// another language can render it without parsing the English. An empty text (nothing to
// explain) has no code.
void PutMessage(Json& object, const std::string& key, const engine::Message& message) {
  object[key] = message.english;
  if (message.id.empty()) return;
  object[key + "_code"] = message.id;
  object[key + "_args"] = MessageArgsJson(message.args);
}

Json Explain(const engine::MemoryTerm& term) {
  Json out = Json::object();
  PutMessage(out, "formula", term.formula);
  PutMessage(out, "source", term.source);
  return out;
}

// {"code", "args": {name: value}, "message"}: numbers (bytes as bytes) and texts as they
// are, so a program can act on a warning without parsing its English.
Json WarningToJson(const engine::Warning& w) {
  return Json{{"code", w.code}, {"args", MessageArgsJson(w.args)}, {"message", w.message}};
}

Json MemoryJson(const engine::Estimate& e) {
  const engine::MemoryBreakdown& m = e.memory;
  return Json{{"per_gpu_gib", Gib(e.need_bytes)},
              {"capacity_gib", Gib(e.capacity_bytes)},
              {"fits", e.fits},
              {"headroom_gib", Gib(e.capacity_bytes - e.need_bytes)},
              {"weights_gib", Gib(m.weights.bytes)},
              {"gradients_gib", Gib(m.gradients.bytes)},
              {"optimizer_gib", Gib(m.optimizer.bytes)},
              {"activations_gib", Gib(m.activations.bytes)},
              {"logits_gib", Gib(m.logits.bytes)},
              {"overhead_gib", Gib(m.overhead.bytes)},
              {"cpu_ram_gib", Gib(m.cpu_ram.bytes)},
              {"roles_gib", Gib(m.roles.bytes)},
              {"allocated_gib", Gib(m.AllocatedBytes())},
              {"reserved_gib", Gib(m.ReservedBytes())},
              {"overhead_parts",
               {{"cuda_context_gib", Gib(m.overhead_parts.cuda_context_bytes)},
                {"nccl_gib", Gib(m.overhead_parts.nccl_bytes)},
                {"gathered_gib", Gib(m.overhead_parts.gathered_bytes)},
                {"fragmentation_gib", Gib(m.overhead_parts.fragmentation_bytes)}}},
              {"explain",
               {{"weights", Explain(m.weights)},
                {"gradients", Explain(m.gradients)},
                {"optimizer", Explain(m.optimizer)},
                {"activations", Explain(m.activations)},
                {"logits", Explain(m.logits)},
                {"overhead", Explain(m.overhead)},
                {"cpu_ram", Explain(m.cpu_ram)},
                {"roles", Explain(m.roles)}}}};
}

constexpr std::string_view kRolePoolNames[] = {"shared", "training", "rollout"};

// Post-training's roles, rollout engine and step phases (engine/post_training.h).
Json PostTrainingJson(const engine::Estimate& e) {
  const engine::PostTrainingMemory& m = e.memory.post;
  const engine::PostTrainingStep& t = e.throughput.post;
  Json roles = Json::array();
  for (const engine::RoleMemory& r : m.roles) {
    roles.push_back({{"role", r.role}, {"per_gpu_gib", Gib(r.per_gpu_bytes)}, {"trained", r.trained},
                     {"pool", kRolePoolNames[static_cast<int>(r.pool)]}});
  }
  const auto s = [](double v) { return R(v, 1e3); };
  Json out{{"roles", roles},
           {"training_gpu_gib", Gib(m.training_gpu_bytes)},
           {"prompts_per_step", t.prompts},
           {"sequences_per_step", t.sequences},
           {"step_breakdown_s",
            {{"generation", s(t.generation_s)}, {"prefill", s(t.prefill_s)}, {"forward", s(t.forward_s)},
             {"training", s(t.TrainingS())}, {"policy_update", s(t.policy_update_s)},
             {"critic_update", s(t.critic_update_s)}, {"weight_sync", s(t.weight_sync_s)}, {"total", s(t.total_s)}}},
           {"generation_share", R(t.GenerationShare(), 1e4)},
           {"prompts_per_hour", t.total_s > 0 ? R(t.prompts * 3600 / t.total_s, 10) : 0.0}};
  if (t.generated_tokens > 0) {
    const engine::RolloutSizing& r = m.rollout;
    out["generated_tokens_per_s"] = R(t.generated_tokens / std::max(1e-9, t.generation_s), 10);
    out["rollout"] = {{"tp", r.tp}, {"instances", r.instances}, {"answers_per_instance", r.sequences},
                      {"batch", r.batch}, {"waves", r.waves}, {"weights_gib", Gib(r.weight_bytes)},
                      {"kv_cache_gib", Gib(r.kv_bytes)}, {"reserve_gib", Gib(r.reserve_bytes)},
                      {"per_gpu_gib", Gib(r.bytes)}, {"gpu_memory_utilization", R(r.utilization, 100)},
                      {"rollout_gpu_gib", Gib(m.rollout_gpu_bytes)}};
  }
  return out;
}

Json ThroughputJson(const engine::Throughput& t) {
  const engine::StepBreakdown& b = t.breakdown;
  Json out{{"tokens_per_s", std::round(t.tokens_per_s * 10) / 10},
              {"tokens_per_s_per_gpu", std::round(t.tokens_per_s_per_gpu * 10) / 10},
              {"mfu", std::round(t.mfu * 1e4) / 1e4},
              {"hfu", std::round(t.hfu * 1e4) / 1e4},
              {"mfu_overridden", t.mfu_overridden},
              {"step_time_s", std::round(t.step_time_s * 1e4) / 1e4},
              {"tokens_per_step", t.tokens_per_step},
              {"global_batch", t.global_batch},
              {"global_batch_default", t.global_batch_default},
              {"micro_batches_per_step", t.micro_batches_per_step},
              {"flops_per_token", std::round(t.flops_per_token.model)},
              {"hardware_flops_per_token", std::round(t.flops_per_token.hardware)},
              {"breakdown_s",
               {{"rollout", std::round(b.rollout_s * 1e4) / 1e4},
                {"compute", std::round(b.compute_s * 1e4) / 1e4},
                {"tp_comm", std::round(b.tp_comm_s * 1e4) / 1e4},
                {"dp_comm", std::round(b.dp_comm_s * 1e4) / 1e4},
                {"pp_bubble", std::round(b.pp_bubble_s * 1e4) / 1e4},
                {"other", std::round(b.other_s * 1e4) / 1e4}}},
              {"scale_up_busbw_gb_per_s", std::round(t.scale_up_busbw_bytes_per_s / 1e7) / 100},
              {"scale_out_busbw_gb_per_s", std::round(t.scale_out_busbw_bytes_per_s / 1e7) / 100}};
  PutMessage(out, "explain", t.explain);
  return out;
}

Json TimeJson(const engine::TrainingTime& t) {
  if (t.tokens <= 0) return Json{{"tokens", 0}, {"note", "no tokens given: only rates are estimated"}};
  return Json{{"tokens", t.tokens},
              {"steps", t.steps},
              {"wall_hours", std::round(t.wall_hours * 100) / 100},
              {"wall_days", std::round(t.wall_hours / 24 * 100) / 100},
              {"gpu_hours", std::round(t.gpu_hours * 10) / 10}};
}

Json ReliabilityJson(const engine::Reliability& r) {
  return Json{{"checkpoint_gb", R(r.checkpoint_bytes / 1e9, 100)},
              {"export_gb", R(r.export_bytes / 1e9, 100)},
              {"checkpoint_write_s", R(r.checkpoint_write_s, 10)},
              {"job_mtbf_hours", R(r.job_mtbf_hours, 100)},
              {"checkpoint_interval_hours", R(r.interval_hours, 100)},
              {"expected_interruptions", R(r.expected_interruptions, 100)},
              {"ettr", R(r.ettr, 1e4)},
              {"wall_hours_with_failures", R(r.wall_hours_with_failures, 100)},
              {"source", "failure rate: Llama 3 paper §3.3.4 (419 interruptions, 16,384 H100, 54 days); "
                         "interval: Daly 2006"}};
}

}  // namespace

Json ServerToJson(const engine::BillOfMaterials& b) {
  Json lines = Json::array();
  for (const engine::BomLine& l : b.lines) {
    Json line = Json::object();
    PutMessage(line, "item", l.item);
    line["quantity"] = R(l.quantity, 100);
    PutMessage(line, "unit", l.unit);
    PutMessage(line, "why", l.why);
    lines.push_back(std::move(line));
  }
  return Json{{"nodes", b.nodes},
              {"node_power_kw", R(b.node_power_w / 1000, 100)},
              {"total_power_kw", R(b.total_power_w / 1000, 100)},
              {"ram_needed_gib_per_node", R(b.ram_needed_bytes / engine::kGiB, 10)},
              {"ram_rule_of_thumb_gib_per_node", R(b.ram_rule_of_thumb_bytes / engine::kGiB, 10)},
              {"lines", lines}};
}

namespace {

Json NetworkEffectJson(const std::vector<engine::FabricSpeed>& speeds) {
  Json out = Json::array();
  for (const engine::FabricSpeed& f : speeds) {
    out.push_back({{"network", f.fabric_id}, {"name", f.name.en}, {"node_gbps", f.node_gbps},
                   {"tokens_per_s", R(f.tokens_per_s, 1)}, {"relative", R(f.relative, 1e4)}});
  }
  return out;
}

Json ChecklistJson(const std::vector<engine::CheckItem>& items) {
  Json out = Json::array();
  for (const engine::CheckItem& c : items) {
    Json item = Json::object();
    PutMessage(item, "topic", c.topic);
    item["status"] = engine::EnumName(engine::kCheckStatusNames, c.status);
    PutMessage(item, "answer", c.answer);
    out.push_back(std::move(item));
  }
  return out;
}

Json ClaimJson(const engine::ClaimCheck& c) {
  if (!c.present) return nullptr;
  Json out{{"verdict", engine::EnumName(engine::kClaimVerdictNames, c.verdict)},
           {"checked", engine::EnumName(engine::kClaimKindNames, c.checked)},
           {"implied_tokens_per_s", R(c.implied_tokens_per_s, 1)},
           {"implied_mfu", R(c.implied_mfu, 1e4)},
           {"predicted_tokens_per_s", R(c.predicted_tokens_per_s, 1)}};
  PutMessage(out, "message", c.message);
  return out;
}

// Money to the cent; prices per hour to 1/10000, as the plan's per_gpu_hour.
double Money(double amount) { return R(amount, 100); }
double PerHour(double amount) { return R(amount, 1e4); }

Json RentJson(const std::optional<engine::CloudCost>& rent) {
  if (!rent) return nullptr;
  return Json{{"offer", rent->offer->id},
              {"provider", rent->offer->provider},
              {"pricing", engine::EnumName(engine::kPricingNames, rent->pricing)},
              {"units", rent->units},
              {"price_per_hour", PerHour(rent->price_per_hour)},
              {"per_gpu_hour", PerHour(rent->per_gpu_hour)},
              {"billed_hours", R(rent->billed_hours, 1e4)},
              {"total", Money(rent->total)}};
}

Json OwnJson(const engine::EstimateCosts& c) {
  if (!c.own) return nullptr;
  const engine::OwnCost& o = *c.own;
  return Json{{"server", o.server->id},      {"used", o.used},
              {"servers", o.servers},        {"capex", Money(o.capex)},
              {"server_share", R(o.share, 1e4)}, {"whole_capex", Money(o.whole_capex)},
              {"fixed_per_hour", PerHour(o.fixed_per_hour)}, {"power_per_hour", PerHour(o.power_per_hour)},
              {"running_per_hour", PerHour(o.running_per_hour)},
              {"share_per_hour", PerHour(c.own_share_per_hour)}, {"share", Money(c.own_share)}};
}

Json RentVsBuyJson(const engine::EstimateCosts& c) {
  if (!c.rent_vs_buy) return nullptr;
  const engine::RentVsBuy& s = *c.rent_vs_buy;
  Json rent = Json::array(), own = Json::array(), own_net = Json::array();
  for (double amount : s.rent) rent.push_back(Money(amount));
  for (double amount : s.own) own.push_back(Money(amount));
  for (double amount : s.own_net) own_net.push_back(Money(amount));
  return Json{{"offer", c.hourly_rent->offer->id},
              {"rent_per_hour", PerHour(c.hourly_rent->price_per_hour)},
              {"months", engine::kRentVsBuyHorizonMonths},
              {"breaks_even", s.breaks_even},
              {"break_even_month", s.breaks_even ? Json(s.break_even_month) : Json(nullptr)},
              {"rent", rent},
              {"own", own},
              {"own_net", own_net}};
}

// What the job costs in the goal's currency: renting for its hours, the share of owning
// at the goal's utilization, rent vs buy by month (index = months of use), and storage.
Json CostsJson(const engine::EstimateCosts& c) {
  return Json{{"currency", c.basis.currency},
              {"own_utilization", c.basis.own_utilization},
              {"hours", R(c.hours, 1e4)},
              {"rent", RentJson(c.rent)},
              {"own", OwnJson(c)},
              {"rent_vs_buy", RentVsBuyJson(c)},
              {"storage", {{"per_hour", PerHour(c.storage_per_hour)}, {"cost", Money(c.storage_cost)}}}};
}

// A fit option's changes as the partial scenario they are: applied over the user's
// scenario document, they give the estimate the option reports.
Json ChangesJson(const std::vector<engine::FieldChange>& changes) {
  Json out = Json::object();
  for (const engine::FieldChange& c : changes) {
    const engine::ScenarioField* f = engine::FindScenarioField(c.key);
    if (f == nullptr) continue;
    switch (f->type) {
      case engine::FieldType::kBool: out[c.key] = c.value != 0; break;
      case engine::FieldType::kInteger: out[c.key] = std::llround(c.value); break;
      case engine::FieldType::kChoice:
      case engine::FieldType::kText: out[c.key] = c.text; break;
      default: out[c.key] = c.value; break;
    }
  }
  return out;
}

Json FitOptionsJson(const engine::Estimate& e) {
  Json out = Json::array();
  for (const engine::FitOption& o : e.fit_options) {
    out.push_back({{"changes", ChangesJson(o.changes)},
                   {"per_gpu_gib", Gib(o.need_bytes)},
                   {"capacity_gib", Gib(o.capacity_bytes)},
                   {"tokens_per_s_per_gpu", std::round(o.tokens_per_s_per_gpu * 10) / 10},
                   {"slowdown", std::round(o.slowdown * 1e4) / 1e4},
                   {"changes_the_job", o.changes_the_job}});
  }
  return out;
}

}  // namespace

Json StartupToJson(const engine::StartupTeardown& t) {
  auto s = [](double v) { return std::round(v); };
  return Json{{"provision_s", s(t.provision_s)}, {"environment_s", s(t.environment_s)},
              {"weights_s", s(t.weights_s)},     {"dataset_s", s(t.dataset_s)},
              {"nccl_s", s(t.nccl_s)},           {"eval_s", s(t.eval_s)},
              {"upload_s", s(t.upload_s)},
              {"total_hours", std::round(t.TotalSeconds() / 36) / 100}};
}

// One image's or video's cut: its size after the processor's resize, tiles or frame groups,
// the tower's patches and the language model's tokens.
Json MediaTokensJson(const engine::MediaTokens& t) {
  Json out = {{"resized", Json::array({t.width_px, t.height_px})}, {"tiles", t.tiles},
              {"patches", std::round(t.patches)}, {"tokens", std::round(t.tokens)},
              {"markers", std::round(t.markers)}};
  if (t.frames > 0) out["frames"] = std::round(t.frames);
  return out;
}

// The trained sequence's text and media parts, against the model's context.
Json SequenceJson(const engine::Estimate& e) {
  const engine::SampleSequence& q = e.sequence;
  Json out = {{"text_tokens", std::round(q.text_tokens)},     {"media_tokens", std::round(q.media_tokens)},
              {"marker_tokens", std::round(q.marker_tokens)}, {"total_tokens", std::round(q.total_tokens)},
              {"max_context", e.model.max_context},
              {"within_context", e.model.max_context <= 0 || q.total_tokens <= e.model.max_context}};
  if (q.image.tokens > 0) out["image"] = MediaTokensJson(q.image);
  if (q.video.tokens > 0 || q.video.patches > 0) out["video"] = MediaTokensJson(q.video);
  if (q.vision_patches > 0) out["vision_patches"] = std::round(q.vision_patches);
  return out;
}

// A vision-language model's tower and projector: their size, what trains, and their share
// of memory and FLOPs.
Json VisionJson(const engine::Estimate& e) {
  return Json{{"tower_params", std::round(e.params.vision_tower)},
              {"projector_params", std::round(e.params.vision_projector)},
              {"activations_gib", Gib(e.vision_activation_bytes)},
              {"forward_tflops_per_sample", e.vision_flops.forward / 1e12},
              {"step_tflops_per_sample", e.vision_flops.step / 1e12}};
}

Json EstimateToJson(const engine::Estimate& e) {
  Json model = {{"id", e.model.id}, {"name", e.model.name}, {"derived", e.model_derived},
                {"moe", e.model.IsMoe()}, {"arch", ArchitectureToJson(e.model)}};
  Json params = {{"total", std::round(e.params.total)},
                 {"active", std::round(e.params.active)},
                 {"trainable", std::round(e.memory.trainable_params)}};
  Json fits = Json::array();
  for (const engine::GpuFit& f : e.fit_by_gpu) {
    fits.push_back({{"gpu", f.gpu_id}, {"name", f.name}, {"capacity_gib", Gib(f.capacity_bytes)},
                    {"fits", f.fits}, {"headroom_gib", Gib(f.capacity_bytes - f.need_bytes)}});
  }
  Json warnings = Json::array();
  for (const engine::Warning& w : e.warnings) warnings.push_back(WarningToJson(w));
  Json out{{"version", engine::kEngineVersion}, {"contract", engine::kContractVersion},
              {"model", model}, {"params", params}, {"memory", MemoryJson(e)},
              {"throughput", ThroughputJson(e.throughput)}, {"time", TimeJson(e.time)},
              {"startup", StartupToJson(e.startup)},
              {"reliability", ReliabilityJson(e.reliability)}, {"server", ServerToJson(e.server)},
              {"claim_check", ClaimJson(e.claim)},
              {"checklist", ChecklistJson(e.checklist)},
              {"network_effect", NetworkEffectJson(e.network_effect)},
              {"costs", CostsJson(e.costs)},
              {"fit_by_gpu", fits}, {"fit_options", FitOptionsJson(e)}, {"warnings", warnings}};
  out["sequence"] = SequenceJson(e);
  if (e.model.vision.present()) out["vision"] = VisionJson(e);
  if (!e.memory.post.roles.empty()) out["rl"] = PostTrainingJson(e);
  return out;
}

Json ErrorToJson(const engine::InputError& error) {
  return Json{{"error",
               {{"field", error.field}, {"code", error.code}, {"args", MessageArgsJson(error.args)},
                {"message", error.message}}}};
}

}  // namespace engine::contract
