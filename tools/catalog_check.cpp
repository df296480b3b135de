// Build step: validates the embedded catalog with the program's own loader and fails the
// build (exit 1) with the file, entry and field of the first problem. It also runs the
// published validation cases once, so a case the engine cannot run (in either build:
// this step runs natively and, for the page, under Node) fails the build, not the page.
#include <cstdio>
#include <exception>

#include "catalog/catalog_loader.h"
#include "engine/service/api.h"

int main() {
  const auto& catalog = catalog::Embedded();
  if (!catalog.ok()) {
    std::fprintf(stderr, "catalog error: %s: %s\n", catalog.error().field.c_str(), catalog.error().message.c_str());
    return 1;
  }
  std::printf("catalog ok: %zu GPUs, %zu model presets (compiled %s)\n", catalog.value().gpus.size(),
              catalog.value().models.size(), catalog.value().date.c_str());
  try {
    const std::string summary = engine::service::ValidationSummaryJson();
    std::printf("validation cases ok (%zu bytes of summary)\n", summary.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "validation cases: %s\n", e.what());
    return 1;
  }
  return 0;
}
