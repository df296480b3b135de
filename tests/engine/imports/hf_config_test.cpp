// Hugging Face config.json import: each config below is the model's published
// config.json (sizing keys verbatim; token ids and similar left out where noted), and the
// resulting parameter count is checked against the count published for that model.
#include "engine/imports/hf_config.h"

#include <gtest/gtest.h>

#include "engine/service/api.h"

namespace engine::imports {
namespace {

double TotalParams(const char* config_json) {
  auto r = ImportHfConfig(contract::Json::parse(config_json));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().field + ": " + r.error().message);
  return r.ok() ? engine::CountParams(r.value().spec).total : 0;
}

// meta-llama/Meta-Llama-3-8B config.json; HF safetensors count 8,030,261,248.
constexpr const char* kLlama3_8B = R"({
  "architectures": ["LlamaForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 128000, "eos_token_id": 128001, "hidden_act": "silu", "hidden_size": 4096,
  "initializer_range": 0.02, "intermediate_size": 14336, "max_position_embeddings": 8192,
  "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
  "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null, "rope_theta": 500000.0,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "transformers_version": "4.40.0.dev0",
  "use_cache": true, "vocab_size": 128256})";

TEST(HfConfig, Llama3_8BReproducesSafetensorsCount) {
  EXPECT_DOUBLE_EQ(TotalParams(kLlama3_8B), 8'030'261'248.0);
  auto r = ImportHfConfig(contract::Json::parse(kLlama3_8B));
  EXPECT_EQ(r.value().spec.max_context, 8192);
  EXPECT_TRUE(r.value().warnings.empty());
}

// Qwen/Qwen2.5-7B config.json (QKV bias implied by model_type qwen2); card: 7.61B.
TEST(HfConfig, Qwen25_7BHasQkvBias) {
  EXPECT_DOUBLE_EQ(TotalParams(R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
    "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
    "tie_word_embeddings": false, "max_position_embeddings": 131072, "sliding_window": 131072,
    "use_sliding_window": false})"), 7'615'616'512.0);
}

// mistralai/Mixtral-8x7B-v0.1 config.json; Mistral AI: 46.7B total.
TEST(HfConfig, MixtralExpertsComeFromNumLocalExperts) {
  EXPECT_NEAR(TotalParams(R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8,
    "num_experts_per_tok": 2, "vocab_size": 32000, "tie_word_embeddings": false})") / 1e9, 46.7, 0.05);
}

// deepseek-ai/DeepSeek-V3 config.json; technical report: 671B total.
TEST(HfConfig, DeepSeekV3MlaAndSharedExperts) {
  EXPECT_NEAR(TotalParams(R"({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "num_attention_heads": 128, "num_hidden_layers": 61, "num_key_value_heads": 128,
    "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3,
    "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "vocab_size": 129280, "tie_word_embeddings": false, "num_nextn_predict_layers": 1})") / 1e9, 671.0, 3.4);
}

// google/gemma-2-9b config.json: head_dim 256 ≠ hidden/heads, 4 norms per layer, tied; 9.24B.
TEST(HfConfig, Gemma2UsesExplicitHeadDimAndFourNorms) {
  EXPECT_NEAR(TotalParams(R"({"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336,
    "num_attention_heads": 16, "num_hidden_layers": 42, "num_key_value_heads": 8, "head_dim": 256,
    "vocab_size": 256000, "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0})") / 1e9, 9.242, 0.001);
}

// openai/gpt-oss-120b config.json (layer_types abbreviated to its alternating pattern,
// sliding then full, 36 entries); model card (arXiv 2508.10925) Table 1: 116.83B total.
TEST(HfConfig, GptOssHasBiasesSinksAndHalfItsLayersWindowed) {
  contract::Json c = contract::Json::parse(R"({"model_type": "gpt_oss", "hidden_size": 2880,
    "intermediate_size": 2880, "num_attention_heads": 64, "num_hidden_layers": 36, "num_key_value_heads": 8,
    "head_dim": 64, "num_local_experts": 128, "num_experts_per_tok": 4, "experts_per_token": 4,
    "vocab_size": 201088, "tie_word_embeddings": false, "attention_bias": true, "sliding_window": 128,
    "swiglu_limit": 7.0, "initial_context_length": 4096, "max_position_embeddings": 131072})");
  c["layer_types"] = contract::Json::array();
  for (int i = 0; i < 36; ++i) c["layer_types"].push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
  auto r = ImportHfConfig(c);
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const ModelSpec& m = r.value().spec;
  EXPECT_NEAR(CountParams(m).total / 116.83e9, 1.0, 0.001);
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.sliding_window_layers, 18);
  EXPECT_TRUE(r.value().warnings.empty());
}

// google/gemma-3-12b-pt text_config: sliding_window 1024, every sixth of 48 layers global.
TEST(HfConfig, Gemma3MakesEverySixthLayerGlobal) {
  auto r = ImportHfConfig(contract::Json::parse(R"({"model_type": "gemma3_text", "hidden_size": 3840,
    "intermediate_size": 15360, "num_attention_heads": 16, "num_hidden_layers": 48, "num_key_value_heads": 8,
    "head_dim": 256, "vocab_size": 262208, "sliding_window": 1024})"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().spec.sliding_window_layers, 40);
  // Qwen2's window is unused unless use_sliding_window (TEST Qwen25_7BHasQkvBias's config).
  auto q = ImportHfConfig(contract::Json::parse(R"({"model_type": "qwen2", "hidden_size": 3584,
    "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4,
    "vocab_size": 152064, "sliding_window": 131072, "use_sliding_window": false})"));
  EXPECT_EQ(q.value().spec.sliding_window, 0);
}

// nvidia/Nemotron-H-8B-Base-8K config.json (sizing keys): 24 Mamba-2, 4 attention and 24
// MLP blocks; the model card says "8B". By hand: Mamba-2 mixer 4096·(2·8192 + 2·8·128 +
// 128) + 8192·4096 = 109.58M weights (+61.8K conv, heads and norm) × 24 = 2.631B; attention
// 41.94M × 4; squared-ReLU MLP 2·4096·21504 = 176.16M × 24 = 4.228B; untied embedding and
// head 2·131072·4096 = 1.074B; norms: 8.10B in all.
TEST(HfConfig, NemotronHCountsMambaAttentionAndMlpBlocks) {
  auto r = ImportHfConfig(contract::Json::parse(R"({"model_type": "nemotron_h", "hidden_size": 4096,
    "intermediate_size": 21504, "num_attention_heads": 32, "num_key_value_heads": 8, "attention_head_dim": 128,
    "num_hidden_layers": 52, "vocab_size": 131072, "tie_word_embeddings": false, "mamba_num_heads": 128,
    "mamba_head_dim": 64, "ssm_state_size": 128, "n_groups": 8, "conv_kernel": 4, "chunk_size": 128,
    "expand": 2, "mlp_hidden_act": "relu2", "use_conv_bias": true, "use_bias": false,
    "hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
    "max_position_embeddings": 8192})"));
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  const ModelSpec& m = r.value().spec;
  EXPECT_EQ(m.layers, 28);
  EXPECT_EQ(m.mamba.layers, 24);
  EXPECT_EQ(m.mlp_free_layers, 4);
  EXPECT_NEAR(CountParams(m).total / 8.10e9, 1.0, 0.002);
  EXPECT_TRUE(r.value().warnings.empty());
  auto bad = ImportHfConfig(contract::Json::parse(R"({"model_type": "nemotron_h", "hidden_size": 4096,
    "intermediate_size": 21504, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 3,
    "vocab_size": 131072, "mamba_num_heads": 128, "hybrid_override_pattern": "MX-"})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "model.hf_config.hybrid_override_pattern");
}

// Qwen/Qwen-7B (v1) config.json: intermediate_size 22016 is w1 + w2 (11008 each); the
// Hugging Face page gives 7.72B parameters.
TEST(HfConfig, QwenV1HalvesItsIntermediateSize) {
  auto r = ImportHfConfig(contract::Json::parse(R"({"model_type": "qwen", "hidden_size": 4096,
    "intermediate_size": 22016, "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 151936,
    "kv_channels": 128, "seq_length": 8192, "no_bias": true, "max_position_embeddings": 32768,
    "layer_norm_epsilon": 1e-06, "use_flash_attn": "auto", "bf16": false, "fp16": false, "fp32": false})"));
  ASSERT_TRUE(r.ok()) << r.error().field << ": " << r.error().message;
  EXPECT_EQ(r.value().spec.ffn, 11008);
  EXPECT_EQ(r.value().spec.max_context, 8192);
  EXPECT_NEAR(CountParams(r.value().spec).total / 7.72e9, 1.0, 0.001);
  EXPECT_TRUE(r.value().warnings.empty());
}

// EleutherAI/gpt-neox-20b config.json; model card: 20,554,567,680 parameters.
TEST(HfConfig, GptNeoxHasBiasesLayerNormAndPlainMlp) {
  EXPECT_DOUBLE_EQ(TotalParams(R"({"model_type": "gpt_neox", "hidden_size": 6144, "intermediate_size": 24576,
    "num_attention_heads": 64, "num_hidden_layers": 44, "vocab_size": 50432, "max_position_embeddings": 2048,
    "rotary_pct": 0.25, "use_parallel_residual": true, "tie_word_embeddings": false})"), 20'554'567'680.0);
}

TEST(HfConfig, UnknownKeysAndTypesAreNamedInWarnings) {
  auto r = ImportHfConfig(contract::Json::parse(R"({"model_type": "mystery", "hidden_size": 1024, "num_attention_heads": 8,
    "num_hidden_layers": 4, "vocab_size": 1000, "intermediate_size": 4096, "frobnication_depth": 3})"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value().warnings.size(), 2u);
  EXPECT_EQ(r.value().warnings[0].code, "hf_config_unknown_type");
  EXPECT_NE(r.value().warnings[1].message.find("frobnication_depth"), std::string::npos);
}

TEST(HfConfig, MissingSizeKeysNameTheField) {
  auto r = ImportHfConfig(contract::Json::parse(R"({"model_type": "llama", "hidden_size": 4096})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "model.hf_config.num_hidden_layers");
}

TEST(HfConfig, ScenarioAcceptsHfConfigAndCarriesWarnings) {
  const std::string scenario =
      std::string(R"({"model": {"hf_config": )") + kLlama3_8B + R"(}, "method": "qlora", "gpu": "rtx-4090-24gb"})";
  const contract::Json r = contract::Json::parse(service::Session().Estimate(scenario).json);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["params"]["total"], 8030261248.0);
}

}  // namespace
}  // namespace engine::imports
