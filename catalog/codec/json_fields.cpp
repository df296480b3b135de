#include "json_fields.h"

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include "engine/format.h"

namespace catalog {
namespace {

std::string FieldPath(const std::string& path, const char* key) { return path + key; }

engine::InputError TypeError(const std::string& field, const char* expected, const Json& got) {
  return {field, "must be " + std::string(expected) + ", got " + TypeName(got)};
}

// One open object or array while parsing: the keys seen so far (objects only), the last
// one, which names the value being parsed, and how many elements have begun (arrays only).
// Paths are built only for an error, so deep nesting costs memory linear in the input.
struct OpenValue {
  bool object = false;
  std::set<std::string> keys;
  std::string last_key;
  size_t elements = 0;
};

// "model.layers" (scenario: arrays left out), or with indices "offers[0].price.new_usd_low".
std::string KeyPath(const std::vector<OpenValue>& open, const std::string& key, bool indices) {
  std::string path;
  for (size_t i = 0; i + 1 < open.size(); ++i) {
    if (open[i].object) {
      path += (indices && !path.empty() ? "." : "") + open[i].last_key + (indices ? "" : ".");
    } else if (indices) {
      path += "[" + std::to_string(open[i].elements - 1) + "]";
    }
  }
  if (indices && !path.empty()) path += ".";
  return path + key;
}

// nlohmann's text after "[json.exception.parse_error.101] parse error ", capped: the
// token it quotes may be a megabyte of one string.
std::string ParseErrorDetail(const char* what) {
  std::string detail = what;
  if (const size_t end = detail.find("] "); end != std::string::npos) detail.erase(0, end + 2);
  if (detail.starts_with("parse error ")) detail.erase(0, 12);
  constexpr size_t kMaxDetail = 200;
  if (detail.size() > kMaxDetail) detail = detail.substr(0, kMaxDetail) + "…";
  return detail;
}

// The rules both parsers share: a size limit, no NUL byte (the parser reads NUL as the end
// of the text and would ignore whatever follows), no key twice in one object (it would keep
// the last silently). The deepest nesting seen comes back in *depth.
struct Parsed {
  engine::Result<Json> doc;
  int depth = 0;
};

Parsed ParseStrict(std::string_view text, size_t max_bytes, const std::string& field, bool indices,
                   const std::string& repeated_prefix) {
  if (text.size() > max_bytes) {
    return {engine::InputError{field, "is " + std::to_string(text.size()) + " bytes; the limit is " +
                                          std::to_string(max_bytes >> 20) + " MiB"}};
  }
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return {engine::InputError{field, "is not valid JSON: a NUL byte at offset " + std::to_string(nul)}};
  }
  std::vector<OpenValue> open;
  std::string repeated;  // the first key found twice in one object
  int deepest = 0;
  const Json::parser_callback_t track = [&](int depth, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    deepest = std::max(deepest, depth);
    const bool starts = event == E::object_start || event == E::array_start;
    if ((starts || event == E::value) && !open.empty() && !open.back().object) ++open.back().elements;
    if (starts) open.push_back({event == E::object_start, {}, {}, 0});
    if ((event == E::object_end || event == E::array_end) && !open.empty()) open.pop_back();
    if (event == E::key && !open.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open.back().keys.insert(key).second && repeated.empty()) {
        repeated = repeated_prefix + KeyPath(open, key, indices);
      }
      open.back().last_key = key;
    }
    return true;
  };
  try {
    Json doc = Json::parse(text.begin(), text.end(), track);
    if (!repeated.empty()) return {engine::InputError{repeated, "appears twice in one object; give it once"}, deepest};
    return {std::move(doc), deepest};
  } catch (const Json::exception& e) {
    return {engine::InputError{field, "is not valid JSON: " + ParseErrorDetail(e.what())}, deepest};
  }
}

}  // namespace

engine::Result<Json> ParseUserJson(std::string_view text, size_t max_bytes, const std::string& field) {
  return ParseStrict(text, max_bytes, field, /*indices=*/false, "").doc;
}

engine::Result<Json> ParseCatalogJson(std::string_view text, size_t max_bytes, const std::string& name,
                                      int max_depth) {
  Parsed parsed = ParseStrict(text, max_bytes, name, /*indices=*/true, name + ": ");
  if (parsed.depth > max_depth) {
    return engine::InputError{name, "nests objects and arrays " + std::to_string(parsed.depth) +
                                        " levels deep; the limit is " + std::to_string(max_depth)};
  }
  return std::move(parsed.doc);
}

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
    // All the digits: Num's three significant ones would print 4096.5 as "4096".
    char exact[32];
    std::snprintf(exact, sizeof exact, "%.15g", v);
    return engine::InputError{field, "must be a whole number, got " + std::string(exact)};
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

std::string DumpJson(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
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
  return engine::InputError{path + key, "must be one of " + list + ", got '" + engine::QuotedInput(*out) + "'"};
}

}  // namespace catalog
