// ms-swift command lines (`swift sft`, `swift pt`, `swift rlhf`; the environment before them): its own
// flags and the Hugging Face TrainingArguments it passes through. Names and defaults from
// ms-swift's command-line reference, 4.x (--tuner_type; 3.x --train_type):
// https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html (2026-12),
// and its "Specific Model Arguments" for the Qwen-VL environment (MAX_PIXELS, ...).
#include <algorithm>
#include <iterator>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// Qwen3-VL counts its processor's caps in tokens of 32 × 32 pixels (patch 16, merged 2 × 2);
// ms-swift reads IMAGE_MAX_TOKEN_NUM and VIDEO_MAX_TOKEN_NUM for it alone.
constexpr double kQwen3VlTokenPixels = 32.0 * 32.0;

// The environment ms-swift reads, made settings so that each is listed as used or ignored.
// Other assignments stay the script's own variables.
void TakeEnvironment(ConfigDocument& doc) {
  static const char* const kNames[] = {"NPROC_PER_NODE", "NNODES", "NODE_RANK", "MASTER_ADDR", "MASTER_PORT",
                                       "CUDA_VISIBLE_DEVICES", "MAX_PIXELS", "MIN_PIXELS", "VIDEO_MAX_PIXELS",
                                       "VIDEO_MIN_PIXELS", "FPS", "FPS_MIN_FRAMES", "FPS_MAX_FRAMES",
                                       "IMAGE_MAX_TOKEN_NUM", "IMAGE_MIN_TOKEN_NUM", "VIDEO_MAX_TOKEN_NUM",
                                       "VIDEO_MIN_TOKEN_NUM", "VIDEO_TOTAL_PIXELS", "MAX_NUM", "INPUT_SIZE"};
  for (const Setting& a : doc.assignments) {
    if (std::find(std::begin(kNames), std::end(kNames), a.key) != std::end(kNames)) doc.settings.push_back(a);
  }
}

// tuner_type lora, lora_llm (LoRA on the language model, the unfrozen tower and aligner in
// full) or full; 4-bit bitsandbytes makes LoRA QLoRA. Returns the tuner ("" on failure).
std::string ReadTuner(Reader& reader, bool pretrain) {
  const Setting* tuner = reader.TakeAny({"tuner_type", "train_type"});
  const Setting* bits = reader.Take("quant_bits");
  const Setting* quant_method = reader.Take("quant_method");
  const std::string name = tuner ? tuner->value : "lora";  // ms-swift's default
  if (name != "lora" && name != "lora_llm" && name != "full") {
    reader.Fail(*tuner, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "lora, lora_llm, full"),
                                                                  engine::TextArg("got", engine::QuotedInput(name))}));
    return "";
  }
  std::optional<long> quant_bits;
  if (bits) quant_bits = reader.Int(*bits, 1, 8);
  const bool adapters = name != "full";
  const std::string method = !adapters ? (pretrain ? "pretrain" : "full") : quant_bits == 4 ? "qlora" : "lora";
  if (tuner) {
    reader.Set("method", method, *tuner);
  } else {
    reader.Assume("method", method, engine::MakeMessage("import.assumed.swift_lora"));
    reader.state().result.scenario["method"] = method;
  }
  if (bits) {
    reader.Used(*bits);
    if (quant_bits && *quant_bits != 4 && adapters) {
      reader.Assume("method", method, engine::MakeMessage("import.assumed.quantization_bits", {engine::CountArg("bits", *quant_bits)}));
    }
  }
  if (quant_method) reader.Used(*quant_method);
  reader.IgnoreKeys({"bnb_4bit_quant_type", "bnb_4bit_compute_dtype", "bnb_4bit_use_double_quant", "bnb_4bit_quant_storage",
                     "lora_alpha", "lora_bias", "use_rslora", "use_dora", "init_weights"},
                    "import.ignored.quantization_detail");
  if (const Setting* s = reader.Take("lora_rank")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("lora_rank", *v, *s);
  }
  if (const Setting* s = reader.Take("target_modules")) ReadLoraTargets(reader, *s);
  if (const Setting* s = reader.Take("lora_dropout")) {
    if (auto v = reader.Number(*s, 0, 0.99)) reader.Set("lora_dropout", *v, *s);
  }
  if (const Setting* s = reader.Take("modules_to_save")) ReadModulesToSave(reader, *s);
  reader.IgnoreKeys({"freeze_parameters_ratio", "freeze_parameters", "trainable_parameters", "freeze_parameters_regex",
                     "trainable_parameters_regex"},
                    "import.ignored.freeze_modules");
  return name;
}

// freeze_vit (default true), freeze_aligner (true), freeze_llm (false): an unfrozen tower
// trains with LoRA under tuner_type lora and in full otherwise; an unfrozen aligner under
// lora gets adapters, sized as trained in full (an assumption says so).
void ReadFrozenParts(Reader& reader, const std::string& tuner) {
  if (const Setting* s = reader.Take("freeze_vit")) {
    if (auto v = reader.Bool(*s)) reader.Set("vision_training", *v ? "frozen" : tuner == "lora" ? "lora" : "full", *s);
  }
  if (const Setting* s = reader.Take("freeze_aligner")) {
    if (auto v = reader.Bool(*s)) {
      reader.Set("projector_training", !*v, *s);
      if (!*v && tuner == "lora") {
        reader.Assume("projector_training", true, engine::MakeMessage("import.assumed.swift_aligner_lora"));
      }
    }
  }
  if (const Setting* s = reader.Take("freeze_llm")) {
    if (auto v = reader.Bool(*s)) reader.Set("freeze_llm", *v, *s);
  }
  if (const Setting* s = reader.Take("vit_gradient_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("vision_recompute", *v ? "full" : "none", *s);
  }
  reader.IgnoreKeys({"vit_lr", "aligner_lr"}, "import.ignored.hyperparameter");
}

// The processor's caps: pixels (Qwen2/2.5-VL, and --max_pixels for any model) or Qwen3-VL's
// token counts; fps of sampled video frames.
void ReadMedia(Reader& reader) {
  const Setting* image = reader.TakeAny({"MAX_PIXELS", "max_pixels"});
  if (image != nullptr) ReadPixelCap(reader, *image, "image_max_pixels");
  if (const Setting* s = reader.Take("IMAGE_MAX_TOKEN_NUM"); s != nullptr && image == nullptr) {
    if (auto v = reader.Int(*s, 1, 262144)) reader.Set("image_max_pixels", *v * kQwen3VlTokenPixels, *s);
  } else if (s != nullptr) {
    reader.Used(*s);
  }
  if (const Setting* s = reader.Take("VIDEO_MAX_PIXELS")) {
    ReadPixelCap(reader, *s, "video_max_pixels");
  } else if (const Setting* t = reader.Take("VIDEO_MAX_TOKEN_NUM")) {
    if (auto v = reader.Int(*t, 1, 262144)) reader.Set("video_max_pixels", *v * kQwen3VlTokenPixels, *t);
  }
  if (const Setting* s = reader.Take("FPS")) {
    if (auto v = reader.Number(*s, 0.01, 240)) reader.Set("video_fps", *v, *s);
  }
  reader.IgnoreKeys({"MIN_PIXELS", "VIDEO_MIN_PIXELS", "FPS_MIN_FRAMES", "FPS_MAX_FRAMES", "IMAGE_MIN_TOKEN_NUM",
                     "VIDEO_MIN_TOKEN_NUM", "VIDEO_TOTAL_PIXELS", "VIDEO_MAX_TOKEN_NUM", "MAX_NUM", "INPUT_SIZE"},
                    "import.ignored.media_detail");
}

// ms-swift's presets (swift/config/<name>.json): zero0-3, zero2_offload, zero3_offload; a
// path is a DeepSpeed JSON of the user's own, to paste beside the command.
void ReadDeepSpeedPreset(Reader& reader, const Setting& s) {
  const std::string& v = s.value;
  const bool preset = v.size() >= 5 && v.compare(0, 4, "zero") == 0 && v[4] >= '0' && v[4] <= '3' &&
                      (v.size() == 5 || v.substr(5) == "_offload");
  if (!preset) {
    reader.Set("sharding", "deepspeed", s);
    reader.Assume("zero", nullptr, engine::MakeMessage("import.assumed.deepspeed_file", {engine::TextArg("file", v)}));
    return;
  }
  const int stage = v[4] - '0';
  reader.Set("zero", stage, s);
  reader.Set("sharding", "deepspeed", s);
  if (v.size() > 5) reader.Set("offload", stage == 3 ? "optimizer+params" : "optimizer", s);
}

// `swift rlhf --rlhf_type dpo|orpo|simpo|kto|cpo|ppo|grpo`: the method, with the tuner's as
// the policy update; GRPO's group and longest answer.
void ReadRlhf(Reader& reader) {
  const Setting* type = reader.Take("rlhf_type");
  if (type == nullptr) return;
  const std::string kind = type->value == "cpo" ? "simpo" : type->value;
  static const char* const kKinds[] = {"dpo", "orpo", "simpo", "kto", "ppo", "grpo"};
  if (std::find(std::begin(kKinds), std::end(kKinds), kind) == std::end(kKinds)) {
    reader.Fail(*type, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "dpo, orpo, simpo, cpo, kto, ppo, grpo"),
                                                                 engine::TextArg("got", engine::QuotedInput(type->value))}));
    return;
  }
  const contract::Json* update = reader.Field("method");
  if (update != nullptr) reader.Set("policy_update", *update, *type);
  reader.state().result.scenario["method"] = kind;
  reader.Set("method", kind, *type);
  if (const Setting* s = reader.Take("num_generations")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("group_size", *v, *s);
  }
  if (const Setting* s = reader.Take("max_completion_length")) {
    if (auto v = reader.Int(*s, 1, 1000000)) reader.Set("max_response_len", *v, *s);
  }
  if (const Setting* s = reader.Take("vllm_mode")) reader.Set("placement", s->value == "server" ? "separate" : "colocated", *s);
  reader.IgnoreKeys({"use_vllm", "beta", "rpo_alpha", "loss_type", "temperature", "reward_funcs", "epsilon",
                     "epsilon_high", "num_iterations", "vllm_gpu_memory_utilization", "vllm_tensor_parallel_size"},
                    "import.ignored.hyperparameter");
}

// max_length: the trained sequence (text and media); for post-training, a pair's prompt and
// answer, or GRPO's prompt beside its longest answer.
void ReadMaxLength(Reader& reader) {
  const ConfigDocument& doc = reader.doc();
  const contract::Json* method = reader.Field("method");
  const std::string post = method != nullptr && method->is_string() ? method->get<std::string>() : "";
  const bool preference = post == "dpo" || post == "orpo" || post == "simpo" || post == "kto";
  const Setting* longest = doc.Find("max_completion_length");
  if (const Setting* s = reader.Take("max_length"); s != nullptr && preference) {
    // A pair's prompt and answer share max_length, as LLaMA-Factory's cutoff_len.
    if (auto v = reader.Int(*s, 2, 1 << 24)) {
      reader.Set("prompt_len", *v / 2, *s);
      reader.Set("response_len", *v - *v / 2, *s);
      reader.Assume("prompt_len", *v / 2, engine::MakeMessage("import.assumed.cutoff_split", {engine::CountArg("cutoff", *v)}));
    }
  } else if (s != nullptr && (post == "grpo" || post == "ppo")) {
    // The prompt is what max_length leaves beside the longest answer.
    const long answer = longest ? reader.Int(*longest, 1, 1000000).value_or(0) : 0;
    if (auto v = reader.Int(*s, 1, 1 << 24); v && answer > 0 && *v > answer) reader.Set("prompt_len", *v - answer, *s);
    else reader.Used(*s);
  } else if (s != nullptr) {
    if (auto v = reader.Int(*s, 1, 1 << 24)) {
      reader.Set("seq_len", *v, *s);
      // ms-swift counts a sample's image and video tokens in max_length.
      if (doc.Has("freeze_vit") || doc.Has("MAX_PIXELS") || doc.Has("IMAGE_MAX_TOKEN_NUM")) {
        reader.Assume("seq_len", *v, engine::MakeMessage("import.assumed.swift_media_length", {engine::CountArg("max_length", *v)}));
      }
    }
  }
}

}  // namespace

void ReadSwift(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  TakeEnvironment(doc);
  reader.Assume("framework", "hf-trainer",
                engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "ms-swift (Hugging Face Trainer)")}));
  reader.state().result.scenario["framework"] = "hf-trainer";
  if (const Setting* s = reader.Take("model")) reader.SetModelFromName(*s);
  // `swift pt` continues pretraining; every other subcommand read here fine-tunes.
  const bool pretrain = std::find(doc.programs.begin(), doc.programs.end(), "pt") != doc.programs.end();
  const std::string tuner = ReadTuner(reader, pretrain);
  if (reader.failed()) return;
  if (std::find(doc.programs.begin(), doc.programs.end(), "rlhf") != doc.programs.end()) ReadRlhf(reader);
  if (reader.failed()) return;
  ReadFrozenParts(reader, tuner);
  ReadMedia(reader);
  ReadMaxLength(reader);
  // ms-swift trains in the dtype it loads the model in (bf16 or fp16 mixed precision).
  if (const Setting* s = reader.Take("torch_dtype")) {
    const char* precision = s->value == "bfloat16" ? "bf16" : s->value == "float16" ? "fp16"
                            : s->value == "float32" ? "fp32" : nullptr;
    if (precision == nullptr) {
      reader.Fail(*s, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "bfloat16, float16, float32"),
                                                               engine::TextArg("got", engine::QuotedInput(s->value))}));
      return;
    }
    reader.Set("precision", precision, *s);
  }
  if (const Setting* s = reader.Take("attn_impl")) {
    reader.Set("flash_attention", s->value != "eager", *s);
  }
  if (const Setting* s = reader.Take("use_liger_kernel")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("cross_entropy", "chunked", *s);
    else reader.Used(*s);
  }
  if (const Setting* s = reader.Take("deepspeed")) ReadDeepSpeedPreset(reader, *s);
  if (const Setting* s = reader.Take("fsdp"); s != nullptr && s->value == "fsdp2") {
    // The fsdp2 preset shards parameters, gradients and optimizer states.
    reader.Set("zero", 3, *s);
    reader.Set("sharding", "fsdp", *s);
  } else if (s != nullptr) {
    ReadFsdpOption(reader, *s);
  }
  reader.IgnoreKeys({"packing", "padding_free", "truncation_strategy", "lazy_tokenize", "streaming"},
                    "import.ignored.packing");
  reader.IgnoreKeys({"use_hf", "dataset", "val_dataset", "split_dataset_ratio", "dataset_num_proc", "load_from_cache_file",
                     "save_only_model", "add_version", "model_type", "template", "system", "output_dir",
                     "dataloader_num_workers", "report_to", "logging_steps", "save_steps", "eval_steps",
                     "save_total_limit", "columns", "custom_register_path", "external_plugins"},
                    "import.ignored.io");
  ReadTrainingArguments(reader);
}

}  // namespace engine::imports
