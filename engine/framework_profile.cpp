#include "framework_profile.h"

#include <array>

namespace engine {
namespace {

using F = Framework;
using L = StateLayout;
using K = Kernels;
using CE = CrossEntropy;
using R = Recompute;
using S = SelectiveKind;
using G = KeptGathered;
constexpr AttentionBackend kCudnn = AttentionBackend::kCudnn;

// kept_gathered: FSDP frees a unit's gathered weights after its forward, except the root
// unit's (FSDP1 _runtime_utils.py _post_forward_reshard: not state._is_root; FSDP2
// fully_shard docs: the root's reshard_after_forward is False "since its parameters would
// typically be immediately all-gathered for backward"). A model wrapped per decoder layer
// (accelerate's transformer auto-wrap, a plain fully_shard loop, NeMo AutoModel) leaves
// the embeddings, final norm and LM head in the root; torchtitan shards the embeddings
// as their own unit and keeps [norm, output] gathered; torchtune shards tok_embeddings and
// output as their own units (custom_sharded_layers), resharded after forward. The
// Accelerate stacks wrap per decoder layer (fsdp_transformer_layer_cls_to_wrap), which
// counts when they shard through FSDP (`sharding`).
// fused_optimizer: torch.optim.AdamW runs foreach (multi-tensor, one pass per operation)
// unless fused=True is asked for (pytorch#95415, 2023: "set defaults to foreach, NOT
// fused"), which is what plain PyTorch FSDP code gets. Megatron and NeMo step with
// Transformer Engine / Apex FusedAdam, DeepSpeed with its FusedAdam, torchtitan and
// torchtune configs ask for fused=True, and the Hugging Face Trainer defaults to
// adamw_torch_fused with PyTorch >= 2.8 (transformers#37358, merged 2025-07; read
// 2026-12-02), as axolotl does (axolotl#2293, 2025-01). Older Trainer runs took foreach
// adamw_torch: fused_optimizer false describes them.
// qlora_fp32_norms: PEFT's prepare_model_for_kbit_training upcasts the norms to fp32 and
// nothing casts them back on the bare Trainer; TRL's SFTTrainer keeps them fp32
// (peft_module_casting_to_bf16 casts only embeddings and head to bf16); both skip the
// preparation when the 4-bit storage is sharded (ZeRO-3 / FSDP QLoRA). LLaMA-Factory
// (upcast_layernorm off by default), axolotl and Unsloth keep 16-bit norms.
// attention_backend: Transformer Engine's DotProductAttention picks cuDNN fused attention
// before flash-attn on Hopper and Blackwell (TE docs, examples/attention/attention.ipynb
// "Backend Selection", read 2026-12-03), which is what Megatron-LM, Megatron-FSDP, NeMo
// and NeMo AutoModel run; the other stacks call flash-attn or PyTorch SDPA, whose
// FlashAttention-2 kernel is its default on those GPUs.
// One row per Framework value, in enum order. The Hugging Face stacks (Trainer, TRL,
// LLaMA-Factory, axolotl) shard through DeepSpeed in their shipped examples, so ZeRO ≥ 1
// takes DeepSpeed's layout; at zero 0 they hold ZeRO-paper states. Sources, read 2026-12:
constexpr std::array<FrameworkProfile, 14> kProfiles = {{
    {.framework = F::kFsdp, .fused_optimizer = false, .kept_gathered = G::kEmbeddingsAndHead,
     .source = "ZeRO paper (Rajbhandari et al. 2020) §3 accounting; PyTorch FSDP"},
    {.framework = F::kDeepSpeed, .unsharded = L::kDeepSpeed, .sharded = L::kDeepSpeed,
     .source = "DeepSpeed estimate_zero2/3_model_states_mem_needs (fp32 gradient partition)"},
    {.framework = F::kMegatron, .unsharded = L::kMegatron, .sharded = L::kMegatron, .attention_backend = kCudnn,
     .max_zero = 1,
     .source = "Megatron-LM theoretical_memory_usage.py; --recompute-granularity selective = core attention"},
    // torchtitan (FSDP2): activation_checkpoint.mode "selective", selective_ac_option "op"
    // in its Llama 3 train configs; the op policy saves every other aten.mm output and the
    // SDPA output (torchtitan/models/llama3/infra/parallelize.py _save_list, _custom_policy);
    // the loss upcasts the logits to fp32 outside a fused kernel (components/loss.py
    // cross_entropy_loss: pred.float()), so its backward holds fp32 and bf16 logit
    // gradients beside the saved log-softmax, as the eager Hugging Face loss does.
    {.framework = F::kTorchtitan, .cross_entropy = CE::kEager, .selective = S::kEveryOtherMatmul,
     .kept_gathered = G::kHead,
     .source = "torchtitan llama3 train configs and parallelize.py (2025): selective op AC, FSDP2"},
    // Megatron-FSDP (Megatron-Core's custom FSDP, --use-megatron-fsdp): fp32 main
    // gradients and parameters sharded like ZeRO-3.
    {.framework = F::kMegatronFsdp, .unsharded = L::kMegatron, .sharded = L::kMegatron, .attention_backend = kCudnn,
     .source = "Megatron-Core docs, Megatron-FSDP (--use-megatron-fsdp, --data-parallel-sharding-strategy)"},
    // NeMo AutoModel: Hugging Face models under FSDP2 with Transformer Engine kernels.
    {.framework = F::kNemoAutomodel, .kept_gathered = G::kEmbeddingsAndHead, .attention_backend = kCudnn,
     .source = "NVIDIA-NeMo/Automodel README (FSDP2, TE kernels)"},
    // Hugging Face Transformers modules: unfused SwiGLU and RMSNorm with an fp32 copy, the
    // loss upcasts the logits (loss_utils.py ForCausalLMLoss: logits.float());
    // TrainingArguments.gradient_checkpointing defaults to False. QLoRA scripts on the bare
    // Trainer call PEFT's prepare_model_for_kbit_training, which casts every 16-bit
    // parameter that is not 4-bit (embeddings, LM head, norms) to fp32 (peft
    // utils/other.py); TRL's SFTTrainer casts the embeddings and head back to bf16
    // (peft_module_casting_to_bf16) and axolotl patches the cast to skip them, so the other
    // Hugging Face stacks keep them 16-bit.
    {.framework = F::kHfTrainer, .sharded = L::kDeepSpeed, .kernels = K::kEager, .cross_entropy = CE::kEager,
     .qlora_fp32_unquantized = true, .qlora_fp32_norms = true, .kept_gathered = G::kEmbeddingsAndHead,
     .source = "transformers TrainingArguments and modeling_llama.py (2025)"},
    {.framework = F::kTrl, .sharded = L::kDeepSpeed, .kernels = K::kEager, .cross_entropy = CE::kEager,
     .qlora_fp32_norms = true, .kept_gathered = G::kEmbeddingsAndHead,
     .source = "TRL SFTTrainer on transformers.Trainer (2025)"},
    // LLaMA-Factory turns gradient checkpointing on unless disable_gradient_checkpointing
    // (hparams/model_args.py, default False).
    {.framework = F::kLlamaFactory, .sharded = L::kDeepSpeed, .kernels = K::kEager,
     .cross_entropy = CE::kEager, .recompute = R::kFull, .kept_gathered = G::kEmbeddingsAndHead,
     .source = "LLaMA-Factory hparams/model_args.py disable_gradient_checkpointing = False (2025)"},
    // axolotl: gradient_checkpointing false unless set (README config reference).
    {.framework = F::kAxolotl, .sharded = L::kDeepSpeed, .kernels = K::kEager, .cross_entropy = CE::kEager,
     .kept_gathered = G::kEmbeddingsAndHead,
     .source = "axolotl README config reference (gradient_checkpointing: false)"},
    // torchtune: FSDP2 recipes, CEWithChunkedOutputLoss (8 chunks), eager modules unless
    // compile: True, enable_activation_checkpointing: True in its shipped configs.
    {.framework = F::kTorchtune, .kernels = K::kEager, .cross_entropy = CE::kChunked, .recompute = R::kFull,
     .source = "torchtune recipes/configs (llama3_1/8B_lora.yaml, 8B_full.yaml; 2025)"},
    // Unsloth: Triton kernels (fused SwiGLU, RMSNorm, chunked cross-entropy) and
    // use_gradient_checkpointing="unsloth", which offloads each checkpointed layer input
    // to host memory (unsloth README and notebooks, 2025).
    {.framework = F::kUnsloth, .cross_entropy = CE::kChunked, .recompute = R::kFull,
     .activation_offload = true,
     .source = "Unsloth README and docs: use_gradient_checkpointing=\"unsloth\" (2025)"},
    // NeMo 2 and Megatron-Bridge run Megatron-Core with its layout; their training recipes
    // add MegatronCommOverlapCallback / CommOverlapConfig with tp_comm_overlap on for
    // tensor-parallel runs (Transformer Engine userbuffers), and NeMo keeps the bulk
    // TP overlap on by default (NeMo docs "Communication Overlap", read 2026-12-02).
    // Megatron-LM's own --tp-comm-overlap is off unless given.
    {.framework = F::kNemo, .unsharded = L::kMegatron, .sharded = L::kMegatron, .tp_comm_overlap = true,
     .attention_backend = kCudnn, .max_zero = 1,
     .source = "NeMo docs, Communication Overlap (tp_comm_overlap in the recipes); Megatron-Core layout"},
    // MaxText (JAX): the whole step, optax's AdamW included, is one XLA program, so every
    // elementwise chain is fused and the optimizer is one pass; FSDP sharding of fp32
    // parameters and Adam moments (ZeRO-paper layout); remat_policy "full" in its base
    // config (MaxText/configs/base.yml, 2025).
    {.framework = F::kMaxtext, .recompute = R::kFull,
     .source = "MaxText configs/base.yml (remat_policy full, optax AdamW inside the jitted step), 2025"},
}};

constexpr bool ProfilesInEnumOrder() {
  for (std::size_t i = 0; i < kProfiles.size(); ++i) {
    if (static_cast<std::size_t>(kProfiles[i].framework) != i) return false;
  }
  return kProfiles.size() == kFrameworkNames.size();
}
static_assert(ProfilesInEnumOrder(), "one profile per Framework, in enum order");

}  // namespace

const FrameworkProfile& ProfileOf(Framework framework) { return kProfiles[static_cast<std::size_t>(framework)]; }

bool RunsOnAccelerate(Framework f) {
  return f == Framework::kHfTrainer || f == Framework::kTrl || f == Framework::kLlamaFactory ||
         f == Framework::kAxolotl;
}

bool RunsMegatronCore(Framework f) {
  return f == Framework::kMegatron || f == Framework::kMegatronFsdp || f == Framework::kNemo;
}

StateLayout LayoutOf(const Parallelism& p) {
  const FrameworkProfile& profile = ProfileOf(p.framework);
  if (p.zero < 1) return profile.unsharded;
  if (ShardsThroughAccelerateFsdp(p)) return StateLayout::kFsdp;
  return profile.sharded;
}

void ApplyFrameworkDefaults(Scenario& s) {
  const FrameworkProfile& profile = ProfileOf(s.parallel.framework);
  s.training.kernels = profile.kernels;
  s.training.cross_entropy = profile.cross_entropy;
  s.training.activation_checkpointing = profile.recompute;
  s.training.activation_offload = profile.activation_offload;
  s.parallel.tp_comm_overlap = profile.tp_comm_overlap;
  s.training.fused_optimizer = profile.fused_optimizer;
  s.training.attention_backend = profile.attention_backend;
  s.training.qlora_fp32_norms = DefaultQloraFp32Norms(s);
}

}  // namespace engine
