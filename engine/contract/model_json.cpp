#include "engine/contract/model_json.h"

#include <string>
#include <string_view>
#include <vector>

#include "engine/architecture_fields.h"
#include "engine/contract/field_json.h"
#include "engine/format.h"
#include "engine/scenario.h"

namespace engine::contract {
namespace {

std::string KnownFields() {
  std::vector<std::string_view> keys;
  for (const engine::ArchitectureField& f : engine::ArchitectureFields()) keys.push_back(f.key);
  return engine::CommaList(keys);
}

std::optional<engine::InputError> CheckKnownFields(const Json& arch, const std::string& path) {
  for (const auto& [key, value] : arch.items()) {
    if (engine::FindField(engine::ArchitectureFields(), key) == nullptr) {
      return engine::MakeInputError(path + engine::QuotedInput(key), "input.not_architecture_field",
                                    {engine::TextArg("fields", KnownFields())});
    }
  }
  return std::nullopt;
}

}  // namespace

engine::Result<engine::ModelSpec> ParseArchitecture(const Json& a, const std::string& path) {
  if (!a.is_object()) {
    return engine::MakeInputError(path.empty() ? "model" : path.substr(0, path.size() - 1), "input.not_an_object",
                                  {TypeArg("got", a)});
  }
  engine::ModelSpec m;
  m.id = "custom";
  m.name = engine::CustomModelName();
  if (auto e = CheckKnownFields(a, path)) return *e;
  if (auto e = ReadTableFields(a, engine::ArchitectureFields(), path, m)) return *e;
  if (!a.contains("head_dim") && m.hidden % m.heads != 0) {
    return engine::MakeInputError(path + "heads", "input.heads_divide_hidden",
                                  {engine::CountArg("hidden", m.hidden), engine::CountArg("heads", m.heads)});
  }
  if (auto e = engine::ValidateModel(m, path)) return *e;
  return m;
}

Json ArchitectureToJson(const engine::ModelSpec& m) { return TableToJson(engine::ArchitectureFields(), m); }

}  // namespace engine::contract
