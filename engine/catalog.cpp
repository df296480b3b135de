#include "catalog.h"

#include <algorithm>

namespace engine {
namespace {

// The entry of `items` whose id (as `id_of` reads it) is `id`, or nullptr.
template <class T, class IdOf>
const T* FindById(const std::vector<T>& items, std::string_view id, IdOf id_of) {
  const auto it = std::find_if(items.begin(), items.end(), [&](const T& x) { return id_of(x) == id; });
  return it == items.end() ? nullptr : &*it;
}

const std::string& Id(const auto& x) { return x.id; }

}  // namespace

const GpuSpec* Catalog::FindGpu(std::string_view id) const { return FindById(gpus, id, Id<GpuSpec>); }
const FabricSpec* Catalog::FindFabric(std::string_view id) const { return FindById(fabrics, id, Id<FabricSpec>); }
const StorageTier* Catalog::FindStorage(std::string_view id) const { return FindById(storage, id, Id<StorageTier>); }
const CloudOffer* Catalog::FindOffer(std::string_view id) const { return FindById(offers, id, Id<CloudOffer>); }
const ServerOption* Catalog::FindServer(std::string_view id) const { return FindById(servers, id, Id<ServerOption>); }
const FacilityFigure* Catalog::FindFacility(std::string_view id) const {
  return FindById(facility, id, Id<FacilityFigure>);
}
const ModelPreset* Catalog::FindModel(std::string_view id) const {
  return FindById(models, id, [](const ModelPreset& m) -> const std::string& { return m.spec.id; });
}

}  // namespace engine
