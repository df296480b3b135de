// The contract tables of engine/README.md, generated from the field tables
// (scenario_fields.h, architecture_fields.h, goal_fields.h) and the numeric contract
// (input_limits.h), so the docs cannot drift
// from the code: `trainsizer fields` prints them, and a test fails when the README's copy
// differs.
#pragma once

#include <string>

namespace engine::contract {

// "| field | type, unit | default | meaning |" with a row per scenario field.
std::string ScenarioFieldsMarkdown();

// The same for a custom architecture's fields ({"model": {...}}) and the planner's goal.
std::string ArchitectureFieldsMarkdown();
std::string GoalFieldsMarkdown();

// "| field | allowed | unit |" with a row per number of the contract (scenario, architecture and goal).
std::string NumericContractMarkdown();

}  // namespace engine::contract
