// Step time and throughput: compute at an achievable efficiency, plus exposed tensor-,
// data-, expert- and context-parallel communication, the pipeline bubble, and
// memory-bound work (elementwise kernels, optimizer step, CPU offload, QLoRA
// dequantization). Then wall time for the scenario's tokens.
#pragma once

#include <string>

#include "calibration.h"
#include "flops.h"
#include "hardware.h"
#include "memory_model.h"
#include "message.h"
#include "scenario.h"

namespace engine {

struct StepBreakdown {
  double compute_s = 0;    // GEMMs, attention and elementwise kernels of all micro-batches
  double tp_comm_s = 0;    // tensor-parallel collectives (exposed)
  double dp_comm_s = 0;    // data-parallel / ZeRO / FSDP traffic left after overlap
  double pp_bubble_s = 0;  // pipeline fill and drain
  double other_s = 0;      // optimizer step, offload transfers, dequantization, EP/CP, P2P
  // Post-training: generation, other roles' passes and weight sync around the policy's
  // update (the terms above); Throughput::post splits it.
  double rollout_s = 0;
};

struct Throughput {
  FlopsPerToken flops_per_token;
  double step_time_s = 0;
  double tokens_per_step = 0;
  int global_batch = 0;             // sequences per step: the scenario's or its method's default
  int micro_batches_per_step = 0;   // on each data-parallel rank (gradient accumulation)
  bool global_batch_default = false;  // the scenario gave none
  double tokens_per_s = 0;
  double tokens_per_s_per_gpu = 0;
  double mfu = 0;  // model FLOPs / (GPUs × dense bf16 peak): "BF16-equivalent" for FP8
  double hfu = 0;  // hardware FLOPs / the same peak
  bool mfu_overridden = false;
  StepBreakdown breakdown;
  double scale_up_busbw_bytes_per_s = 0;   // intra-node collective bandwidth used
  double scale_out_busbw_bytes_per_s = 0;  // per-GPU inter-node collective bandwidth used
  Message explain;  // the main formula with its numbers
  PostTrainingStep post;  // post-training's phases; zero otherwise
};

struct TrainingTime {
  double tokens = 0;  // 0 = not given: only rates are known
  double steps = 0;
  double wall_hours = 0;
  double gpu_hours = 0;
};

// With `explain` false the explanation text is left empty (the planner's fast path).
// `calibration`: the shipped fit, or a validation run's refit (calibration.h).
Throughput EstimateThroughput(const Scenario& scenario, const ParamCounts& params, const GpuSpec& gpu,
                              const FabricSpec& fabric, bool explain = true,
                              const Calibration& calibration = ShippedCalibration());

TrainingTime EstimateTime(const Scenario& scenario, const Throughput& throughput);
// The wall time rule, used by the estimate and by the planner for each layout it tries:
// whole steps of `throughput.tokens_per_step` until `tokens` are seen (model.md §7.4).
TrainingTime TimeForTokens(double tokens, const Throughput& throughput, int gpus);

}  // namespace engine
