// Build step: validates the embedded catalog with the program's own loader and fails the
// build (exit 1) with the file, entry and field of the first problem.
#include <cstdio>

#include "catalog/codec/catalog_loader.h"

int main() {
  const auto& catalog = catalog::Embedded();
  if (!catalog.ok()) {
    std::fprintf(stderr, "catalog error: %s: %s\n", catalog.error().field.c_str(), catalog.error().message.c_str());
    return 1;
  }
  std::printf("catalog ok: %zu GPUs, %zu model presets (compiled %s)\n", catalog.value().gpus.size(),
              catalog.value().models.size(), catalog.value().date.c_str());
  return 0;
}
