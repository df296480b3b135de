// The tailored proposal the seed document ends with ("give me the model, parameter count,
// goal, budget and cloud preference, and I will make a detailed configuration with vendor
// models, cost and training time"): one printable Markdown page with the recommended plan
// and one alternative, each with its hardware or cloud instance, the bill of materials,
// the time with its parts, the cost to rent or own, the risks and the pre-order checklist
// answered for that plan. `trainsizer plan --format proposal` and the JS API's exportText.
#pragma once

#include <string>

#include "engine/catalog.h"
#include "engine/planner.h"
#include "engine/scenario.h"

namespace engine::exports {

std::string PlanProposal(const engine::Scenario& scenario, const engine::PlanConstraints& constraints,
                         const engine::PlanResult& plan, const engine::Catalog& catalog);

}  // namespace engine::exports
