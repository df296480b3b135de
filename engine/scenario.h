// The scenario: what the user wants to train and on what. This is the engine's input,
// filled by the codec from JSON (CLI, JS API, URL) or by the UI. Every field has a default
// except the model; scenario_check.h validates ranges and consistency.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <vector>

#include "media_setup.h"
#include "model_spec.h"
#include "post_training_setup.h"
#include "result.h"

namespace engine {

enum class Method { kPretrain, kFull, kFreeze, kLora, kQlora };
// LoRA and QLoRA train adapters on frozen base weights.
inline bool TrainsAdapters(Method m) { return m == Method::kLora || m == Method::kQlora; }
// bf16/fp16: mixed precision with fp32 master weights; bf16-pure: everything in bf16 with
// no fp32 copy (torchtune's and LitGPT's "bf16-true"); fp8: Transformer Engine GEMMs.
// fp8: per-tensor scaled FP8 (Transformer Engine delayed or current scaling, torchao
// tensorwise). mxfp8 / nvfp4: Blackwell's block-scaled formats (OCP MX: an 8-bit scale per
// 32 values; NVFP4: an FP8 scale per 16 4-bit values plus a per-tensor FP32 scale).
enum class Precision { kBf16, kFp16, kFp32, kFp8, kBf16Pure, kMxfp8, kNvfp4 };
// The training stack: its profile (framework_profile.h) sets how model states are laid
// out (ZeRO-paper accounting, DeepSpeed's fp32 gradient partition, Megatron's fp32 main
// gradients and distributed optimizer) and what it does by default (kernels, loss,
// recomputation). The first three are the bare layouts; the rest are stacks built on them.
enum class Framework {
  kFsdp, kDeepSpeed, kMegatron, kTorchtitan, kMegatronFsdp, kNemoAutomodel,
  kHfTrainer, kTrl, kLlamaFactory, kAxolotl, kTorchtune, kUnsloth, kNemo, kMaxtext,
};
enum class Optimizer { kAdamW, kAdamW8bit, kSgd, kAdafactor };
enum class Recompute { kNone, kSelective, kFull };
enum class Offload { kNone, kOptimizer, kOptimizerAndParams };
// Which sharding engine a stack built on Hugging Face Accelerate (Trainer, TRL,
// LLaMA-Factory, axolotl) runs at ZeRO >= 1: both are a config file away.
enum class Sharding { kDeepSpeed, kFsdp };
// qv = the LoRA paper's and PEFT's default (W_q, W_v); attention = q,k,v,o; all-linear
// adds the MLP matrices (QLoRA paper §4: needed to match full fine-tuning).
enum class LoraTargets { kAttention, kAllLinear, kQv };
// Whole modules trained beside the adapters (PEFT modules_to_save, LLaMA-Factory
// additional_target, axolotl lora_modules_to_save): usually the input embeddings and the
// LM head, when a chat template adds tokens. PEFT trains a copy and keeps the original.
enum class SavedModules { kNone, kEmbeddings, kHead, kEmbeddingsAndHead };
// fused = fused SwiGLU/RMSNorm kernels (Megatron, Transformer Engine, Liger, compiled
// code); eager = plain PyTorch modules (Hugging Face Transformers, LitGPT, torchtune
// without compile), which save SiLU(gate) separately and an fp32 copy in every RMSNorm.
enum class Kernels { kFused, kEager };
// How the loss is computed over the vocabulary: standard = bf16 logits + one fp32 copy
// (Megatron/torchtitan style); eager = Hugging Face Transformers' fp32 upcast plus fp32
// log-softmax kept for backward; chunked = torchtune/Liger-style chunks of the output.
enum class CrossEntropy { kStandard, kEager, kChunked };
// Which fused-attention kernels run: flash-attn (FlashAttention-2 through the flash-attn
// package or PyTorch SDPA) or cuDNN's fused attention (Transformer Engine's first choice
// on Hopper and Blackwell).
enum class AttentionBackend { kFlashAttn, kCudnn };

// Vocabulary shared by JSON, URL and UI: index = enum value.
inline constexpr std::array<std::string_view, 5> kMethodNames = {"pretrain", "full", "freeze", "lora", "qlora"};
// The contract's "method": the update kinds, then the post-training methods (index 5 on
// = PostTraining 1 on), whose policy update is "policy_update".
inline constexpr std::array<std::string_view, 11> kTrainingMethodNames = {
    "pretrain", "full", "freeze", "lora", "qlora", "dpo", "orpo", "simpo", "kto", "ppo", "grpo"};
inline constexpr int kFirstPostTrainingMethod = 5;
// The updates a post-training policy takes.
inline constexpr std::array<std::string_view, 3> kPolicyUpdateNames = {"full", "lora", "qlora"};
inline constexpr std::array<std::string_view, 7> kPrecisionNames = {"bf16", "fp16",      "fp32", "fp8",
                                                                    "bf16-pure", "mxfp8", "nvfp4"};
// FP8 and the block-scaled formats: GEMMs in low precision, bf16 weights kept beside them.
inline bool IsLowPrecisionGemm(Precision p) {
  return p == Precision::kFp8 || p == Precision::kMxfp8 || p == Precision::kNvfp4;
}
inline constexpr std::array<std::string_view, 14> kFrameworkNames = {
    "fsdp", "deepspeed", "megatron", "torchtitan", "megatron-fsdp", "nemo-automodel",
    "hf-trainer", "trl", "llama-factory", "axolotl", "torchtune", "unsloth", "nemo", "maxtext"};
inline constexpr std::array<std::string_view, 4> kOptimizerNames = {"adamw", "adamw-8bit", "sgd", "adafactor"};
inline constexpr std::array<std::string_view, 3> kRecomputeNames = {"none", "selective", "full"};
// Megatron-LM --recompute-modules (arguments.py, Megatron-Core 0.13+): what selective
// recomputation may drop and rebuild in backward.
inline constexpr std::array<std::string_view, 7> kRecomputeModuleNames = {
    "core_attn", "mlp", "moe", "moe_act", "layernorm", "mla_up_proj", "shared_experts"};
inline constexpr std::array<std::string_view, 3> kOffloadNames = {"none", "optimizer", "optimizer+params"};
inline constexpr std::array<std::string_view, 2> kShardingNames = {"deepspeed", "fsdp"};
inline constexpr std::array<std::string_view, 3> kLoraTargetNames = {"attention", "all-linear", "qv"};
inline constexpr std::array<std::string_view, 4> kSavedModuleNames = {"none", "embeddings", "head",
                                                                      "embeddings+head"};
inline constexpr std::array<std::string_view, 2> kKernelNames = {"fused", "eager"};
inline constexpr std::array<std::string_view, 3> kCrossEntropyNames = {"standard", "eager", "chunked"};
inline constexpr std::array<std::string_view, 2> kAttentionBackendNames = {"flash-attn", "cudnn"};

// A throughput or time someone claims for this setup, to be checked against physics.
struct Claim {
  double tokens_per_s = 0;  // total across all GPUs
  double wall_hours = 0;    // for `tokens` (or dataset_tokens × epochs)
  double mfu = 0;           // model FLOPs utilization, a fraction of the GPUs' dense bf16 peak
};

// What is trained and how.
struct Training {
  // QLoRA whose norms stay fp32 after PEFT's prepare_model_for_kbit_training, which turns
  // the hidden states fp32 (scenario_fields.cpp).
  bool Fp32HiddenStates() const { return method == Method::kQlora && qlora_fp32_norms; }
  // The share of the transformer layers whose GEMMs run in the low-precision format: all
  // but bf16_layers under fp8/mxfp8/nvfp4, none otherwise.
  double LowPrecisionLayerShare(int layers) const {
    if (!IsLowPrecisionGemm(precision) || layers <= 0) return 0;
    return 1.0 - std::min(1.0, double(bf16_layers) / layers);
  }

  Method method = Method::kFull;
  int lora_rank = 16;
  double lora_dropout = 0.0;  // PEFT's default; >0 stores a mask and a dropped copy of each adapter input
  LoraTargets lora_targets = LoraTargets::kAllLinear;  // QLoRA paper §4: all linear layers match full FT
  SavedModules lora_modules_to_save = SavedModules::kNone;  // PEFT's default
  bool qlora_legacy_bnb = false;  // bitsandbytes <= 0.43.1 keeps each 4-bit layer's input (bitsandbytes#1270)
  bool qlora_fp32_norms = false;  // PEFT prepare_model_for_kbit_training's fp32 norms kept: fp32 hidden states
  int freeze_trainable_layers = 2;                     // "freeze": only the top N layers train
  Precision precision = Precision::kBf16;
  Optimizer optimizer = Optimizer::kAdamW;
  int seq_len = 4096;
  int micro_batch = 1;           // sequences per GPU per forward/backward
  int global_batch = 0;          // sequences per optimizer step; 0 = micro_batch × data-parallel degree
  double tokens = 0;             // total training tokens; 0 = dataset_tokens × epochs, or rates only
  double dataset_tokens = 0;     // tokens in the dataset (with epochs, when tokens is 0)
  double epochs = 1;
  // Held-out tokens evaluated over the run (forward passes only), as a share of the
  // training tokens: Megatron-LM's example GPT scripts evaluate 10 batches every 1,000
  // steps (--eval-interval 1000 --eval-iters 10; examples/pretrain_gpt.sh, 2020-2024).
  double eval_share = 0.01;
  double mfu = 0;                // user override of model FLOPs utilization; 0 = predicted
  // Fault tolerance: automatic restart (torchrun elastic, a job supervisor) and its time;
  // without it a person restarts the job after manual_restart_hours on average.
  Claim claim;
  bool auto_restart = true;
  double restart_minutes = 15;
  double manual_restart_hours = 4;
  Recompute activation_checkpointing = Recompute::kNone;
  // With full checkpointing, how many layers are recomputed; 0 = all. Megatron
  // --recompute-num-layers; torchtitan's "selective layer" AC checkpoints every n-th layer.
  int recompute_layers = 0;
  // Under fp8/mxfp8/nvfp4, transformer layers kept in BF16 for stability (Megatron-LM
  // --first-last-layers-bf16: --num-layers-at-start-in-bf16 + --num-layers-at-end-in-bf16).
  int bf16_layers = 0;
  // With selective checkpointing, the parts recomputed (Megatron --recompute-modules:
  // kRecomputeModuleNames); empty = what the framework's "selective" does.
  std::vector<std::string> recompute_modules;
  // Stored activations wait in host memory until backward (torchtune
  // enable_activation_offloading, Megatron/TE --cpu-offloading, Unsloth's checkpointing).
  bool activation_offload = false;
  bool flash_attention = true;
  AttentionBackend attention_backend = AttentionBackend::kFlashAttn;  // framework default
  Kernels kernels = Kernels::kFused;
  CrossEntropy cross_entropy = CrossEntropy::kStandard;
  bool optimizer_in_backward = false;  // step each parameter as its gradient arrives, then free it
  bool fused_optimizer = true;  // one-kernel AdamW (fused=True, Apex/TE/DeepSpeed FusedAdam); framework default
  // Preference tuning or reinforcement learning on top of `method`, which then says how
  // the policy is updated (full, LoRA or QLoRA).
  PostTrainingSetup post;
  // Images and video per sample for a vision-language model, and which of its parts train.
  MediaSetup media;
};

// GPUs in a node unless told otherwise: 8, as in every HGX/DGX and most PCIe servers.
inline constexpr int kUsualNodeGpus = 8;

// The node size a job of `gpus` GPUs gets when none is given: one usual node, or fewer.
inline int DefaultGpusPerNode(int gpus) { return gpus < kUsualNodeGpus ? gpus : kUsualNodeGpus; }

// How the work is spread over GPUs.
struct Parallelism {
  int gpus = 1;
  int gpus_per_node = kUsualNodeGpus;
  int tp = 1;                // tensor parallel
  int pp = 1;                // pipeline parallel
  int cp = 1;                // context parallel
  int ep = 1;                // expert parallel (carved out of the data-parallel ranks)
  // Expert tensor parallel: how many ranks split each expert's matrices; 0 = tp (Megatron's
  // default). With etp = 1, experts are not split and ep may span the tensor-parallel ranks
  // too (MoE parallel folding, Liu et al. 2025, arXiv 2504.14960).
  int etp = 0;
  int virtual_pipeline = 1;  // interleaved-1F1B chunks per pipeline stage
  // Layers on the first and last pipeline stages; 0 = an even share (Megatron-Core
  // --decoder-first/last-pipeline-num-layers).
  int first_stage_layers = 0;
  int last_stage_layers = 0;
  bool sequence_parallel = false;
  bool tp_comm_overlap = false;  // TP collectives pipelined with GEMMs (Megatron --tp-comm-overlap, AsyncTP); framework default
  int zero = 0;              // 0-3; FSDP full-shard = 3, shard-grad-op = 2
  Framework framework = Framework::kFsdp;
  Sharding sharding = Sharding::kDeepSpeed;  // only for stacks on Accelerate (RunsOnAccelerate)
  Offload offload = Offload::kNone;
  std::string network = "ib-ndr";  // scale-out fabric id (catalog/networks.json)
  double node_gbps = 0;            // inter-node bandwidth per node, Gbit/s; 0 = the fabric's usual

  int DataParallel() const { return gpus / (tp * pp * cp); }
  int ExpertTensorParallel() const { return etp > 0 ? etp : tp; }
  // Ranks holding copies of one expert shard: a pipeline stage's tp·cp·dp GPUs over etp·ep.
  int ExpertDataParallel() const { return gpus / (pp * ExpertTensorParallel() * ep); }
  int Nodes() const { return (gpus + gpus_per_node - 1) / gpus_per_node; }
  // The first or last stage's layers are set (else every stage takes an even share).
  bool UnevenEnds() const { return first_stage_layers > 0 || last_stage_layers > 0; }
};

// Decoder layers on each pipeline stage. Megatron-Core lets the first and last stages
// take fewer layers (--decoder-first/last-pipeline-num-layers; or one layer less for the
// embedding and for the LM head and loss, --account-for-embedding/loss-in-pipeline-split):
// the first stage holds p micro-batches' activations and the embedding, the last the
// logits. Llama 3 405B ran its 126 layers on 16 stages with one layer less on each end
// (Llama 3 report §3.3.2). The other stages share the rest; when layers do not divide,
// the fullest gets ceil(rest / stages), which sets the pipeline's pace and its memory peak.
struct StageLayers {
  int first = 0;
  int middle = 0;  // the fullest of the stages between (0 when there are none)
  int last = 0;
  int Fullest() const { return std::max({first, middle, last}); }
};

inline StageLayers StageLayersOf(const Parallelism& p, int layers) {
  if (p.pp <= 1) return {layers, 0, layers};
  const int fixed = (p.first_stage_layers > 0) + (p.last_stage_layers > 0);
  const int others = p.pp - fixed;
  const int rest = layers - p.first_stage_layers - p.last_stage_layers;
  const int even = others > 0 ? (std::max(0, rest) + others - 1) / others : 0;
  StageLayers out;
  out.first = p.first_stage_layers > 0 ? p.first_stage_layers : even;
  out.last = p.last_stage_layers > 0 ? p.last_stage_layers : even;
  out.middle = p.pp > 2 ? even : 0;
  return out;
}

// Layers on the fullest pipeline stage as a share of the model's layers (1/pp when they
// divide evenly).
inline double StageLayerShare(const Parallelism& p, int layers) {
  if (p.pp <= 1 || layers <= 0) return 1.0;
  return double(StageLayersOf(p, layers).Fullest()) / layers;
}

// The global batch a method trains with when the scenario gives none (model.md §6.1):
// 4M tokens a step for pre-training, 128 sequences for fine-tuning.
int MethodGlobalBatch(const Training& training);

// Sequences per optimizer step without a global batch: the method's, rounded up to whole
// micro-batches on every data-parallel rank (one pass when the optimizer runs inside
// backward, which cannot accumulate). 64-bit: micro_batch × data-parallel degree can pass
// an int before the input checks refuse it.
long long DefaultGlobalBatch(const Training& training, const Parallelism& parallel);

// Micro-batches each pipeline (each data-parallel rank) runs per optimizer step.
int MicroBatchesPerStep(const Training& training, const Parallelism& parallel);

// Sequences per optimizer step (the global batch, or its default).
int GlobalBatch(const Training& training, const Parallelism& parallel);

// Share of layers recomputed in backward: 0 without full checkpointing, else
// recompute_layers / layers (all when recompute_layers is 0).
double RecomputedShare(const Training& training, int layers);

// Tokens to train on: tokens, else dataset_tokens × epochs (post-training: prompts ×
// epochs × the sequences and tokens of each); 0 when neither is given.
double TrainingTokens(const Training& training);

struct Scenario {
  std::string storage;  // checkpoint storage tier id (catalog/own_hardware.json); "" = default
  ModelSpec model;
  bool model_derived = false;  // shape guessed from a bare parameter count
  std::vector<Warning> input_warnings;  // from reading the input (e.g. unmapped config keys)
  Training training;
  std::string gpu_id = "h100-sxm-80gb";
  // The GPU's power limit as run (nvidia-smi -pl; Meta's 500 W H100s): below the rated
  // power the clocks and so the compute rates drop (time_model.cpp). 0 = the rated power.
  double gpu_power_w = 0;
  Parallelism parallel;
};

// Returns the enum whose name is `name`, if any.
template <class Enum, std::size_t N>
std::optional<Enum> EnumFromName(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

template <class Enum, std::size_t N>
std::string_view EnumName(const std::array<std::string_view, N>& names, Enum value) {
  return names[static_cast<std::size_t>(value)];
}

}  // namespace engine
