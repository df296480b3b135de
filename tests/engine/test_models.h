// Hand-built model specs for engine tests, with values copied from the models' published
// Hugging Face config.json files (independent of catalog/models.json).
#pragma once

#include "engine/model_spec.h"

namespace engine::testing {

// meta-llama/Meta-Llama-3-8B config.json.
inline ModelSpec Llama3_8B() {
  ModelSpec m;
  m.id = "llama-3-8b";
  m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.head_dim = 128;
  m.ffn = 14336, m.vocab = 128256, m.max_context = 8192;
  return m;
}

// meta-llama/Meta-Llama-3-70B config.json.
inline ModelSpec Llama3_70B() {
  ModelSpec m = Llama3_8B();
  m.id = "llama-3-70b";
  m.layers = 80, m.hidden = 8192, m.heads = 64, m.ffn = 28672;
  return m;
}

// mistralai/Mixtral-8x7B-v0.1 config.json.
inline ModelSpec Mixtral8x7B() {
  ModelSpec m;
  m.id = "mixtral-8x7b";
  m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.head_dim = 128;
  m.ffn = 14336, m.vocab = 32000;
  m.moe.experts = 8, m.moe.experts_per_token = 2, m.moe.moe_ffn = 14336;
  return m;
}

// Qwen/Qwen2.5-7B config.json: QKV bias, untied embeddings.
inline ModelSpec Qwen25_7B() {
  ModelSpec m;
  m.id = "qwen2.5-7b";
  m.layers = 28, m.hidden = 3584, m.heads = 28, m.kv_heads = 4, m.head_dim = 128;
  m.ffn = 18944, m.vocab = 152064, m.qkv_bias = true;
  return m;
}

// deepseek-ai/DeepSeek-V3 config.json: MLA, 3 dense layers, 256 routed + 1 shared expert.
inline ModelSpec DeepSeekV3() {
  ModelSpec m;
  m.id = "deepseek-v3";
  m.layers = 61, m.hidden = 7168, m.heads = 128, m.kv_heads = 128, m.head_dim = 128;
  m.ffn = 18432, m.vocab = 129280;
  m.attention = AttentionKind::kMla;
  m.mla = {1536, 512, 128, 64, 128};
  m.moe.experts = 256, m.moe.experts_per_token = 8, m.moe.shared_experts = 1;
  m.moe.moe_ffn = 2048, m.moe.dense_layers = 3;
  return m;
}

}  // namespace engine::testing
