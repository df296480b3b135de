// The scenario's fields, each declared once (field_table.h): the JSON reader and writer
// (engine/contract/scenario_json.cpp), the range checks (scenario_check.cpp), the link
// codec (through the writer's defaults), the form rows (wasm/ui/input_panel.cpp) and the
// contract table in engine/README.md all come from this table.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "field_table.h"
#include "scenario.h"

namespace engine {

using ScenarioField = Field<Scenario>;

// Every scenario field, in the form's order (which is also the order they are read in).
std::span<const ScenarioField> ScenarioFields();

// The field with `key`, or nullptr.
const ScenarioField* FindScenarioField(std::string_view key);

// The numeric-contract limits of the scenario fields, in table order.
std::span<const NumericLimit> ScenarioFieldLimits();

// Range checks of every numeric field of `s` (table order): the first value outside its
// limit, as an error naming the field.
std::optional<InputError> CheckFieldLimits(const Scenario& s);

}  // namespace engine
