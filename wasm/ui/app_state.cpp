#include "app_state.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "catalog/catalog_loader.h"
#include "engine/contract/model_json.h"
#include "engine/cost_model.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/imports/hf_config.h"
#include "engine/link/url_state.h"
#include "engine/service/api.h"
#include "format.h"
#include "i18n.h"

namespace ui {

AppState MakeInitialState(engine::service::Session& session) {
  AppState s;
  s.session = &session;
  s.catalog = &session.catalog();
  engine::Scenario& sc = s.inputs.scenario;
  sc.gpu_id = "h100-sxm-80gb";
  sc.parallel.gpus = 8;
  sc.parallel.zero = 3;
  sc.training.method = engine::Method::kFull;
  sc.training.seq_len = 4096;
  sc.training.global_batch = 256;
  sc.training.tokens = 2e9;  // a typical fine-tuning run: 2 billion tokens
  // The brief's example goal: done within a week, under $40k.
  s.goal.deadline_days = 7;
  s.goal.budget = 40000;
  s.goal.max_gpus = 64;
  return s;
}

void FollowLanguageMarket(AppState& state) {
  const bool zh = Language() == Lang::kZh;
  engine::PlanConstraints& goal = state.goal;
  if (goal.currency != (zh ? "USD" : "CNY") || goal.region != (zh ? "" : "cn")) return;
  const std::string currency = zh ? "CNY" : "USD";
  if (goal.budget > 0) {
    const double converted = engine::Convert(*state.catalog, goal.budget, goal.currency, currency);
    if (converted > 0) goal.budget = std::round(converted / 1000) * 1000;  // a round figure, as typed
  }
  goal.currency = currency;
  goal.region = zh ? "cn" : "";
  state.dirty = true;
}

engine::Result<engine::Scenario> ComputedScenario(const AppState& state) {
  engine::Scenario scenario = state.inputs.scenario;
  scenario.model_derived = false;
  switch (state.inputs.model_source) {
    case ModelSource::kPreset: {
      const engine::ModelPreset* preset = state.catalog->FindModel(state.inputs.preset_id);
      if (preset == nullptr) {
        const auto presets = static_cast<long long>(state.catalog->models.size());
        return engine::MakeInputError("model", "input.unknown_preset",
                                      {engine::TextArg("id", engine::QuotedInput(state.inputs.preset_id)),
                                       engine::CountArg("presets", presets)});
      }
      scenario.model = preset->spec;
      break;
    }
    case ModelSource::kArchitecture: scenario.model = state.inputs.architecture; break;
    case ModelSource::kParamCount: {
      auto shape = engine::DeriveDenseShape(state.inputs.params_b * 1e9);
      if (!shape.ok()) return shape.error();
      scenario.model = shape.value();
      scenario.model_derived = true;
      break;
    }
  }
  return scenario;
}

std::string HfRepo(const AppState& state) {
  if (state.inputs.model_source != ModelSource::kPreset) return "";
  const engine::ModelPreset* preset = state.catalog->FindModel(state.inputs.preset_id);
  return preset == nullptr ? "" : preset->hf_repo;
}

void RecomputeIfDirty(AppState& state) {
  if (state.overlay_pending) {
    state.overlay_pending = false;
    ApplyCatalogOverlay(state);
  }
  // The JS API can swap the catalog (setCatalogOverlay) between frames: follow it.
  const engine::Catalog* current = &state.session->catalog();
  if (current != state.catalog) {
    state.catalog = current;
    state.last_good.reset();
    state.plan = engine::MakeInputError("", "input.page.not_planned");  // it points into the previous catalog too
    ++state.catalog_generation;
    state.dirty = true;
  }
  if (!state.dirty) return;
  state.dirty = false;
  const auto computed = ComputedScenario(state);
  if (!computed.ok()) {
    state.result = computed.error();
    return;
  }
  const engine::Scenario& scenario = computed.value();
  state.inputs.scenario.model = scenario.model;
  state.result = engine::RunEstimate(scenario, *state.catalog, engine::CostBasisOf(state.goal));
  if (state.result.ok()) state.last_good = state.result.value();
  auto search = engine::PlanSearch::Start(scenario, state.goal, *state.catalog);
  state.plan_search.reset();
  if (search.ok()) {
    state.plan_search = std::move(search.value());
  } else {
    state.plan = search.error();
  }
  RefreshLink(state);
}

GoodFrame SaveGoodFrame(const AppState& state) {
  return GoodFrame{state.inputs,    state.goal, state.example_id,    state.result,
                   state.last_good, state.plan, state.link_fragment, state.catalog_generation};
}

void RestoreGoodFrame(AppState& state, const GoodFrame& good) {
  state.inputs = good.inputs;
  state.goal = good.goal;
  state.example_id = good.example_id;
  state.link_fragment = good.link_fragment;
  state.plan_search.reset();
  state.overlay_pending = false;
  if (good.catalog_generation == state.catalog_generation) {
    state.result = good.result;
    state.last_good = good.last_good;
    state.plan = good.plan;
    state.dirty = false;
  } else {  // the answers point into a catalog that is gone: compute them again
    state.result = engine::MakeInputError("", "input.page.not_computed");
    state.last_good.reset();
    state.plan = engine::MakeInputError("", "input.page.not_planned");
    state.dirty = true;
  }
}

void AdvancePlan(AppState& state, double budget_s) {
  if (!state.plan_search) return;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  do {
    state.plan_search->Step();
  } while (!state.plan_search->Done() && std::chrono::duration<double>(Clock::now() - start).count() < budget_s);
  if (!state.plan_search->Done()) return;
  state.plan = state.plan_search->Finish();
  state.plan_search.reset();
}

engine::contract::Json ScenarioDocument(const AppState& state) {
  engine::contract::Json doc = engine::contract::ScenarioToJson(state.inputs.scenario);
  switch (state.inputs.model_source) {
    case ModelSource::kPreset: doc["model"] = state.inputs.preset_id; break;
    case ModelSource::kParamCount: doc["model"] = {{"params_b", state.inputs.params_b}}; break;
    case ModelSource::kArchitecture: doc["model"] = engine::contract::ArchitectureToJson(state.inputs.architecture); break;
  }
  doc.update(engine::contract::ConstraintsToJson(state.goal));
  return doc;
}

void RefreshLink(AppState& state) {
  std::map<std::string, std::string> view;
  if (state.lang_chosen) view["lang"] = LanguageCode(Language());
  if (state.theme_chosen) view["theme"] = state.dark ? "dark" : "light";
  state.link_fragment = engine::link::EncodeUrlState(ScenarioDocument(state), view);
}

void ApplyLink(AppState& state, std::string_view fragment) {
  engine::link::UrlState link = engine::link::DecodeUrlState(fragment, *state.catalog);
  state.link_notice = link.ignored;
  if (const auto it = link.view.find("lang"); it != link.view.end()) {
    SetLanguage(LanguageFromCode(it->second));
    state.lang_chosen = true;
  }
  if (const auto it = link.view.find("theme"); it != link.view.end()) {
    state.dark = it->second == "dark";
    state.theme_chosen = true;
  }
  if (link.scenario.empty()) return;
  // A link lists what differs from the contract's defaults, so it is read over those,
  // not over this page's first screen; without a model it keeps the page's model.
  engine::contract::Json doc = link.scenario;
  if (!doc.contains("model")) doc["model"] = ScenarioDocument(state)["model"];
  auto scenario = engine::contract::ScenarioFromJson(doc, *state.catalog);
  auto goal = engine::contract::ConstraintsFromJson(doc);
  if (!scenario.ok() || !goal.ok()) {
    const engine::InputError& e = scenario.ok() ? goal.error() : scenario.error();
    state.link_notice.push_back(engine::MakeMessage(
        "input.link.not_applied",
        {engine::TextArg("field", e.field), engine::MessageArgOf("reason", engine::ErrorMessage(e))}));
    return;
  }
  state.inputs.scenario = scenario.value();
  state.goal = goal.value();
  if (!doc.contains("allowed_gpus")) state.goal.gpus.clear();  // naming the GPU does not fix it here
  const engine::contract::Json& model = doc["model"];
  if (model.is_string()) {
    state.inputs.model_source = ModelSource::kPreset;
    state.inputs.preset_id = model.get<std::string>();
  } else if (model.contains("params_b")) {
    state.inputs.model_source = ModelSource::kParamCount;
    state.inputs.params_b = model["params_b"].get<double>();
  } else {
    state.inputs.model_source = ModelSource::kArchitecture;
    state.inputs.architecture = scenario.value().model;
  }
  state.example_id.clear();
  state.dirty = true;
}

namespace {

// Why the import refused the config.json, as a message: "<key>: <reason>", the reason the
// error's own template.
engine::Message RefusedImport(const engine::InputError& error) {
  return engine::MakeMessage("hf_config.status.refused", {engine::TextArg("field", error.field),
                                                          engine::MessageArgOf("reason", engine::ErrorMessage(error))});
}

}  // namespace

void ImportPastedConfig(AppState& state) {
  const engine::contract::Json doc = engine::contract::Json::parse(state.inputs.hf_config_text, nullptr, false);
  if (doc.is_discarded()) {
    state.inputs.hf_config_status = engine::MakeMessage("hf_config.status.not_json");
    state.inputs.hf_config_warnings.clear();
    return;
  }
  auto imported = engine::imports::ImportHfConfig(doc);
  if (!imported.ok()) {
    state.inputs.hf_config_status = RefusedImport(imported.error());
    state.inputs.hf_config_warnings.clear();
    return;
  }
  state.inputs.architecture = imported.value().spec;
  state.inputs.model_source = ModelSource::kArchitecture;
  state.inputs.hf_config_status =
      engine::MakeMessage("hf_config.status.imported", {engine::TextArg("model", imported.value().spec.name)});
  state.inputs.hf_config_warnings = imported.value().warnings;
  state.dirty = true;
}

void ReadConfigImport(AppState& state) {
  state.config_import.reset();
  state.config_import_error.reset();
  state.config_import_applied = false;
  auto imported = engine::imports::ImportConfigs(engine::imports::SplitConfigText(state.config_import_text, T("pasted text")),
                                                 engine::imports::ConfigTool::kAuto, ScenarioDocument(state), *state.catalog);
  if (imported.ok()) state.config_import = std::move(imported.value());
  else state.config_import_error = imported.error();
}

void ApplyConfigImport(AppState& state) {
  if (!state.config_import) return;
  engine::contract::Json doc = ScenarioDocument(state);
  for (const auto& [field, value] : state.config_import->scenario.items()) doc[field] = value;
  // A config.json's model goes into the link as its architecture, as the CLI's link does.
  if (doc["model"].is_object() && doc["model"].contains("hf_config")) {
    auto scenario = engine::contract::ScenarioFromJson(doc, *state.catalog);
    if (scenario.ok()) doc["model"] = engine::contract::ArchitectureToJson(scenario.value().model);
  }
  ApplyLink(state, engine::link::EncodeUrlState(doc, {}));
  state.config_import_applied = true;
  state.dirty = true;
}

void LoadExample(AppState& state, const engine::Example& example) {
  const engine::contract::Json doc = engine::contract::Json::parse(example.scenario_json, nullptr, false);
  auto scenario = engine::contract::ScenarioFromJson(doc, *state.catalog);
  auto goal = engine::contract::ConstraintsFromJson(doc);
  if (!scenario.ok() || !goal.ok()) return;  // validated at build time; never expected
  state.inputs.scenario = scenario.value();
  state.goal = goal.value();
  const engine::contract::Json& model = doc["model"];
  if (model.is_string()) {
    state.inputs.model_source = ModelSource::kPreset;
    state.inputs.preset_id = model.get<std::string>();
  } else if (model.is_object() && model.contains("params_b")) {
    state.inputs.model_source = ModelSource::kParamCount;
    state.inputs.params_b = model["params_b"].get<double>();
  }
  state.example_id = example.id;
  state.dirty = true;
}

namespace {

// The embedded catalog's entries as JSON, to copy an entry whole before changing a figure
// (an overlay entry replaces the catalog entry with the same key).
const engine::contract::Json& EmbeddedCatalogDoc() {
  static const engine::contract::Json doc = engine::contract::Json::parse(catalog::EmbeddedCatalogJson(), nullptr, false);
  return doc;
}

const char* KeyField(const std::string& section) { return section == "rates" ? "currency" : "id"; }

engine::contract::Json FindEntry(const engine::contract::Json& doc, const std::string& section, const std::string& key) {
  if (!doc.is_object()) return nullptr;
  for (const auto& [file, content] : doc.items()) {
    if (!content.is_object() || !content.contains(section) || !content[section].is_array()) continue;
    for (const engine::contract::Json& entry : content[section]) {
      if (entry.is_object() && entry.value(KeyField(section), "") == key) return entry;
    }
  }
  return nullptr;
}

// The user's typed overlay with the Assumptions edits laid over it (edits win).
std::string ComposeOverlay(const AppState& state) {
  if (state.assumption_edits.empty()) return state.overlay_text;
  engine::contract::Json overlay = state.overlay_text.empty() ? engine::contract::Json::object()
                                                     : engine::contract::Json::parse(state.overlay_text, nullptr, false);
  if (!overlay.is_object()) return state.overlay_text;  // let the loader name the problem
  for (const auto& [section, entries] : state.assumption_edits.items()) {
    engine::contract::Json& list = overlay[section];
    if (!list.is_array()) list = engine::contract::Json::array();
    for (const auto& [key, fields] : entries.items()) {
      engine::contract::Json* target = nullptr;
      for (engine::contract::Json& entry : list) {
        if (entry.is_object() && entry.value(KeyField(section), "") == key) target = &entry;
      }
      if (target == nullptr) {
        engine::contract::Json base = FindEntry(EmbeddedCatalogDoc(), section, key);
        if (base.is_null()) continue;
        list.push_back(base);
        target = &list.back();
      }
      for (const auto& [field, value] : fields.items()) (*target)[field] = value;
    }
  }
  return engine::contract::DumpJson(overlay);
}

}  // namespace

void ApplyCatalogOverlay(AppState& state) {
  const std::string overlay = ComposeOverlay(state);
  const engine::service::Response r = state.session->SetCatalogOverlay(overlay);
  if (!r.ok) {
    state.overlay_error = r.error;
    return;
  }
  state.overlay_error.reset();
  state.catalog = &state.session->catalog();
  if (overlay.empty()) {
    state.overlay_status = T("Overlay removed: the built-in catalog is in force.");
  } else {
    char status[200];
    std::snprintf(status, sizeof status, T("Applied: %d GPUs, %d cloud offers, %d servers."),
                  int(state.catalog->gpus.size()), int(state.catalog->offers.size()),
                  int(state.catalog->servers.size()));
    state.overlay_status = status;
  }
  state.last_good.reset();  // it points into the previous catalog
  state.plan = engine::MakeInputError("", "input.page.not_planned");  // and so does the plan
  state.plan_search.reset();
  ++state.catalog_generation;
  state.dirty = true;
}

std::string OverlayStatusText(const AppState& state) {
  if (!state.overlay_error) return state.overlay_status;
  return std::string(T("Not applied:")) + " " + state.overlay_error->field + ": " + ErrorText(*state.overlay_error);
}

void EditAssumption(AppState& state, const std::string& section, const std::string& key, const std::string& field,
                    double value) {
  state.assumption_edits[section][key][field] = value;
  state.overlay_pending = true;
}

engine::contract::Json BuiltInEntry(const std::string& section, const std::string& key) {
  return FindEntry(EmbeddedCatalogDoc(), section, key);
}

void ResetAssumptions(AppState& state) {
  state.assumption_edits = engine::contract::Json::object();
  state.overlay_pending = true;
}

void AdoptFitOption(AppState& state, const engine::FitOption& option) {
  state.inputs.scenario = engine::WithChanges(state.inputs.scenario, option.changes);
  state.dirty = true;
}

void AdoptPlan(AppState& state, const engine::Plan& plan) {
  state.inputs.scenario = engine::PlanScenario(state.inputs.scenario, plan);
  state.dirty = true;
}

}  // namespace ui
