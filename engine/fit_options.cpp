#include "fit_options.h"

#include <algorithm>
#include <set>
#include <utility>

#include "framework_profile.h"
#include "memory_model.h"
#include "scenario_check.h"
#include "scenario_fields.h"
#include "time_model.h"

namespace engine {
namespace {

// [SECTION] changes by name

FieldChange Change(std::string key, double value) { return {std::move(key), value, ""}; }
FieldChange Change(std::string key, std::string_view name) { return {std::move(key), 0, std::string(name)}; }

void Apply(const FieldChange& c, Scenario& s) {
  const ScenarioField* f = FindScenarioField(c.key);
  if (f == nullptr) return;
  if (f->type == FieldType::kText) {
    f->text(s) = c.text;
  } else if (f->type == FieldType::kChoice) {
    if (const size_t index = f->ChoiceIndex(c.text); index < f->choices.size()) f->set(s, double(index));
  } else {
    f->set(s, c.value);
  }
}

// [SECTION] one tried scenario

struct Tried {
  bool valid = false;
  double need_bytes = 0, capacity_bytes = 0, tokens_per_s = 0, tokens_per_s_per_gpu = 0;
  bool Fits() const { return valid && need_bytes <= capacity_bytes; }
};

Tried Try(const Scenario& s, const Catalog& catalog) {
  Tried t;
  if (ValidateScenario(s, catalog)) return t;
  const GpuSpec* gpu = catalog.FindGpu(s.gpu_id);
  const FabricSpec* fabric = catalog.FindFabric(s.parallel.network);
  if (gpu == nullptr || fabric == nullptr) return t;
  const ParamCounts params = CountParams(s.model);
  t.need_bytes = EstimateMemory(s, params, /*explain=*/false, ShippedCalibration(), gpu->memory_bytes).GpuBytes();
  t.capacity_bytes = gpu->memory_bytes;
  const Throughput th = EstimateThroughput(s, params, *gpu, *fabric);
  t.tokens_per_s = th.tokens_per_s;
  t.tokens_per_s_per_gpu = th.tokens_per_s_per_gpu;
  t.valid = t.tokens_per_s > 0;
  return t;
}

// [SECTION] the single changes tried

// Whether the user's GPU count left the node size at its default (it follows the count).
bool NodeSizeFollowsCount(const Parallelism& p) { return p.gpus_per_node == DefaultGpusPerNode(p.gpus); }

// The global batch stays the user's wherever the change would move its default
// (micro-batch × data-parallel degree): the same job, in more or fewer micro-batches.
FieldChange KeepGlobalBatch(const Scenario& s) { return Change("global_batch", GlobalBatch(s.training, s.parallel)); }

std::vector<std::vector<FieldChange>> SingleChanges(const Scenario& s, const Catalog& catalog) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  const FrameworkProfile& profile = ProfileOf(p.framework);
  const bool full_states = t.method == Method::kPretrain || t.method == Method::kFull;
  std::vector<std::vector<FieldChange>> out;
  // Recomputation trades about a third more compute for most of the activations.
  if (t.activation_checkpointing == Recompute::kNone) out.push_back({Change("activation_checkpointing", "selective")});
  if (t.activation_checkpointing != Recompute::kFull) out.push_back({Change("activation_checkpointing", "full")});
  for (int mb = t.micro_batch / 2; mb >= 1; mb /= 2) {
    out.push_back({KeepGlobalBatch(s), Change("micro_batch", mb)});
    if (mb == 1) break;
  }
  if (!t.activation_offload) out.push_back({Change("activation_offload", 1)});
  if (t.cross_entropy != CrossEntropy::kChunked) out.push_back({Change("cross_entropy", "chunked")});
  if (p.DataParallel() > 1) {
    for (int zero = p.zero + 1; zero <= std::min(3, profile.max_zero); ++zero) out.push_back({Change("zero", zero)});
  }
  // Offload needs ZeRO (DeepSpeed ZeRO-Offload runs on one GPU at stage 2, FSDP's at 3).
  const int offload_zero = std::max(p.zero, p.DataParallel() > 1 ? 1 : 2);
  if (p.offload == Offload::kNone && profile.max_zero >= offload_zero) {
    out.push_back({Change("zero", offload_zero), Change("offload", "optimizer")});
  }
  if (p.offload != Offload::kOptimizerAndParams && profile.max_zero >= 3) {
    out.push_back({Change("zero", 3), Change("offload", "optimizer+params")});
  }
  if (t.optimizer == Optimizer::kAdamW) out.push_back({Change("optimizer", "adamw-8bit")});
  if (t.method == Method::kFull || t.method == Method::kFreeze) out.push_back({Change("method", "lora")});
  if (t.method == Method::kFull || t.method == Method::kFreeze || t.method == Method::kLora) {
    Scenario qlora = s;
    qlora.training.method = Method::kQlora;
    out.push_back({Change("method", "qlora"), Change("qlora_fp32_norms", DefaultQloraFp32Norms(qlora) ? 1 : 0)});
  }
  if (t.seq_len >= 1024) out.push_back({Change("seq_len", t.seq_len / 2)});
  // More GPUs of the same kind, with every state sharded over them.
  // The global batch stays the user's when it still gives each GPU a whole micro-batch
  // (fewer per GPU if need be); a batch too small for the new count grows to one
  // micro-batch per data-parallel rank.
  const int global = GlobalBatch(t, p);
  for (int factor : {2, 4, 8}) {
    const int gpus = p.gpus * factor;
    if (gpus > 65536) break;
    const int dp = p.DataParallel() * factor;
    std::vector<FieldChange> more;
    if (global % dp == 0) {
      more = {Change("global_batch", global), Change("micro_batch", std::min(t.micro_batch, global / dp))};
    } else {
      more = {Change("global_batch", dp * t.micro_batch)};
    }
    more.push_back(Change("gpus", gpus));
    if (NodeSizeFollowsCount(p)) more.push_back(Change("gpus_per_node", DefaultGpusPerNode(gpus)));
    if (profile.max_zero >= 3 && p.zero < 3 && full_states) more.push_back(Change("zero", 3));
    out.push_back(std::move(more));
  }
  // The catalog GPU with the least memory that holds the scenario unchanged.
  const GpuSpec* larger = nullptr;
  const GpuSpec* own = catalog.FindGpu(s.gpu_id);
  for (const GpuSpec& g : catalog.gpus) {
    if (own == nullptr || g.memory_bytes <= own->memory_bytes) continue;
    Scenario on = s;
    on.gpu_id = g.id;
    on.gpu_power_w = 0;  // a power limit is the scenario's GPU's
    if (!Try(on, catalog).Fits()) continue;
    if (larger == nullptr || g.memory_bytes < larger->memory_bytes) larger = &g;
  }
  if (larger != nullptr) {
    std::vector<FieldChange> other = {Change("gpu", larger->id)};
    if (s.gpu_power_w > 0) other.push_back(Change("gpu_power_w", 0));
    out.push_back(std::move(other));
  }
  return out;
}

bool ChangesTheJob(const std::vector<FieldChange>& changes) {
  return std::any_of(changes.begin(), changes.end(),
                     [](const FieldChange& c) { return c.key == "method" || c.key == "seq_len"; });
}

std::vector<FieldChange> Merged(const std::vector<FieldChange>& a, const std::vector<FieldChange>& b) {
  std::vector<FieldChange> out = a;
  for (const FieldChange& c : b) {
    const auto same = std::find_if(out.begin(), out.end(), [&](const FieldChange& x) { return x.key == c.key; });
    if (same != out.end()) *same = c; else out.push_back(c);
  }
  return out;
}

// Whether two sets of changes can be made together: no key set to two values.
bool Compatible(const std::vector<FieldChange>& a, const std::vector<FieldChange>& b) {
  for (const FieldChange& x : a) {
    for (const FieldChange& y : b) {
      if (x.key == y.key && (x.value != y.value || x.text != y.text)) return false;
    }
  }
  return true;
}

// Whether applying `c` moves its field away from the scenario's value (a change that
// keeps the global batch the user already gave changes nothing and is left out).
bool ChangesSomething(const Scenario& s, const FieldChange& c) {
  const ScenarioField* f = FindScenarioField(c.key);
  if (f == nullptr) return false;
  const Scenario changed = WithChanges(s, {c});
  if (f->type == FieldType::kText) return f->get_text(changed) != f->get_text(s);
  return f->get(changed) != f->get(s);
}

// A global batch pinned by an option that would run it anyway (the method's default once
// the option's other changes are made) says nothing and is left out.
bool RunsAnyway(const Scenario& s, const std::vector<FieldChange>& changes, const FieldChange& c) {
  if (c.key != "global_batch") return false;
  std::vector<FieldChange> rest;
  for (const FieldChange& other : changes) {
    if (&other != &c) rest.push_back(other);
  }
  const Scenario without = WithChanges(s, rest);
  return GlobalBatch(without.training, without.parallel) == static_cast<int>(c.value);
}

std::string KeyOf(const std::vector<FieldChange>& changes) {
  std::vector<std::string> parts;
  for (const FieldChange& c : changes) parts.push_back(c.key + "=" + c.text + std::to_string(c.value));
  std::sort(parts.begin(), parts.end());
  std::string key;
  for (const std::string& part : parts) key += part + ";";
  return key;
}

}  // namespace

Scenario WithChanges(const Scenario& s, const std::vector<FieldChange>& changes) {
  Scenario out = s;
  for (const FieldChange& c : changes) Apply(c, out);
  return out;
}

// Single changes first; when fewer than three fit, every pair of compatible changes that
// each lower the need; when nothing fits yet, the changes stacked greedily, each time the
// one that lowers the need most, then pruned of any the result fits without. A
// combination whose part already fits is not one of the smallest changes and is skipped.
std::vector<FitOption> FitOptions(const Scenario& s, const Catalog& catalog) {
  constexpr size_t kMostOptions = 8;
  const Tried given = Try(s, catalog);
  if (!given.valid || given.Fits()) return {};
  std::vector<FitOption> options;
  std::set<std::string> seen;
  auto add = [&](const std::vector<FieldChange>& tried, const Tried& t) {
    std::vector<FieldChange> changes;
    for (const FieldChange& c : tried) {
      if (ChangesSomething(s, c) && !RunsAnyway(s, tried, c)) changes.push_back(c);
    }
    if (!seen.insert(KeyOf(changes)).second) return;
    options.push_back({changes, t.need_bytes, t.capacity_bytes, t.tokens_per_s_per_gpu,
                       given.tokens_per_s / t.tokens_per_s, ChangesTheJob(changes)});
  };
  auto try_changes = [&](const std::vector<FieldChange>& changes) { return Try(WithChanges(s, changes), catalog); };
  std::vector<std::vector<FieldChange>> savers;  // valid single changes that lower the need but do not fit
  for (auto& changes : SingleChanges(s, catalog)) {
    const Tried t = try_changes(changes);
    if (t.Fits()) {
      add(changes, t);
    } else if (t.valid && t.need_bytes < given.need_bytes && changes.front().key != "gpu") {
      savers.push_back(std::move(changes));
    }
  }
  if (options.size() < 3) {
    for (size_t i = 0; i < savers.size(); ++i) {
      for (size_t j = i + 1; j < savers.size(); ++j) {
        if (!Compatible(savers[i], savers[j])) continue;
        const auto changes = Merged(savers[i], savers[j]);
        if (const Tried t = try_changes(changes); t.Fits()) add(changes, t);
      }
    }
  }
  if (options.empty() && !savers.empty()) {
    std::vector<FieldChange> stacked;
    Tried now = given;
    std::vector<bool> used(savers.size(), false);
    while (!now.Fits()) {
      size_t best = savers.size();
      Tried best_tried;
      for (size_t i = 0; i < savers.size(); ++i) {
        if (used[i] || !Compatible(stacked, savers[i])) continue;
        const Tried t = try_changes(Merged(stacked, savers[i]));
        if (t.valid && t.need_bytes < now.need_bytes && (best == savers.size() || t.need_bytes < best_tried.need_bytes)) {
          best = i, best_tried = t;
        }
      }
      if (best == savers.size()) break;  // nothing lowers the need further
      used[best] = true;
      stacked = Merged(stacked, savers[best]);
      now = best_tried;
    }
    if (now.Fits()) {
      for (size_t i = 0; i < savers.size(); ++i) {  // drop what the result fits without
        if (!used[i]) continue;
        std::vector<FieldChange> without;
        for (size_t j = 0; j < savers.size(); ++j) {
          if (used[j] && j != i) without = Merged(without, savers[j]);
        }
        if (const Tried t = try_changes(without); t.Fits()) used[i] = false, stacked = without, now = t;
      }
      add(stacked, now);
    }
  }
  std::stable_sort(options.begin(), options.end(), [](const FitOption& a, const FitOption& b) {
    if (a.changes_the_job != b.changes_the_job) return !a.changes_the_job;
    return a.slowdown < b.slowdown;
  });
  if (options.size() > kMostOptions) options.resize(kMostOptions);
  return options;
}

}  // namespace engine
