// Achievable efficiency of the hardware: what fraction of the datasheet peak large
// GEMMs, FlashAttention and memory-bound kernels reach, per chip generation and
// precision, with the size adjustment for small matrices. These are calibrated
// assumptions, stated with their evidence; the page lets a user override the result.
#pragma once

#include <string>

#include "calibration.h"
#include "hardware.h"
#include "message.h"
#include "scenario.h"

namespace engine {

struct Efficiency {
  double gemm = 0;       // of the precision's dense peak, for large GEMMs
  double attention = 0;  // of the bf16 dense peak, fused attention fwd+bwd
  double memory = 0;     // of HBM bandwidth, for elementwise kernels
  Message basis;         // what the numbers rest on
  double gemm_bf16 = 0;  // of the bf16 dense peak: the GEMMs a low-precision recipe keeps in BF16
};

// The efficiencies of `gpu` for `training` under `calibration` (the shipped fit unless a
// validation run refits it), or the user's own measured figures from the catalog.
Efficiency BaseEfficiency(const GpuSpec& gpu, const Training& training,
                          const Calibration& calibration = ShippedCalibration());

// GEMM efficiency falls for narrow matrices: n/(n + 256) with n the per-rank width
// (hidden/tp), from cuBLAS sweeps where 1k-wide GEMMs reach ~80% of the 8k-wide rate.
double GemmSizeFactor(double per_rank_width);

// The shape factor of a layer's weight GEMMs on one tensor-parallel rank of `tp`: each
// GEMM's GemmSizeFactor of its narrower side, averaged by FLOPs (model.md §6.1).
double DenseGemmShapeFactor(const ModelSpec& model, int tp);

// The precision's dense peak in FLOP/s (bf16 for bf16-pure, fp16, fp32 uses TF32 tensor cores).
double PeakFlops(const GpuSpec& gpu, Precision precision);

}  // namespace engine
