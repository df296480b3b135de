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

// Compact, with non-ASCII kept as UTF-8 and invalid UTF-8 replaced rather than thrown on.
std::string Dump(const catalog::Json& j) { return j.dump(-1, ' ', false, catalog::Json::error_handler_t::replace); }

Response Fail(const engine::InputError& error) { return {Dump(catalog::ErrorToJson(error)), false}; }

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

}  // namespace

Response Estimate(std::string_view scenario_json) {
  try {
    const auto& cat = Current();
    if (!cat.ok()) return Fail(cat.error());
    const auto doc = catalog::ParseScenarioDocument(scenario_json);
    if (!doc.ok()) return Fail(doc.error());
    auto scenario = catalog::ScenarioFromJson(doc.value(), cat.value());
    if (!scenario.ok()) return Fail(scenario.error());
    // The planner's fields are part of the same scenario: a bad one is an error here too,
    // not something only `plan` notices.
    auto constraints = catalog::ConstraintsFromJson(doc.value());
    if (!constraints.ok()) return Fail(constraints.error());
    if (auto error = CheckConstraints(doc.value(), scenario.value(), constraints.value(), cat.value())) {
      return Fail(*error);
    }
    auto estimate = engine::RunEstimate(scenario.value(), cat.value());
    if (!estimate.ok()) return Fail(estimate.error());
    return {Dump(catalog::EstimateToJson(estimate.value())), true};
  } catch (const std::bad_alloc&) {
    return Fail({"scenario", "is too large to process"});
  } catch (const std::exception& e) {
    // A JSON library or standard-library exception is a bug, but the caller still gets
    // an error object instead of a dead process or WASM runtime.
    return Fail({"scenario", std::string("internal error: ") + e.what()});
  }
}

Response Plan(std::string_view scenario_json) {
  try {
    const auto& cat = Current();
    if (!cat.ok()) return Fail(cat.error());
    const auto parsed = catalog::ParseScenarioDocument(scenario_json);
    if (!parsed.ok()) return Fail(parsed.error());
    const catalog::Json& doc = parsed.value();
    auto scenario = catalog::ScenarioFromJson(doc, cat.value());
    if (!scenario.ok()) return Fail(scenario.error());
    auto constraints = catalog::ConstraintsFromJson(doc);
    if (!constraints.ok()) return Fail(constraints.error());
    if (auto error = CheckConstraints(doc, scenario.value(), constraints.value(), cat.value())) return Fail(*error);
    auto plan = engine::RunPlan(scenario.value(), constraints.value(), cat.value());
    if (!plan.ok()) return Fail(plan.error());
    return {Dump(catalog::PlanToJson(plan.value(), constraints.value(), cat.value(), scenario.value())), true};
  } catch (const std::bad_alloc&) {
    return Fail({"scenario", "is too large to process"});
  } catch (const std::exception& e) {
    return Fail({"scenario", std::string("internal error: ") + e.what()});
  }
}

Response LaunchConfigs(std::string_view scenario_json) {
  try {
    // The estimate's own checks, so that bad input gives exactly its error.
    if (Response checked = Estimate(scenario_json); !checked.ok) return checked;
    const engine::Catalog& cat = Current().value();
    auto scenario = catalog::ParseScenario(scenario_json, cat);
    if (!scenario.ok()) return Fail(scenario.error());
    const engine::Scenario& s = scenario.value();
    const engine::ModelPreset* preset = s.model_derived ? nullptr : cat.FindModel(s.model.id);
    return {Dump(catalog::LaunchConfigsToJson(s, preset ? preset->hf_repo : "")), true};
  } catch (const std::bad_alloc&) {
    return Fail({"scenario", "is too large to process"});
  } catch (const std::exception& e) {
    return Fail({"scenario", std::string("internal error: ") + e.what()});
  }
}

namespace {

std::string RenderEstimate(std::string_view scenario_json, const catalog::Json& result, std::string_view format) {
  if (format == "csv") return catalog::EstimateCsv(result);
  if (format == "table") return catalog::EstimateTable(result);
  // The Markdown summary lists the scenario's settings with defaults filled in; the
  // scenario already parsed once for the estimate, so this cannot fail.
  auto scenario = catalog::ParseScenario(scenario_json, Current().value());
  return catalog::EstimateMarkdown(catalog::ScenarioToJson(scenario.value()), result);
}

std::string RenderPlan(const catalog::Json& plan, std::string_view format) {
  if (format == "csv") return catalog::PlanCsv(plan);
  return format == "table" ? catalog::PlanTable(plan) : catalog::PlanMarkdown(plan);
}

}  // namespace

Response Export(std::string_view scenario_json, std::string_view what, std::string_view format) {
  if (what != "estimate" && what != "plan") return Fail({"what", "must be estimate or plan"});
  if (format != "json" && format != "csv" && format != "markdown" && format != "table") {
    return Fail({"format", "must be json, csv, markdown or table"});
  }
  const Response response = what == "estimate" ? Estimate(scenario_json) : Plan(scenario_json);
  if (!response.ok || format == "json") return response;
  try {
    const catalog::Json result = catalog::Json::parse(response.json);
    return {what == "estimate" ? RenderEstimate(scenario_json, result, format) : RenderPlan(result, format), true};
  } catch (const std::exception& e) {
    return Fail({"scenario", std::string("internal error: ") + e.what()});
  }
}

std::string CatalogJson() {
  if (Active().overlay_text.empty()) return catalog::EmbeddedCatalogJson();
  catalog::Json all = catalog::Json::parse(catalog::EmbeddedCatalogJson());
  all["overlay"] = catalog::Json::parse(Active().overlay_text, nullptr, false);
  return all.dump(2);
}

Response SetCatalogOverlay(std::string_view overlay_json) {
  try {
    if (overlay_json.empty()) {
      Active() = {};
      return {Dump({{"ok", true}, {"overlay", false}}), true};
    }
    const auto& embedded = catalog::Embedded();
    if (!embedded.ok()) return Fail(embedded.error());
    auto merged = catalog::ApplyOverlay(embedded.value(), overlay_json, "overlay");
    if (!merged.ok()) return Fail(merged.error());
    const engine::Catalog& c = merged.value();
    const catalog::Json counts = {{"ok", true}, {"overlay", true}, {"gpus", c.gpus.size()}, {"models", c.models.size()},
                                  {"offers", c.offers.size()}, {"servers", c.servers.size()}};
    Active() = {std::move(merged), std::string(overlay_json)};
    return {Dump(counts), true};
  } catch (const std::exception& e) {
    return Fail({"overlay", std::string("internal error: ") + e.what()});
  }
}

const engine::Result<engine::Catalog>& CurrentCatalog() { return Current(); }

std::string StaleJson(int days, long today) {
  return Dump(catalog::StaleFigures(catalog::EmbeddedFiles(), days, today));
}

std::string ValidationSummaryJson() {
  static const std::string summary =
      Dump(catalog::ValidationSummaryToJson(catalog::SummarizeValidation(catalog::RunValidationCases())));
  return summary;
}

std::string VersionJson() {
  const auto& cat = catalog::Embedded();
  return Dump({{"version", engine::kEngineVersion},
               {"contract", engine::kContractVersion},
               {"catalog_date", cat.ok() ? cat.value().date : ""}});
}

}  // namespace api
