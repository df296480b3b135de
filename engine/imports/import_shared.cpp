// Readers shared by several tools: the launchers' GPU counts, the Hugging Face Trainer's
// FSDP option and optimizer names, PEFT's target modules, and a model's config.json.
#include <algorithm>
#include <cctype>
#include <set>

#include "engine/imports/import_reader.h"

namespace engine::imports {

const Setting* TakeValue(Reader& reader, std::string_view key) {
  const Setting* s = reader.Take(key);
  if (s != nullptr && (s->is_null || s->value.empty())) {
    reader.Ignore(*s, engine::MakeMessage("import.ignored.empty"));
    return nullptr;
  }
  return s;
}

const Setting* TakeValueAny(Reader& reader, std::initializer_list<std::string_view> keys) {
  const Setting* s = reader.TakeAny(keys);
  if (s != nullptr && (s->is_null || s->value.empty())) {
    reader.Ignore(*s, engine::MakeMessage("import.ignored.empty"));
    return nullptr;
  }
  return s;
}

bool IsTrue(Reader& reader, const Setting* s) { return s != nullptr && reader.Bool(*s).value_or(false); }

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::vector<std::string> SettingItems(const std::string& value) {
  std::vector<std::string> items;
  std::string item;
  for (char c : value + ",") {
    if (c == ',' || c == ' ') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else if (c != '[' && c != ']' && c != '"' && c != '\'') {
      item += c;
    }
  }
  return items;
}

// A critic or reward model's path: a catalog preset, or (the policy's own path, or a model
// the catalog lacks) the policy's architecture, said as an assumption.
void SetRoleModel(Reader& reader, const char* field, const char* role, const Setting& s, const Setting* policy) {
  if (policy != nullptr && policy->value == s.value) return reader.Set(field, "", s);
  for (const engine::ModelPreset& preset : reader.state().catalog->models) {
    std::string repo = preset.hf_repo, value = s.value;
    for (char& c : repo) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (preset.spec.id == s.value || (!repo.empty() && repo == value)) return reader.Set(field, preset.spec.id, s);
  }
  reader.Used(s);
  reader.Assume(field, "", engine::MakeMessage("import.assumed.role_model_unknown",
                                               {engine::TextArg("name", s.value), engine::TextArg("role", role)}));
}

// torchrun (--nnodes, --nproc_per_node / --nproc-per-node), deepspeed (--num_nodes,
// --num_gpus), accelerate launch (--num_machines, --num_processes: every GPU of the job),
// ms-swift's environment (NNODES, NPROC_PER_NODE, which it hands to torchrun).
void ReadLauncher(Reader& reader) {
  const Setting* nodes = reader.TakeAny({"nnodes", "num_nodes", "num_machines", "NNODES"});
  const Setting* per_node = reader.TakeAny({"nproc_per_node", "nproc-per-node", "num_gpus", "NPROC_PER_NODE"});
  const Setting* total = reader.Take("num_processes");
  std::optional<long> n = nodes ? reader.Int(*nodes, 1, kMaxGpus) : std::optional<long>(1);
  if (per_node != nullptr) {
    std::optional<long> p = reader.Int(*per_node, 1, kMaxGpus);
    if (!n || !p) return;
    reader.Set("gpus_per_node", *p, *per_node);
    reader.Set("gpus", static_cast<long long>(*n) * *p, *per_node);
    if (nodes) reader.Set("gpus", static_cast<long long>(*n) * *p, *nodes);
  } else if (total != nullptr) {
    std::optional<long> t = reader.Int(*total, 1, kMaxGpus);
    if (!n || !t) return;
    reader.Set("gpus", *t, *total);
    if (nodes && *n > 0 && *t % *n == 0) reader.Set("gpus_per_node", *t / *n, *nodes);
  } else if (nodes != nullptr) {
    reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  }
  // accelerate launch --mixed_precision bf16|fp16|fp8|no, when the script's flags gave none.
  if (const Setting* s = reader.Take("mixed_precision")) {
    const char* precision = s->value == "bf16" ? "bf16" : s->value == "fp16" ? "fp16" : s->value == "fp8" ? "fp8"
                                                                                      : s->value == "no" ? "fp32" : nullptr;
    if (precision == nullptr) {
      reader.Fail(*s, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "no, fp16, bf16, fp8"),
                                                               engine::TextArg("got", engine::QuotedInput(s->value))}));
    } else if (!reader.Field("precision")) {
      reader.Set("precision", precision, *s);
    } else {
      reader.Used(*s);
    }
  }
  // Rendezvous and restart settings of the launcher.
  reader.IgnoreKeys({"rdzv_backend", "rdzv_endpoint", "rdzv_id", "rdzv-backend", "rdzv-endpoint", "rdzv-id",
                     "master_addr", "master_port", "node_rank", "machine_rank", "main_process_ip", "main_process_port",
                     "hostfile", "config_file", "standalone", "address", "max-restarts", "max_restarts",
                     "rdzv_conf", "monitor_interval", "dynamo_backend", "module", "NODE_RANK", "MASTER_ADDR",
                     "MASTER_PORT", "CUDA_VISIBLE_DEVICES"},
                    "import.ignored.launcher");
}

// transformers FSDPOption: full_shard, shard_grad_op, hybrid_shard, no_shard, offload, auto_wrap.
void ReadFsdpOption(Reader& reader, const Setting& s) {
  if (s.value == "false" || s.value == "False") return reader.Used(s);
  std::set<std::string> set;
  for (std::string option : SettingItems(s.value)) {
    for (char& c : option) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!option.empty() && option[0] == '_') option.erase(0, 1);  // accelerate's _HYBRID_SHARD_ZERO2
    set.insert(option);
  }
  if (set.empty()) return reader.Used(s);
  // transformers takes fsdp: true as full_shard; accelerate numbers its strategies
  // (1 FULL_SHARD, 2 SHARD_GRAD_OP, 3 NO_SHARD, 4 HYBRID_SHARD, 5 _HYBRID_SHARD_ZERO2).
  int zero = -1;
  if (set.count("full_shard") || set.count("hybrid_shard") || set.count("1") || set.count("4") || set.count("true")) zero = 3;
  if (set.count("shard_grad_op") || set.count("hybrid_shard_zero2") || set.count("2") || set.count("5")) zero = 2;
  if (set.count("no_shard") || set.count("3")) zero = 0;
  if (zero < 0) {
    reader.Fail(s, engine::MakeMessage("import.fsdp_option", {engine::TextArg("got", engine::QuotedInput(s.value))}));
    return;
  }
  reader.Set("zero", zero, s);
  reader.Set("sharding", "fsdp", s);
  if (set.count("offload")) reader.Set("offload", zero == 3 ? "optimizer+params" : "optimizer", s);
  if (set.count("hybrid_shard") || set.count("hybrid_shard_zero2") || set.count("4") || set.count("5")) {
    reader.Assume("zero", zero, engine::MakeMessage("import.assumed.hybrid_shard"));
  }
}

void ReadTrainerOptimizer(Reader& reader, const Setting& s) {
  const std::string& o = s.value;
  const bool eight_bit = o.find("8bit") != std::string::npos;
  if (o.find("adamw") != std::string::npos || o.find("adam") == 0 || o == "AdamW") {
    reader.Set("optimizer", eight_bit ? "adamw-8bit" : "adamw", s);
  } else if (o == "adafactor") {
    reader.Set("optimizer", "adafactor", s);
  } else if (o == "sgd") {
    reader.Set("optimizer", "sgd", s);
  } else {
    reader.Ignore(s, engine::MakeMessage("import.ignored.optimizer", {engine::TextArg("name", o)}));
    reader.Assume("optimizer", "adamw", engine::MakeMessage("import.assumed.optimizer", {engine::TextArg("name", o)}));
  }
}

// PEFT target modules: "all-linear" (PEFT), "all" (LLaMA-Factory), or module names.
void ReadLoraTargets(Reader& reader, const Setting& s) {
  const std::vector<std::string> modules = SettingItems(s.value);
  std::set<std::string> set(modules.begin(), modules.end());
  if (set.count("all") || set.count("all-linear") || set.count("all_linear")) return reader.Set("lora_targets", "all-linear", s);
  const bool mlp = set.count("gate_proj") || set.count("up_proj") || set.count("down_proj") || set.count("w1") ||
                   set.count("w2") || set.count("w3") || set.count("mlp") || set.count("fc1");
  const bool qv_only = set == std::set<std::string>{"q_proj", "v_proj"};
  const std::set<std::string> attention = {"q_proj", "k_proj", "v_proj", "o_proj"};
  const std::set<std::string> attention_tt = {"q_proj", "k_proj", "v_proj", "output_proj"};
  if (mlp) {
    reader.Set("lora_targets", "all-linear", s);
    if (set.size() < 7) reader.Assume("lora_targets", "all-linear", engine::MakeMessage("import.assumed.lora_targets"));
  } else if (qv_only) {
    reader.Set("lora_targets", "qv", s);
  } else {
    reader.Set("lora_targets", "attention", s);
    if (set != attention && set != attention_tt) {
      reader.Assume("lora_targets", "attention", engine::MakeMessage("import.assumed.lora_targets"));
    }
  }
}

void ReadPixelCap(Reader& reader, const Setting& s, std::string_view field) {
  if (auto v = reader.Number(s, 784, 268435456)) reader.Set(field, *v, s);
}

void ReadModulesToSave(Reader& reader, const Setting& s) {
  const std::vector<std::string> modules = SettingItems(s.value);
  bool embeddings = false, head = false;
  for (const std::string& m : modules) {
    if (m.find("embed") != std::string::npos || m == "wte") embeddings = true;
    else if (m.find("lm_head") != std::string::npos || m == "output") head = true;
    else reader.Assume("lora_modules_to_save", s.value, engine::MakeMessage("import.assumed.modules_to_save", {engine::TextArg("module", m)}));
  }
  reader.Set("lora_modules_to_save", embeddings && head ? "embeddings+head" : embeddings ? "embeddings" : head ? "head" : "none", s);
}

// A model's config.json: the model, read whole (engine/imports/hf_config.h checks it when
// the scenario is read).
void ReadHfConfig(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  for (Setting& s : doc.settings) s.taken = true;
  Setting whole = DefaultSetting("config.json", "");
  whole.line = whole.column = 1;
  reader.Set("model", contract::Json{{"hf_config", doc.json}}, whole);
}

void IgnoreHyperparameters(Reader& reader) {
  reader.IgnoreKeys({"learning_rate", "lr", "lr_scheduler_type", "lr_scheduler", "warmup_ratio", "warmup_steps",
                     "weight_decay", "adam_beta1", "adam_beta2", "adam_epsilon", "max_grad_norm", "seed", "data_seed",
                     "lora_alpha", "lora_alpha_ratio", "pref_beta", "beta", "label_smoothing", "loss_type",
                     "warmup_ratio", "lr_scheduler_kwargs", "cosine_min_lr_ratio", "use_rslora", "use_dora", "pissa_init",
                     "pissa_convert", "temperature", "top_p", "top_k", "learning_rate_warmup", "neftune_noise_alpha",
                     "loraplus_lr_ratio", "train_on_inputs", "ddp_timeout", "ddp_find_unused_parameters"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"output_dir", "logging_dir", "logging_steps", "save_steps", "save_strategy", "save_total_limit",
                     "save_only_model", "plot_loss", "overwrite_output_dir", "overwrite_cache", "report_to", "run_name",
                     "dataset", "eval_dataset", "dataset_dir", "template", "preprocessing_num_workers",
                     "dataloader_num_workers", "dataloader_pin_memory", "resume_from_checkpoint", "do_train", "do_eval",
                     "eval_strategy", "evaluation_strategy", "eval_steps", "per_device_eval_batch_size", "val_size",
                     "push_to_hub", "hub_model_id", "logging_first_step", "trust_remote_code", "tokenized_path",
                     "dataset_text_field", "dataset_name", "dataset_config", "dataset_train_split", "dataset_test_split",
                     "wandb_project", "wandb_entity", "wandb_name", "wandb_watch", "wandb_log_model", "hub_strategy",
                     "log_level", "disable_tqdm", "remove_unused_columns", "streaming", "buffer_size", "mix_strategy",
                     "tokenizer_name_or_path", "chat_template", "output", "attn_implementation_note", "bf16_full_eval",
                     "fp16_full_eval", "include_tokens_per_second", "save_safetensors", "load_best_model_at_end",
                     "metric_for_best_model", "greater_is_better", "logging_strategy", "prediction_loss_only"},
                    "import.ignored.io");
}

// transformers TrainingArguments: https://huggingface.co/docs/transformers/main_classes/trainer
void ReadTrainingArguments(Reader& reader) {
  if (const Setting* s = reader.Take("per_device_train_batch_size")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = reader.Take("gradient_accumulation_steps")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.SetPiece(reader.state().grad_accum, *v, *s);
  }
  if (const Setting* s = reader.Take("max_steps"); s != nullptr && s->value != "-1") {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  } else if (s != nullptr) {
    reader.Used(*s);
  }
  if (const Setting* s = reader.Take("num_train_epochs")) {
    if (auto v = reader.Number(*s, 0.001, 1e6)) reader.Set("epochs", *v, *s);
  }
  const Setting* bf16 = reader.Take("bf16");
  const Setting* fp16 = reader.Take("fp16");
  const Setting* pure = reader.Take("pure_bf16");
  const Setting* dtype = reader.TakeAny({"torch_dtype", "dtype"});
  const bool is_bf16 = bf16 && reader.Bool(*bf16).value_or(false);
  const bool is_fp16 = fp16 && reader.Bool(*fp16).value_or(false);
  const bool is_pure = (pure && reader.Bool(*pure).value_or(false)) || (is_bf16 && dtype && dtype->value == "bfloat16");
  if (is_pure) {
    reader.Set("precision", "bf16-pure", pure && reader.Bool(*pure).value_or(false) ? *pure : *dtype);
    if (bf16) reader.Used(*bf16);
  } else if (is_bf16) {
    reader.Set("precision", "bf16", *bf16);
  } else if (is_fp16) {
    reader.Set("precision", "fp16", *fp16);
  } else if (bf16 || fp16) {
    reader.Set("precision", "fp32", bf16 ? *bf16 : *fp16);
  }
  // Every precision key read is listed, whichever decided.
  for (const Setting* key : {bf16, fp16, pure, dtype}) {
    if (key != nullptr) reader.Used(*key);
  }
  if (const Setting* s = reader.Take("gradient_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_checkpointing", *v ? "full" : "none", *s);
  }
  reader.IgnoreKeys({"gradient_checkpointing_kwargs"}, "import.ignored.hyperparameter");
  if (const Setting* s = reader.Take("fsdp")) ReadFsdpOption(reader, *s);
  reader.IgnorePrefix("fsdp_config", "import.ignored.fsdp_config");
  if (const Setting* s = reader.Take("optim")) ReadTrainerOptimizer(reader, *s);
  if (const Setting* s = reader.Take("deepspeed")) {
    reader.Set("sharding", "deepspeed", *s);
    reader.Assume("zero", nullptr, engine::MakeMessage("import.assumed.deepspeed_file", {engine::TextArg("file", s->value)}));
  }
  IgnoreHyperparameters(reader);
}

}  // namespace engine::imports
