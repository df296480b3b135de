// Validation of a scenario against allowed ranges and against itself (parallel degrees
// that must divide heads, layers, GPUs). Returns the first problem, naming the field.
#pragma once

#include <optional>
#include <string>

#include "catalog.h"
#include "result.h"
#include "scenario.h"

namespace engine {

std::optional<InputError> ValidateScenario(const Scenario& scenario, const Catalog& catalog);

// An error naming "gpu" (and listing the catalog's ids) when `gpu_id` is not in the catalog.
std::optional<InputError> CheckGpuId(const std::string& gpu_id, const Catalog& catalog);

}  // namespace engine
