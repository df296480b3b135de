#include "engine/exports/launch_configs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/contract/message_json.h"
#include "engine/exports/launch_text.h"
#include "engine/exports/rl_launch.h"
#include "engine/exports/swift_launch.h"
#include "engine/exports/trainer_args.h"
#include "engine/format.h"
#include "engine/framework_profile.h"
#include "engine/imports/hf_config.h"
#include "engine/memory_model.h"
#include "engine/post_training.h"
#include "engine/vision.h"

namespace engine::exports {
namespace {

// [SECTION] Shared pieces

// Megatron-LM parses --rotary-base as an int (megatron/training/arguments.py,
// _add_network_size_args): a whole rope_theta is written with every digit, another one
// rounded, with a note.
bool WholeNumber(double value) { return std::floor(value) == value; }

std::string RotaryBase(double theta) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", std::round(theta));
  return text;
}

// The RoPE base is not in the engine's model spec: without it from a config.json, Megatron-LM
// gets a placeholder that fails loudly, instead of its default 10000, which would silently
// train Llama 3 (500000) or Qwen2.5 (1000000) with the wrong positions.
constexpr const char* kRopePlaceholder = "REPLACE_WITH_ROPE_THETA";

bool NeedsRopePlaceholder(const Scenario& s, LaunchTool tool, const RopeSettings& rope) {
  return tool == LaunchTool::kMegatron && s.model.learned_positions == 0 && rope.theta <= 0;
}

}  // namespace

// The engine's notes for `tool`, and the codec's own about what the model spec lacks.
std::vector<engine::Message> LaunchConfigNotes(const Scenario& s, LaunchTool tool, const RopeSettings& rope) {
  std::vector<engine::Message> notes = engine::LaunchNotes(s, tool);
  if (tool == LaunchTool::kSwift) {
    const std::vector<engine::Message> vision = SwiftVisionNotes(s);
    notes.insert(notes.end(), vision.begin(), vision.end());
  }
  if (NeedsRopePlaceholder(s, tool, rope)) {
    notes.push_back(engine::MakeMessage("launch.megatron.rope_placeholder",
                                        {engine::TextArg("placeholder", kRopePlaceholder)}));
    notes.push_back(engine::MakeMessage("launch.megatron.rope_scaling"));
  }
  if (tool == LaunchTool::kMegatron && s.model.learned_positions == 0 && rope.theta > 0 && !WholeNumber(rope.theta)) {
    // Both numbers as the files write them, every digit (not a rounded figure).
    notes.push_back(engine::MakeMessage("launch.megatron.rope_theta_rounded",
                                        {engine::TextArg("rope_theta", ExactNumber(rope.theta)),
                                         engine::TextArg("rotary_base", RotaryBase(rope.theta))}));
  }
  return notes;
}

std::string NotesComment(const Scenario& s, LaunchTool tool, const RopeSettings& rope) {
  const std::vector<engine::Message> notes = LaunchConfigNotes(s, tool, rope);
  if (notes.empty()) return "";
  std::string out = "# Notes:\n";
  for (const engine::Message& n : notes) out += "#   " + n.english + "\n";
  return out;
}

namespace {

// `torchrun ... SCRIPT \` followed by one argument per line.
std::string ShellCommand(const Scenario& s, const std::string& script, const std::vector<std::string>& args) {
  const LaunchPlan plan = engine::PlanLaunch(s);
  // torchrun elastic quickstart: https://docs.pytorch.org/docs/stable/elastic/quickstart.html
  std::string out = "torchrun --nnodes " + std::to_string(plan.nodes) + " --nproc_per_node " +
                    std::to_string(plan.procs_per_node) + " --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:" +
                    std::to_string(kRendezvousPort) + " --rdzv_id trainsizer --max-restarts " +
                    (s.training.auto_restart ? "3" : "0") + " \\\n  " + script;
  for (const std::string& a : args) out += " \\\n  " + a;
  return out + "\n";
}

// [SECTION] DeepSpeed

// Key names from the DeepSpeed configuration reference: https://www.deepspeed.ai/docs/config-json/
nlohmann::ordered_json DeepSpeedZero(const Scenario& s) {
  const engine::Parallelism& p = s.parallel;
  nlohmann::ordered_json zero = {{"stage", p.zero}};
  if (p.zero == 0) return zero;
  zero["overlap_comm"] = true;
  zero["contiguous_gradients"] = true;
  const nlohmann::ordered_json cpu = {{"device", "cpu"}, {"pin_memory", true}};
  if (p.offload != engine::Offload::kNone) zero["offload_optimizer"] = cpu;
  if (p.offload == engine::Offload::kOptimizerAndParams && p.zero == 3) zero["offload_param"] = cpu;
  return zero;
}

void AddDeepSpeedPrecision(const Scenario& s, nlohmann::ordered_json& ds) {
  const Precision precision = s.training.precision;
  if (precision == Precision::kFp16) {
    // loss_scale 0 = dynamic loss scaling, starting at 2^initial_scale_power.
    ds["fp16"] = {{"enabled", true},          {"loss_scale", 0}, {"initial_scale_power", 16},
                  {"loss_scale_window", 1000}, {"hysteresis", 2}, {"min_loss_scale", 1}};
  } else if (precision != Precision::kFp32) {
    ds["bf16"] = {{"enabled", true}};
  }
}

}  // namespace

std::string DeepSpeedConfig(const Scenario& s) {
  // Every GPU a data-parallel rank, as the Hugging Face Trainer (LLaMA-Factory) counts them.
  const LaunchPlan plan = engine::PlanLaunch(s, LaunchTool::kDeepSpeed);
  nlohmann::ordered_json ds;
  ds["train_batch_size"] = plan.global_batch;
  ds["train_micro_batch_size_per_gpu"] = plan.micro_batch;
  ds["gradient_accumulation_steps"] = plan.grad_accum_steps;
  ds["gradient_clipping"] = kClipNorm;
  ds["steps_per_print"] = 10;
  AddDeepSpeedPrecision(s, ds);
  ds["zero_optimization"] = DeepSpeedZero(s);
  if (s.training.optimizer == Optimizer::kAdamW) {
    ds["optimizer"] = {{"type", "AdamW"},
                       {"params",
                        {{"lr", PlaceholderLearningRate(s.training.method).value},
                         {"betas", {kBeta1, kBeta2}},
                         {"eps", kEpsilon},
                         {"weight_decay", kWeightDecay}}}};
  } else {
    ds["zero_allow_untested_optimizer"] = true;  // the script brings its own optimizer
  }
  if (s.training.activation_checkpointing == Recompute::kFull) {
    ds["activation_checkpointing"] = {{"partition_activations", s.parallel.tp > 1},
                                      {"cpu_checkpointing", false},
                                      {"contiguous_memory_optimization", false},
                                      {"synchronize_checkpoint_boundary", false}};
  }
  return contract::DumpJson(ds, 2) + "\n";
}

// [SECTION] torchrun + FSDP (Hugging Face Trainer)

namespace {

void AddTrainerMethodArgs(const engine::Training& t, std::vector<std::string>& args) {
  if (!TrainsAdapters(t.method)) return;
  // TRL ModelConfig flags (trl/trainer/model_config.py).
  args.push_back("--use_peft --lora_r " + std::to_string(t.lora_rank) + " --lora_target_modules " +
                 LoraModules(t.lora_targets, false));
  if (t.lora_dropout > 0) args.push_back("--lora_dropout " + engine::Num(t.lora_dropout));
  if (const std::string saved = SavedModuleNames(t, " "); !saved.empty()) args.push_back("--lora_modules_to_save " + saved);
  if (t.method == Method::kQlora) args.push_back("--load_in_4bit --bnb_4bit_quant_type nf4");
}

void AddTrainerPrecisionArgs(Precision precision, std::vector<std::string>& args) {
  if (precision == Precision::kFp16) args.push_back("--fp16");
  if (precision == Precision::kBf16 || IsLowPrecisionGemm(precision)) args.push_back("--bf16");
  // Weights loaded in bf16 and trained without an fp32 copy.
  if (precision == Precision::kBf16Pure) args.push_back("--bf16 --torch_dtype bfloat16");
}

}  // namespace

std::string TorchrunCommand(const Scenario& s, std::string_view hf_repo) {
  const LaunchPlan plan = engine::PlanLaunch(s, LaunchTool::kTorchrun);
  const engine::Training& t = s.training;
  // SFTConfig.max_length as of TRL 0.16 (it replaced max_seq_length, removed in TRL 0.20:
  // huggingface/trl#3912); scripts on TRL < 0.16 take --max_seq_length instead.
  std::vector<std::string> args = {"--model_name_or_path " + ModelPath(hf_repo),
                                   "--max_length " + std::to_string(t.seq_len),
                                   "--per_device_train_batch_size " + std::to_string(plan.micro_batch),
                                   "--gradient_accumulation_steps " + std::to_string(plan.grad_accum_steps),
                                   StepsArgument(plan, s.training, "--max_steps", "--num_train_epochs"),
                                   std::string("--learning_rate ") + PlaceholderLearningRate(t.method).text,
                                   "--max_grad_norm " + engine::Num(kClipNorm),
                                   std::string("--optim ") + TrainerOptimizer(t.optimizer)};
  AddTrainerPrecisionArgs(t.precision, args);
  if (t.activation_checkpointing != Recompute::kNone) args.push_back("--gradient_checkpointing");
  if (const std::string fsdp = FsdpOption(s.parallel); !fsdp.empty()) args.push_back("--fsdp \"" + fsdp + "\"");
  AddTrainerMethodArgs(t, args);
  const std::string header = Comment(
      {"torchrun + PyTorch FSDP through the Hugging Face Trainer: train.py is a Trainer/TRL script taking",
       "TrainingArguments and TRL ModelConfig flags (e.g. TRL's examples/scripts/sft.py).",
       "Run the same command on each of the " + std::to_string(plan.nodes) +
           " node(s); MASTER_ADDR = the first node's address.",
       BatchSentence(plan) + "; sequences of " + std::to_string(t.seq_len) + " tokens (TRL >= 0.16 --max_length).",
       "FSDP reference: https://huggingface.co/docs/transformers/fsdp"});
  return header + NotesComment(s, LaunchTool::kTorchrun) + ShellCommand(s, "train.py", args);
}

// [SECTION] LLaMA-Factory

namespace {

// A YAML scalar: plain when it is made of safe characters, else a JSON-quoted string
// (valid YAML double-quoted scalar).
std::string YamlScalar(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' || c == '.';
  });
  return plain ? std::string(text) : contract::DumpJson(contract::Json(std::string(text)));
}

std::string YamlMethod(const engine::Training& t) {
  std::string out = "### method\n";
  out += std::string("stage: ") + (t.method == Method::kPretrain ? "pt" : "sft") + "\ndo_train: true\n";
  if (TrainsAdapters(t.method)) {
    out += "finetuning_type: lora\nlora_rank: " + std::to_string(t.lora_rank) + "\nlora_target: " +
           LoraModules(t.lora_targets, true) + "\n";
    if (t.lora_dropout > 0) out += "lora_dropout: " + engine::Num(t.lora_dropout) + "\n";
    if (const std::string saved = SavedModuleNames(t, ","); !saved.empty()) out += "additional_target: " + saved + "\n";
  } else if (t.method == Method::kFreeze) {
    out += "finetuning_type: freeze\nfreeze_trainable_layers: " + std::to_string(t.freeze_trainable_layers) + "\n";
  } else {
    out += "finetuning_type: full\n";
  }
  // LLaMA-Factory turns gradient checkpointing on unless told otherwise.
  if (t.activation_checkpointing == Recompute::kNone) out += "disable_gradient_checkpointing: true\n";
  // Unsloth's checkpointing, which LLaMA-Factory offers, keeps the layer inputs in host memory.
  if (t.activation_offload && t.activation_checkpointing == Recompute::kFull) out += "use_unsloth_gc: true\n";
  return out;
}

std::string YamlPrecision(Precision precision) {
  switch (precision) {
    case Precision::kFp16: return "fp16: true\n";
    case Precision::kFp32: return "";
    case Precision::kBf16Pure: return "bf16: true\npure_bf16: true\n";
    default: return "bf16: true\n";
  }
}

std::string YamlTrain(const Scenario& s, const LaunchPlan& plan) {
  const engine::Training& t = s.training;
  std::string out = "### train\nper_device_train_batch_size: " + std::to_string(plan.micro_batch) +
                    "\ngradient_accumulation_steps: " + std::to_string(plan.grad_accum_steps) + "\n";
  out += plan.train_steps > 0 ? "max_steps: " + std::to_string(plan.train_steps) + "\n"
                              : "num_train_epochs: " + engine::Num(t.epochs) + "\n";
  out += std::string("learning_rate: ") + PlaceholderLearningRate(t.method).text + "  # placeholder: tune it\n";
  out += "lr_scheduler_type: cosine\nwarmup_ratio: 0.03\n";
  out += "adam_beta1: " + engine::Num(kBeta1) + "\nadam_beta2: " + engine::Num(kBeta2) +
         "\nadam_epsilon: 1.0e-8\nweight_decay: " + engine::Num(kWeightDecay) +
         "\nmax_grad_norm: " + engine::Num(kClipNorm) + "\n";
  out += std::string("optim: ") + TrainerOptimizer(t.optimizer) + "\n";
  out += YamlPrecision(t.precision);
  if (s.parallel.zero > 0 && !ShardsThroughAccelerateFsdp(s.parallel)) {
    out += "deepspeed: ds_config.json  # the DeepSpeed config from `trainsizer launch --tool deepspeed`\n";
  }
  return out;
}

// The chat template LLaMA-Factory needs: a vision-language model's own, which inserts the
// image placeholders (README "Supported Models" table, 2025; qwen3_vl added with Qwen3-VL,
// 2025-10), by preset id; otherwise a placeholder to pick.
std::string LlamaFactoryTemplate(const engine::ModelSpec& m) {
  constexpr std::pair<std::string_view, std::string_view> kTemplates[] = {
      {"qwen3-vl", "qwen3_vl"},  {"qwen2.5-vl", "qwen2_vl"}, {"qwen2-vl", "qwen2_vl"},
      {"internvl", "intern_vl"}, {"llava-1.5", "llava"},     {"llama-3.2-", "mllama"},
      {"gemma-3-", "gemma3"},    {"minicpm", "minicpm_v"},   {"pixtral", "pixtral"}};
  if (m.vision.present()) {
    for (const auto& [prefix, name] : kTemplates) {
      if (m.id.starts_with(prefix)) return std::string(name);
    }
  }
  return "default  # the model's chat template, e.g. llama3 or qwen";
}

// A vision-language model's settings (LLaMA-Factory hparams/finetuning_args.py and
// model_args.py, 2025): what is frozen, and the pixel caps the estimate sized. Its own
// image_max_pixels default is 768 × 768 = 589,824, below Qwen2.5-VL's 12,845,056, so the
// cap is always written.
std::string YamlMultimodal(const Scenario& s) {
  const engine::VisionSpec& v = s.model.vision;
  if (!v.present()) return "";
  const engine::MediaSetup& media = s.training.media;
  auto flag = [](bool on) { return Bool(on, "true", "false"); };
  std::string out = "\n### multimodal\nfreeze_vision_tower: " + flag(media.tower == engine::VisionTraining::kFrozen) +
                    "\nfreeze_multi_modal_projector: " + flag(!media.projector) +
                    "\nfreeze_language_model: " + flag(media.freeze_llm) + "\n";
  const PixelCaps caps = ProcessorPixelCaps(s);
  if (caps.image_max > 0) out += "image_max_pixels: " + ExactNumber(caps.image_max) + "\n";
  if (caps.image_min > 0) out += "image_min_pixels: " + ExactNumber(caps.image_min) + "\n";
  if (caps.video_max > 0) out += "video_max_pixels: " + ExactNumber(caps.video_max) + "\n";
  out += "video_fps: " + engine::Num(media.video_fps) + "\n";
  return out;
}

}  // namespace

std::string LlamaFactoryYaml(const Scenario& s, std::string_view hf_repo) {
  const LaunchPlan plan = engine::PlanLaunch(s, LaunchTool::kLlamaFactory);
  const engine::Training& t = s.training;
  std::string out = Comment(
      {"LLaMA-Factory: llamafactory-cli train this.yaml",
       "Multi-node: FORCE_TORCHRUN=1 NNODES=" + std::to_string(plan.nodes) +
           " NODE_RANK=<0..> MASTER_ADDR=<first node> MASTER_PORT=" + std::to_string(kRendezvousPort) +
           " llamafactory-cli train this.yaml",
       "Keys as in LLaMA-Factory's examples/train_lora/llama3_lora_sft.yaml."});
  out += NotesComment(s, LaunchTool::kLlamaFactory);
  out += "\n### model\nmodel_name_or_path: " + YamlScalar(ModelPath(hf_repo)) + "\n";
  // LLaMA-Factory loads a GPTQ/AWQ/FP8 checkpoint as stored; quantization_bit asks it to
  // quantize an unquantized one on the fly (bitsandbytes).
  if (s.model.IsQuantizedCheckpoint()) {
    out += "# the checkpoint is already quantized: LLaMA-Factory reads its quantization_config\n";
  } else if (t.method == Method::kQlora) {
    out += "quantization_bit: 4\nquantization_method: bitsandbytes\n";
  }
  out += std::string("flash_attn: ") + (t.flash_attention ? "fa2" : "disabled") + "\n\n";
  out += YamlMethod(t);
  out += YamlMultimodal(s);
  out += "\n### dataset\ndataset: REPLACE_WITH_DATASET  # a name from data/dataset_info.json\n";
  out += "template: " + LlamaFactoryTemplate(s.model) + "\ncutoff_len: " + std::to_string(t.seq_len) +
         "\npreprocessing_num_workers: 16\n";
  out += "\n### output\noutput_dir: " + YamlScalar("saves/" + s.model.id) + "\nlogging_steps: 10\nsave_steps: 500\n\n";
  out += YamlTrain(s, plan);
  return out;
}

// [SECTION] Megatron-LM

namespace {

// Positions and regularization, from megatron/training/arguments.py. Megatron-LM's dropouts
// default to 0.1 (_add_regularization_args); the preset families (Llama, Qwen, Mistral,
// Gemma, Phi-3) train without dropout (attention_dropout 0.0 in their config.json), as
// Megatron-LM's own Llama recipes set. The RoPE base defaults to 10000 (_add_network_size_args).
void AddMegatronPositionArgs(const engine::ModelSpec& m, const RopeSettings& rope, std::vector<std::string>& args) {
  if (m.learned_positions > 0) {
    args.push_back("--position-embedding-type learned_absolute");
  } else {
    args.push_back("--position-embedding-type rope --rotary-base " +
                   (rope.theta > 0 ? RotaryBase(rope.theta) : std::string(kRopePlaceholder)));
    if (rope.llama3_scaling > 0) {
      args.push_back("--use-rope-scaling --rope-scaling-factor " + ExactNumber(rope.llama3_scaling));
    }
  }
  args.push_back("--attention-dropout 0 --hidden-dropout 0");
}

// Flags from megatron/training/arguments.py (_add_network_size_args).
std::vector<std::string> MegatronModelArgs(const Scenario& s, const RopeSettings& rope) {
  const engine::ModelSpec& m = s.model;
  std::vector<std::string> args = {"--num-layers " + std::to_string(m.layers), "--hidden-size " + std::to_string(m.hidden),
                                   "--num-attention-heads " + std::to_string(m.heads)};
  if (m.ffn > 0) args.push_back("--ffn-hidden-size " + std::to_string(m.ffn));
  if (m.kv_heads > 0 && m.kv_heads < m.heads) {
    args.push_back("--group-query-attention --num-query-groups " + std::to_string(m.kv_heads));
  }
  if (m.head_dim > 0 && m.head_dim * m.heads != m.hidden) args.push_back("--kv-channels " + std::to_string(m.head_dim));
  args.push_back("--seq-length " + std::to_string(s.training.seq_len));
  args.push_back("--max-position-embeddings " + std::to_string(std::max(m.max_context, s.training.seq_len)));
  if (m.mlp == engine::MlpKind::kGated) args.push_back("--swiglu");
  args.push_back(std::string("--normalization ") + (m.norm == engine::NormKind::kRmsNorm ? "RMSNorm" : "LayerNorm"));
  AddMegatronPositionArgs(m, rope, args);
  if (!m.tied_embeddings) args.push_back("--untie-embeddings-and-output-weights");
  if (!m.linear_bias) args.push_back("--disable-bias-linear");
  if (m.qkv_bias) args.push_back("--add-qkv-bias");
  if (!m.IsMoe()) return args;
  args.push_back("--num-experts " + std::to_string(m.moe.experts) + " --moe-router-topk " +
                 std::to_string(m.moe.experts_per_token) + " --moe-ffn-hidden-size " + std::to_string(m.moe.moe_ffn));
  const int shared_ffn = static_cast<int>(m.moe.SharedWidth());
  if (shared_ffn > 0) args.push_back("--moe-shared-expert-intermediate-size " + std::to_string(shared_ffn));
  if (m.moe.dense_layers > 0) {
    args.push_back("--moe-layer-freq \"[0]*" + std::to_string(m.moe.dense_layers) + "+[1]*" +
                   std::to_string(m.MoeLayers()) + "\"");
  }
  return args;
}

void AddMegatronParallelArgs(const Scenario& s, std::vector<std::string>& args) {
  const engine::Parallelism& p = s.parallel;
  args.push_back("--tensor-model-parallel-size " + std::to_string(p.tp));
  args.push_back("--pipeline-model-parallel-size " + std::to_string(p.pp));
  const bool uneven_ends = p.pp > 1 && p.UnevenEnds();
  if (uneven_ends && p.first_stage_layers > 0) {
    args.push_back("--decoder-first-pipeline-num-layers " + std::to_string(p.first_stage_layers));
  }
  if (uneven_ends && p.last_stage_layers > 0) {
    args.push_back("--decoder-last-pipeline-num-layers " + std::to_string(p.last_stage_layers));
  }
  if (p.virtual_pipeline > 1 && !uneven_ends && s.model.layers % (p.pp * p.virtual_pipeline) == 0) {
    args.push_back("--num-layers-per-virtual-pipeline-stage " +
                   std::to_string(s.model.layers / (p.pp * p.virtual_pipeline)));
  } else if (p.virtual_pipeline > 1) {
    // Layers that do not divide over the chunks: Megatron-LM places them itself given the
    // chunk count (arguments.py --num-virtual-stages-per-pipeline-rank).
    args.push_back("--num-virtual-stages-per-pipeline-rank " + std::to_string(p.virtual_pipeline));
  }
  if (p.sequence_parallel && p.tp > 1) args.push_back("--sequence-parallel");
  if (p.tp_comm_overlap && p.tp > 1) args.push_back("--tp-comm-overlap");
  args.push_back("--context-parallel-size " + std::to_string(p.cp));
  args.push_back("--expert-model-parallel-size " + std::to_string(p.ep));
  if (p.etp > 0) args.push_back("--expert-tensor-parallel-size " + std::to_string(p.etp));
  // zero 1 = the distributed optimizer; zero ≥ 2 has no Megatron-LM equivalent (a note),
  // so the nearest, optimizer sharding, is kept.
  if (p.zero >= 1) args.push_back("--use-distributed-optimizer");
}

void AddMegatronTrainingArgs(const Scenario& s, const LaunchPlan& plan, std::vector<std::string>& args) {
  const engine::Training& t = s.training;
  args.push_back("--micro-batch-size " + std::to_string(plan.micro_batch));
  args.push_back("--global-batch-size " + std::to_string(plan.global_batch));
  args.push_back("--train-iters " + std::to_string(plan.train_steps > 0 ? plan.train_steps : 1000));
  if (t.precision == Precision::kFp16) args.push_back("--fp16");
  if (t.precision == Precision::kBf16 || t.precision == Precision::kBf16Pure) args.push_back("--bf16");
  // Megatron-LM's recipes (arguments.py --fp8-recipe, --fp4-format/--fp4-recipe).
  // Layers kept in BF16 go at the end (--first-last-layers-bf16 counts start and end; the
  // delayed-scaling default refuses them, "Delayed scaling does not support first / last
  // layer in BF16", core/fp8_utils.py, so FP8 then uses current scaling).
  const bool bf16_layers = engine::IsLowPrecisionGemm(t.precision) && t.bf16_layers > 0;
  if (t.precision == Precision::kFp8) {
    args.push_back(bf16_layers ? "--bf16 --fp8-format hybrid --fp8-recipe tensorwise" : "--bf16 --fp8-format hybrid");
  }
  if (t.precision == Precision::kMxfp8) args.push_back("--bf16 --fp8-format e4m3 --fp8-recipe mxfp8");
  if (t.precision == Precision::kNvfp4) args.push_back("--bf16 --fp4-format e2m1 --fp4-recipe nvfp4");
  if (bf16_layers) {
    args.push_back("--first-last-layers-bf16 --num-layers-at-start-in-bf16 0 --num-layers-at-end-in-bf16 " +
                   std::to_string(t.bf16_layers));
  }
  // --attention-backend (arguments.py, AttnBackend): fused = Transformer Engine's cuDNN
  // attention, flash = flash-attn, unfused = the s×s scores through memory.
  const bool cudnn = t.attention_backend == engine::AttentionBackend::kCudnn;
  args.push_back(std::string("--attention-backend ") + (!t.flash_attention ? "unfused" : cudnn ? "fused" : "flash"));
  if (t.activation_checkpointing == Recompute::kSelective) {
    std::string modules;
    for (const std::string& name : t.recompute_modules) modules += " " + name;
    args.push_back("--recompute-granularity selective" + (modules.empty() ? "" : " --recompute-modules" + modules));
  }
  // Offload every layer of a stage but the last, whose backward starts at once
  // (Megatron-Core cpu_offloading_num_layers must stay below the stage's layers).
  if (t.activation_offload) {
    const int per_stage = (s.model.layers + s.parallel.pp - 1) / s.parallel.pp;
    args.push_back("--cpu-offloading --cpu-offloading-num-layers " + std::to_string(std::max(1, per_stage - 1)));
  }
  if (t.activation_checkpointing == Recompute::kFull && t.recompute_layers == 0) {
    args.push_back("--recompute-granularity full --recompute-method uniform --recompute-num-layers 1");
  } else if (t.activation_checkpointing == Recompute::kFull) {
    // block: this many layers per pipeline stage are recomputed, the rest keep activations.
    const int per_stage = (t.recompute_layers + s.parallel.pp - 1) / s.parallel.pp;
    args.push_back("--recompute-granularity full --recompute-method block --recompute-num-layers " +
                   std::to_string(per_stage));
  }
  args.push_back(std::string("--optimizer ") + (t.optimizer == Optimizer::kSgd ? "sgd" : "adam"));
  args.push_back(std::string("--lr ") + PlaceholderLearningRate(t.method).text + " --clip-grad " +
                 engine::Num(kClipNorm) + " --weight-decay " + engine::Num(kWeightDecay) + " --adam-beta1 " +
                 engine::Num(kBeta1) + " --adam-beta2 " + engine::Num(kBeta2));
}

}  // namespace

std::string MegatronCommand(const Scenario& s, const RopeSettings& rope) {
  const LaunchPlan plan = engine::PlanLaunch(s);
  const engine::Parallelism& p = s.parallel;
  std::vector<std::string> args;
  AddMegatronParallelArgs(s, args);
  AddMegatronTrainingArgs(s, plan, args);
  const std::vector<std::string> model = MegatronModelArgs(s, rope);
  args.insert(args.end(), model.begin(), model.end());
  const std::string header = Comment(
      {"Megatron-LM (pretrain_gpt.py): TP " + std::to_string(p.tp) + " x PP " + std::to_string(p.pp) + " x CP " +
           std::to_string(p.cp) + " x DP " + std::to_string(plan.data_parallel) + " = " + std::to_string(plan.gpus) +
           " GPUs; " + std::to_string(plan.grad_accum_steps) + " micro-batches per step and data-parallel rank.",
       "Run on each of the " + std::to_string(plan.nodes) + " node(s); MASTER_ADDR = the first node's address.",
       "Add data and tokenizer arguments (--data-path, --tokenizer-type, --tokenizer-model, --save, --load).",
       "Flags: megatron/training/arguments.py in https://github.com/NVIDIA/Megatron-LM"});
  return header + NotesComment(s, LaunchTool::kMegatron, rope) + ShellCommand(s, "pretrain_gpt.py", args);
}

namespace {

// The number at `key` of an object, or 0 when either is missing or of another type.
double NumberAt(const contract::Json* object, const char* key) {
  if (object == nullptr || !object->is_object() || !object->contains(key)) return 0;
  const contract::Json& v = (*object)[key];
  return v.is_number() ? v.get<double>() : 0;
}

bool IsLlama3Scaling(const contract::Json* scaling) {
  if (scaling == nullptr || !scaling->is_object() || !scaling->contains("rope_type")) return false;
  return (*scaling)["rope_type"] == "llama3";
}

}  // namespace

RopeSettings RopeFromHfConfig(const contract::Json& hf_config) {
  if (!hf_config.is_object()) return {};
  // A vision-language config keeps the language model's RoPE in its text_config.
  const contract::Json& config = imports::HfTextConfig(hf_config);
  // transformers 5 moves rope_theta and the scaling's rope_type and factor into rope_parameters.
  const contract::Json* parameters = config.contains("rope_parameters") ? &config["rope_parameters"] : nullptr;
  const contract::Json* scaling = config.contains("rope_scaling") ? &config["rope_scaling"] : parameters;
  RopeSettings rope;
  rope.theta = NumberAt(&config, "rope_theta");
  if (rope.theta <= 0) rope.theta = NumberAt(parameters, "rope_theta");
  if (rope.theta <= 0) rope.theta = NumberAt(&config, "rotary_emb_base");  // GPT-NeoX
  // imports::ImportHfConfig refuses values outside these ranges; a config that did not pass through
  // it still never reaches the command with one (unknown: a placeholder and a note).
  if (!(rope.theta >= imports::kMinRopeTheta && rope.theta <= imports::kMaxRopeTheta)) rope.theta = 0;
  if (IsLlama3Scaling(scaling)) rope.llama3_scaling = NumberAt(scaling, "factor");
  if (!(rope.llama3_scaling >= imports::kMinRopeScalingFactor && rope.llama3_scaling <= imports::kMaxRopeScalingFactor)) {
    rope.llama3_scaling = 0;
  }
  return rope;
}

contract::Json LaunchConfigsToJson(const Scenario& scenario, std::string_view hf_repo, const RopeSettings& rope,
                                   double gpu_memory_bytes) {
  // Post-training: the training tools get the policy's update (its sequences, one step's
  // batch), which the DeepSpeed config of an OpenRLHF or TRL run is also for.
  const Scenario s = engine::TrainedScenario(scenario);
  const LaunchPlan plan = engine::PlanLaunch(s);
  contract::Json notes = contract::Json::array();
  for (size_t i = 0; i < engine::kLaunchToolNames.size(); ++i) {
    for (const engine::Message& n : LaunchConfigNotes(s, static_cast<LaunchTool>(i), rope)) {
      notes.push_back({{"tool", std::string(engine::kLaunchToolNames[i])},
                       {"note", n.english},
                       {"code", n.id},
                       {"args", contract::MessageArgsJson(n.args)}});
    }
  }
  return contract::Json{{"deepspeed", DeepSpeedConfig(s)},
              {"torchrun", TorchrunCommand(s, hf_repo)},
              {"llamafactory", LlamaFactoryYaml(s, hf_repo)},
              {"swift", SwiftCommand(scenario, hf_repo)},
              {"megatron", MegatronCommand(s, rope)},
              {"verl", VerlCommand(scenario, hf_repo, gpu_memory_bytes)},
              {"openrlhf", OpenRlhfCommand(scenario, hf_repo, gpu_memory_bytes)},
              {"trl", TrlScript(scenario, hf_repo, gpu_memory_bytes)},
              {"notes", notes},
              {"plan",
               {{"gpus", plan.gpus},
                {"nodes", plan.nodes},
                {"procs_per_node", plan.procs_per_node},
                {"data_parallel", plan.data_parallel},
                {"micro_batch", plan.micro_batch},
                {"global_batch", plan.global_batch},
                {"grad_accum_steps", plan.grad_accum_steps},
                {"train_steps", plan.train_steps}}}};
}

}  // namespace engine::exports
