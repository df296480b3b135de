#include "vision.h"

#include <algorithm>
#include <cmath>

#include "memory_model.h"
#include "post_training.h"

namespace engine {
namespace {

// [SECTION] the tower's shape

double VisionNormParams(const VisionSpec& v) { return v.hidden * (v.norm == VisionNorm::kLayerNorm ? 2.0 : 1.0); }

// One ViT block's linear weights: q, k, v, o (4w²) and the MLP (3wf gated, 2wf plain).
double BlockLinearParams(const VisionSpec& v) {
  const double w = v.hidden, f = v.ffn;
  return 4 * w * w + (v.mlp == VisionMlp::kGated ? 3 : 2) * w * f;
}

// Biases of those layers: 4w on attention, 2f + w (gated) or f + w (plain) on the MLP.
double BlockBiasParams(const VisionSpec& v) {
  if (!v.bias) return 0;
  const double w = v.hidden, f = v.ffn;
  return 4 * w + (v.mlp == VisionMlp::kGated ? 2 * f : f) + w;
}

// [SECTION] images into tiles and tokens

// Python's round() (half to even), as the processors round: std::nearbyint in the default
// rounding mode.
double RoundHalfEven(double x) { return std::nearbyint(x); }

// Qwen2-VL's smart_resize (transformers image_processing_qwen2_vl.py, qwen-vl-utils
// vision_process.py, 2024-2025): each side to the nearest multiple of `factor`
// (patch × merge = 28), then scaled down or up, keeping the aspect ratio, until the area is
// within [min_pixels, max_pixels].
void SmartResize(double height, double width, double factor, double min_pixels, double max_pixels, int* out_h,
                 int* out_w) {
  double h = std::max(factor, RoundHalfEven(height / factor) * factor);
  double w = std::max(factor, RoundHalfEven(width / factor) * factor);
  if (max_pixels > 0 && h * w > max_pixels) {
    const double beta = std::sqrt(height * width / max_pixels);
    h = std::max(factor, std::floor(height / beta / factor) * factor);
    w = std::max(factor, std::floor(width / beta / factor) * factor);
  } else if (min_pixels > 0 && h * w < min_pixels) {
    const double beta = std::sqrt(min_pixels / (height * width));
    h = std::ceil(height * beta / factor) * factor;
    w = std::ceil(width * beta / factor) * factor;
  }
  *out_h = static_cast<int>(h);
  *out_w = static_cast<int>(w);
}

// InternVL's dynamic_preprocess (OpenGVLab InternVL, internvl_chat/internvl/train/
// dataset.py, 2024): the grid of at most max_tiles tiles whose aspect ratio is closest to
// the image's; on a tie the larger grid when the image has more than half its pixels.
void TileGrid(int width, int height, int tile, int max_tiles, int* cols, int* rows) {
  const double aspect = double(width) / height, area = double(width) * height;
  double best = 1e300;
  *cols = *rows = 1;
  for (int n = 1; n <= max_tiles; ++n) {
    for (int i = 1; i <= n; ++i) {
      if (n % i != 0) continue;
      const int j = n / i;
      const double diff = std::fabs(aspect - double(i) / j);
      if (diff < best) {
        best = diff;
        *cols = i;
        *rows = j;
      } else if (diff == best && area > 0.5 * double(tile) * tile * i * j) {
        *cols = i;
        *rows = j;
      }
    }
  }
}

// Tokens of one tile or fixed-size image: a resampler's queries, else its patches merged.
double TileTokens(const VisionSpec& v, double patches) {
  return v.query_tokens > 0 ? v.query_tokens : patches / (double(v.merge) * v.merge);
}

// Keys one patch attends to, averaged over the layers: windowed layers see window²
// patches (Qwen2.5-VL: 112 px = 8 × 8 patches), the others their whole tile or image.
double MeanKeys(const VisionSpec& v, double unit_patches) {
  if (v.window <= 0 || v.layers <= 0) return unit_patches;
  const double windowed = std::min(double(v.window) * v.window, unit_patches);
  const double full = std::clamp(v.full_attention_layers, 0, v.layers);
  return (full * unit_patches + (v.layers - full) * windowed) / v.layers;
}

// qwen-vl-utils' frame sampling (vision_process.py smart_nframes): seconds × fps frames,
// at least 4 and at most 768 (FPS_MIN_FRAMES, FPS_MAX_FRAMES), a multiple of the
// temporal patch.
constexpr double kMinVideoFrames = 4, kMaxVideoFrames = 768;

}  // namespace

double VisionTowerParams(const VisionSpec& v) {
  if (!v.present()) return 0;
  const double block = BlockLinearParams(v) + BlockBiasParams(v) + 2 * VisionNormParams(v);
  const double patch_embed = 3.0 * v.temporal_patch * v.patch * v.patch * v.hidden;
  return v.layers * block + patch_embed + double(v.positions) * v.hidden;
}

MediaTokens ImageTokens(const VisionSpec& v, int width, int height, double max_pixels) {
  MediaTokens t;
  if (!v.present() || width <= 0 || height <= 0) return t;
  t.tiles = 1;
  switch (v.scheme) {
    case MediaScheme::kDynamic: {
      const double factor = double(v.patch) * v.merge;
      SmartResize(height, width, factor, v.min_pixels, max_pixels > 0 ? max_pixels : v.max_pixels, &t.height_px,
                  &t.width_px);
      t.patches = double(t.height_px / v.patch) * (t.width_px / v.patch);
      t.tokens = TileTokens(v, t.patches);
      if (v.row_breaks) t.markers += t.height_px / factor;
      t.unit_patches = t.patches;
      break;
    }
    case MediaScheme::kFixed: {
      t.width_px = t.height_px = v.image_size;
      t.patches = double(v.image_size / v.patch) * (v.image_size / v.patch);
      t.tokens = TileTokens(v, t.patches);
      t.unit_patches = t.patches;
      break;
    }
    case MediaScheme::kTiled:
    case MediaScheme::kCrossAttention: {
      int cols = 1, rows = 1;
      TileGrid(width, height, v.image_size, std::max(1, v.max_tiles), &cols, &rows);
      t.width_px = cols * v.image_size;
      t.height_px = rows * v.image_size;
      t.tiles = cols * rows + (v.thumbnail && cols * rows > 1 ? 1 : 0);
      t.unit_patches = double(v.image_size / v.patch) * (v.image_size / v.patch);
      t.patches = t.tiles * t.unit_patches;
      // Cross-attention models read the tiles' features from their own layers: the
      // sequence holds one image token (Llama 3.2 Vision's <|image|>).
      t.tokens = v.scheme == MediaScheme::kCrossAttention ? 0 : t.tiles * TileTokens(v, t.unit_patches);
      break;
    }
  }
  t.markers += v.markers;
  t.tokens += t.markers;
  return t;
}

double VideoFrameCap(const VisionSpec& v, const MediaSetup& media) {
  const double cap = media.video_max_pixels > 0 ? media.video_max_pixels
                     : v.video_max_pixels > 0   ? v.video_max_pixels
                                                : v.max_pixels;
  // qwen-vl-utils (vision_process.py fetch_video, 2024-2025) keeps each frame's cap at
  // least int(VIDEO_MIN_PIXELS × 1.05), whatever VIDEO_MAX_PIXELS asks for.
  return v.video_min_pixels > 0 ? std::max(cap, std::floor(v.video_min_pixels * 1.05)) : cap;
}

MediaTokens VideoTokens(const VisionSpec& v, const MediaSetup& media) {
  MediaTokens t;
  if (!v.present() || media.video_seconds <= 0) return t;
  const double step = std::max(1, v.temporal_patch);
  double frames = std::clamp(RoundHalfEven(media.video_seconds * media.video_fps), kMinVideoFrames, kMaxVideoFrames);
  frames = std::max(step, RoundHalfEven(frames / step) * step);
  t.frames = frames;
  if (v.scheme == MediaScheme::kDynamic) {
    const double least = v.video_min_pixels > 0 ? v.video_min_pixels : v.min_pixels;
    const double factor = double(v.patch) * v.merge;
    SmartResize(media.video_height, media.video_width, factor, least, VideoFrameCap(v, media), &t.height_px,
                &t.width_px);
    t.tiles = static_cast<int>(frames / step);
    t.unit_patches = double(t.height_px / v.patch) * (t.width_px / v.patch);
    t.patches = t.tiles * t.unit_patches;
    t.tokens = TileTokens(v, t.patches);
    t.markers = v.markers;
  } else {
    // Each frame as one tile or fixed image (InternVL and LLaVA-style video).
    const int side = v.image_size;
    t.width_px = t.height_px = side;
    t.tiles = static_cast<int>(frames);
    t.unit_patches = double(side / v.patch) * (side / v.patch);
    t.patches = frames * t.unit_patches;
    t.tokens = v.scheme == MediaScheme::kCrossAttention ? 0 : frames * TileTokens(v, t.unit_patches);
    t.markers = frames * v.markers;
  }
  t.tokens += t.markers;
  return t;
}

SampleSequence SampleSequenceOf(const Scenario& s) {
  SampleSequence q;
  const VisionSpec& v = s.model.vision;
  const MediaSetup& media = s.training.media;
  q.text_tokens = s.training.seq_len;
  if (v.present()) {
    if (media.images_per_sample > 0) {
      q.image = ImageTokens(v, media.image_width, media.image_height, media.image_max_pixels);
    }
    q.video = VideoTokens(v, media);
  }
  const double images = v.present() ? media.images_per_sample : 0;
  q.media_tokens = images * q.image.tokens + q.video.tokens;
  q.marker_tokens = images * q.image.markers + q.video.markers;
  q.total_tokens = q.text_tokens + q.media_tokens;
  q.vision_patches = images * q.image.patches + q.video.patches;
  if (q.vision_patches > 0) {
    q.mean_keys = (images * q.image.patches * MeanKeys(v, q.image.unit_patches) +
                   q.video.patches * MeanKeys(v, q.video.unit_patches)) /
                  q.vision_patches;
  }
  return q;
}

Scenario LanguageModelScenario(const Scenario& s) {
  if (!s.training.media.HasMedia()) return s;
  Scenario out = s;
  const double total = SampleSequenceOf(s).total_tokens;
  out.training.seq_len = static_cast<int>(std::min(total, 1e9));
  out.training.media.images_per_sample = 0;
  out.training.media.video_seconds = 0;
  return out;
}

bool BackpropagatesVision(const Training& t) { return t.media.tower != VisionTraining::kFrozen; }

bool RecomputesVision(const Training& t) {
  switch (t.media.recompute) {
    case VisionRecompute::kAsLanguageModel: return t.activation_checkpointing != Recompute::kNone;
    case VisionRecompute::kFull: return true;
    case VisionRecompute::kNone: return false;
  }
  return false;
}

double VisionTrainedWeights(const ParamCounts& c, const Training& t) {
  return (t.media.projector ? c.vision_projector : 0) + (t.media.tower == VisionTraining::kFull ? c.vision_tower : 0);
}

double VisionTrainableParams(const ModelSpec& m, const ParamCounts& c, const Training& t) {
  const VisionSpec& v = m.vision;
  if (!v.present()) return 0;
  double out = VisionTrainedWeights(c, t);
  if (t.media.tower == VisionTraining::kLora) {
    // r·(d_in + d_out) per adapted matrix (Hu et al. 2021 §4): q, k, v, o and the MLP's.
    const double r = t.lora_rank, w = v.hidden, f = v.ffn;
    const double mlp = (v.mlp == VisionMlp::kGated ? 3 : 2) * r * (w + f);
    out += v.layers * (4 * r * 2 * w + mlp);
  }
  return out;
}

ModelSpec VisionAsTransformer(const VisionSpec& v) {
  ModelSpec m;
  m.layers = v.layers;
  m.hidden = v.hidden;
  m.heads = m.kv_heads = std::max(1, v.heads);
  m.head_dim = v.HeadDim();
  m.ffn = v.ffn;
  m.vocab = 1;
  m.mlp = v.mlp == VisionMlp::kGated ? MlpKind::kGated : MlpKind::kPlain;
  m.norm = v.norm == VisionNorm::kLayerNorm ? NormKind::kLayerNorm : NormKind::kRmsNorm;
  m.linear_bias = v.bias;
  return m;
}

// Forward FLOPs: 2 per weight per patch through the blocks (Kaplan et al. 2020), attention
// 4·w per query-key pair and layer (QKᵀ and AV), and the projector's 2 per weight per
// merged token (Qwen's merger and InternVL's MLP run after the merge).
VisionFlops VisionFlopsPerSample(const Scenario& s) {
  VisionFlops f;
  const VisionSpec& v = s.model.vision;
  const SampleSequence q = SampleSequenceOf(s);
  if (!v.present() || q.vision_patches <= 0) return f;
  const double blocks = 2 * BlockLinearParams(v) * v.layers * q.vision_patches;
  const double attention = 4.0 * v.layers * q.vision_patches * q.mean_keys * v.hidden;
  const double merged = q.media_tokens - q.marker_tokens;
  const double projector = 2 * v.projector_params * std::max(0.0, merged);
  f.forward = blocks + attention + projector;
  const Training& t = s.training;
  // Backward: input gradients (1×) wherever gradients flow, weight gradients (1×) where
  // weights train. A frozen tower under a frozen projector runs forward only.
  double tower = 1, proj = 1;
  switch (t.media.tower) {
    case VisionTraining::kFrozen: break;
    case VisionTraining::kLora: tower = 2; proj = 2; break;
    case VisionTraining::kFull: tower = 3; proj = 2; break;
  }
  if (t.media.projector) proj += 1;
  if (t.media.tower != VisionTraining::kFrozen && proj < 2) proj = 2;
  f.model = tower * (blocks + attention) + proj * projector;
  const bool recomputes = BackpropagatesVision(t) && RecomputesVision(t);
  f.step = f.model + (recomputes ? blocks + attention : 0);
  f.attention = (tower + (recomputes ? 1 : 0)) * attention;
  return f;
}

}  // namespace engine
