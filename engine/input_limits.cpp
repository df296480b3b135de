#include "input_limits.h"

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "format.h"
#include "scenario_fields.h"

namespace engine {
namespace {

// Where the floors and ceilings of every numeric field come from, those declared with the
// scenario fields (engine/scenario_fields.cpp) and those below (docs/model.md §0.3):
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
//
// The scenario fields' limits are declared with the fields (engine/scenario_fields.cpp);
// here the numbers that are not scenario fields: a bare parameter count and the plan's goal.
constexpr NumericLimit kOtherLimits[] = {
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
  // The fewest digits that read back as the value itself: a value just past a limit
  // (1.0000000000000002 for mfu) must not be echoed as the limit ("got 1").
  char buffer[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

}  // namespace

std::span<const NumericLimit> NumericLimits() {
  static const std::vector<NumericLimit> limits = [] {
    std::vector<NumericLimit> all(ScenarioFieldLimits().begin(), ScenarioFieldLimits().end());
    all.insert(all.end(), std::begin(kOtherLimits), std::end(kOtherLimits));
    return all;
  }();
  return limits;
}

const NumericLimit& LimitOf(std::string_view field) {
  for (const NumericLimit& limit : NumericLimits()) {
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
