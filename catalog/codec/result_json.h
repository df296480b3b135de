// engine::Estimate → result JSON (contract v1), and the error JSON shared by the CLI and
// the JS API: {"error": {"field": ..., "message": ...}}.
#pragma once

#include "engine/estimate.h"
#include "engine/result.h"
#include "json_fields.h"

namespace catalog {

Json EstimateToJson(const engine::Estimate& estimate);
Json ErrorToJson(const engine::InputError& error);
Json ServerToJson(const engine::BillOfMaterials& server);

}  // namespace catalog
