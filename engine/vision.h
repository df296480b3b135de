// A vision-language model's media: how many tokens images and video become (per the
// model's processor), the vision tower's parameters, its sequence and its FLOPs. The
// language model then runs at the text plus media length (LanguageModelScenario); the
// memory and time models add the tower's own terms. docs/model.md §14.
#pragma once

#include "scenario.h"

namespace engine {

// Parameters of the tower's blocks, patch embedding and learned positions.
double VisionTowerParams(const VisionSpec& v);

// One image, or one video, as the processor cuts it.
struct MediaTokens {
  int width_px = 0;   // after the resize (dynamic), or the tile grid's columns × tile side
  int height_px = 0;
  int tiles = 0;      // tiles (with the thumbnail) or video frames' temporal groups; 1 for one image
  double frames = 0;  // video frames sampled
  double patches = 0; // ViT sequence positions
  double tokens = 0;  // language-model tokens, markers included
  double markers = 0; // of which vision start/end markers and row breaks
  double unit_patches = 0;  // patches that attend to one another (one tile, image or frame group)
};

MediaTokens ImageTokens(const VisionSpec& v, int width, int height, double max_pixels);
// The area a video frame is resized within (dynamic scheme): the scenario's cap, else the
// model's, never below qwen-vl-utils' floor.
double VideoFrameCap(const VisionSpec& v, const MediaSetup& media);
MediaTokens VideoTokens(const VisionSpec& v, const MediaSetup& media);

// A training sample's sequence: its text and media parts.
struct SampleSequence {
  double text_tokens = 0;
  double media_tokens = 0;   // images and video, markers included
  double marker_tokens = 0;  // of which markers
  double total_tokens = 0;   // what the language model runs over
  double vision_patches = 0; // the tower's sequence over the sample's images and video
  double mean_keys = 0;      // keys each patch attends to, averaged over the tower's layers
  MediaTokens image;         // one image
  MediaTokens video;
};

SampleSequence SampleSequenceOf(const Scenario& s);

// The scenario as the language model sees it: media tokens folded into seq_len and the
// media cleared (so folding twice changes nothing).
Scenario LanguageModelScenario(const Scenario& s);

// The language model's view of a scenario without copying it when there are no media.
class LanguageModelView {
 public:
  explicit LanguageModelView(const Scenario& s) : scenario_(&s) {
    if (s.training.media.HasMedia()) {
      folded_ = LanguageModelScenario(s);
      scenario_ = &folded_;
    }
  }
  LanguageModelView(const LanguageModelView&) = delete;
  LanguageModelView& operator=(const LanguageModelView&) = delete;
  const Scenario& get() const { return *scenario_; }

 private:
  Scenario folded_;
  const Scenario* scenario_;
};

// The tower's and projector's own weights that train (the projector when trained, the tower
// when trained in full): part of them, unlike adapters.
double VisionTrainedWeights(const ParamCounts& c, const Training& t);
// Parameters trained in the tower and projector (LoRA adapters on the tower's linear layers
// at the scenario's rank, or its weights).
double VisionTrainableParams(const ModelSpec& m, const ParamCounts& c, const Training& t);
// Whether backward runs through the tower (trained in full or with adapters).
bool BackpropagatesVision(const Training& t);
// Whether the tower keeps only each layer's input for backward and rebuilds the rest.
bool RecomputesVision(const Training& t);

// FLOPs of the tower and projector per sample: the forward, and the whole step's (with
// backward and recomputation as trained).
struct VisionFlops {
  double forward = 0;
  double step = 0;   // what the hardware runs
  double model = 0;  // without recomputation (for MFU)
  double attention = 0;  // the core-attention part of `step` (QKᵀ and AV within each image)
};
VisionFlops VisionFlopsPerSample(const Scenario& s);

// The tower as a transformer of its own width and depth, for the activation formulas.
ModelSpec VisionAsTransformer(const VisionSpec& v);

}  // namespace engine
