// The memory a generation engine (vLLM, SGLang) keeps per sequence: keys and values of
// every attention layer for every token so far, or MLA's compressed latent, and a Mamba
// layer's fixed recurrent state. Post-training sizes its rollouts with it (model.md §12.1).
#pragma once

#include "model_spec.h"

namespace engine {

// Values cached for one sequence of `tokens` tokens (multiply by the cache's bytes per
// value): attention layers hold 2 × kv_heads × head_dim per token (MLA: kv_lora_rank +
// qk_rope_head_dim, the latent DeepSeek-V2 §2.1.2 caches), sliding-window layers at most
// `sliding_window` tokens; Mamba-2 layers a constant SSM and convolution state.
double KvCacheValues(const ModelSpec& m, double tokens);

inline double KvCacheBytes(const ModelSpec& m, double tokens, double bytes_per_value) {
  return KvCacheValues(m, tokens) * bytes_per_value;
}

}  // namespace engine
