#include "engine/exports/proposal.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/estimate.h"
#include "engine/exports/report.h"
#include "engine/format.h"
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

// The scenario as the plan runs it (the page's "Use" button does the same).
Scenario Adopted(const Scenario& base, const Plan& p) {
  Scenario s = base;
  s.gpu_id = p.gpu_id;
  s.parallel = p.layout;
  s.training.micro_batch = p.micro_batch;
  s.training.global_batch = p.global_batch;
  s.training.activation_checkpointing = p.activation_checkpointing;
  return s;
}

// [SECTION] one plan

std::string Hours(double hours) {
  if (hours < 1) return Num(hours * 60) + " min";
  return hours < 48 ? Num(hours) + " h" : Num(hours / 24) + " days";
}

std::string PurchaseText(Purchase p) {
  switch (p) {
    case Purchase::kCloud: return "rent";
    case Purchase::kOwn: return "buy";
    case Purchase::kBoth: return "rent or buy";
  }
  return "";
}

std::string CapacityText(const Plan& p) {
  std::string how;
  switch (p.capacity_kind) {
    case CapacityKind::kSelfServe: how = "self-serve"; break;
    case CapacityKind::kQuotaRequest: how = "after a quota request"; break;
    case CapacityKind::kMarketplace: how = "from marketplace hosts"; break;
    case CapacityKind::kCapacityBlock: how = "as a capacity block booked ahead"; break;
    case CapacityKind::kReservedCluster: how = "as a reserved cluster through sales"; break;
  }
  std::string text = "rented " + how + ", up to " + std::to_string(p.capacity_gpus) + " GPUs per buyer";
  if (p.lead_time_days > 0) text += ", about " + Num(p.lead_time_days) + " days before the GPUs are usable";
  if (p.min_term_hours > 0) text += ", billed for at least " + Num(p.min_term_hours) + " h";
  return text;
}

// The risks a buyer should weigh before ordering this plan.
std::vector<std::string> Risks(const Plan& p, const Estimate& e, const PlanConstraints& c, const Catalog& cat) {
  std::vector<std::string> out;
  if (!p.own) {
    const CloudOffer* offer = nullptr;
    for (const CloudOffer& o : cat.offers) {
      if (o.id == p.procurement_id) offer = &o;
    }
    if (p.capacity_kind != CapacityKind::kSelfServe) out.push_back("Capacity: " + CapacityText(p) + ".");
    if (offer != nullptr && offer->confidence == "low") {
      out.push_back("Price: the catalog holds this offer's price with low confidence (" + offer->price_date +
                    "); ask for a quote.");
    }
    if (c.allow_spot) out.push_back("Spot capacity can be reclaimed mid-run; checkpoint often.");
  } else {
    out.push_back("Delivery and installation time of the servers is not in the plan's time.");
  }
  if (c.region == "cn") {
    out.push_back("Export rules: buying new accelerators restricted for China is not possible; the plan only "
                  "uses parts allowed there.");
  }
  for (const Warning& w : e.warnings) out.push_back(w.message);
  return out;
}

void WritePlan(std::ostringstream& out, const char* heading, const Plan& p, const Scenario& base,
               const PlanConstraints& c, const Catalog& cat) {
  const GpuSpec* gpu = cat.FindGpu(p.gpu_id);
  const std::string gpu_name = gpu != nullptr ? gpu->name : p.gpu_id;
  const Scenario s = Adopted(base, p);
  const auto estimate = RunEstimate(s, cat, CostBasisOf(c));
  out << "## " << heading << ": " << p.layout.gpus << "× " << gpu_name << ", " << p.procurement.english << "\n\n";
  const Parallelism& l = p.layout;
  out << "| | |\n|---|---|\n";
  out << "| Layout | TP " << l.tp << " · PP " << l.pp << " · CP " << l.cp << " · EP " << l.ep << " · DP "
      << l.DataParallel() << " · ZeRO " << l.zero << " · micro-batch " << p.micro_batch << " · global batch "
      << p.global_batch << " |\n";
  out << "| Memory per GPU | " << Num(p.need_bytes / kGiB) << " of " << Num(p.capacity_bytes / kGiB) << " GiB |\n";
  out << "| Speed | " << Num(p.tokens_per_s) << " tokens/s, MFU " << Num(p.mfu * 100) << "% |\n";
  const double startup_h = p.startup.TotalSeconds() / kSecondsPerHour;
  out << "| Time | " << Hours(p.wall_hours) << " in all: training with checkpoints and expected failures "
      << Hours(p.wall_hours - startup_h) << ", start-up and tear-down " << Hours(startup_h) << " (node "
      << Num(p.startup.provision_s / 60) << " min, image " << Num(p.startup.environment_s / 60) << " min, weights "
      << Num(p.startup.weights_s / 60) << " min, data " << Num(p.startup.dataset_s / 60) << " min, NCCL "
      << Num(p.startup.nccl_s / 60) << " min, upload " << Num(p.startup.upload_s / 60) << " min) |\n";
  out << "| Cost | " << Money(p.cost) << " " << c.currency << (p.own ? " (the job's share of owning)" : "") << " |\n";
  if (p.own) {
    out << "| Purchase | " << Money(p.capex) << " " << c.currency << " up front";
    if (p.break_even_months > 0 && std::isfinite(p.break_even_months)) {
      out << "; pays back after " << Num(p.break_even_months) << " months of continuous use against renting";
    }
    out << " |\n";
  } else {
    out << "| Capacity | " << CapacityText(p) << " |\n";
  }
  out << "\n";
  if (!estimate.ok()) return;
  const Estimate& e = estimate.value();
  out << (p.own ? "**The servers to buy**" : "**What each rented node must provide**") << " (" << e.server.nodes
      << (e.server.nodes == 1 ? " node" : " nodes") << ")\n\n";
  out << "| item | quantity | why |\n|---|---:|---|\n";
  for (const BomLine& line : e.server.lines) {
    out << "| " << Cell(line.item.english) << " | " << Num(line.quantity) << " " << Cell(line.unit.english) << " | "
        << Cell(line.why.english) << " |\n";
  }
  out << "\n**Risks**\n\n";
  for (const std::string& risk : Risks(p, e, c, cat)) out << "- " << risk << "\n";
  out << "\n**Pre-order checklist**\n\n| topic | status | answer |\n|---|---|---|\n";
  for (const CheckItem& item : e.checklist) {
    out << "| " << Cell(item.topic.english) << " | " << EnumName(kCheckStatusNames, item.status) << " | "
        << Cell(item.answer.english) << " |\n";
  }
  out << "\n";
}

}  // namespace

std::string PlanProposal(const Scenario& scenario, const PlanConstraints& c, const PlanResult& plan,
                         const Catalog& catalog) {
  std::ostringstream out;
  const Training& t = scenario.training;
  out << "# Training proposal: " << scenario.model.name << ", " << EnumName(kMethodNames, t.method) << ", "
      << Num(TrainingTokens(t) / 1e9) << "B tokens at " << t.seq_len << " tokens a sequence\n\n";
  out << "Goal: " << (c.deadline_days > 0 ? "within " + Num(c.deadline_days) + " days" : "no deadline") << ", "
      << (c.budget > 0 ? "budget " + Money(c.budget) + " " + c.currency : "no budget") << ", "
      << PurchaseText(c.purchase) << (c.region.empty() ? "" : ", region " + c.region)
      << ". Prepared by TrainSizer " << kEngineVersion << " from its catalog of " << catalog.date
      << "; every figure is an estimate, checked against published runs (docs/model.md).\n\n";
  const auto [recommended, alternative] = Chosen(plan);
  if (recommended == nullptr) {
    out << "No plan meets the goal. Why each GPU was left out:\n\n";
    for (const Rejection& r : plan.rejected) out << "- " << r.reason.english << "\n";
    return out.str();
  }
  WritePlan(out, "Recommended", *recommended, scenario, c, catalog);
  if (alternative != nullptr) WritePlan(out, "Alternative", *alternative, scenario, c, catalog);
  out << "## GPUs left out\n\n";
  for (const Rejection& r : plan.rejected) out << "- " << r.reason.english << "\n";
  return out.str();
}

}  // namespace engine::exports
