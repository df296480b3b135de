#include "scenario_fields.h"

#include <vector>

#include "framework_profile.h"
#include "post_training.h"

namespace engine {
namespace {

using field_access::Range;

bool TrainsAdapters(const Scenario& s) {
  return TrainsAdapters(s.training.method);
}

// [SECTION] the form's names for each choice (English; wasm/ui/i18n/zh-ui.json translates)

constexpr const char* kMethodLabels[] = {"Pre-training", "Full fine-tune", "Freeze (top layers)", "LoRA",
                                         "QLoRA (4-bit base)", "DPO (preference pairs)", "ORPO (no reference)",
                                         "SimPO (no reference)", "KTO (labelled answers)", "PPO (RL with a critic)",
                                         "GRPO (RL, group of answers)"};
constexpr const char* kPolicyUpdateLabels[] = {"Full", "LoRA", "QLoRA (4-bit base)"};
constexpr const char* kReferenceLabels[] = {"Frozen model on the GPUs", "None", "Log-probs computed beforehand"};
constexpr const char* kRewardLabels[] = {"Reward model", "Rule / verifier (CPU)"};
constexpr const char* kPlacementLabels[] = {"Co-located (take turns)", "Separate GPUs"};

const PostTrainingSetup& Post(const Scenario& s) { return s.training.post; }
bool PostTrains(const Scenario& s) { return Post(s).kind != PostTraining::kNone; }
bool GeneratesRollouts(const Scenario& s) { return Generates(Post(s).kind); }

// "method" carries both the update kind and the post-training method (kTrainingMethodNames).
double MethodIndex(const Scenario& s) {
  if (PostTrains(s)) return kFirstPostTrainingMethod - 1 + static_cast<int>(Post(s).kind);
  return static_cast<int>(s.training.method);
}
void SetMethodIndex(Scenario& s, double value) {
  const int i = static_cast<int>(value);
  if (i < kFirstPostTrainingMethod) {
    s.training.method = static_cast<Method>(i);
    s.training.post.kind = PostTraining::kNone;
    return;
  }
  s.training.post.kind = static_cast<PostTraining>(i - kFirstPostTrainingMethod + 1);
  const Method m = s.training.method;
  if (m != Method::kLora && m != Method::kQlora) s.training.method = Method::kFull;
}
double PolicyUpdateIndex(const Scenario& s) {
  return s.training.method == Method::kLora ? 1 : s.training.method == Method::kQlora ? 2 : 0;
}
void SetPolicyUpdateIndex(Scenario& s, double value) {
  constexpr Method kUpdates[] = {Method::kFull, Method::kLora, Method::kQlora};
  s.training.method = kUpdates[static_cast<int>(value)];
}
constexpr const char* kPrecisionLabels[] = {"BF16 mixed (fp32 master)", "FP16 mixed (fp32 master)", "FP32",
                                            "FP8 (Transformer Engine)", "BF16 pure (no fp32 copy)",
                                            "MXFP8 (Blackwell, block-scaled)", "NVFP4 (Blackwell, 4-bit)"};
constexpr const char* kFrameworkLabels[] = {"PyTorch FSDP",  "DeepSpeed", "Megatron-LM", "torchtitan",
                                            "Megatron-FSDP", "NeMo AutoModel", "HF Trainer", "TRL",
                                            "LLaMA-Factory", "axolotl", "torchtune", "Unsloth",
                                            "NeMo / Megatron-Bridge", "MaxText (JAX/XLA)"};
// Other names people give the same stacks.
constexpr ChoiceAlias kFrameworkAliases[] = {
    {"fsdp2", "fsdp"},         {"pytorch-fsdp", "fsdp"},     {"megatron-lm", "megatron"},
    {"megatron-core", "megatron"}, {"megatron-bridge", "nemo"}, {"nemo2", "nemo"}, {"nemo-megatron", "nemo"},
    {"automodel", "nemo-automodel"}, {"transformers", "hf-trainer"}, {"hf", "hf-trainer"},
    {"huggingface", "hf-trainer"}, {"accelerate", "hf-trainer"}, {"llamafactory", "llama-factory"},
    {"ms-swift", "hf-trainer"}, {"jax", "maxtext"}};

bool Selective(const Scenario& s) { return s.training.activation_checkpointing == Recompute::kSelective; }
const FrameworkProfile& Profile(const Scenario& s) { return ProfileOf(s.parallel.framework); }
constexpr const char* kOptimizerLabels[] = {"AdamW", "AdamW 8-bit", "SGD + momentum", "Adafactor"};
constexpr const char* kRecomputeLabels[] = {"None", "Selective", "Full"};
constexpr const char* kOffloadLabels[] = {"None", "Optimizer → CPU", "Optimizer + params → CPU"};
constexpr const char* kShardingLabels[] = {"DeepSpeed ZeRO", "PyTorch FSDP"};
constexpr const char* kTargetLabels[] = {"Attention (q,k,v,o)", "All linear layers", "q and v only (PEFT default)"};
constexpr const char* kSavedModuleLabels[] = {"Nothing else", "Input embeddings", "LM head", "Embeddings and LM head"};
constexpr const char* kAttentionBackendLabels[] = {"FlashAttention-2 / SDPA",
                                                  "cuDNN (Transformer Engine)"};
constexpr const char* kKernelLabels[] = {"Fused (Megatron, TE, Liger)", "Eager PyTorch (HF, LitGPT)"};
constexpr const char* kCrossEntropyLabels[] = {"Standard (bf16 + fp32 copy)", "Eager HF (fp32 upcast)",
                                               "Chunked (torchtune, Liger)"};

// Vision-language models: what their media fields need.
bool HasVision(const Scenario& s) { return s.model.vision.present(); }
bool HasVideo(const Scenario& s) { return HasVision(s) && s.training.media.video_seconds > 0; }
bool ShowsImages(const Scenario& s) { return HasVision(s) && s.training.media.images_per_sample > 0; }
bool ShowsDynamicImages(const Scenario& s) { return ShowsImages(s) && s.model.vision.scheme == MediaScheme::kDynamic; }
bool ShowsVideo(const Scenario& s) { return HasVideo(s); }
bool TrainsTower(const Scenario& s) { return HasVision(s) && s.training.media.tower != VisionTraining::kFrozen; }
constexpr const char* kVisionTrainingLabels[] = {"Frozen", "LoRA adapters", "Fully trained"};
constexpr const char* kVisionRecomputeLabels[] = {"As the language model", "Always", "Never"};

// [SECTION] the table
//
// Ranges: where each floor and ceiling comes from is in engine/input_limits.cpp's header
// comment (docs/model.md §0.3).

std::vector<ScenarioField> BuildTable() {
  using FT = FieldType;
  using FS = FormSection;
  std::vector<ScenarioField> t = {
      {.key = "model", .type = FT::kModel,
       .help = "What is trained; the five forms are below.",
       .type_text = "preset id string; or `{\"params_b\": N}`; or an architecture object; or `{\"preset\": id, ...}` "
                    "with fields changed; or `{\"hf_config\": {...}}`",
       .default_text = "required"},
      // Training
      {.key = "method", .type = FT::kChoice, .label = "Method",
       .help = "Pre-training and full fine-tuning train every weight; freeze trains only the top layers; LoRA trains "
               "small adapters; QLoRA adds a 4-bit frozen base. Post-training: DPO, ORPO, SimPO and KTO tune on "
               "preferences; PPO and GRPO generate answers and learn from their rewards.",
       .section = FS::kTraining, .choices = kTrainingMethodNames, .choice_labels = kMethodLabels,
       .get = MethodIndex, .set = SetMethodIndex},
      {.key = "policy_update", .type = FT::kChoice, .label = "Policy update",
       .help = "How the post-trained policy is updated: every weight, LoRA adapters, or adapters on a 4-bit base. "
               "With adapters the reference is the base with them switched off: no second copy of the weights.",
       .section = FS::kTraining, .choices = kPolicyUpdateNames, .choice_labels = kPolicyUpdateLabels,
       .get = PolicyUpdateIndex, .set = SetPolicyUpdateIndex, .applies = PostTrains, .write_if = PostTrains},
      {.key = "prompt_len", .type = FT::kInteger, .label = "Prompt length",
       .help = "Tokens of a prompt (verl data.max_prompt_length, TRL max_prompt_length).", .section = FS::kTraining,
       .limit = Range(1, 1e6, "tokens"), TS_FIELD_VALUE(Scenario, training.post.prompt_len), .applies = PostTrains,
       .write_if = PostTrains, .form = {.step = 256}},
      {.key = "response_len", .type = FT::kInteger, .label = "Response length",
       .help = "Tokens of an answer: for PPO and GRPO the mean generated length (reasoning runs reach thousands), "
               "for the DPO family the answers in the data.",
       .section = FS::kTraining, .limit = Range(1, 1e6, "tokens"), TS_FIELD_VALUE(Scenario, training.post.response_len),
       .applies = PostTrains, .write_if = PostTrains, .form = {.step = 256}},
      {.key = "max_response_len", .type = FT::kInteger, .label = "Longest response",
       .help = "PPO and GRPO: the longest answer a rollout allows (verl data.max_response_length, TRL "
               "max_completion_length). Generation runs until the longest answer ends, with the batch thinning "
               "out, so a long tail costs decode steps at the full weight read. 0 = every answer is response_len "
               "long.",
       .section = FS::kTraining, .limit = Range(1, 1e6, "tokens", "response_len"),
       TS_FIELD_VALUE(Scenario, training.post.max_response_len), .applies = GeneratesRollouts, .write_if = PostTrains,
       .form = {.step = 1024}},
      {.key = "group_size", .type = FT::kInteger, .label = "Answers per prompt",
       .help = "Answers sampled for each prompt (GRPO's group: TRL num_generations, verl rollout.n); the default is "
               "8 for GRPO and 1 otherwise.",
       .section = FS::kTraining, .limit = Range(1, 4096, "answers", "the method's"),
       TS_FIELD_VALUE(Scenario, training.post.group_size), .applies = GeneratesRollouts,
       .fill_default = [](Scenario& s) { s.training.post.group_size = GroupSize(s.training.post); },
       .write_if = PostTrains},
      {.key = "prompts_per_step", .type = FT::kInteger, .label = "Prompts per step",
       .help = "Prompts (preference pairs for DPO, ORPO, SimPO; answers for KTO) per step: verl "
               "data.train_batch_size, OpenRLHF --rollout_batch_size.",
       .section = FS::kTraining, .limit = Range(1, 1e7, "prompts"), TS_FIELD_VALUE(Scenario, training.post.prompts_per_step),
       .applies = PostTrains, .write_if = PostTrains, .form = {.step = 32}},
      {.key = "prompts", .type = FT::kNumber, .label = "Prompts in the dataset",
       .help = "Prompts (or pairs) in the dataset; with epochs it gives the run's steps, wall time and cost. 0 = not "
               "given.",
       .section = FS::kTraining, .limit = Range(1, 1e12, "prompts", "not given"),
       TS_FIELD_VALUE(Scenario, training.post.prompts), .applies = PostTrains, .write_if = PostTrains,
       .form = {.step = 1000, .step_fast = 10000, .format = "%.0f", .zero_text = "not given"}},
      {.key = "ppo_epochs", .type = FT::kInteger, .label = "Updates per rollout",
       .help = "Passes of the policy (and critic) update over each rollout batch (verl ppo_epochs, TRL num_iterations).",
       .section = FS::kTraining, .limit = Range(1, 100), TS_FIELD_VALUE(Scenario, training.post.ppo_epochs),
       .applies = GeneratesRollouts, .write_if = PostTrains},
      {.key = "rollout_oversample", .type = FT::kNumber, .label = "Prompts generated per trained",
       .help = "Generation's prompts per prompt trained: DAPO's dynamic sampling drops groups whose answers all score "
               "the same and generates more to fill the batch (its recipe samples 3× the training batch); 1 for GRPO, "
               "PPO and RLOO.",
       .section = FS::kTraining, .limit = Range(1, 100), TS_FIELD_VALUE(Scenario, training.post.rollout_oversample),
       .applies = GeneratesRollouts, .write_if = PostTrains, .form = {.step = 0.5, .step_fast = 1, .format = "%.1f"}},
      {.key = "reference", .type = FT::kChoice, .label = "Reference",
       .help = "The frozen reference the loss compares with: a model on the GPUs (DPO, KTO, PPO, GRPO with a KL "
               "term), none (ORPO, SimPO, DAPO), or log-probs computed beforehand (TRL precompute_ref_log_probs).",
       .section = FS::kTraining, .choices = kReferenceNames, .choice_labels = kReferenceLabels,
       .default_text = "the method's", TS_FIELD_VALUE(Scenario, training.post.reference), .applies = PostTrains,
       .fill_default = [](Scenario& s) {
         const PostTraining k = s.training.post.kind;
         const bool none = k == PostTraining::kOrpo || k == PostTraining::kSimpo;
         s.training.post.reference = none ? ReferenceKind::kNone : ReferenceKind::kModel;
       },
       .write_if = PostTrains},
      {.key = "reward", .type = FT::kChoice, .label = "Reward",
       .help = "Where rewards come from: a reward model's forward pass on the GPUs (PPO's default) or a rule or "
               "verifier on the CPU (GRPO's default: maths and code checkers).",
       .section = FS::kTraining, .choices = kRewardNames, .choice_labels = kRewardLabels,
       .default_text = "the method's", TS_FIELD_VALUE(Scenario, training.post.reward), .applies = GeneratesRollouts,
       .fill_default = [](Scenario& s) {
         s.training.post.reward = s.training.post.kind == PostTraining::kPpo ? RewardKind::kModel : RewardKind::kRule;
       },
       .write_if = PostTrains},
      {.key = "critic_model", .type = FT::kText, .label = "Critic model",
       .help = "PPO's critic, when it is not the policy's architecture (JSON and links; the page's form uses the "
               "policy's).",
       .type_text = "catalog model preset id; \"\" = the policy's", .default_text = "the policy's",
       TS_FIELD_TEXT(Scenario, training.post.critic_model_id),
       .applies = [](const Scenario& s) { return Post(s).kind == PostTraining::kPpo; }, .write_if = PostTrains},
      {.key = "reward_model", .type = FT::kText, .label = "Reward model",
       .help = "The reward model, when it is not the policy's architecture (JSON and links; the page's form uses the "
               "policy's).",
       .type_text = "catalog model preset id; \"\" = the policy's", .default_text = "the policy's",
       TS_FIELD_TEXT(Scenario, training.post.reward_model_id),
       .applies = [](const Scenario& s) { return GeneratesRollouts(s) && Post(s).reward == RewardKind::kModel; },
       .write_if = PostTrains},
      {.key = "placement", .type = FT::kChoice, .label = "Rollout placement",
       .help = "Co-located: the rollout engine and training take turns on the same GPUs (verl's hybrid engine, "
               "OpenRLHF --colocate_all_models, TRL vllm_mode colocate). Separate: the engine has its own GPUs "
               "(OpenRLHF's default, TRL vllm_mode server).",
       .section = FS::kTraining, .choices = kPlacementNames, .choice_labels = kPlacementLabels,
       TS_FIELD_VALUE(Scenario, training.post.placement), .applies = GeneratesRollouts, .write_if = PostTrains},
      {.key = "offload_while_generating", .type = FT::kBool, .label = "Offload while generating",
       .help = "Co-located: the training roles' weights and optimizer states move to host memory while the rollout "
               "engine generates, so it gets nearly the whole GPU (NeMo RL's co-located default, OpenRLHF "
               "--deepspeed_enable_sleep, verl param_offload and optimizer_offload); they cross PCIe twice a step.",
       .section = FS::kTraining, TS_FIELD_VALUE(Scenario, training.post.offload_while_generating),
       .applies = [](const Scenario& s) { return GeneratesRollouts(s) && Post(s).placement == Placement::kColocated; },
       .write_if = PostTrains},
      {.key = "rollout_gpus", .type = FT::kInteger, .label = "Rollout GPUs",
       .help = "With separate placement, the GPUs of the rollout engine; the rest train.", .section = FS::kTraining,
       .limit = Range(1, 1048576, "GPUs", "half the job's"), TS_FIELD_VALUE(Scenario, training.post.rollout_gpus),
       .applies = [](const Scenario& s) { return GeneratesRollouts(s) && Post(s).placement == Placement::kSeparate; },
       .write_if = PostTrains},
      {.key = "rollout_tp", .type = FT::kInteger, .label = "Rollout tensor parallel",
       .help = "GPUs per rollout engine instance (verl rollout.tensor_model_parallel_size, OpenRLHF "
               "--vllm_tensor_parallel_size); 0 = the fewest whose weights leave room for the KV cache.",
       .section = FS::kTraining, .limit = Range(1, 64, "GPUs", "the fewest that fit"),
       TS_FIELD_VALUE(Scenario, training.post.rollout_tp), .applies = GeneratesRollouts, .write_if = PostTrains},
      {.key = "gpu_memory_utilization", .type = FT::kNumber, .label = "Rollout memory share (%)",
       .help = "The share of each GPU the rollout engine reserves for weights, activations and KV cache (vLLM and "
               "verl gpu_memory_utilization); 0 = what the step needs, within what training leaves.",
       .section = FS::kTraining, .limit = Range(0.05, 0.98, "", "what the step needs"),
       TS_FIELD_VALUE(Scenario, training.post.gpu_memory_utilization), .applies = GeneratesRollouts,
       .write_if = PostTrains,
       .form = {.step = 5, .step_fast = 10, .percent = true, .format = "%.0f", .zero_text = "auto"}},
      {.key = "lora_rank", .type = FT::kInteger, .label = "LoRA rank",
       .help = "Rank r of the adapters B·A; trainable parameters grow linearly with r.", .section = FS::kTraining,
       .limit = Range(1, 65536), TS_FIELD_VALUE(Scenario, training.lora_rank), .applies = TrainsAdapters, .form = {.step = 8}},
      {.key = "lora_targets", .type = FT::kChoice, .label = "LoRA targets",
       .help = "Which weight matrices get adapters.", .section = FS::kTraining, .choices = kLoraTargetNames,
       .choice_labels = kTargetLabels, TS_FIELD_VALUE(Scenario, training.lora_targets), .applies = TrainsAdapters},
      {.key = "lora_modules_to_save", .type = FT::kChoice, .label = "Also train",
       .help = "Whole modules trained beside the adapters (PEFT modules_to_save, LLaMA-Factory additional_target), "
               "e.g. when new chat tokens need embeddings: each gets a trained copy with gradients and optimizer "
               "state, and the frozen original stays.",
       .section = FS::kTraining, .choices = kSavedModuleNames, .choice_labels = kSavedModuleLabels,
       TS_FIELD_VALUE(Scenario, training.lora_modules_to_save), .applies = TrainsAdapters},
      {.key = "lora_dropout", .type = FT::kNumber,
       .help = "Dropout on the adapters' input (PEFT lora_dropout); above 0 it stores a mask and a dropped copy "
               "of each adapted input.",
       .limit = Range(0, 0.9), TS_FIELD_VALUE(Scenario, training.lora_dropout), .applies = TrainsAdapters},
      {.key = "qlora_legacy_bnb", .type = FT::kBool,
       .help = "QLoRA on bitsandbytes 0.43.1 or older (before July 2024), which keeps every 4-bit layer's input "
               "until backward although it never uses it (fixed by bitsandbytes#1270, released in 0.43.3).",
       TS_FIELD_VALUE(Scenario, training.qlora_legacy_bnb),
       .applies = [](const Scenario& s) { return s.training.method == Method::kQlora; }},
      {.key = "qlora_fp32_norms", .type = FT::kBool,
       .help = "QLoRA with the norms upcast to fp32 by PEFT's prepare_model_for_kbit_training and kept so (TRL's "
               "SFTTrainer on one GPU or DDP; not FSDP-sharded QLoRA): each norm then outputs fp32, and from the "
               "first MLP on the hidden states are fp32: the layer inputs kept for recomputation and the elementwise "
               "traffic double.",
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.qlora_fp32_norms),
       .applies = [](const Scenario& s) { return s.training.method == Method::kQlora; },
       .fill_default = [](Scenario& s) { s.training.qlora_fp32_norms = DefaultQloraFp32Norms(s); }},
      {.key = "freeze_trainable_layers", .type = FT::kInteger, .label = "Trainable layers",
       .help = "How many of the top decoder layers are trained.", .section = FS::kTraining,
       .limit = Range(1, 1000, "layers"), TS_FIELD_VALUE(Scenario, training.freeze_trainable_layers),
       .applies = [](const Scenario& s) { return s.training.method == Method::kFreeze; }},
      {.key = "precision", .type = FT::kChoice, .label = "Precision",
       .help = "Number format of weights and activations during training.", .section = FS::kTraining,
       .choices = kPrecisionNames, .choice_labels = kPrecisionLabels, TS_FIELD_VALUE(Scenario, training.precision)},
      {.key = "bf16_layers", .type = FT::kInteger, .label = "Layers kept in BF16",
       .help = "With fp8, mxfp8 or nvfp4, how many transformer layers keep BF16 GEMMs for stability "
               "(Megatron-LM --first-last-layers-bf16: the layers at the start plus those at the end; NVIDIA's "
               "NVFP4 recipe for Llama 3 8B keeps the last 4). They run at the BF16 rate.",
       .section = FS::kTraining, .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(Scenario, training.bf16_layers),
       .applies = [](const Scenario& s) { return IsLowPrecisionGemm(s.training.precision); }},
      {.key = "optimizer", .type = FT::kChoice, .label = "Optimizer",
       .help = "The optimizer decides how many bytes of state each trainable parameter carries.",
       .section = FS::kTraining, .choices = kOptimizerNames, .choice_labels = kOptimizerLabels,
       TS_FIELD_VALUE(Scenario, training.optimizer)},
      {.key = "optimizer_in_backward", .type = FT::kBool,
       .help = "Step each parameter as soon as its gradient is ready and free the gradient (torchtune "
               "optimizer_in_bwd); no gradient accumulation.",
       TS_FIELD_VALUE(Scenario, training.optimizer_in_backward)},
      {.key = "fused_optimizer", .type = FT::kBool,
       .help = "AdamW steps in one fused kernel (fused=True, FusedAdam); off, torch's default foreach AdamW reads "
               "and writes the states about twenty times and takes about three times as long.",
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.fused_optimizer),
       .applies = [](const Scenario& s) { return s.training.optimizer == Optimizer::kAdamW; },
       .fill_default = [](Scenario& s) { s.training.fused_optimizer = Profile(s).fused_optimizer; }},
      {.key = "seq_len", .type = FT::kInteger, .label = "Sequence length",
       .help = "Text tokens per training sample. A vision-language model's image and video tokens come on top "
               "(the result's sequence shows both).",
       .section = FS::kTraining, .limit = Range(1, 1e7, "tokens"), TS_FIELD_VALUE(Scenario, training.seq_len),
       .applies = [](const Scenario& s) { return !PostTrains(s); }, .form = {.step = 1024}},
      // Vision-language models (media_setup.h, vision.h; docs/model.md §14).
      {.key = "images_per_sample", .type = FT::kInteger, .label = "Images per sample",
       .help = "Images in each training sample; each becomes the model's image tokens (Qwen2.5-VL: one per 28 × 28 "
               "pixels after its resize).",
       .section = FS::kTraining, .limit = Range(0, 1024, "images"), TS_FIELD_VALUE(Scenario, training.media.images_per_sample),
       .applies = HasVision, .write_if = HasVision},
      {.key = "image_resolution", .type = FT::kSize, .label = "Image size (px)",
       .help = "[width, height] of the images as the data holds them; the model's processor resizes them.",
       .section = FS::kTraining, .limit = Range(1, 65536, "px"),
       TS_FIELD_SIZE(Scenario, training.media.image_width, training.media.image_height), .applies = ShowsImages,
       .write_if = HasVision},
      {.key = "image_max_pixels", .type = FT::kNumber, .label = "Max pixels per image",
       .help = "The processor's cap on an image's area after its resize (ms-swift MAX_PIXELS, LLaMA-Factory "
               "image_max_pixels, whose default is 589,824); 0 = the model's own (Qwen2.5-VL 12,845,056).",
       .section = FS::kTraining, .limit = Range(784, 268435456, "px", "the model's"),
       TS_FIELD_VALUE(Scenario, training.media.image_max_pixels), .applies = ShowsDynamicImages, .write_if = HasVision,
       .form = {.step = 50176, .format = "%.0f", .zero_text = "model default"}},
      {.key = "video_seconds", .type = FT::kNumber, .label = "Video per sample (s)",
       .help = "Seconds of video in each training sample; 0 = none.", .section = FS::kTraining,
       .limit = Range(0.1, 36000, "s", "no video"), TS_FIELD_VALUE(Scenario, training.media.video_seconds),
       .applies = HasVision, .write_if = HasVision, .form = {.step = 10, .format = "%.1f", .zero_text = "none"}},
      {.key = "video_fps", .type = FT::kNumber, .label = "Video frames per second",
       .help = "Frames sampled per second of video (qwen-vl-utils FPS 2.0); between 4 and 768 frames are taken.",
       .section = FS::kTraining, .limit = Range(0.01, 240, "frames/s"), TS_FIELD_VALUE(Scenario, training.media.video_fps),
       .applies = ShowsVideo, .write_if = HasVideo, .form = {.step = 0.5, .format = "%.1f"}},
      {.key = "video_resolution", .type = FT::kSize, .label = "Video frame size (px)",
       .help = "[width, height] of the video frames as the data holds them.", .section = FS::kTraining,
       .limit = Range(1, 65536, "px"), TS_FIELD_SIZE(Scenario, training.media.video_width, training.media.video_height),
       .applies = ShowsVideo, .write_if = HasVideo},
      {.key = "video_max_pixels", .type = FT::kNumber, .label = "Max pixels per frame",
       .help = "The processor's cap on a video frame's area (ms-swift VIDEO_MAX_PIXELS); 0 = the model's own.",
       .section = FS::kTraining, .limit = Range(784, 268435456, "px", "the model's"),
       TS_FIELD_VALUE(Scenario, training.media.video_max_pixels), .applies = ShowsVideo, .write_if = HasVideo,
       .form = {.step = 50176, .format = "%.0f", .zero_text = "model default"}},
      {.key = "vision_training", .type = FT::kChoice, .label = "Vision tower",
       .help = "Frozen (the default of LLaMA-Factory, ms-swift and InternVL), LoRA adapters on its linear layers at "
               "lora_rank, or every weight trained.",
       .section = FS::kTraining, .choices = kVisionTrainingNames, .choice_labels = kVisionTrainingLabels,
       TS_FIELD_VALUE(Scenario, training.media.tower), .applies = HasVision, .write_if = HasVision},
      {.key = "projector_training", .type = FT::kBool, .label = "Train the projector",
       .help = "Train the projector (merger) between the tower and the language model; LLaMA-Factory and ms-swift "
               "freeze it by default, LLaVA and Qwen's own scripts train it.",
       .section = FS::kTraining, TS_FIELD_VALUE(Scenario, training.media.projector), .applies = HasVision,
       .write_if = HasVision},
      {.key = "freeze_llm", .type = FT::kBool, .label = "Freeze the LLM",
       .help = "Train only the vision side (LLaVA's stage 1 trains the projector alone); gradients still flow back "
               "through the language model.",
       .section = FS::kTraining, TS_FIELD_VALUE(Scenario, training.media.freeze_llm), .applies = HasVision,
       .write_if = HasVision},
      {.key = "vision_recompute", .type = FT::kChoice, .label = "Tower recomputation",
       .help = "Whether a trained tower recomputes its activations in backward: as the language model does "
               "(ms-swift vit_gradient_checkpointing unset), always, or never.",
       .section = FS::kTraining, .choices = kVisionRecomputeNames, .choice_labels = kVisionRecomputeLabels,
       TS_FIELD_VALUE(Scenario, training.media.recompute), .applies = TrainsTower, .write_if = HasVision},
      {.key = "micro_batch", .type = FT::kInteger, .label = "Micro-batch",
       .help = "Sequences per GPU per forward/backward pass.", .section = FS::kTraining,
       .limit = Range(1, 65536, "sequences"), TS_FIELD_VALUE(Scenario, training.micro_batch)},
      {.key = "global_batch", .type = FT::kInteger, .label = "Global batch",
       .help = "Sequences per optimizer step (0 = the method's default: 4M tokens for pre-training, 128 sequences "
               "for fine-tuning, in whole micro-batches on every data-parallel rank). More micro-batches per step "
               "shrink the pipeline bubble.",
       .section = FS::kTraining, .limit = Range(1, 1e8, "sequences", "the method's default: 4M tokens for pre-training, 128 sequences for fine-tuning"),
       TS_FIELD_VALUE(Scenario, training.global_batch), .form = {.step = 8}},
      {.key = "tokens", .type = FT::kNumber, .label = "Tokens (billions)",
       .help = "Total tokens to train on; gives wall time, GPU-hours and expected failures. 0 = dataset tokens × "
               "epochs.",
       .section = FS::kTraining, .limit = Range(1, 1e15, "tokens", "not given"), TS_FIELD_VALUE(Scenario, training.tokens),
       .form = {.step = 1, .step_fast = 10, .display_unit = 1e9, .format = "%.2f"}},
      {.key = "dataset_tokens", .type = FT::kNumber, .label = "Dataset (B tokens)",
       .help = "Tokens in one pass over your data.", .section = FS::kTraining,
       .limit = Range(1, 1e15, "tokens", "not given"), TS_FIELD_VALUE(Scenario, training.dataset_tokens),
       .applies = [](const Scenario& s) { return s.training.tokens <= 0 && !PostTrains(s); },
       .form = {.step = 0.1, .step_fast = 1, .display_unit = 1e9, .format = "%.3f"}},
      {.key = "epochs", .type = FT::kNumber, .label = "Epochs", .help = "Passes over the dataset.",
       .section = FS::kTraining, .limit = Range(0.01, 1000), TS_FIELD_VALUE(Scenario, training.epochs),
       .applies = [](const Scenario& s) { return s.training.tokens <= 0; },
       .form = {.step = 1, .step_fast = 1, .format = "%.1f"}},
      {.key = "eval_share", .type = FT::kNumber, .label = "Evaluation (% of tokens)",
       .help = "Held-out tokens evaluated over the run (forward passes only), as a share of the training tokens; "
               "counted in the time outside training steps. Default 1%: Megatron-LM's example scripts evaluate 10 "
               "batches every 1,000 steps. 0 = no evaluation.",
       .section = FS::kTraining, .limit = Range(0, 1), TS_FIELD_VALUE(Scenario, training.eval_share),
       .form = {.step = 1, .step_fast = 5, .percent = true, .format = "%.1f"}},
      {.key = "claim.tokens_per_s", .type = FT::kNumber, .label = "Claimed speed (tokens/s)",
       .help = "A claimed throughput across all GPUs, checked against physics.", .section = FS::kClaim,
       .limit = Range(1, 1e12, "tokens/s", "no claim"), TS_FIELD_VALUE(Scenario, training.claim.tokens_per_s),
       .form = {.step = 1000, .step_fast = 10000, .format = "%.0f", .zero_text = "no claim"}},
      {.key = "claim.wall_hours", .type = FT::kNumber, .label = "Claimed wall time",
       .help = "A claimed wall time for the tokens, checked against physics.", .section = FS::kClaim,
       .limit = Range(0.01, 876000, "h", "no claim"), TS_FIELD_VALUE(Scenario, training.claim.wall_hours),
       .form = {.step = 1, .step_fast = 24, .format = "%.1f", .zero_text = "no claim"}},
      {.key = "claim.wall_days", .type = FT::kNumber,
       .help = "The same claim in days; read as wall_hours × 24 (written back as wall_hours).",
       .limit = Range(0.001, 36500, "days", "no claim"),
       .get = [](const Scenario& s) { return s.training.claim.wall_hours / 24; },
       .set = [](Scenario& s, double days) {
         if (days > 0) s.training.claim.wall_hours = days * 24;
       },
       .written = false},
      {.key = "claim.mfu", .type = FT::kNumber, .label = "Claimed MFU (%)",
       .help = "A claimed model-FLOPs utilization: the share of the GPUs' dense bf16 peak spent on the model's own "
               "arithmetic (45% is 0.45 in JSON and links), checked against physics; above 100% it is impossible.",
       .section = FS::kClaim, .limit = Range(0.001, 10, "", "no claim"), TS_FIELD_VALUE(Scenario, training.claim.mfu),
       .form = {.step = 1, .step_fast = 5, .percent = true, .format = "%.1f", .zero_text = "no claim"}},
      {.key = "auto_restart", .type = FT::kBool,
       .help = "A supervisor (torchrun elastic, a job scheduler) restarts the job after a failure; otherwise a "
               "person does, after 4 h on average.",
       TS_FIELD_VALUE(Scenario, training.auto_restart)},
      {.key = "restart_minutes", .type = FT::kNumber, .help = "Minutes from a failure to training again, when auto_restart is on.",
       .limit = Range(0, 10000, "min"), TS_FIELD_VALUE(Scenario, training.restart_minutes),
       .applies = [](const Scenario& s) { return s.training.auto_restart; }},
      {.key = "activation_checkpointing", .type = FT::kChoice, .label = "Checkpointing",
       .help = "Activation (gradient) checkpointing: recompute activations in the backward pass instead of "
               "storing them.",
       .section = FS::kTraining, .choices = kRecomputeNames, .choice_labels = kRecomputeLabels,
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.activation_checkpointing),
       .fill_default = [](Scenario& s) { s.training.activation_checkpointing = Profile(s).recompute; }},
      {.key = "recompute_modules", .type = FT::kTextList,
       .help = "With selective checkpointing, what is recomputed (Megatron --recompute-modules); empty: what the "
               "framework's selective checkpointing does (Megatron: core attention; torchtitan: every other "
               "matmul).",
       .type_text = "array of core_attn, mlp, moe, moe_act, layernorm, mla_up_proj, shared_experts",
       .default_text = "the framework's", TS_FIELD_LIST(Scenario, training.recompute_modules), .applies = Selective},
      {.key = "activation_offload", .type = FT::kBool, .label = "Offload activations",
       .help = "Stored activations wait in CPU memory until backward (torchtune, Megatron --cpu-offloading, "
               "Unsloth): the GPU keeps about two layers' worth; the copies cost PCIe time when compute cannot "
               "hide them.",
       .section = FS::kTraining, .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.activation_offload),
       .fill_default = [](Scenario& s) { s.training.activation_offload = Profile(s).activation_offload; }},
      {.key = "recompute_layers", .type = FT::kInteger,
       .help = "With full checkpointing, how many layers are recomputed; 0 = all (Megatron --recompute-num-layers).",
       .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(Scenario, training.recompute_layers),
       .applies = [](const Scenario& s) { return s.training.activation_checkpointing == Recompute::kFull; }},
      {.key = "flash_attention", .type = FT::kBool, .label = "FlashAttention",
       .help = "Fused attention that never stores the s×s score matrix.", .section = FS::kTraining,
       TS_FIELD_VALUE(Scenario, training.flash_attention)},
      {.key = "attention_backend", .type = FT::kChoice, .label = "Attention kernels",
       .help = "Which fused attention runs: flash-attn (FlashAttention-2, also behind PyTorch SDPA) or cuDNN's "
               "(Transformer Engine's choice on Hopper and Blackwell), about 1.5 times as fast on Hopper.",
       .section = FS::kTraining, .choices = kAttentionBackendNames, .choice_labels = kAttentionBackendLabels,
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.attention_backend),
       .applies = [](const Scenario& s) { return s.training.flash_attention; },
       .fill_default = [](Scenario& s) { s.training.attention_backend = Profile(s).attention_backend; }},
      {.key = "kernels", .type = FT::kChoice, .label = "Kernels",
       .help = "Eager PyTorch saves more per layer (unfused SwiGLU, fp32 norm copies) than fused kernels.",
       .section = FS::kTraining, .choices = kKernelNames, .choice_labels = kKernelLabels,
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.kernels),
       .fill_default = [](Scenario& s) { s.training.kernels = Profile(s).kernels; }},
      {.key = "cross_entropy", .type = FT::kChoice, .label = "Cross-entropy",
       .help = "How the loss over the vocabulary is computed; the logits are often the largest single buffer.",
       .section = FS::kTraining, .choices = kCrossEntropyNames, .choice_labels = kCrossEntropyLabels,
       .default_text = "the framework's", TS_FIELD_VALUE(Scenario, training.cross_entropy),
       .fill_default = [](Scenario& s) { s.training.cross_entropy = Profile(s).cross_entropy; }},
      // Hardware and parallelism
      {.key = "gpu", .type = FT::kText, .label = "GPU", .help = "The accelerator every estimate is checked against.",
       .section = FS::kHardware, .type_text = "catalog GPU id (`trainsizer catalog`)", TS_FIELD_TEXT(Scenario, gpu_id)},
      {.key = "gpu_power_w", .type = FT::kNumber, .label = "Power limit (W)",
       .help = "The GPU's power limit as it runs (nvidia-smi -pl; some clusters cap H100s at 500 W): below the "
               "rated power, clocks and compute rates drop. 0 = the rated power.",
       .section = FS::kHardware, .limit = Range(100, 2000, "W", "the GPU's rated power"),
       TS_FIELD_VALUE(Scenario, gpu_power_w), .form = {.step = 50, .step_fast = 100, .format = "%.0f"}},
      {.key = "gpus", .type = FT::kInteger, .label = "GPUs", .help = "Total GPUs in the job.",
       .section = FS::kHardware, .limit = Range(1, 1048576, "GPUs"), TS_FIELD_VALUE(Scenario, parallel.gpus)},
      {.key = "gpus_per_node", .type = FT::kInteger, .label = "GPUs per node",
       .help = "GPUs in one server (8 in HGX/DGX and most PCIe servers): collectives inside a node run over its "
               "scale-up link, the rest over the network.",
       .section = FS::kHardware, .limit = Range(1, 576, "GPUs"), .default_text = "min(gpus, 8)",
       TS_FIELD_VALUE(Scenario, parallel.gpus_per_node),
       .fill_default = [](Scenario& s) { s.parallel.gpus_per_node = DefaultGpusPerNode(s.parallel.gpus); }},
      {.key = "framework", .type = FT::kChoice, .label = "Framework",
       .help = "The training stack. It sets how model states are laid out (FSDP: the ZeRO paper's 16 B/param; "
               "DeepSpeed adds an fp32 gradient partition; Megatron keeps fp32 gradients and zero 1 is its "
               "distributed optimizer) and the defaults of kernels, cross-entropy and checkpointing.",
       .section = FS::kHardware, .choices = kFrameworkNames, .choice_labels = kFrameworkLabels,
       .choice_aliases = kFrameworkAliases,
       TS_FIELD_VALUE(Scenario, parallel.framework)},
      {.key = "zero", .type = FT::kInteger, .label = "ZeRO / FSDP",
       .help = "0: plain data parallel; 1: shard optimizer state; 2: + gradients; 3 (FSDP full-shard): + weights, "
               "across the data-parallel GPUs.",
       .section = FS::kHardware, .limit = Range(0, 3), TS_FIELD_VALUE(Scenario, parallel.zero), .form = {.slider = true}},
      {.key = "sharding", .type = FT::kChoice, .label = "Sharding engine",
       .help = "What a Hugging Face stack (Trainer, TRL, LLaMA-Factory, axolotl) shards with through Accelerate: "
               "DeepSpeed ZeRO (fp32 gradient partition, communication buckets) or PyTorch FSDP (the root module "
               "with embeddings and LM head stays gathered through backward under full sharding).",
       .section = FS::kHardware, .choices = kShardingNames, .choice_labels = kShardingLabels,
       TS_FIELD_VALUE(Scenario, parallel.sharding),
       .applies = [](const Scenario& s) { return RunsOnAccelerate(s.parallel.framework) && s.parallel.zero >= 1; }},
      {.key = "tp", .type = FT::kInteger, .label = "Tensor parallel",
       .help = "Splits every layer's matrices across GPUs of a node (needs a fast link).", .section = FS::kHardware,
       .limit = Range(1, 1024), TS_FIELD_VALUE(Scenario, parallel.tp)},
      {.key = "pp", .type = FT::kInteger, .label = "Pipeline parallel",
       .help = "Splits the layers into stages on different GPUs.", .section = FS::kHardware,
       .limit = Range(1, 1000, "stages"), TS_FIELD_VALUE(Scenario, parallel.pp)},
      {.key = "virtual_pipeline", .type = FT::kInteger, .label = "Interleaved stages",
       .help = "Virtual pipeline chunks per stage (Megatron interleaved 1F1B): a smaller bubble for more "
               "point-to-point traffic.",
       .section = FS::kHardware, .limit = Range(1, 64), TS_FIELD_VALUE(Scenario, parallel.virtual_pipeline),
       .applies = [](const Scenario& s) { return s.parallel.pp > 1; }},
      {.key = "first_stage_layers", .type = FT::kInteger, .label = "Layers on the first stage",
       .help = "Decoder layers on the first pipeline stage, often one or two fewer for the embedding and the most "
               "micro-batches in flight (Megatron --decoder-first-pipeline-num-layers); 0 = an even share.",
       .section = FS::kHardware, .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(Scenario, parallel.first_stage_layers),
       .applies = [](const Scenario& s) { return s.parallel.pp > 1; }},
      {.key = "last_stage_layers", .type = FT::kInteger, .label = "Layers on the last stage",
       .help = "Decoder layers on the last pipeline stage, often fewer for the LM head and loss (Megatron "
               "--decoder-last-pipeline-num-layers); 0 = an even share.",
       .section = FS::kHardware, .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(Scenario, parallel.last_stage_layers),
       .applies = [](const Scenario& s) { return s.parallel.pp > 1; }},
      {.key = "cp", .type = FT::kInteger, .label = "Context parallel",
       .help = "Splits each sequence across GPUs (ring attention), for long contexts.", .section = FS::kHardware,
       .limit = Range(1, 1024), TS_FIELD_VALUE(Scenario, parallel.cp)},
      {.key = "ep", .type = FT::kInteger, .label = "Expert parallel",
       .help = "Spreads a Mixture-of-Experts model's experts over the data-parallel GPUs.", .section = FS::kHardware,
       .limit = Range(1, 4096), TS_FIELD_VALUE(Scenario, parallel.ep),
       .applies = [](const Scenario& s) { return s.model.IsMoe() || s.parallel.ep > 1; }},
      {.key = "etp", .type = FT::kInteger, .label = "Expert tensor parallel",
       .help = "Ranks that split each expert's matrices (Megatron --expert-tensor-parallel-size); 0 = tp. With 1, "
               "experts stay whole and ep may span the tensor-parallel ranks (MoE parallel folding).",
       .section = FS::kHardware, .limit = Range(1, 1024, "", "the tensor-parallel degree"),
       TS_FIELD_VALUE(Scenario, parallel.etp),
       .applies = [](const Scenario& s) { return s.model.IsMoe() || s.parallel.etp > 0; }},
      {.key = "sequence_parallel", .type = FT::kBool, .label = "Sequence parallel",
       .help = "With tensor parallelism, also splits norm and dropout activations.", .section = FS::kHardware,
       TS_FIELD_VALUE(Scenario, parallel.sequence_parallel)},
      {.key = "tp_comm_overlap", .type = FT::kBool, .label = "Overlap TP traffic",
       .help = "Tensor-parallel collectives pipelined with the matrix multiplies (Megatron --tp-comm-overlap, "
               "torchtitan AsyncTP).",
       .section = FS::kHardware, .default_text = "the framework's", TS_FIELD_VALUE(Scenario, parallel.tp_comm_overlap),
       .applies = [](const Scenario& s) { return s.parallel.tp > 1; },
       .fill_default = [](Scenario& s) { s.parallel.tp_comm_overlap = Profile(s).tp_comm_overlap; }},
      {.key = "offload", .type = FT::kChoice, .label = "CPU offload",
       .help = "Keep optimizer state (and weights) in host RAM, as DeepSpeed ZeRO-Offload does.",
       .section = FS::kHardware, .choices = kOffloadNames, .choice_labels = kOffloadLabels,
       TS_FIELD_VALUE(Scenario, parallel.offload)},
      {.key = "network", .type = FT::kText, .label = "Network between nodes",
       .help = "The scale-out fabric data- and pipeline-parallel traffic crosses.", .section = FS::kHardware,
       .type_text = "catalog fabric id between nodes (`catalog/networks.json`)", TS_FIELD_TEXT(Scenario, parallel.network)},
      {.key = "node_gbps", .type = FT::kNumber, .label = "Node bandwidth (Gbit/s)",
       .help = "Inter-node bandwidth per node; 0 = the fabric's usual 8-GPU node setup.", .section = FS::kHardware,
       .limit = Range(1, 1e6, "Gbit/s", "the fabric's usual"), TS_FIELD_VALUE(Scenario, parallel.node_gbps),
       .form = {.step = 100, .step_fast = 400, .format = "%.0f"}},
      {.key = "storage", .type = FT::kText, .label = "Checkpoint storage",
       .help = "Where checkpoints are written: its write speed sets how long each checkpoint stalls training.",
       .section = FS::kHardware, .type_text = "catalog storage tier id (`catalog/own_hardware.json`)",
       .default_text = "local NVMe; a parallel file system past one node", TS_FIELD_TEXT(Scenario, storage)},
      {.key = "mfu", .type = FT::kNumber, .label = "MFU override (%)",
       .help = "Set a model-FLOPs utilization you trust instead of the predicted one; 0 = predict.",
       .section = FS::kHardware, .limit = Range(0.001, 1, "", "predicted"), TS_FIELD_VALUE(Scenario, training.mfu),
       .form = {.step = 1, .step_fast = 5, .percent = true, .format = "%.1f"}},
  };
  return t;
}

const FieldTable<Scenario>& Table() {
  static const FieldTable<Scenario> table(BuildTable(), "");
  return table;
}

}  // namespace

std::span<const ScenarioField> ScenarioFields() { return Table().fields(); }

const ScenarioField* FindScenarioField(std::string_view key) { return FindField(ScenarioFields(), key); }

std::span<const NumericLimit> ScenarioFieldLimits() { return Table().limits(); }

std::optional<InputError> CheckFieldLimits(const Scenario& s) { return CheckLimitsOf(ScenarioFields(), s); }

}  // namespace engine
