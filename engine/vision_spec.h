// The vision side of a vision-language model: a ViT tower that turns images (and video
// frames) into patch features, and a projector (Qwen's "merger", LLaVA's MLP, InternVL's
// pixel-shuffle MLP) that maps them into the language model's width. The shapes follow the
// models' config.json vision_config; docs/model.md §14 derives every count.
#pragma once

#include <array>
#include <string_view>

namespace engine {

// How a model turns a picture into tokens (docs/model.md §14.2):
// - dynamic: resized to a multiple of patch × merge within [min_pixels, max_pixels], one
//   token per merge × merge patches (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Pixtral);
// - fixed: resized to image_size², a fixed number of tokens (LLaVA-1.5 576, Gemma 3 256);
// - tiled: cut into image_size tiles on the closest aspect-ratio grid of at most max_tiles,
//   plus a thumbnail (InternVL 2.5/3, MiniCPM-V, LLaVA-OneVision);
// - cross-attention: tiled for the tower, but the language model reads the features through
//   cross-attention layers and its sequence holds one image token (Llama 3.2 Vision).
enum class MediaScheme { kDynamic, kFixed, kTiled, kCrossAttention };
inline constexpr std::array<std::string_view, 4> kMediaSchemeNames = {"dynamic", "fixed", "tiled",
                                                                      "cross-attention"};

enum class VisionMlp { kGated, kPlain };        // SwiGLU (Qwen2.5-VL, Pixtral) or GELU (CLIP, SigLIP)
enum class VisionNorm { kRmsNorm, kLayerNorm };

struct VisionSpec {
  int layers = 0;  // ViT blocks; 0 = a text-only model
  int hidden = 0;  // ViT width
  int heads = 0;
  int ffn = 0;     // MLP width
  VisionMlp mlp = VisionMlp::kPlain;
  VisionNorm norm = VisionNorm::kLayerNorm;
  bool bias = true;          // biases on the ViT's linear layers (all of the towers above have them)
  int patch = 14;            // pixels per patch side
  int merge = 1;             // patches merged per side into one language-model token (Qwen 2, InternVL 2, Gemma 3 4)
  int temporal_patch = 1;    // video frames fused into one patch (Qwen 2)
  int positions = 0;         // rows of a learned position embedding (CLIP/SigLIP/InternViT); 0 = rotary
  int window = 0;            // windowed attention over window × window patches; 0 = full attention
  int full_attention_layers = 0;  // with a window: layers that still attend over the whole image
  MediaScheme scheme = MediaScheme::kDynamic;
  int image_size = 0;        // fixed: the side an image is resized to; tiled: a tile's side (px)
  int max_tiles = 1;         // tiled: tiles per image at most
  bool thumbnail = false;    // tiled: a whole-image tile beside the grid when there is more than one tile
  int query_tokens = 0;      // a resampler's tokens per tile (MiniCPM-V 64); 0 = patches / merge²
  double min_pixels = 0;     // dynamic: the processor's clamp of the resized area
  double max_pixels = 0;
  double video_max_pixels = 0;  // dynamic: per-frame clamp for video; 0 = max_pixels
  // dynamic: the least area of a video frame; the per-frame cap is never set below 1.05 × it
  // (qwen-vl-utils VIDEO_MIN_PIXELS, 128·28·28); 0 = min_pixels, no floor on the cap.
  double video_min_pixels = 0;
  int markers = 0;           // tokens around each image or video (vision start/end)
  bool row_breaks = false;   // one more token at the end of each row of image tokens (Pixtral)
  double projector_params = 0;  // the projector or merger, counted from its shape (models.json says how)

  bool present() const { return layers > 0; }
  int HeadDim() const { return heads > 0 ? hidden / heads : 0; }
};

}  // namespace engine
