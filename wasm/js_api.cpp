// The page's JavaScript API: thin embind wrappers over the same api:: entry point as the
// CLI. js/post.js turns them into window.TrainSizer (parsed objects, a ready promise).
#include <emscripten/bind.h>

#include <string>

#include "catalog/codec/api.h"
#include "page_state.h"

namespace {

std::string EstimateJson(const std::string& scenario) { return api::Estimate(scenario).json; }
std::string PlanJson(const std::string& scenario) { return api::Plan(scenario).json; }
std::string CatalogJson() { return api::CatalogJson(); }
std::string VersionJson() { return api::VersionJson(); }
std::string SetCatalogOverlayJson(const std::string& overlay) { return api::SetCatalogOverlay(overlay).json; }
std::string LaunchConfigsJson(const std::string& scenario) { return api::LaunchConfigs(scenario).json; }
// The export text, or the error JSON ({"error": ...}) on bad input.
std::string ExportText(const std::string& scenario, const std::string& what, const std::string& format) {
  return api::Export(scenario, what, format).json;
}

}  // namespace

EMSCRIPTEN_BINDINGS(trainsizer) {
  emscripten::function("estimateJson", &EstimateJson);
  emscripten::function("planJson", &PlanJson);
  emscripten::function("catalogJson", &CatalogJson);
  emscripten::function("versionJson", &VersionJson);
  emscripten::function("setCatalogOverlayJson", &SetCatalogOverlayJson);
  emscripten::function("launchConfigsJson", &LaunchConfigsJson);
  emscripten::function("exportText", &ExportText);
  emscripten::function("pageStateJson", &web::PageStateJson);
}
