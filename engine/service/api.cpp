#include "engine/service/api.h"

#include <exception>
#include <new>
#include <optional>
#include <utility>

#include "catalog/catalog_freshness.h"
#include "catalog/catalog_loader.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/estimate.h"
#include "engine/exports/export_text.h"
#include "engine/exports/launch_configs.h"
#include "engine/imports/config_import.h"
#include "engine/planner.h"
#include "engine/scenario_check.h"
#include "engine/validation/validation_cases.h"
#include "engine/version.h"

namespace engine::service {
namespace {

Response Ok(std::string json) { return {std::move(json), true, {}}; }

Response Fail(const engine::InputError& error) {
  return {contract::DumpJson(contract::ErrorToJson(error)), false, error};
}

// A library exception (a bug) as the error of `field`: "internal error: <what()>".
engine::InputError InternalError(const std::string& field, const std::exception& e) {
  return engine::MakeInputError(field, "input.internal_error", {engine::TextArg("detail", e.what())});
}

// The planner fields' checks, for estimate and plan alike. A scenario that names its GPU
// fixes it for the search (contract::ConstraintsFromJson): an unknown one is the gpu field's error,
// not allowed_gpus'.
std::optional<engine::InputError> CheckConstraints(const contract::Json& doc, const engine::Scenario& scenario,
                                                   const engine::PlanConstraints& constraints,
                                                   const engine::Catalog& cat) {
  if (doc.contains("gpu") && !doc.contains("allowed_gpus")) {
    if (auto error = engine::CheckGpuId(scenario.gpu_id, cat)) return error;
  }
  auto error = engine::ValidateConstraints(constraints, cat);
  // The currency may have come from {"budget": {"amount", "currency"}} (a top-level
  // currency takes precedence): name the field the user wrote.
  const bool from_budget = doc.contains("budget") && doc["budget"].is_object() && doc["budget"].contains("currency");
  if (error && error->field == "currency" && from_budget && !doc.contains("currency")) error->field = "budget.currency";
  return error;
}

// A request's scenario and planner constraints, checked alike for every entry point.
struct Request {
  contract::Json doc;
  engine::Scenario scenario;
  engine::PlanConstraints constraints;
};

engine::Result<Request> ReadRequest(std::string_view scenario_json, const engine::Catalog& cat) {
  auto doc = contract::ParseScenarioDocument(scenario_json);
  if (!doc.ok()) return doc.error();
  auto scenario = contract::ScenarioFromJson(doc.value(), cat);
  if (!scenario.ok()) return scenario.error();
  // The planner's fields are part of the same scenario: a bad one is an error for an
  // estimate too, not something only `plan` notices.
  auto constraints = contract::ConstraintsFromJson(doc.value());
  if (!constraints.ok()) return constraints.error();
  if (auto error = CheckConstraints(doc.value(), scenario.value(), constraints.value(), cat)) return *error;
  return Request{std::move(doc.value()), std::move(scenario.value()), std::move(constraints.value())};
}

engine::Result<contract::Json> EstimateResult(const Request& request, const engine::Catalog& cat) {
  auto estimate = engine::RunEstimate(request.scenario, cat, engine::CostBasisOf(request.constraints));
  if (!estimate.ok()) return estimate.error();
  return contract::EstimateToJson(estimate.value());
}

engine::Result<contract::Json> PlanResult(const Request& request, const engine::Catalog& cat) {
  auto plan = engine::RunPlan(request.scenario, request.constraints, cat);
  if (!plan.ok()) return plan.error();
  return contract::PlanToJson(plan.value(), request.constraints, cat, request.scenario);
}

// Runs `body` against the catalog in force. A JSON library or standard-library exception
// is a bug, but the caller still gets an error object instead of a dead process or WASM
// runtime.
template <class Body>
Response Guarded(const engine::Result<engine::Catalog>& in_force, Body body) {
  try {
    if (!in_force.ok()) return Fail(in_force.error());
    return body(in_force.value());
  } catch (const std::bad_alloc&) {
    return Fail(engine::MakeInputError("scenario", "input.too_large_to_process"));
  } catch (const std::exception& e) {
    return Fail(InternalError("scenario", e));
  }
}

// The request read, then `compute`d: its result as compact JSON, or the first error.
template <class Compute>
Response Answer(const engine::Result<engine::Catalog>& in_force, std::string_view scenario_json, Compute compute) {
  return Guarded(in_force, [&](const engine::Catalog& cat) -> Response {
    const auto request = ReadRequest(scenario_json, cat);
    if (!request.ok()) return Fail(request.error());
    const auto result = compute(request.value(), cat);
    if (!result.ok()) return Fail(result.error());
    return Ok(contract::DumpJson(result.value()));
  });
}

Response LaunchConfigsResult(const engine::Result<engine::Catalog>& in_force, std::string_view scenario_json) {
  return Answer(in_force, scenario_json,
                [](const Request& request, const engine::Catalog& cat) -> engine::Result<contract::Json> {
    // The estimate's own checks, so that bad input gives exactly its error.
    if (auto estimate = engine::RunEstimate(request.scenario, cat); !estimate.ok()) return estimate.error();
    const engine::Scenario& s = request.scenario;
    const engine::ModelPreset* preset = s.model_derived ? nullptr : cat.FindModel(s.model.id);
    const contract::Json& model = request.doc["model"];
    // The model spec has no RoPE base; a config.json given as the model has one.
    const bool from_config = model.is_object() && model.contains("hf_config");
    const exports::RopeSettings rope =
        from_config ? exports::RopeFromHfConfig(model["hf_config"]) : exports::RopeSettings{};
    return exports::LaunchConfigsToJson(s, preset ? preset->hf_repo : "", rope, cat.FindGpu(s.gpu_id)->memory_bytes);
  });
}

// The export of a request read and answered: computed here, written by export_text.h.
Response ExportAnswer(const Request& request, const engine::Catalog& cat, std::string_view what,
                      exports::ExportFormat format) {
  if (what == "estimate") {
    const auto estimate = engine::RunEstimate(request.scenario, cat, engine::CostBasisOf(request.constraints));
    if (!estimate.ok()) return Fail(estimate.error());
    return Ok(exports::EstimateExportText(request.scenario, estimate.value(), format));
  }
  const auto plan = engine::RunPlan(request.scenario, request.constraints, cat);
  if (!plan.ok()) return Fail(plan.error());
  return Ok(exports::PlanExportText(request.scenario, request.constraints, plan.value(), cat, format));
}

}  // namespace

const engine::Result<engine::Catalog>& Session::catalog_or_error() const {
  return merged_ ? *merged_ : catalog::Embedded();
}

Response Session::Estimate(std::string_view scenario_json) const {
  return Answer(catalog_or_error(), scenario_json, EstimateResult);
}

Response Session::Plan(std::string_view scenario_json) const {
  return Answer(catalog_or_error(), scenario_json, PlanResult);
}

Response Session::LaunchConfigs(std::string_view scenario_json) const {
  return LaunchConfigsResult(catalog_or_error(), scenario_json);
}

Response Session::Export(std::string_view scenario_json, std::string_view what, std::string_view format) const {
  if (what != "estimate" && what != "plan") return Fail(engine::MakeInputError("what", "input.export_what"));
  const auto export_format = engine::EnumFromName<exports::ExportFormat>(exports::kExportFormatNames, format);
  if (!export_format) return Fail(engine::MakeInputError("format", "input.export_format"));
  return Guarded(catalog_or_error(), [&](const engine::Catalog& cat) -> Response {
    const auto request = ReadRequest(scenario_json, cat);
    if (!request.ok()) return Fail(request.error());
    return ExportAnswer(request.value(), cat, what, *export_format);
  });
}

namespace {

// The import request: its files (or one pasted text, split at "---" lines), the tool, the base.
struct ImportRequest {
  std::vector<imports::ConfigFile> files;
  imports::ConfigTool from = imports::ConfigTool::kAuto;
  contract::Json base = contract::Json::object();
};

engine::Result<ImportRequest> ReadImportRequest(std::string_view request_json) {
  // Several configs of up to 1 MiB each, JSON-escaped.
  auto doc = contract::ParseUserJson(request_json, 8 * imports::kMaxConfigBytes, "import");
  if (!doc.ok()) return doc.error();
  const contract::Json& d = doc.value();
  if (!d.is_object()) return engine::MakeInputError("import", "input.not_an_object", {contract::TypeArg("got", d)});
  ImportRequest request;
  if (d.contains("text")) {
    std::string text;
    if (auto error = contract::ReadString(d, "text", "", &text)) return *error;
    if (text.size() > imports::kMaxConfigBytes) {
      return engine::MakeInputError("text", "import.too_large",
                                    {engine::TextArg("file", "text"), engine::CountArg("bytes", text.size()),
                                     engine::CountArg("limit_kib", imports::kMaxConfigBytes / 1024)});
    }
    request.files = imports::SplitConfigText(text, "pasted text");
  }
  if (d.contains("files")) {
    if (!d["files"].is_array()) return engine::MakeInputError("files", "input.not_an_array", {contract::TypeArg("got", d["files"])});
    for (size_t i = 0; i < d["files"].size(); ++i) {
      const contract::Json& f = d["files"][i];
      const std::string path = "files[" + std::to_string(i) + "]";
      imports::ConfigFile file;
      if (!f.is_object()) return engine::MakeInputError(path, "input.not_an_object", {contract::TypeArg("got", f)});
      if (auto error = contract::RequireText(f, "text", path, &file.text)) return *error;
      file.name = "file " + std::to_string(i + 1);
      if (auto error = contract::ReadString(f, "name", path, &file.name)) return *error;
      request.files.push_back(std::move(file));
    }
  }
  if (d.contains("from")) {
    size_t index = 0;
    if (auto error = contract::ReadChoice(d, "from", "", imports::kConfigToolNames, &index)) return *error;
    request.from = static_cast<imports::ConfigTool>(index);
  }
  if (d.contains("base")) {
    if (!d["base"].is_object()) return engine::MakeInputError("base", "input.not_an_object", {contract::TypeArg("got", d["base"])});
    request.base = d["base"];
  }
  return request;
}

}  // namespace

Response Session::ImportConfigs(std::string_view request_json) const {
  return Guarded(catalog_or_error(), [&](const engine::Catalog& cat) -> Response {
    auto request = ReadImportRequest(request_json);
    if (!request.ok()) return Fail(request.error());
    auto imported = imports::ImportConfigs(request.value().files, request.value().from, request.value().base, cat);
    if (!imported.ok()) return Fail(imported.error());
    return Ok(contract::DumpJson(imports::ConfigImportToJson(imported.value())));
  });
}

std::string Session::CatalogJson() const {
  if (overlay_text_.empty()) return catalog::EmbeddedCatalogJson();
  contract::Json all = contract::Json::parse(catalog::EmbeddedCatalogJson());
  all["overlay"] = contract::Json::parse(overlay_text_, nullptr, false);
  return contract::DumpJson(all, 2);
}

void Session::Replace(CatalogPtr next) {
  if (merged_) retired_.push_back(std::move(merged_));
  while (retired_.size() > kRetiredCatalogs) retired_.pop_front();
  merged_ = std::move(next);
}

Response Session::SetCatalogOverlay(std::string_view overlay_json) {
  try {
    if (overlay_json.empty()) {
      Replace(nullptr);
      overlay_text_.clear();
      return Ok(contract::DumpJson({{"ok", true}, {"overlay", false}}));
    }
    const auto& embedded = catalog::Embedded();
    if (!embedded.ok()) return Fail(embedded.error());
    auto merged = catalog::ApplyOverlay(embedded.value(), overlay_json, "overlay");
    if (!merged.ok()) return Fail(merged.error());
    const engine::Catalog& c = merged.value();
    const contract::Json counts = {{"ok", true}, {"overlay", true}, {"gpus", c.gpus.size()}, {"models", c.models.size()},
                                  {"offers", c.offers.size()}, {"servers", c.servers.size()}};
    Replace(std::make_shared<const engine::Result<engine::Catalog>>(std::move(merged)));
    overlay_text_ = std::string(overlay_json);
    return Ok(contract::DumpJson(counts));
  } catch (const std::exception& e) {
    return Fail(InternalError("overlay", e));
  }
}

std::string StaleJson(int days, long today) {
  return contract::DumpJson(catalog::StaleFigures(catalog::EmbeddedFiles(), days, today));
}

std::string ValidationSummaryJson() {
  return contract::DumpJson(validation::ValidationSummaryToJson(validation::EmbeddedValidationSummary()));
}

std::string VersionJson() {
  const auto& cat = catalog::Embedded();
  return contract::DumpJson({{"version", engine::kEngineVersion},
               {"contract", engine::kContractVersion},
               {"catalog_date", cat.ok() ? cat.value().date : ""}});
}

}  // namespace engine::service
