#include "engine/exports/trl_vision_sft.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/exports/launch_configs.h"
#include "engine/exports/launch_text.h"
#include "engine/exports/trainer_args.h"
#include "engine/format.h"
#include "engine/launch_plan.h"
#include "engine/post_training.h"
#include "engine/vision.h"

namespace engine::exports {
namespace {

std::string PyParts(const std::vector<const char*>& parts) {
  std::string out;
  for (const char* p : parts) out += std::string(out.empty() ? "" : ", ") + "\"" + p + "\"";
  return out.empty() ? "set()" : "{" + out + "}";
}

// Which parts train in full and which get adapters: the estimate's (vision.h).
struct TrainedParts {
  std::vector<const char*> full;
  std::vector<const char*> lora;
};

TrainedParts PartsOf(const Training& t) {
  TrainedParts parts;
  const bool adapters = TrainsAdapters(t.method);
  if (!t.media.freeze_llm) (adapters ? parts.lora : parts.full).push_back("language");
  if (t.media.tower == VisionTraining::kFull) parts.full.push_back("tower");
  if (t.media.tower == VisionTraining::kLora) (adapters ? parts.lora : parts.full).push_back("tower");
  if (t.media.projector) parts.full.push_back("projector");
  return parts;
}

// Parameter names of the parts, as transformers >= 4.52 lays the models out (its "base
// model without head" change, huggingface/transformers#37033; ms-swift's model_arch.py maps
// the same names): Qwen2/2.5/3-VL model.visual with its merger(s); LLaVA, Gemma 3 and
// Mistral 3 vision_tower + multi_modal_projector; Mllama vision_model + projector; Idefics3
// vision_model + connector; InternVL's remote code vision_model + mlp1.
constexpr const char* kPartsCode =
    "PROJECTOR = (\"merger\", \"deepstack_merger_list\", \"multi_modal_projector\", \"connector\", \"mlp1\")\n"
    "TOWER = (\"visual\", \"vision_tower\", \"vision_model\")\n"
    "\n"
    "def part(name):\n"
    "    words = name.split(\".\")\n"
    "    if any(w in PROJECTOR for w in words):\n"
    "        return \"projector\"\n"
    "    if any(w in TOWER for w in words):\n"
    "        return \"tower\"\n"
    "    return \"language\"\n";

std::string LoadCode(const Scenario& s, std::string_view hf_repo) {
  const Training& t = s.training;
  const PixelCaps caps = ProcessorPixelCaps(s);
  // Weights are loaded in 16 bits when they do not train (adapters) or train without an
  // fp32 copy; otherwise in fp32, the master copy mixed precision keeps.
  const bool half = TrainsAdapters(t.method) || t.precision == Precision::kBf16Pure;
  const std::string dtype = !half ? "torch.float32" : t.precision == Precision::kFp16 ? "torch.float16" : "torch.bfloat16";
  std::string out = "MODEL = \"" + ModelPath(hf_repo) + "\"\n";
  if (caps.image_max > 0) {
    out += "# The pixel caps the estimate sized each image within.\n";
    out += "processor = AutoProcessor.from_pretrained(MODEL, max_pixels=" + ExactNumber(std::floor(caps.image_max)) +
           (caps.image_min > 0 ? ", min_pixels=" + ExactNumber(std::floor(caps.image_min)) : "") + ")\n";
  } else {
    out += "processor = AutoProcessor.from_pretrained(MODEL)\n";
  }
  std::string kwargs = "torch_dtype=" + dtype + ", attn_implementation=\"" +
                       (t.flash_attention ? "flash_attention_2" : "eager") + "\"";
  if (t.method == Method::kQlora && !s.model.IsQuantizedCheckpoint()) {
    // The tower and projector stay in 16 bits, as the estimate sizes them.
    out += "quantization = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", "
           "bnb_4bit_compute_dtype=torch.bfloat16,\n"
           "                                  llm_int8_skip_modules=[\"lm_head\", *TOWER, *PROJECTOR])\n";
    kwargs += ", quantization_config=quantization";
  }
  return out + "model = AutoModelForImageTextToText.from_pretrained(MODEL, " + kwargs + ")\n";
}

std::string TrainedPartsCode(const Training& t, const TrainedParts& parts) {
  std::string out;
  if (parts.lora.empty()) {
    out += "# Full tuning of " + PyParts(parts.full) + "; the other parts stay frozen.\n";
    out += "for name, param in model.named_parameters():\n";
    out += "    param.requires_grad_(part(name) in " + PyParts(parts.full) + ")\n";
    out += "peft_config = None\n";
    return out;
  }
  const char* leaves = t.lora_targets == LoraTargets::kAttention ? "(\"q_proj\", \"k_proj\", \"v_proj\", \"o_proj\")"
                       : t.lora_targets == LoraTargets::kQv     ? "(\"q_proj\", \"v_proj\")"
                                                                : "None";
  out += "# LoRA on " + PyParts(parts.lora) + " (PEFT's all-linear would also reach the tower and projector);\n";
  out += "# " + (parts.full.empty() ? std::string("nothing else trains") : PyParts(parts.full) + " train in full") + ".\n";
  out += "LEAVES = " + std::string(leaves) + "  # None = every linear layer of the language model\n";
  out += "targets = [name for name, module in model.named_modules()\n";
  out += "           if isinstance(module, torch.nn.Linear) and part(name) in " + PyParts(parts.lora) + "\n";
  out += "           and not name.endswith(\"lm_head\")\n";
  out += "           and (part(name) != \"language\" or LEAVES is None or name.rsplit(\".\", 1)[-1] in LEAVES)]\n";
  out += "full = [name for name, _ in model.named_modules() if name and part(name) in " + PyParts(parts.full) + "]\n";
  out += "saved = [name for name in full if not any(name.startswith(f + \".\") for f in full)]\n";
  if (const std::string extra = SavedModuleNames(t, "\", \""); !extra.empty()) {
    out += "saved += [\"" + extra + "\"]\n";
  }
  out += "peft_config = LoraConfig(r=" + std::to_string(t.lora_rank) + ", lora_alpha=" + std::to_string(2 * t.lora_rank) +
         ", lora_dropout=" + Num(t.lora_dropout) + ", target_modules=targets,\n";
  out += "                         modules_to_save=saved or None, task_type=\"CAUSAL_LM\")\n";
  return out;
}

std::string ConfigCode(const Scenario& s, const LaunchPlan& plan, const SampleSequence& sequence) {
  const Training& t = s.training;
  std::vector<std::string> fields = {
      "output_dir=\"saves/" + s.model.id + "\"",
      "# TRL's advice for vision-language models: no truncation, which could cut image tokens. The\n"
      "    # estimate sized " + std::to_string(t.seq_len) + " tokens per sample (" + Num(sequence.text_tokens) + " text + " +
          Num(sequence.media_tokens) + " media); longer samples need more memory.\n"
      "    max_length=None",
      "per_device_train_batch_size=" + std::to_string(plan.micro_batch),
      "gradient_accumulation_steps=" + std::to_string(plan.grad_accum_steps),
      StepsArgument(plan, t, "max_steps", "num_train_epochs", "="),
      std::string("learning_rate=") + PlaceholderLearningRate(t.method).text + ", lr_scheduler_type=\"cosine\", warmup_ratio=0.03",
      std::string("optim=\"") + TrainerOptimizer(t.optimizer) + "\", adam_beta2=" + Num(kBeta2) +
          ", weight_decay=" + Num(kWeightDecay) + ", max_grad_norm=" + Num(kClipNorm),
      t.precision == Precision::kFp16 ? "fp16=True" : t.precision == Precision::kFp32 ? "bf16=False" : "bf16=True",
      "gradient_checkpointing=" + Bool(t.activation_checkpointing != Recompute::kNone)};
  if (const std::string fsdp = FsdpOption(s.parallel); !fsdp.empty()) fields.push_back("fsdp=\"" + fsdp + "\"");
  std::string out = "config = SFTConfig(\n";
  for (const std::string& f : fields) out += "    " + f + ",\n";
  return out + ")\n";
}

}  // namespace

std::string TrlVisionSftScript(const Scenario& scenario, std::string_view hf_repo) {
  const Scenario s = TrainedScenario(scenario);
  const Training& t = s.training;
  const LaunchPlan plan = PlanLaunch(s, LaunchTool::kTrl);
  const SampleSequence sequence = SampleSequenceOf(scenario);
  const TrainedParts parts = PartsOf(t);

  std::string out = Comment(
      {"TRL SFTTrainer for a vision-language model (SFTTrainer takes image datasets directly; TRL docs,",
       "\"Training Vision Language Models\"; transformers >= 4.52 module names). Run" +
           (plan.nodes > 1 ? " on each of the " + std::to_string(plan.nodes) + " nodes:" : std::string(":")),
       "  torchrun " +
           (plan.nodes > 1 ? "--nnodes " + std::to_string(plan.nodes) + " --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:" +
                                 std::to_string(kRendezvousPort)
                           : std::string("--standalone")) +
           " --nproc_per_node " + std::to_string(plan.procs_per_node) + " train_trl.py",
       BatchSentence(plan) + "."});
  // The Trainer's limits are the torchrun command's, but for the one this script answers.
  std::string notes;
  for (const Message& n : LaunchConfigNotes(s, LaunchTool::kTorchrun, {})) {
    if (n.id != "launch.torchrun.vision") notes += "#   " + n.english + "\n";
  }
  if (t.method == Method::kFreeze) notes += "#   method freeze: set requires_grad on the last layers yourself.\n";
  if (TowerCheckpointingDiffers(t)) {
    notes += "#   the estimate's vision_recompute differs from the language model's; gradient_checkpointing covers both.\n";
  }
  if (!notes.empty()) out += "# Notes:\n" + notes;
  out += "import torch\nfrom datasets import load_dataset\n";
  out += "from peft import LoraConfig\n";
  out += "from transformers import AutoModelForImageTextToText, AutoProcessor";
  out += t.method == Method::kQlora && !s.model.IsQuantizedCheckpoint() ? ", BitsAndBytesConfig\n" : "\n";
  out += "from trl import SFTConfig, SFTTrainer\n\n";
  out += kPartsCode;
  out += "\n" + LoadCode(s, hf_repo) + "\n" + TrainedPartsCode(t, parts) + "\n" + ConfigCode(s, plan, sequence);
  out += "\n# A dataset with \"messages\" and \"images\" columns (e.g. trl-lib/llava-instruct-mix).\n";
  out += "dataset = load_dataset(\"REPLACE_WITH_DATASET\", split=\"train\")\n";
  out += "trainer = SFTTrainer(model=model, args=config, train_dataset=dataset, processing_class=processor,\n";
  out += "                     peft_config=peft_config)\n";
  out += "trainer.train()\n";
  return out;
}

}  // namespace engine::exports
