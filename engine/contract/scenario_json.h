// Scenario JSON → engine::Scenario. The field names are the public contract shared by
// the CLI, the JS API, the URL state and the UI (documented in engine/README.md).
// Unknown fields are errors so that a typo never silently falls back to a default.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/result.h"
#include "engine/scenario.h"

namespace engine::contract {

// Largest scenario text accepted; real scenarios are under 2 KiB (a pasted HF config
// under 10 KiB), so 1 MiB only stops runaway input.
inline constexpr size_t kMaxScenarioBytes = 1 << 20;

// The scenario text as a JSON document: the size limit, valid JSON, no repeated keys.
// Errors name "scenario" (or the repeated key).
engine::Result<Json> ParseScenarioDocument(std::string_view text);

engine::Result<engine::Scenario> ParseScenario(std::string_view text, const engine::Catalog& catalog);
engine::Result<engine::Scenario> ScenarioFromJson(const Json& doc, const engine::Catalog& catalog);

// The scenario back as JSON with every field (defaults filled in), so that a link, an
// export or a test can carry everything ScenarioFromJson reads. The planner's fields are
// ConstraintsToJson's (plan_json.h).
Json ScenarioToJson(const engine::Scenario& scenario);

// Every top-level field ScenarioFromJson accepts (the planner's constraints included), and
// the fields of "claim" (wall_days is an alias: read as wall_hours × 24).
const std::set<std::string>& ScenarioFieldNames();
const std::set<std::string>& ClaimFieldNames();

}  // namespace engine::contract
