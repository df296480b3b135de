#include "time_model.h"

#include <algorithm>
#include <cmath>

#include "efficiency.h"
#include "format.h"
#include "framework_profile.h"
#include "memory_model.h"
#include "post_training.h"
#include "recompute.h"
#include "units.h"
#include "vision.h"

// [SECTION] index
// - links: bus bandwidths inside and between nodes
// - collectives: hierarchical ring time
// - one micro-batch on one pipeline stage
// - data-parallel traffic and its overlap
// - optimizer step, offload, dequantization
// - assembly and wall time

namespace engine {
namespace {

// bitsandbytes' NF4 dequantization (and the casts around its 4-bit matmul) runs at about a
// quarter of HBM bandwidth, not the 80% of fused elementwise kernels: LitGPT's resource
// tables (tutorials/resource-tables.md, 2023-10-20; 1×A100-40GB, bitsandbytes 0.41.1,
// micro-batch 1, no checkpointing) put QLoRA (nf4) over LoRA by 35 ms (StableLM 3B), 79 ms
// (Llama 2 7B) and 191 ms (Llama 2 13B) per step; 2 passes × 2.52 B over 2.54e9, 6.48e9
// and 12.7e9 linear weights is 12.8, 32.7 and 64 GB, i.e. 366, 414 and 335 GB/s:
// 22-27% of the 1,555 GB/s peak (model.md §6.3).
constexpr double kNf4DequantShare = 0.25;

// ---------------------------------------------------------------------------------------
// [SECTION] links

// NCCL all-reduce bus bandwidth reaches ~80% of NVLink's per-direction rate (nccl-tests on
// DGX A100: ~230 of 300 GB/s); PCIe-only cards reduce through host bridges at about half
// of x16 (no peer-to-peer on GeForce). Latencies from NCCL's own cost model for
// bandwidth-sized messages (src/graph/tuning.cc, ring algorithm, Simple protocol): 8.4 µs
// per collective plus 3.4 µs per ring step over NVLink.
constexpr double kNvlinkBusbwFraction = 0.80;
constexpr double kPcieBusbwFraction = 0.50;
constexpr double kCollectiveBaseLatencyS = 8.4e-6;
constexpr double kScaleUpLatencyS = 3.4e-6;

struct Links {
  double up_busbw = 0;    // bytes/s per GPU over the scale-up link (NVLink-class)
  int up_domain = 1;      // GPUs that link reaches; larger in-node groups fall back to PCIe
  double pcie_busbw = 0;  // bytes/s per GPU between peers over PCIe
  double out_busbw = 0;   // bytes/s per GPU between nodes (its share of the node's NICs)
  double out_latency = 0;
};

Links ResolveLinks(const Scenario& s, const GpuSpec& gpu, const FabricSpec& fabric) {
  Links l;
  const double per_direction = gpu.scale_up_bytes_per_s / 2;
  l.up_busbw = per_direction * (gpu.HasFastScaleUp() ? kNvlinkBusbwFraction : kPcieBusbwFraction);
  l.up_domain = gpu.scale_up_domain;
  l.pcie_busbw = gpu.pcie_bytes_per_s * kPcieBusbwFraction;
  const double node_bytes = s.parallel.node_gbps > 0 ? s.parallel.node_gbps * 1e9 / 8 : fabric.default_node_bytes_per_s;
  l.out_busbw = node_bytes / std::max(1, s.parallel.gpus_per_node) * fabric.busbw_fraction;
  l.out_latency = fabric.latency_s;
  return l;
}

// ---------------------------------------------------------------------------------------
// [SECTION] collectives

// Time for a ring collective over n ranks, `per_node` of them sharing a node, moving a
// buffer of `bytes` per rank. `factor` is 2 for all-reduce and 1 for reduce-scatter,
// all-gather and all-to-all (nccl-tests PERFORMANCE.md busbw factors). An all-to-all is
// taken hierarchical too, as DeepEP-style dispatch runs it (each token crosses the network
// once per destination node, then NVLink: DeepSeek-V3 report §3.2.2); a flat NCCL
// all-to-all would send (n − g)/n of the buffer over each GPU's NIC. Hierarchical
// (model.md §6.8): the intra-node stage runs over the scale-up link, the inter-node
// stage moves bytes/g per GPU over its NIC share; NCCL pipelines the two, so the slower
// stage dominates. Latency: a fixed start plus one α per ring step (Thakur et al. 2005).
double CollectiveTime(double bytes, double factor, int n, int per_node, const Links& links) {
  if (n <= 1 || bytes <= 0) return 0;
  const int g = std::max(1, std::min(n, per_node));
  const int nodes = (n + g - 1) / g;
  // A ring through more GPUs than the scale-up link joins runs at PCIe speed.
  const double intra_busbw = g <= links.up_domain ? links.up_busbw : std::min(links.up_busbw, links.pcie_busbw);
  const double intra = g > 1 ? factor * (g - 1.0) / g * bytes / intra_busbw : 0;
  const double inter = nodes > 1 ? factor * (nodes - 1.0) / nodes * (bytes / g) / links.out_busbw : 0;
  const double latency =
      kCollectiveBaseLatencyS + factor * ((g - 1) * kScaleUpLatencyS + (nodes - 1) * links.out_latency);
  return std::max(intra, inter) + latency;
}

// ---------------------------------------------------------------------------------------
// [SECTION] one micro-batch on one pipeline stage

// Bytes moved by elementwise kernels per token and layer, forward + backward [D]. Eager
// PyTorch runs each op as its own kernel: an RMSNorm (x.float(), pow, mean, rsqrt, two
// muls, cast) moves ~7 fp32 h-vectors in and out, ~56h B per norm forward; complex-valued
// RoPE on q and k ~40h; two residual adds ~12h; FlashAttention's own q/k/v/o traffic ~5h;
// the SwiGLU product ~10f. Forward ≈ 170h + 10f, backward about twice: ≈ 480h + 30f.
// Fused/compiled kernels keep each tensor in registers across the chain, ≈ 100h + 16f.
// torchtitan's compile gain on Llama 3.1 8B (+15.7%, 5,762 → 6,667 tok/s/GPU on H100) is
// the measured difference this reproduces.
// fp32 hidden states (QLoRA with fp32 norms; memory_model.cpp StageActivationsOf says why)
// move every such tensor at 4 B, and bitsandbytes casts each 4-bit layer's input to bf16
// and its output back: about twice the traffic. fms-acceleration's A100 table has QLoRA
// 14% slower than LoRA on one GPU, a gap that grows with the batch (R22, R23 vs R13).
double ElementwiseBytesPerTokenLayer(const ModelSpec& m, const Training& t) {
  const double f = m.IsMoe() ? m.moe.experts_per_token * double(m.moe.moe_ffn) : m.ffn;
  const double bytes = t.kernels == Kernels::kEager ? 480.0 * m.hidden + 30.0 * f : 100.0 * m.hidden + 16.0 * f;
  return t.Fp32HiddenStates() ? 2 * bytes : bytes;
}

// Without FlashAttention the attention core runs as separate kernels over the whole s×s
// score matrix (Megatron-LM's CoreAttention: baddbmm QKᵀ, fused scale-mask-softmax,
// dropout, bmm with V; Hugging Face's eager attention alike). The two batched GEMMs
// (K = head_dim, memory-bound) run at the capped attention rate (efficiency.cpp); the
// kernels between them read and write every score at 16 bits: forward, softmax 4 B and
// dropout 5 B (its 1-byte mask included); backward, dropout 5 B and softmax 6 B (output
// and gradient in, gradient out). A recomputed forward (full recomputation, or
// Megatron's selective core-attention recompute) moves its 9 B again. A token has
// heads × s scores per layer, causal or not (the masked half is computed, then masked).
// The GPT-3 175B runs of Narayanan et al. 2021 (A24, A25) are 5-7% slower than the
// engine without it (model.md §6.1, S_bytes).
double UnfusedAttentionBytesPerTokenLayer(const Scenario& s) {
  const Training& t = s.training;
  if (t.flash_attention) return 0;
  constexpr double kForwardBytesPerScore = 9, kBackwardBytesPerScore = 11;
  const double recomputed =
      std::min(1.0, RecomputedShare(t, s.model.layers) + (SelectiveOf(s).core_attn ? 1.0 : 0.0));
  const double bytes_per_score = kForwardBytesPerScore * (1 + recomputed) + kBackwardBytesPerScore;
  return double(s.model.heads) * t.seq_len * bytes_per_score;
}

// A MoE layer also permutes each token's k copies to their experts and back (Megatron's
// token dispatcher permute/unpermute, torchtitan's generate_permute_indices): read and
// write of k·h bf16 values, twice forward (dispatch, combine) and twice backward, so
// 16·k·h bytes per token and MoE layer.
double PermutationBytesPerTokenLayer(const ModelSpec& m) {
  return m.IsMoe() ? 16.0 * m.moe.experts_per_token * m.hidden : 0;
}

// A power limit below the GPU's rating throttles its clocks: the compute rates scale by
// (limit / rating)^power_exponent (calibration.cpp); HBM bandwidth does not.
double PowerClockFactor(const Scenario& s, const GpuSpec& gpu, const Calibration& calibration) {
  if (s.gpu_power_w <= 0 || gpu.tdp_w <= 0 || s.gpu_power_w >= gpu.tdp_w) return 1.0;
  return std::pow(s.gpu_power_w / gpu.tdp_w, calibration.power_exponent);
}

// Routed experts run grouped GEMMs of (tokens per expert) × (expert width): narrow in both
// dimensions for fine-grained MoE (Qwen3-30B-A3B: 768 wide, ~512 tokens per expert at 8k
// tokens), so each dimension gets GemmSizeFactor, and the grouped kernel its calibrated
// factor (calibration.cpp). The tokens a rank dispatches are its micro-batch's over CP,
// and under sequence parallelism its 1/tp slice, all-gathered again over the etp ranks
// that split each expert (Megatron-Core MoEAlltoAllTokenDispatcher; MoE parallel folding,
// arXiv 2504.14960 §3); each of the E experts gets k copies from the `ep` ranks, and is
// etp-split in width.
double ExpertGemmFactor(const Scenario& s, double tokens_per_rank, const Calibration& calibration) {
  const ModelSpec& m = s.model;
  const Parallelism& p = s.parallel;
  const int etp = p.ExpertTensorParallel();
  const double dispatched = p.sequence_parallel ? tokens_per_rank / p.tp * etp : tokens_per_rank;
  const double tokens_per_expert = dispatched * m.moe.experts_per_token * p.ep / m.moe.experts;
  return GemmSizeFactor(double(m.moe.moe_ffn) / etp) * GemmSizeFactor(tokens_per_expert) *
         calibration.expert_gemm_factor;
}

// Causal attention: FlashAttention skips the blocks above the diagonal, so the kernels
// execute about half the "full" attention FLOPs that the MFU convention counts (PaLM
// App. B counts them all; current Megatron counts half, model.md §5.2).
constexpr double kCausalAttentionShare = 0.5;

constexpr double kTpOverlapExposed = 0.2;

struct MicroBatch {
  double compute_s = 0;
  double tp_s = 0;
  double other_s = 0;  // EP and CP exposed, MoE host syncs, QLoRA dequantization
};

MicroBatch MicroBatchTime(const Scenario& s, const ParamCounts& c, const FlopsPerToken& f, const GpuSpec& gpu,
                          const Links& links, const Calibration& calibration) {
  const ModelSpec& m = s.model;
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  const double tokens = double(t.seq_len) * t.micro_batch;
  // This GPU's part of the work: the fullest pipeline stage's layers, over TP and CP.
  const double stage_share = StageLayerShare(p, m.layers);
  const double share = stage_share / (double(p.tp) * p.cp);
  const Efficiency eff = BaseEfficiency(gpu, t, calibration);
  const double clocks = PowerClockFactor(s, gpu, calibration);
  // Low-precision recipes keep some GEMMs in BF16: the LM head (Megatron's output layer is
  // not a Transformer Engine module; torchao's float8 skips `output`) and the bf16_layers
  // kept for stability, whose GEMM time per FLOP is the layer-weighted mean of the two
  // rates' inverses.
  const double shape = DenseGemmShapeFactor(m, p.tp);
  double gemm_peak = PeakFlops(gpu, t.precision) * clocks * eff.gemm;  // before the GEMM's shape
  double head_rate = gemm_peak * shape;
  if (IsLowPrecisionGemm(t.precision)) {
    const double bf16_peak = PeakFlops(gpu, Precision::kBf16) * clocks * eff.gemm_bf16;
    const double low_share = t.LowPrecisionLayerShare(m.layers);
    gemm_peak = 1.0 / (low_share / gemm_peak + (1 - low_share) / bf16_peak);
    head_rate = bf16_peak * shape;
  }
  const double gemm_rate = gemm_peak * shape;
  const double expert_rate = m.IsMoe() ? gemm_peak * ExpertGemmFactor(s, tokens / p.cp, calibration) : gemm_rate;
  const double attention_rate = gpu.bf16_flops * clocks * eff.attention;
  const double memory_rate = gpu.memory_bandwidth_bytes_per_s * eff.memory;
  MicroBatch mb;
  // Without FlashAttention the full s×s scores are computed and then masked.
  const double attention_share = t.flash_attention ? kCausalAttentionShare : 1.0;
  mb.compute_s = tokens * share *
                 ((f.gemm - f.expert_gemm - f.head_gemm) / gemm_rate + f.head_gemm / head_rate +
                  f.expert_gemm / expert_rate +
                  attention_share * f.attention / attention_rate);
  // A vision tower runs before the first stage's layers, split over TP: its GEMMs at the
  // BF16 rate of a model of its width, its attention within each image (not causal: the
  // whole score matrix) at the attention rate.
  if (f.vision > 0) {
    const double vision_rate = PeakFlops(gpu, Precision::kBf16) * clocks * eff.gemm_bf16 *
                               DenseGemmShapeFactor(VisionAsTransformer(m.vision), p.tp);
    mb.compute_s += tokens / p.tp * ((f.vision - f.vision_attention) / vision_rate + f.vision_attention / attention_rate);
  }
  const double moe_layers = m.MoeLayers();
  mb.compute_s += tokens * share *
                  (m.layers * (ElementwiseBytesPerTokenLayer(m, t) + UnfusedAttentionBytesPerTokenLayer(s)) +
                   moe_layers * PermutationBytesPerTokenLayer(m)) /
                  memory_rate;
  // Softmax/cross-entropy over the logits (~16 B per vocabulary entry and token, fwd +
  // bwd) on the last stage, which sets the pipeline's pace.
  mb.compute_s += tokens / (double(p.tp) * p.cp) * 16.0 * m.vocab / memory_rate;
  // Time the GPU idles between kernels: launch gaps, Python and framework hooks,
  // allocator and synchronization points, stragglers (calibration.cpp).
  mb.compute_s *= 1 + calibration.launch_overhead_fraction;
  const double layers = m.layers * stage_share;
  const double tokens_per_rank = tokens / p.cp;
  if (p.tp > 1) {
    // Megatron: 4 all-reduces of s·b·h per layer (2 forward, 2 backward), 6 with full
    // recompute (Shoeybi et al. 2019 Fig. 4; model.md §6.5); SP keeps the volume. Half
    // belong to attention, half to the MLP. A MoE layer's routed experts have none: their
    // tokens move by the EP dispatch below (with its etp all-gather), so only shared
    // experts, tensor-parallel like a dense MLP, keep the MLP's pair.
    const double per_block = 2 + RecomputedShare(t, m.layers);
    const double routed_only_layers = m.moe.SharedWidth() > 0 ? 0 : moe_layers * stage_share;
    const double bytes = tokens_per_rank * m.hidden * 2;
    const double collective_s = CollectiveTime(bytes, 2, p.tp, p.gpus_per_node, links);
    const double mlp_blocks = layers - routed_only_layers;
    mb.tp_s = (layers + mlp_blocks) * per_block * collective_s;
    // Overlap splits each GEMM and its collective into chunks that run concurrently
    // (Transformer Engine userbuffers; torchtitan AsyncTP measured +5.7% on 70B); the
    // first and last chunks stay exposed, ~20% [A].
    if (p.tp_comm_overlap) {
      mb.tp_s *= kTpOverlapExposed;
    } else if (RunsMegatronCore(p.framework)) {
      // Megatron-Core's column-parallel linears start their input gradient's all-reduce
      // (reduce-scatter under SP) asynchronously and compute the weight gradient meanwhile
      // (tensor_parallel/layers.py LinearWithGradAccumulationAndAsyncCommunication), so
      // each block's backward collective hides behind its QKV or MLP-up weight gradient.
      const double f = moe_layers > 0 ? m.moe.SharedWidth() : double(m.ffn);
      const double up_width = (m.mlp == MlpKind::kGated ? 2 : 1) * f;
      const double qkv_width = m.QueryWidth() + 2.0 * m.KvWidth();
      const double wgrad_s_per_width = tokens_per_rank * 2.0 * m.hidden / p.tp / gemm_rate;
      mb.tp_s -= layers * std::min(collective_s, qkv_width * wgrad_s_per_width) +
                 mlp_blocks * std::min(collective_s, up_width * wgrad_s_per_width);
    }
  }
  const int ranks_per_node = std::max(1, p.gpus_per_node / p.tp);
  if (p.ep > 1 && m.IsMoe()) {
    // Dispatch and combine all-to-alls, forward and backward, and forward again in the
    // recomputed layers (model.md §6.7). The EP group's ranks sit etp apart (consecutive
    // when experts are not split). Under sequence parallelism each tensor-parallel rank
    // holds s/t of the tokens and dispatches only those; with experts split over etp > 1
    // ranks, the dispatched tokens are then all-gathered over those ranks and
    // reduce-scattered on combine (Megatron-Core MoEAlltoAllTokenDispatcher; MoE parallel
    // folding, arXiv 2504.14960 §3). The all-to-all is hierarchical (CollectiveTime).
    const double stage_moe_layers = moe_layers * stage_share;  // the fullest stage, as the compute
    const int etp = p.ExpertTensorParallel();
    const int ep_ranks_per_node = std::max(1, p.gpus_per_node / etp);
    const double sequence_split = p.sequence_parallel ? p.tp : 1;
    const double bytes = tokens_per_rank / sequence_split * m.moe.experts_per_token * m.hidden * 2;
    const double passes = stage_moe_layers * (4 + 2 * RecomputedShare(t, m.layers));
    mb.other_s += passes * CollectiveTime(bytes, 1, p.ep, ep_ranks_per_node, links);
    if (etp > 1 && p.sequence_parallel) {
      mb.other_s += passes * CollectiveTime(bytes * etp, 1, etp, std::min(etp, p.gpus_per_node), links);
    }
  }
  if (m.IsMoe() && gpu.architecture != GpuArchitecture::kTpu && p.framework != Framework::kMaxtext) {
    // Each MoE layer's forward copies its tokens-per-expert counts to the host before it
    // can size the dispatch (Megatron-Core's token dispatchers, torchtitan's all-to-all
    // splits, the Hugging Face experts loop): the GPU drains, then idles while the CPU
    // launches the rest of the layer; it keeps CUDA graphs off those layers (Megatron-LM
    // deepseek-v3-gb200-optimization §3.1, 2025). A fixed time per MoE layer and forward
    // pass, calibrated (calibration.cpp). XLA on TPUs compiles the step with static
    // shapes (capacity or padded ragged GEMMs) and never syncs; so does MaxText's XLA on GPUs.
    mb.other_s += moe_layers * stage_share * (1 + RecomputedShare(t, m.layers)) * calibration.moe_sync_s;
  }
  if (p.cp > 1) {
    // All-gather of K and V forward, reduce-scatter of their gradients backward (Llama 3
    // §3.3.2); half assumed hidden behind attention compute.
    const double bytes = tokens * 2.0 * m.KvWidth() * 2;
    mb.other_s += 0.5 * layers * 2 * CollectiveTime(bytes, 1, p.cp, ranks_per_node, links);
  }
  if (t.method == Method::kQlora || m.IsQuantizedCheckpoint()) {
    // NF4 weights are dequantized to bf16 for every GEMM pass: ≈ 0.52 B read + 2 B
    // written per weight, forward + backward (+ recomputed forward) (model.md §6.3). A
    // GPTQ/AWQ/FP8 checkpoint is dequantized the same way from its stored width.
    const double moved_bytes = m.IsQuantizedCheckpoint() ? m.stored_weight_bytes + 2 : 2.52;
    const double passes = 2 + RecomputedShare(t, m.layers);
    const double rate = m.IsQuantizedCheckpoint() ? memory_rate : gpu.memory_bandwidth_bytes_per_s * kNf4DequantShare;
    mb.other_s += c.linear / (p.tp * p.pp) * moved_bytes * passes / rate;
  }
  return mb;
}

// ---------------------------------------------------------------------------------------
// [SECTION] data-parallel traffic

double TrainableOnGpu(const Scenario& s, const ParamCounts& c, double trainable) {
  const Parallelism& p = s.parallel;
  const bool full = s.training.method == Method::kPretrain || s.training.method == Method::kFull;
  const double expert = full ? c.expert : 0;
  return (trainable - expert) / (double(p.tp) * p.pp) + expert / (double(p.ExpertTensorParallel()) * p.pp * p.ep);
}

// Data-parallel traffic not hidden behind backward compute: calibration.dp_overlap of it
// is (bucketed reduce-scatter during backward, prefetched all-gathers). `frozen_bytes`:
// the frozen weights on this GPU at their stored width, which ZeRO-3 / FSDP shards and
// gathers with the trained ones but never reduces (FSDP flattens every parameter of a
// unit; LoRA's frozen base and QLoRA's 4-bit storage with it).
double DataParallelExposed(const Scenario& s, double local_params, double frozen_bytes, double mb_compute_s,
                           int micro_batches, const Links& links, const Calibration& calibration) {
  const double overlap = calibration.dp_overlap;
  const Parallelism& p = s.parallel;
  const int dp = p.DataParallel();
  if (dp <= 1) return 0;
  const int per_node = std::max(1, std::min(dp, p.gpus_per_node / (p.tp * p.cp)));
  // Gradients are reduced in fp32 by FSDP (torchtitan mixed_precision_reduce) and Megatron
  // (fp32 main grads), in bf16 by DeepSpeed; parameters are gathered in bf16.
  const double grad_bytes = local_params * (IsDeepSpeedLayout(p) ? 2 : 4);
  const double param_bytes = local_params * 2;
  const double backward_s = mb_compute_s * 2.0 / 3.0;
  if (p.zero == 3) {
    // All-gather for forward, again for backward, reduce-scatter of gradients, on every
    // micro-batch (ZeRO §7: 1.5× DP volume); overlapped with all of the compute.
    const double per_mb = 2 * CollectiveTime(param_bytes + frozen_bytes, 1, dp, per_node, links) +
                          CollectiveTime(grad_bytes, 1, dp, per_node, links);
    return std::max(0.0, micro_batches * (per_mb - overlap * mb_compute_s));
  }
  if (p.zero == 2 && IsDeepSpeedLayout(p)) {
    // DeepSpeed ZeRO-2 reduces gradients on every micro-batch (engine.py allreduce_gradients).
    const double reduce = CollectiveTime(grad_bytes, 1, dp, per_node, links);
    return micro_batches * std::max(0.0, reduce - overlap * backward_s) +
           CollectiveTime(param_bytes, 1, dp, per_node, links);
  }
  // DDP: one all-reduce at the accumulation boundary, hidden behind the last
  // micro-batch's backward.
  if (p.zero == 0) return std::max(0.0, CollectiveTime(grad_bytes, 2, dp, per_node, links) - overlap * backward_s);
  // ZeRO-1/2, Megatron distributed optimizer: the gradients' reduce-scatter hides behind
  // the last micro-batch's backward; the updated parameters' all-gather behind the next
  // step's first forward where the framework prefetches it (Megatron
  // --overlap-param-gather, FSDP SHARD_GRAD_OP's forward prefetch), while DeepSpeed
  // gathers them after the optimizer step, exposed.
  const double reduce = CollectiveTime(grad_bytes, 1, dp, per_node, links);
  const double gather = CollectiveTime(param_bytes, 1, dp, per_node, links);
  const double forward_s = mb_compute_s - backward_s;
  const double gather_exposed =
      IsDeepSpeedLayout(p) ? gather : std::max(0.0, gather - overlap * forward_s);
  return std::max(0.0, reduce - overlap * backward_s) + gather_exposed;
}

// ---------------------------------------------------------------------------------------
// [SECTION] optimizer step, offload

// CPU-side optimizer (ZeRO-Offload, Ren et al. 2021): DeepSpeed's vectorized CPU Adam is
// memory-bandwidth bound; a two-socket host (~200-300 GB/s) shared by 8 GPUs gives each
// ~25 GB/s. Host-device copies run at a practical ~20 GB/s per PCIe Gen4 x16 link [A].
constexpr double kHostOptimizerBytesPerS = 25e9;
constexpr double kPcieBytesPerS = 20e9;

// Memory traffic of one AdamW step per parameter (model.md §6.3). Fused (one kernel):
// read gradient, master, m, v and write master, m, v and the bf16 weight, ≈ 30 B with an
// fp32 master, ~16 B in pure bf16. torch's foreach AdamW (torch/optim/adam.py
// _multi_tensor_adam) runs one pass per operation: decoupled weight decay (read, write),
// lerp of m (3), scale of v (2), addcmul into v (3), sqrt of v into a new list (2),
// division by the bias correction (2), + eps (2), addcdiv into the weights (4): 20
// tensor passes, plus gradient clipping's norm and scale (3), in the states' dtype.
double OptimizerStepBytesPerParam(const Training& t) {
  const bool pure = t.precision == Precision::kBf16Pure;
  if (t.fused_optimizer || t.optimizer != Optimizer::kAdamW) return pure ? 16 : 30;
  constexpr double kForeachPasses = 20 + 3;
  return kForeachPasses * (pure ? 2 : 4);
}

double OptimizerAndOffload(const Scenario& s, double local_params, int micro_batches, const GpuSpec& gpu) {
  const Parallelism& p = s.parallel;
  const double sharded = p.zero >= 1 ? local_params / std::max(1, p.DataParallel()) : local_params;
  const double bytes_per_param = OptimizerStepBytesPerParam(s.training);
  if (p.offload == Offload::kNone) {
    return sharded * bytes_per_param / (gpu.memory_bandwidth_bytes_per_s * 0.8);
  }
  double t = sharded * bytes_per_param / kHostOptimizerBytesPerS + sharded * 4 / kPcieBytesPerS;
  if (p.offload == Offload::kOptimizerAndParams) {
    // Weights stream in for forward and backward of every micro-batch; half hidden.
    t += 0.5 * micro_batches * 2 * local_params * 2 / kPcieBytesPerS;
  }
  return t;
}

// Activation offload copies each micro-batch's stored activations to the host during
// forward and back during backward, over the GPU's PCIe link in each direction; the
// copies overlap the compute (streams, as torchtune and Transformer Engine run them), so
// only what a pass cannot hide is exposed.
double ActivationOffloadExposed(const Scenario& s, double mb_compute_s, int micro_batches) {
  if (!s.training.activation_offload) return 0;
  const double copy_s = StoredActivationBytesPerMicroBatch(s) / kPcieBytesPerS;
  const double forward_s = mb_compute_s / 3, backward_s = mb_compute_s - forward_s;
  return micro_batches * (std::max(0.0, copy_s - forward_s) + std::max(0.0, copy_s - backward_s));
}

// Pipeline point-to-point: each micro-batch sends its activations s·b·h·2 B forward and
// their gradients back across every stage boundary; with sequence parallelism each TP
// rank sends its 1/t slice over its own NIC (Narayanan et al. 2021 §4.1 scatter/gather).
// Interleaving multiplies the boundaries: a rank holds v chunks and each passes its
// output on, so every micro-batch crosses v·p − 1 of them (Megatron-Core
// schedules.py forward_backward_pipelining_with_interleaving: a send and a receive per
// chunk and micro-batch). Pipeline parallelism is the outermost mesh dimension
// (Megatron's rank order tp-cp-ep-dp-pp, torchtitan's pp first, DeepSpeed's pipe first),
// so neighbouring stages are gpus/pp ranks apart and sit on different nodes as soon as
// one stage's ranks fill a node. Sends are asynchronous, so about half is hidden in
// steady state [A]; fill and drain are exposed.
double PipelineP2P(const Scenario& s, int micro_batches, const Links& links) {
  const Parallelism& p = s.parallel;
  if (p.pp <= 1) return 0;
  const double bytes = double(s.training.seq_len) / p.cp * s.training.micro_batch * s.model.hidden * 2 / p.tp;
  const bool crosses_nodes = p.gpus / p.pp >= p.gpus_per_node;
  const double bandwidth = crosses_nodes ? links.out_busbw : links.up_busbw;
  const double one_transfer = bytes / bandwidth + links.out_latency;
  return 2 * one_transfer * (0.5 * micro_batches * p.virtual_pipeline + (p.pp - 1.0));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] assembly

namespace {

Throughput PlainThroughput(const Scenario& input, const ParamCounts& c, const GpuSpec& gpu, const FabricSpec& fabric,
                           bool explain, const Calibration& calibration) {
  // Tokens are the language model's (text and media); the FLOPs count the tower too.
  const LanguageModelView view(input);
  const Scenario& s = view.get();
  const Parallelism& p = s.parallel;
  const Training& t = s.training;
  Throughput r;
  r.flops_per_token = TrainingFlopsPerToken(input, c);
  r.global_batch = GlobalBatch(t, p);
  r.micro_batches_per_step = MicroBatchesPerStep(t, p);
  r.global_batch_default = t.global_batch <= 0;
  r.tokens_per_step = double(r.global_batch) * t.seq_len;
  const double peak_total = double(p.gpus) * gpu.bf16_flops;
  if (t.mfu > 0) {
    r.mfu_overridden = true;
    r.step_time_s = r.tokens_per_step * r.flops_per_token.model / (peak_total * t.mfu);
    r.breakdown.compute_s = r.step_time_s;
    if (explain) r.explain = MakeMessage("time.step.formula.mfu", {NumberArg("mfu", t.mfu)});
  } else {
    const Links links = ResolveLinks(s, gpu, fabric);
    r.scale_up_busbw_bytes_per_s = links.up_busbw;
    r.scale_out_busbw_bytes_per_s = links.out_busbw;
    const MicroBatch mb = MicroBatchTime(s, c, r.flops_per_token, gpu, links, calibration);
    const int m = MicroBatchesPerStep(t, p);
    const double local = TrainableOnGpu(s, c, TrainableParams(s.model, c, t));
    const double per_mb = mb.compute_s + mb.tp_s + mb.other_s;
    r.breakdown.compute_s = m * mb.compute_s;
    r.breakdown.tp_comm_s = m * mb.tp_s;
    // 1F1B: (p − 1) micro-batch slots of fill and drain, /v when interleaved (Narayanan
    // et al. 2021 §2.2).
    r.breakdown.pp_bubble_s = (p.pp - 1.0) / p.virtual_pipeline * per_mb;
    r.breakdown.dp_comm_s =
        DataParallelExposed(s, local, FrozenWeightBytesOnGpu(s, c), mb.compute_s, m, links, calibration);
    r.breakdown.other_s = m * mb.other_s + OptimizerAndOffload(s, local, m, gpu) + PipelineP2P(s, m, links) +
                          ActivationOffloadExposed(s, mb.compute_s, m);
    const StepBreakdown& b = r.breakdown;
    r.step_time_s = b.compute_s + b.tp_comm_s + b.dp_comm_s + b.pp_bubble_s + b.other_s;
    if (explain) {
      r.explain = MakeMessage(m == 1 ? "time.step.formula.one_micro_batch" : "time.step.formula",
                              {NumberArg("micro_batches", m), NumberArg("micro_batch_ms", per_mb * 1e3)});
    }
  }
  r.tokens_per_s = r.tokens_per_step / r.step_time_s;
  r.tokens_per_s_per_gpu = r.tokens_per_s / p.gpus;
  r.mfu = r.tokens_per_s * r.flops_per_token.model / peak_total;
  r.hfu = r.tokens_per_s * r.flops_per_token.hardware / peak_total;
  return r;
}

// Post-training: the policy's update timed as a plain training step, and the phases
// around it (post_training.h). The step's rates count the update's tokens over the whole
// step, so MFU is the update's model FLOPs over the GPUs' time, generation included.
Throughput PostTrainingThroughput(const Scenario& s, const ParamCounts& c, const GpuSpec& gpu, const FabricSpec& fabric,
                                  bool explain, const Calibration& calibration) {
  const Scenario update = PolicyUpdateScenario(s);
  Throughput r = PlainThroughput(update, c, gpu, fabric, explain, calibration);
  double critic_step_s = 0;
  if (s.training.post.kind == PostTraining::kPpo) {
    Scenario critic = update;
    critic.model = CriticModel(s);
    critic_step_s = PlainThroughput(critic, CountParams(critic.model), gpu, fabric, false, calibration).step_time_s;
  }
  const MemoryBreakdown memory = EstimateMemory(s, c, /*explain=*/false, calibration, gpu.memory_bytes);
  const double hardware_rate = r.tokens_per_s * r.flops_per_token.hardware;
  r.post = EstimatePostTrainingStep(s, c, gpu, fabric, memory.post, r.step_time_s, hardware_rate, critic_step_s, calibration);
  // The update's parts run once per pass (ppo_epochs); the rest of the step is rollout's.
  const double passes = r.step_time_s > 0 ? r.post.policy_update_s / r.step_time_s : 1;
  for (double* part : {&r.breakdown.compute_s, &r.breakdown.tp_comm_s, &r.breakdown.dp_comm_s,
                       &r.breakdown.pp_bubble_s, &r.breakdown.other_s}) {
    *part *= passes;
  }
  r.breakdown.rollout_s = r.post.total_s - r.post.policy_update_s;
  r.step_time_s = r.post.total_s;
  r.tokens_per_s = r.tokens_per_step / r.step_time_s;
  r.tokens_per_s_per_gpu = r.tokens_per_s / s.parallel.gpus;
  const double peak_total = double(s.parallel.gpus) * gpu.bf16_flops;
  r.mfu = passes * r.tokens_per_s * r.flops_per_token.model / peak_total;
  r.hfu = passes * r.tokens_per_s * r.flops_per_token.hardware / peak_total;
  return r;
}

}  // namespace

Throughput EstimateThroughput(const Scenario& s, const ParamCounts& c, const GpuSpec& gpu, const FabricSpec& fabric,
                              bool explain, const Calibration& calibration) {
  if (s.training.post.kind != PostTraining::kNone) return PostTrainingThroughput(s, c, gpu, fabric, explain, calibration);
  return PlainThroughput(s, c, gpu, fabric, explain, calibration);
}

TrainingTime TimeForTokens(double tokens, const Throughput& th, int gpus) {
  TrainingTime time;
  time.tokens = tokens;
  if (tokens <= 0) return time;
  time.steps = std::ceil(tokens / th.tokens_per_step);
  time.wall_hours = time.steps * th.step_time_s / kSecondsPerHour;
  time.gpu_hours = time.wall_hours * gpus;
  return time;
}

TrainingTime EstimateTime(const Scenario& s, const Throughput& th) {
  return TimeForTokens(TrainingTokens(s.training), th, s.parallel.gpus);
}

}  // namespace engine
