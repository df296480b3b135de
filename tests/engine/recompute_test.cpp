// Selective recomputation as frameworks run it and activation offload, against hand
// derivations for Llama-3-8B (h 4096, 32 query and 8 KV heads of 128, f 14336, 32
// layers; config.json of meta-llama/Meta-Llama-3-8B), sequence 4096, one sequence.
#include "engine/recompute.h"

#include <gtest/gtest.h>

#include "engine/flops.h"
#include "engine/framework_profile.h"
#include "engine/memory_model.h"
#include "engine/time_model.h"
#include "test_models.h"

namespace engine {
namespace {

constexpr double kTokens = 4096;
constexpr double kLayers = 32;
// FlashAttention's fp32 log-sum-exp per layer: 4 B × 32 heads × 4096.
constexpr double kLse = 4.0 * 32 * 4096;

Scenario Base(Framework framework) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.seq_len = 4096;
  s.training.micro_batch = 1;
  s.parallel.framework = framework;
  return s;
}

double Activations(const Scenario& s) { return EstimateMemory(s, CountParams(s.model)).activations.bytes; }

// torchtitan's op policy keeps the layer input (2h), wq's output (2·4096), wv's (2·1024),
// the attention output (2·4096), w1's (2·14336) and w2's (2h): 63,488 B per token.
TEST(Recompute, TorchtitanSelectiveKeepsEveryOtherMatmul) {
  Scenario s = Base(Framework::kTorchtitan);
  s.training.activation_checkpointing = Recompute::kSelective;
  const double per_layer = 2.0 * (4096 + 4096 + 1024 + 4096 + 14336 + 4096) * kTokens + kLse;
  EXPECT_NEAR(Activations(s), kLayers * per_layer, 1.0);
  // It reruns wk (4096×1024), wo (4096²) and w3 (4096×14336) forward: 2 FLOPs per weight.
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_NEAR(f.hardware - f.model, 2.0 * kLayers * (4096.0 * 1024 + 4096.0 * 4096 + 4096.0 * 14336), 1.0);
}

// Megatron's default selective recomputation is core attention: with FlashAttention it
// saves nothing but still runs the attention forward again, 4·s·h_q per token and layer.
TEST(Recompute, MegatronSelectiveRerunsCoreAttention) {
  Scenario s = Base(Framework::kMegatron);
  const double none = Activations(s);
  s.training.activation_checkpointing = Recompute::kSelective;
  EXPECT_DOUBLE_EQ(Activations(s), none);
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_NEAR(f.hardware - f.model, 4.0 * kLayers * 4096 * 4096, 1.0);
}

// --recompute-modules mlp drops the three f-wide tensors of the fused SwiGLU MLP (6f B
// per token) and reruns its three matrices forward.
TEST(Recompute, MlpModuleDropsTheMlpInternals) {
  Scenario s = Base(Framework::kMegatron);
  const double none = Activations(s);
  s.training.activation_checkpointing = Recompute::kSelective;
  s.training.recompute_modules = {"mlp"};
  EXPECT_NEAR(none - Activations(s), kLayers * 6.0 * 14336 * kTokens, 1.0);
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_NEAR(f.hardware - f.model, 2.0 * kLayers * 3 * 4096.0 * 14336, 1.0);
}

// --recompute-modules layernorm drops both norm outputs (the QKV and fc1 inputs): 4h B
// per token.
TEST(Recompute, LayernormModuleDropsBothNormOutputs) {
  Scenario s = Base(Framework::kMegatron);
  const double none = Activations(s);
  s.training.activation_checkpointing = Recompute::kSelective;
  s.training.recompute_modules = {"layernorm"};
  EXPECT_NEAR(none - Activations(s), kLayers * 4.0 * 4096 * kTokens, 1.0);
}

// Full recomputation keeps each layer's input, 2·4096·4096 B = 32 MiB. Offloading them
// leaves two on the GPU and moves the other 30 to host memory.
TEST(Recompute, ActivationOffloadKeepsTwoLayersOnTheGpu) {
  Scenario s = Base(Framework::kFsdp);
  s.training.activation_checkpointing = Recompute::kFull;
  const MemoryBreakdown kept = EstimateMemory(s, CountParams(s.model));
  s.training.activation_offload = true;
  const MemoryBreakdown offloaded = EstimateMemory(s, CountParams(s.model));
  const double layer_input = 2.0 * 4096 * 4096;
  EXPECT_NEAR(kept.activations.bytes - offloaded.activations.bytes, 30 * layer_input, 1.0);
  EXPECT_NEAR(offloaded.cpu_ram.bytes - kept.cpu_ram.bytes, 30 * layer_input, 1.0);
  EXPECT_NEAR(StoredActivationBytesPerMicroBatch(s), 32 * layer_input, 1.0);
}

TEST(Recompute, UnknownModuleIsNamed) {
  Training t;
  t.recompute_modules = {"mlp", "attention"};
  const auto e = CheckRecomputeModules(t);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->field, "recompute_modules");
  EXPECT_NE(e->message.find("core_attn"), std::string::npos) << e->message;
}

// The Hugging Face stacks shard through DeepSpeed: under ZeRO they keep its fp32
// gradient partition, at zero 0 the ZeRO paper's states; Megatron-FSDP may shard all.
TEST(FrameworkProfile, LayoutsFollowTheStack) {
  Parallelism p;
  p.framework = Framework::kHfTrainer;
  EXPECT_EQ(LayoutOf(p), StateLayout::kFsdp);
  p.zero = 2;
  EXPECT_EQ(LayoutOf(p), StateLayout::kDeepSpeed);
  p.framework = Framework::kMegatronFsdp;
  EXPECT_EQ(LayoutOf(p), StateLayout::kMegatron);
  EXPECT_EQ(ProfileOf(Framework::kMegatronFsdp).max_zero, 3);
  EXPECT_EQ(ProfileOf(Framework::kMegatron).max_zero, 1);
}

}  // namespace
}  // namespace engine

namespace engine {
namespace {

// gpt-oss-120b at 4096 tokens: 18 full layers meet 4096 keys per query; 18 with a
// 128-token window do 4096·128 − 128²/2 causal work per sequence, 2·128 − 128²/4096 =
// 252 keys per token in the full convention: 18·4096 + 18·252 = 78,264.
TEST(AttentionKeys, SlidingWindowLayersMeetTheirWindow) {
  ModelSpec m;
  m.layers = 36;
  m.sliding_window = 128;
  m.sliding_window_layers = 18;
  EXPECT_DOUBLE_EQ(AttentionKeysPerToken(m, 4096), 78264);
  // A window longer than the sequence is full attention.
  m.sliding_window = 8192;
  EXPECT_DOUBLE_EQ(AttentionKeysPerToken(m, 4096), 36.0 * 4096);
  // Each MTP module is one more full-attention layer.
  m.sliding_window = 0;
  m.mtp_layers = 1;
  EXPECT_DOUBLE_EQ(AttentionKeysPerToken(m, 4096), 37.0 * 4096);
}

// Nemotron-H-8B: 4 of its 28 mixers are attention; the 24 Mamba-2 mixers meet no keys.
// Their scan, per token and layer forward: 2·128·8·128 + 2·128·8192 + 4·8192·128 =
// 262,144 + 2,097,152 + 4,194,304 = 6,553,600 FLOPs.
TEST(AttentionKeys, MambaLayersMeetNoKeysButScan) {
  ModelSpec m;
  m.layers = 28;
  m.mamba = {.layers = 24, .heads = 128, .head_dim = 64, .state = 128, .groups = 8, .conv = 4};
  EXPECT_DOUBLE_EQ(AttentionKeysPerToken(m, 8192), 4.0 * 8192);
  EXPECT_DOUBLE_EQ(MambaScanFlopsPerToken(m), 24 * 6'553'600.0);
}

// An MTP module computes its own logits: twice the s·b·V elements on the last stage.
TEST(AttentionKeys, MtpDoublesTheLogits) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.seq_len = 4096;
  const double one = EstimateMemory(s, CountParams(s.model)).logits.bytes;
  s.model.mtp_layers = 1;
  EXPECT_DOUBLE_EQ(EstimateMemory(s, CountParams(s.model)).logits.bytes, 2 * one);
}

}  // namespace
}  // namespace engine
