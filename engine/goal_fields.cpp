#include "goal_fields.h"

#include <string>
#include <vector>

namespace engine {
namespace {

using field_access::Range;

// The form's names for each choice (English; wasm/ui/i18n/zh-ui.json translates).
constexpr const char* kObjectiveLabels[] = {"Lowest cost", "Shortest time", "Balanced"};
constexpr const char* kPurchaseLabels[] = {"Rent (cloud)", "Buy (own servers)", "Rent or buy"};

// Ranges (docs/model.md §0.3): a deadline of 0.01 day (14.4 min) is less than any real
// job's start-up, and 10 years is past any plan; a budget of one currency unit up to 10^12
// (all the GPUs ever sold cost less); 65,536 GPUs is past the largest cluster a catalog
// offer can be planned on; below 5% utilization an owned server is not a plan.
std::vector<GoalField> BuildTable() {
  using FT = FieldType;
  using FS = FormSection;
  std::vector<GoalField> t = {
      {.key = "deadline_days", .type = FT::kNumber, .label = "Deadline (days)",
       .help = "Plans must finish within this many days, failures included; 0 = no deadline.",
       .section = FS::kGoal, .limit = Range(0.01, 3650, "days", "none"),
       TS_FIELD_VALUE(PlanConstraints, deadline_days),
       .form = {.step = 1, .step_fast = 7, .format = "%.1f", .zero_text = "none"}},
      {.key = "budget", .type = FT::kNumber, .label = "Budget",
       .help = "The most you can pay: the rental, or the purchase of servers; 0 = no budget.", .section = FS::kGoal,
       .limit = Range(1, 1e12, "", "no limit"), .type_text = "number, or `{\"amount\": N, \"currency\": \"CNY\"}`",
       TS_FIELD_VALUE(PlanConstraints, budget),
       .form = {.step = 1000, .step_fast = 10000, .format = "%.0f", .zero_text = "no limit"}},
      {.key = "currency", .type = FT::kText, .label = "Currency",
       .help = "Prices are converted with the catalog's dated exchange rates.", .section = FS::kGoal,
       .type_text = "currency code with a catalog rate (`USD`, `CNY`, `EUR`)", TS_FIELD_TEXT(PlanConstraints, currency)},
      {.key = "objective", .type = FT::kChoice, .label = "Objective", .help = "How plans are ranked.",
       .section = FS::kGoal, .choices = kObjectiveNames, .choice_labels = kObjectiveLabels,
       TS_FIELD_VALUE(PlanConstraints, objective)},
      {.key = "purchase", .type = FT::kChoice, .label = "Rent or buy",
       .help = "Cloud offers, own servers (amortized at 70% utilization), or both.", .section = FS::kGoal,
       .choices = kPurchaseNames, .choice_labels = kPurchaseLabels, TS_FIELD_VALUE(PlanConstraints, purchase)},
      {.key = "min_gpus", .type = FT::kInteger, .label = "Fewest GPUs",
       .help = "The smallest cluster to consider (the servers you already have, a block you booked).",
       .section = FS::kGoal, .limit = Range(1, 65536, "GPUs"), TS_FIELD_VALUE(PlanConstraints, min_gpus),
       .form = {.step = 8}},
      {.key = "max_gpus", .type = FT::kInteger, .label = "Most GPUs",
       .help = "The largest cluster to consider (capacity you can actually get).", .section = FS::kGoal,
       .limit = Range(1, 65536, "GPUs"), TS_FIELD_VALUE(PlanConstraints, max_gpus), .form = {.step = 8}},
      {.key = "region", .type = FT::kText, .label = "Region",
       .help = "Where the job runs: cloud offers from there (and global marketplaces). China rents from "
               "Chinese clouds and excludes accelerators the US restricts for export to China.",
       .section = FS::kGoal, .type_text = "`us` | `eu` | `asia` | `cn`", .default_text = "anywhere",
       TS_FIELD_TEXT(PlanConstraints, region)},
      {.key = "allowed_gpus", .type = FT::kTextList,
       .help = "The GPU ids or vendors to plan with; empty = every catalog GPU (a scenario's `gpu` when the list "
               "is left out).",
       .type_text = "array of catalog GPU ids or vendor names", .default_text = "all",
       TS_FIELD_LIST(PlanConstraints, gpus)},
      {.key = "allowed_providers", .type = FT::kTextList, .help = "The cloud providers to rent from; empty = all.",
       .type_text = "array of provider names", .default_text = "all", TS_FIELD_LIST(PlanConstraints, providers)},
      {.key = "keep", .type = FT::kTextList,
       .help = "Scenario settings the planner keeps as given instead of choosing: gpu, gpus, tp, pp, cp, ep, zero, "
               "micro_batch, activation_checkpointing, offload.",
       .type_text = "array of those names", .default_text = "none", TS_FIELD_LIST(PlanConstraints, keep)},
      {.key = "allow_spot", .type = FT::kBool, .help = "Plan on spot capacity, which can be reclaimed mid-run.",
       TS_FIELD_VALUE(PlanConstraints, allow_spot)},
      {.key = "own_utilization", .type = FT::kNumber,
       .help = "Share of the hours owned servers are busy: a job pays its share of their yearly cost at this rate.",
       .limit = Range(0.05, 1), TS_FIELD_VALUE(PlanConstraints, own_utilization)},
      {.key = "memory_margin", .type = FT::kNumber, .label = "Memory safety margin (%)",
       .help = "Share of each GPU's memory a plan leaves free for allocator fragmentation and the estimate's own "
               "error (5% is 0.05 in JSON and links); plans use at most (1 - margin) of it.",
       .section = FS::kGoal, .limit = Range(0, 0.5), TS_FIELD_VALUE(PlanConstraints, memory_margin),
       .form = {.step = 1, .step_fast = 5, .percent = true, .format = "%.0f"}},
  };
  return t;
}

const FieldTable<PlanConstraints>& Table() {
  static const FieldTable<PlanConstraints> table(BuildTable(), "");
  return table;
}

}  // namespace

std::span<const GoalField> GoalFields() { return Table().fields(); }

std::span<const NumericLimit> GoalFieldLimits() { return Table().limits(); }

}  // namespace engine
