#include "export_text.h"

#include "json_fields.h"
#include "plan_json.h"
#include "report.h"
#include "result_json.h"
#include "scenario_json.h"

namespace catalog {

std::string EstimateExportText(const engine::Scenario& scenario, const engine::Estimate& estimate,
                               ExportFormat format) {
  const Json result = EstimateToJson(estimate);
  switch (format) {
    case ExportFormat::kJson: return DumpJson({{"scenario", ScenarioToJson(scenario)}, {"result", result}});
    case ExportFormat::kCsv: return EstimateCsv(result);
    case ExportFormat::kTable: return EstimateTable(result);
    case ExportFormat::kMarkdown: return EstimateMarkdown(ScenarioToJson(scenario), result);
  }
  return "";
}

std::string PlanExportText(const engine::Scenario& scenario, const engine::PlanConstraints& constraints,
                           const engine::PlanResult& plan, const engine::Catalog& catalog, ExportFormat format) {
  const Json result = PlanToJson(plan, constraints, catalog, scenario);
  switch (format) {
    case ExportFormat::kJson:
      return DumpJson({{"scenario", ScenarioToJson(scenario)},
                       {"result", result},
                       {"constraints", ConstraintsToJson(constraints)}});
    case ExportFormat::kCsv: return PlanCsv(result);
    case ExportFormat::kTable: return PlanTable(result);
    case ExportFormat::kMarkdown: return PlanMarkdown(result);
  }
  return "";
}

}  // namespace catalog
