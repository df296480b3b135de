// Parameter counts against the official counts published with each model.
#include "engine/model_spec.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_models.h"

namespace engine {
namespace {

using testing::DeepSeekV3;
using testing::Llama3_70B;
using testing::Llama3_8B;
using testing::Mixtral8x7B;
using testing::Qwen25_7B;

// Exact totals are the safetensors parameter counts shown on the Hugging Face model pages.
TEST(ParamCount, Llama3_8BMatchesSafetensorsCountExactly) {
  EXPECT_DOUBLE_EQ(CountParams(Llama3_8B()).total, 8'030'261'248.0);
}

TEST(ParamCount, Llama3_70BMatchesSafetensorsCountExactly) {
  EXPECT_DOUBLE_EQ(CountParams(Llama3_70B()).total, 70'553'706'496.0);
}

TEST(ParamCount, Qwen25_7BIncludesQkvBias) {
  // Qwen2.5 model card: 7.61B total, 6.53B non-embedding.
  const ParamCounts c = CountParams(Qwen25_7B());
  EXPECT_DOUBLE_EQ(c.total, 7'615'616'512.0);
  EXPECT_NEAR((c.total - c.embedding - c.lm_head) / 1e9, 6.53, 0.005);
}

TEST(ParamCount, MixtralTotalAndActiveMatchMistralAnnouncement) {
  // Mistral AI, "Mixtral of experts" (2023-12): 46.7B total, 12.9B active per token.
  const ParamCounts c = CountParams(Mixtral8x7B());
  EXPECT_NEAR(c.total / 1e9, 46.7, 0.05);
  EXPECT_NEAR(c.active / 1e9, 12.9, 0.05);
}

TEST(ParamCount, DeepSeekV3MatchesTechnicalReport) {
  // DeepSeek-V3 technical report (arXiv 2412.19437) §1: 671B total, 37B activated.
  // The activated figure excludes the input-embedding lookup.
  const ParamCounts c = CountParams(DeepSeekV3());
  EXPECT_NEAR(c.total / 1e9, 671.0, 671.0 * 0.005);
  EXPECT_NEAR((c.active - c.embedding) / 1e9, 37.0, 37.0 * 0.02);
}

TEST(ParamCount, TiedEmbeddingsCountOnce) {
  ModelSpec tied = Llama3_8B();
  tied.tied_embeddings = true;
  EXPECT_DOUBLE_EQ(CountParams(Llama3_8B()).total - CountParams(tied).total, 128256.0 * 4096.0);
}

TEST(ParamCount, MatmulParamsExcludeInputEmbedding) {
  // model.md §9.1: N_mm for Llama-3-8B = 7,504,924,672 (N minus the 525M-entry lookup).
  EXPECT_DOUBLE_EQ(CountParams(Llama3_8B()).matmul_active, 7'504'924'672.0 - 4096.0 * 65.0);  // minus the 65 RMSNorm weight vectors
}

TEST(ValidateModel, RejectsKvHeadsNotDividingHeads) {
  ModelSpec m = Llama3_8B();
  m.kv_heads = 5;
  auto e = ValidateModel(m, "model.");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->field, "model.kv_heads");
}

TEST(ValidateModel, RejectsAbsurdlyLargeModels) {
  ModelSpec m = Llama3_8B();
  m.layers = 1000, m.hidden = 262144, m.ffn = 4194304, m.heads = 2048, m.kv_heads = 2048;
  auto e = ValidateModel(m, "model.");
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("trillion"), std::string::npos);
}

TEST(DerivedShape, LandsWithinTwoPercentOfTheRequestedSize) {
  for (double billions : {0.5, 1.0, 7.0, 13.0, 34.0, 70.0, 175.0, 405.0}) {
    auto shape = DeriveDenseShape(billions * 1e9);
    ASSERT_TRUE(shape.ok()) << billions;
    EXPECT_NEAR(CountParams(shape.value()).total / (billions * 1e9), 1.0, 0.02) << billions;
    EXPECT_FALSE(ValidateModel(shape.value(), "").has_value()) << billions;
  }
}

TEST(DerivedShape, EightBillionLooksLikeLlama3_8B) {
  auto shape = DeriveDenseShape(8.03e9);
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape.value().hidden, 4096);
  EXPECT_EQ(shape.value().layers, 32);
}

TEST(DerivedShape, RejectsNaNAndAbsurdSizes) {
  EXPECT_FALSE(DeriveDenseShape(std::nan("")).ok());
  EXPECT_FALSE(DeriveDenseShape(1e15).ok());
  EXPECT_FALSE(DeriveDenseShape(-5).ok());
  EXPECT_EQ(DeriveDenseShape(1e15).error().field, "model.params_b");
}

}  // namespace
}  // namespace engine

namespace engine {
namespace {

// DeepSeek-V3 README_WEIGHTS.md: the MTP module holds 11.5B unique parameters (its
// embedding and output head are the main model's). The model itself stays 671B.
TEST(ParamCount, DeepSeekV3MtpModuleMatchesReadme) {
  ModelSpec m = testing::DeepSeekV3();
  const double main_total = CountParams(m).total;
  m.mtp_layers = 1;
  const ParamCounts c = CountParams(m);
  EXPECT_NEAR(c.mtp / 11.5e9, 1.0, 0.015);
  EXPECT_DOUBLE_EQ(c.total - c.mtp, main_total);
}

// gpt-oss model card (arXiv 2508.10925) §2.2: one learned sink logit per attention head,
// 64 heads × 36 layers of gpt-oss-120b.
TEST(ParamCount, AttentionSinksAddOneParameterPerHead) {
  ModelSpec m = testing::Llama3_8B();
  const double without = CountParams(m).total;
  m.attention_sinks = true;
  EXPECT_DOUBLE_EQ(CountParams(m).total - without, 32.0 * 32);
}

}  // namespace
}  // namespace engine
