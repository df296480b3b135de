// The numeric contract: every number a scenario or a plan's goal may carry, with its
// unit, its physically meaningful floor and ceiling, and whether 0 stands for "not given".
// A scenario field's limit is declared with the field (scenario_fields.cpp), the others in
// input_limits.cpp; together they serve the JSON reader, the link decoder, the page's fields
// and the range checks, and engine/README.md's tables are generated from them.
//
// Floors are physical, not merely positive: a subnormal MFU or bandwidth (5e-324) would be
// accepted by "≥ 0" and turn every time and cost into inf. Ceilings are where a value can
// only be a typo, and low enough that every figure derived from them stays finite.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "result.h"

namespace engine {

struct NumericLimit {
  std::string_view field;  // the contract's name, as errors and links carry it ("claim.wall_hours")
  double min = 0;          // smallest value other than the "not given" 0
  double max = 0;
  bool zero_is_unset = false;  // 0 also allowed: "not given" (predict it, no limit, none)
  bool integer = false;
  std::string_view unit;       // for messages and docs: "tokens", "h", "Gbit/s"
  std::string_view zero_means; // what 0 stands for when zero_is_unset ("predicted", "no limit")
};

// Every numeric field, in contract order.
std::span<const NumericLimit> NumericLimits();

// The limit for `field`; the program is wrong (not the input) when it names no field.
const NumericLimit& LimitOf(std::string_view field);

// nullopt when `value` is within `field`'s limit, else an error naming the field and the
// allowed values: "must be 0 (predicted) or between 0.001 and 1, got 5e-324".
std::optional<InputError> CheckLimit(std::string_view field, double value);

// The same with a field name written differently from the table's (the planner's
// "budget.amount" is the budget's limit).
std::optional<InputError> CheckLimit(std::string_view field, std::string_view error_field, double value);

// "0 (predicted) or 0.001–1": the allowed values as docs and messages state them.
std::string AllowedText(const NumericLimit& limit);

}  // namespace engine
