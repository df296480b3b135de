#include "input_limits.h"

#include <cmath>
#include <cstdlib>

#include "format.h"

namespace engine {
namespace {

// Where the floors and ceilings come from (docs/model.md §0, "The numeric contract"):
// - counts (GPUs, degrees, ranks, batch sizes) keep the limits they have always had: past
//   them a value is a typo, and their products stay far inside 64-bit arithmetic;
// - tokens: 1 token is the least that can be trained on; 10^15 is ~70× the largest
//   published pre-training corpus (Llama 3: 15.6T, Meta 2024);
// - mfu: 0.1% is ten times below the worst published utilisation (a few % for small
//   models over slow networks); below it a wall time is a typo, and a subnormal one is inf;
// - node_gbps: 1 Gbit/s is the slowest Ethernet anyone trains over; 10^6 Gbit/s is 1,000×
//   today's 800G NICs;
// - claim.wall_hours: 36 s is less than any real job's start-up; 100 years
//   (876,000 h = 36,500 days) is past any claim; wall_days has the same span, so that a
//   claim in days always reads back in hours;
// - deadline_days: 0.01 day (14.4 min) is less than any real job's start-up;
// - budget: one currency unit up to 10^12 (all the GPUs ever sold cost less).
constexpr NumericLimit kLimits[] = {
    {"lora_rank", 1, 65536, false, true, "", ""},
    {"lora_dropout", 0, 0.9, false, false, "", ""},
    {"freeze_trainable_layers", 1, 1000, false, true, "layers", ""},
    {"recompute_layers", 0, 1000, false, true, "layers", ""},
    {"seq_len", 1, 1e7, false, true, "tokens", ""},
    {"micro_batch", 1, 65536, false, true, "sequences", ""},
    {"global_batch", 1, 1e8, true, true, "sequences", "micro_batch × data-parallel degree"},
    {"tokens", 1, 1e15, true, false, "tokens", "not given"},
    {"dataset_tokens", 1, 1e15, true, false, "tokens", "not given"},
    {"epochs", 0.01, 1000, false, false, "", ""},
    {"mfu", 0.001, 1, true, false, "", "predicted"},
    {"restart_minutes", 0, 10000, false, false, "min", ""},
    {"claim.tokens_per_s", 1, 1e12, true, false, "tokens/s", "no claim"},
    {"claim.wall_hours", 0.01, 876000, true, false, "h", "no claim"},
    {"claim.wall_days", 0.001, 36500, true, false, "days", "no claim"},
    {"gpus", 1, 1048576, false, true, "GPUs", ""},
    {"gpus_per_node", 1, 576, false, true, "GPUs", ""},
    {"tp", 1, 1024, false, true, "", ""},
    {"pp", 1, 1000, false, true, "stages", ""},
    {"cp", 1, 1024, false, true, "", ""},
    {"ep", 1, 4096, false, true, "", ""},
    {"virtual_pipeline", 1, 64, false, true, "", ""},
    {"zero", 0, 3, false, true, "", ""},
    {"node_gbps", 1, 1e6, true, false, "Gbit/s", "the fabric's usual"},
    {"model.params_b", 0.01, 10000, false, false, "billion parameters", ""},
    // The plan's goal (engine/planner.h PlanConstraints).
    {"deadline_days", 0.01, 3650, true, false, "days", "none"},
    {"budget", 1, 1e12, true, false, "", "no limit"},
    {"max_gpus", 1, 65536, false, true, "GPUs", ""},
    {"own_utilization", 0.05, 1, false, false, "", ""},
};

std::string Exact(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e7) return std::to_string(static_cast<long long>(value));
  // Enough digits to tell 0.001 from 0.00099 (Num keeps three significant ones).
  std::string text = Num(value);
  if (std::strtod(text.c_str(), nullptr) == value) return text;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace

std::span<const NumericLimit> NumericLimits() { return kLimits; }

const NumericLimit& LimitOf(std::string_view field) {
  for (const NumericLimit& limit : kLimits) {
    if (limit.field == field) return limit;
  }
  std::abort();  // a field the table does not list: a programming error, caught by every test
}

std::string AllowedText(const NumericLimit& limit) {
  // Whole-number limits in full ("1048576"), the others as short as they read back.
  const std::string range = limit.integer ? std::to_string(static_cast<long long>(limit.min)) + " and " +
                                                std::to_string(static_cast<long long>(limit.max))
                                          : Exact(limit.min) + " and " + Exact(limit.max);
  if (!limit.zero_is_unset) return "between " + range;
  return "0 (" + std::string(limit.zero_means) + ") or between " + range;
}

std::optional<InputError> CheckLimit(std::string_view field, std::string_view error_field, double value) {
  const NumericLimit& limit = LimitOf(field);
  const bool in_range = std::isfinite(value) && ((limit.zero_is_unset && value == 0) ||
                                                 (value >= limit.min && value <= limit.max));
  const std::string unit = limit.unit.empty() ? "" : " " + std::string(limit.unit);
  if (!in_range) {
    return InputError{std::string(error_field), "must be " + AllowedText(limit) + unit + ", got " + Exact(value)};
  }
  if (limit.integer && value != std::floor(value)) {
    return InputError{std::string(error_field), "must be a whole number, got " + Exact(value)};
  }
  return std::nullopt;
}

std::optional<InputError> CheckLimit(std::string_view field, double value) { return CheckLimit(field, field, value); }

}  // namespace engine
