// The whole server around the GPUs for a chosen layout: nodes, CPU cores, host RAM,
// local NVMe, shared storage, NICs and power, each line with the reason behind it.
#pragma once

#include <string>
#include <vector>

#include "hardware.h"
#include "memory_model.h"
#include "message.h"
#include "reliability.h"
#include "scenario.h"

namespace engine {

struct BomLine {
  Message item;          // "Host RAM per node" (bom.<line>.item)
  double quantity = 0;   // in `unit`
  Message unit;          // "GiB", "cores", "TB", "kW", ... (unit.<name>)
  Message why;           // the reasoning with its numbers (bom.<line>.why)
};

struct BillOfMaterials {
  int nodes = 0;
  std::vector<BomLine> lines;
  double node_power_w = 0;
  double total_power_w = 0;
  double ram_rule_of_thumb_bytes = 0;  // the seed's "RAM ≥ 2× total GPU memory", per node
  double ram_needed_bytes = 0;         // computed need per node
};

BillOfMaterials BuildBillOfMaterials(const Scenario& scenario, const GpuSpec& gpu, const FabricSpec& fabric,
                                     const MemoryBreakdown& memory, const Reliability& reliability);

}  // namespace engine
