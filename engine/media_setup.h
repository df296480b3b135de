// What a vision-language fine-tune feeds the model besides text (images and video per
// training sample) and which of its parts it trains. Read by scenario_fields.cpp; turned
// into token counts by vision.h.
#pragma once

#include <array>
#include <string_view>

namespace engine {

// How the vision tower is trained: frozen (the default of LLaMA-Factory
// freeze_vision_tower, ms-swift freeze_vit, InternVL freeze_backbone), LoRA adapters on its
// linear layers, or every weight.
enum class VisionTraining { kFrozen, kLora, kFull };
inline constexpr std::array<std::string_view, 3> kVisionTrainingNames = {"frozen", "lora", "full"};

// Whether the tower recomputes its activations in backward: as the language model does
// (ms-swift vit_gradient_checkpointing left unset follows gradient_checkpointing), always,
// or never.
enum class VisionRecompute { kAsLanguageModel, kFull, kNone };
inline constexpr std::array<std::string_view, 3> kVisionRecomputeNames = {"as-llm", "full", "none"};

struct MediaSetup {
  int images_per_sample = 0;
  int image_width = 1024;   // px, as the data holds them (the processor resizes)
  int image_height = 1024;
  double image_max_pixels = 0;  // the processor's area limit (ms-swift MAX_PIXELS); 0 = the model's
  double video_seconds = 0;     // per sample; 0 = no video
  double video_fps = 2.0;       // frames sampled per second (qwen-vl-utils FPS = 2.0)
  int video_width = 640;
  int video_height = 360;
  double video_max_pixels = 0;  // per frame; 0 = the model's
  VisionTraining tower = VisionTraining::kFrozen;
  bool projector = false;   // the projector trains (LLaMA-Factory and ms-swift freeze it by default)
  bool freeze_llm = false;  // the language model stays frozen (LLaVA stage 1, ms-swift freeze_llm)
  VisionRecompute recompute = VisionRecompute::kAsLanguageModel;

  bool HasMedia() const { return images_per_sample > 0 || video_seconds > 0; }
  bool TrainsVision() const { return tower != VisionTraining::kFrozen || projector; }
};

}  // namespace engine
