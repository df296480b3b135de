#include "engine/contract/field_json.h"

namespace engine::contract {

std::optional<engine::InputError> ReadStringList(const Json& obj, const char* key, const std::string& path,
                                                 std::vector<std::string>* out) {
  if (!obj.contains(key)) return std::nullopt;
  const Json& a = obj[key];
  const std::string field = path + key;
  if (!a.is_array()) return engine::MakeInputError(field, "input.not_string_array");
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) return engine::MakeInputError(field + "[" + std::to_string(i) + "]", "input.must_be_string");
    out->push_back(a[i].get<std::string>());
  }
  return std::nullopt;
}

std::optional<engine::InputError> ReadSize(const Json& obj, const char* key, const std::string& path,
                                           std::string_view limit, std::array<int, 2>* out) {
  if (!obj.contains(key)) return std::nullopt;
  const Json& a = obj[key];
  const std::string field = path + key;
  if (!a.is_array() || a.size() != 2) return engine::MakeInputError(field, "input.not_size_pair", {TypeArg("got", a)});
  for (size_t i = 0; i < 2; ++i) {
    // Each side read as the field itself, so its error names the field and its range.
    double side = 0;
    const Json one = {{key, a[i]}};
    if (auto e = ReadLimited(one, key, path, limit, &side)) return e;
    (*out)[i] = static_cast<int>(side);
  }
  return std::nullopt;
}

std::string FieldJsonName(std::string_view key) { return std::string(engine::KeyName(key)); }

std::optional<size_t> AliasedChoice(const Json& value, std::span<const engine::ChoiceAlias> aliases,
                                    std::span<const std::string_view> choices) {
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  for (const engine::ChoiceAlias& a : aliases) {
    if (a.alias != text) continue;
    for (size_t i = 0; i < choices.size(); ++i) {
      if (choices[i] == a.name) return i;
    }
  }
  return std::nullopt;
}

}  // namespace engine::contract
