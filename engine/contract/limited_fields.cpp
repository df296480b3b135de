#include "engine/contract/limited_fields.h"

#include <limits>

#include "engine/input_limits.h"

namespace engine::contract {

std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path,
                                              double* out) {
  return ReadLimited(obj, key, path, path + key, out);
}

std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path,
                                              std::string_view limit_field, double* out) {
  if (!obj.contains(key)) return std::nullopt;
  const std::string field = path + key;
  constexpr double kAnyFinite = std::numeric_limits<double>::max();
  double value = 0;
  // The type (and finiteness) here; the contract's range below, by the table's name.
  if (auto error = ReadNumber(obj, key, "", -kAnyFinite, kAnyFinite, &value)) {
    error->field = field;
    return error;
  }
  if (auto error = engine::CheckLimit(limit_field, field, value)) return error;
  *out = value;
  return std::nullopt;
}

std::optional<engine::InputError> ReadLimited(const Json& obj, const char* key, const std::string& path, int* out) {
  double value = 0;
  if (auto error = ReadLimited(obj, key, path, &value)) return error;
  if (obj.contains(key)) *out = static_cast<int>(value);  // whole and within int: CheckLimit saw to it
  return std::nullopt;
}

}  // namespace engine::contract
