#include "planner.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "dates.h"
#include "estimate_costs.h"
#include "finite_guard.h"
#include "format.h"
#include "framework_profile.h"
#include "input_limits.h"
#include "units.h"
#include "memory_model.h"
#include "post_training.h"
#include "reliability.h"
#include "scenario_check.h"
#include "time_model.h"

// [SECTION] index
// - which GPUs and counts to try
// - prices per (GPU, count): the cheapest rental and ownership per hour
// - one layout: memory, time, cost
// - the search with pruning, Pareto front, picks and rejections

namespace engine {
namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] which GPUs and counts

bool Keeps(const PlanConstraints& c, std::string_view field) {
  return std::find(c.keep.begin(), c.keep.end(), field) != c.keep.end();
}

// The values the search tries for a setting: the scenario's own when the goal keeps it.
template <class T>
std::vector<T> Tried(const PlanConstraints& c, std::string_view field, T given, std::vector<T> choices) {
  if (Keeps(c, field)) return {given};
  return choices;
}

bool ListedGpu(const GpuSpec& g, const PlanConstraints& c) {
  if (c.gpus.empty()) return true;
  for (const std::string& a : c.gpus) {
    if (a == g.id || a == g.vendor) return true;
  }
  return false;
}

bool GpuAllowed(const GpuSpec& g, const PlanConstraints& c, const std::string& given_gpu) {
  return Keeps(c, "gpu") ? g.id == given_gpu : ListedGpu(g, c);
}

// GPU counts tried: 1, 2, 4, then whole 8-GPU nodes at powers of two and 1.5× powers of
// two (8, 12→16, 24, 32, 48, 64, 96, ...) up to the limit, so global batches that are
// powers of two divide evenly; TP/PP layouts are factorized within each count.
// The goal's own bounds are tried too (10 GPUs between min_gpus = max_gpus = 10).
std::vector<int> GpuCounts(int min_gpus, int max_gpus) {
  std::vector<int> counts = {1, 2, 4, min_gpus, max_gpus};
  for (int n = 8; n <= max_gpus; n *= 2) {
    counts.push_back(n);
    if (n >= 16 && n * 3 / 2 <= max_gpus) counts.push_back(n * 3 / 2);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  counts.erase(std::remove_if(counts.begin(), counts.end(), [&](int n) { return n < min_gpus || n > max_gpus; }),
               counts.end());
  return counts;
}

// Sequences per step: the scenario's, else its method's (scenario.h MethodGlobalBatch). Every
// layout runs it exactly: the search skips layouts whose data-parallel ranks do not divide it.
int PlannedGlobalBatch(const Training& t) { return t.global_batch > 0 ? t.global_batch : MethodGlobalBatch(t); }

// ---------------------------------------------------------------------------------------
// [SECTION] prices per (GPU, count)

struct HourlyPrice {
  double per_hour = 0;  // all units, in the plan currency; 0 = none
  std::string id;
  Message label;  // the plan's procurement
  int units = 0;
  double capex = 0, fixed_per_hour = 0, power_per_hour = 0, break_even_u = 0, break_even_months = 0;
  double whole_capex = 0;  // own: the whole servers' price when the job is charged a share
  bool used = false;  // own: second-hand servers
  const CloudOffer* offer = nullptr;
  std::string price_date;  // when the catalog saw the price
};

struct Prices {
  HourlyPrice cloud;  // cheapest allowed rental per hour
  HourlyPrice own;    // cheapest ownership per hour
  // Offers of this GPU the plan could rent but for their capacity: the most GPUs any of
  // them gives one buyer (0 when none was held back by capacity).
  int capacity_short = 0;
  bool over_capacity = false;
};


// A rental in the words of its pricing ("AWS p5.48xlarge, on-demand"): one template per
// pricing, so that each language words it.
Message RentalProcurement(const CloudCost& cc) {
  static constexpr std::string_view kIds[] = {"plan.procurement.on_demand", "plan.procurement.spot",
                                              "plan.procurement.reserved_1yr", "plan.procurement.reserved_3yr"};
  static_assert(std::size(kIds) == kPricingNames.size(), "one template per Pricing, in its order");
  return MakeMessage(std::string(kIds[size_t(cc.pricing)]),
                     {TextArg("provider", cc.offer->provider_name), TextArg("instance", cc.offer->instance)});
}


Prices PricesFor(const Catalog& cat, const PlanConstraints& c, const GpuSpec& g, int gpus,
                 const OwnershipAssumptions& a) {
  Prices p;
  if (c.purchase != Purchase::kOwn) {
    for (const CloudCost& cc : CloudOptions(cat, g.id, gpus, 1.0, c.currency, c.providers)) {
      if (!RentableIn(*cc.offer, c.region, c.currency)) continue;
      if (cc.pricing == Pricing::kSpot && !c.allow_spot) continue;
      if (cc.pricing == Pricing::kReserved1yr || cc.pricing == Pricing::kReserved3yr) continue;
      // More GPUs than one buyer gets from the offer needs a sales-negotiated cluster.
      if (!cc.within_capacity) {
        p.over_capacity = true;
        p.capacity_short = std::max(p.capacity_short, cc.offer->capacity_gpus);
        continue;
      }
      if (p.cloud.per_hour > 0 && cc.price_per_hour >= p.cloud.per_hour) continue;
      p.cloud = HourlyPrice{};
      p.cloud.per_hour = cc.price_per_hour;
      p.cloud.id = cc.offer->id;
      p.cloud.label = RentalProcurement(cc);
      p.cloud.units = cc.units;
      p.cloud.offer = cc.offer;
      p.cloud.price_date = cc.offer->price_date;
    }
  }
  if (c.purchase != Purchase::kCloud && BuyableIn(g, c.region)) {
    const double cloud_gpu_hour = p.cloud.per_hour > 0 ? p.cloud.per_hour / gpus : 0;
    for (const OwnCost& o : OwnOptions(cat, a, g.id, gpus, 1.0, c.currency, cloud_gpu_hour)) {
      const double per_hour = OwnSharePerHour(o, c.own_utilization);
      if (p.own.per_hour > 0 && per_hour >= p.own.per_hour) continue;
      p.own = HourlyPrice{};
      p.own.per_hour = per_hour;
      p.own.id = o.server->id;
      p.own.label = OwnPurchase(o);
      p.own.units = o.servers;
      p.own.capex = o.capex;
      p.own.whole_capex = o.whole_capex;
      p.own.used = o.used;
      p.own.fixed_per_hour = o.fixed_per_hour;
      p.own.power_per_hour = o.power_per_hour;
      p.own.break_even_u = o.break_even_utilization;
      p.own.break_even_months = o.break_even_months;
      p.own.price_date = o.server->price_date;
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------
// [SECTION] one layout

struct Evaluated {
  bool fits = false;
  double need = 0, tokens_per_s = 0, mfu = 0, step = 0, wall_hours = 0;
};

Evaluated Evaluate(const Scenario& s, const ParamCounts& c, const GpuSpec& g, const FabricSpec& f, double tokens,
                   double usable_bytes) {
  Evaluated e;
  e.need = EstimateMemory(s, c, /*explain=*/false, ShippedCalibration(), g.memory_bytes).GpuBytes();
  e.fits = e.need <= usable_bytes;
  if (!e.fits) return e;
  const Throughput t = EstimateThroughput(s, c, g, f, /*explain=*/false);
  const TrainingTime time = TimeForTokens(tokens, t, s.parallel.gpus);
  const Reliability r = EstimateReliability(s, c, time, DefaultStorage(s.parallel.Nodes()));
  e.tokens_per_s = t.tokens_per_s;
  e.mfu = t.mfu;
  e.step = t.step_time_s;
  e.wall_hours = r.wall_hours_with_failures;
  return e;
}

Plan MakePlan(const Scenario& s, const ParamCounts& params, const GpuSpec& g, const Evaluated& e,
              const HourlyPrice& price, bool own, const PlanConstraints& c, int global_batch, double storage_per_hour,
              const std::string& catalog_date) {
  Plan p;
  p.gpu_id = g.id;
  p.layout = s.parallel;
  p.activation_checkpointing = s.training.activation_checkpointing;
  p.micro_batch = s.training.micro_batch;
  p.global_batch = global_batch;
  p.need_bytes = e.need;
  p.capacity_bytes = g.memory_bytes;
  p.tokens_per_s = e.tokens_per_s;
  p.mfu = e.mfu;
  p.step_time_s = e.step;
  // Start-up and tear-down are part of the job's time and of a rental's bill (model.md §7.5).
  const Provisioning provisioning =
      own || price.offer == nullptr ? Provisioning::kOwned : ProvisioningOf(*price.offer);
  p.startup = EstimateStartup(s, params, provisioning, e.tokens_per_s);
  p.wall_hours = e.wall_hours + p.startup.TotalSeconds() / kSecondsPerHour;
  p.gpu_hours = p.wall_hours * s.parallel.gpus;
  p.own = own;
  p.procurement_id = price.id;
  p.procurement = price.label;
  p.units = price.units;
  p.used_hardware = own && price.used;
  if (!own && price.offer != nullptr) {
    p.capacity_gpus = price.offer->capacity_gpus;
    p.capacity_kind = price.offer->capacity_kind;
    p.lead_time_days = price.offer->lead_time_days;
    p.min_term_hours = price.offer->min_term_hours;
    p.price_uncertain = price.offer->confidence == "low";
    p.real_name_verification = price.offer->market == Market::kCn;
  }
  // Rentals bill at the offer's granularity, as CloudOptions does; ownership is the job's
  // share of the hardware's cost per hour (model.md §8).
  const double hours = own ? p.wall_hours : price.offer ? BilledHours(*price.offer, p.wall_hours) : std::ceil(p.wall_hours);
  p.cost = price.per_hour * hours;
  if (!own) {
    // Renting adds storage for the data and checkpoints while the job runs (owned
    // servers carry theirs in the network-and-storage share of the purchase).
    p.storage_cost = storage_per_hour * p.wall_hours;
    p.cost += p.storage_cost;
  }
  p.cash_outlay = own ? price.capex + price.power_per_hour * hours : p.cost;
  p.per_gpu_hour = price.per_hour / s.parallel.gpus;
  p.capex = price.capex;
  p.whole_capex = price.whole_capex;
  p.price_date = price.price_date;
  p.price_stale = PriceIsStale(price.price_date, catalog_date);
  p.break_even_utilization = price.break_even_u;
  p.break_even_months = price.break_even_months;
  // The deadline counts from today: a capacity block or reserved cluster is booked for
  // this job and first waits its lead time. A quota request's wait is not counted: it is
  // asked once per account, and teams often hold quota already.
  const bool booked = !own && (p.capacity_kind == CapacityKind::kCapacityBlock ||
                               p.capacity_kind == CapacityKind::kReservedCluster);
  const double wait_hours = booked ? p.lead_time_days * 24 : 0;
  p.within_deadline = c.deadline_days <= 0 || p.wall_hours + wait_hours <= c.deadline_days * 24;
  p.within_budget = c.budget <= 0 || p.cash_outlay <= c.budget;
  return p;
}

// The finite guard over a plan's figures (finite_guard.h): strict builds stop on a hole.
bool PlanIsFinite(const Plan& p) {
  FiniteGuard g;
  g.Check({{"plan.need_bytes", p.need_bytes}, {"plan.tokens_per_s", p.tokens_per_s}, {"plan.mfu", p.mfu},
           {"plan.step_time_s", p.step_time_s}, {"plan.wall_hours", p.wall_hours}, {"plan.gpu_hours", p.gpu_hours},
           {"plan.cost", p.cost}, {"plan.cash_outlay", p.cash_outlay}, {"plan.storage_cost", p.storage_cost},
           {"plan.per_gpu_hour", p.per_gpu_hour}, {"plan.capex", p.capex},
           {"plan.break_even_utilization", p.break_even_utilization}});
  if (!g.ok()) StrictGuardFailed(g.failed() + " on " + p.gpu_id);
  return g.ok();
}

// ---------------------------------------------------------------------------------------
// [SECTION] the search

// p dominates q when it is no slower and no costlier, and better in one.
bool Dominates(const Plan& p, const Plan& q) {
  return p.wall_hours <= q.wall_hours && p.cost <= q.cost && (p.wall_hours < q.wall_hours || p.cost < q.cost);
}

// What the search learned about one GPU type, for the rejection notes.
struct GpuOutcome {
  bool any_fit = false, any_price = false, any_feasible = false;
  bool over_capacity = false;  // some count had offers, but none with the capacity
  int largest_capacity = 0;    // the most GPUs an offer of this GPU rents one buyer
  double smallest_need = 1e300;
  int largest_count_tried = 0;
  // Owned plans stop growing at the first count with one within the deadline (SearchGpu).
  bool purchase_sized = false;
  const Plan* fastest = nullptr;
  const Plan* cheapest = nullptr;
};

class Search {
 public:
  Search(const Scenario& base, const PlanConstraints& c, const Catalog& cat)
      : base_(base), c_(c), cat_(cat), params_(CountParams(base.model)), tokens_(TrainingTokens(base.training)),
        global_batch_(PlannedGlobalBatch(base.training)), assumptions_(AssumptionsFromCatalog(cat)),
        storage_per_hour_(CloudStoragePerHour(base, params_, cat, c.currency)) {}

  bool Done() const { return next_gpu_ >= cat_.gpus.size(); }
  int GpusSearched() const { return int(next_gpu_); }
  // Searches the next catalog GPU: the unit of work a page spreads over its frames.
  void Step();
  PlanResult Finish() const;

 private:
  void SearchGpu(const GpuSpec& g, const FabricSpec& f);
  void SearchLayout(const GpuSpec& g, const FabricSpec& f, const Prices& prices, Scenario s, GpuOutcome& out);
  bool TryCandidate(const GpuSpec& g, const FabricSpec& f, const Prices& prices, const Scenario& s, GpuOutcome& out);
  // The memory a plan may use on `g`: its capacity less the goal's safety margin.
  double UsableBytes(const GpuSpec& g) const { return engine::UsableBytes(g.memory_bytes, c_.memory_margin); }
  void Insert(const Plan& p);
  Message RejectionReason(const GpuSpec& g, const GpuOutcome& o) const;

  const Scenario& base_;
  const PlanConstraints& c_;
  const Catalog& cat_;
  ParamCounts params_;
  double tokens_;
  int global_batch_;
  OwnershipAssumptions assumptions_;
  std::vector<Plan> front_;           // Pareto front over all plans that fit
  std::vector<Plan> feasible_front_;  // ... over those within the deadline and budget
  std::vector<Plan> best_by_gpu_;  // each GPU's fastest and cheapest plan (for rejections)
  std::vector<Rejection> rejected_;
  long long candidates_ = 0;
  double storage_per_hour_ = 0;  // cloud object storage for data + checkpoints, plan currency
  size_t next_gpu_ = 0;          // index into cat_.gpus of the next GPU to search
};

void InsertInto(std::vector<Plan>& front, const Plan& p) {
  for (const Plan& q : front) {
    if (Dominates(q, p) || (q.wall_hours == p.wall_hours && q.cost == p.cost)) return;
  }
  front.erase(std::remove_if(front.begin(), front.end(), [&](const Plan& q) { return Dominates(p, q); }), front.end());
  front.push_back(p);
}

// Two fronts: among plans that meet the deadline and budget, and among all plans (shown
// when nothing meets them, so the user sees how far off the constraints are).
void Search::Insert(const Plan& p) {
  InsertInto(front_, p);
  if (p.within_deadline && p.within_budget) InsertInto(feasible_front_, p);
}

bool Search::TryCandidate(const GpuSpec& g, const FabricSpec& f, const Prices& prices, const Scenario& s,
                          GpuOutcome& out) {
  ++candidates_;
  const Evaluated e = Evaluate(s, params_, g, f, tokens_, UsableBytes(g));
  out.smallest_need = std::min(out.smallest_need, e.need);
  if (!e.fits) return false;
  out.any_fit = true;
  for (const auto& [price, own] : {std::pair{&prices.cloud, false}, {&prices.own, true}}) {
    if (price->per_hour <= 0) continue;
    const Plan p = MakePlan(s, params_, g, e, *price, own, c_, global_batch_, storage_per_hour_, cat_.date);
    if (!PlanIsFinite(p)) continue;  // a hole in the numeric contract: never offered as a plan
    out.any_feasible |= p.within_deadline && p.within_budget;
    out.purchase_sized |= own && p.within_deadline;
    Insert(p);
    for (Plan& best : best_by_gpu_) {
      if (best.gpu_id != g.id) continue;
      if (p.wall_hours < best.wall_hours) best = p;
    }
    if (std::none_of(best_by_gpu_.begin(), best_by_gpu_.end(), [&](const Plan& b) { return b.gpu_id == g.id; })) {
      best_by_gpu_.push_back(p);
    }
  }
  return true;
}

// Tries one (GPU, count, tp, pp, cp, ep) layout: the most memory-saving settings first;
// if those do not fit, nothing will. Then each ZeRO stage and micro-batch with the
// fastest settings that fit: no recomputation and no offload unless memory needs them
// (both only ever add time).
void Search::SearchLayout(const GpuSpec& g, const FabricSpec& f, const Prices& prices, Scenario s, GpuOutcome& out) {
  const int dp = s.parallel.DataParallel();
  Scenario lean = s;
  lean.parallel.zero = dp > 1 ? 3 : 0;
  lean.training.activation_checkpointing = Recompute::kFull;
  lean.training.micro_batch = 1;
  lean.parallel.offload = dp > 1 ? Offload::kOptimizerAndParams : Offload::kNone;
  lean.training.global_batch = global_batch_;
  if (global_batch_ % dp != 0) return;
  // A pipeline needs at least as many micro-batches per step as stages, or its bubble
  // idles most GPUs (fill and drain of p − 1 slots against m of work).
  const int pp = s.parallel.pp;
  if (pp > 1 && global_batch_ / dp < pp) return;
  ++candidates_;
  const double lean_need = EstimateMemory(lean, params_, false, ShippedCalibration(), g.memory_bytes).GpuBytes();
  out.smallest_need = std::min(out.smallest_need, lean_need);
  if (lean_need > UsableBytes(g)) return;
  // ZeRO stages the framework allows: Megatron shards optimizer state only (its
  // distributed optimizer), DeepSpeed's pipeline engine only up to stage 1.
  const FrameworkProfile& profile = ProfileOf(s.parallel.framework);
  const bool stage3 = profile.max_zero >= 3 && (profile.sharded != StateLayout::kDeepSpeed || s.parallel.pp == 1);
  if (!stage3) {
    lean.parallel.zero = dp > 1 ? 1 : 0;
    lean.parallel.offload = dp > 1 ? Offload::kOptimizer : Offload::kNone;
  }
  const std::vector<int> zeros = dp > 1 ? (stage3 ? std::vector<int>{1, 3} : std::vector<int>{1}) : std::vector<int>{0};
  for (int zero : Tried(c_, "zero", s.parallel.zero, zeros)) {
    for (int mb : Tried(c_, "micro_batch", s.training.micro_batch, {1, 2, 4, 8})) {
      if (global_batch_ % (mb * dp) != 0 || (pp > 1 && global_batch_ / (mb * dp) < pp)) break;
      s.parallel.zero = zero;
      s.training.micro_batch = mb;
      s.training.global_batch = global_batch_;
      bool fitted = false;
      const Recompute given_ac = base_.training.activation_checkpointing;
      for (Recompute ac : Tried(c_, "activation_checkpointing", given_ac, {Recompute::kNone, Recompute::kFull})) {
        s.training.activation_checkpointing = ac;
        const std::vector<Offload> offloads = {Offload::kNone, Offload::kOptimizer, Offload::kOptimizerAndParams};
        for (Offload off : Tried(c_, "offload", base_.parallel.offload, offloads)) {
          if ((off == Offload::kOptimizerAndParams && zero != 3) || (off != Offload::kNone && zero == 0)) continue;
          s.parallel.offload = off;
          if ((fitted = TryCandidate(g, f, prices, s, out))) break;
        }
        if (fitted) break;
      }
      if (!fitted) break;  // a larger micro-batch needs even more memory
    }
  }
}

void Search::SearchGpu(const GpuSpec& g, const FabricSpec& f) {
  GpuOutcome out;
  const ModelSpec& m = base_.model;
  // The length the layers run over: post-training's prompt + response, a vision-language
  // model's text + media (what ValidateScenario's CP check divides).
  const int trained_len = TrainedScenario(base_).training.seq_len;
  const bool long_context = trained_len >= 32768;
  const std::vector<int> counts =
      Keeps(c_, "gpus") ? std::vector<int>{base_.parallel.gpus} : GpuCounts(c_.min_gpus, c_.max_gpus);
  for (int n : counts) {
    Prices prices = PricesFor(cat_, c_, g, n, assumptions_);
    // A purchase is sized by the job: the fewest GPUs that fit and meet the deadline.
    // Buying more to finish sooner than asked costs the job only its amortized share, so
    // a short job would otherwise "buy" racks of servers; whether the team can keep that
    // fleet busy is a question this job cannot answer (model.md §8.4).
    if (out.purchase_sized) prices.own = {};
    if (prices.over_capacity) {
      out.over_capacity = true;
      out.largest_capacity = std::max(out.largest_capacity, prices.capacity_short);
    }
    if (prices.cloud.per_hour <= 0 && prices.own.per_hour <= 0) continue;
    out.any_price = true;
    out.largest_count_tried = n;
    Scenario s = base_;
    s.gpu_id = g.id;
    if (g.id != base_.gpu_id) s.gpu_power_w = 0;  // a power limit is the scenario's GPU's
    s.parallel = base_.parallel;
    s.parallel.gpus = n;
    s.parallel.gpus_per_node = DefaultGpusPerNode(n);
    s.parallel.virtual_pipeline = 1;
    s.parallel.etp = 0;  // experts split like the layers' matrices in the layouts searched
    for (int tp : Tried(c_, "tp", base_.parallel.tp, {1, 2, 4, 8})) {
      // Tensor parallelism stays inside the scale-up domain (NVLink/HCCS/ICI): its
      // per-layer all-reduces are too frequent for PCIe or the network (model.md §6.5).
      if (tp > s.parallel.gpus_per_node || tp > g.scale_up_domain || m.heads % tp != 0) continue;
      for (int pp : Tried(c_, "pp", base_.parallel.pp, {1, 2, 4, 8, 16})) {
        if (n % (tp * pp) != 0 || (pp > 1 && pp * 2 > m.layers)) continue;
        for (int cp : Tried(c_, "cp", base_.parallel.cp, long_context ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1})) {
          if (n % (tp * pp * cp) != 0 || trained_len % cp != 0) continue;
          const int dp = n / (tp * pp * cp);
          for (int ep : Tried(c_, "ep", base_.parallel.ep, m.IsMoe() ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1})) {
            if (ep > 1 && (m.moe.experts % ep != 0 || dp % ep != 0)) continue;
            s.parallel.tp = tp, s.parallel.pp = pp, s.parallel.cp = cp, s.parallel.ep = ep;
            s.parallel.sequence_parallel = tp > 1;
            SearchLayout(g, f, prices, s, out);
          }
        }
      }
    }
  }
  if (!out.any_feasible) rejected_.push_back({g.id, RejectionReason(g, out)});
}

// No cloud offer or server prices this GPU: the template says which purchases, providers
// and region were searched.
Message NoPriceReason(const GpuSpec& g, const PlanConstraints& c) {
  if (!g.unavailable_note.empty()) {
    return MakeMessage("plan.unavailable", {TextArg("gpu", g.name), LocalTextArg("note", g.unavailable_note)});
  }
  std::string id = c.purchase == Purchase::kOwn ? "plan.no_server" : "plan.no_offer";
  const std::string where = std::string(c.providers.empty() ? "" : "providers") +
                            (c.providers.empty() || c.region.empty() ? "" : "_") + (c.region.empty() ? "" : "region");
  if (!where.empty()) id += "." + where;
  std::vector<MessageArg> args = {TextArg("gpu", g.name)};
  if (!c.region.empty()) args.push_back(TextArg("region", c.region));
  return MakeMessage(std::move(id), std::move(args));
}

Message Search::RejectionReason(const GpuSpec& g, const GpuOutcome& o) const {
  if (!o.any_price && o.over_capacity) {
    if (o.largest_capacity == 0) return MakeMessage("plan.sales_only", {TextArg("gpu", g.name)});
    return MakeMessage("plan.over_capacity", {TextArg("gpu", g.name), CountArg("capacity", o.largest_capacity)});
  }
  if (!o.any_price) return NoPriceReason(g, c_);
  if (!o.any_fit) {
    return MakeMessage(o.largest_count_tried == 1 ? "plan.does_not_fit.one_gpu" : "plan.does_not_fit",
                       {TextArg("gpu", g.name), CountArg("gpus", o.largest_count_tried),
                        BytesArg("need_bytes", o.smallest_need), BytesArg("capacity_bytes", UsableBytes(g))});
  }
  for (const Plan& b : best_by_gpu_) {
    if (b.gpu_id != g.id) continue;
    if (!b.within_deadline && b.lead_time_days > 0 && b.wall_hours <= c_.deadline_days * 24) {
      return MakeMessage("plan.past_deadline.lead_time",
                         {TextArg("gpu", g.name), CountArg("gpus", b.layout.gpus), NumberArg("days", b.wall_hours / 24),
                          NumberArg("lead_days", b.lead_time_days), NumberArg("deadline_days", c_.deadline_days)});
    }
    if (!b.within_deadline) {
      return MakeMessage("plan.past_deadline", {TextArg("gpu", g.name), CountArg("gpus", b.layout.gpus),
                                                NumberArg("days", b.wall_hours / 24),
                                                NumberArg("deadline_days", c_.deadline_days)});
    }
    return MakeMessage(b.own ? "plan.over_budget.buy" : "plan.over_budget.rent",
                       {TextArg("gpu", g.name), MoneyArg("cash_outlay", b.cash_outlay, c_.currency),
                        MoneyArg("budget", c_.budget, c_.currency)});
  }
  return MakeMessage("plan.no_plan", {TextArg("gpu", g.name)});
}

std::vector<Plan> Picks(const std::vector<Plan>& front) {
  const Plan* cheapest = nullptr;
  const Plan* fastest = nullptr;
  const Plan* value = nullptr;
  for (const Plan& p : front) {
    if (!p.within_deadline || !p.within_budget) continue;
    if (!cheapest || p.cost < cheapest->cost) cheapest = &p;
    if (!fastest || p.wall_hours < fastest->wall_hours) fastest = &p;
    // Best value: the least cost × time, i.e. the best balance of the two.
    if (!value || p.cost * p.wall_hours < value->cost * value->wall_hours) value = &p;
  }
  std::vector<Plan> picks;
  auto add = [&](const Plan* p, PickLabel label) {
    if (!p) return;
    for (Plan& q : picks) {
      if (q.gpu_id == p->gpu_id && q.cost == p->cost && q.wall_hours == p->wall_hours) {
        q.labels.push_back(label);
        return;
      }
    }
    picks.push_back(*p);
    picks.back().labels = {label};
  };
  add(cheapest, PickLabel::kCheapest);
  add(fastest, PickLabel::kFastest);
  add(value, PickLabel::kBestValue);
  return picks;
}

void Search::Step() {
  const GpuSpec& g = cat_.gpus[next_gpu_++];
  if (!GpuAllowed(g, c_, base_.gpu_id)) return;
  if (base_.training.precision == Precision::kFp8 && !g.SupportsFp8()) {
    rejected_.push_back({g.id, MakeMessage("plan.no_fp8", {TextArg("gpu", g.name)})});
    return;
  }
  if ((base_.training.precision == Precision::kMxfp8 || base_.training.precision == Precision::kNvfp4) &&
      !g.SupportsBlockScaled()) {
    rejected_.push_back({g.id, MakeMessage("plan.no_block_scaled", {TextArg("gpu", g.name)})});
    return;
  }
  const Precision p = base_.training.precision;
  if ((p == Precision::kBf16 || p == Precision::kBf16Pure) && !g.SupportsBf16()) {
    rejected_.push_back({g.id, MakeMessage("plan.no_bf16", {TextArg("gpu", g.name)})});
    return;
  }
  if (c_.region == "cn" && g.export_restricted_cn) {
    // A restricted GPU cannot be bought for China, but Chinese clouds rent the ones they
    // have installed (A100, A800, H800): only such rentals are planned (PricesFor).
    bool rented_in_china = false;
    for (const CloudOffer& o : cat_.offers) {
      rented_in_china |= o.gpu_id == g.id && RentableIn(o, "cn", c_.currency) && o.on_demand_per_hour > 0;
    }
    if (c_.purchase == Purchase::kOwn || !rented_in_china) {
      // The export note is catalog prose, in both languages.
      rejected_.push_back(
          {g.id, MakeMessage(c_.purchase == Purchase::kOwn ? "plan.export_restricted_cn" : "plan.export_restricted_cn.no_rental",
                             {TextArg("gpu", g.name), LocalTextArg("export_note", g.export_note_cn)})});
      return;
    }
  }
  SearchGpu(g, *cat_.FindFabric(base_.parallel.network));
}

PlanResult Search::Finish() const {
  PlanResult r;
  r.candidates = candidates_;
  r.tokens = tokens_;
  r.global_batch = global_batch_;
  r.plans = feasible_front_.empty() ? front_ : feasible_front_;
  r.constraints_met = !feasible_front_.empty();
  const auto key = [&](const Plan& p) {
    switch (c_.objective) {
      case Objective::kCost: return std::pair{p.cost, p.wall_hours};
      case Objective::kTime: return std::pair{p.wall_hours, p.cost};
      case Objective::kBalanced: return std::pair{p.cost * p.wall_hours, p.cost};
    }
    return std::pair{p.cost, p.wall_hours};
  };
  std::sort(r.plans.begin(), r.plans.end(), [&](const Plan& a, const Plan& b) {
    if (key(a) != key(b)) return key(a) < key(b);
    return std::tie(a.gpu_id, a.procurement_id) < std::tie(b.gpu_id, b.procurement_id);
  });
  r.picks = Picks(r.plans);
  r.rejected = rejected_;
  return r;
}

}  // namespace

std::optional<InputError> ValidateConstraints(const PlanConstraints& c, const Catalog& catalog) {
  for (const auto& [field, value] : {std::pair{"deadline_days", c.deadline_days}, {"budget", c.budget},
                                     {"min_gpus", double(c.min_gpus)}, {"max_gpus", double(c.max_gpus)},
                                     {"own_utilization", c.own_utilization}}) {
    if (auto e = CheckLimit(field, value)) return e;
  }
  if (Convert(catalog, 1, "USD", c.currency) <= 0) {
    std::string codes = "USD";
    for (const CurrencyRate& r : catalog.currencies) codes += ", " + r.code;
    return MakeInputError("currency", "input.not_one_of",
                          {TextArg("allowed", codes), TextArg("got", QuotedInput(c.currency))});
  }
  if (std::none_of(catalog.gpus.begin(), catalog.gpus.end(), [&](const GpuSpec& g) { return ListedGpu(g, c); })) {
    return MakeInputError("allowed_gpus", "input.allowed_gpus_none");
  }
  for (const std::string& name : c.keep) {
    if (std::find(kKeepableNames.begin(), kKeepableNames.end(), name) == kKeepableNames.end()) {
      std::string allowed;
      for (std::string_view k : kKeepableNames) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
      return MakeInputError("keep", "input.not_one_of", {TextArg("allowed", allowed), TextArg("got", QuotedInput(name))});
    }
  }
  if (c.min_gpus > c.max_gpus) {
    return MakeInputError("min_gpus", "input.min_above_max", {CountArg("min", c.min_gpus), CountArg("max", c.max_gpus)});
  }
  return std::nullopt;
}

// The search keeps references to its inputs, so the incremental form owns copies of them
// at a fixed address (the catalog stays the caller's).
struct PlanSearch::State {
  State(const Scenario& b, const PlanConstraints& c, const Catalog& cat)
      : base(b), constraints(c), search(base, constraints, cat) {}
  Scenario base;
  PlanConstraints constraints;
  Search search;
};

PlanSearch::PlanSearch(std::unique_ptr<State> state) : state_(std::move(state)) {}
PlanSearch::PlanSearch(PlanSearch&&) noexcept = default;
PlanSearch& PlanSearch::operator=(PlanSearch&&) noexcept = default;
PlanSearch::~PlanSearch() = default;

Result<PlanSearch> PlanSearch::Start(const Scenario& base, const PlanConstraints& c, const Catalog& catalog) {
  if (auto error = ValidateConstraints(c, catalog)) return *error;
  // The planner chooses the GPU; validate the rest of the scenario against one it may use.
  Scenario checked = base;
  checked.gpu_id = std::find_if(catalog.gpus.begin(), catalog.gpus.end(), [&](const GpuSpec& g) {
                     return GpuAllowed(g, c, base.gpu_id);
                   })->id;
  // fp8 and bf16 support are checked per GPU by the search.
  checked.training.precision = Precision::kFp16;
  if (auto error = ValidateScenario(checked, catalog)) return *error;
  if (TrainingTokens(base.training) <= 0) {
    return MakeInputError("tokens", "input.tokens_required");
  }
  return PlanSearch(std::make_unique<State>(base, c, catalog));
}

bool PlanSearch::Done() const { return state_->search.Done(); }
void PlanSearch::Step() { state_->search.Step(); }
int PlanSearch::GpusSearched() const { return state_->search.GpusSearched(); }
PlanResult PlanSearch::Finish() const { return state_->search.Finish(); }

Result<PlanResult> RunPlan(const Scenario& base, const PlanConstraints& c, const Catalog& catalog) {
  auto search = PlanSearch::Start(base, c, catalog);
  if (!search.ok()) return search.error();
  while (!search.value().Done()) search.value().Step();
  return search.value().Finish();
}

Scenario PlanScenario(const Scenario& base, const Plan& plan) {
  Scenario s = base;
  s.gpu_id = plan.gpu_id;
  s.parallel = plan.layout;
  s.training.micro_batch = plan.micro_batch;
  s.training.global_batch = plan.global_batch;
  s.training.activation_checkpointing = plan.activation_checkpointing;
  return s;
}

Message CapacityMessage(const Plan& plan) {
  std::vector<MessageArg> args = {
      MessageArgOf("how", MakeMessage("plan.capacity." + std::string(EnumName(kCapacityKindNames, plan.capacity_kind)))),
      CountArg("gpus", plan.capacity_gpus)};
  std::string id = "plan.capacity";
  if (plan.lead_time_days > 0) {
    id += ".lead_time";
    args.push_back(NumberArg("days", plan.lead_time_days));
  }
  if (plan.min_term_hours > 0) {
    id += plan.lead_time_days > 0 ? "_min_term" : ".min_term";
    args.push_back(NumberArg("hours", plan.min_term_hours));
  }
  return MakeMessage(id, std::move(args));
}

}  // namespace engine
