#include "network_effect.h"

#include "time_model.h"

namespace engine {

std::vector<FabricSpeed> NetworkEffect(const Scenario& s, const ParamCounts& c, const GpuSpec& gpu,
                                       const Catalog& catalog, double current) {
  std::vector<FabricSpeed> out;
  if (s.parallel.Nodes() <= 1 || current <= 0) return out;
  for (const FabricSpec& f : catalog.fabrics) {
    if (!f.scale_out) continue;
    Scenario alt = s;
    alt.parallel.network = f.id;
    alt.parallel.node_gbps = 0;  // the fabric's usual node bandwidth
    const double tps = EstimateThroughput(alt, c, gpu, f, /*explain=*/false).tokens_per_s;
    out.push_back({f.id, f.name, f.default_node_bytes_per_s * 8 / 1e9, tps, tps / current});
  }
  return out;
}

}  // namespace engine
