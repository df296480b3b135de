#include "engine/exports/proposal.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/cost_model.h"
#include "engine/estimate.h"
#include "engine/exports/report.h"
#include "engine/parts_list.h"
#include "engine/units.h"
#include "engine/version.h"

namespace engine::exports {
namespace {

// [SECTION] which plans

// The recommended plan: the best-value pick, else the first pick, else the first plan of
// the front; the alternative: another pick, else the next plan of the front.
std::pair<const Plan*, const Plan*> Chosen(const PlanResult& r) {
  const Plan* recommended = nullptr;
  for (const Plan& p : r.picks) {
    if (std::find(p.labels.begin(), p.labels.end(), PickLabel::kBestValue) != p.labels.end()) recommended = &p;
  }
  if (recommended == nullptr && !r.picks.empty()) recommended = &r.picks.front();
  if (recommended == nullptr && !r.plans.empty()) recommended = &r.plans.front();
  const Plan* alternative = nullptr;
  for (const std::vector<Plan>* list : {&r.picks, &r.plans}) {
    for (const Plan& p : *list) {
      if (alternative == nullptr && &p != recommended &&
          (p.gpu_id != recommended->gpu_id || p.own != recommended->own || p.layout.gpus != recommended->layout.gpus)) {
        alternative = &p;
      }
    }
  }
  return {recommended, alternative};
}

// [SECTION] words

// The proposal's sentences in one language.
class Writer {
 public:
  explicit Writer(MessageRenderer render) : render_(render) {}

  std::string operator()(const Message& m) const { return render_(m.id, m.args); }
  std::string operator()(std::string_view id, const std::vector<MessageArg>& args = {}) const {
    return render_(id, args);
  }

  // An amount of money: whole units, or three digits below 100 (a GPU-hour's price).
  std::string Amount(double amount, const std::string& currency) const {
    if (std::fabs(amount) >= 100) return render_("proposal.amount", {MoneyArg("amount", amount, currency)});
    return render_("proposal.small_amount", {NumberArg("amount", amount), TextArg("currency", currency)});
  }

  // A length of time in minutes, hours or days, whichever reads best.
  Message Duration(double hours) const {
    if (hours < 1) return MakeMessage("proposal.minutes", {NumberArg("minutes", hours * 60)});
    if (hours < 48) return MakeMessage("proposal.hours", {NumberArg("hours", hours)});
    return MakeMessage("proposal.days", {NumberArg("days", hours / 24)});
  }

 private:
  MessageRenderer render_;
};

// One Markdown line: a model or catalog name with a line break cannot start a heading,
// list or table of its own.
std::string Flat(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  return text;
}

// [SECTION] one plan

// The risks a buyer should weigh before ordering this plan.
std::vector<std::string> Risks(const Plan& p, const Estimate& e, const PlanConstraints& c, const Catalog& cat,
                               const Writer& say) {
  std::vector<std::string> out;
  if (!p.own) {
    const CloudOffer* offer = cat.FindOffer(p.procurement_id);
    if (p.capacity_kind != CapacityKind::kSelfServe) {
      out.push_back(say("proposal.risk.capacity", {MessageArgOf("capacity", CapacityMessage(p))}));
    }
    if (offer != nullptr && offer->confidence == "low") {
      out.push_back(say("proposal.risk.price", {TextArg("date", offer->price_date)}));
    }
    if (c.allow_spot) out.push_back(say("proposal.risk.spot"));
  } else {
    out.push_back(say("proposal.risk.delivery"));
  }
  if (c.region == "cn") out.push_back(say("proposal.risk.export"));
  for (const Warning& w : e.warnings) out.push_back(say(w.template_id, w.args));
  return out;
}

void Row(std::ostringstream& out, const Writer& say, const char* name_id, const std::string& value) {
  out << "| " << Cell(say(name_id)) << " | " << Cell(value) << " |\n";
}

// The plan's GPUs both ways: the plan's own price, and the other way as the estimate prices
// it (the cheapest servers; the cheapest on-demand rental the goal's region, providers and
// capacity allow), with the break-even against renting.
std::string RentOrOwn(const Plan& p, const EstimateCosts& costs, const PlanConstraints& c, const Writer& say) {
  const CloudCost* rent = nullptr;
  if (costs.rent && RentableIn(*costs.rent->offer, c.region, c.currency) &&
      ProviderAllowed(c.providers, costs.rent->offer->provider) && costs.rent->within_capacity) {
    rent = &*costs.rent;
  }
  std::vector<MessageArg> args;
  double break_even_months = 0;
  bool rented = false, owned = false;
  if (p.own) {
    owned = true;
    args = {MoneyArg("capex", p.whole_capex, c.currency), MoneyArg("share", p.cost, c.currency)};
    break_even_months = p.break_even_months;
    if (rent != nullptr) {
      rented = true;
      args.push_back(MoneyArg("rent", rent->total + costs.storage_cost, c.currency));
      args.push_back(TextArg("offer", rent->offer->provider_name + " " + rent->offer->instance));
    }
  } else {
    rented = true;
    args = {MoneyArg("rent", p.cost, c.currency), MessageArgOf("offer", p.procurement)};
    if (costs.own) {
      owned = true;
      args.push_back(MoneyArg("capex", costs.own->whole_capex, c.currency));
      args.push_back(MoneyArg("share", costs.own_share, c.currency));
      break_even_months = costs.own->break_even_months;
    }
  }
  args.push_back(NumberArg("months", break_even_months));
  if (rented && owned) {
    return say(BreaksEven(break_even_months) ? "proposal.rent_or_own" : "proposal.rent_or_own.never", args);
  }
  return say(rented ? "proposal.rent_only" : "proposal.own_only", args);
}

void WriteFigures(std::ostringstream& out, const Plan& p, const PlanConstraints& c, const Writer& say,
                  const Estimate* e) {
  const Parallelism& l = p.layout;
  out << "| | |\n|---|---|\n";
  Row(out, say, "proposal.row.layout",
      say("proposal.layout", {CountArg("tp", l.tp), CountArg("pp", l.pp), CountArg("cp", l.cp), CountArg("ep", l.ep),
                              CountArg("dp", l.DataParallel()), CountArg("zero", l.zero),
                              CountArg("micro_batch", p.micro_batch), CountArg("global_batch", p.global_batch)}));
  Row(out, say, "proposal.row.memory",
      say("proposal.memory", {BytesArg("need_bytes", p.need_bytes), BytesArg("capacity_bytes", p.capacity_bytes)}));
  Row(out, say, "proposal.row.speed",
      say("proposal.speed", {NumberArg("tokens_per_s", p.tokens_per_s), NumberArg("mfu_percent", p.mfu * 100)}));
  const StartupTeardown& st = p.startup;
  const double startup_h = st.TotalSeconds() / kSecondsPerHour;
  Row(out, say, "proposal.row.time",
      say("proposal.time", {MessageArgOf("total", say.Duration(p.wall_hours)),
                            MessageArgOf("training", say.Duration(p.wall_hours - startup_h)),
                            MessageArgOf("startup", say.Duration(startup_h)), NumberArg("node_min", st.provision_s / 60),
                            NumberArg("image_min", st.environment_s / 60), NumberArg("weights_min", st.weights_s / 60),
                            NumberArg("data_min", st.dataset_s / 60), NumberArg("nccl_min", st.nccl_s / 60),
                            NumberArg("eval_min", st.eval_s / 60),
                            NumberArg("upload_min", st.upload_s / 60)}));
  Row(out, say, "proposal.row.cost",
      say(p.own ? "proposal.cost.own" : "proposal.cost.rent", {MoneyArg("cost", p.cost, c.currency)}));
  if (!p.own) {
    Row(out, say, "proposal.row.capacity", say(CapacityMessage(p)));
  } else if (BreaksEven(p.break_even_months)) {
    Row(out, say, "proposal.row.purchase",
        say("proposal.purchase_price.break_even",
            {MoneyArg("capex", p.whole_capex, c.currency), NumberArg("months", p.break_even_months)}));
  } else {
    Row(out, say, "proposal.row.purchase", say("proposal.purchase_price", {MoneyArg("capex", p.whole_capex, c.currency)}));
  }
  if (e != nullptr) {
    Row(out, say, "proposal.row.rent_or_own", RentOrOwn(p, e->costs, c, say));
  }
  out << "\n";
}

// What the plan buys or rents, part by part, with the catalog's prices and their dates.
void WriteParts(std::ostringstream& out, const PartsList& parts, const std::string& currency, const Writer& say) {
  if (parts.lines.empty()) return;
  out << "**" << say("proposal.parts") << "**\n\n| " << say("proposal.col.part") << " | " << say("proposal.col.quantity")
      << " | " << say("proposal.col.unit_price") << " | " << say("proposal.col.total") << " | "
      << say("proposal.col.price_date") << " |\n|---|---:|---:|---:|---|\n";
  for (const PartLine& line : parts.lines) {
    const bool priced = line.unit_price > 0;
    std::string unit_price = priced ? say.Amount(line.unit_price, currency) : "";
    std::string total = priced ? say.Amount(line.total, currency) : "";
    if (line.role == PartRole::kIncluded) {
      total = say("proposal.included");
    } else if (!priced) {
      unit_price = say("proposal.quote");
    }
    if (line.role == PartRole::kWithin) total = priced ? "(" + total + ", " + say("proposal.within") + ")" : say("proposal.within");
    out << "| " << Cell(say(line.item)) << " | "
        << Cell(say("proposal.quantity", {NumberArg("quantity", line.quantity), MessageArgOf("unit", line.unit)}))
        << " | " << Cell(unit_price) << " | " << Cell(total) << " | " << Cell(line.price_date) << " |\n";
  }
  out << "| **" << say("proposal.parts_total") << "** | | | **" << say.Amount(parts.total, currency) << "** | |\n\n";
  if (parts.allowance > 0 && parts.itemized_within > 0) {
    out << say("proposal.allowance_check", {MoneyArg("itemized", parts.itemized_within, currency),
                                            MoneyArg("allowance", parts.allowance, currency)})
        << "\n\n";
  }
}

void WritePlan(std::ostringstream& out, const char* heading_id, const Plan& p, const Scenario& base,
               const PlanConstraints& c, const Catalog& cat, const Writer& say) {
  const GpuSpec* gpu = cat.FindGpu(p.gpu_id);
  out << "## "
      << Flat(say(heading_id, {CountArg("gpus", p.layout.gpus), TextArg("gpu", gpu != nullptr ? gpu->name : p.gpu_id),
                          MessageArgOf("procurement", p.procurement)}))
      << "\n\n";
  const Scenario s = PlanScenario(base, p);
  const auto estimate = RunEstimate(s, cat, CostBasisOf(c));
  WriteFigures(out, p, c, say, estimate.ok() ? &estimate.value() : nullptr);
  if (!estimate.ok()) return;
  const Estimate& e = estimate.value();
  WriteParts(out, PlanParts(p, s, e, c, cat), c.currency, say);
  out << "**" << say(p.own ? "proposal.bom.own" : "proposal.bom.rent", {CountArg("nodes", e.server.nodes)})
      << "**\n\n";
  out << "| " << say("proposal.col.item") << " | " << say("proposal.col.quantity") << " | " << say("proposal.col.why")
      << " |\n|---|---:|---|\n";
  for (const BomLine& line : e.server.lines) {
    out << "| " << Cell(say(line.item)) << " | "
        << Cell(say("proposal.quantity", {NumberArg("quantity", line.quantity), MessageArgOf("unit", line.unit)}))
        << " | " << Cell(say(line.why)) << " |\n";
  }
  out << "\n**" << say("proposal.risks") << "**\n\n";
  for (const std::string& risk : Risks(p, e, c, cat, say)) out << "- " << Flat(risk) << "\n";
  out << "\n**" << say("proposal.checklist") << "**\n\n";
  out << "| " << say("proposal.col.topic") << " | " << say("proposal.col.status") << " | "
      << say("proposal.col.answer") << " |\n|---|---|---|\n";
  for (const CheckItem& item : e.checklist) {
    out << "| " << Cell(say(item.topic)) << " | "
        << say("proposal.status." + std::string(EnumName(kCheckStatusNames, item.status))) << " | "
        << Cell(say(item.answer)) << " |\n";
  }
  out << "\n";
}

void WriteGoal(std::ostringstream& out, const Scenario& scenario, const PlanConstraints& c, const Catalog& catalog,
               const Writer& say) {
  const Training& t = scenario.training;
  out << "# "
      << Flat(say("proposal.title", {TextArg("model", scenario.model.name), MessageArgOf("method", MakeMessage("proposal.method." + std::string(EnumName(kMethodNames, t.method)))),
                                NumberArg("tokens_b", TrainingTokens(t) / 1e9), CountArg("seq_len", t.seq_len)}))
      << "\n\n";
  const Message deadline = c.deadline_days > 0 ? MakeMessage("proposal.deadline", {NumberArg("days", c.deadline_days)})
                                               : MakeMessage("proposal.no_deadline");
  const Message budget = c.budget > 0 ? MakeMessage("proposal.budget", {MoneyArg("budget", c.budget, c.currency)})
                                      : MakeMessage("proposal.no_budget");
  const Message purchase = MakeMessage(c.purchase == Purchase::kCloud ? "proposal.purchase.cloud"
                                       : c.purchase == Purchase::kOwn ? "proposal.purchase.own"
                                                                      : "proposal.purchase.both");
  const MessageArg region = c.region.empty() ? MessageArgOf("region", MakeMessage("proposal.region_any"))
                                             : TextArg("region", c.region);
  out << Flat(say("proposal.goal", {MessageArgOf("deadline", deadline), MessageArgOf("budget", budget),
                               MessageArgOf("purchase", purchase), region, TextArg("version", std::string(kEngineVersion)),
                               TextArg("catalog_date", catalog.date)}))
      << "\n\n";
}

}  // namespace

std::string PlanProposal(const Scenario& scenario, const PlanConstraints& c, const PlanResult& plan,
                         const Catalog& catalog, MessageRenderer render) {
  const Writer say(render);
  std::ostringstream out;
  WriteGoal(out, scenario, c, catalog, say);
  const auto [recommended, alternative] = Chosen(plan);
  if (recommended == nullptr) {
    out << say("proposal.no_plan") << "\n\n";
    for (const Rejection& r : plan.rejected) out << "- " << Flat(say(r.reason)) << "\n";
    return out.str();
  }
  WritePlan(out, "proposal.recommended", *recommended, scenario, c, catalog, say);
  if (alternative != nullptr) WritePlan(out, "proposal.alternative", *alternative, scenario, c, catalog, say);
  out << "## " << say("proposal.left_out") << "\n\n";
  for (const Rejection& r : plan.rejected) out << "- " << Flat(say(r.reason)) << "\n";
  return out.str();
}

}  // namespace engine::exports
