#include "catalog.h"

namespace engine {

const GpuSpec* Catalog::FindGpu(std::string_view id) const {
  for (const GpuSpec& g : gpus) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

const ModelPreset* Catalog::FindModel(std::string_view id) const {
  for (const ModelPreset& m : models) {
    if (m.spec.id == id) return &m;
  }
  return nullptr;
}

const FabricSpec* Catalog::FindFabric(std::string_view id) const {
  for (const FabricSpec& f : fabrics) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

const FacilityFigure* Catalog::FindFacility(std::string_view id) const {
  for (const FacilityFigure& f : facility) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

const StorageTier* Catalog::FindStorage(std::string_view id) const {
  for (const StorageTier& t : storage) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

}  // namespace engine
