// How much the scale-out network matters for a plan: the same scenario and layout
// re-timed on every catalog fabric at its usual per-node bandwidth.
#pragma once

#include <string>
#include <vector>

#include "catalog.h"
#include "scenario.h"

namespace engine {

struct FabricSpeed {
  std::string fabric_id;
  LocalText name;
  double node_gbps = 0;
  double tokens_per_s = 0;
  double relative = 0;  // to the scenario's own network
};

// Empty for single-node jobs, where no traffic leaves the node.
std::vector<FabricSpeed> NetworkEffect(const Scenario& scenario, const ParamCounts& params, const GpuSpec& gpu,
                                       const Catalog& catalog, double current_tokens_per_s);

}  // namespace engine
