// JSON ↔ ModelSpec: the explicit architecture object shared by catalog presets
// (catalog/models.json "arch") and scenarios ("model": {...}). Field names follow
// Hugging Face config.json meanings with TrainSizer's short names.
#pragma once

#include <string>

#include "engine/contract/json_fields.h"
#include "engine/model_spec.h"
#include "engine/result.h"

namespace engine::contract {

// Parses an architecture object. `path` prefixes field names in errors ("model.").
engine::Result<engine::ModelSpec> ParseArchitecture(const Json& arch, const std::string& path);

// The architecture as JSON, with every field (the inverse of ParseArchitecture).
Json ArchitectureToJson(const engine::ModelSpec& model);

}  // namespace engine::contract
