// The generation engine's cache per sequence, against hand counts from the models' configs.
#include "engine/kv_cache.h"

#include <gtest/gtest.h>

#include "test_models.h"

namespace engine {
namespace {

// Llama 3 8B config.json: 32 layers, 8 key/value heads of 128: 2 × 8 × 128 = 2,048 values
// per layer per token, 65,536 over the layers; 131,072 bytes in bf16 (the figure vLLM
// planners print for this model). 4,096 tokens: 512 MiB.
TEST(KvCache, GroupedQueryAttentionCachesKeysAndValuesPerLayer) {
  const ModelSpec m = testing::Llama3_8B();
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 1), 65536);
  EXPECT_DOUBLE_EQ(KvCacheBytes(m, 4096, 2), 512.0 * 1024 * 1024);
}

// DeepSeek-V3 config.json: 61 layers of MLA caching kv_lora_rank 512 + qk_rope_head_dim 64
// = 576 values per layer per token (DeepSeek-V2 paper §2.1.2: (d_c + d_h^R) × l), 35,136
// per token, however many heads.
TEST(KvCache, LatentAttentionCachesTheCompressedLatent) {
  ModelSpec m;
  m.layers = 61;
  m.heads = 128;
  m.kv_heads = 128;
  m.head_dim = 128;
  m.attention = AttentionKind::kMla;
  m.mla.kv_lora_rank = 512;
  m.mla.qk_rope_head_dim = 64;
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 1), 35136);
}

// Mistral 7B v0.1: a 4,096-token window on all 32 layers: 8,192 tokens cache only 4,096.
// Half the layers local (Gemma 2's alternation): 16 layers × 8,192 + 16 × 4,096 tokens.
TEST(KvCache, SlidingWindowLayersKeepOnlyTheWindow) {
  ModelSpec m = testing::Llama3_8B();
  m.sliding_window = 4096;
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 8192), 65536.0 * 4096);
  m.sliding_window_layers = 16;
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 8192), 2048.0 * (16 * 8192 + 16 * 4096));
}

// A Mamba-2 layer of 8 heads × 64 (inner 512), state 128, 1 group, kernel 4: SSM state
// 512 × 128 = 65,536 and convolution 3 × (512 + 2 × 128) = 2,304 values, whatever the
// length; the hybrid's attention layers still grow with it.
TEST(KvCache, MambaLayersKeepAFixedState) {
  ModelSpec m = testing::Llama3_8B();
  m.mamba.layers = 30;
  m.mamba.heads = 8;
  m.mamba.head_dim = 64;
  m.mamba.state = 128;
  m.mamba.groups = 1;
  m.mamba.conv = 4;
  const double mamba = 30 * (65536.0 + 2304);
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 1), 2 * 2048.0 + mamba);
  EXPECT_DOUBLE_EQ(KvCacheValues(m, 1000), 2 * 2048.0 * 1000 + mamba);
}

}  // namespace
}  // namespace engine
