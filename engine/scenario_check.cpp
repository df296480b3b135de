#include "scenario_check.h"

#include <cmath>
#include <string>
#include <vector>

#include "format.h"
#include "input_limits.h"
#include "scenario_fields.h"

namespace engine {
namespace {

std::optional<InputError> Divides(const char* field, int divisor, const char* what, int total) {
  if (total % divisor == 0) return std::nullopt;
  return InputError{field, "must divide " + std::string(what) + " (" + std::to_string(total) + "), got " +
                               std::to_string(divisor)};
}

// The limits the model sets on the training fields (the contract's own ranges are checked
// by CheckFieldLimits, for input that did not come through the JSON reader: the page's).
std::optional<InputError> CheckTraining(const Training& t, const ModelSpec& m) {
  // Only a freeze run trains the top layers; any other method ignores the count, so a
  // one-layer model is not refused for a default it never uses.
  if (t.method == Method::kFreeze && t.freeze_trainable_layers > m.layers) {
    return InputError{"freeze_trainable_layers", "must be between 1 and " + std::to_string(m.layers) +
                                                     " (the model's layers), got " +
                                                     std::to_string(t.freeze_trainable_layers)};
  }
  // The Hugging Face Trainer refuses to train a quantized model without adapters ("You
  // cannot perform fine-tuning on purely quantized models", transformers Trainer.__init__).
  if (m.IsQuantizedCheckpoint() && t.method != Method::kLora && t.method != Method::kQlora) {
    return InputError{"method", "cannot be " + std::string(EnumName(kMethodNames, t.method)) +
                                    " on a quantized checkpoint (model weight_bytes " + Num(m.stored_weight_bytes) +
                                    " B): only adapters train on quantized weights; use lora or qlora, or load the "
                                    "unquantized checkpoint"};
  }
  return std::nullopt;
}

std::optional<InputError> CheckParallel(const Parallelism& p, const ModelSpec& m, const Training& t) {
  if (p.pp > m.layers) {
    return InputError{"pp", "must be between 1 and " + std::to_string(m.layers) + " (the model's layers), got " +
                                std::to_string(p.pp)};
  }
  if (auto e = Divides("tp", p.tp, "heads", m.heads)) return e;
  if (auto e = Divides("cp", p.cp, "seq_len", t.seq_len)) return e;
  if (p.gpus % (p.tp * p.pp * p.cp) != 0) {
    return InputError{"gpus", "must be a multiple of tp × pp × cp = " + std::to_string(p.tp * p.pp * p.cp) +
                                  ", got " + std::to_string(p.gpus)};
  }
  if (p.virtual_pipeline > 1) {
    if (p.pp == 1) return InputError{"virtual_pipeline", "needs pp > 1"};
    if (auto e = Divides("virtual_pipeline", p.pp * p.virtual_pipeline, "layers", m.layers)) {
      return InputError{"virtual_pipeline", "pp × virtual_pipeline must divide layers (" +
                                                std::to_string(m.layers) + ")"};
    }
  }
  if (p.ep > 1) {
    if (!m.IsMoe()) return InputError{"ep", "expert parallelism needs a Mixture-of-Experts model; use 1"};
    if (auto e = Divides("ep", p.ep, "experts", m.moe.experts)) return e;
    if (auto e = Divides("ep", p.ep, "the data-parallel degree", p.DataParallel())) return e;
  }
  if (p.framework == Framework::kMegatron && p.zero > 1) {
    return InputError{"zero", "Megatron-LM shards optimizer state only (zero = 1 is its distributed optimizer); "
                              "use 0 or 1, or framework fsdp/deepspeed"};
  }
  if (p.framework == Framework::kDeepSpeed && p.pp > 1 && p.zero > 1) {
    return InputError{"zero", "DeepSpeed's pipeline engine supports ZeRO stage 0 or 1 only; use zero ≤ 1 with pp > 1, "
                              "or framework fsdp (FSDP2 + pipelining, as torchtitan)"};
  }
  if (p.offload == Offload::kOptimizer && p.zero == 0) {
    return InputError{"offload", "optimizer offload needs zero ≥ 1 (DeepSpeed ZeRO-Offload runs the sharded "
                                 "optimizer on the CPU)"};
  }
  if (p.offload == Offload::kOptimizerAndParams && p.zero != 3) {
    return InputError{"offload", "optimizer+params offload needs zero = 3 (ZeRO-Infinity / FSDP CPU offload)"};
  }
  return std::nullopt;
}

// Sequences per step share global_batch's limit (10^8): in 64 bits here, because
// micro_batch (≤ 65536) × data-parallel degree (≤ 2^20) overflows the int the rest of
// the engine counts sequences in (it wrapped to 0 and divided by it).
std::optional<InputError> CheckBatch(const Training& t, const Parallelism& p) {
  constexpr long long kMaxSequencesPerStep = 100000000;
  const long long per_pass = static_cast<long long>(t.micro_batch) * p.DataParallel();
  const long long default_batch = per_pass * (p.pp > 1 ? 4LL * p.pp : 1);
  if (per_pass > kMaxSequencesPerStep || (t.global_batch == 0 && default_batch > kMaxSequencesPerStep)) {
    return InputError{"micro_batch", "× data-parallel degree gives " +
                                         std::to_string(t.global_batch == 0 ? default_batch : per_pass) +
                                         " sequences per step; the limit is 100000000 (lower micro_batch or gpus)"};
  }
  if (t.global_batch == 0) return std::nullopt;
  const int per_step = static_cast<int>(per_pass);
  if (t.optimizer_in_backward && t.global_batch > per_step) {
    return InputError{"optimizer_in_backward", "cannot be combined with gradient accumulation (global_batch " +
                                                   std::to_string(t.global_batch) + " > micro_batch × data-parallel " +
                                                   std::to_string(per_step) + ")"};
  }
  if (t.global_batch % per_step != 0) {
    return InputError{"global_batch", "must be a multiple of micro_batch × data-parallel degree = " +
                                          std::to_string(per_step) + ", got " + std::to_string(t.global_batch)};
  }
  return std::nullopt;
}

// "a, b, c": the ids of the catalog entries that pass `keep`, for "known: ..." messages.
template <class Entry, class Keep>
std::string JoinIds(const std::vector<Entry>& entries, Keep keep) {
  std::string ids;
  for (const Entry& e : entries) {
    if (keep(e)) ids += (ids.empty() ? "" : ", ") + e.id;
  }
  return ids;
}

template <class Entry>
std::string JoinIds(const std::vector<Entry>& entries) {
  return JoinIds(entries, [](const Entry&) { return true; });
}

}  // namespace

std::optional<InputError> CheckGpuId(const std::string& gpu_id, const Catalog& catalog) {
  if (catalog.FindGpu(gpu_id) != nullptr) return std::nullopt;
  return InputError{"gpu", "unknown GPU '" + QuotedInput(gpu_id) + "'; known: " + JoinIds(catalog.gpus)};
}

std::optional<InputError> ValidateScenario(const Scenario& s, const Catalog& catalog) {
  if (auto e = ValidateModel(s.model, "model.")) return e;
  if (auto e = CheckFieldLimits(s)) return e;
  if (auto e = CheckTraining(s.training, s.model)) return e;
  if (auto e = CheckParallel(s.parallel, s.model, s.training)) return e;
  if (auto e = CheckBatch(s.training, s.parallel)) return e;
  if (auto e = CheckGpuId(s.gpu_id, catalog)) return e;
  const GpuSpec* gpu = catalog.FindGpu(s.gpu_id);
  const FabricSpec* fabric = catalog.FindFabric(s.parallel.network);
  if (fabric == nullptr || !fabric->scale_out) {
    // `network` is the fabric between nodes; NVLink and PCIe links live inside one and come
    // with the GPU and server, so naming one here would price and time a network that is not.
    const std::string ids = JoinIds(catalog.fabrics, [](const FabricSpec& f) { return f.scale_out; });
    const std::string what = fabric == nullptr ? "unknown network '" + QuotedInput(s.parallel.network) + "'"
                                                : "'" + s.parallel.network + "' links GPUs inside a node, not nodes";
    return InputError{"network", what + "; choose a fabric between nodes: " + ids};
  }
  if (!s.storage.empty() && catalog.FindStorage(s.storage) == nullptr) {
    return InputError{"storage", "unknown storage tier '" + QuotedInput(s.storage) + "'; known: " + JoinIds(catalog.storage)};
  }
  if (s.training.precision == Precision::kFp8 && !gpu->SupportsFp8()) {
    return InputError{"precision", "fp8 needs FP8 tensor cores; " + gpu->name + " has none (use bf16)"};
  }
  const bool bf16 = s.training.precision == Precision::kBf16 || s.training.precision == Precision::kBf16Pure;
  if (bf16 && !gpu->SupportsBf16()) {
    return InputError{"precision", std::string(EnumName(kPrecisionNames, s.training.precision)) +
                                       " needs bfloat16 arithmetic; " + gpu->name +
                                       " has none (use fp16: mixed precision with loss scaling)"};
  }
  return std::nullopt;
}

}  // namespace engine
