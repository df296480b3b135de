#include "api.h"

#include <new>

#include "catalog_loader.h"
#include "engine/estimate.h"
#include "engine/version.h"
#include "result_json.h"
#include "scenario_json.h"

namespace api {
namespace {

// Compact, with non-ASCII kept as UTF-8 and invalid UTF-8 replaced rather than thrown on.
std::string Dump(const catalog::Json& j) { return j.dump(-1, ' ', false, catalog::Json::error_handler_t::replace); }

Response Fail(const engine::InputError& error) { return {Dump(catalog::ErrorToJson(error)), false}; }

}  // namespace

Response Estimate(std::string_view scenario_json) {
  try {
    const auto& cat = catalog::Embedded();
    if (!cat.ok()) return Fail(cat.error());
    auto scenario = catalog::ParseScenario(scenario_json, cat.value());
    if (!scenario.ok()) return Fail(scenario.error());
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

std::string CatalogJson() { return catalog::EmbeddedCatalogJson(); }

std::string VersionJson() {
  const auto& cat = catalog::Embedded();
  return Dump({{"version", engine::kEngineVersion},
               {"contract", engine::kContractVersion},
               {"catalog_date", cat.ok() ? cat.value().date : ""}});
}

}  // namespace api
