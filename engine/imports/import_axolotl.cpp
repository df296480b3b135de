// axolotl YAML (axolotl train x.yml): the keys of its config reference
// (https://docs.axolotl.ai/docs/config-reference.html, src/axolotl/utils/schemas/config.py).
// Examples: examples/llama-3/qlora.yml, lora-8b.yml, fft-8b.yaml; FSDP in
// examples/llama-3/qlora-fsdp-70b.yaml (fsdp list + fsdp_config.fsdp_*) and the FSDP2 form
// (fsdp_version: 2, fsdp_config.offload_params, reshard_after_forward); RL with `rl:` and
// the `trl:` section (examples/qwen2/dpo.yaml, grpo configs).
#include <algorithm>
#include <cctype>
#include <set>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// Every key starting with `start` not yet taken ("wandb_" for wandb_project, wandb_name, ...).
void IgnoreStartingWith(Reader& reader, std::string_view start, const char* why_id) {
  for (Setting& s : reader.doc().settings) {
    if (s.taken || s.key.compare(0, start.size(), start) != 0) continue;
    s.taken = true;
    reader.Ignore(s, engine::MakeMessage(why_id));
  }
}

// `rl:` (dpo, ipo, kto, orpo, simpo, grpo) as the scenario's method; "" without it.
std::string RlMethod(Reader& reader, const Setting* rl) {
  if (rl == nullptr) return "";
  const std::string name = Lower(rl->value);
  if (name == "dpo" || name == "ipo") return "dpo";
  if (name == "kto" || name == "orpo" || name == "simpo" || name == "grpo") return name;
  reader.Fail(*rl, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "dpo, ipo, kto, orpo, simpo, grpo"),
                                                             engine::TextArg("got", engine::QuotedInput(rl->value))}));
  return "";
}

// adapter, load_in_4bit / load_in_8bit and rl as method and policy_update.
void ReadMethod(Reader& reader, const std::string& post, const Setting* rl) {
  const Setting* adapter = TakeValue(reader, "adapter");
  const Setting* four_bit = TakeValue(reader, "load_in_4bit");
  const Setting* eight_bit = TakeValue(reader, "load_in_8bit");
  const bool four = IsTrue(reader, four_bit);
  const bool eight = IsTrue(reader, eight_bit);
  std::string update = "full";
  if (adapter != nullptr) {
    const std::string name = Lower(adapter->value);
    if (name == "qlora" || (name == "lora" && four)) {
      update = "qlora";
    } else if (name == "lora") {
      update = "lora";
    } else {
      reader.Fail(*adapter, engine::MakeMessage("input.not_one_of", {engine::TextArg("allowed", "lora, qlora"),
                                                                      engine::TextArg("got", engine::QuotedInput(adapter->value))}));
      return;
    }
  }
  const Setting& update_from = adapter ? *adapter : DefaultSetting("adapter", "");
  if (!post.empty()) {
    reader.Set("method", post, *rl);
    reader.Set("policy_update", update, update_from);
  } else {
    reader.Set("method", update, update_from);
  }
  if (adapter == nullptr) {
    reader.Assume(post.empty() ? "method" : "policy_update", "full", engine::MakeMessage("import.assumed.axolotl_full"));
  }
  if (four_bit) reader.Used(*four_bit);
  if (eight_bit && eight) {
    reader.Ignore(*eight_bit, engine::MakeMessage("import.ignored.eight_bit_base"));
  } else if (eight_bit) {
    reader.Used(*eight_bit);
  }
  reader.IgnoreKeys({"bnb_4bit_quant_type", "bnb_4bit_use_double_quant", "bnb_4bit_compute_dtype", "lora_fan_in_fan_out",
                     "peft_use_dora", "peft_use_rslora", "peft_layers_to_transform", "peft_layers_pattern",
                     "peft_init_lora_weights", "lora_on_cpu", "lora_qkv_kernel", "lora_o_kernel", "lora_mlp_kernel",
                     "gptq", "gptq_groupsize", "gptq_model_v1"},
                    "import.ignored.quantization_detail");
  reader.IgnorePrefix("bnb_config_kwargs", "import.ignored.quantization_detail");
  reader.IgnorePrefix("peft", "import.ignored.quantization_detail");
}

void ReadLora(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "lora_r")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("lora_rank", *v, *s);
  }
  const Setting* linear = TakeValue(reader, "lora_target_linear");
  const Setting* modules = TakeValue(reader, "lora_target_modules");
  if (IsTrue(reader, linear)) {
    reader.Set("lora_targets", "all-linear", *linear);
    if (modules) reader.Used(*modules);
  } else {
    if (linear) reader.Used(*linear);
    if (modules) ReadLoraTargets(reader, *modules);
  }
  if (const Setting* s = TakeValue(reader, "lora_modules_to_save")) ReadModulesToSave(reader, *s);
  if (const Setting* s = TakeValue(reader, "lora_dropout")) {
    if (auto v = reader.Number(*s, 0, 0.99)) reader.Set("lora_dropout", *v, *s);
  }
  reader.IgnoreKeys({"lora_model_dir"}, "import.ignored.io");
}

// sequence_len: the sequence of SFT; for the DPO family prompt and answer, with
// max_prompt_len (axolotl's default 512) the prompt.
void ReadLengths(Reader& reader, const std::string& post) {
  const Setting* seq = TakeValue(reader, "sequence_len");
  const Setting* prompt = TakeValue(reader, "max_prompt_len");
  long seq_len = 0;  // 0: not given
  if (seq) seq_len = reader.Int(*seq, 1, 1 << 24).value_or(0);
  if (reader.failed()) return;
  if (post.empty()) {
    if (seq_len > 0) reader.Set("seq_len", seq_len, *seq);
    if (prompt) reader.Used(*prompt);
  } else if (post == "grpo") {
    if (seq) reader.Used(*seq);
    if (prompt) {
      if (auto v = reader.Int(*prompt, 1, 1 << 24)) reader.Set("prompt_len", *v, *prompt);
    }
  } else if (seq_len > 0) {
    long prompt_len = std::min(512L, std::max(1L, seq_len / 2));
    if (prompt) {
      const std::optional<long> v = reader.Int(*prompt, 1, seq_len);
      if (!v) return;
      prompt_len = *v;
      reader.Set("prompt_len", prompt_len, *prompt);
    } else {
      reader.Set("prompt_len", prompt_len, *seq);
      reader.Assume("prompt_len", prompt_len,
                    engine::MakeMessage("import.assumed.axolotl_prompt_len", {engine::CountArg("tokens", prompt_len)}));
    }
    reader.Set("response_len", std::max(1L, seq_len - prompt_len), *seq);
  } else if (prompt) {
    if (auto v = reader.Int(*prompt, 1, 1 << 24)) reader.Set("prompt_len", *v, *prompt);
  }
}

void ReadBatch(Reader& reader) {
  const Setting* micro = TakeValue(reader, "micro_batch_size");
  // 0 = not given (a plain long: GCC 12 misreads an optional's flow here as uninitialized).
  long micro_batch = 0;
  if (micro) micro_batch = reader.Int(*micro, 1, 1 << 20).value_or(0);
  if (micro_batch > 0) reader.Set("micro_batch", micro_batch, *micro);
  const Setting* accum = TakeValue(reader, "gradient_accumulation_steps");
  const Setting* batch = TakeValue(reader, "batch_size");
  if (accum) {
    if (auto v = reader.Int(*accum, 1, 1 << 20)) reader.SetPiece(reader.state().grad_accum, *v, *accum);
    if (batch) reader.Used(*batch);
  } else if (batch && micro_batch > 0) {
    // axolotl: gradient_accumulation_steps = batch_size // micro_batch_size.
    if (auto v = reader.Int(*batch, 1, kMaxCount)) {
      reader.SetPiece(reader.state().grad_accum, std::max(1L, *v / micro_batch), *batch);
    }
  } else if (batch) {
    reader.Used(*batch);
  }
  if (const Setting* s = TakeValue(reader, "num_epochs")) {
    if (auto v = reader.Number(*s, 0.001, 1e6)) reader.Set("epochs", *v, *s);
  }
  if (const Setting* s = TakeValue(reader, "max_steps"); s != nullptr && s->value != "-1") {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  } else if (s != nullptr) {
    reader.Used(*s);
  }
  reader.IgnoreKeys({"eval_batch_size"}, "import.ignored.io");
}

// gradient_checkpointing: true, false, or "unsloth" / "offload" (checkpoints kept in host
// memory); activation_offloading: true or "legacy".
void ReadCheckpointing(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "gradient_checkpointing")) {
    const std::string v = Lower(s->value);
    if (v == "unsloth" || v == "offload" || v == "offload_disk") {
      reader.Set("activation_checkpointing", "full", *s);
      reader.Set("activation_offload", true, *s);
    } else if (auto b = reader.Bool(*s)) {
      reader.Set("activation_checkpointing", *b ? "full" : "none", *s);
    }
  }
  reader.IgnorePrefix("gradient_checkpointing_kwargs", "import.ignored.hyperparameter");
  if (const Setting* s = TakeValue(reader, "activation_offloading")) {
    const std::string v = Lower(s->value);
    if (v == "legacy" || v == "disk" || IsTrue(reader, s)) {
      reader.Set("activation_offload", true, *s);
    } else if (!reader.failed()) {
      if (!reader.Field("activation_offload")) reader.Set("activation_offload", false, *s);
      else reader.Used(*s);
    }
  }
}

void ReadAttention(Reader& reader) {
  const Setting* fused = nullptr;
  const Setting* eager = nullptr;
  std::vector<const Setting*> off;
  for (const char* key : {"flash_attention", "sdp_attention", "xformers_attention", "flex_attention"}) {
    const Setting* s = TakeValue(reader, key);
    if (s == nullptr) continue;
    if (IsTrue(reader, s) && fused == nullptr) fused = s;
    else off.push_back(s);
  }
  if (const Setting* s = TakeValue(reader, "eager_attention")) {
    if (IsTrue(reader, s)) eager = s;
    else off.push_back(s);
  }
  if (fused != nullptr) reader.Set("flash_attention", true, *fused);
  else if (eager != nullptr) reader.Set("flash_attention", false, *eager);
  if (fused != nullptr && eager != nullptr) reader.Used(*eager);  // a fused kernel named wins
  for (const Setting* s : off) reader.Used(*s);  // off: transformers' default (SDPA) stays
}

// bf16 (true, false or "auto"), fp16, bfloat16 (no mixed precision: weights and states in bf16).
void ReadPrecision(Reader& reader) {
  const Setting* bf16 = TakeValue(reader, "bf16");
  const Setting* fp16 = TakeValue(reader, "fp16");
  const Setting* pure = TakeValue(reader, "bfloat16");
  const bool bf16_auto = bf16 && Reader::IsAuto(*bf16);
  const bool is_bf16 = bf16_auto || IsTrue(reader, bf16);
  const bool is_fp16 = IsTrue(reader, fp16);
  if (IsTrue(reader, pure)) {
    reader.Set("precision", "bf16-pure", *pure);
    if (bf16) reader.Used(*bf16);
  } else if (is_bf16) {
    reader.Set("precision", "bf16", *bf16);
    if (bf16_auto) reader.Assume("precision", "bf16", engine::MakeMessage("import.assumed.bf16_auto"));
  } else if (is_fp16) {
    reader.Set("precision", "fp16", *fp16);
  } else if (bf16 || fp16) {
    reader.Set("precision", "fp32", bf16 ? *bf16 : *fp16);
  }
  // Every precision key read is listed, whichever decided.
  for (const Setting* key : {bf16, fp16, pure}) {
    if (key != nullptr) reader.Used(*key);
  }
  reader.IgnoreKeys({"tf32"}, "import.ignored.tf32");
}

// deepspeed (a JSON path), or FSDP: the `fsdp` list of options, fsdp_version 2 and
// fsdp_config (fsdp_offload_params / offload_params, sharding strategy, reshard_after_forward).
void ReadSharding(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "deepspeed")) {
    reader.Set("sharding", "deepspeed", *s);
    reader.Assume("zero", nullptr, engine::MakeMessage("import.assumed.deepspeed_file", {engine::TextArg("file", s->value)}));
  }
  const Setting* fsdp = TakeValue(reader, "fsdp");
  if (fsdp) ReadFsdpOption(reader, *fsdp);
  if (reader.failed()) return;
  const Setting* version = TakeValue(reader, "fsdp_version");
  if (version && !reader.Int(*version, 1, 2)) return;
  const Setting* strategy = TakeValueAny(reader, {"fsdp_config.fsdp_sharding_strategy", "fsdp_config.sharding_strategy"});
  const Setting* reshard =
      TakeValueAny(reader, {"fsdp_config.reshard_after_forward", "fsdp_config.fsdp_reshard_after_forward"});
  const Setting* offload = TakeValueAny(reader, {"fsdp_config.fsdp_offload_params", "fsdp_config.offload_params"});
  const Setting* checkpointing =
      TakeValueAny(reader, {"fsdp_config.activation_checkpointing", "fsdp_config.fsdp_activation_checkpointing"});
  bool config = false;
  for (const Setting& s : reader.doc().settings) {
    if (s.key.compare(0, 12, "fsdp_config.") == 0 && !s.is_null) config = true;
  }
  const bool fsdp_on = (fsdp && reader.Field("sharding") && *reader.Field("sharding") == "fsdp") || version || config;
  if (fsdp_on && !(fsdp && reader.Field("zero"))) {
    // Without a strategy FSDP shards everything (FULL_SHARD; FSDP2 reshards after forward).
    int zero = 3;
    if (strategy) {
      Setting lower = *strategy;  // FULL_SHARD, SHARD_GRAD_OP, HYBRID_SHARD, NO_SHARD (or 1-4)
      lower.value = Lower(lower.value);
      ReadFsdpOption(reader, lower);
      if (reader.failed()) return;
    } else if (reshard) {
      if (auto v = reader.Bool(*reshard)) zero = *v ? 3 : 2;
      reader.Set("zero", zero, *reshard);
      reader.Set("sharding", "fsdp", *reshard);
    } else {
      const Setting& any = version ? *version : DefaultSetting("fsdp_config", "");
      reader.Set("zero", zero, any);
      reader.Set("sharding", "fsdp", any);
    }
    if (reshard && strategy) reader.Used(*reshard);
  } else {
    if (strategy) reader.Used(*strategy);
    if (reshard) reader.Used(*reshard);
  }
  if (version) reader.Used(*version);
  if (offload) {
    if (IsTrue(reader, offload)) {
      const contract::Json* zero = reader.Field("zero");
      reader.Set("offload", zero && *zero == 3 ? "optimizer+params" : "optimizer", *offload);
    } else {
      reader.Used(*offload);
    }
  }
  if (checkpointing) {
    if (IsTrue(reader, checkpointing)) reader.Set("activation_checkpointing", "full", *checkpointing);
    else reader.Used(*checkpointing);
  }
  TakeValue(reader, "fsdp_config");  // fsdp_config: with nothing under it
  reader.IgnorePrefix("fsdp_config", "import.ignored.fsdp_config");
  reader.IgnoreKeys({"dp_shard_size", "dp_replicate_size", "fsdp_final_state_dict_type"}, "import.ignored.fsdp_config");
}

// Losses that never hold the full fp32 logits (cut cross-entropy, Liger's kernels, chunked),
// Liger's fused norm and SwiGLU, torch.compile.
void ReadKernels(Reader& reader) {
  std::vector<const Setting*> read;
  const Setting* plugins = TakeValue(reader, "plugins");
  bool cce_plugin = false;
  if (plugins) {
    const std::string v = Lower(plugins->value);
    cce_plugin = v.find("cut_cross_entropy") != std::string::npos;
    if (!cce_plugin && v.find("liger") == std::string::npos) {
      reader.Ignore(*plugins, engine::MakeMessage("import.ignored.plugin", {engine::TextArg("name", plugins->value)}));
      plugins = nullptr;
    }
  }
  const Setting* chunked = nullptr;
  for (const char* key : {"cut_cross_entropy", "liger_fused_linear_cross_entropy", "liger_cross_entropy",
                          "chunked_cross_entropy", "unsloth_cross_entropy_loss", "flash_attn_cross_entropy"}) {
    const Setting* s = TakeValue(reader, key);
    if (s == nullptr) continue;
    if (IsTrue(reader, s) && chunked == nullptr) chunked = s;
    else read.push_back(s);
  }
  // The cut cross-entropy plugin is on unless cut_cross_entropy: false.
  const Setting* cce_key = reader.doc().Find("cut_cross_entropy");
  if (chunked == nullptr && cce_plugin && !(cce_key && !cce_key->is_null && Lower(cce_key->value) == "false")) {
    chunked = plugins;
  } else if (plugins) {
    read.push_back(plugins);
  }
  if (chunked) reader.Set("cross_entropy", "chunked", *chunked);
  const Setting* norm = TakeValue(reader, "liger_rms_norm");
  const Setting* glu = TakeValue(reader, "liger_glu_activation");
  if (IsTrue(reader, norm) && IsTrue(reader, glu)) {
    reader.Set("kernels", "fused", *norm);
    reader.Set("kernels", "fused", *glu);
  } else {
    if (norm) read.push_back(norm);
    if (glu) read.push_back(glu);
  }
  if (const Setting* s = TakeValue(reader, "torch_compile")) {
    if (!Reader::IsAuto(*s) && IsTrue(reader, s)) reader.Set("kernels", "fused", *s);
    else read.push_back(s);
  }
  for (const char* key : {"liger_rope", "liger_layer_norm", "torch_compile_backend", "torch_compile_mode"}) {
    if (const Setting* s = TakeValue(reader, key)) read.push_back(s);
  }
  for (const Setting* s : read) reader.Used(*s);
}

// GRPO and the DPO family: the trl section (num_generations, max_completion_length, beta,
// use_vllm, vllm_mode) and the vllm server section.
void ReadTrl(Reader& reader) {
  if (const Setting* s = TakeValue(reader, "trl.num_generations")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("group_size", *v, *s);
  }
  if (const Setting* s = TakeValue(reader, "trl.max_completion_length")) {
    if (auto v = reader.Int(*s, 1, 1000000)) {
      reader.Set("max_response_len", *v, *s);
      if (!reader.Field("response_len")) {
        reader.Assume("response_len", nullptr, engine::MakeMessage("import.assumed.response_len"));
      }
    }
  }
  if (const Setting* s = TakeValueAny(reader, {"trl.beta", "rl_beta"})) {
    if (auto v = reader.Number(*s, 0, 1e6)) {
      if (*v == 0) reader.Set("reference", "none", *s);
      else reader.Used(*s);
    }
  }
  if (const Setting* s = TakeValue(reader, "trl.vllm_mode")) {
    reader.Set("placement", Lower(s->value) == "server" ? "separate" : "colocated", *s);
  }
  if (const Setting* s = TakeValue(reader, "trl.use_vllm")) reader.Used(*s);
  if (const Setting* s = TakeValueAny(reader, {"trl.vllm_gpu_memory_utilization", "vllm.gpu_memory_utilization"})) {
    if (auto v = reader.Number(*s, 0.01, 1)) reader.Set("gpu_memory_utilization", *v, *s);
  }
  if (const Setting* s = TakeValueAny(reader, {"trl.vllm_tensor_parallel_size", "vllm.tensor_parallel_size"})) {
    if (auto v = reader.Int(*s, 1, 64)) reader.Set("rollout_tp", *v, *s);
  }
  reader.IgnoreKeys({"trl.vllm_server_host", "trl.vllm_server_port", "trl.vllm_server_timeout"},
                    "import.ignored.rollout_server");
  reader.IgnorePrefix("vllm", "import.ignored.rollout_server");
  reader.IgnorePrefix("trl", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"dpo_beta", "orpo_alpha", "simpo_gamma", "cpo_alpha", "rpo_alpha", "dpo_use_weighting",
                     "dpo_label_smoothing", "dpo_norm_loss", "dpo_padding_free", "dpo_use_logits_to_keep",
                     "kto_desirable_weight", "kto_undesirable_weight", "rl_adapter_ref_model", "max_completion_length"},
                    "import.ignored.hyperparameter");
}

}  // namespace

void ReadAxolotl(Reader& reader) {
  reader.Assume("framework", "axolotl", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "axolotl")}));
  reader.state().result.scenario["framework"] = "axolotl";
  if (const Setting* s = TakeValue(reader, "base_model")) reader.SetModelFromName(*s);
  reader.IgnoreKeys({"base_model_config", "tokenizer_config", "tokenizer_type", "model_type", "processor_type",
                     "tokenizer_use_fast", "tokenizer_legacy", "tokenizer_save_jinja_files", "revision_of_model",
                     "is_llama_derived_model", "is_mistral_derived_model", "is_qwen_derived_model", "is_falcon_derived_model"},
                    "import.ignored.io");

  const Setting* rl = TakeValue(reader, "rl");
  const std::string post = RlMethod(reader, rl);
  if (reader.failed()) return;
  ReadMethod(reader, post, rl);
  if (reader.failed()) return;
  ReadLora(reader);
  ReadLengths(reader, post);
  ReadBatch(reader);
  ReadCheckpointing(reader);
  ReadAttention(reader);
  ReadPrecision(reader);
  if (const Setting* s = TakeValue(reader, "optimizer")) ReadTrainerOptimizer(reader, *s);
  reader.IgnoreKeys({"optim_args", "optim_target_modules", "lr_groups", "embedding_lr", "embedding_lr_scale"},
                    "import.ignored.hyperparameter");
  ReadSharding(reader);
  if (reader.failed()) return;
  ReadKernels(reader);
  ReadTrl(reader);
  if (reader.failed()) return;

  reader.IgnoreKeys({"sample_packing", "eval_sample_packing", "pad_to_sequence_len", "sample_packing_eff_est",
                     "sample_packing_group_size", "sample_packing_bin_size", "sample_packing_sequentially",
                     "multipack_real_batches", "pretrain_multipack_attn", "pretrain_multipack_buffer_size",
                     "curriculum_sampling"},
                    "import.ignored.packing");
  reader.IgnoreKeys({"noisy_embedding_alpha", "loss_watchdog_threshold", "loss_watchdog_patience",
                     "cosine_constant_lr_ratio", "lr_div_factor", "lr_quadratic_warmup", "early_stopping_patience",
                     "unfrozen_parameters", "group_by_length", "shuffle_merged_datasets", "shuffle_before_merging_datasets"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"dataset_prepared_path", "val_set_size", "test_value", "strict", "evals_per_epoch", "eval_table_size",
                     "eval_max_new_tokens", "eval_causal_lm_metrics", "do_causal_lm_eval", "saves_per_epoch",
                     "save_first_step", "debug", "local_rank", "auto_resume_from_checkpoints", "dataset_processes",
                     "dataset_num_proc", "dataset_keep_in_memory", "default_system_message", "chat_template_jinja",
                     "use_tensorboard", "gc_steps", "skip_prepare_dataset", "dataset_exact_deduplication",
                     "sequence_len_overflow_handling", "excess_length_strategy", "profiler_steps", "include_tokens_per_second",
                     "use_ray", "ray_num_workers", "ddp", "ddp_bucket_cap_mb", "ddp_broadcast_buffers"},
                    "import.ignored.io");
  for (const char* prefix : {"datasets", "test_datasets", "pretraining_dataset", "special_tokens", "tokens",
                             "added_tokens_overrides", "wandb", "mlflow", "comet", "hub", "dataloader"}) {
    reader.IgnorePrefix(prefix, "import.ignored.io");
  }
  for (const char* start : {"wandb_", "mlflow_", "comet_", "hub_", "dataloader_", "eval_", "save_", "logging_"}) {
    IgnoreStartingWith(reader, start, "import.ignored.io");
  }
  IgnoreHyperparameters(reader);
}

}  // namespace engine::imports
