#include "flops.h"

#include <algorithm>

#include "memory_model.h"
#include "recompute.h"
#include "vision.h"

namespace engine {

double AttentionWidth(const ModelSpec& m) {
  if (m.attention == AttentionKind::kMla) {
    const double qk = m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim;
    return m.heads * (qk + m.mla.v_head_dim) / 2.0;
  }
  return m.QueryWidth();
}

double AttentionKeysPerToken(const ModelSpec& m, double seq) {
  const int attention_layers = m.layers - m.mamba.layers;
  const int local = std::min(m.LocalAttentionLayers(), attention_layers);
  const double w = m.sliding_window;
  const double local_keys = w < seq ? 2 * w - w * w / seq : seq;
  return (attention_layers - local + m.mtp_layers) * seq + local * local_keys;
}

// Mamba-2's chunked scan (SSD, Dao & Gu 2024 §6) per token and layer, forward, in chunks
// of Q = 128 tokens (Nemotron-H chunk_size): C·Bᵀ within the chunk (2·Q·G·N), its masked
// product with x (2·Q·H·P), and the chunk states in and out (2·2·H·P·N).
double MambaScanFlopsPerToken(const ModelSpec& m) {
  constexpr double kChunk = 128;
  const MambaDims& d = m.mamba;
  const double heads_width = double(d.heads) * d.head_dim;
  return m.mamba.layers * (2 * kChunk * d.groups * d.state + 2 * kChunk * heads_width + 4 * heads_width * d.state);
}

// GEMM weights per token that selective recomputation runs forward again (recompute.h):
// Megatron's mlp, moe, shared_experts and mla_up_proj modules, or torchtitan's per-op
// policy, which reruns the matmuls it does not keep (wk, wo and w3 of a Llama block;
// half of MLA's projections) and every expert GEMM (grouped GEMMs are not kept).
double SelectiveRecomputeWeights(const ModelSpec& m, const ParamCounts& c, const SelectiveParts& r) {
  const double h = m.hidden;
  const int moe_layers = m.MoeLayers();
  const int dense_layers = m.layers - moe_layers;
  const double mlp_matrices = m.mlp == MlpKind::kGated ? 3 : 2;
  const double routed_per_token = moe_layers > 0 ? c.expert * double(m.moe.experts_per_token) / m.moe.experts : 0;
  const double shared_per_token = moe_layers * mlp_matrices * h * m.moe.SharedWidth();
  const double mla_up = m.attention == AttentionKind::kMla
                            ? m.layers * (double(m.mla.q_lora_rank) * m.heads * (m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim) +
                                          double(m.mla.kv_lora_rank) * m.heads * (m.mla.qk_nope_head_dim + m.mla.v_head_dim))
                            : 0;
  double weights = 0;
  if (r.every_other_matmul) {
    const double attention = m.attention == AttentionKind::kMla
                                 ? 0.5 * mla_up + m.layers * double(m.heads) * m.mla.v_head_dim * h
                                 : m.layers * (h * m.KvWidth() + double(m.QueryWidth()) * h);
    const double mlp = dense_layers * h * m.ffn;  // w3 (gated) or fc2 (plain): one matrix either way
    return attention + mlp + routed_per_token + 0.5 * shared_per_token;
  }
  if (r.mlp) weights += dense_layers * mlp_matrices * h * m.ffn;
  if (r.moe) {
    weights += routed_per_token + shared_per_token + moe_layers * h * m.moe.experts;  // + router
  } else if (r.shared_experts) {
    weights += shared_per_token;
  }
  if (r.mla_up_proj) weights += mla_up;
  return weights;
}

// Per token and layer, forward core attention (QKᵀ and AV) costs 2·2·s·h_q FLOPs, the
// "full" (non-causal) convention of PaLM App. B and torchtitan (s: the keys a query meets,
// AttentionKeysPerToken); backward costs twice the
// forward. A GEMM weight costs 2 FLOPs per token forward, 2 for the input gradient and 2
// for the weight gradient (Megatron num_floating_point_operations), so 6·N_mm in all.
// Frozen weights skip the weight gradient (4·N_mm, model.md §5.4); recomputation adds one
// forward of what it recomputes (HFU, not MFU; PaLM App. B).
FlopsPerToken TrainingFlopsPerToken(const Scenario& input, const ParamCounts& c) {
  // The language model runs over the text and media tokens; the tower's FLOPs per sample
  // are spread over them below.
  const LanguageModelView view(input);
  const Scenario& s = view.get();
  const ModelSpec& m = s.model;
  const Training& t = s.training;
  const double n_mm = c.matmul_active;
  const double head = double(m.vocab) * m.hidden;  // LM-head GEMM (part of n_mm)
  // The scan of Mamba-2 layers counts with attention: neither is a weight GEMM.
  const double attn_fwd = 4.0 * AttentionWidth(m) * AttentionKeysPerToken(m, t.seq_len) + MambaScanFlopsPerToken(m);
  FlopsPerToken f;
  double gemm_fwd = 2 * n_mm, gemm_bwd = 4 * n_mm, attn_bwd = 2 * attn_fwd;
  double head_bwd = 4 * head;
  switch (t.method) {
    case Method::kPretrain:
    case Method::kFull: break;
    case Method::kLora:
    case Method::kQlora: {
      // The trained embedding copy is a lookup; a trained head copy adds its weight gradient.
      const double adapters = LanguageTrainableParams(m, c, t) - SavedModuleParams(m, t);
      gemm_fwd += 2 * adapters;
      gemm_bwd = 2 * n_mm + 4 * adapters;  // input gradients only, plus the adapters' own
      head_bwd = 2 * head;
      if (TrainsHeadCopy(t)) {
        gemm_bwd += 2 * head;
        head_bwd += 2 * head;
      }
      break;
    }
    case Method::kFreeze: {
      // Backward stops below the trained top layers; the frozen LM head still passes
      // the input gradient down.
      const double share = std::min(1.0, double(t.freeze_trainable_layers) / m.layers);
      gemm_bwd = 4 * (n_mm - head) * share + 2 * head;
      head_bwd = 2 * head;
      attn_bwd *= share;
      break;
    }
  }
  if (t.media.freeze_llm) {
    // A frozen language model under a trained tower or projector passes input gradients
    // down and computes no weight gradients.
    gemm_fwd = 2 * n_mm;
    gemm_bwd = 2 * n_mm;
    head_bwd = 2 * head;
  }
  f.model = gemm_fwd + gemm_bwd + attn_fwd + attn_bwd;
  f.model_attention = attn_fwd + attn_bwd;
  double recompute_gemm = 0, recompute_attn = 0;
  if (t.activation_checkpointing == Recompute::kFull) {
    const double share = RecomputedShare(t, m.layers);
    recompute_gemm = 2 * (n_mm - head) * share;  // the recomputed layers' forward, not the head
    recompute_attn = attn_fwd * share;
  } else if (t.activation_checkpointing == Recompute::kSelective) {
    const SelectiveParts parts = SelectiveOf(s);
    recompute_gemm = 2 * SelectiveRecomputeWeights(m, c, parts);
    // Core attention runs forward again in backward (Korthikanti selective; Megatron
    // checkpoints it with FlashAttention too); torchtitan keeps the attention output.
    if (parts.core_attn) recompute_attn = attn_fwd;
  }
  f.gemm = gemm_fwd + gemm_bwd + recompute_gemm;
  f.head_gemm = 2 * head + head_bwd;
  // The routed experts' GEMMs run as grouped GEMMs over few tokens each (time_model.cpp
  // times them apart): their share of the per-token GEMM weights.
  if (m.IsMoe() && n_mm > 0) {
    const double routed_active = c.expert * double(m.moe.experts_per_token) / m.moe.experts;
    f.expert_gemm = f.gemm * std::min(1.0, routed_active / n_mm);
  }
  f.attention = attn_fwd + attn_bwd + recompute_attn;
  f.hardware = f.gemm + f.attention;
  const VisionFlops vision = VisionFlopsPerSample(input);
  if (vision.step > 0 && t.seq_len > 0) {
    f.vision = vision.step / t.seq_len;
    f.vision_attention = vision.attention / t.seq_len;
    f.model += vision.model / t.seq_len;
    f.hardware += f.vision;
  }
  return f;
}

}  // namespace engine
