// A DeepSpeed JSON config: ZeRO stage and offload, batch, precision, activation
// checkpointing. Keys: https://www.deepspeed.ai/docs/config-json/. "auto" values are filled
// in by the Hugging Face Trainer from its own arguments (transformers integrations/deepspeed.py),
// so they come from the config read beside this one.
#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

bool OffloadsTo(const ConfigDocument& doc, const char* key) {
  const Setting* device = doc.Find(key);
  return device != nullptr && (device->value == "cpu" || device->value == "nvme");
}

// An integer key, or nothing when absent or "auto" (then listed as taken from elsewhere).
std::optional<long> IntOrAuto(Reader& reader, const char* key, long lo, long hi, const Setting** from) {
  const Setting* s = reader.Take(key);
  *from = s;
  if (s == nullptr) return std::nullopt;
  if (Reader::IsAuto(*s)) {
    reader.Ignore(*s, engine::MakeMessage("import.ignored.auto"));
    return std::nullopt;
  }
  return reader.Int(*s, lo, hi);
}

}  // namespace

void ReadDeepSpeed(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  if (!reader.Field("framework")) {
    reader.state().result.scenario["framework"] = "deepspeed";
    reader.Assume("framework", "deepspeed", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "DeepSpeed")}));
  }
  if (const Setting* stage = reader.Take("zero_optimization.stage")) {
    if (auto v = reader.Int(*stage, 0, 3)) {
      reader.Set("zero", *v, *stage);
      reader.Set("sharding", "deepspeed", *stage);
      const bool optimizer = OffloadsTo(doc, "zero_optimization.offload_optimizer.device");
      const bool params = OffloadsTo(doc, "zero_optimization.offload_param.device");
      const char* offload = params && *v == 3 ? "optimizer+params" : optimizer ? "optimizer" : "none";
      const Setting* device = reader.Take("zero_optimization.offload_optimizer.device");
      const Setting* param_device = reader.Take("zero_optimization.offload_param.device");
      reader.Set("offload", offload, device ? *device : *stage);
      if (param_device) reader.Used(*param_device);
    }
  }
  reader.IgnorePrefix("zero_optimization", "import.ignored.zero_tuning");

  const Setting* micro_from = nullptr;
  const Setting* accum_from = nullptr;
  const Setting* total_from = nullptr;
  const std::optional<long> micro = IntOrAuto(reader, "train_micro_batch_size_per_gpu", 1, 1 << 20, &micro_from);
  const std::optional<long> accum = IntOrAuto(reader, "gradient_accumulation_steps", 1, 1 << 20, &accum_from);
  const std::optional<long> total = IntOrAuto(reader, "train_batch_size", 1, kMaxCount, &total_from);
  if (micro) reader.Set("micro_batch", *micro, *micro_from);
  if (accum && !reader.state().grad_accum) reader.SetPiece(reader.state().grad_accum, *accum, *accum_from);
  else if (accum) reader.Used(*accum_from);  // the Trainer's own value was read first
  if (total) {
    reader.Set("global_batch", *total, *total_from);
    // train_batch_size = micro × accumulation × data-parallel ranks (DeepSpeed checks it).
    const long long per_rank = static_cast<long long>(*micro) * (accum ? *accum : 1);
    // That is the data-parallel size: times the model-parallel GPUs when a config gave them.
    if (micro && accum && *total % per_rank == 0 && !reader.Field("gpus")) {
      long long model_parallel = 1;
      for (const char* degree : {"tp", "pp", "cp"}) {
        const contract::Json* d = reader.Field(degree);
        if (d != nullptr && d->is_number_integer()) model_parallel *= d->get<long long>();
      }
      reader.Set("gpus", *total / per_rank * model_parallel, *total_from);
    }
  }

  const Setting* bf16 = reader.TakeAny({"bf16.enabled", "bfloat16.enabled"});
  const Setting* fp16 = reader.Take("fp16.enabled");
  if (bf16 && Reader::IsAuto(*bf16)) reader.Ignore(*bf16, engine::MakeMessage("import.ignored.auto"));
  else if (bf16 && reader.Bool(*bf16).value_or(false) && !reader.Field("precision")) reader.Set("precision", "bf16", *bf16);
  else if (bf16) reader.Used(*bf16);
  if (fp16 && Reader::IsAuto(*fp16)) reader.Ignore(*fp16, engine::MakeMessage("import.ignored.auto"));
  else if (fp16 && reader.Bool(*fp16).value_or(false) && !reader.Field("precision")) reader.Set("precision", "fp16", *fp16);
  else if (fp16) reader.Used(*fp16);
  reader.IgnorePrefix("fp16", "import.ignored.loss_scale");
  reader.IgnorePrefix("bf16", "import.ignored.loss_scale");

  // The activation_checkpointing section configures Megatron-style checkpointing the
  // model calls (deepspeed.checkpointing); cpu_checkpointing moves the kept inputs to host.
  if (const Setting* s = reader.Take("activation_checkpointing.partition_activations")) {
    if (!reader.Field("activation_checkpointing")) reader.Set("activation_checkpointing", "full", *s);
    else reader.Used(*s);
  }
  if (const Setting* s = reader.Take("activation_checkpointing.cpu_checkpointing")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("activation_offload", true, *s);
    else reader.Used(*s);
  }
  reader.IgnorePrefix("activation_checkpointing", "import.ignored.zero_tuning");
  if (const Setting* s = reader.Take("optimizer.type")) ReadTrainerOptimizer(reader, *s);
  reader.IgnorePrefix("optimizer.params", "import.ignored.hyperparameter");
  reader.IgnorePrefix("scheduler", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"gradient_clipping", "steps_per_print", "wall_clock_breakdown", "zero_allow_untested_optimizer",
                     "prescale_gradients", "communication_data_type", "zero_force_ds_cpu_optimizer"},
                    "import.ignored.hyperparameter");
  reader.IgnorePrefix("flops_profiler", "import.ignored.io");
  reader.IgnorePrefix("tensorboard", "import.ignored.io");
  reader.IgnorePrefix("wandb", "import.ignored.io");
  reader.IgnorePrefix("comms_logger", "import.ignored.io");
}

}  // namespace engine::imports
