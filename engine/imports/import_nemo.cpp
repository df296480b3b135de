// NeMo 1.x YAML (megatron_gpt_config.yaml: trainer.* and model.* keys, or the same keys as
// Hydra overrides), read for ReadMegatron (engine/imports/import_megatron.cpp); the model.*
// architecture keys are read in import_megatron_model.cpp.
#include <algorithm>
#include <optional>
#include <string>

#include "engine/imports/megatron_import.h"

namespace engine::imports::megatron {

namespace {

std::optional<long> NemoInt(Reader& reader, const Setting* s, long lo, long hi) {
  if (s == nullptr || s->is_null) return std::nullopt;
  return reader.Int(*s, lo, hi);
}

}  // namespace

bool IsNemo(const ConfigDocument& doc) {
  for (const Setting& s : doc.settings) {
    if (s.key.rfind("model.", 0) == 0 || s.key.rfind("trainer.", 0) == 0) return true;
  }
  return false;
}

void ReadNemo(Reader& reader) {
  if (!reader.Field("framework")) {
    reader.state().result.scenario["framework"] = "nemo";
    reader.Assume("framework", "nemo", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "NeMo")}));
  }
  // trainer: the GPUs and the steps (PyTorch Lightning Trainer arguments).
  const Setting* devices = reader.Take("trainer.devices");
  const Setting* nodes = reader.Take("trainer.num_nodes");
  if (devices && (devices->value == "-1" || devices->value == "auto")) {
    reader.Ignore(*devices, engine::MakeMessage("import.ignored.all_devices"));
    if (nodes) reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  } else if (devices) {
    const std::optional<long> per_node = reader.Int(*devices, 1, kMaxGpus);
    const std::optional<long> n = nodes ? reader.Int(*nodes, 1, kMaxGpus) : std::optional<long>(1);
    if (per_node && n) {
      reader.Set("gpus_per_node", *per_node, *devices);
      reader.Set("gpus", static_cast<long long>(*per_node) * *n, *devices);
      if (nodes) reader.Set("gpus", static_cast<long long>(*per_node) * *n, *nodes);
    }
  } else if (nodes) {
    reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  }
  if (const Setting* s = reader.Take("trainer.max_steps"); s != nullptr && s->value != "-1" && !s->is_null) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  } else if (s != nullptr) {
    reader.Used(*s);
  }
  const Setting* fp8 = reader.Take("model.fp8");
  if (const Setting* s = reader.Take("trainer.precision")) {
    const std::string p = Lower(s->value);
    std::string precision;
    if (p == "bf16" || p == "bf16-mixed" || p == "bf16-true") precision = "bf16";
    else if (p == "16" || p == "16-mixed" || p == "fp16") precision = "fp16";
    else if (p == "32" || p == "32-true" || p == "fp32") precision = "fp32";
    else return FailChoice(reader, *s, "bf16, bf16-mixed, 16, 16-mixed, 32");
    if (fp8 && reader.Bool(*fp8).value_or(false)) {
      reader.Set("precision", "fp8", *fp8);
      reader.Used(*s);
    } else {
      reader.Set("precision", precision, *s);
      if (fp8) reader.Used(*fp8);
    }
  } else if (fp8) {
    if (reader.Bool(*fp8).value_or(false)) reader.Set("precision", "fp8", *fp8);
    else reader.Used(*fp8);
  }
  for (const char* key : {"model.fp8_hybrid", "model.fp8_e4m3", "model.transformer_engine", "model.megatron_amp_O2",
                          "model.mcore_gpt"}) {
    if (const Setting* s = reader.Take(key)) reader.Used(*s);
  }
  if (reader.failed()) return;

  // model: batch and sequence.
  std::optional<long> seq_len;
  if (const Setting* s = reader.TakeAny({"model.encoder_seq_length", "model.seq_length"})) {
    seq_len = reader.Int(*s, 1, 10000000);
    if (seq_len) reader.Set("seq_len", *seq_len, *s);
  }
  if (const Setting* s = reader.Take("model.micro_batch_size")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = reader.Take("model.global_batch_size")) {
    if (auto v = reader.Int(*s, 1, 100000000)) reader.Set("global_batch", *v, *s);
  }
  if (reader.failed()) return;
  const std::optional<Arch> arch = ReadNemoArch(reader);
  if (reader.failed()) return;
  if (arch) SetArchitecture(reader, *arch, seq_len, "model.tokenizer");

  // model: parallelism.
  long pp = 1;
  struct IntKey {
    const char* key;
    const char* field;
    long lo, hi;
  };
  for (const IntKey& k : {IntKey{"model.tensor_model_parallel_size", "tp", 1, 1024},
                          IntKey{"model.pipeline_model_parallel_size", "pp", 1, 1000},
                          IntKey{"model.context_parallel_size", "cp", 1, 1024},
                          IntKey{"model.expert_model_parallel_size", "ep", 1, 4096},
                          IntKey{"model.expert_tensor_parallel_size", "etp", 1, 1024},
                          IntKey{"model.virtual_pipeline_model_parallel_size", "virtual_pipeline", 1, 64}}) {
    const Setting* s = reader.Take(k.key);
    if (s != nullptr && s->is_null) {
      reader.Used(*s);
    } else if (const std::optional<long> v = NemoInt(reader, s, k.lo, k.hi)) {
      reader.Set(k.field, *v, *s);
      if (std::string(k.field) == "pp") pp = *v;
    }
  }
  if (const Setting* s = reader.Take("model.sequence_parallel")) {
    if (auto v = reader.Bool(*s)) reader.Set("sequence_parallel", *v, *s);
  }
  if (const Setting* s = reader.Take("model.ub_tp_comm_overlap")) {
    if (auto v = reader.Bool(*s)) reader.Set("tp_comm_overlap", *v, *s);
  }
  if (const Setting* s = reader.Take("model.use_flash_attention")) {
    if (auto v = reader.Bool(*s)) reader.Set("flash_attention", *v, *s);
  }
  if (reader.failed()) return;

  // model: activation checkpointing (NeMo's activations_checkpoint_*).
  const Setting* granularity = reader.Take("model.activations_checkpoint_granularity");
  const Setting* method = reader.Take("model.activations_checkpoint_method");
  const Setting* count = reader.Take("model.activations_checkpoint_num_layers");
  if (granularity && !granularity->is_null) {
    const std::string& g = granularity->value;
    if (g != "full" && g != "selective") return FailChoice(reader, *granularity, "full, selective, null");
    reader.Set("activation_checkpointing", g, *granularity);
    if (g == "full" && method && method->value == "block" && count && !count->is_null) {
      if (auto n = reader.Int(*count, 0, 1000)) {
        long long total = static_cast<long long>(*n) * pp;
        if (arch && arch->layers > 0) total = std::min<long long>(total, arch->layers);
        reader.Set("recompute_layers", std::min<long long>(total, 1000), *count);
      }
      reader.Used(*method);
    } else if (g == "full" && method && method->value == "uniform") {
      reader.Set("recompute_layers", 0, *method);
      if (count) reader.Used(*count);
    } else {
      if (method) reader.Used(*method);
      if (count) reader.Used(*count);
    }
  } else {
    if (granularity) reader.Set("activation_checkpointing", "none", *granularity);
    if (method) reader.Used(*method);
    if (count) reader.Used(*count);
  }
  if (reader.failed()) return;

  // model.optim: distributed_fused_adam is Megatron's distributed optimizer (zero 1).
  if (const Setting* s = reader.Take("model.optim.name")) {
    const std::string& o = s->value;
    if (o == "distributed_fused_adam" || o == "mcore_distributed_optim") {
      reader.Set("optimizer", "adamw", *s);
      reader.Set("zero", 1, *s);
    } else if (o == "fused_adam" || o == "adam" || o == "adamw") {
      reader.Set("optimizer", "adamw", *s);
      reader.Set("zero", 0, *s);
    } else {
      ReadTrainerOptimizer(reader, *s);
    }
  }
  reader.IgnorePrefix("model.optim", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"model.init_method_std", "model.hidden_dropout", "model.attention_dropout", "model.ffn_dropout",
                     "model.seed", "model.layernorm_epsilon", "model.use_scaled_init_method",
                     "model.apply_query_key_layer_scaling", "model.normalize_attention_scores",
                     "model.do_layer_norm_weight_decay", "trainer.gradient_clip_val", "model.native_amp_init_scale",
                     "model.native_amp_growth_interval", "model.hysteresis", "model.fp16_lm_cross_entropy"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"model.rotary_percentage", "model.rotary_base", "model.seq_len_interpolation_factor",
                     "model.scale_positional_embedding"},
                    "import.ignored.rope");
  reader.IgnorePrefix("model.tokenizer", "import.ignored.io");
  reader.IgnorePrefix("model.data", "import.ignored.io");
  reader.IgnorePrefix("model.nsys_profile", "import.ignored.io");
  reader.IgnorePrefix("exp_manager", "import.ignored.io");
  reader.IgnoreKeys({"name", "restore_from_path", "model.make_vocab_size_divisible_by", "model.resume_from_checkpoint",
                     "trainer.logger", "trainer.enable_checkpointing", "trainer.log_every_n_steps",
                     "trainer.val_check_interval", "trainer.limit_val_batches", "trainer.limit_test_batches",
                     "trainer.accelerator", "trainer.use_distributed_sampler", "trainer.enable_progress_bar",
                     "trainer.benchmark", "trainer.max_time", "trainer.max_epochs", "trainer.num_sanity_val_steps",
                     "trainer.enable_model_summary"},
                    "import.ignored.io");
  reader.IgnoreKeys({"trainer.accumulate_grad_batches"}, "import.ignored.megatron_tuning");
  reader.IgnoreKeys({"model.grad_allreduce_chunk_size_mb", "model.grad_div_ar_fusion",
                     "model.gradient_accumulation_fusion", "model.bias_activation_fusion",
                     "model.bias_dropout_add_fusion", "model.masked_softmax_fusion",
                     "model.get_attention_mask_from_fusion", "model.apply_rope_fusion", "model.persist_layer_norm",
                     "model.use_cpu_initialization", "model.onnx_safe", "model.apex_transformer_log_level",
                     "model.gradient_as_bucket_view", "model.sync_batch_comm", "model.overlap_p2p_comm",
                     "model.batch_p2p_comm", "model.pre_process", "model.post_process", "model.fp8_margin",
                     "model.fp8_interval", "model.fp8_amax_history_len", "model.fp8_amax_compute_algo",
                     "model.reduce_amax", "model.use_emha", "model.cpu_offloading_num_layers",
                     "model.num_micro_batches_with_partial_activation_checkpoints",
                     "model.activations_checkpoint_layers_per_pipeline", "model.use_te_rng_tracker",
                     "model.headscale", "model.transformer_block_type", "model.openai_gelu",
                     "model.attention_type"},
                    "import.ignored.megatron_tuning");
  if (const Setting* s = reader.Take("model.cpu_offloading")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_offload", *v, *s);
  }
}

}  // namespace engine::imports::megatron
