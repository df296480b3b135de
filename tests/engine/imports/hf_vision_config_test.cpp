// Hugging Face config.json import of vision-language models: the vision_config read into
// ModelSpec::vision for each family, checked against the config's own values and the
// official parameter counts. Expected counts are worked out by hand in the comments from the
// published shapes (the engine's tower formula: per block 4w² + 2wf plain or 3wf gated, biases
// 4w + f + w (gated 2f + w), two norms; a Conv patch embed 3·t·p²·w; learned positions × w);
// configs are the models' published config.json (token ids and similar left out where noted).
#include <gtest/gtest.h>

#include <string>

#include "engine/imports/hf_config.h"
#include "hf_import_test_util.h"
#include "engine/vision.h"

namespace engine::imports {
namespace {

double Total(const HfImport& imported) { return engine::CountParams(imported.spec).total; }

// [SECTION] Qwen2.5-VL, Qwen2-VL

// Qwen/Qwen2.5-VL-7B-Instruct config.json (transformers 4.41.2 save; token ids left out).
constexpr const char* kQwen25Vl7B = R"({"architectures": ["Qwen2_5_VLForConditionalGeneration"],
  "attention_dropout": 0.0, "hidden_act": "silu", "hidden_size": 3584, "initializer_range": 0.02,
  "intermediate_size": 18944, "max_position_embeddings": 128000, "max_window_layers": 28, "model_type": "qwen2_5_vl",
  "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "rms_norm_eps": 1e-06,
  "rope_theta": 1000000.0, "sliding_window": 32768, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "transformers_version": "4.41.2", "use_cache": true, "use_sliding_window": false,
  "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
    "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2,
    "spatial_patch_size": 14, "window_size": 112, "fullatt_block_indexes": [7, 15, 23, 31],
    "tokens_per_second": 2, "temporal_patch_size": 2},
  "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vocab_size": 152064})";

// By hand: the language model is Qwen2.5-7B, 7,615,616,512. The ViT per block: 4 × 1280² +
// 3 × 1280 × 3420 = 19,686,400, biases 4 × 1280 + 2 × 3420 + 1280 = 13,240, two RMSNorms 2,560
// → 19,702,200 × 32 = 630,470,400; Conv3d 3 × 2 × 14² × 1280 = 1,505,280. Merger: RMSNorm 1280
// + (5120² + 5120) + (5120 × 3584 + 3584) = 44,574,464. Total 8,292,166,656; the model page
// says 8.29B.
TEST(HfVisionConfig, Qwen25Vl7BReadsTheTowerWindowsAndMerger) {
  auto r = Import(kQwen25Vl7B);
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.layers, 32);
  EXPECT_EQ(v.hidden, 1280);
  EXPECT_EQ(v.heads, 16);
  EXPECT_EQ(v.ffn, 3420);
  EXPECT_EQ(v.mlp, VisionMlp::kGated) << "hidden_act silu";
  EXPECT_EQ(v.norm, VisionNorm::kRmsNorm);
  EXPECT_EQ(v.patch, 14);
  EXPECT_EQ(v.merge, 2);
  EXPECT_EQ(v.temporal_patch, 2);
  EXPECT_EQ(v.window, 112 / 14);
  EXPECT_EQ(v.full_attention_layers, 4) << "fullatt_block_indexes has 4 entries";
  EXPECT_EQ(v.positions, 0) << "2-D rotary";
  EXPECT_EQ(v.scheme, MediaScheme::kDynamic);
  EXPECT_EQ(v.markers, 2);
  EXPECT_DOUBLE_EQ(v.min_pixels, 56.0 * 56);         // preprocessor_config.json defaults
  EXPECT_DOUBLE_EQ(v.max_pixels, 28.0 * 28 * 16384);
  EXPECT_DOUBLE_EQ(v.projector_params, 44'574'464.0);
  EXPECT_DOUBLE_EQ(Total(r.value()), 8'292'166'656.0);
  EXPECT_NEAR(Total(r.value()) / 8.29e9, 1.0, 0.01);
  EXPECT_EQ(FindWarning(r.value(), "vision_tower_not_sized"), nullptr);
  EXPECT_EQ(FindWarning(r.value(), "vision_config_assumed"), nullptr);
}

// A 1024 × 1024 image: smart_resize keeps 1036 × 1036 (the nearest multiples of 28), 74 × 74
// patches, 37² = 1,369 merged tokens plus <|vision_start|> and <|vision_end|>.
TEST(HfVisionConfig, Qwen25VlImageTokensFollowTheProcessor) {
  auto r = Import(kQwen25Vl7B);
  ASSERT_TRUE(r.ok());
  const MediaTokens t = ImageTokens(r.value().spec.vision, 1024, 1024, 0);
  EXPECT_DOUBLE_EQ(t.tokens, 1369 + 2);
}

// Qwen/Qwen2-VL-7B-Instruct config.json: embed_dim is the ViT's width, hidden_size the merger's
// output. By hand the tower is 32 × (4 × 1280² + 2 × 1280 × 5120 + 11,520 biases + 5,120
// LayerNorm weights) + 1,505,280 = 631,183,360, the merger LayerNorm 2,560 + (5120² + 5120) +
// (5120 × 3584 + 3584) = 44,575,744; with Qwen2-7B's 7,615,616,512 the total is 8,291,375,616,
// the checkpoint's safetensors count.
TEST(HfVisionConfig, Qwen2VlReadsEmbedDimAndMlpRatio) {
  auto r = Import(R"({"hidden_size": 3584, "intermediate_size": 18944, "max_position_embeddings": 32768,
    "model_type": "qwen2_vl", "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
    "tie_word_embeddings": false, "vocab_size": 152064,
    "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "num_heads": 16, "in_chans": 3,
      "hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "spatial_patch_size": 14,
      "temporal_patch_size": 2}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.hidden, 1280);
  EXPECT_EQ(v.ffn, 4 * 1280);
  EXPECT_EQ(v.mlp, VisionMlp::kPlain);
  EXPECT_EQ(v.norm, VisionNorm::kLayerNorm);
  EXPECT_EQ(v.window, 0);
  EXPECT_DOUBLE_EQ(v.projector_params, 44'575'744.0);
  EXPECT_DOUBLE_EQ(Total(r.value()), 8'291'375'616.0);
}

// [SECTION] LLaVA

// llava-hf/llava-1.5-7b-hf config.json with its text_config completed from
// lmsys/vicuna-7b-v1.5's (transformers wrote only the keys differing from LlamaConfig's
// defaults). By hand: the language model 6,738,939,904 (Llama-2-7B + 64 rows of embedding and
// head); CLIP ViT-L/14-336: 24 × (12,582,912 + 9,216 biases + 4,096 norms) = 302,309,376, patch
// embed 3 × 14² × 1024 = 602,112, positions (336/14)² + 1 = 577 × 1024 = 590,848; the projector
// (1024 × 4096 + 4096) + (4096² + 4096) = 20,979,712. Total 7,063,421,952; the model page: 7.06B.
TEST(HfVisionConfig, Llava15ReadsTheClipTowerAndTheMlpProjector) {
  auto r = Import(R"({"architectures": ["LlavaForConditionalGeneration"], "ignore_index": -100,
    "image_token_index": 32000, "model_type": "llava", "pad_token_id": 32001, "projector_hidden_act": "gelu",
    "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
      "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05, "torch_dtype": "float16",
      "vocab_size": 32064, "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
      "num_hidden_layers": 32, "num_key_value_heads": 32},
    "tie_word_embeddings": false, "torch_dtype": "float16", "transformers_version": "4.36.0.dev0",
    "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
      "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": 14,
      "projection_dim": 768, "vocab_size": 32000},
    "vision_feature_layer": -2, "vision_feature_select_strategy": "default"})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.layers, 24);
  EXPECT_EQ(v.hidden, 1024);
  EXPECT_EQ(v.ffn, 4096);
  EXPECT_EQ(v.patch, 14);
  EXPECT_EQ(v.scheme, MediaScheme::kFixed);
  EXPECT_EQ(v.image_size, 336);
  EXPECT_EQ(v.positions, 24 * 24 + 1);
  EXPECT_DOUBLE_EQ(v.projector_params, 20'979'712.0);
  EXPECT_DOUBLE_EQ(ImageTokens(v, 800, 600, 0).tokens, 576) << "24 × 24 patches, CLS dropped";
  EXPECT_DOUBLE_EQ(Total(r.value()), 7'063'421'952.0);
  EXPECT_NEAR(Total(r.value()) / 7.06e9, 1.0, 0.005);
}

// LLaVA-OneVision (llava-hf/llava-onevision-qwen2-7b-ov-hf config.json, sizing keys; pinpoints
// abbreviated to the largest): SigLIP with 26 layers, grids of 384 px crops capped at
// anyres_max_9, and image_newline (one 3584-wide vector) beside the projector
// (1152 × 3584 + 3584) + (3584² + 3584) + 3584 = 16,984,576.
TEST(HfVisionConfig, LlavaOneVisionTilesAndCountsImageNewline) {
  auto r = Import(R"({"model_type": "llava_onevision", "vision_aspect_ratio": "anyres_max_9",
    "image_grid_pinpoints": [[384, 384], [384, 768], [2304, 2304]], "tie_word_embeddings": false,
    "text_config": {"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
      "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152128},
    "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "image_size": 384,
      "intermediate_size": 4304, "num_attention_heads": 16, "num_hidden_layers": 26, "patch_size": 14,
      "vision_use_head": false}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.scheme, MediaScheme::kTiled);
  EXPECT_EQ(v.max_tiles, 9);
  EXPECT_TRUE(v.thumbnail);
  EXPECT_EQ(v.positions, 27 * 27) << "SigLIP has no class token";
  EXPECT_DOUBLE_EQ(v.projector_params, 16'984'576.0);
}

// [SECTION] InternVL, Gemma 3, Llama 3.2 Vision

// OpenGVLab/InternVL2_5-8B config.json (remote code; sizing keys of its vision_config and
// llm_config, internlm2_5-7b-chat). By hand: the language model 32 × (2 × 4096² + 2 × 4096 ×
// 1024 + 3 × 4096 × 14336 + 8,192) + 2 × 92553 × 4096 + 4096 = 7,737,782,272; InternViT-300M
// 24 × 12,596,224 + 602,112 + 1025 × 1024 = 303,961,088; mlp1 LayerNorm(4096) 8,192 + 2 ×
// (4096² + 4096) = 33,570,816. Total 8,075,314,176; the model page: 8.08B.
TEST(HfVisionConfig, InternVlRemoteCodeReadsTilesAndPixelShuffle) {
  auto r = Import(R"({"architectures": ["InternVLChatModel"], "downsample_ratio": 0.5,
    "dynamic_image_size": true, "force_image_size": 448, "max_dynamic_patch": 12, "min_dynamic_patch": 1,
    "model_type": "internvl_chat", "ps_version": "v2", "select_layer": -1, "template": "internvl2_5",
    "use_thumbnail": true,
    "llm_config": {"_name_or_path": "internlm/internlm2_5-7b-chat", "model_type": "internlm2", "bias": false,
      "hidden_size": 4096, "intermediate_size": 14336, "max_position_embeddings": 32768,
      "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
      "tie_word_embeddings": false, "vocab_size": 92553},
    "vision_config": {"architectures": ["InternVisionModel"], "hidden_act": "gelu", "hidden_size": 1024,
      "image_size": 448, "intermediate_size": 4096, "model_type": "intern_vit_6b", "norm_type": "layer_norm",
      "num_attention_heads": 16, "num_channels": 3, "num_hidden_layers": 24, "patch_size": 14,
      "qk_normalization": false, "qkv_bias": true}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.layers, 24);
  EXPECT_EQ(v.merge, 2) << "downsample_ratio 0.5";
  EXPECT_EQ(v.scheme, MediaScheme::kTiled);
  EXPECT_EQ(v.image_size, 448);
  EXPECT_EQ(v.max_tiles, 12);
  EXPECT_TRUE(v.thumbnail);
  EXPECT_EQ(v.norm, VisionNorm::kLayerNorm);
  EXPECT_EQ(v.positions, 32 * 32 + 1);
  EXPECT_DOUBLE_EQ(v.projector_params, 33'570'816.0);
  EXPECT_DOUBLE_EQ(ImageTokens(v, 448, 448, 0).tokens, 256 + 2) << "one tile: 32² / 2² tokens and <img></img>";
  EXPECT_NEAR(Total(r.value()) / 8.08e9, 1.0, 0.005);
}

// The HF-native InternVL config (model_type internvl, OpenGVLab/InternVL3-8B-hf) writes
// image_size and patch_size as [height, width] and keeps its text model in text_config.
TEST(HfVisionConfig, InternVlHfNativeReadsSizePairs) {
  auto r = Import(R"({"model_type": "internvl", "downsample_ratio": 0.5, "projector_hidden_act": "gelu",
    "text_config": {"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
      "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 151674,
      "tie_word_embeddings": false},
    "vision_config": {"model_type": "internvl_vision", "hidden_size": 1024, "image_size": [448, 448],
      "intermediate_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": [14, 14],
      "norm_type": "layer_norm"}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.image_size, 448);
  EXPECT_EQ(v.patch, 14);
  // mlp1: LayerNorm(4096) + (4096 × 3584 + 3584) + (3584² + 3584) = 27,540,480.
  EXPECT_DOUBLE_EQ(v.projector_params, 27'540'480.0);
}

// google/gemma-3-4b-it config.json with its text_config completed with Gemma3TextConfig's
// head_dim 256 and vocab_size 262208 (the published file leaves both to the class). By hand:
// SigLIP 27 × (15,224,832 + 10,064 biases + 4,608 norms) + 3 × 14² × 1152 + 4096 × 1152 =
// 416,862,576 (the report's "417M vision encoder"); the projector RMSNorm 1152 + 1152 × 2560 =
// 2,950,272; 896 px is 64² patches pooled to mm_tokens_per_image 256, 4 × 4 per token.
TEST(HfVisionConfig, Gemma3PoolsToMmTokensPerImage) {
  auto r = Import(R"({"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
    "eoi_token_index": 256000, "image_token_index": 262144, "initializer_range": 0.02,
    "mm_tokens_per_image": 256, "model_type": "gemma3",
    "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
      "num_attention_heads": 8, "num_hidden_layers": 34, "num_key_value_heads": 4, "head_dim": 256,
      "vocab_size": 262208, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
    "torch_dtype": "bfloat16",
    "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
      "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14,
      "vision_use_head": false}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.merge, 4);
  EXPECT_EQ(v.scheme, MediaScheme::kFixed);
  EXPECT_EQ(v.image_size, 896);
  EXPECT_EQ(v.positions, 64 * 64);
  EXPECT_DOUBLE_EQ(VisionTowerParams(v), 416'862'576.0);
  EXPECT_DOUBLE_EQ(v.projector_params, 2'950'272.0);
  EXPECT_DOUBLE_EQ(ImageTokens(v, 1920, 1080, 0).tokens, 256 + 2);
  // Gemma 3 report Table 1, 4B: 417M vision + 675M embedding + 3,209M non-embedding.
  EXPECT_NEAR(Total(r.value()) / 4.301e9, 1.0, 0.005);
}

// meta-llama/Llama-3.2-11B-Vision config.json (sizing keys). By hand: the language model 40 ×
// 218,112,000 + 2 × 128256 × 4096 + 4096 = 9,775,157,248 (cross-attention layers counted as
// decoder layers); the ViT 40 × (19,660,800 + 11,520 + 5,120) + 3 × 14² × 1280 + positions
// (1601 + 9 × 4 × 1601 = 59,237) × 1280 = 863,673,600; the projector 7680 × 4096 + 4096 =
// 31,461,376. Total 10,670,292,224; the model page: 10.67B.
TEST(HfVisionConfig, MllamaCountsGlobalLayersTilesAndCrossAttention) {
  auto r = Import(R"({"architectures": ["MllamaForConditionalGeneration"], "image_token_index": 128256,
    "model_type": "mllama",
    "text_config": {"model_type": "mllama_text_model", "vocab_size": 128256, "hidden_size": 4096,
      "intermediate_size": 14336, "num_hidden_layers": 40, "num_attention_heads": 32, "num_key_value_heads": 8,
      "max_position_embeddings": 131072, "rope_theta": 500000.0, "tie_word_embeddings": false},
    "vision_config": {"attention_heads": 16, "hidden_act": "gelu", "hidden_size": 1280, "image_size": 560,
      "intermediate_size": 5120, "max_num_tiles": 4, "model_type": "mllama_vision_model", "num_channels": 3,
      "num_global_layers": 8, "num_hidden_layers": 32, "patch_size": 14,
      "supported_aspect_ratios": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1], [4, 1]],
      "vision_output_dim": 7680}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.layers, 32 + 8);
  EXPECT_EQ(v.heads, 16);
  EXPECT_EQ(v.scheme, MediaScheme::kCrossAttention);
  EXPECT_EQ(v.max_tiles, 4);
  EXPECT_EQ(v.markers, 1);
  EXPECT_EQ(v.positions, 1601 + 9 * 4 * 1601);
  EXPECT_DOUBLE_EQ(v.projector_params, 31'461'376.0);
  EXPECT_DOUBLE_EQ(Total(r.value()), 10'670'292'224.0);
  EXPECT_NEAR(Total(r.value()) / 10.67e9, 1.0, 0.005);
}

// [SECTION] Pixtral, Mistral 3

// mistral-community/pixtral-12b config.json (sizing keys): a llava wrapper around Pixtral's
// ViT. Projector (1024 × 5120 + 5120) + (5120² + 5120) = 31,467,520.
TEST(HfVisionConfig, PixtralUnderLlavaIsDynamicWithRowBreaks) {
  auto r = Import(R"({"model_type": "llava", "projector_hidden_act": "gelu", "image_token_index": 10,
    "text_config": {"model_type": "mistral", "hidden_size": 5120, "head_dim": 128, "intermediate_size": 14336,
      "num_attention_heads": 32, "num_hidden_layers": 40, "num_key_value_heads": 8, "vocab_size": 131072,
      "max_position_embeddings": 1024000, "tie_word_embeddings": false},
    "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "head_dim": 64, "image_size": 1024,
      "intermediate_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": 16,
      "rope_theta": 10000.0}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.scheme, MediaScheme::kDynamic);
  EXPECT_EQ(v.mlp, VisionMlp::kGated);
  EXPECT_EQ(v.norm, VisionNorm::kRmsNorm);
  EXPECT_FALSE(v.bias);
  EXPECT_TRUE(v.row_breaks);
  EXPECT_EQ(v.patch, 16);
  EXPECT_DOUBLE_EQ(v.max_pixels, 1024.0 * 1024);
  EXPECT_DOUBLE_EQ(v.projector_params, 31'467'520.0);
  // HF safetensors of mistral-community/pixtral-12b: 12.7B.
  EXPECT_NEAR(Total(r.value()) / 12.7e9, 1.0, 0.01);
}

// mistralai/Mistral-Small-3.1-24B-Instruct-2503 (HF format) keeps the Pixtral tower and merges
// 2 × 2 patches: RMSNorm 1024 + Linear(4096, 1024) + Linear(1024, 5120) + Linear(5120, 5120),
// no biases (multimodal_projector_bias false) = 35,652,608.
TEST(HfVisionConfig, Mistral3MergesPatchesInItsProjector) {
  auto r = Import(R"({"model_type": "mistral3", "spatial_merge_size": 2, "multimodal_projector_bias": false,
    "text_config": {"model_type": "mistral", "hidden_size": 5120, "head_dim": 128, "intermediate_size": 32768,
      "num_attention_heads": 32, "num_hidden_layers": 40, "num_key_value_heads": 8, "vocab_size": 131072},
    "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "head_dim": 64, "image_size": 1540,
      "intermediate_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 24, "patch_size": 14}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.merge, 2);
  EXPECT_DOUBLE_EQ(v.projector_params, 35'652'608.0);
}

// [SECTION] other families and malformed values

// A vision_config of a family without a reader (PaliGemma's SigLIP): the tower from its keys,
// a fixed 224 px image of (224/14)² = 256 tokens, and a warning that says so.
TEST(HfVisionConfig, UnknownFamilyIsSizedFromGenericKeysWithAWarning) {
  auto r = Import(R"({"model_type": "paligemma",
    "text_config": {"model_type": "gemma", "hidden_size": 2048, "intermediate_size": 16384,
      "num_attention_heads": 8, "num_hidden_layers": 18, "num_key_value_heads": 1, "head_dim": 256,
      "vocab_size": 257216},
    "vision_config": {"hidden_size": 1152, "image_size": 224, "intermediate_size": 4304,
      "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const VisionSpec& v = r.value().spec.vision;
  EXPECT_EQ(v.layers, 27);
  EXPECT_EQ(v.scheme, MediaScheme::kFixed);
  EXPECT_EQ(v.image_size, 224);
  EXPECT_DOUBLE_EQ(v.projector_params, 0);
  const engine::Warning* w = FindWarning(r.value(), "vision_config_assumed");
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->message.find("256 tokens"), std::string::npos) << w->message;
  EXPECT_NE(w->message.find("paligemma"), std::string::npos) << w->message;
}

TEST(HfVisionConfig, UnknownFamilyWithoutSizingKeysIsLeftOutWithAWarning) {
  auto r = Import(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
    "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32000,
    "vision_config": {"hidden_size": 1024}})");
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_FALSE(r.value().spec.vision.present());
  EXPECT_NE(FindWarning(r.value(), "vision_tower_not_sized"), nullptr);
}

// Wrong types and absurd sizes are refused under the config key that holds them.
TEST(HfVisionConfig, MalformedVisionConfigNamesTheKey) {
  const auto with = [](const char* key, contract::Json value) {
    contract::Json c = contract::Json::parse(kQwen25Vl7B);
    c["vision_config"][key] = std::move(value);
    return ImportHfConfig(c);
  };
  const struct {
    const char* key;
    contract::Json value;
  } cases[] = {{"depth", "32"},       {"depth", 100000},        {"hidden_size", 12.5},
               {"num_heads", 7},      {"patch_size", -14},      {"fullatt_block_indexes", "7,15"},
               {"spatial_merge_size", 1000}};
  for (const auto& c : cases) {
    auto r = with(c.key, c.value);
    ASSERT_FALSE(r.ok()) << c.key << " = " << c.value.dump();
    EXPECT_EQ(r.error().field, std::string("model.hf_config.vision_config.") + c.key) << r.error().message;
  }
  contract::Json c = contract::Json::parse(kQwen25Vl7B);
  c["vision_config"] = contract::Json::array({1, 2});
  auto r = ImportHfConfig(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.vision_config");
  c = contract::Json::parse(kQwen25Vl7B);
  c["vision_config"].erase("depth");
  r = ImportHfConfig(c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.vision_config.depth");
}

}  // namespace
}  // namespace engine::imports
