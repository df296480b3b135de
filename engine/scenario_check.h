// Validation of a scenario against allowed ranges and against itself (parallel degrees
// that must divide heads, layers, GPUs). Returns the first problem, naming the field.
#pragma once

#include <optional>

#include "catalog.h"
#include "result.h"
#include "scenario.h"

namespace engine {

std::optional<InputError> ValidateScenario(const Scenario& scenario, const Catalog& catalog);

}  // namespace engine
