// Typed, non-throwing reads of JSON fields that turn every mismatch into an InputError
// naming the field path and the allowed values, each from a template (input.*, engine/
// messages_input.cpp) so the page says it in its own language. Shared by the catalog
// loader and the scenario parser; the only code (with them) that knows JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/result.h"

namespace engine::contract {

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
// obj[key], when present, as the index of one of `names` in *index: the one reader of a
// named choice (scenario enums, a model's mlp/norm/attention, the planner's objective).
// Errors: "must be one of a, b, got 'c'", or "..., got a number" for a value not a string.
std::optional<engine::InputError> ReadChoice(const Json& obj, std::string_view key, const std::string& path,
                                             std::span<const std::string_view> names, size_t* index);

// The same into an enum whose values are the indices of `names` (engine::EnumName's tables).
template <class Enum, size_t N>
std::optional<engine::InputError> ReadEnum(const Json& obj, std::string_view key, const std::string& path,
                                           const std::array<std::string_view, N>& names, Enum* out) {
  size_t index = 0;
  if (auto error = ReadChoice(obj, key, path, names, &index)) return error;
  if (obj.contains(key)) *out = static_cast<Enum>(index);
  return std::nullopt;
}

// A string that must be one of `allowed`; optional ones may be absent or null.
std::optional<engine::InputError> ReadChoiceText(const Json& obj, const char* key, const std::string& path,
                                                 std::initializer_list<const char*> allowed, bool required,
                                                 std::string* out);

// JSON text that never throws: invalid UTF-8 (a link's or a pasted file's bytes) is
// replaced with U+FFFD instead of raising nlohmann's type_error 316. `indent` as dump()'s.
std::string DumpJson(const Json& value, int indent = -1);

// Lowercase letters, digits, '.' and '-', starting with a letter or digit; ≤ 64 chars.
bool IsSlug(const std::string& id);

// The JSON type of a value for messages ("a string", "a number", ...): as a message
// (input.type.*), as a message argument ("got {got}"), and in English.
engine::Message TypeMessage(const Json& value);
engine::MessageArg TypeArg(std::string name, const Json& value);
std::string TypeName(const Json& value);

}  // namespace engine::contract
