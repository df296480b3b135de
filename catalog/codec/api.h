// The one entry point behind both the `trainsizer` CLI and the page's JS API: JSON text
// in, JSON text out. Identical input gives byte-identical output on both.
#pragma once

#include <string>
#include <string_view>

namespace api {

struct Response {
  std::string json;  // result, or {"error": {"field", "message"}}
  bool ok = false;
};

// Estimates memory (and, as the engine grows, time and cost) for a scenario.
Response Estimate(std::string_view scenario_json);

// The embedded catalog as JSON.
std::string CatalogJson();

// {"version": ..., "contract": ..., "catalog_date": ...}
std::string VersionJson();

}  // namespace api
