#include "engine/contract/scenario_json.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/contract/field_json.h"
#include "engine/contract/limited_fields.h"
#include "engine/contract/model_json.h"
#include "engine/contract/plan_json.h"
#include "engine/format.h"
#include "engine/imports/hf_config.h"
#include "engine/post_training.h"
#include "engine/scenario_fields.h"

namespace engine::contract {
namespace {


// The groups of fields written "group.field" in the table, with the error for a group
// that is not an object (its template shows an example of the object).
struct FieldGroupSpec {
  std::string_view name;
  const char* not_object;
};
constexpr FieldGroupSpec kGroups[] = {{"claim", "input.claim_not_object"}};

InputError GroupNotObject(const std::string& group, const Json& got) {
  for (const FieldGroupSpec& g : kGroups) {
    if (g.name == group) return MakeInputError(group, g.not_object);
  }
  return MakeInputError(group, "input.not_an_object", {TypeArg("got", got)});
}

// The fields of `group` ("claim" -> tokens_per_s, wall_hours, wall_days), in table order.
std::vector<std::string> GroupFieldNames(std::string_view group) {
  std::vector<std::string> out;
  for (const engine::ScenarioField& f : engine::ScenarioFields()) {
    if (engine::KeyGroup(f.key) == group) out.emplace_back(engine::KeyName(f.key));
  }
  return out;
}

// Every top-level key a scenario document may carry: the table's fields and groups, and
// the planner's constraints (ConstraintsToJson writes each of them).
const std::set<std::string>& TopLevelFieldNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    for (const engine::ScenarioField& f : engine::ScenarioFields()) {
      const std::string_view group = engine::KeyGroup(f.key);
      out.emplace(group.empty() ? f.key : group);
    }
    const Json constraints = ConstraintsToJson(engine::PlanConstraints{});
    for (const auto& item : constraints.items()) out.insert(item.key());
    return out;
  }();
  return names;
}

// {"preset": "deepseek-v3", "mtp_layers": 1}: a preset's architecture with the fields
// given changed, read as a custom architecture under the preset's name.
std::optional<InputError> ReadChangedPreset(const Json& m, const engine::Catalog& catalog, engine::Scenario& s) {
  std::string id;
  if (auto e = ReadString(m, "preset", "model.", &id)) return e;
  const engine::ModelPreset* preset = catalog.FindModel(id);
  if (preset == nullptr) {
    return MakeInputError("model.preset", "input.unknown_preset",
                          {TextArg("id", engine::QuotedInput(id)),
                           engine::CountArg("presets", static_cast<long long>(catalog.models.size()))});
  }
  Json arch = ArchitectureToJson(preset->spec);
  for (const auto& [key, value] : m.items()) {
    if (key != "preset") arch[key] = value;
  }
  auto changed = ParseArchitecture(arch, "model.");
  if (!changed.ok()) return changed.error();
  s.model = changed.value();
  s.model.name = preset->spec.name;
  return std::nullopt;
}

std::optional<InputError> ReadModel(const Json& doc, const engine::Catalog& catalog, engine::Scenario& s,
                                    imports::HfQuantization& quantization) {
  if (!doc.contains("model")) {
    return MakeInputError("model", "input.model_required");
  }
  const Json& m = doc["model"];
  if (m.is_string()) {
    const std::string id = m.get<std::string>();
    const engine::ModelPreset* preset = catalog.FindModel(id);
    if (preset == nullptr) {
      return MakeInputError("model", "input.unknown_preset",
                            {TextArg("id", engine::QuotedInput(id)),
                             engine::CountArg("presets", static_cast<long long>(catalog.models.size()))});
    }
    s.model = preset->spec;
    return std::nullopt;
  }
  if (m.is_object() && m.contains("params_b")) {
    if (m.size() != 1) return MakeInputError("model", "input.model_key_combined", {TextArg("key", "params_b")});
    double billions = 0;
    if (auto e = ReadLimited(m, "params_b", "model.", &billions)) return e;
    auto shape = engine::DeriveDenseShape(billions * 1e9);
    if (!shape.ok()) return shape.error();
    s.model = shape.value();
    s.model_derived = true;
    return std::nullopt;
  }
  if (m.is_object() && m.contains("hf_config")) {
    if (m.size() != 1) return MakeInputError("model", "input.model_key_combined", {TextArg("key", "hf_config")});
    auto imported = imports::ImportHfConfig(m["hf_config"]);
    if (!imported.ok()) return imported.error();
    s.model = imported.value().spec;
    s.input_warnings = imported.value().warnings;
    quantization = imported.value().quantization;
    return std::nullopt;
  }
  if (m.is_object() && m.contains("preset")) return ReadChangedPreset(m, catalog, s);
  auto arch = ParseArchitecture(m, "model.");
  if (!arch.ok()) return arch.error();
  s.model = arch.value();
  return std::nullopt;
}

// A group's object ("claim": {...}): an object whose keys are the group's fields.
std::optional<InputError> CheckGroup(const Json& doc, std::string_view group) {
  const std::string key(group);
  const Json& g = doc[key];
  if (!g.is_object()) return GroupNotObject(key, g);
  const std::vector<std::string> fields = GroupFieldNames(group);
  for (const auto& item : g.items()) {
    if (item.key().empty()) return MakeInputError(key, "input.group_empty_key", {TextArg("fields", engine::CommaList(fields))});
    if (std::find(fields.begin(), fields.end(), item.key()) == fields.end()) {
      return MakeInputError(key + "." + engine::QuotedInput(item.key()), "input.not_group_field",
                            {TextArg("group", key), TextArg("fields", engine::CommaList(fields))});
    }
  }
  return std::nullopt;
}

// Every field of the table, in its order; a group's object is checked at its first field.
std::optional<InputError> ReadFields(const Json& doc, engine::Scenario& s) {
  std::string_view checked_group;
  for (const engine::ScenarioField& f : engine::ScenarioFields()) {
    const std::string_view group = engine::KeyGroup(f.key);
    if (group.empty()) {
      if (auto e = ReadTableField(doc, f, "", s)) return e;
      continue;
    }
    if (!doc.contains(std::string(group))) continue;
    if (group != checked_group) {
      if (auto e = CheckGroup(doc, group)) return e;
      checked_group = group;
    }
    if (auto e = ReadTableField(doc[std::string(group)], f, std::string(group) + ".", s)) return e;
  }
  // Grouped fields have no defaults that follow others: the top-level keys decide.
  FillDefaults(doc, engine::ScenarioFields(), s);
  return std::nullopt;
}

}  // namespace

Result<engine::Scenario> ScenarioFromJson(const Json& doc, const engine::Catalog& catalog) {
  if (!doc.is_object()) return MakeInputError("scenario", "input.scenario_not_object", {TypeArg("got", doc)});
  for (const auto& [key, value] : doc.items()) {
    if (!TopLevelFieldNames().count(key)) {
      // An empty key cannot be the field an error names: the document is.
      if (key.empty()) return MakeInputError("scenario", "input.scenario_empty_key");
      return MakeInputError(engine::QuotedInput(key), "input.not_scenario_field");
    }
  }
  engine::Scenario s;
  imports::HfQuantization quantization;
  if (auto e = ReadModel(doc, catalog, s, quantization)) return *e;
  if (auto e = ReadFields(doc, s)) return *e;
  if (auto e = engine::ResolveRoleModels(s, catalog)) return *e;
  // A GPTQ/AWQ/bitsandbytes checkpoint trains through adapters only.
  if (auto e = imports::CheckQuantizedCheckpointMethod(quantization, s.training.method)) return *e;
  return s;
}

const std::set<std::string>& ScenarioFieldNames() { return TopLevelFieldNames(); }

const std::set<std::string>& ClaimFieldNames() {
  static const std::set<std::string> names = [] {
    const std::vector<std::string> fields = GroupFieldNames("claim");
    return std::set<std::string>(fields.begin(), fields.end());
  }();
  return names;
}

Result<Json> ParseScenarioDocument(std::string_view text) { return ParseUserJson(text, kMaxScenarioBytes, "scenario"); }

Result<engine::Scenario> ParseScenario(std::string_view text, const engine::Catalog& catalog) {
  auto doc = ParseScenarioDocument(text);
  if (!doc.ok()) return doc.error();
  return ScenarioFromJson(doc.value(), catalog);
}

Json ScenarioToJson(const engine::Scenario& s) {
  Json doc = Json::object();
  for (const engine::ScenarioField& f : engine::ScenarioFields()) {
    if (!IsWritten(f, s)) continue;
    Json value = f.type == engine::FieldType::kModel
                     ? (s.model.id != "custom" && !s.model_derived ? Json(s.model.id) : ArchitectureToJson(s.model))
                     : TableFieldJson(f, s);
    const std::string_view group = engine::KeyGroup(f.key);
    if (group.empty()) {
      doc[std::string(f.key)] = std::move(value);
    } else {
      doc[std::string(group)][std::string(engine::KeyName(f.key))] = std::move(value);
    }
  }
  return doc;
}

}  // namespace engine::contract
