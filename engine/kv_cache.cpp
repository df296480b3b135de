#include "kv_cache.h"

#include <algorithm>

namespace engine {

double KvCacheValues(const ModelSpec& m, double tokens) {
  const int attention_layers = std::max(0, m.layers - m.mamba.layers);
  const int local_layers = std::min(attention_layers, m.LocalAttentionLayers());
  const double per_token_layer = m.attention == AttentionKind::kMla
                                     ? double(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim
                                     : 2.0 * m.KvWidth();
  const double local_tokens = std::min(tokens, double(m.sliding_window));
  const double attention = per_token_layer * ((attention_layers - local_layers) * tokens + local_layers * local_tokens);
  // Mamba-2 (vLLM's MambaMixer2 cache): the SSM state, heads × head_dim × state, and the
  // causal convolution's last conv − 1 inputs over x, B and C (inner + 2 × groups × state).
  const MambaDims& d = m.mamba;
  const double mamba_per_layer =
      d.Inner() * d.state + double(d.conv - 1) * (d.Inner() + 2.0 * d.groups * d.state);
  return attention + m.mamba.layers * mamba_per_layer;
}

}  // namespace engine
