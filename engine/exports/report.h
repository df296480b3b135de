// Exports of an estimate and of a plan for people and spreadsheets: CSV (RFC 4180), a
// fixed-width text table and a Markdown report to paste into a wiki. They render the same
// result JSON the CLI and the JS API return, so every export agrees with it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/contract/json_fields.h"

namespace engine::exports {

// One CSV field: quoted when it holds a comma, a quote, CR or LF, with quotes doubled.
std::string CsvField(std::string_view text);

// A Markdown table cell: pipes and backslashes escaped, line breaks flattened.
std::string Cell(const std::string& text);
// Fields joined by commas and ended by CRLF (RFC 4180 §2).
std::string CsvRow(const std::vector<std::string>& fields);

// Estimate result (contract::EstimateToJson) as name,value,unit rows: parameters, every memory term,
// the fit, throughput, time, reliability and cost when present. Header "name,value,unit".
std::string EstimateCsv(const contract::Json& result);
// The same rows as a fixed-width text table.
std::string EstimateTable(const contract::Json& result);
// A Markdown report: the scenario's settings (contract::ScenarioToJson), memory terms, time, cost
// when present, warnings and the pre-order checklist with status.
std::string EstimateMarkdown(const contract::Json& scenario, const contract::Json& result);

// Plan result (contract::PlanToJson): one row per pick, then one per Pareto plan, with a header.
std::string PlanCsv(const contract::Json& plan);

}  // namespace engine::exports
