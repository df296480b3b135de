// The engine's constants that are fitted to published training runs rather than read off
// a datasheet: how much of the peak each GPU generation's GEMMs and fused attention
// reach, what FP8 keeps of its doubled peak, the idle time between kernels, the share of
// data-parallel traffic hidden behind compute, and the caching allocator's slack.
//
// They are one value, passed to the memory and time models, so that `trainsizer validate`
// can refit them without one source and predict that source with the refit (leave one
// source out: the error a user should expect on a run the engine has never seen). The
// shipped values are the fit on every source (engine/validation/calibration_fit.h);
// calibration_test.cpp fails when they drift from it, so they are never hand-tuned.
#pragma once

#include <array>
#include <cstddef>

#include "hardware.h"

namespace engine {

struct Calibration {
  // Per GPU generation, indexed by GpuArchitecture: the share of the precision's dense
  // peak that large training GEMMs sustain, and of the bf16 peak that fused attention
  // (forward + backward) sustains.
  std::array<double, kArchitectureNames.size()> gemm{};
  std::array<double, kArchitectureNames.size()> attention{};
  double fp8_gemm_factor = 0;           // FP8 GEMMs' share of their doubled peak, relative to bf16's
  double mxfp8_gemm_factor = 0;         // MXFP8 GEMMs' share of the FP8 peak, relative to bf16's share of its own
  double nvfp4_gemm_factor = 0;         // NVFP4 GEMMs' share of the FP4 peak, the same way
  double expert_gemm_factor = 0;        // routed experts' grouped GEMMs, relative to dense GEMMs of their shape
  double launch_overhead_fraction = 0;  // GPU idle time between kernels, per unit of kernel time
  double moe_sync_s = 0;                // GPU idle per MoE layer and forward pass at its host sync
  double dp_overlap = 0;                // share of data-parallel traffic hidden behind backward compute
  double power_exponent = 0;            // compute rate ∝ (power limit / rated power)^this below the rating
  double fragmentation_fraction = 0;    // caching allocator's reserve over what is allocated
  double decode_bandwidth_share = 0;    // post-training rollouts: the HBM bandwidth share decode reaches

  double Gemm(GpuArchitecture a) const { return gemm[static_cast<size_t>(a)]; }
  double Attention(GpuArchitecture a) const { return attention[static_cast<size_t>(a)]; }
};

// The values every estimate uses (calibration.cpp: the fit on every published run, and
// the prior of each value with its evidence).
const Calibration& ShippedCalibration();

// The priors: the values with their published evidence before any fit, where a fit
// starts and what it keeps for a generation without published runs.
const Calibration& PriorCalibration();

}  // namespace engine
