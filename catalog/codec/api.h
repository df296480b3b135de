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

}  // namespace api
