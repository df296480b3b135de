// The texts a person takes away from an estimate or a plan, written from the engine's typed
// results: JSON with the request and its answer, CSV, a fixed-width table or a Markdown
// report. The CLI's --format, the JS API's exportText (through service::Session::Export) and
// the page's export buttons (with the estimate and plan it already holds) all write these.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "engine/catalog.h"
#include "engine/estimate.h"
#include "engine/planner.h"
#include "engine/scenario.h"

namespace engine::exports {

enum class ExportFormat { kJson, kCsv, kMarkdown, kTable, kProposal };
inline constexpr std::array<std::string_view, 5> kExportFormatNames = {"json", "csv", "markdown", "table", "proposal"};

// `estimate` is RunEstimate's result for `scenario`. json: {"scenario": contract::ScenarioToJson
// (every field, defaults filled in, so the file reads back as the same scenario),
// "result": contract::EstimateToJson}; csv and table: name,value,unit rows; markdown: the report
// with the scenario's settings, memory terms, time, warnings and the checklist.
std::string EstimateExportText(const engine::Scenario& scenario, const engine::Estimate& estimate,
                               ExportFormat format);

// `plan` is RunPlan's result for `scenario` within `constraints`. json: as the estimate's
// with contract::PlanToJson as "result" and also "constraints" (contract::ConstraintsToJson), the fields the
// planner searched within; csv, table and markdown render the same plans; proposal is the
// printable proposal (proposal.h). An estimate's proposal is its Markdown report.
std::string PlanExportText(const engine::Scenario& scenario, const engine::PlanConstraints& constraints,
                           const engine::PlanResult& plan, const engine::Catalog& catalog, ExportFormat format);

}  // namespace engine::exports
