// What each training stack does unless told otherwise: how it lays out model states, which
// kernels and loss it runs, what its "selective" recomputation keeps, its recomputation
// default and whether it overlaps tensor-parallel traffic. The scenario names the stack
// (`framework`); the physics asks its profile.
#pragma once

#include "scenario.h"

namespace engine {

// How model states are held (model.md §2.1): ZeRO-paper accounting (fsdp), DeepSpeed's
// extra fp32 gradient partition (deepspeed), Megatron's fp32 main gradients (megatron).
enum class StateLayout { kFsdp, kDeepSpeed, kMegatron };

// Weights ZeRO-3 / FSDP keeps gathered from the end of forward to their backward.
enum class KeptGathered { kNone, kHead, kEmbeddingsAndHead };

// What `activation_checkpointing: "selective"` keeps when no recompute_modules are given.
enum class SelectiveKind {
  kCoreAttention,     // Megatron --recompute-granularity selective: core attention only
  kEveryOtherMatmul,  // torchtitan's per-op SAC: every other matmul output and the attention output
};

// Each stack's row names only what differs from these defaults (framework_profile.cpp).
struct FrameworkProfile {
  Framework framework;
  StateLayout unsharded = StateLayout::kFsdp;  // at zero 0
  StateLayout sharded = StateLayout::kFsdp;    // with ZeRO / FSDP sharding (zero ≥ 1)
  Kernels kernels = Kernels::kFused;
  CrossEntropy cross_entropy = CrossEntropy::kStandard;
  Recompute recompute = Recompute::kNone;
  bool activation_offload = false;      // checkpointed layer inputs go to host memory
  bool tp_comm_overlap = false;         // tensor-parallel collectives pipelined with the GEMMs
  bool qlora_fp32_unquantized = false;  // QLoRA: embeddings, LM head and norms upcast to fp32 (PEFT)
  bool qlora_fp32_norms = false;        // QLoRA: the norms stay fp32 unless the 4-bit weights are sharded
  bool fused_optimizer = true;          // AdamW in one kernel rather than torch's multi-pass foreach
  SelectiveKind selective = SelectiveKind::kCoreAttention;
  KeptGathered kept_gathered = KeptGathered::kNone;  // under zero 3: FSDP's root unit stays gathered
  AttentionBackend attention_backend = AttentionBackend::kFlashAttn;  // Transformer Engine stacks: cuDNN
  int max_zero = 3;           // Megatron's distributed optimizer stops at 1; Megatron-FSDP shards all
  const char* source = "";    // where the defaults come from
};

const FrameworkProfile& ProfileOf(Framework framework);

// Stacks on Hugging Face Accelerate, which shard through DeepSpeed or FSDP as the
// scenario's `sharding` says.
bool RunsOnAccelerate(Framework framework);
// Stacks whose tensor parallelism is Megatron-Core's (Megatron-LM, Megatron-FSDP, NeMo).
bool RunsMegatronCore(Framework framework);
// An Accelerate stack told to shard through FSDP (the launch configs' other route).
inline bool ShardsThroughAccelerateFsdp(const Parallelism& p) {
  return RunsOnAccelerate(p.framework) && p.zero >= 1 && p.sharding == Sharding::kFsdp;
}

// Whether this QLoRA run keeps fp32 norms by default: the stack prepares the model with
// PEFT's prepare_model_for_kbit_training, which it skips when ZeRO-3 / FSDP shards the
// 4-bit weights (framework_profile.cpp).
inline bool DefaultQloraFp32Norms(const Scenario& s) {
  return ProfileOf(s.parallel.framework).qlora_fp32_norms && s.parallel.zero < 3;
}

// The state layout this scenario's stack uses at its ZeRO stage.
StateLayout LayoutOf(const Parallelism& parallel);
inline bool IsDeepSpeedLayout(const Parallelism& p) { return LayoutOf(p) == StateLayout::kDeepSpeed; }
inline bool IsFsdpLayout(const Parallelism& p) { return LayoutOf(p) == StateLayout::kFsdp; }

// The stack's defaults for the fields a scenario left out (the JSON reader's fill_default).
void ApplyFrameworkDefaults(Scenario& s);

}  // namespace engine
