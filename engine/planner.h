// The planner: searches every catalog accelerator, GPU count and parallel layout for the
// plans that fit in memory, and ranks them by wall time and cost within a deadline and a
// budget, renting and/or buying. Infeasible candidates are data: the reason the nearest
// ones failed is kept for the explanation.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog.h"
#include "cost_model.h"
#include "estimate_costs.h"
#include "result.h"
#include "scenario.h"
#include "startup.h"

namespace engine {

enum class Objective { kCost, kTime, kBalanced };
enum class Purchase { kCloud, kOwn, kBoth };
inline constexpr std::array<std::string_view, 3> kObjectiveNames = {"cost", "time", "balanced"};
inline constexpr std::array<std::string_view, 3> kPurchaseNames = {"cloud", "own", "both"};

inline constexpr double kDefaultMemoryMargin = 0.05;

// The memory a plan may use of a GPU's `capacity_bytes` under the goal's safety margin.
inline double UsableBytes(double capacity_bytes, double memory_margin) { return capacity_bytes * (1 - memory_margin); }

struct PlanConstraints {
  double deadline_days = 0;  // 0 = no deadline
  double budget = 0;         // 0 = no budget, in `currency`
  std::string currency = "USD";
  Objective objective = Objective::kBalanced;
  Purchase purchase = Purchase::kBoth;
  std::vector<std::string> gpus;       // allowed GPU ids or vendor names; empty = all
  std::vector<std::string> providers;  // allowed cloud providers; empty = all
  // Where the job runs: "" anywhere, or "us", "eu", "asia", "cn". Cloud offers come from
  // that region (and global marketplaces, except for "cn"); "cn" also excludes parts
  // export-restricted for China.
  std::string region;
  int min_gpus = 1;
  int max_gpus = 4096;
  // Scenario settings the search keeps as given instead of choosing them (kKeepableNames):
  // the GPU, its count, the parallel layout, ZeRO, micro-batch, recomputation, offload.
  std::vector<std::string> keep;
  bool allow_spot = false;             // spot capacity can be reclaimed mid-run
  // Owned hardware is paid whether busy or not: a job's share is OwnSharePerHour at this
  // utilization (cost_model.h).
  double own_utilization = kDefaultOwnUtilization;
  // Memory a plan leaves free on each GPU, as a share of its capacity: the allocator's
  // fragmentation and the model's own error (leave-one-source-out median 5.2%, README)
  // make a plan at 99% of memory a coin toss. Plans need at most (1 − margin) × capacity.
  double memory_margin = kDefaultMemoryMargin;
};

inline constexpr std::array<std::string_view, 10> kKeepableNames = {
    "gpu", "gpus", "tp", "pp", "cp", "ep", "zero", "micro_batch", "activation_checkpointing", "offload"};

// The goal's figures an estimate's costs are priced with (RunEstimate).
inline CostBasis CostBasisOf(const PlanConstraints& c) { return {c.currency, c.own_utilization, c.region}; }

// The labels of the top picks. Each one's text is its message template's (kPickLabelIds):
// the JSON's label string is the English, the page shows the reader's language.
enum class PickLabel { kCheapest, kFastest, kBestValue };
inline constexpr std::array<std::string_view, 3> kPickLabelIds = {"plan.label.cheapest", "plan.label.fastest",
                                                                  "plan.label.best_value"};

struct Plan {
  std::string gpu_id;
  Parallelism layout;
  Recompute activation_checkpointing = Recompute::kNone;
  int micro_batch = 1;
  int global_batch = 0;
  double need_bytes = 0, capacity_bytes = 0;
  double tokens_per_s = 0, mfu = 0, step_time_s = 0;
  double wall_hours = 0;  // including checkpoints, expected failures, start-up and tear-down
  StartupTeardown startup;  // the part of wall_hours outside training
  double gpu_hours = 0;
  bool own = false;        // bought, not rented
  std::string procurement_id;  // cloud offer id or server id
  Message procurement;         // "AWS p5.48xlarge, on-demand" / "4× hgx-h100-8gpu (new)"
  int units = 0;               // instances or servers
  bool used_hardware = false;  // own: the servers are bought second-hand
  // Rented plans: what one buyer gets from the offer (catalog capacity), the wait before
  // the GPUs are usable and the shortest term billed.
  int capacity_gpus = 0;
  CapacityKind capacity_kind = CapacityKind::kSelfServe;
  double lead_time_days = 0;
  double min_term_hours = 0;
  bool price_uncertain = false;  // the catalog holds the offer's price with low confidence
  // When the catalog saw the offer's or the server's price, and whether that is more than
  // kStalePriceDays before the catalog's date (or unknown): the page shows the date then.
  std::string price_date;
  bool price_stale = false;
  // A Chinese cloud rents only to accounts verified with a Chinese ID or business licence
  // (实名认证; cost_model.h RentableIn says where the rule comes from).
  bool real_name_verification = false;
  double cost = 0;             // the job's cost in the constraints' currency (own: amortized share)
  double cash_outlay = 0;      // what must be paid up front: the rental, or the purchase + power
  double storage_cost = 0;     // rented plans: object storage for data and checkpoints (in `cost`)
  double per_gpu_hour = 0;
  double capex = 0;            // own plans: purchase price (the job's share of one server's, for a small job)
  double whole_capex = 0;      // own plans: the whole servers' price (capex unless a share)
  double break_even_utilization = 0;
  double break_even_months = 0;
  bool within_deadline = true, within_budget = true;
  std::vector<PickLabel> labels;  // picks only: "cheapest within the deadline", ...
};

struct Rejection {
  std::string gpu_id;
  Message reason;  // "H100 SXM: the fastest plan needs ... more than the ... budget"
};

struct PlanResult {
  std::vector<Plan> plans;       // the Pareto front of (wall time, cost), best first for the objective
  bool constraints_met = false;  // false: no plan meets deadline and budget; `plans` shows the nearest
  std::vector<Plan> picks;       // labelled top picks
  std::vector<Rejection> rejected;
  long long candidates = 0;      // layouts evaluated
  double tokens = 0;
  int global_batch = 0;
};

// The scenario as `plan` runs it: its GPU, layout, micro- and global batch and
// recomputation over `base` (the page's Use button, the proposal's estimates).
Scenario PlanScenario(const Scenario& base, const Plan& plan);

// How a rented plan's GPUs are had: the offer's kind of capacity, the GPUs one buyer gets,
// the wait before they are usable and the shortest term billed (the page's plan rows and
// the proposal say the same).
Message CapacityMessage(const Plan& plan);

// The constraints' own checks (ranges, a known currency, at least one allowed GPU); the
// first problem names its field. RunPlan runs them first; an estimate may too.
std::optional<InputError> ValidateConstraints(const PlanConstraints& constraints, const Catalog& catalog);

Result<PlanResult> RunPlan(const Scenario& base, const PlanConstraints& constraints, const Catalog& catalog);

// The same search, one catalog GPU per Step(), so a page can spread it over frames and keep
// drawing while it runs; Finish() after Done() equals RunPlan's. The catalog must outlive it.
class PlanSearch {
 public:
  // Checks the inputs as RunPlan does; an error names the field.
  static Result<PlanSearch> Start(const Scenario& base, const PlanConstraints& constraints, const Catalog& catalog);
  PlanSearch(PlanSearch&&) noexcept;
  PlanSearch& operator=(PlanSearch&&) noexcept;
  ~PlanSearch();

  bool Done() const;
  void Step();
  int GpusSearched() const;  // of the catalog's GPUs, allowed or not
  PlanResult Finish() const;

 private:
  struct State;
  explicit PlanSearch(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace engine
