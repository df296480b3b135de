// The page's JavaScript API: thin embind wrappers over the same engine::service::Session entry points
// as the CLI. js/post.js turns them into window.TrainSizer (parsed objects, a ready promise).
#include <emscripten/bind.h>

#include <string>

#include "engine/service/api.h"
#include "page_session.h"
#include "page_state.h"

// The browser calls the bindings below as plain functions, so the session lives for the
// page's lifetime here; main.cpp hands the same one to the page's AppState.
engine::service::Session& web::PageSession() {
  static engine::service::Session session;
  return session;
}

namespace {

using web::PageSession;

std::string EstimateJson(const std::string& scenario) { return PageSession().Estimate(scenario).json; }
std::string PlanJson(const std::string& scenario) { return PageSession().Plan(scenario).json; }
std::string CatalogJson() { return PageSession().CatalogJson(); }
std::string VersionJson() { return engine::service::VersionJson(); }
std::string SetCatalogOverlayJson(const std::string& overlay) { return PageSession().SetCatalogOverlay(overlay).json; }
std::string LaunchConfigsJson(const std::string& scenario) { return PageSession().LaunchConfigs(scenario).json; }
std::string ImportConfigsJson(const std::string& request) { return PageSession().ImportConfigs(request).json; }
// The export text, or the error JSON ({"error": ...}) on bad input.
std::string ExportText(const std::string& scenario, const std::string& what, const std::string& format) {
  return PageSession().Export(scenario, what, format).json;
}

}  // namespace

EMSCRIPTEN_BINDINGS(trainsizer) {
  emscripten::function("estimateJson", &EstimateJson);
  emscripten::function("planJson", &PlanJson);
  emscripten::function("catalogJson", &CatalogJson);
  emscripten::function("versionJson", &VersionJson);
  emscripten::function("setCatalogOverlayJson", &SetCatalogOverlayJson);
  emscripten::function("launchConfigsJson", &LaunchConfigsJson);
  emscripten::function("importConfigsJson", &ImportConfigsJson);
  emscripten::function("exportText", &ExportText);
  emscripten::function("pageStateJson", &web::PageStateJson);
}
