#include "engine/exports/swift_launch.h"

#include <algorithm>
#include <cmath>

#include "engine/exports/launch_configs.h"
#include "engine/exports/launch_text.h"
#include "engine/exports/trainer_args.h"
#include "engine/format.h"
#include "engine/framework_profile.h"
#include "engine/launch_plan.h"
#include "engine/post_training.h"
#include "engine/vision.h"

namespace engine::exports {
namespace {

// Flags and defaults from ms-swift's command-line reference, 4.x
// (https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html, read
// 2026-12): --tuner_type (3.x: --train_type), the freeze_* switches, the DeepSpeed presets,
// and the Qwen-VL environment variables of "Specific Model Arguments".

// How ms-swift's switches train a vision-language model's parts. Under LoRA, an unfrozen
// tower or aligner gets adapters on its linear layers; --tuner_type lora_llm keeps LoRA on
// the language model and trains the unfrozen tower and aligner in full. Under full tuning
// an unfrozen part trains every weight.
struct VisionSwitches {
  const char* tuner = "full";
  bool freeze_vit = true;
  bool freeze_aligner = true;
  bool tower_not_expressed = false;  // tower LoRA under full tuning: trained in full instead
  bool projector_as_lora = false;    // projector in full beside a LoRA tower: adapters instead
};

VisionSwitches SwitchesOf(const Training& t) {
  const MediaSetup& m = t.media;
  VisionSwitches z;
  z.freeze_vit = m.tower == VisionTraining::kFrozen;
  z.freeze_aligner = !m.projector;
  if (!TrainsAdapters(t.method)) {
    z.tower_not_expressed = m.tower == VisionTraining::kLora;
    return z;
  }
  // lora_llm trains the unfrozen parts in full, which a LoRA tower is not.
  const bool full_parts = m.tower == VisionTraining::kFull || (m.projector && m.tower != VisionTraining::kLora);
  z.tuner = full_parts ? "lora_llm" : "lora";
  z.projector_as_lora = m.projector && m.tower == VisionTraining::kLora;
  return z;
}

std::string Flag(bool on) { return Bool(on, "true", "false"); }

const char* TorchDtype(Precision p) {
  switch (p) {
    case Precision::kFp16: return "float16";
    case Precision::kFp32: return "float32";
    default: return "bfloat16";
  }
}

// ms-swift's DeepSpeed presets (swift/config/<name>.json): zero0-3, and offload for 2 and 3.
std::string DeepSpeedPreset(const Parallelism& p) {
  const int stage = p.offload != Offload::kNone ? std::max(2, p.zero) : p.zero;
  return "zero" + std::to_string(stage) + (p.offload != Offload::kNone ? "_offload" : "");
}

// Qwen2/2.5-VL take pixel caps (MAX_PIXELS, 28-pixel units); Qwen3-VL counts tokens
// (IMAGE_MAX_TOKEN_NUM × 32²); other models take the template's --max_pixels.
struct PixelSettings {
  std::vector<std::string> env;
  std::vector<std::string> args;
};

PixelSettings PixelSettingsOf(const Scenario& s) {
  PixelSettings out;
  const VisionSpec& v = s.model.vision;
  const PixelCaps caps = ProcessorPixelCaps(s);
  if (caps.image_max <= 0) return out;
  const int factor = v.patch * v.merge;
  const bool video = s.training.media.video_seconds > 0;
  const std::string fps = "FPS=" + Num(s.training.media.video_fps);
  auto whole = [](double x) { return ExactNumber(std::floor(x)); };
  if (factor == 28) {
    out.env.push_back("MAX_PIXELS=" + whole(caps.image_max));
    if (caps.image_min > 0) out.env.push_back("MIN_PIXELS=" + whole(caps.image_min));
    if (video) out.env.insert(out.env.end(), {"VIDEO_MAX_PIXELS=" + whole(caps.video_max), fps});
  } else if (factor == 32) {
    const double unit = double(factor) * factor;
    out.env.push_back("IMAGE_MAX_TOKEN_NUM=" + whole(caps.image_max / unit));
    if (caps.image_min > 0) out.env.push_back("IMAGE_MIN_TOKEN_NUM=" + whole(caps.image_min / unit));
    if (video) out.env.insert(out.env.end(), {"VIDEO_MAX_TOKEN_NUM=" + whole(caps.video_max / unit), fps});
  } else {
    out.args.push_back("--max_pixels " + whole(caps.image_max));
  }
  return out;
}

void AddTunerArgs(const Scenario& s, std::vector<std::string>& args) {
  const Training& t = s.training;
  const bool vision = s.model.vision.present();
  const VisionSwitches z = SwitchesOf(t);
  args.push_back(std::string("--tuner_type ") + (vision ? z.tuner : TrainsAdapters(t.method) ? "lora" : "full"));
  if (TrainsAdapters(t.method)) {
    args.push_back("--lora_rank " + std::to_string(t.lora_rank) + " --lora_alpha " + std::to_string(2 * t.lora_rank) +
                   " --lora_dropout " + Num(t.lora_dropout) + " --target_modules " + LoraModules(t.lora_targets, false));
    if (const std::string saved = SavedModuleNames(t, " "); !saved.empty()) args.push_back("--modules_to_save " + saved);
    if (t.method == Method::kQlora && !s.model.IsQuantizedCheckpoint()) {
      args.push_back("--quant_method bnb --quant_bits 4 --bnb_4bit_quant_type nf4 --bnb_4bit_compute_dtype " +
                     std::string(TorchDtype(t.precision)));
    }
  } else if (t.method == Method::kFreeze && s.model.layers > 0) {
    // The share of the stack below the trained layers; ms-swift counts it in parameters.
    const double frozen = 1.0 - double(t.freeze_trainable_layers) / s.model.layers;
    args.push_back("--freeze_parameters_ratio " + Num(std::clamp(frozen, 0.0, 1.0)));
  }
  if (vision) {
    args.push_back("--freeze_vit " + Flag(z.freeze_vit) + " --freeze_aligner " + Flag(z.freeze_aligner) +
                   " --freeze_llm " + Flag(t.media.freeze_llm));
  }
}

// Post-training runs as `swift rlhf --rlhf_type ...`; GRPO also takes its group and answer
// length (ms-swift's GRPO arguments follow TRL's GRPOConfig names).
std::vector<std::string> RlhfArgs(const PostTrainingSetup& post) {
  if (post.kind == PostTraining::kNone) return {};
  std::vector<std::string> args = {"--rlhf_type " + std::string(EnumName(kPostTrainingNames, post.kind))};
  if (post.kind == PostTraining::kGrpo) {
    args.push_back("--num_generations " + std::to_string(GroupSize(post)) + " --max_completion_length " +
                   std::to_string(post.LongestResponse()));
    args.push_back(std::string("--use_vllm true --vllm_mode ") +
                   (post.placement == Placement::kSeparate ? "server" : "colocate"));
  }
  return args;
}

// `s` is the policy update; `pairs`: its sequences are preference pairs, which ms-swift's
// per-device batch counts (as TRL's does).
void AddTrainArgs(const Scenario& s, const LaunchPlan& plan, bool pairs, std::vector<std::string>& args) {
  const Training& t = s.training;
  args.push_back("--torch_dtype " + std::string(TorchDtype(t.precision)) + " --attn_impl " +
                 (t.flash_attention ? "flash_attn" : "eager"));
  args.push_back("--max_length " + std::to_string(t.seq_len));
  args.push_back("--per_device_train_batch_size " + std::to_string(pairs ? std::max(1, plan.micro_batch / 2) : plan.micro_batch) +
                 " --gradient_accumulation_steps " + std::to_string(plan.grad_accum_steps));
  args.push_back(StepsArgument(plan, t, "--max_steps", "--num_train_epochs"));
  args.push_back(std::string("--learning_rate ") + PlaceholderLearningRate(t.method).text +
                 " --lr_scheduler_type cosine --warmup_ratio 0.03");
  args.push_back(std::string("--optim ") + TrainerOptimizer(t.optimizer) + " --adam_beta2 " + Num(kBeta2) +
                 " --weight_decay " + Num(kWeightDecay) + " --max_grad_norm " + Num(kClipNorm));
  args.push_back("--gradient_checkpointing " + Flag(t.activation_checkpointing != Recompute::kNone));
  // Left unset, the tower follows --gradient_checkpointing; written when the estimate differs.
  if (s.model.vision.present() && TowerCheckpointingDiffers(t)) {
    args.push_back("--vit_gradient_checkpointing " + Flag(RecomputesVision(t)));
  }
  const Parallelism& p = s.parallel;
  if (ShardsThroughAccelerateFsdp(p)) {
    args.push_back("--fsdp fsdp2");
  } else if (p.zero > 0 || p.offload != Offload::kNone) {
    args.push_back("--deepspeed " + DeepSpeedPreset(p));
  }
}

// The GPUs of each node, NPROC_PER_NODE and, across nodes, NNODES and the rendezvous:
// ms-swift starts torchrun with them. Without NPROC_PER_NODE it runs one process and spreads
// the model over every visible GPU (device_map), so the visible GPUs are always named.
std::vector<std::string> LaunchEnv(const LaunchPlan& plan) {
  std::string devices = "CUDA_VISIBLE_DEVICES=0";
  for (int i = 1; i < plan.procs_per_node && i < 64; ++i) devices += "," + std::to_string(i);
  std::vector<std::string> env = {devices};
  if (plan.nodes > 1) {
    env.insert(env.end(), {"NNODES=" + std::to_string(plan.nodes), "NODE_RANK=$NODE_RANK", "MASTER_ADDR=$MASTER_ADDR",
                           "MASTER_PORT=" + std::to_string(kRendezvousPort)});
  }
  if (plan.gpus > 1) env.push_back("NPROC_PER_NODE=" + std::to_string(plan.procs_per_node));
  return env;
}

}  // namespace

std::vector<Message> SwiftVisionNotes(const Scenario& s) {
  std::vector<Message> notes;
  if (!s.model.vision.present()) return notes;
  const VisionSwitches z = SwitchesOf(s.training);
  const MessageArg tower = TextArg("vision_training", std::string(EnumName(kVisionTrainingNames, s.training.media.tower)));
  if (z.tower_not_expressed) notes.push_back(MakeMessage("launch.swift.vision_training", {tower}));
  if (z.projector_as_lora) notes.push_back(MakeMessage("launch.swift.projector_lora"));
  return notes;
}

std::string SwiftCommand(const Scenario& scenario, std::string_view hf_repo) {
  const Scenario s = TrainedScenario(scenario);
  const LaunchPlan plan = PlanLaunch(s, LaunchTool::kSwift);
  const PixelSettings pixels = PixelSettingsOf(scenario);
  const SampleSequence sequence = SampleSequenceOf(UpdateScenario(scenario));
  const PostTrainingSetup& post = scenario.training.post;
  std::vector<std::string> args = {"--model " + ModelPath(hf_repo) + " --use_hf true",
                                   "--dataset REPLACE_WITH_DATASET"};
  const std::vector<std::string> rlhf = RlhfArgs(post);
  args.insert(args.end(), rlhf.begin(), rlhf.end());
  AddTunerArgs(s, args);
  AddTrainArgs(s, plan, TrainsOnPairs(post.kind), args);
  args.insert(args.end(), pixels.args.begin(), pixels.args.end());
  args.push_back("--output_dir " + std::string("saves/") + s.model.id + " --logging_steps 10 --save_steps 500");

  std::string sequence_line = "sequences of " + std::to_string(s.training.seq_len) + " tokens";
  if (TrainsOnPairs(post.kind)) sequence_line = "a preference pair is 2 " + sequence_line + " (the per-device batch counts pairs)";
  if (sequence.media_tokens > 0) {
    sequence_line += " (" + Num(sequence.text_tokens) + " text + " + Num(sequence.media_tokens) + " media)";
  }
  std::string out = Comment(
      {std::string("ms-swift >= 4.0 (on 3.x write --train_type for --tuner_type). ") +
           (plan.nodes > 1 ? "Run the same command on each of the " + std::to_string(plan.nodes) +
                                 " nodes, with NODE_RANK 0.. and MASTER_ADDR the first node's address."
                           : std::string("One node.")),
       BatchSentence(plan) + "; " + sequence_line + " as --max_length.",
       "Flags: https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html"});
  out += NotesComment(s, LaunchTool::kSwift);
  std::vector<std::string> env = LaunchEnv(plan);
  env.insert(env.end(), pixels.env.begin(), pixels.env.end());
  for (const std::string& e : env) out += e + " \\\n";
  out += std::string("swift ") + (post.kind != PostTraining::kNone            ? "rlhf"
                                  : s.training.method == Method::kPretrain ? "pt"
                                                                           : "sft");
  for (const std::string& a : args) out += " \\\n  " + a;
  return out + "\n";
}

}  // namespace engine::exports
