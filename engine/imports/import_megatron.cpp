// Megatron-LM arguments (pretrain_gpt.py flags, megatron/training/arguments.py in
// https://github.com/NVIDIA/Megatron-LM; the launch scripts of examples/gpt3 and examples/llama
// with bash arrays of flags) and NeMo 1.x YAML (megatron_gpt_config.yaml: trainer.* and
// model.* keys, or the same keys as Hydra overrides). The reader inverts what
// engine/exports/launch_configs.cpp's MegatronCommand writes, so that its text imports back
// to the scenario it came from; what the flags leave unsaid is Megatron-LM's own default.
// The architecture is read in import_megatron_model.cpp and NeMo in import_nemo.cpp
// (engine/imports/megatron_import.h); here the shared helpers, Megatron-LM's other flags and
// ReadMegatron.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "engine/imports/import_reader.h"
#include "engine/imports/megatron_import.h"

namespace engine::imports {

namespace megatron {

using contract::Json;

std::optional<long> IntOf(Reader& reader, const Setting* s, long lo, long hi) {
  if (s == nullptr) return std::nullopt;
  return reader.Int(*s, lo, hi);
}

bool FlagOn(Reader& reader, const Setting* s) {
  if (s == nullptr) return false;
  if (reader.doc().kind == DocumentKind::kMapping) return reader.Bool(*s).value_or(false);
  const std::string v = Lower(s->value);
  return !(v == "false" || v == "0" || v == "no" || v == "off");
}

void FailChoice(Reader& reader, const Setting& s, const char* allowed) {
  reader.Fail(s, engine::MakeMessage("input.not_one_of",
                                     {engine::TextArg("allowed", allowed), engine::TextArg("got", engine::QuotedInput(s.value))}));
}

void IgnoreWith(Reader& reader, const Setting* s, const char* id, const char* arg, const char* text) {
  if (s != nullptr) reader.Ignore(*s, engine::MakeMessage(id, {engine::TextArg(arg, text)}));
}

namespace {

// A field Megatron-LM decides by itself when its flag is absent: the default is written and
// listed as assumed (a value another file gave stays).
void AssumeDefault(Reader& reader, const char* field, Json value, const char* flag) {
  if (reader.Field(field)) return;
  reader.state().result.scenario[field] = value;
  reader.Assume(field, std::move(value), engine::MakeMessage("import.assumed.megatron_default", {engine::TextArg("flag", flag)}));
}

// [SECTION] Megatron-LM flags

void ReadMegatronPrecision(Reader& reader) {
  const Setting* bf16 = reader.Take("bf16");
  const Setting* fp16 = reader.Take("fp16");
  const Setting* fp8 = reader.Take("fp8-format");
  const Setting* fp8_recipe = reader.Take("fp8-recipe");
  const Setting* fp4 = reader.Take("fp4-format");
  const Setting* fp4_recipe = reader.Take("fp4-recipe");
  const Setting* first_last = reader.Take("first-last-layers-bf16");
  const Setting* at_start = reader.Take("num-layers-at-start-in-bf16");
  const Setting* at_end = reader.Take("num-layers-at-end-in-bf16");
  std::string precision;
  if (fp4) {
    if (fp4->value != "e2m1") FailChoice(reader, *fp4, "e2m1");
    precision = "nvfp4";
    reader.Set("precision", precision, *fp4);
  } else if (fp8) {
    if (fp8->value != "hybrid" && fp8->value != "e4m3") FailChoice(reader, *fp8, "hybrid, e4m3");
    precision = fp8_recipe && fp8_recipe->value == "mxfp8" ? "mxfp8" : "fp8";
    reader.Set("precision", precision, *fp8);
  } else if (FlagOn(reader, bf16)) {
    precision = "bf16";
    reader.Set("precision", precision, *bf16);
  } else if (FlagOn(reader, fp16)) {
    precision = "fp16";
    reader.Set("precision", precision, *fp16);
  } else {
    AssumeDefault(reader, "precision", "fp32", "--bf16 or --fp16");
  }
  // --bf16 beside an FP8 or FP4 format is the precision of what is not FP8/FP4.
  for (const Setting* s : {bf16, fp16, fp8, fp8_recipe, fp4_recipe}) {
    if (s != nullptr) reader.Used(*s);
  }
  // --first-last-layers-bf16 keeps --num-layers-at-start/end-in-bf16 layers (default 1 each) in BF16.
  if (FlagOn(reader, first_last)) {
    const long start = at_start ? IntOf(reader, at_start, 0, 1000).value_or(0) : 1;
    const long end = at_end ? IntOf(reader, at_end, 0, 1000).value_or(0) : 1;
    if (reader.failed()) return;
    if (precision == "fp8" || precision == "mxfp8" || precision == "nvfp4") {
      reader.Set("bf16_layers", start + end, *first_last);
      if (at_start) reader.Used(*at_start);
      if (at_end) reader.Used(*at_end);
    } else {
      reader.Used(*first_last);
      if (at_start) reader.Used(*at_start);
      if (at_end) reader.Used(*at_end);
    }
  } else {
    if (first_last) reader.Used(*first_last);
    IgnoreWith(reader, at_start, "import.ignored.only_with", "key", "--first-last-layers-bf16");
    IgnoreWith(reader, at_end, "import.ignored.only_with", "key", "--first-last-layers-bf16");
  }
}

void ReadMegatronAttention(Reader& reader) {
  const Setting* backend = reader.Take("attention-backend");
  const Setting* legacy = reader.Take("use-flash-attn");
  if (backend) {
    const std::string& b = backend->value;
    if (b == "fused") {
      reader.Set("flash_attention", true, *backend);
      reader.Set("attention_backend", "cudnn", *backend);
    } else if (b == "flash") {
      reader.Set("flash_attention", true, *backend);
      reader.Set("attention_backend", "flash-attn", *backend);
    } else if (b == "unfused" || b == "local") {
      reader.Set("flash_attention", false, *backend);
    } else if (b == "auto") {
      reader.Used(*backend);  // Transformer Engine chooses: the framework's backend
    } else {
      FailChoice(reader, *backend, "flash, fused, unfused, local, auto");
    }
    if (legacy) reader.Used(*legacy);
  } else if (FlagOn(reader, legacy)) {
    reader.Set("flash_attention", true, *legacy);
    reader.Set("attention_backend", "flash-attn", *legacy);
  } else if (legacy) {
    reader.Used(*legacy);
  }
}

void ReadMegatronRecompute(Reader& reader, long pp, long layers) {
  const Setting* granularity = reader.Take("recompute-granularity");
  const Setting* method = reader.Take("recompute-method");
  const Setting* count = reader.Take("recompute-num-layers");
  const Setting* modules = reader.Take("recompute-modules");
  if (granularity == nullptr) {
    AssumeDefault(reader, "activation_checkpointing", "none", "--recompute-granularity");
    IgnoreWith(reader, method, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, count, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, modules, "import.ignored.only_with", "key", "--recompute-granularity selective");
    return;
  }
  const std::string& g = granularity->value;
  if (g != "full" && g != "selective") return FailChoice(reader, *granularity, "full, selective");
  reader.Set("activation_checkpointing", g, *granularity);
  if (g == "selective") {
    if (modules) {
      Json list = Json::array();
      for (const std::string& name : SettingItems(modules->value)) list.push_back(name);
      reader.Set("recompute_modules", list, *modules);
    }
    IgnoreWith(reader, method, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, count, "import.ignored.only_with", "key", "--recompute-granularity full");
    return;
  }
  IgnoreWith(reader, modules, "import.ignored.only_with", "key", "--recompute-granularity selective");
  if (method == nullptr) {
    if (count) reader.Used(*count);
    return;
  }
  if (method->value == "uniform") {
    // Every layer is recomputed, in groups of --recompute-num-layers.
    reader.Set("recompute_layers", 0, *method);
    if (count) {
      IntOf(reader, count, 1, 1000);
      reader.Used(*count);
    }
  } else if (method->value == "block") {
    if (count == nullptr) {
      reader.Used(*method);
      return;
    }
    // block: this many layers of each pipeline stage are recomputed.
    const std::optional<long> n = IntOf(reader, count, 0, 1000);
    if (!n) return;
    long long total = static_cast<long long>(*n) * pp;
    if (layers > 0) total = std::min<long long>(total, layers);
    reader.Set("recompute_layers", std::min<long long>(total, 1000), *count);
    reader.Used(*method);
  } else {
    FailChoice(reader, *method, "uniform, block");
  }
}

void IgnoreMegatronRest(Reader& reader) {
  reader.IgnoreKeys({"lr", "min-lr", "lr-decay-style", "lr-decay-iters", "lr-decay-samples", "lr-warmup-fraction",
                     "lr-warmup-iters", "lr-warmup-samples", "lr-warmup-init", "lr-wsd-decay-style",
                     "lr-wsd-decay-iters", "lr-wsd-decay-samples", "clip-grad", "weight-decay", "start-weight-decay",
                     "end-weight-decay", "weight-decay-incr-style", "adam-beta1", "adam-beta2", "adam-eps",
                     "sgd-momentum", "init-method-std", "attention-dropout", "hidden-dropout", "seed",
                     "rampup-batch-size", "moe-aux-loss-coeff", "moe-z-loss-coeff", "moe-router-load-balancing-type",
                     "moe-router-score-function", "moe-router-topk-scaling-factor", "moe-router-enable-expert-bias",
                     "moe-router-bias-update-rate", "moe-token-drop-policy", "moe-expert-capacity-factor",
                     "norm-epsilon", "apply-layernorm-1p", "use-checkpoint-opt_param-scheduler",
                     "override-opt_param-scheduler", "decoupled-lr", "decoupled-min-lr", "qk-layernorm",
                     "apply-query-key-layer-scaling", "attention-softmax-in-fp32"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"loss-scale", "initial-loss-scale", "min-loss-scale", "loss-scale-window", "hysteresis",
                     "accumulate-allreduce-grads-in-fp32", "fp8-margin", "fp8-amax-history-len",
                     "fp8-amax-compute-algo", "fp8-interval", "fp8-param-gather"},
                    "import.ignored.loss_scale");
  reader.IgnoreKeys({"data-path", "train-data-path", "valid-data-path", "test-data-path", "data-cache-path",
                     "mock-data", "split", "tokenizer-type", "tokenizer-model", "vocab-file", "merge-file",
                     "make-vocab-size-divisible-by", "save", "load", "pretrained-checkpoint", "finetune",
                     "no-load-optim", "no-load-rng", "no-save-optim", "no-save-rng", "ckpt-format", "use-dist-ckpt",
                     "auto-detect-ckpt-format", "async-save", "use-checkpoint-args", "exit-interval",
                     "exit-duration-in-mins", "exit-signal-handler", "log-interval", "eval-interval", "eval-iters",
                     "save-interval", "tensorboard-dir", "tensorboard-log-interval", "tensorboard-queue-size",
                     "wandb-project", "wandb-exp-name", "wandb-save-dir", "log-throughput",
                     "log-timers-to-tensorboard", "log-validation-ppl-to-tensorboard", "log-memory-to-tensorboard",
                     "log-params-norm", "log-num-zeros-in-grad", "log-progress", "timing-log-level",
                     "timing-log-option", "num-workers", "dataloader-type", "reset-position-ids",
                     "reset-attention-mask", "eod-mask-loss", "no-create-attention-mask-in-dataloader",
                     "no-mmap-bin-files", "data-args-path", "per-split-data-args-path", "distributed-timeout-minutes",
                     "profile", "profile-step-start", "profile-step-end", "profile-ranks", "use-pytorch-profiler",
                     "dist-ckpt-strictness", "ckpt-fully-parallel-save", "ckpt-fully-parallel-load",
                     "ckpt-assume-constant-structure", "log-straggler", "logging-level"},
                    "import.ignored.io");
  reader.IgnoreKeys({"rotary-base", "use-rope-scaling", "rope-scaling-factor", "rotary-percent",
                     "rotary-interleaved", "rotary-seq-len-interpolation-factor", "no-rope-fusion",
                     "no-position-embedding"},
                    "import.ignored.rope");
  reader.IgnoreKeys({"overlap-grad-reduce", "overlap-param-gather", "overlap-param-gather-with-optimizer-step",
                     "no-gradient-accumulation-fusion", "no-masked-softmax-fusion", "no-bias-gelu-fusion",
                     "no-bias-swiglu-fusion", "no-bias-dropout-fusion", "use-mcore-models", "transformer-impl",
                     "distributed-backend", "ddp-bucket-size", "ddp-average-in-collective", "manual-gc",
                     "manual-gc-interval", "moe-grouped-gemm", "moe-token-dispatcher-type", "moe-router-dtype",
                     "moe-permute-fusion", "tp-comm-overlap-cfg", "tp-comm-bootstrap-backend", "defer-embedding-wgrad-compute",
                     "overlap-p2p-communication", "no-overlap-p2p-communication",
                     "overlap-p2p-communication-warmup-flush", "use-precision-aware-optimizer", "main-grads-dtype",
                     "main-params-dtype", "exp-avg-dtype", "exp-avg-sq-dtype", "calculate-per-token-loss",
                     "deterministic-mode", "use-cpu-initialization", "empty-unused-memory-level",
                     "check-for-nan-in-loss-and-grad", "no-check-for-nan-in-loss-and-grad", "use-flash-decode",
                     "num-distributed-optimizer-instances", "cpu-offloading-activations", "cpu-offloading-weights",
                     "cpu-offloading-num-layers", "optimizer-offload-fraction", "overlap-cpu-optimizer-d2h-h2d",
                     "use-torch-optimizer-for-cpu-offload", "cross-entropy-loss-fusion", "cross-entropy-fusion-impl"},
                    "import.ignored.megatron_tuning");
}

void ReadMegatronLm(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  // Megatron-FSDP (--use-megatron-fsdp) shards what --data-parallel-sharding-strategy says.
  const Setting* mfsdp = reader.Take("use-megatron-fsdp");
  const Setting* strategy = reader.Take("data-parallel-sharding-strategy");
  const Setting* dist_opt = reader.Take("use-distributed-optimizer");
  if (FlagOn(reader, mfsdp)) {
    reader.Set("framework", "megatron-fsdp", *mfsdp);
    const std::string s = strategy ? strategy->value : "optim_grads_params";
    const int zero = s == "no_shard" ? 0 : s == "optim" ? 1 : s == "optim_grads" ? 2 : s == "optim_grads_params" ? 3 : -1;
    if (zero < 0) return FailChoice(reader, *strategy, "no_shard, optim, optim_grads, optim_grads_params");
    reader.Set("zero", zero, strategy ? *strategy : *mfsdp);
    if (dist_opt) reader.Used(*dist_opt);
  } else {
    if (mfsdp) reader.Used(*mfsdp);
    IgnoreWith(reader, strategy, "import.ignored.only_with", "key", "--use-megatron-fsdp");
    if (!reader.Field("framework")) {
      reader.state().result.scenario["framework"] = "megatron";
      reader.Assume("framework", "megatron",
                    engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "Megatron-LM")}));
    }
    // The distributed optimizer shards the optimizer state over the data-parallel ranks.
    if (FlagOn(reader, dist_opt)) reader.Set("zero", 1, *dist_opt);
    else if (dist_opt) reader.Set("zero", 0, *dist_opt);
    else AssumeDefault(reader, "zero", 0, "--use-distributed-optimizer");
  }

  // Batch and sequence.
  std::optional<long> seq_len;
  if (const Setting* s = reader.TakeAny({"seq-length", "encoder-seq-length"})) {
    seq_len = reader.Int(*s, 1, 10000000);
    if (seq_len) reader.Set("seq_len", *seq_len, *s);
  }
  const Setting* micro = reader.Take("micro-batch-size");
  if (const std::optional<long> v = IntOf(reader, micro, 1, 65536)) reader.Set("micro_batch", *v, *micro);
  if (const Setting* s = reader.Take("global-batch-size")) {
    if (auto v = reader.Int(*s, 1, 100000000)) reader.Set("global_batch", *v, *s);
  } else if (micro != nullptr && !reader.state().grad_accum) {
    // Megatron-LM's default global batch: one micro-batch on every data-parallel rank.
    reader.state().grad_accum = ImportState::Piece{1, doc.name, micro->key};
  }
  if (const Setting* s = reader.Take("train-iters")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  }
  if (const Setting* s = reader.Take("train-samples")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) {
      if (seq_len) reader.Set("tokens", static_cast<double>(*v) * static_cast<double>(*seq_len), *s);
      else reader.Ignore(*s, engine::MakeMessage("import.ignored.needs_key", {engine::TextArg("key", "--seq-length")}));
    }
  }
  if (reader.failed()) return;

  const std::optional<Arch> arch = ReadMegatronArch(reader);
  if (reader.failed()) return;
  if (arch) SetArchitecture(reader, *arch, seq_len, "--vocab-size");

  // Parallelism (arguments.py _add_distributed_args).
  long tp = 1, pp = 1;
  if (const Setting* s = reader.Take("tensor-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) {
      tp = *v;
      reader.Set("tp", *v, *s);
    }
  }
  if (const Setting* s = reader.Take("pipeline-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1000)) {
      pp = *v;
      reader.Set("pp", *v, *s);
    }
  }
  if (const Setting* s = reader.Take("context-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) reader.Set("cp", *v, *s);
  }
  if (const Setting* s = reader.Take("expert-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("ep", *v, *s);
  }
  if (const Setting* s = reader.Take("expert-tensor-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) reader.Set("etp", *v, *s);
  }
  if (const Setting* s = reader.Take("decoder-first-pipeline-num-layers")) {
    if (auto v = reader.Int(*s, 0, 1000)) reader.Set("first_stage_layers", *v, *s);
  }
  if (const Setting* s = reader.Take("decoder-last-pipeline-num-layers")) {
    if (auto v = reader.Int(*s, 0, 1000)) reader.Set("last_stage_layers", *v, *s);
  }
  if (const Setting* s = reader.Take("num-layers-per-virtual-pipeline-stage")) {
    if (auto v = reader.Int(*s, 1, 1000)) {
      if (arch && arch->layers > 0) {
        reader.Set("virtual_pipeline", std::clamp<long long>(arch->layers / (static_cast<long long>(pp) * *v), 1, 64), *s);
      } else {
        reader.Ignore(*s, engine::MakeMessage("import.ignored.needs_key", {engine::TextArg("key", "--num-layers")}));
      }
    }
  }
  if (const Setting* s = reader.Take("num-virtual-stages-per-pipeline-rank")) {
    if (auto v = reader.Int(*s, 1, 64)) reader.Set("virtual_pipeline", *v, *s);
  }
  if (const Setting* s = reader.Take("sequence-parallel")) reader.Set("sequence_parallel", FlagOn(reader, s), *s);
  else if (tp > 1) AssumeDefault(reader, "sequence_parallel", false, "--sequence-parallel");
  if (const Setting* s = reader.Take("tp-comm-overlap")) reader.Set("tp_comm_overlap", FlagOn(reader, s), *s);
  else if (tp > 1) AssumeDefault(reader, "tp_comm_overlap", false, "--tp-comm-overlap");
  if (reader.failed()) return;

  ReadMegatronPrecision(reader);
  if (reader.failed()) return;
  ReadMegatronAttention(reader);
  if (reader.failed()) return;
  ReadMegatronRecompute(reader, pp, arch ? arch->layers : 0);
  if (reader.failed()) return;
  if (const Setting* s = reader.Take("cpu-offloading")) {
    reader.Set("activation_offload", FlagOn(reader, s), *s);
    // How many layers go to host: the engine keeps about two layers' worth on the GPU.
    if (const Setting* n = reader.Take("cpu-offloading-num-layers")) reader.Used(*n);
  }
  if (const Setting* s = reader.Take("optimizer")) {
    if (s->value == "adam") reader.Set("optimizer", "adamw", *s);  // Megatron's adam is AdamW (decoupled decay)
    else if (s->value == "sgd") reader.Set("optimizer", "sgd", *s);
    else ReadTrainerOptimizer(reader, *s);
  }
  if (const Setting* s = reader.Take("optimizer-cpu-offload")) {
    if (FlagOn(reader, s)) reader.Set("offload", "optimizer", *s);
    else reader.Used(*s);
  }
  IgnoreMegatronRest(reader);
}

}  // namespace

}  // namespace megatron

void ReadMegatron(Reader& reader) {
  if (reader.doc().kind == DocumentKind::kMapping || megatron::IsNemo(reader.doc())) {
    megatron::ReadNemo(reader);
    return;
  }
  megatron::ReadMegatronLm(reader);
}

}  // namespace engine::imports
