#include "json_fields.h"

#include <cmath>

#include "engine/format.h"

namespace catalog {
namespace {

std::string FieldPath(const std::string& path, const char* key) { return path + key; }

engine::InputError TypeError(const std::string& field, const char* expected, const Json& got) {
  return {field, "must be " + std::string(expected) + ", got " + TypeName(got)};
}

}  // namespace

std::string TypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    default: return "an unsupported value";
  }
}

std::optional<engine::InputError> Require(const Json& obj, const char* key, const std::string& path) {
  if (obj.contains(key)) return std::nullopt;
  return engine::InputError{FieldPath(path, key), "is required"};
}

std::optional<engine::InputError> ReadNumber(const Json& obj, const char* key, const std::string& path, double lo,
                                             double hi, double* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  const std::string field = FieldPath(path, key);
  if (!it->is_number()) return TypeError(field, "a number", *it);
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < lo || v > hi) {
    return engine::InputError{field, "must be between " + engine::Num(lo) + " and " + engine::Num(hi) + ", got " +
                                         engine::Num(v)};
  }
  *out = v;
  return std::nullopt;
}

std::optional<engine::InputError> ReadInt(const Json& obj, const char* key, const std::string& path, int lo, int hi,
                                          int* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  const std::string field = FieldPath(path, key);
  if (!it->is_number()) return TypeError(field, "an integer", *it);
  const double v = it->get<double>();
  if (!std::isfinite(v) || v != std::floor(v)) {
    return engine::InputError{field, "must be a whole number, got " + engine::Num(v)};
  }
  if (v < lo || v > hi) {
    return engine::InputError{field, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                         ", got " + engine::Num(v)};
  }
  *out = static_cast<int>(v);
  return std::nullopt;
}

std::optional<engine::InputError> ReadBool(const Json& obj, const char* key, const std::string& path, bool* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_boolean()) return TypeError(FieldPath(path, key), "true or false", *it);
  *out = it->get<bool>();
  return std::nullopt;
}

std::optional<engine::InputError> ReadString(const Json& obj, const char* key, const std::string& path,
                                             std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_string()) return TypeError(FieldPath(path, key), "a string", *it);
  *out = it->get<std::string>();
  return std::nullopt;
}

bool IsSlug(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] == '-' || id[0] == '.') return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<engine::InputError> RequireText(const Json& e, const char* key, const std::string& path, std::string* out) {
  if (auto err = Require(e, key, path)) return err;
  if (auto err = ReadString(e, key, path, out)) return err;
  if (out->empty()) return engine::InputError{path + key, "must not be empty"};
  return std::nullopt;
}

std::optional<engine::InputError> RequireNumber(const Json& e, const char* key, const std::string& path, double lo, double hi,
                                        double* out) {
  if (auto err = Require(e, key, path)) return err;
  return ReadNumber(e, key, path, lo, hi, out);
}

std::optional<engine::InputError> OptionalNumber(const Json& e, const char* key, const std::string& path, double lo,
                                         double hi, double* out) {
  if (!e.contains(key) || e[key].is_null()) return std::nullopt;
  return ReadNumber(e, key, path, lo, hi, out);
}

std::optional<engine::InputError> ReadChoiceText(const Json& e, const char* key, const std::string& path,
                                         std::initializer_list<const char*> allowed, bool required, std::string* out) {
  if (required) {
    if (auto err = RequireText(e, key, path, out)) return err;
  } else if (!e.contains(key) || e[key].is_null()) {
    return std::nullopt;
  } else if (auto err = ReadString(e, key, path, out)) {
    return err;
  }
  std::string list;
  for (const char* a : allowed) {
    if (*out == a) return std::nullopt;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  return engine::InputError{path + key, "must be one of " + list + ", got '" + *out + "'"};
}

}  // namespace catalog
