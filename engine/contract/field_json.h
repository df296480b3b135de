// JSON for a field table (engine/field_table.h): one reader and one writer for the
// scenario's, a custom architecture's and the planner goal's fields. Numbers are checked
// against the field's numeric-contract limit, choices against its names.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "engine/contract/json_fields.h"
#include "engine/contract/limited_fields.h"
#include "engine/field_table.h"

namespace engine::contract {

// obj[key], when present, as a list of strings (the planner's allowed GPUs).
std::optional<engine::InputError> ReadStringList(const Json& obj, const char* key, const std::string& path,
                                                 std::vector<std::string>* out);

// obj[key], when present, as [width, height]: two whole numbers, each within `limit`'s range.
std::optional<engine::InputError> ReadSize(const Json& obj, const char* key, const std::string& path,
                                           std::string_view limit, std::array<int, 2>* out);

// The name of the table's field at its place in JSON ("claim.wall_hours" -> "wall_hours").
std::string FieldJsonName(std::string_view key);

// The index of the choice `value` names under another name (field_table.h ChoiceAlias).
std::optional<size_t> AliasedChoice(const Json& value, std::span<const engine::ChoiceAlias> aliases,
                                    std::span<const std::string_view> choices);

// One field from `obj` (the document, or its group's object) into `target`, when present.
// `path` prefixes the field in errors ("model.", "claim."). A kModel field is left to its
// own reader.
template <class Target>
std::optional<engine::InputError> ReadTableField(const Json& obj, const engine::Field<Target>& f,
                                                 const std::string& path, Target& target) {
  using engine::FieldType;
  const std::string name = FieldJsonName(f.key);
  if (!obj.contains(name)) return std::nullopt;
  double value = 0;
  switch (f.type) {
    case FieldType::kModel: return std::nullopt;
    case FieldType::kInteger:
    case FieldType::kNumber:
      if (auto e = ReadLimited(obj, name.c_str(), path, f.limit.field, &value)) return e;
      break;
    case FieldType::kBool: {
      bool flag = false;
      if (auto e = ReadBool(obj, name.c_str(), path, &flag)) return e;
      value = flag ? 1 : 0;
      break;
    }
    case FieldType::kChoice: {
      size_t index = 0;
      if (auto aliased = AliasedChoice(obj[name], f.choice_aliases, f.choices)) {
        index = *aliased;
      } else if (auto e = ReadChoice(obj, name, path, f.choices, &index)) {
        return e;
      }
      value = double(index);
      break;
    }
    case FieldType::kText: return ReadString(obj, name.c_str(), path, &f.text(target));
    case FieldType::kTextList: {
      std::vector<std::string> list;
      if (auto e = ReadStringList(obj, name.c_str(), path, &list)) return e;
      f.list(target) = std::move(list);
      return std::nullopt;
    }
    case FieldType::kSize: {
      std::array<int, 2> size{};
      if (auto e = ReadSize(obj, name.c_str(), path, f.limit.field, &size)) return e;
      f.set_size(target, size);
      return std::nullopt;
    }
  }
  f.set(target, value);
  return std::nullopt;
}

// The defaults of the fields `obj` leaves out that follow other fields, in table order,
// once every given field is read (kernels follow the framework wherever it sits).
template <class Target>
void FillDefaults(const Json& obj, std::span<const engine::Field<Target>> fields, Target& target) {
  for (const engine::Field<Target>& f : fields) {
    if (f.fill_default != nullptr && !obj.contains(FieldJsonName(f.key))) f.fill_default(target);
  }
}

// Every field of a flat table (no groups) from `obj`, in table order: required fields
// first, then each field, then the defaults that follow other fields.
template <class Target>
std::optional<engine::InputError> ReadTableFields(const Json& obj, std::span<const engine::Field<Target>> fields,
                                                  const std::string& path, Target& target) {
  for (const engine::Field<Target>& f : fields) {
    if (f.required) {
      if (auto e = Require(obj, std::string(f.key).c_str(), path)) return e;
    }
  }
  for (const engine::Field<Target>& f : fields) {
    if (auto e = ReadTableField(obj, f, path, target)) return e;
  }
  FillDefaults(obj, fields, target);
  return std::nullopt;
}

// The field's value as JSON (not for kModel, which has its own writer).
template <class Target>
Json TableFieldJson(const engine::Field<Target>& f, const Target& target) {
  using engine::FieldType;
  switch (f.type) {
    case FieldType::kModel: return nullptr;
    case FieldType::kInteger: return static_cast<long long>(f.get(target));
    case FieldType::kNumber: return f.get(target);
    case FieldType::kBool: return f.get(target) != 0;
    case FieldType::kChoice: return f.choices[static_cast<size_t>(f.get(target))];
    case FieldType::kText: return f.get_text(target);
    case FieldType::kTextList: return f.get_list(target);
    case FieldType::kSize: {
      const std::array<int, 2> size = f.get_size(target);
      return Json::array({size[0], size[1]});
    }
  }
  return nullptr;
}

// Whether the writer emits the field for this target.
template <class Target>
bool IsWritten(const engine::Field<Target>& f, const Target& target) {
  return f.written && (f.write_if == nullptr || f.write_if(target));
}

// Every written field of a flat table, as one object.
template <class Target>
Json TableToJson(std::span<const engine::Field<Target>> fields, const Target& target) {
  Json out = Json::object();
  for (const engine::Field<Target>& f : fields) {
    if (IsWritten(f, target)) out[FieldJsonName(f.key)] = TableFieldJson(f, target);
  }
  return out;
}

}  // namespace engine::contract
