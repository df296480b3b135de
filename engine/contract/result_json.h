// engine::Estimate → result JSON (contract v1), and the error JSON shared by the CLI and
// the JS API: {"error": {"field", "code", "args", "message"}}: the field it names, its
// template id and arguments (engine/message.h, as engine/contract/message_json.h writes
// them) and its English text.
#pragma once

#include "engine/contract/json_fields.h"
#include "engine/estimate.h"
#include "engine/result.h"

namespace engine::contract {

Json EstimateToJson(const engine::Estimate& estimate);
Json ErrorToJson(const engine::InputError& error);
Json ServerToJson(const engine::BillOfMaterials& server);
// Start-up and tear-down, each part in seconds, with the total in hours.
Json StartupToJson(const engine::StartupTeardown& startup);

}  // namespace engine::contract
