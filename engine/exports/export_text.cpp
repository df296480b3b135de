#include "engine/exports/export_text.h"

#include "engine/contract/json_fields.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/exports/proposal.h"
#include "engine/exports/report.h"

namespace engine::exports {

std::string EstimateExportText(const engine::Scenario& scenario, const engine::Estimate& estimate,
                               ExportFormat format) {
  const contract::Json result = contract::EstimateToJson(estimate);
  switch (format) {
    case ExportFormat::kJson: return contract::DumpJson({{"scenario", contract::ScenarioToJson(scenario)}, {"result", result}});
    case ExportFormat::kCsv: return EstimateCsv(result);
    case ExportFormat::kTable: return EstimateTable(result);
    case ExportFormat::kMarkdown:
    case ExportFormat::kProposal: return EstimateMarkdown(contract::ScenarioToJson(scenario), result);
  }
  return "";
}

std::string PlanExportText(const engine::Scenario& scenario, const engine::PlanConstraints& constraints,
                           const engine::PlanResult& plan, const engine::Catalog& catalog, ExportFormat format) {
  const contract::Json result = contract::PlanToJson(plan, constraints, catalog, scenario);
  switch (format) {
    case ExportFormat::kJson:
      return contract::DumpJson({{"scenario", contract::ScenarioToJson(scenario)},
                       {"result", result},
                       {"constraints", contract::ConstraintsToJson(constraints)}});
    case ExportFormat::kCsv: return PlanCsv(result);
    case ExportFormat::kTable: return contract::PlanTable(result);
    case ExportFormat::kMarkdown: return contract::PlanMarkdown(result);
    case ExportFormat::kProposal: return PlanProposal(scenario, constraints, plan, catalog);
  }
  return "";
}

}  // namespace engine::exports
