#include "api.h"

#include <new>
#include <optional>

#include "catalog_freshness.h"
#include "catalog_loader.h"
#include "engine/estimate.h"
#include "engine/planner.h"
#include "engine/scenario_check.h"
#include "launch_configs.h"
#include "plan_json.h"
#include "report.h"
#include "engine/version.h"
#include "result_json.h"
#include "scenario_json.h"
#include "validation_cases.h"

namespace api {
namespace {


Response Fail(const engine::InputError& error) { return {catalog::DumpJson(catalog::ErrorToJson(error)), false}; }

// The catalog in force: the embedded one, or it merged with the user's overlay.
struct ActiveCatalog {
  std::optional<engine::Result<engine::Catalog>> merged;
  std::string overlay_text;
};

ActiveCatalog& Active() {
  static ActiveCatalog active;
  return active;
}

const engine::Result<engine::Catalog>& Current() {
  return Active().merged ? *Active().merged : catalog::Embedded();
}

// The planner fields' checks, for estimate and plan alike. A scenario that names its GPU
// fixes it for the search (ConstraintsFromJson): an unknown one is the gpu field's error,
// not allowed_gpus'.
std::optional<engine::InputError> CheckConstraints(const catalog::Json& doc, const engine::Scenario& scenario,
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
  catalog::Json doc;
  engine::Scenario scenario;
  engine::PlanConstraints constraints;
};

engine::Result<Request> ReadRequest(std::string_view scenario_json, const engine::Catalog& cat) {
  auto doc = catalog::ParseScenarioDocument(scenario_json);
  if (!doc.ok()) return doc.error();
  auto scenario = catalog::ScenarioFromJson(doc.value(), cat);
  if (!scenario.ok()) return scenario.error();
  // The planner's fields are part of the same scenario: a bad one is an error for an
  // estimate too, not something only `plan` notices.
  auto constraints = catalog::ConstraintsFromJson(doc.value());
  if (!constraints.ok()) return constraints.error();
  if (auto error = CheckConstraints(doc.value(), scenario.value(), constraints.value(), cat)) return *error;
  return Request{std::move(doc.value()), std::move(scenario.value()), std::move(constraints.value())};
}

engine::Result<catalog::Json> EstimateResult(const Request& request, const engine::Catalog& cat) {
  auto estimate = engine::RunEstimate(request.scenario, cat);
  if (!estimate.ok()) return estimate.error();
  return catalog::EstimateToJson(estimate.value());
}

engine::Result<catalog::Json> PlanResult(const Request& request, const engine::Catalog& cat) {
  auto plan = engine::RunPlan(request.scenario, request.constraints, cat);
  if (!plan.ok()) return plan.error();
  return catalog::PlanToJson(plan.value(), request.constraints, cat, request.scenario);
}

// Runs `body` against the catalog in force. A JSON library or standard-library exception
// is a bug, but the caller still gets an error object instead of a dead process or WASM
// runtime.
template <class Body>
Response Guarded(Body body) {
  try {
    const auto& cat = Current();
    if (!cat.ok()) return Fail(cat.error());
    return body(cat.value());
  } catch (const std::bad_alloc&) {
    return Fail({"scenario", "is too large to process"});
  } catch (const std::exception& e) {
    return Fail({"scenario", std::string("internal error: ") + e.what()});
  }
}

// The request read, then `compute`d: its result as compact JSON, or the first error.
template <class Compute>
Response Answer(std::string_view scenario_json, Compute compute) {
  return Guarded([&](const engine::Catalog& cat) -> Response {
    const auto request = ReadRequest(scenario_json, cat);
    if (!request.ok()) return Fail(request.error());
    const auto result = compute(request.value(), cat);
    if (!result.ok()) return Fail(result.error());
    return {catalog::DumpJson(result.value()), true};
  });
}

}  // namespace

Response Estimate(std::string_view scenario_json) { return Answer(scenario_json, EstimateResult); }

Response Plan(std::string_view scenario_json) { return Answer(scenario_json, PlanResult); }

Response LaunchConfigs(std::string_view scenario_json) {
  return Answer(scenario_json, [](const Request& request, const engine::Catalog& cat) -> engine::Result<catalog::Json> {
    // The estimate's own checks, so that bad input gives exactly its error.
    if (auto estimate = engine::RunEstimate(request.scenario, cat); !estimate.ok()) return estimate.error();
    const engine::Scenario& s = request.scenario;
    const engine::ModelPreset* preset = s.model_derived ? nullptr : cat.FindModel(s.model.id);
    const catalog::Json& model = request.doc["model"];
    // The model spec has no RoPE base; a config.json given as the model has one.
    const bool from_config = model.is_object() && model.contains("hf_config");
    const catalog::RopeSettings rope =
        from_config ? catalog::RopeFromHfConfig(model["hf_config"]) : catalog::RopeSettings{};
    return catalog::LaunchConfigsToJson(s, preset ? preset->hf_repo : "", rope);
  });
}

namespace {

std::string RenderEstimate(const Request& request, const catalog::Json& result, std::string_view format) {
  if (format == "csv") return catalog::EstimateCsv(result);
  if (format == "table") return catalog::EstimateTable(result);
  // The Markdown summary lists the scenario's settings with defaults filled in.
  return catalog::EstimateMarkdown(catalog::ScenarioToJson(request.scenario), result);
}

std::string RenderPlan(const catalog::Json& plan, std::string_view format) {
  if (format == "csv") return catalog::PlanCsv(plan);
  return format == "table" ? catalog::PlanTable(plan) : catalog::PlanMarkdown(plan);
}

// The JSON export: what was asked, as the scenario contract writes it (defaults filled
// in, so the file reads back as the same scenario), and what came out. A plan also
// carries the constraints the planner searched within.
catalog::Json ExportDocument(std::string_view what, const Request& request, catalog::Json result) {
  catalog::Json doc = {{"scenario", catalog::ScenarioToJson(request.scenario)}, {"result", std::move(result)}};
  if (what == "plan") doc["constraints"] = catalog::ConstraintsToJson(request.constraints);
  return doc;
}

}  // namespace

Response Export(std::string_view scenario_json, std::string_view what, std::string_view format) {
  if (what != "estimate" && what != "plan") return Fail({"what", "must be estimate or plan"});
  if (format != "json" && format != "csv" && format != "markdown" && format != "table") {
    return Fail({"format", "must be json, csv, markdown or table"});
  }
  return Guarded([&](const engine::Catalog& cat) -> Response {
    const auto request = ReadRequest(scenario_json, cat);
    if (!request.ok()) return Fail(request.error());
    const auto result = what == "estimate" ? EstimateResult(request.value(), cat) : PlanResult(request.value(), cat);
    if (!result.ok()) return Fail(result.error());
    if (format == "json") return {catalog::DumpJson(ExportDocument(what, request.value(), result.value())), true};
    if (what == "estimate") return {RenderEstimate(request.value(), result.value(), format), true};
    return {RenderPlan(result.value(), format), true};
  });
}

std::string CatalogJson() {
  if (Active().overlay_text.empty()) return catalog::EmbeddedCatalogJson();
  catalog::Json all = catalog::Json::parse(catalog::EmbeddedCatalogJson());
  all["overlay"] = catalog::Json::parse(Active().overlay_text, nullptr, false);
  return catalog::DumpJson(all, 2);
}

Response SetCatalogOverlay(std::string_view overlay_json) {
  try {
    if (overlay_json.empty()) {
      Active() = {};
      return {catalog::DumpJson({{"ok", true}, {"overlay", false}}), true};
    }
    const auto& embedded = catalog::Embedded();
    if (!embedded.ok()) return Fail(embedded.error());
    auto merged = catalog::ApplyOverlay(embedded.value(), overlay_json, "overlay");
    if (!merged.ok()) return Fail(merged.error());
    const engine::Catalog& c = merged.value();
    const catalog::Json counts = {{"ok", true}, {"overlay", true}, {"gpus", c.gpus.size()}, {"models", c.models.size()},
                                  {"offers", c.offers.size()}, {"servers", c.servers.size()}};
    Active() = {std::move(merged), std::string(overlay_json)};
    return {catalog::DumpJson(counts), true};
  } catch (const std::exception& e) {
    return Fail({"overlay", std::string("internal error: ") + e.what()});
  }
}

const engine::Result<engine::Catalog>& CurrentCatalog() { return Current(); }

std::string StaleJson(int days, long today) {
  return catalog::DumpJson(catalog::StaleFigures(catalog::EmbeddedFiles(), days, today));
}

std::string ValidationSummaryJson() {
  static const std::string summary =
      catalog::DumpJson(catalog::ValidationSummaryToJson(catalog::SummarizeValidation(catalog::RunValidationCases())));
  return summary;
}

std::string VersionJson() {
  const auto& cat = catalog::Embedded();
  return catalog::DumpJson({{"version", engine::kEngineVersion},
               {"contract", engine::kContractVersion},
               {"catalog_date", cat.ok() ? cat.value().date : ""}});
}

}  // namespace api
