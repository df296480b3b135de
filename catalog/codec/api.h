// The one entry point behind both the `trainsizer` CLI and the page's JS API: JSON text
// in, JSON text out. Identical input gives byte-identical output on both.
#pragma once

#include <string>
#include <string_view>

#include "engine/catalog.h"
#include "engine/result.h"

namespace api {

struct Response {
  std::string json;  // result, or {"error": {"field", "message"}}
  bool ok = false;
};

// Estimates memory (and, as the engine grows, time and cost) for a scenario.
Response Estimate(std::string_view scenario_json);

// Plans hardware for a scenario with constraints: the Pareto front of wall time and
// cost, labelled picks and the reasons other GPUs were rejected.
Response Plan(std::string_view scenario_json);

// Ready-to-run launch configs for a scenario: {"deepspeed": JSON text, "torchrun": shell
// text, "llamafactory": YAML text, "megatron": shell text, "notes": [{"tool", "note"}]
// (settings a tool cannot express), "plan": {nodes, procs_per_node, data_parallel,
// micro_batch, global_batch, grad_accum_steps, train_steps}}. Bad input gives the same
// error as Estimate.
Response LaunchConfigs(std::string_view scenario_json);

// An estimate or a plan (`what`: estimate | plan) as json, csv, markdown or table
// (`format`). On success `json` holds the text in that format; on error the error JSON.
// The json export is {"scenario": ScenarioToJson (every field, defaults filled in),
// "result": Estimate's or Plan's output}, and for a plan also "constraints"
// (ConstraintsToJson): the request and its answer in one file.
Response Export(std::string_view scenario_json, std::string_view what, std::string_view format);

// The embedded catalog as JSON (with the active overlay, if any, under "overlay").
std::string CatalogJson();

// Merges a user's catalog overlay (negotiated prices, a GPU or cloud not in the catalog)
// into the catalog every later call uses; empty text removes it. On error the previous
// catalog stays in force and the error names the entry and field.
Response SetCatalogOverlay(std::string_view overlay_json);

// The catalog every call uses now: the embedded one, or it merged with the overlay.
// The reference stays valid until the next SetCatalogOverlay.
const engine::Result<engine::Catalog>& CurrentCatalog();

// Catalog figures older than `days` as of `today` (days since 1970-01-01).
std::string StaleJson(int days, long today);

// {"version": ..., "contract": ..., "catalog_date": ...}
std::string VersionJson();

// How close the estimate came to published training runs (catalog/validation/):
// {"memory": {"cases", "median_abs_error", "worst_abs_error", "asserted_only": {...},
// "by_method": {"full": {"cases", "median_abs_error", "worst_abs_error"}, ...}},
// "throughput": {...}, "fits_under": {"cases", "held"}, "asserted", "within_tolerance"};
// errors are relative (0.08 = 8%). Computed once, against the embedded catalog.
std::string ValidationSummaryJson();

}  // namespace api
