// Typed, non-throwing reads of JSON fields that turn every mismatch into an InputError
// naming the field path and the allowed values. Shared by the catalog loader and the
// scenario parser; the only code (with them) that knows JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "engine/result.h"

namespace catalog {

using Json = nlohmann::json;

// Reads obj[key] into *out when present; `path` prefixes the field in errors.
// Integers must be integral JSON numbers within [lo, hi]; numbers must be finite.
std::optional<engine::InputError> ReadInt(const Json& obj, const char* key, const std::string& path, int lo, int hi,
                                          int* out);
std::optional<engine::InputError> ReadNumber(const Json& obj, const char* key, const std::string& path, double lo,
                                             double hi, double* out);
std::optional<engine::InputError> ReadBool(const Json& obj, const char* key, const std::string& path, bool* out);
std::optional<engine::InputError> ReadString(const Json& obj, const char* key, const std::string& path,
                                             std::string* out);

// Like the above but the field must be present.
std::optional<engine::InputError> Require(const Json& obj, const char* key, const std::string& path);

// The JSON type name for messages ("string", "number", ...).
std::string TypeName(const Json& value);

}  // namespace catalog
