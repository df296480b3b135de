// The engine's main entry point: one scenario in, parameter counts, the per-GPU memory
// breakdown, fits/does-not-fit on the chosen GPU and on every catalog GPU, and warnings out.
#pragma once

#include <string>
#include <vector>

#include "catalog.h"
#include "memory_model.h"
#include "network_effect.h"
#include "bill_of_materials.h"
#include "checklist.h"
#include "claim_check.h"
#include "reliability.h"
#include "time_model.h"
#include "result.h"
#include "scenario.h"

namespace engine {

// Whether the scenario's per-GPU need fits one catalog GPU.
struct GpuFit {
  std::string gpu_id;
  std::string name;
  double capacity_bytes = 0;
  bool fits = false;
};

struct Estimate {
  ModelSpec model;  // as used (a derived shape is shown to the user)
  bool model_derived = false;
  ParamCounts params;
  MemoryBreakdown memory;
  double need_bytes = 0;      // per GPU, all terms
  double capacity_bytes = 0;  // of the chosen GPU
  bool fits = false;
  std::vector<GpuFit> fit_by_gpu;
  Throughput throughput;
  TrainingTime time;
  Reliability reliability;
  BillOfMaterials server;
  ClaimCheck claim;
  std::vector<CheckItem> checklist;
  std::vector<FabricSpeed> network_effect;  // the same plan on every scale-out fabric  // the pre-order questions answered for this plan
  std::vector<Warning> warnings;
};

Result<Estimate> RunEstimate(const Scenario& scenario, const Catalog& catalog);

}  // namespace engine
