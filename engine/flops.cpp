#include "flops.h"

#include <algorithm>

#include "memory_model.h"

namespace engine {

double AttentionWidth(const ModelSpec& m) {
  if (m.attention == AttentionKind::kMla) {
    const double qk = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
    return m.heads * (qk + m.mla.v_head_dim) / 2.0;
  }
  return m.QueryWidth();
}

// Per token and layer, forward core attention (QKᵀ and AV) costs 2·2·s·h_q FLOPs, the
// "full" (non-causal) convention of PaLM App. B and torchtitan; backward costs twice the
// forward. A GEMM weight costs 2 FLOPs per token forward, 2 for the input gradient and 2
// for the weight gradient (Megatron num_floating_point_operations), so 6·N_mm in all.
// Frozen weights skip the weight gradient (4·N_mm, model.md §5.4); recomputation adds one
// forward of what it recomputes (HFU, not MFU; PaLM App. B).
FlopsPerToken TrainingFlopsPerToken(const Scenario& s, const ParamCounts& c) {
  const ModelSpec& m = s.model;
  const Training& t = s.training;
  const double n_mm = c.matmul_active;
  const double head = double(m.vocab) * m.hidden;  // LM-head GEMM (part of n_mm)
  const double attn_fwd = 4.0 * m.layers * AttentionWidth(m) * t.seq_len;
  FlopsPerToken f;
  double gemm_fwd = 2 * n_mm, gemm_bwd = 4 * n_mm, attn_bwd = 2 * attn_fwd;
  switch (t.method) {
    case Method::kPretrain:
    case Method::kFull: break;
    case Method::kLora:
    case Method::kQlora: {
      const double adapters = TrainableParams(m, c, t);
      gemm_fwd += 2 * adapters;
      gemm_bwd = 2 * n_mm + 4 * adapters;  // input gradients only, plus the adapters' own
      break;
    }
    case Method::kFreeze: {
      // Backward stops below the trained top layers; the frozen LM head still passes
      // the input gradient down.
      const double share = std::min(1.0, double(t.freeze_trainable_layers) / m.layers);
      gemm_bwd = 4 * (n_mm - head) * share + 2 * head;
      attn_bwd *= share;
      break;
    }
  }
  f.model = gemm_fwd + gemm_bwd + attn_fwd + attn_bwd;
  double recompute_gemm = 0, recompute_attn = 0;
  if (t.activation_checkpointing == Recompute::kFull) {
    const double share = RecomputedShare(t, m.layers);
    recompute_gemm = 2 * (n_mm - head) * share;  // the recomputed layers' forward, not the head
    recompute_attn = attn_fwd * share;
  } else if (t.activation_checkpointing == Recompute::kSelective && !t.flash_attention) {
    recompute_attn = attn_fwd;  // Korthikanti selective: QKᵀ/softmax/AV again
  }
  f.gemm = gemm_fwd + gemm_bwd + recompute_gemm;
  // The routed experts' GEMMs run as grouped GEMMs over few tokens each (time_model.cpp
  // times them apart): their share of the per-token GEMM weights.
  if (m.IsMoe() && n_mm > 0) {
    const double routed_active = c.expert * double(m.moe.experts_per_token) / m.moe.experts;
    f.expert_gemm = f.gemm * std::min(1.0, routed_active / n_mm);
  }
  f.attention = attn_fwd + attn_bwd + recompute_attn;
  f.hardware = f.gemm + f.attention;
  return f;
}

}  // namespace engine
