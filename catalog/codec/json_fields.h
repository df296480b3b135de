// Typed, non-throwing reads of JSON fields that turn every mismatch into an InputError
// naming the field path and the allowed values. Shared by the catalog loader and the
// scenario parser; the only code (with them) that knows JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "engine/result.h"

namespace catalog {

using Json = nlohmann::json;

// Parses JSON text a person or another program sent (a scenario): at most `max_bytes`,
// with no key twice in one object (the parser would silently keep the last), and a
// message that says where the text stops being JSON. Errors name `field`, or the
// repeated key's dotted path. Never throws on bad text.
engine::Result<Json> ParseUserJson(std::string_view text, size_t max_bytes, const std::string& field);

// The same rules for a catalog file or a user's overlay named `name` ("gpus.json",
// "overlay"), plus a nesting limit: errors read "<name>" (too large, a NUL byte, not JSON,
// nested deeper than `max_depth`) or "<name>: offers[0].price.new_usd_low" (a repeated key).
engine::Result<Json> ParseCatalogJson(std::string_view text, size_t max_bytes, const std::string& name,
                                      int max_depth);

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

// A required, non-empty string.
std::optional<engine::InputError> RequireText(const Json& obj, const char* key, const std::string& path,
                                              std::string* out);
// A required number in [lo, hi].
std::optional<engine::InputError> RequireNumber(const Json& obj, const char* key, const std::string& path, double lo,
                                                double hi, double* out);
// An optional figure: absent or null (unknown) leaves *out unchanged.
std::optional<engine::InputError> OptionalNumber(const Json& obj, const char* key, const std::string& path, double lo,
                                                 double hi, double* out);
// A string that must be one of `allowed`; optional ones may be absent or null.
std::optional<engine::InputError> ReadChoiceText(const Json& obj, const char* key, const std::string& path,
                                                 std::initializer_list<const char*> allowed, bool required,
                                                 std::string* out);

// JSON text that never throws: invalid UTF-8 (a link's or a pasted file's bytes) is
// replaced with U+FFFD instead of raising nlohmann's type_error 316. `indent` as dump()'s.
std::string DumpJson(const Json& value, int indent = -1);

// Lowercase letters, digits, '.' and '-', starting with a letter or digit; ≤ 64 chars.
bool IsSlug(const std::string& id);

// The JSON type name for messages ("string", "number", ...).
std::string TypeName(const Json& value);

}  // namespace catalog
