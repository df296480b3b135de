// torchtune recipe configs (tune run <recipe> --config x.yaml): the model builder
// (model._component_, e.g. torchtune.models.llama3_1.lora_llama3_1_8b) and its LoRA
// arguments, the tokenizer's max_seq_len, batch and accumulation, activation checkpointing
// and offloading, the optimizer, dtype, FSDP CPU offload and the loss. Examples:
// recipes/configs/llama3_1/8B_lora.yaml, 8B_qlora_single_device.yaml, 8B_full.yaml.
// Distributed recipes shard with FSDP2 (fully_shard); how far is read from
// fsdp_reshard_after_forward and fsdp_cpu_offload, never guessed from the recipe's name.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

bool StartsWith(std::string_view text, std::string_view start) { return text.compare(0, start.size(), start) == 0; }

bool EndsWith(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The last part of a dotted component path ("torch.optim.AdamW" → "AdamW").
std::string Component(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// A torchtune model builder (without lora_/qlora_ and _base/_instruct) as the catalog ids
// it may be: llama3_1_8b → llama-3.1-8b, qwen2_5_0_5b → qwen2.5-0.5b, gemma2_9b → gemma-2-9b.
std::vector<std::string> PresetCandidates(const std::string& builder) {
  static constexpr std::pair<std::string_view, std::string_view> kExact[] = {
      {"mistral_7b", "mistral-7b-v0.1"}, {"phi3_mini", "phi-3-mini-4k"}, {"phi4_14b", "phi-4"}, {"phi4", "phi-4"}};
  for (const auto& [name, id] : kExact) {
    if (builder == name) return {std::string(id)};
  }
  static constexpr std::pair<std::string_view, std::string_view> kFamilies[] = {
      {"llama3_1_", "llama-3.1-"}, {"llama3_2_", "llama-3.2-"}, {"llama3_3_", "llama-3.3-"}, {"llama3_", "llama-3-"},
      {"llama2_", "llama-2-"},     {"qwen2_5_", "qwen2.5-"},    {"qwen2_", "qwen2-"},       {"qwen3_", "qwen3-"},
      {"gemma2_", "gemma-2-"},     {"gemma3_", "gemma-3-"},     {"mistral_", "mistral-"},   {"mixtral_", "mixtral-"},
      {"phi3_", "phi-3-"},         {"llama4_", "llama-4-"}};
  for (const auto& [prefix, family] : kFamilies) {
    if (!StartsWith(builder, prefix)) continue;
    const std::string size = builder.substr(prefix.size());
    std::string id(family);
    for (size_t i = 0; i < size.size(); ++i) {
      const bool between_digits = i > 0 && i + 1 < size.size() && std::isdigit(static_cast<unsigned char>(size[i - 1])) &&
                                  std::isdigit(static_cast<unsigned char>(size[i + 1]));
      id += size[i] != '_' ? size[i] : between_digits ? '.' : '-';
    }
    return {id, id + "-v0.1"};
  }
  return {};
}

// model._component_: the method (lora_, qlora_ builders) and the model.
std::string ReadModel(Reader& reader) {
  const Setting* s = TakeValue(reader, "model._component_");
  if (s == nullptr) return "";
  std::string builder = Lower(Component(s->value));
  std::string update = "full";
  if (StartsWith(builder, "qlora_")) {
    update = "qlora";
    builder = builder.substr(6);
  } else if (StartsWith(builder, "lora_")) {
    update = "lora";
    builder = builder.substr(5);
  }
  for (std::string_view suffix : {"_instruct", "_base"}) {
    if (EndsWith(builder, suffix)) builder.resize(builder.size() - suffix.size());
  }
  for (const std::string& id : PresetCandidates(builder)) {
    if (reader.state().catalog->FindModel(id) != nullptr) {
      reader.Set("model", id, *s);
      return update;
    }
  }
  reader.Used(*s);
  reader.Assume("model", nullptr, engine::MakeMessage("import.assumed.model_unknown", {engine::TextArg("name", s->value)}));
  return update;
}

// The preference losses of torchtune's DPO recipes (torchtune.rlhf.loss).
std::string LossMethod(const ConfigDocument& doc) {
  const Setting* loss = doc.Find("loss._component_");
  if (loss == nullptr) return "";
  const std::string name = Component(loss->value);
  if (name == "DPOLoss" || name == "RSOLoss" || name == "IPOLoss") return "dpo";
  if (name == "SimPOLoss") return "simpo";
  return "";
}

// model.lora_*: rank, dropout and the adapted modules (lora_attn_modules, apply_lora_to_mlp,
// apply_lora_to_output).
void ReadLora(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "model.lora_rank")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("lora_rank", *v, *s);
  }
  if (const Setting* s = TakeValue(reader, "model.lora_dropout")) {
    if (auto v = reader.Number(*s, 0, 0.99)) reader.Set("lora_dropout", *v, *s);
  }
  const Setting* attn = TakeValue(reader, "model.lora_attn_modules");
  const Setting* mlp = TakeValue(reader, "model.apply_lora_to_mlp");
  const Setting* output = TakeValue(reader, "model.apply_lora_to_output");
  const std::vector<std::string> modules = attn ? SettingItems(attn->value) : std::vector<std::string>{};
  const std::set<std::string> set(modules.begin(), modules.end());
  const bool all_attention = set == std::set<std::string>{"q_proj", "k_proj", "v_proj", "output_proj"};
  bool nearest = false;
  if (IsTrue(reader, mlp)) {
    reader.Set("lora_targets", "all-linear", *mlp);
    if (attn) reader.Set("lora_targets", "all-linear", *attn);
    nearest = attn && !all_attention;
  } else if (attn) {
    if (mlp) reader.Used(*mlp);
    const bool qv = set == std::set<std::string>{"q_proj", "v_proj"};
    reader.Set("lora_targets", qv ? "qv" : "attention", *attn);
    nearest = !qv && !all_attention;
  } else if (mlp) {
    reader.Used(*mlp);
  }
  if (output) {
    if (IsTrue(reader, output)) {
      reader.Used(*output);
      nearest = true;  // an adapter on the LM head as well
    } else {
      reader.Used(*output);
    }
  }
  if (nearest && reader.Field("lora_targets")) {
    reader.Assume("lora_targets", *reader.Field("lora_targets"), engine::MakeMessage("import.assumed.lora_targets"));
  }
  reader.IgnoreKeys({"model.lora_alpha"}, "import.ignored.hyperparameter");
  reader.IgnoreKeys({"model.use_dora"}, "import.ignored.quantization_detail");
}

// optimizer._component_: torch.optim.AdamW / Adam, bitsandbytes.optim.PagedAdamW8bit,
// torchao's AdamW8bit, torch.optim.SGD; optimizer.fused.
void ReadOptimizer(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "optimizer._component_")) {
    const std::string name = Lower(Component(s->value));
    const bool adam = name.find("adam") != std::string::npos;
    if (adam && name.find("8bit") != std::string::npos) {
      reader.Set("optimizer", "adamw-8bit", *s);
    } else if (adam && name.find("4bit") == std::string::npos && name.find("fp8") == std::string::npos) {
      reader.Set("optimizer", "adamw", *s);
    } else if (name == "sgd") {
      reader.Set("optimizer", "sgd", *s);
    } else if (name == "adafactor") {
      reader.Set("optimizer", "adafactor", *s);
    } else {
      reader.Ignore(*s, engine::MakeMessage("import.ignored.optimizer", {engine::TextArg("name", s->value)}));
      reader.Assume("optimizer", "adamw", engine::MakeMessage("import.assumed.optimizer", {engine::TextArg("name", s->value)}));
    }
  }
  if (const Setting* s = TakeValue(reader, "optimizer.fused")) {
    if (auto v = reader.Bool(*s)) reader.Set("fused_optimizer", *v, *s);
  }
  reader.IgnorePrefix("optimizer", "import.ignored.hyperparameter");
  if (const Setting* s = TakeValue(reader, "optimizer_in_bwd")) {
    if (auto v = reader.Bool(*s)) reader.Set("optimizer_in_backward", *v, *s);
  }
}

// fsdp_cpu_offload (FSDP2's CPUOffloadPolicy: parameters, gradients and the optimizer step
// on the host) and fsdp_reshard_after_forward (false keeps the gathered weights: ZeRO-2).
void ReadSharding(Reader& reader, bool single_device) {
  const Setting* offload = TakeValue(reader, "fsdp_cpu_offload");
  const Setting* reshard = TakeValue(reader, "fsdp_reshard_after_forward");
  if (single_device) {
    if (offload) reader.Used(*offload);
    if (reshard) reader.Used(*reshard);
  } else {
    if (reshard) {
      if (auto v = reader.Bool(*reshard)) reader.Set("zero", *v ? 3 : 2, *reshard);
    }
    if (IsTrue(reader, offload)) {
      reader.Set("zero", 3, *offload);
      reader.Set("offload", "optimizer+params", *offload);
    } else if (offload) {
      reader.Used(*offload);
    }
  }
  reader.IgnoreKeys({"custom_sharded_layers", "data_parallel_shard_dim", "data_parallel_replicate_dim"},
                    "import.ignored.fsdp_config");
}

// loss._component_: chunked output (CEWithChunkedOutputLoss, LinearCrossEntropyLoss) or
// torch's CrossEntropyLoss on the whole fp32 logits.
void ReadLoss(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "loss._component_")) {
    const std::string name = Component(s->value);
    if (name == "CEWithChunkedOutputLoss" || name == "LinearCrossEntropyLoss" || name == "ChunkedCrossEntropyLoss") {
      reader.Set("cross_entropy", "chunked", *s);
    } else if (name == "CrossEntropyLoss") {
      reader.Set("cross_entropy", "eager", *s);
    } else {
      reader.Used(*s);
    }
  }
  reader.IgnorePrefix("loss", "import.ignored.hyperparameter");
}

}  // namespace

void ReadTorchtune(Reader& reader) {
  reader.Assume("framework", "torchtune", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "torchtune")}));
  reader.state().result.scenario["framework"] = "torchtune";
  const bool single_device = reader.doc().name.find("single_device") != std::string::npos;

  std::string update = ReadModel(reader);
  if (const Setting* s = TakeValue(reader, "model.quantize_base")) {
    if (IsTrue(reader, s) && update == "lora") update = "qlora";
    reader.Used(*s);
  }
  const std::string post = LossMethod(reader.doc());
  if (const Setting* model = reader.doc().Find("model._component_"); model && !update.empty() && !model->is_null) {
    if (!post.empty()) {
      reader.Set("method", post, *model);
      reader.Set("policy_update", update, *model);
    } else {
      reader.Set("method", update, *model);
    }
  }
  ReadLora(reader);
  if (reader.failed()) return;

  if (const Setting* s = TakeValue(reader, "tokenizer.max_seq_len")) {
    if (auto v = reader.Int(*s, 1, 1 << 24)) {
      if (post.empty()) {
        reader.Set("seq_len", *v, *s);
      } else {
        // A pair's prompt and answer share max_seq_len.
        reader.Set("prompt_len", std::max(1L, *v / 2), *s);
        reader.Set("response_len", std::max(1L, *v - *v / 2), *s);
        reader.Assume("prompt_len", std::max(1L, *v / 2),
                      engine::MakeMessage("import.assumed.max_seq_len_split", {engine::CountArg("tokens", *v)}));
      }
    }
  }
  reader.IgnorePrefix("tokenizer", "import.ignored.io");

  if (const Setting* s = TakeValue(reader, "batch_size")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = TakeValue(reader, "gradient_accumulation_steps")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.SetPiece(reader.state().grad_accum, *v, *s);
  }
  std::optional<double> epochs;
  if (const Setting* s = TakeValue(reader, "epochs")) {
    epochs = reader.Number(*s, 0.001, 1e6);
    if (epochs) reader.Set("epochs", *epochs, *s);
  }
  // max_steps_per_epoch caps each epoch: the run is at most that many steps per epoch.
  if (const Setting* s = TakeValue(reader, "max_steps_per_epoch")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) {
      // Epochs are at most 1e6 and steps 1e9: the product is held to a count's range.
      const double steps = static_cast<double>(*v) * std::max(1.0, std::floor(epochs.value_or(1)));
      reader.SetPiece(reader.state().train_steps, static_cast<long>(std::min<double>(steps, kMaxCount)), *s);
    }
  }
  if (reader.failed()) return;

  if (const Setting* s = TakeValue(reader, "enable_activation_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_checkpointing", *v ? "full" : "none", *s);
  }
  if (const Setting* s = TakeValue(reader, "enable_activation_offloading")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_offload", *v, *s);
  }
  // compile: true, or per part (compile.model, compile.loss, ...): the model's kernels fused.
  if (const Setting* s = TakeValue(reader, "compile")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("kernels", "fused", *s);
    else reader.Used(*s);
  }
  if (const Setting* s = TakeValue(reader, "compile.model")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("kernels", "fused", *s);
    else reader.Used(*s);
  }
  reader.IgnorePrefix("compile", "import.ignored.hyperparameter");

  ReadOptimizer(reader);
  if (const Setting* s = TakeValue(reader, "dtype")) {
    // torchtune trains in the dtype itself: bf16 weights, gradients and optimizer states, no fp32 master.
    const std::string v = Lower(s->value);
    if (v == "bf16" || v == "bfloat16") {
      reader.Set("precision", "bf16-pure", *s);
    } else if (v == "fp32" || v == "float32") {
      reader.Set("precision", "fp32", *s);
    } else {
      reader.Fail(*s, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "bf16, fp32"),
                                                                engine::TextArg("got", engine::QuotedInput(s->value))}));
      return;
    }
  }
  ReadSharding(reader, single_device);
  ReadLoss(reader);
  if (reader.failed()) return;

  if (const Setting* s = TakeValue(reader, "dataset.packed")) reader.Ignore(*s, engine::MakeMessage("import.ignored.packing"));
  for (const char* prefix : {"dataset", "checkpointer", "metric_logger", "profiler", "validation_dataset", "dataloader"}) {
    reader.IgnorePrefix(prefix, "import.ignored.io");
  }
  reader.IgnorePrefix("lr_scheduler", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"device", "shuffle", "log_every_n_steps", "log_peak_memory_stats", "log_level", "resume_from_checkpoint",
                     "save_adapter_weights_only", "batch_size_val", "run_val_every_n_steps", "cudnn_deterministic_mode"},
                    "import.ignored.io");
  reader.IgnoreKeys({"clip_grad_norm"}, "import.ignored.hyperparameter");
  IgnoreHyperparameters(reader);
}

}  // namespace engine::imports
