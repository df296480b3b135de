#include "engine/exports/trainer_args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/memory_model.h"
#include "engine/vision.h"

namespace engine::exports {

LearningRate PlaceholderLearningRate(Method method) {
  switch (method) {
    case Method::kPretrain: return {3e-4, "3.0e-4"};
    case Method::kLora:
    case Method::kQlora: return {1e-4, "1.0e-4"};
    default: return {1e-5, "1.0e-5"};
  }
}

std::string ExactNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  if (std::strtod(text, nullptr) != value) std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

const char* TrainerOptimizer(Optimizer o) {
  switch (o) {
    case Optimizer::kAdamW8bit: return "adamw_bnb_8bit";
    case Optimizer::kSgd: return "sgd";
    case Optimizer::kAdafactor: return "adafactor";
    default: return "adamw_torch";
  }
}

std::string StepsArgument(const LaunchPlan& plan, const Training& t, const char* steps_flag, const char* epochs_flag,
                          const char* separator) {
  if (plan.train_steps > 0) return std::string(steps_flag) + separator + std::to_string(plan.train_steps);
  return std::string(epochs_flag) + separator + std::to_string(std::max(1L, std::lround(t.epochs)));
}

bool TowerCheckpointingDiffers(const Training& t) {
  return RecomputesVision(t) != (t.activation_checkpointing != Recompute::kNone);
}

std::string FsdpOption(const Parallelism& p) {
  if (p.gpus == 1 || p.zero == 0) return "";
  std::string option = p.zero == 3 ? "full_shard auto_wrap" : "shard_grad_op auto_wrap";
  if (p.offload != Offload::kNone) option += " offload";
  return option;
}

const char* LoraModules(LoraTargets targets, bool yaml) {
  switch (targets) {
    case LoraTargets::kAttention: return yaml ? "q_proj,k_proj,v_proj,o_proj" : "q_proj k_proj v_proj o_proj";
    case LoraTargets::kQv: return yaml ? "q_proj,v_proj" : "q_proj v_proj";
    default: return yaml ? "all" : "all-linear";
  }
}

std::string SavedModuleNames(const Training& t, const char* separator) {
  std::string names = TrainsEmbeddingCopy(t) ? "embed_tokens" : "";
  if (TrainsHeadCopy(t)) names += (names.empty() ? "" : separator) + std::string("lm_head");
  return names;
}

PixelCaps ProcessorPixelCaps(const Scenario& s) {
  const VisionSpec& v = s.model.vision;
  if (!v.present() || v.scheme != MediaScheme::kDynamic) return {};
  const MediaSetup& media = s.training.media;
  return {media.image_max_pixels > 0 ? media.image_max_pixels : v.max_pixels, v.min_pixels, VideoFrameCap(v, media)};
}

}  // namespace engine::exports
