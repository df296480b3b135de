// The one entry point behind both the `trainsizer` CLI and the page's JS API: JSON text
// in, JSON text out. Identical input gives byte-identical output on both. A Session holds
// the catalog the calls use (the embedded one, or it merged with a user's overlay); the
// CLI makes one per run, the page one that its JS API and its own overlay editor share.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/catalog.h"
#include "engine/result.h"

namespace engine::service {

struct Response {
  std::string json;  // result, or {"error": {"field", "code", "args", "message"}}
  bool ok = false;
  engine::InputError error;  // when !ok: the error `json` holds, for a caller in C++ (the page)
};

class Session {
 public:
  // A session on the embedded catalog, without an overlay.
  Session() = default;

  // The catalog every call uses now: the embedded one, or it merged with the overlay.
  // The reference stays valid for at least kRetiredCatalogs more SetCatalogOverlay calls
  // (see retired_). An error only when the embedded catalog did not load (a build bug).
  const engine::Result<engine::Catalog>& catalog_or_error() const;
  // The same, for callers that know it loaded (the page starts only if it did).
  const engine::Catalog& catalog() const { return catalog_or_error().value(); }

  // Merges a user's catalog overlay (negotiated prices, a GPU or cloud not in the catalog)
  // into the catalog every later call uses; empty text removes it. On error the previous
  // catalog stays in force and the error names the entry and field.
  Response SetCatalogOverlay(std::string_view overlay_json);

  // Estimates memory, time and cost for a scenario.
  Response Estimate(std::string_view scenario_json) const;

  // Plans hardware for a scenario with constraints: the Pareto front of wall time and
  // cost, labelled picks and the reasons other GPUs were rejected.
  Response Plan(std::string_view scenario_json) const;

  // Ready-to-run launch configs for a scenario (exports::LaunchConfigsToJson: the four
  // tool texts, "notes" and the batch "plan"). Bad input gives the same error as Estimate.
  Response LaunchConfigs(std::string_view scenario_json) const;

  // An estimate or a plan (`what`: estimate | plan) as json, csv, markdown or table
  // (`format`). On success `json` holds the text in that format, as
  // engine/exports/export_text.h writes it; on error the error JSON.
  Response Export(std::string_view scenario_json, std::string_view what, std::string_view format) const;

  // Reads a team's own configs into a scenario (imports::ImportConfigs): `request_json` is
  // {"files": [{"name", "text"}] | "text": "...", "from": tool name (default auto),
  // "base": the scenario the import lands on}. The result is imports::ConfigImportToJson's.
  Response ImportConfigs(std::string_view request_json) const;

  // The embedded catalog as JSON (with the overlay in force, if any, under "overlay").
  std::string CatalogJson() const;

 private:
  using CatalogPtr = std::shared_ptr<const engine::Result<engine::Catalog>>;
  // The page's results point into the catalog they were computed with until its next
  // frame adopts the new one, and JavaScript may swap catalogs several times before that
  // frame (setCatalogOverlay, then current()): the catalogs replaced last stay alive.
  static constexpr size_t kRetiredCatalogs = 8;

  void Replace(CatalogPtr next);

  CatalogPtr merged_;  // null: the embedded catalog
  std::deque<CatalogPtr> retired_;
  std::string overlay_text_;
};

// Catalog figures older than `days` as of `today` (days since 1970-01-01).
std::string StaleJson(int days, long today);

// {"version": ..., "contract": ..., "catalog_date": ...}
std::string VersionJson();

// How close the estimate came to published training runs (catalog/validation/):
// {"memory": {"cases", "median_abs_error", "worst_abs_error", "asserted_only": {...},
// "by_method": {"full": {"cases", "median_abs_error", "worst_abs_error"}, ...}},
// "throughput": {...}, "fits_under": {"cases", "held"}, "asserted", "within_tolerance"};
// errors are relative (0.08 = 8%). Against the embedded catalog
// (validation::EmbeddedValidationSummary).
std::string ValidationSummaryJson();

}  // namespace engine::service
