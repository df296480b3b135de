// The contract tables of engine/README.md, generated from the field table
// (scenario_fields.h) and the numeric contract (input_limits.h), so the docs cannot drift
// from the code: `trainsizer fields` prints them, and a test fails when the README's copy
// differs.
#pragma once

#include <string>

namespace engine::contract {

// "| field | type, unit | default | meaning |" with a row per scenario field.
std::string ScenarioFieldsMarkdown();

// "| field | allowed | unit |" with a row per number of the contract (scenario and goal).
std::string NumericContractMarkdown();

}  // namespace engine::contract
