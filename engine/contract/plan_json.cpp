#include "engine/contract/plan_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/contract/field_json.h"
#include "engine/contract/limited_fields.h"
#include "engine/contract/message_json.h"
#include "engine/contract/result_json.h"
#include "engine/cost_model.h"
#include "engine/estimate.h"
#include "engine/format.h"
#include "engine/goal_fields.h"
#include "engine/units.h"

namespace engine::contract {
namespace {


double R(double v, double scale) { return std::round(v * scale) / scale; }

// Whether an owned plan pays back against the cheapest rental: true, false (renting stays
// cheaper however long the servers run), or null (a rented plan, or no rental price to
// compare with, as under purchase "own").
Json BreaksEvenJson(const engine::Plan& p) {
  if (!p.own || !engine::HasRentalToCompare(p.break_even_months)) return nullptr;
  return engine::BreaksEven(p.break_even_months);
}

// An owned plan's break-even months, rounded; null when there are none (never, or nothing
// to compare with), not 0, which would read as "from the first month".
Json BreakEvenMonthsJson(const engine::Plan& p) {
  if (!p.own || !engine::BreaksEven(p.break_even_months)) return nullptr;
  return R(p.break_even_months, 10);
}

// u*, capped at 1000 (above 1 buying pays back only past full use); null for a rented
// plan, without a rental to compare with, and when power alone costs more than the rental.
Json BreakEvenUtilizationJson(const engine::Plan& p) {
  if (!p.own || !engine::HasRentalToCompare(p.break_even_months)) return nullptr;
  if (p.break_even_utilization == engine::kNoBreakEvenUtilization) return nullptr;
  return R(std::min(p.break_even_utilization, 1e3), 1e4);
}

// The labels' English strings, and their template ids for a program to act on.
Json LabelsJson(const std::vector<engine::PickLabel>& labels) {
  Json out = Json::array();
  for (engine::PickLabel l : labels) {
    out.push_back(std::string(engine::EnglishTemplate(engine::kPickLabelIds[size_t(l)])));
  }
  return out;
}

Json LabelCodesJson(const std::vector<engine::PickLabel>& labels) {
  Json out = Json::array();
  for (engine::PickLabel l : labels) out.push_back(std::string(engine::kPickLabelIds[size_t(l)]));
  return out;
}

Json PlanJson(const engine::Plan& p, const engine::Catalog& cat) {
  const engine::GpuSpec* g = cat.FindGpu(p.gpu_id);
  const engine::Parallelism& l = p.layout;
  return Json{{"gpu", p.gpu_id},
              {"gpu_name", g ? g->name : p.gpu_id},
              {"gpus", l.gpus},
              {"nodes", l.Nodes()},
              {"layout",
               {{"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"dp", l.DataParallel()},
                {"zero", l.zero}, {"sequence_parallel", l.sequence_parallel},
                {"offload", engine::EnumName(engine::kOffloadNames, l.offload)},
                {"activation_checkpointing", engine::EnumName(engine::kRecomputeNames, p.activation_checkpointing)},
                {"micro_batch", p.micro_batch}, {"global_batch", p.global_batch}}},
              {"memory_per_gpu_gib", R(p.need_bytes / engine::kGiB, 100)},
              {"capacity_gib", R(p.capacity_bytes / engine::kGiB, 100)},
              {"tokens_per_s", R(p.tokens_per_s, 1)},
              {"mfu", R(p.mfu, 1e4)},
              {"wall_hours", R(p.wall_hours, 100)},
              {"wall_days", R(p.wall_hours / 24, 100)},
              {"startup", StartupToJson(p.startup)},
              {"gpu_hours", R(p.gpu_hours, 10)},
              {"purchase", p.own ? "own" : "cloud"},
              {"procurement", p.procurement.english},
              {"procurement_code", p.procurement.id},
              {"procurement_args", MessageArgsJson(p.procurement.args)},
              {"procurement_id", p.procurement_id},
              {"capacity_gpus", p.own ? Json(nullptr) : Json(p.capacity_gpus)},
              {"capacity_kind", p.own ? Json(nullptr) : Json(std::string(engine::EnumName(engine::kCapacityKindNames, p.capacity_kind)))},
              {"lead_time_days", p.own ? Json(nullptr) : Json(p.lead_time_days)},
              {"price_uncertain", p.price_uncertain},
              {"price_date", p.price_date.empty() ? Json(nullptr) : Json(p.price_date)},
              {"price_stale", p.price_stale},
              {"real_name_verification", p.real_name_verification},
              {"min_term_hours", p.own ? Json(nullptr) : Json(p.min_term_hours)},
              {"units", p.units},
              {"cost", R(p.cost, 100)},
              {"cash_outlay", R(p.cash_outlay, 100)},
              {"storage_cost", R(p.storage_cost, 100)},
              {"per_gpu_hour", R(p.per_gpu_hour, 1000)},
              {"capex", R(p.capex, 1)},
              {"whole_capex", R(p.whole_capex, 1)},
              {"breaks_even", BreaksEvenJson(p)},
              {"break_even_utilization", BreakEvenUtilizationJson(p)},
              {"break_even_months", BreakEvenMonthsJson(p)},
              {"within_deadline", p.within_deadline},
              {"within_budget", p.within_budget},
              {"labels", LabelsJson(p.labels)},
              {"label_codes", LabelCodesJson(p.labels)}};
}

}  // namespace

namespace {

// {"budget": {"amount": N, "currency": "CNY"}}: the budget with its own currency.
std::optional<InputError> ReadBudgetObject(const Json& b, engine::PlanConstraints& c) {
  for (const auto& [key, value] : b.items()) {
    if (key != "amount" && key != "currency") {
      return MakeInputError("budget." + engine::QuotedInput(key), "input.not_group_field",
                            {engine::TextArg("group", "budget"), engine::TextArg("fields", "amount, currency")});
    }
  }
  if (auto e = ReadLimited(b, "amount", "budget.", "budget", &c.budget)) return e;
  return ReadString(b, "currency", "budget.", &c.currency);
}

}  // namespace

engine::Result<engine::PlanConstraints> ConstraintsFromJson(const Json& d) {
  engine::PlanConstraints c;
  if (!d.is_object()) return MakeInputError("scenario", "input.must_be_json_object");
  const bool budget_object = d.contains("budget") && d["budget"].is_object();
  for (const engine::GoalField& f : engine::GoalFields()) {
    // A top-level currency, read after the budget, wins over the budget object's.
    auto e = f.key == "budget" && budget_object ? ReadBudgetObject(d["budget"], c) : ReadTableField(d, f, "", c);
    if (e) return *e;
  }
  // A scenario that names its GPU fixes it for the planner, unless it lists the allowed
  // GPUs itself: the page's documents say "allowed_gpus": [] for "search them all", and
  // the CLI must plan them as the page did.
  if (!d.contains("allowed_gpus") && d.contains("gpu") && d["gpu"].is_string()) {
    c.gpus.push_back(d["gpu"].get<std::string>());
  }
  if (!c.region.empty() && c.region != "cn" && c.region != "us" && c.region != "eu" && c.region != "asia") {
    return MakeInputError("region", "input.unknown_region", {engine::TextArg("got", engine::QuotedInput(c.region))});
  }
  return c;
}

Json ConstraintsToJson(const engine::PlanConstraints& c) { return TableToJson(engine::GoalFields(), c); }

Json PlanToJson(const engine::PlanResult& r, const engine::PlanConstraints& c, const engine::Catalog& cat,
                const engine::Scenario& base) {
  Json plans = Json::array(), picks = Json::array(), rejected = Json::array();
  for (const engine::Plan& p : r.plans) plans.push_back(PlanJson(p, cat));
  for (const engine::Plan& p : r.picks) {
    Json pick = PlanJson(p, cat);
    engine::Scenario s = base;
    s.gpu_id = p.gpu_id;
    s.parallel = p.layout;
    s.training.micro_batch = p.micro_batch;
    s.training.global_batch = p.global_batch;
    s.training.activation_checkpointing = p.activation_checkpointing;
    auto estimate = engine::RunEstimate(s, cat);
    if (estimate.ok()) pick["server"] = ServerToJson(estimate.value().server);
    picks.push_back(pick);
  }
  for (const engine::Rejection& x : r.rejected) {
    rejected.push_back({{"gpu", x.gpu_id},
                        {"reason", x.reason.english},
                        {"code", x.reason.id},
                        {"args", MessageArgsJson(x.reason.args)}});
  }
  return Json{{"currency", c.currency},
              {"objective", engine::EnumName(engine::kObjectiveNames, c.objective)},
              {"deadline_days", c.deadline_days},
              {"budget", c.budget},
              {"tokens", r.tokens},
              {"global_batch", r.global_batch},
              {"candidates_evaluated", r.candidates},
              {"constraints_met", r.constraints_met},
              {"picks", picks},
              {"pareto", plans},
              {"rejected", rejected}};
}

namespace {

std::string Row(const Json& p, const std::string& currency) {
  char buf[512];
  const Json& l = p["layout"];
  std::snprintf(buf, sizeof buf, "%-24s %5d %3d  tp%-2d pp%-2d dp%-4d z%d %-5s %-4s mb%-2d %8.1f %9.2f %12.0f %-6s %s",
                p["gpu"].get<std::string>().c_str(), p["gpus"].get<int>(), p["nodes"].get<int>(), l["tp"].get<int>(),
                l["pp"].get<int>(), l["dp"].get<int>(), l["zero"].get<int>(),
                l["activation_checkpointing"].get<std::string>().substr(0, 5).c_str(),
                l["offload"].get<std::string>() == "none" ? "" : "off", l["micro_batch"].get<int>(),
                p["memory_per_gpu_gib"].get<double>(), p["wall_days"].get<double>(), p["cost"].get<double>(),
                currency.c_str(), p["procurement"].get<std::string>().c_str());
  return buf;
}

}  // namespace

std::string PlanTable(const Json& j) {
  std::ostringstream out;
  const std::string currency = j["currency"];
  out << "TrainSizer plan: " << j["tokens"].get<double>() / 1e9 << "B tokens, objective " << j["objective"].get<std::string>()
      << ", " << j["candidates_evaluated"].get<long long>() << " layouts evaluated\n\n";
  out << "GPU                       GPUs nodes layout (z=ZeRO, AC, off=offload)  GiB/GPU   days      cost          procurement\n";
  for (const Json& p : j["picks"]) {
    out << Row(p, currency) << "\n    ^ " << DumpJson(p["labels"]) << "\n";
  }
  out << "\nPareto front (time vs cost):\n";
  for (const Json& p : j["pareto"]) out << Row(p, currency) << "\n";
  out << "\nRejected:\n";
  for (const Json& x : j["rejected"]) out << "  " << x["reason"].get<std::string>() << "\n";
  return out.str();
}

std::string PlanMarkdown(const Json& j) {
  std::ostringstream out;
  const std::string currency = j["currency"];
  out << "# TrainSizer plan\n\n" << j["tokens"].get<double>() / 1e9 << "B tokens; objective: "
      << j["objective"].get<std::string>() << "; " << j["candidates_evaluated"].get<long long>()
      << " layouts evaluated.\n\n## Top picks\n\n| pick | GPU | GPUs | layout | GiB/GPU | days | cost (" << currency
      << ") | procurement |\n|---|---|---:|---|---:|---:|---:|---|\n";
  auto row = [&](const Json& p, const std::string& label) {
    const Json& l = p["layout"];
    out << "| " << label << " | " << p["gpu_name"].get<std::string>() << " | " << p["gpus"].get<int>() << " | TP"
        << l["tp"].get<int>() << " PP" << l["pp"].get<int>() << " DP" << l["dp"].get<int>() << " ZeRO-"
        << l["zero"].get<int>() << " | " << p["memory_per_gpu_gib"].get<double>() << " | " << p["wall_days"].get<double>()
        << " | " << engine::Money(p["cost"].get<double>()) << " | " << p["procurement"].get<std::string>() << " |\n";
  };
  for (const Json& p : j["picks"]) {
    std::string labels;
    for (const Json& l : p["labels"]) labels += (labels.empty() ? "" : ", ") + l.get<std::string>();
    row(p, labels);
  }
  out << "\n## Pareto front\n\n| | GPU | GPUs | layout | GiB/GPU | days | cost (" << currency
      << ") | procurement |\n|---|---|---:|---|---:|---:|---:|---|\n";
  for (const Json& p : j["pareto"]) row(p, "");
  out << "\n## Rejected\n\n";
  for (const Json& x : j["rejected"]) out << "- " << x["reason"].get<std::string>() << "\n";
  return out.str();
}

}  // namespace engine::contract
