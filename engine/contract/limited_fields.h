// Reads a number of the numeric contract (engine/input_limits.h): the JSON type is checked
// here, the range there, so the JSON reader, the link decoder and the engine's own checks
// give the same message for the same value.
#pragma once

#include <optional>
#include <string>

#include "engine/contract/json_fields.h"
#include "engine/result.h"

namespace engine::contract {

// obj[key] into *out when present. path + key is the table's name ("claim." + "wall_hours"),
// and the name the error carries.
std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path, double* out);
std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path, int* out);
// The same under another table name: {"budget": {"amount": N}} has the budget's limit.
std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path,
                                              std::string_view limit_field, double* out);

}  // namespace engine::contract
