// Vision-language models (engine/vision.h, docs/model.md §14) against hand counts: shapes
// from each model's config.json, official parameter totals from its model card, token
// counts worked by hand from the processors' rules.
#include "engine/vision.h"

#include <gtest/gtest.h>

#include "engine/flops.h"
#include "engine/memory_model.h"
#include "test_models.h"

namespace engine {
namespace {

// Qwen2.5-VL-7B-Instruct config.json (2025-01): the language model is Qwen2.5-7B's; the
// vision_config has depth 32, hidden_size 1280, num_heads 16, intermediate_size 3420 (silu:
// gated), patch_size 14, spatial_merge_size 2, temporal_patch_size 2, window_size 112
// (8 patches) with fullatt_block_indexes [7, 15, 23, 31]; the merger maps 4 × 1280 to 3584
// through a 5120-wide layer. preprocessor_config.json: min_pixels 3136, max_pixels 12845056.
VisionSpec Qwen25VlTower(double out_width) {
  VisionSpec v;
  v.layers = 32;
  v.hidden = 1280;
  v.heads = 16;
  v.ffn = 3420;
  v.mlp = VisionMlp::kGated;
  v.norm = VisionNorm::kRmsNorm;
  v.patch = 14;
  v.merge = 2;
  v.temporal_patch = 2;
  v.window = 8;
  v.full_attention_layers = 4;
  v.scheme = MediaScheme::kDynamic;
  v.min_pixels = 3136;
  v.max_pixels = 12845056;
  v.video_max_pixels = 602112;
  v.markers = 2;
  // Merger: RMSNorm(1280), Linear(5120, 5120) + bias, Linear(5120, out) + bias.
  v.projector_params = 1280 + (5120.0 * 5120 + 5120) + (5120.0 * out_width + out_width);
  return v;
}

ModelSpec Qwen25Vl7B() {
  ModelSpec m = testing::Qwen25_7B();
  m.vision = Qwen25VlTower(3584);
  return m;
}

Scenario VlScenario(int images) {
  Scenario s;
  s.model = Qwen25Vl7B();
  s.training.seq_len = 512;
  s.training.media.images_per_sample = images;
  s.parallel.gpus = 8;
  s.parallel.zero = 3;
  return s;
}

TEST(Vision, Qwen25Vl7BHasItsOfficialParameterCount) {
  // Model card: 8.29B parameters. By hand, per block: q,k,v,o 4·1280² + 4·1280 biases,
  // SwiGLU 3·1280·3420 + 2·3420 + 1280 biases, two RMSNorms 2·1280 = 19,702,200; 32 blocks
  // + Conv3d patch embedding 3·2·14·14·1280 = 631,975,680; merger 44,574,464.
  const ParamCounts c = CountParams(Qwen25Vl7B());
  EXPECT_DOUBLE_EQ(c.vision_tower, 631'975'680.0);
  EXPECT_DOUBLE_EQ(c.vision_projector, 44'574'464.0);
  EXPECT_NEAR(c.total / 8.29e9, 1.0, 0.01);
}

TEST(Vision, A1024SquareImageIs1369TokensPlusItsMarkers) {
  // Each side to the nearest multiple of 28: round(1024 / 28) = 37 → 1036 px, within
  // [3136, 12845056] px²; 74 × 74 patches of 14 px, merged 2 × 2: 37 × 37 = 1,369.
  const MediaTokens t = ImageTokens(Qwen25VlTower(3584), 1024, 1024, 0);
  EXPECT_EQ(t.width_px, 1036);
  EXPECT_EQ(t.height_px, 1036);
  EXPECT_DOUBLE_EQ(t.patches, 74.0 * 74);
  EXPECT_DOUBLE_EQ(t.tokens - t.markers, 1369);
  EXPECT_DOUBLE_EQ(t.markers, 2);
}

TEST(Vision, TheProcessorsPixelCapShrinksLargeImages) {
  // ms-swift MAX_PIXELS = 1280·28² = 1,003,520: a 1920 × 1080 image is scaled by
  // β = √(1920·1080 / 1003520) = 1.4408 to floor(1080/β/28)·28 = 728 by
  // floor(1920/β/28)·28 = 1316: 26 × 47 = 1,222 tokens.
  const MediaTokens t = ImageTokens(Qwen25VlTower(3584), 1920, 1080, 1003520);
  EXPECT_EQ(t.width_px, 1316);
  EXPECT_EQ(t.height_px, 728);
  EXPECT_DOUBLE_EQ(t.tokens - t.markers, 1222);
  // A tiny image is scaled up to min_pixels: 20 × 20 → round to 28 × 28 = 784 < 3136,
  // β = √(3136/400) = 2.8 → ceil(20·2.8/28)·28 = 56: 2 × 2 = 4 tokens.
  EXPECT_DOUBLE_EQ(ImageTokens(Qwen25VlTower(3584), 20, 20, 0).tokens - 2, 4);
}

TEST(Vision, FixedAndTiledSchemes) {
  // LLaVA-1.5: CLIP ViT-L/14 at 336 px, every image 24 × 24 = 576 tokens, no markers.
  VisionSpec llava;
  llava.layers = 24;
  llava.hidden = 1024;
  llava.heads = 16;
  llava.ffn = 4096;
  llava.scheme = MediaScheme::kFixed;
  llava.image_size = 336;
  EXPECT_DOUBLE_EQ(ImageTokens(llava, 1920, 1080, 0).tokens, 576);
  // Gemma 3: SigLIP at 896 px = 64 × 64 patches, pooled 4 × 4: 256 tokens (mm_tokens_per_image).
  VisionSpec gemma = llava;
  gemma.image_size = 896;
  gemma.merge = 4;
  gemma.markers = 2;
  EXPECT_DOUBLE_EQ(ImageTokens(gemma, 500, 500, 0).tokens - 2, 256);
  // InternVL 2.5: 448 px tiles, ≤ 12; a square 1024 px image ties (1,1), (2,2) and (3,3) in
  // aspect, and its area (1,048,576) exceeds half of 9 tiles (903,168), so 3 × 3 + a
  // thumbnail = 10 tiles of 32² patches shuffled 2 × 2: 10 × 256 = 2,560 tokens.
  VisionSpec internvl = llava;
  internvl.scheme = MediaScheme::kTiled;
  internvl.image_size = 448;
  internvl.max_tiles = 12;
  internvl.thumbnail = true;
  internvl.merge = 2;
  const MediaTokens tiles = ImageTokens(internvl, 1024, 1024, 0);
  EXPECT_EQ(tiles.tiles, 10);
  EXPECT_DOUBLE_EQ(tiles.tokens, 2560);
  // A 2:1 image picks the 2 × 1 grid family: 4 × 2 = 8 tiles (area 2048·1024 > half of 8
  // tiles) + thumbnail.
  EXPECT_EQ(ImageTokens(internvl, 2048, 1024, 0).tiles, 9);
}

TEST(Vision, VideoTokensFollowFramesAndTemporalPatches) {
  // 10 s at 2 fps = 20 frames, pairs of frames fused: 10 groups; 640 × 360 rounds to
  // 644 × 364 (23 × 13 merged tokens = 299 per group): 2,990 tokens + 2 markers.
  MediaSetup media;
  media.video_seconds = 10;
  const MediaTokens t = VideoTokens(Qwen25VlTower(3584), media);
  EXPECT_DOUBLE_EQ(t.frames, 20);
  EXPECT_DOUBLE_EQ(t.tokens, 10 * 299 + 2);
  // ms-swift's VIDEO_MAX_PIXELS = 50,176 is raised by qwen-vl-utils to int(1.05 × 100,352) =
  // 105,369: 1280 × 720 → β = √(921,600 / 105,369) = 2.957, floor(720/β/28)·28 = 224,
  // floor(1280/β/28)·28 = 420: 8 × 15 = 120 tokens per pair of frames.
  VisionSpec qwen = Qwen25VlTower(3584);
  qwen.video_min_pixels = 100352;
  media.video_width = 1280;
  media.video_height = 720;
  media.video_max_pixels = 50176;
  media.video_seconds = 6;  // 12 frames: 6 pairs
  EXPECT_DOUBLE_EQ(VideoTokens(qwen, media).tokens, 6 * 120 + 2);
}

TEST(Vision, TheLanguageModelRunsOverTextAndMedia) {
  const Scenario s = VlScenario(2);
  const SampleSequence q = SampleSequenceOf(s);
  EXPECT_DOUBLE_EQ(q.text_tokens, 512);
  EXPECT_DOUBLE_EQ(q.media_tokens, 2 * 1371);
  EXPECT_EQ(LanguageModelScenario(s).training.seq_len, 512 + 2 * 1371);
  // Folding twice changes nothing: the media are cleared once counted.
  EXPECT_EQ(LanguageModelScenario(LanguageModelScenario(s)).training.seq_len, 512 + 2 * 1371);
}

double GpuBytes(const Scenario& s) { return EstimateMemory(s, CountParams(s.model)).GpuBytes(); }

TEST(Vision, MoreOrLargerImagesNeedMoreMemory) {
  Scenario one = VlScenario(1), four = VlScenario(4), large = VlScenario(1);
  large.training.media.image_width = large.training.media.image_height = 2048;
  EXPECT_GT(GpuBytes(four), GpuBytes(one));
  EXPECT_GT(GpuBytes(large), GpuBytes(one));
}

TEST(Vision, AFrozenTowerNeedsLessThanATrainedOne) {
  Scenario frozen = VlScenario(2), trained = VlScenario(2), adapters = VlScenario(2);
  trained.training.media.tower = VisionTraining::kFull;
  adapters.training.media.tower = VisionTraining::kLora;
  EXPECT_LT(GpuBytes(frozen), GpuBytes(adapters));
  EXPECT_LT(GpuBytes(adapters), GpuBytes(trained));
  // Trained in full, the tower's 631,975,680 weights take gradients and AdamW states.
  const ParamCounts c = CountParams(frozen.model);
  EXPECT_DOUBLE_EQ(TrainableParams(trained.model, c, trained.training) - TrainableParams(frozen.model, c, frozen.training),
                   631'975'680.0);
  // With recomputation the tower keeps only each layer's input.
  trained.training.media.recompute = VisionRecompute::kFull;
  Scenario stored = VlScenario(2);
  stored.training.media.tower = VisionTraining::kFull;
  stored.training.media.recompute = VisionRecompute::kNone;
  EXPECT_LT(VisionActivationBytesOnGpu(trained), VisionActivationBytesOnGpu(stored));
  EXPECT_DOUBLE_EQ(VisionActivationBytesOnGpu(frozen), 0);
}

TEST(Vision, AFrozenLanguageModelTrainsOnlyTheVisionSide) {
  // LLaVA stage 1: only the projector trains.
  Scenario s = VlScenario(1);
  s.training.media.freeze_llm = true;
  s.training.media.projector = true;
  const ParamCounts c = CountParams(s.model);
  EXPECT_DOUBLE_EQ(TrainableParams(s.model, c, s.training), c.vision_projector);
  // Its step skips the language model's weight gradients: 4 FLOPs per weight and token, not 6.
  const FlopsPerToken frozen = TrainingFlopsPerToken(s, c);
  s.training.media.freeze_llm = false;
  EXPECT_LT(frozen.model, TrainingFlopsPerToken(s, c).model);
}

TEST(Vision, TheTowerAddsItsFlopsToTheStep) {
  // Forward per image ≈ 2 FLOPs per block weight per patch: 2 · 629.8M · 5,476 ≈ 6.9 TFLOP,
  // plus attention and the merger; spread over the sequence's 1,883 tokens.
  const Scenario s = VlScenario(1);
  const VisionFlops f = VisionFlopsPerSample(s);
  const double blocks = 32.0 * (4 * 1280.0 * 1280 + 3 * 1280.0 * 3420);
  EXPECT_GT(f.forward, 2 * blocks * 5476);
  EXPECT_LT(f.forward, 1.2 * 2 * blocks * 5476);
  // A frozen tower under a frozen projector runs forward only.
  EXPECT_DOUBLE_EQ(f.step, f.forward);
  const FlopsPerToken with = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_NEAR(with.vision * (512 + 1371), f.step, 1e-6 * f.step);
}

}  // namespace
}  // namespace engine
