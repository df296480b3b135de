// Per-GPU memory of a training step, term by term: weights, gradients, optimizer states,
// activations, logits and overheads, for every method, precision, optimizer, ZeRO stage,
// parallel layout and offload. The most loaded GPU is reported (the first pipeline stage,
// which also holds the input embedding and the most in-flight micro-batches).
#pragma once

#include <string>
#include <vector>

#include "calibration.h"
#include "message.h"
#include "model_spec.h"
#include "post_training_result.h"
#include "scenario.h"

namespace engine {

// One term of the breakdown with the formula and source that produced it, so the UI and
// the JSON result can say why.
struct MemoryTerm {
  double bytes = 0;
  Message formula;  // the expression with its numbers, e.g. "8.03e9 trainable × 2 B"
  Message source;   // paper/code the formula comes from
};

// The overhead term's parts: outside PyTorch's allocator (context, NCCL) or inside it.
struct OverheadParts {
  double cuda_context_bytes = 0;   // driver context and kernel images (not in torch counters)
  double nccl_bytes = 0;           // communicator buffers (not in torch counters)
  double gathered_bytes = 0;       // ZeRO-3/FSDP gathered units (allocated)
  double bucket_bytes = 0;         // DDP / DeepSpeed ZeRO-1/2 gradient communication buckets (allocated)
  bool deepspeed_buckets = false;  // which framework's buckets, for the explanation
  double fragmentation_bytes = 0;  // reserved but not allocated
};

struct MemoryBreakdown {
  MemoryTerm weights;
  MemoryTerm gradients;
  MemoryTerm optimizer;    // optimizer moments + fp32 master weights
  MemoryTerm activations;  // stored for backward, all in-flight micro-batches
  MemoryTerm logits;       // output logits and cross-entropy buffers (last stage)
  MemoryTerm overhead;     // CUDA context, NCCL, ZeRO-3 gather buffers, fragmentation
  MemoryTerm cpu_ram;      // state offloaded to host RAM, per GPU
  // Post-training: the roles beside the policy and the rollout engine's turn, beyond the
  // policy's own terms above (which are its update's); zero otherwise.
  MemoryTerm roles;
  PostTrainingMemory post;
  OverheadParts overhead_parts;
  double trainable_params = 0;

  // What torch.cuda.max_memory_allocated would report, and max_memory_reserved.
  double AllocatedBytes() const { return GpuBytes() - OutsideAllocatorBytes() - overhead_parts.fragmentation_bytes; }
  double ReservedBytes() const { return GpuBytes() - OutsideAllocatorBytes(); }
  double OutsideAllocatorBytes() const { return overhead_parts.cuda_context_bytes + overhead_parts.nccl_bytes; }

  double GpuBytes() const {
    return weights.bytes + gradients.bytes + optimizer.bytes + activations.bytes + logits.bytes +
           overhead.bytes + roles.bytes;
  }
};

// Activation bytes one micro-batch leaves stored on a stage's layers, as recomputation
// runs it: what activation offload copies to host memory and back per micro-batch.
double StoredActivationBytesPerMicroBatch(const Scenario& scenario);

// A vision-language model's tower activations on the GPU that runs it (the first pipeline
// stage), part of the activations term; 0 without media.
double VisionActivationBytesOnGpu(const Scenario& scenario);

// Estimates the per-GPU memory of `scenario` (validated beforehand). With `explain`
// false the formula and source texts are left empty (the planner's fast path).
// `gpu_memory_bytes`, the GPU's capacity, sizes a post-training rollout engine's
// reservation; 0 = unknown (it takes what the step needs).
MemoryBreakdown EstimateMemory(const Scenario& scenario, const ParamCounts& params, bool explain = true,
                               const Calibration& calibration = ShippedCalibration(), double gpu_memory_bytes = 0);

// Trainable parameters for the method (LoRA adapters and the modules trained beside
// them, top layers for freeze, or all).
double TrainableParams(const ModelSpec& model, const ParamCounts& params, const Training& training);

// The language model's part of TrainableParams (none when freeze_llm holds it frozen).
double LanguageTrainableParams(const ModelSpec& model, const ParamCounts& params, const Training& training);

// Bytes of frozen weights one GPU holds before ZeRO sharding, at their stored width (bf16,
// NF4 under QLoRA, a quantized checkpoint's own width); what ZeRO-3 / FSDP gathers for
// them on every pass.
double FrozenWeightBytesOnGpu(const Scenario& scenario, const ParamCounts& params);

// The parameters of the whole modules trained beside LoRA adapters (lora_modules_to_save),
// part of TrainableParams; and which of the two copies are trained.
double SavedModuleParams(const ModelSpec& model, const Training& training);
bool TrainsEmbeddingCopy(const Training& training);
bool TrainsHeadCopy(const Training& training);

}  // namespace engine
