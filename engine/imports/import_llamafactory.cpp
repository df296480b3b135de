// LLaMA-Factory YAML (llamafactory-cli train x.yaml): the keys of its hparams
// (model_args.py, finetuning_args.py, data_args.py, training_args.py) and the Hugging Face
// TrainingArguments it passes through. Examples: examples/train_lora/llama3_lora_sft.yaml.
#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// stage (sft, pt, rm, ppo, dpo, kto) and, for dpo, pref_loss (sigmoid = DPO, orpo, simpo).
std::string StageMethod(Reader& reader, const Setting* stage, const Setting* pref_loss) {
  const std::string name = stage ? stage->value : "sft";
  if (name == "pt") return "pretrain";
  if (name == "ppo") return "ppo";
  if (name == "kto") return "kto";
  if (name == "dpo") {
    if (pref_loss && (pref_loss->value == "orpo" || pref_loss->value == "simpo")) return pref_loss->value;
    return "dpo";
  }
  if (name == "rm" && stage) {
    reader.Assume("method", "full", engine::MakeMessage("import.assumed.reward_model_training"));
  } else if (name != "sft" && stage) {
    reader.Fail(*stage, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "pt, sft, rm, ppo, dpo, kto"),
                                                                  engine::TextArg("got", engine::QuotedInput(name))}));
  }
  return "";  // the fine-tuning type decides
}

// A vision-language model's switches (LLaMA-Factory hparams/finetuning_args.py and
// model_args.py, 2025): the tower trains in the run's own way (LoRA adapters under
// finetuning_type lora) once it is not frozen; pixel caps as the processor applies them.
void ReadMultimodal(Reader& reader, const Setting* type) {
  if (const Setting* s = reader.Take("freeze_vision_tower")) {
    const bool lora = type != nullptr && (type->value == "lora");
    if (auto v = reader.Bool(*s)) reader.Set("vision_training", *v ? "frozen" : lora ? "lora" : "full", *s);
  }
  if (const Setting* s = reader.Take("freeze_multi_modal_projector")) {
    if (auto v = reader.Bool(*s)) reader.Set("projector_training", !*v, *s);
  }
  if (const Setting* s = reader.Take("freeze_language_model")) {
    if (auto v = reader.Bool(*s)) reader.Set("freeze_llm", *v, *s);
  }
  for (const char* key : {"image_max_pixels", "video_max_pixels"}) {
    if (const Setting* s = reader.Take(key)) ReadPixelCap(reader, *s, key);
  }
  if (const Setting* s = reader.Take("video_fps")) {
    if (auto v = reader.Number(*s, 0.01, 240)) reader.Set("video_fps", *v, *s);
  }
  reader.IgnoreKeys({"image_min_pixels", "video_min_pixels", "video_maxlen", "image_do_pan_and_scan",
                     "use_audio_in_video", "audio_sampling_rate"},
                    "import.ignored.media_detail");
}

}  // namespace

void ReadLlamaFactory(Reader& reader) {
  reader.Assume("framework", "llama-factory", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "LLaMA-Factory")}));
  reader.state().result.scenario["framework"] = "llama-factory";
  if (const Setting* s = reader.Take("model_name_or_path")) reader.SetModelFromName(*s);

  const Setting* stage = reader.Take("stage");
  const Setting* pref_loss = reader.Take("pref_loss");
  const Setting* type = reader.Take("finetuning_type");
  const Setting* bits = reader.Take("quantization_bit");
  const Setting* quant_method = reader.Take("quantization_method");
  std::optional<long> quant_bits;
  if (bits && !bits->is_null) quant_bits = reader.Int(*bits, 2, 8);
  const std::string finetuning = type ? type->value : "lora";  // LLaMA-Factory's default
  if (type && finetuning != "lora" && finetuning != "full" && finetuning != "freeze" && finetuning != "oft") {
    reader.Fail(*type, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "lora, full, freeze"),
                                                                 engine::TextArg("got", engine::QuotedInput(finetuning))}));
    return;
  }
  const bool adapters = finetuning == "lora" || finetuning == "oft";
  const std::string update = adapters ? (quant_bits == 4 ? "qlora" : "lora") : "full";
  if (!type) reader.Assume("method", nullptr, engine::MakeMessage("import.assumed.llamafactory_lora"));
  const std::string post = StageMethod(reader, stage, pref_loss);
  const Setting& method_from = type ? *type : stage ? *stage : DefaultSetting("finetuning_type", "lora");
  if (!post.empty() && post != "pretrain") {
    reader.Set("method", post, stage ? *stage : method_from);
    reader.Set("policy_update", update, method_from);
    if (pref_loss) reader.Used(*pref_loss);
  } else {
    const std::string method = post == "pretrain" && !adapters ? "pretrain"
                               : finetuning == "freeze"         ? "freeze"
                                                                : update;
    reader.Set("method", method, method_from);
    if (stage) reader.Used(*stage);
    if (pref_loss) reader.Ignore(*pref_loss, engine::MakeMessage("import.ignored.not_preference"));
  }
  if (bits && !quant_bits) reader.Used(*bits);  // null: not quantized
  if (bits && quant_bits) {
    reader.Used(*bits);
    if (*quant_bits != 4 && adapters) {
      reader.Assume("method", update, engine::MakeMessage("import.assumed.quantization_bits", {engine::CountArg("bits", *quant_bits)}));
    }
  }
  if (quant_method) reader.Used(*quant_method);
  reader.IgnoreKeys({"quantization_type", "double_quantization"}, "import.ignored.quantization_detail");

  if (const Setting* s = reader.Take("lora_rank")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("lora_rank", *v, *s);
  }
  if (const Setting* s = reader.Take("lora_target")) ReadLoraTargets(reader, *s);
  if (const Setting* s = reader.Take("lora_dropout")) {
    if (auto v = reader.Number(*s, 0, 0.99)) reader.Set("lora_dropout", *v, *s);
  }
  if (const Setting* s = reader.Take("additional_target")) ReadModulesToSave(reader, *s);
  if (const Setting* s = reader.Take("freeze_trainable_layers")) {
    if (auto v = reader.Int(*s, -100000, 100000)) reader.Set("freeze_trainable_layers", std::labs(*v), *s);
  }
  reader.IgnoreKeys({"freeze_trainable_modules", "freeze_extra_modules"}, "import.ignored.freeze_modules");

  // Gradient checkpointing is on unless disabled (LLaMA-Factory's model loader).
  if (const Setting* s = reader.Take("disable_gradient_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_checkpointing", *v ? "none" : "full", *s);
  } else if (!reader.Field("activation_checkpointing")) {
    reader.Assume("activation_checkpointing", "full", engine::MakeMessage("import.assumed.llamafactory_checkpointing"));
    reader.state().result.scenario["activation_checkpointing"] = "full";
  }
  if (const Setting* s = reader.Take("use_unsloth_gc")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_offload", *v, *s);
  }
  if (const Setting* s = reader.Take("flash_attn")) {
    // auto, disabled, sdpa, fa2: sdpa and fa2 never store the score matrix.
    reader.Set("flash_attention", s->value != "disabled" && s->value != "eager", *s);
  }
  if (const Setting* s = reader.Take("enable_liger_kernel")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("cross_entropy", "chunked", *s);
    else reader.Used(*s);
  }
  if (const Setting* s = reader.Take("cutoff_len")) {
    if (auto v = reader.Int(*s, 1, 1 << 24)) {
      if (post == "dpo" || post == "orpo" || post == "simpo" || post == "kto" || post == "ppo") {
        // A pair's prompt and answer share the cutoff (data/processor/pairwise.py).
        reader.Set("prompt_len", std::max(1L, *v / 2), *s);
        reader.Set("response_len", std::max(1L, *v - *v / 2), *s);
        reader.Assume("prompt_len", *v / 2, engine::MakeMessage("import.assumed.cutoff_split", {engine::CountArg("cutoff", *v)}));
      } else {
        reader.Set("seq_len", *v, *s);
      }
    }
  }
  ReadMultimodal(reader, type);
  if (const Setting* s = reader.Take("max_samples")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().samples, *v, *s);
  }
  if (const Setting* s = reader.Take("packing")) reader.Ignore(*s, engine::MakeMessage("import.ignored.packing"));
  reader.IgnoreKeys({"neat_packing"}, "import.ignored.packing");
  if (const Setting* s = reader.Take("ppo_epochs")) {
    if (auto v = reader.Int(*s, 1, 100)) reader.Set("ppo_epochs", *v, *s);
  }
  reader.IgnoreKeys({"use_unsloth", "ref_model", "reward_model", "reward_model_type", "ppo_buffer_size", "ppo_target",
                     "ppo_score_norm", "ppo_whiten_rewards", "rope_scaling", "adapter_name_or_path", "export_dir",
                     "infer_backend", "upcast_layernorm", "upcast_lmhead_output", "shift_attn", "mixture_of_depths",
                     "create_new_adapter", "use_badam", "use_galore", "use_apollo"},
                    "import.ignored.llamafactory_option");
  ReadTrainingArguments(reader);
}

}  // namespace engine::imports
