// Training FLOPs per token: model FLOPs (the MFU convention) and hardware FLOPs (what
// actually runs, with recomputation: the HFU convention), for every method.
#pragma once

#include "model_spec.h"
#include "scenario.h"

namespace engine {

struct FlopsPerToken {
  double model = 0;      // PaLM App. B convention: 6·N_mm + 12·L·h_q·s (LoRA ≈ 4·N_mm + ...)
  double hardware = 0;   // model + recomputed forward passes
  double attention = 0;  // the core-attention (QKᵀ, AV) part of `hardware`
  double model_attention = 0;  // the core-attention part of `model` (no recomputation)
  double gemm = 0;       // the weight-GEMM part of `hardware`
  double expert_gemm = 0;  // the routed experts' part of `gemm` (grouped GEMMs of a MoE model)
  double head_gemm = 0;    // the LM head's part of `gemm` (kept in BF16 by low-precision recipes)
  // A vision-language model's tower and projector, per language-model token (part of
  // `hardware`, apart from `gemm` and `attention`, which are the language model's).
  double vision = 0;
  double vision_attention = 0;  // the tower's core attention, part of `vision`
};

FlopsPerToken TrainingFlopsPerToken(const Scenario& scenario, const ParamCounts& params);

// Keys each query meets, summed over the layers (and the MTP modules), in the full
// (non-causal) convention of PaLM App. B: s on a full-attention layer; on a layer with a
// sliding window w < s a causal kernel does s·w − w²/2 work per sequence, counted twice
// in this convention: 2w − w²/s per token.
double AttentionKeysPerToken(const ModelSpec& model, double seq_len);

// Forward FLOPs per token of the Mamba-2 layers' chunked scan (not weight GEMMs).
double MambaScanFlopsPerToken(const ModelSpec& model);

// Query width used for attention FLOPs: heads·head_dim, or n_h·(d_qk + d_v)/2 for MLA
// (Megatron's MLA FLOP count).
double AttentionWidth(const ModelSpec& model);

}  // namespace engine
