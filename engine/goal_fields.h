// The planner goal's fields (PlanConstraints), each declared once (field_table.h): the
// JSON reader and writer (engine/contract/plan_json.cpp), the range checks, the page's
// goal form and the contract table in engine/README.md.
#pragma once

#include <span>

#include "field_table.h"
#include "planner.h"

namespace engine {

using GoalField = Field<PlanConstraints>;

// Every goal field, in the form's (and the reader's) order.
std::span<const GoalField> GoalFields();

// Their numeric-contract limits, in table order.
std::span<const NumericLimit> GoalFieldLimits();

}  // namespace engine
