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
#include "estimate_costs.h"
#include "fit_options.h"
#include "reliability.h"
#include "startup.h"
#include "time_model.h"
#include "result.h"
#include "scenario.h"
#include "vision.h"

namespace engine {

// Whether the scenario's per-GPU need fits one catalog GPU.
struct GpuFit {
  std::string gpu_id;
  std::string name;
  double capacity_bytes = 0;
  bool fits = false;
  double need_bytes = 0;  // per GPU on this GPU (post-training's rollout engine sizes to each GPU's memory)
};

struct Estimate {
  ModelSpec model;  // as used (a derived shape is shown to the user)
  bool model_derived = false;
  ParamCounts params;
  // The trained sequence's text and media parts (a vision-language model's images and
  // video), and the tower's share of the step.
  SampleSequence sequence;
  double vision_activation_bytes = 0;
  VisionFlops vision_flops;
  MemoryBreakdown memory;
  double need_bytes = 0;      // per GPU, all terms
  double capacity_bytes = 0;  // of the chosen GPU
  bool fits = false;
  std::vector<GpuFit> fit_by_gpu;
  std::vector<FitOption> fit_options;  // when it does not fit: what would make it
  Throughput throughput;
  TrainingTime time;
  Reliability reliability;
  StartupTeardown startup;  // on a cloud node started for the job; in the cost's hours
  BillOfMaterials server;
  ClaimCheck claim;
  EstimateCosts costs;  // renting, owning, rent vs buy and storage, in the basis' currency
  std::vector<CheckItem> checklist;  // the pre-order questions answered for this plan
  std::vector<FabricSpeed> network_effect;  // the same plan on every scale-out fabric
  std::vector<Warning> warnings;
};

// `basis` (the plan goal's currency and owned-hardware utilization) prices the costs;
// nothing else depends on it.
Result<Estimate> RunEstimate(const Scenario& scenario, const Catalog& catalog, const CostBasis& basis = {});

}  // namespace engine
