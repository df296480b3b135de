#include "scenario_check.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "framework_profile.h"
#include "input_limits.h"
#include "post_training.h"
#include "recompute.h"
#include "scenario_fields.h"
#include "vision.h"

namespace engine {
namespace {

// `what` names the field divided ("heads"); without one, the data-parallel degree.
std::optional<InputError> Divides(const char* field, int divisor, const char* what, int total) {
  if (total % divisor == 0) return std::nullopt;
  if (what == nullptr) {
    return MakeInputError(field, "input.must_divide_dp", {CountArg("total", total), CountArg("value", divisor)});
  }
  return MakeInputError(field, "input.must_divide",
                        {TextArg("what", what), CountArg("total", total), CountArg("value", divisor)});
}

// "must be between 1 and <layers> (the model's layers)".
InputError AboveModelLayers(const char* field, int layers, int value) {
  return MakeInputError(field, "input.above_model_layers", {CountArg("layers", layers), CountArg("got", value)});
}

// The limits the model sets on the training fields (the contract's own ranges are checked
// by CheckFieldLimits, for input that did not come through the JSON reader: the page's).
std::optional<InputError> CheckTraining(const Training& t, const ModelSpec& m) {
  // Only a freeze run trains the top layers; any other method ignores the count, so a
  // one-layer model is not refused for a default it never uses.
  if (t.method == Method::kFreeze && t.freeze_trainable_layers > m.layers) {
    return AboveModelLayers("freeze_trainable_layers", m.layers, t.freeze_trainable_layers);
  }
  if (t.bf16_layers > m.layers) {
    return MakeInputError("bf16_layers", "input.more_than_model_layers",
                          {CountArg("layers", m.layers), CountArg("got", t.bf16_layers)});
  }
  // The Hugging Face Trainer refuses to train a quantized model without adapters ("You
  // cannot perform fine-tuning on purely quantized models", transformers Trainer.__init__).
  if (m.IsQuantizedCheckpoint() && t.method != Method::kLora && t.method != Method::kQlora) {
    return MakeInputError("method", "input.method_on_quantized_weights",
                          {TextArg("method", std::string(EnumName(kMethodNames, t.method))),
                           NumberArg("weight_bytes", m.stored_weight_bytes)});
  }
  return CheckRecomputeModules(t);
}

std::optional<InputError> CheckParallel(const Parallelism& p, const ModelSpec& m, const Training& t) {
  if (p.pp > m.layers) {
    return AboveModelLayers("pp", m.layers, p.pp);
  }
  if (auto e = Divides("tp", p.tp, "heads", m.heads)) return e;
  if (auto e = Divides("cp", p.cp, "seq_len", t.seq_len)) return e;
  if (p.gpus % (p.tp * p.pp * p.cp) != 0) {
    return MakeInputError("gpus", "input.gpus_not_multiple",
                          {CountArg("product", p.tp * p.pp * p.cp), CountArg("gpus", p.gpus)});
  }
  if (p.virtual_pipeline > 1) {
    if (p.pp == 1) return MakeInputError("virtual_pipeline", "input.virtual_pipeline_needs_pp");
    // Every virtual chunk needs a layer; the layers need not divide evenly (the fullest
    // stage is timed and sized: StageLayerShare).
    if (m.layers < p.pp * p.virtual_pipeline) {
      return MakeInputError("virtual_pipeline", "input.virtual_pipeline_layers", {CountArg("layers", m.layers)});
    }
  }
  if (p.UnevenEnds()) {
    const char* field = p.first_stage_layers > 0 ? "first_stage_layers" : "last_stage_layers";
    if (p.pp == 1) return MakeInputError(field, "input.stage_layers_need_pp");
    // Every stage keeps at least one layer per virtual chunk, and the stages account
    // for every layer.
    const StageLayers on = StageLayersOf(p, m.layers);
    const int fixed = (p.first_stage_layers > 0) + (p.last_stage_layers > 0);
    const int rest = m.layers - p.first_stage_layers - p.last_stage_layers;
    const int least = std::min({on.first, on.last, p.pp > 2 ? on.middle : on.first});
    const bool accounted = fixed < p.pp ? rest >= (p.pp - fixed) * p.virtual_pipeline : rest == 0;
    if (least < p.virtual_pipeline || !accounted) {
      return MakeInputError(field, "input.stage_layers",
                            {CountArg("layers", m.layers), CountArg("pp", p.pp), CountArg("virtual_pipeline", p.virtual_pipeline)});
    }
  }
  if (p.ep > 1) {
    if (!m.IsMoe()) return MakeInputError("ep", "input.ep_needs_moe");
    if (auto e = Divides("ep", p.ep, "experts", m.moe.experts)) return e;
    // Experts fold over a pipeline stage's tp·cp·dp ranks as etp × ep × expert-data-parallel
    // (Megatron MoE parallel folding); with etp = tp that is "ep divides cp·dp".
    const int stage_ranks = p.tp * p.cp * p.DataParallel();
    if (stage_ranks % (p.ExpertTensorParallel() * p.ep) != 0) {
      return MakeInputError("ep", "input.ep_fold",
                            {CountArg("etp", p.ExpertTensorParallel()), CountArg("ep", p.ep),
                             CountArg("stage_ranks", stage_ranks)});
    }
  }
  if (p.zero > ProfileOf(p.framework).max_zero) {
    return MakeInputError("zero", "input.zero_above_framework",
                          {TextArg("framework", std::string(EnumName(kFrameworkNames, p.framework)))});
  }
  if (IsDeepSpeedLayout(p) && p.pp > 1 && p.zero > 1) {
    return MakeInputError("zero", "input.zero_deepspeed_pp");
  }
  if (p.offload == Offload::kOptimizer && p.zero == 0) {
    return MakeInputError("offload", "input.offload_needs_zero");
  }
  if (p.offload == Offload::kOptimizerAndParams && p.zero != 3) {
    return MakeInputError("offload", "input.offload_params_needs_zero3");
  }
  return std::nullopt;
}

// Post-training splits the GPUs between training and a rollout engine (separate
// placement) and lays the engine out in tensor-parallel instances.
std::optional<InputError> CheckPostTraining(const Scenario& s) {
  const PostTrainingSetup& post = s.training.post;
  if (!Generates(post.kind)) return std::nullopt;
  const Parallelism& p = s.parallel;
  if (post.placement == Placement::kSeparate) {
    if (RolloutGpus(s) >= p.gpus) {  // also the default half of a single GPU
      return MakeInputError("rollout_gpus", "input.rollout_gpus_leave_none",
                            {CountArg("gpus", p.gpus), CountArg("got", RolloutGpus(s))});
    }
    const int training = TrainingGpus(s);
    if (training % (p.tp * p.pp * p.cp) != 0) {
      return MakeInputError("rollout_gpus", "input.training_gpus_not_multiple",
                            {CountArg("training", training), CountArg("product", p.tp * p.pp * p.cp)});
    }
  }
  if (post.rollout_tp > 0 && RolloutGpus(s) % post.rollout_tp != 0) {
    return MakeInputError("rollout_tp", "input.rollout_tp_divides",
                          {CountArg("gpus", RolloutGpus(s)), CountArg("got", post.rollout_tp)});
  }
  return std::nullopt;
}

// Sequences per step share global_batch's limit (10^8): in 64 bits here, because
// micro_batch (≤ 65536) × data-parallel degree (≤ 2^20) overflows the int the rest of
// the engine counts sequences in (it wrapped to 0 and divided by it).
std::optional<InputError> CheckBatch(const Training& t, const Parallelism& p) {
  constexpr long long kMaxSequencesPerStep = 100000000;
  const long long per_pass = static_cast<long long>(t.micro_batch) * p.DataParallel();
  const long long default_batch = DefaultGlobalBatch(t, p);
  if (per_pass > kMaxSequencesPerStep || (t.global_batch == 0 && default_batch > kMaxSequencesPerStep)) {
    return MakeInputError("micro_batch", "input.sequences_per_step",
                          {CountArg("sequences", t.global_batch == 0 ? default_batch : per_pass),
                           CountArg("limit", kMaxSequencesPerStep)});
  }
  if (t.global_batch == 0) return std::nullopt;
  const int per_step = static_cast<int>(per_pass);
  if (t.optimizer_in_backward && t.global_batch > per_step) {
    return MakeInputError("optimizer_in_backward", "input.optimizer_in_backward_accumulation",
                          {CountArg("global_batch", t.global_batch), CountArg("per_step", per_step)});
  }
  if (t.global_batch % per_step != 0) {
    return MakeInputError("global_batch", "input.global_batch_not_multiple",
                          {CountArg("per_step", per_step), CountArg("global_batch", t.global_batch)});
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
  return MakeInputError("gpu", "input.unknown_gpu",
                        {TextArg("gpu", QuotedInput(gpu_id)), TextArg("known", JoinIds(catalog.gpus))});
}

// Images, video and the vision side's training need a vision tower; a frozen language
// model needs something else to train; the media must leave a sequence the contract allows.
std::optional<InputError> CheckMedia(const Scenario& s) {
  const MediaSetup& media = s.training.media;
  if (!s.model.vision.present()) {
    const struct {
      const char* field;
      bool set;
    } fields[] = {{"images_per_sample", media.images_per_sample > 0}, {"video_seconds", media.video_seconds > 0},
                  {"vision_training", media.tower != VisionTraining::kFrozen},
                  {"projector_training", media.projector}, {"freeze_llm", media.freeze_llm}};
    for (const auto& f : fields) {
      if (f.set) return MakeInputError(f.field, "input.media_without_vision", {TextArg("model", s.model.name)});
    }
    return std::nullopt;
  }
  if (media.freeze_llm && !media.TrainsVision()) return MakeInputError("freeze_llm", "input.nothing_trained");
  // "freeze" stops backward below its top layers; a trained projector or tower needs the
  // gradient to pass through every layer, which that method's accounting does not hold.
  if (s.training.method == Method::kFreeze && media.TrainsVision()) {
    return MakeInputError(media.projector ? "projector_training" : "vision_training", "input.vision_under_freeze");
  }
  const char* media_field = media.images_per_sample > 0 ? "images_per_sample" : "video_seconds";
  // Generation with images (a VLM's rollout: its prefill, KV cache and the tower's forward
  // per prompt) is not sized yet; the preference methods train on the media like SFT.
  if (media.HasMedia() && Generates(s.training.post.kind)) {
    return MakeInputError(media_field, "input.media_with_rollouts");
  }
  const SampleSequence q = SampleSequenceOf(UpdateScenario(s));
  const double max_tokens = LimitOf("seq_len").max;
  if (q.total_tokens > max_tokens) {
    return MakeInputError(media_field, "input.media_sequence_too_long",
                          {NumberArg("total", q.total_tokens), NumberArg("media", q.media_tokens),
                           NumberArg("max", max_tokens)});
  }
  // The tower's own sequence, bounded like the language model's once merged: 16 patches per
  // token (a 4 × 4 merge) over the longest sequence allowed.
  if (q.vision_patches > 16 * max_tokens) {
    return MakeInputError(media_field, "input.media_patches_too_many",
                          {NumberArg("patches", q.vision_patches), NumberArg("max", 16 * max_tokens)});
  }
  return std::nullopt;
}

std::optional<InputError> ValidateScenario(const Scenario& s, const Catalog& catalog) {
  if (auto e = ValidateModel(s.model, "model.")) return e;
  if (auto e = CheckFieldLimits(s)) return e;
  if (auto e = CheckMedia(s)) return e;
  if (auto e = CheckTraining(s.training, s.model)) return e;
  if (auto e = CheckPostTraining(s)) return e;
  // A post-training run trains its update's sequences (prompt + response) on its training GPUs.
  if (auto e = CheckParallel(s.parallel, s.model, TrainedScenario(s).training)) return e;
  if (auto e = CheckBatch(s.training, s.parallel)) return e;
  if (auto e = CheckGpuId(s.gpu_id, catalog)) return e;
  const GpuSpec* gpu = catalog.FindGpu(s.gpu_id);
  const FabricSpec* fabric = catalog.FindFabric(s.parallel.network);
  if (fabric == nullptr || !fabric->scale_out) {
    // `network` is the fabric between nodes; NVLink and PCIe links live inside one and come
    // with the GPU and server, so naming one here would price and time a network that is not.
    const std::string ids = JoinIds(catalog.fabrics, [](const FabricSpec& f) { return f.scale_out; });
    return MakeInputError("network", fabric == nullptr ? "input.unknown_network" : "input.network_inside_node",
                          {TextArg("network", QuotedInput(s.parallel.network)), TextArg("known", ids)});
  }
  if (!s.storage.empty() && catalog.FindStorage(s.storage) == nullptr) {
    return MakeInputError("storage", "input.unknown_storage",
                          {TextArg("storage", QuotedInput(s.storage)), TextArg("known", JoinIds(catalog.storage))});
  }
  if (s.training.precision == Precision::kFp8 && !gpu->SupportsFp8()) {
    return MakeInputError("precision", "input.fp8_unsupported", {TextArg("gpu", gpu->name)});
  }
  if ((s.training.precision == Precision::kMxfp8 || s.training.precision == Precision::kNvfp4) &&
      !gpu->SupportsBlockScaled()) {
    return MakeInputError("precision", "input.block_scaled_unsupported",
                          {TextArg("precision", std::string(EnumName(kPrecisionNames, s.training.precision))),
                           TextArg("gpu", gpu->name)});
  }
  const bool bf16 = s.training.precision == Precision::kBf16 || s.training.precision == Precision::kBf16Pure;
  if (bf16 && !gpu->SupportsBf16()) {
    return MakeInputError("precision", "input.bf16_unsupported",
                          {TextArg("precision", std::string(EnumName(kPrecisionNames, s.training.precision))),
                           TextArg("gpu", gpu->name)});
  }
  return std::nullopt;
}

}  // namespace engine
