// The tailored proposal the seed document ends with ("give me the model, parameter count,
// goal, budget and cloud preference, and I will make a detailed configuration with vendor
// models, cost and training time"): one printable Markdown page with the recommended plan
// and one alternative, each with its hardware or cloud instance, the bill of materials,
// the time with its parts, the cost to rent or own, the risks and the pre-order checklist
// answered for that plan. `trainsizer plan --format proposal` and the JS API's exportText
// write it in English; the page passes its own renderer to print it in its reader's language.
#pragma once

#include <string>

#include "engine/catalog.h"
#include "engine/message.h"
#include "engine/planner.h"
#include "engine/scenario.h"

namespace engine::exports {

// Renders message `id` with `args` in one language: engine::RenderEnglish, or the page's.
using MessageRenderer = std::string (*)(std::string_view id, const std::vector<engine::MessageArg>& args);

std::string PlanProposal(const engine::Scenario& scenario, const engine::PlanConstraints& constraints,
                         const engine::PlanResult& plan, const engine::Catalog& catalog,
                         MessageRenderer render = engine::RenderEnglish);

}  // namespace engine::exports
