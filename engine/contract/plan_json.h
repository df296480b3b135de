// JSON for the planner: the constraints that ride along in a scenario (deadline_days,
// budget, currency, objective, purchase, allowed_gpus, allowed_providers, region,
// max_gpus, allow_spot) and the plan result, plus the table and Markdown renderings the
// CLI prints with --format.
#pragma once

#include <string>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/planner.h"
#include "engine/result.h"

namespace engine::contract {

engine::Result<engine::PlanConstraints> ConstraintsFromJson(const Json& scenario_doc);

// The constraints as the fields ConstraintsFromJson reads (the inverse; for links and exports).
Json ConstraintsToJson(const engine::PlanConstraints& constraints);

// The plan result; each top pick also carries the server bill of materials for its layout.
Json PlanToJson(const engine::PlanResult& result, const engine::PlanConstraints& constraints,
                const engine::Catalog& catalog, const engine::Scenario& base);

// A fixed-width text table and a Markdown report of the same plans.
std::string PlanTable(const Json& plan_json);
std::string PlanMarkdown(const Json& plan_json);

}  // namespace engine::contract
