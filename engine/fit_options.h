// What makes a scenario that does not fit its GPU fit: the smallest changes of its inputs
// (recomputation, micro-batch, ZeRO stage, offload, LoRA/QLoRA, an 8-bit optimizer, a
// shorter sequence, more GPUs, a larger GPU), each found by re-running the memory and
// time models on the changed scenario, not by rule of thumb (model.md §10).
#pragma once

#include <string>
#include <vector>

#include "catalog.h"
#include "scenario.h"

namespace engine {

// One input changed: a scenario field's contract key and its new value. Choices and
// catalog ids are carried by name in `text`; numbers and booleans (0/1) in `value`.
struct FieldChange {
  std::string key;
  double value = 0;
  std::string text;
};

struct FitOption {
  std::vector<FieldChange> changes;  // applied in order; a later change of a key wins
  double need_bytes = 0;             // per GPU once changed
  double capacity_bytes = 0;         // of the GPU then used
  double tokens_per_s_per_gpu = 0;
  // The job's time per token against the scenario as given (its tokens/s over the
  // option's): above 1 the option is slower; below 1 (more or larger GPUs) faster.
  double slowdown = 1;
  bool changes_the_job = false;  // a shorter sequence or another method trains something else
};

// The changed inputs applied to a copy of `s` (the scenario field table's setters).
Scenario WithChanges(const Scenario& s, const std::vector<FieldChange>& changes);

// The options that make `s` fit its GPU, fewest changes first among equals, ranked by
// slowdown; empty when it fits or nothing tried does. `s` must be valid.
std::vector<FitOption> FitOptions(const Scenario& s, const Catalog& catalog);

}  // namespace engine
