#include "memory_model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "format.h"
#include "framework_profile.h"
#include "post_training.h"
#include "recompute.h"
#include "vision.h"
#include "units.h"

// [SECTION] index
// - bytes per parameter (precision recipe × optimizer)
// - trainable parameters per method
// - parameters held by one GPU (TP/PP/EP division)
// - model states with ZeRO sharding and offload
// - activations per layer and per stage
// - logits, overheads, stage assembly

namespace engine {
namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] bytes per parameter

// Bytes per trainable parameter, split as the ZeRO paper does (Rajbhandari et al. 2020,
// SC20, arXiv:1910.02054, §3.1: mixed-precision Adam keeps 2 B fp16 weights, 2 B fp16 grads
// and K = 12 B of fp32 master weights + momentum + variance).
struct StateBytes {
  double weight = 0;
  double grad = 0;
  double master = 0;  // fp32 master copy kept by the optimizer in mixed precision
  double optim = 0;   // optimizer moments
};

// Optimizer moments per parameter. AdamW: two fp32 moments (8 B). bitsandbytes 8-bit
// AdamW: two uint8 states + one fp32 absmax per 256-element block each (bnb
// optim/optimizer.py; Dettmers et al. 2021) = 2 + 8/256 B. SGD with momentum: one fp32
// buffer (HF "Model training anatomy"). Adafactor without momentum keeps factored row and
// column statistics (Shazeer & Stern 2018 §3): 4·(rows + cols) B per rows×cols matrix,
// about 8/hidden B per parameter for square-ish matrices.
double OptimizerBytesPerParam(Optimizer optimizer, int hidden) {
  switch (optimizer) {
    case Optimizer::kAdamW: return 8.0;
    case Optimizer::kAdamW8bit: return 2.0 + 8.0 / 256.0;
    case Optimizer::kSgd: return 4.0;
    case Optimizer::kAdafactor: return 8.0 / std::max(hidden, 1);
  }
  return 8.0;
}

StateBytes TrainableStateBytes(const Training& t, StateLayout layout, const ModelSpec& m) {
  const int hidden = m.hidden;
  StateBytes b;
  b.optim = OptimizerBytesPerParam(t.optimizer, hidden);
  if (TrainsAdapters(t.method) && t.precision != Precision::kBf16Pure) {
    // PEFT upcasts adapter weights to fp32 (autocast_adapter_dtype=True since PEFT 0.12),
    // so adapters train in fp32 with fp32 grads and no separate master copy. Pure-bf16
    // recipes (torchtune, LitGPT bf16-true, the QLoRA reference code) keep them in bf16.
    b.weight = 4;
    b.grad = 4;
    return b;
  }
  switch (t.precision) {
    case Precision::kFp32: b.weight = 4; b.grad = 4; break;
    case Precision::kBf16:
    case Precision::kFp16: b.weight = 2; b.grad = 2; b.master = 4; break;
    // Transformer Engine keeps the bf16 weights and adds an FP8 copy of each GEMM
    // weight (TE docs, low_precision_training/performance_considerations): +1 B.
    case Precision::kFp8: b.weight = 2 + 1; b.grad = 2; b.master = 4; break;
    // Block-scaled GEMMs read each weight quantized along rows (forward) and columns
    // (backward), so two low-precision copies with their scales sit beside the bf16
    // weights: MXFP8 2 × (1 + 1/32) B, NVFP4 2 × (0.5 + 1/16) B (Transformer Engine
    // MXFP8BlockScaling / NVFP4BlockScaling recipes; OCP MX v1.0 block of 32; NVFP4 block
    // of 16 with an FP8 scale).
    case Precision::kMxfp8: b.weight = 2 + 2 * (1 + 1.0 / 32); b.grad = 2; b.master = 4; break;
    case Precision::kNvfp4: b.weight = 2 + 2 * (0.5 + 1.0 / 16); b.grad = 2; b.master = 4; break;
    // No master copy, and the optimizer moments take the parameters' bf16 dtype
    // (torch.optim keeps state in the parameter dtype); 8-bit state stays 8-bit.
    case Precision::kBf16Pure:
      b.weight = 2;
      b.grad = 2;
      if (t.optimizer != Optimizer::kAdamW8bit) b.optim /= 2;
      break;
  }
  // Layers kept in BF16 (bf16_layers) carry no low-precision copies.
  if (IsLowPrecisionGemm(t.precision)) b.weight = 2 + (b.weight - 2) * t.LowPrecisionLayerShare(m.layers);
  if (b.master > 0 && layout == StateLayout::kMegatron) b.grad = 4;  // fp32 main grads
  if (b.master > 0 && layout == StateLayout::kDeepSpeed) b.master += 4;  // fp32 grad partition
  return b;
}

// Bytes per frozen parameter: the training precision's weight width; fp8 keeps bf16
// masters, fp32 keeps fp32.
double FrozenWeightBytes(Precision p) { return p == Precision::kFp32 ? 4.0 : 2.0; }  // fp8 keeps bf16

// QLoRA NF4 with double quantization: 4 bits + 8-bit block scales per 64 weights + one
// fp32 second-level scale per 256 blocks = 4 + 8/64 + 32/(64·256) bits = 0.516 B/param
// (Dettmers et al. 2023 §3; bitsandbytes functional.quantize_4bit blocksize 64).
constexpr double kNf4DoubleQuantBytes = (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;

// ---------------------------------------------------------------------------------------
// [SECTION] trainable parameters

// LoRA adds B·A with A ∈ R^{r×d_in}, B ∈ R^{d_out×r}: r·(d_in + d_out) per adapted matrix
// (Hu et al. 2021 §4). Attention targets = q,k,v,o; all-linear adds the MLP matrices
// (for MoE, every expert's matrices, as PEFT's all-linear does).
double LoraParams(const ModelSpec& m, const Training& t) {
  const double r = t.lora_rank, h = m.hidden, hq = m.QueryWidth(), hkv = m.KvWidth();
  double per_layer = r * (h + hq) + 2 * r * (h + hkv) + r * (hq + h);
  if (t.lora_targets == LoraTargets::kQv) per_layer = r * (h + hq) + r * (h + hkv);
  if (m.attention == AttentionKind::kMla) {
    const double q = m.heads * double(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    per_layer = r * (h + q) + r * (h + m.mla.kv_lora_rank) + r * (m.heads * double(m.mla.v_head_dim) + h);
  }
  double total = per_layer * m.layers;
  if (t.lora_targets == LoraTargets::kAllLinear) {
    const double mats = m.mlp == MlpKind::kGated ? 3 : 2;
    const int moe_layers = m.MoeLayers();
    const double dense_mlp = mats * r * (h + m.ffn);
    const double expert_mlp = mats * r * (h + m.moe.moe_ffn);
    const double experts = m.moe.experts + m.moe.shared_experts;
    total += (m.layers - moe_layers) * dense_mlp + moe_layers * experts * expert_mlp;
  }
  return total;
}

}  // namespace

bool TrainsEmbeddingCopy(const Training& t) {
  return TrainsAdapters(t.method) &&
         (t.lora_modules_to_save == SavedModules::kEmbeddings || t.lora_modules_to_save == SavedModules::kEmbeddingsAndHead);
}

bool TrainsHeadCopy(const Training& t) {
  return TrainsAdapters(t.method) &&
         (t.lora_modules_to_save == SavedModules::kHead || t.lora_modules_to_save == SavedModules::kEmbeddingsAndHead);
}

// PEFT's ModulesToSaveWrapper trains a deep copy of each listed module: a vocab × hidden
// table for the embeddings and for the head, also when the two are tied (the copy is
// not tied to anything).
double SavedModuleParams(const ModelSpec& m, const Training& t) {
  const double table = double(m.vocab) * m.hidden;
  return table * (double(TrainsEmbeddingCopy(t)) + double(TrainsHeadCopy(t)));
}

double LanguageTrainableParams(const ModelSpec& m, const ParamCounts& c, const Training& t) {
  if (t.media.freeze_llm) return 0;
  switch (t.method) {
    case Method::kPretrain:
    case Method::kFull: return c.total - c.vision_tower - c.vision_projector;
    case Method::kFreeze: {
      const int n = std::clamp(t.freeze_trainable_layers, 0, m.layers);
      return (c.transformer - m.hidden) * n / m.layers;
    }
    case Method::kLora:
    case Method::kQlora: return LoraParams(m, t) + SavedModuleParams(m, t);
  }
  return c.total;
}

double TrainableParams(const ModelSpec& m, const ParamCounts& c, const Training& t) {
  return LanguageTrainableParams(m, c, t) + VisionTrainableParams(m, c, t);
}

namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] parameters on one GPU

// The pipeline stages whose memory can peak: the first holds the embedding and the most
// micro-batches in flight, the middle one (the second stage, the fullest in flight after
// the first) matters when the first takes fewer layers, the last holds the head and logits.
enum class Stage { kOnly, kFirst, kMiddle, kLast };

// The share of the model's decoder layers on `stage` (StageLayersOf); kOnly stands for
// the fullest stage when a caller does not say which.
double LayerShareOn(const Scenario& s, Stage stage) {
  const int layers = s.model.layers;
  if (stage == Stage::kOnly || layers <= 0) return StageLayerShare(s.parallel, layers);
  const StageLayers on = StageLayersOf(s.parallel, layers);
  const int count = stage == Stage::kFirst ? on.first : stage == Stage::kMiddle ? on.middle : on.last;
  return double(count) / layers;
}

bool HoldsEmbedding(Stage stage) { return stage == Stage::kOnly || stage == Stage::kFirst; }
bool HoldsHead(Stage stage) { return stage == Stage::kOnly || stage == Stage::kLast; }

// Parameters one GPU holds before any ZeRO sharding. Megatron's
// theoretical_memory_usage.py: layers split over p stages (the fullest stage's share) and
// t tensor ranks; the first
// stage adds the input embedding, the last stage the LM head (both /t); experts are
// further split over e expert-parallel ranks (Megatron MoE README).
struct LocalParams {
  double base = 0;       // model parameters on this GPU
  double linear = 0;     // the part inside linear layers (what QLoRA quantizes)
  double trainable = 0;  // parameters with gradients and optimizer state
  double frozen = 0;     // parameters with weights only
  double expert = 0;     // routed-expert parameters among `base`
};

LocalParams ParamsOnGpu(const Scenario& s, const ParamCounts& c, double trainable, Stage stage) {
  const Parallelism& p = s.parallel;
  const double tp = p.tp;
  const double layer_share = LayerShareOn(s, stage);  // 1/pp when the layers divide
  const double expert_ranks = double(p.ExpertTensorParallel()) * p.ep;
  const double layers_part = (c.transformer - c.expert) * layer_share / tp + c.expert * layer_share / expert_ranks;
  LocalParams l;
  l.base = layers_part;
  l.expert = c.expert * layer_share / expert_ranks;
  l.linear = c.linear / c.transformer * layers_part;
  if (HoldsEmbedding(stage)) l.base += c.embedding / tp;
  if (HoldsHead(stage)) l.base += c.lm_head / tp;
  const double vision_trained = VisionTrainableParams(s.model, c, s.training);
  const double language = trainable - vision_trained;
  switch (s.training.method) {
    case Method::kPretrain:
    case Method::kFull: l.trainable = language > 0 ? l.base : 0; break;
    case Method::kLora:
    case Method::kQlora: {
      if (language <= 0) break;
      // Adapters follow their layers; the trained embedding and head copies sit with the
      // originals on the first and last stage.
      const double table = double(s.model.vocab) * s.model.hidden / tp;
      const double adapters = language - SavedModuleParams(s.model, s.training);
      l.trainable = adapters * layer_share / tp;
      if (HoldsEmbedding(stage) && TrainsEmbeddingCopy(s.training)) l.trainable += table;
      if (HoldsHead(stage) && TrainsHeadCopy(s.training)) l.trainable += table;
      break;
    }
    // The trained top layers sit on the last pipeline stage.
    case Method::kFreeze: l.trainable = HoldsHead(stage) ? language / tp : 0; break;
  }
  l.frozen = TrainsAdapters(s.training.method) ? l.base : l.base - l.trainable;
  // A vision-language model's tower and projector run before the first layer, on the first
  // stage, split over the tensor-parallel ranks as Megatron's vision models are. Their
  // trained weights are part of them; LoRA adapters on the tower come on top.
  if (HoldsEmbedding(stage) && s.model.vision.present()) {
    const double held = (c.vision_tower + c.vision_projector) / tp;
    l.base += held;
    l.frozen += held - VisionTrainedWeights(c, s.training) / tp;
    l.trainable += vision_trained / tp;
  }
  return l;
}

// ---------------------------------------------------------------------------------------
// [SECTION] model states



// `formula` divided over the ZeRO data-parallel degree, when that state is sharded.
Message Sharded(Message formula, double dp, bool sharded) {
  if (!sharded || dp <= 1) return formula;
  return MakeMessage("memory.formula.zero_sharded", {MessageArgOf("formula", std::move(formula)), NumberArg("dp", dp)});
}

Message ToCpu(Message formula) { return MakeMessage("memory.formula.to_cpu", {MessageArgOf("formula", std::move(formula))}); }

// Only linear layers are quantized; embeddings, LM head and norms stay 16-bit
// (transformers integrations/bitsandbytes.py get_keys_to_not_convert; GPTQ and AWQ skip
// lm_head too). A checkpoint stored quantized is loaded as stored, also under qlora
// (transformers keeps a checkpoint's own quantization_config over a requested one).
// Stacks that prepare a 4-bit model with PEFT's prepare_model_for_kbit_training upcast
// those unquantized weights to fp32 (framework_profile.cpp).
double FrozenBytes(const Scenario& s, const LocalParams& l) {
  if (s.model.IsQuantizedCheckpoint()) return l.linear * s.model.stored_weight_bytes + (l.frozen - l.linear) * 2.0;
  if (s.training.method == Method::kQlora) {
    const double unquantized_bytes = ProfileOf(s.parallel.framework).qlora_fp32_unquantized ? 4.0 : 2.0;
    return l.linear * kNf4DoubleQuantBytes + (l.frozen - l.linear) * unquantized_bytes;
  }
  return l.frozen * FrozenWeightBytes(s.training.precision);
}

}  // namespace

double FrozenWeightBytesOnGpu(const Scenario& s, const ParamCounts& c) {
  const double trainable = TrainableParams(s.model, c, s.training);
  return FrozenBytes(s, ParamsOnGpu(s, c, trainable, s.parallel.pp > 1 ? Stage::kFirst : Stage::kOnly));
}

namespace {

// The data-parallel degree ZeRO shards over. Expert parameters are replicated only
// across the expert-data-parallel group tp·cp·dp/(etp·ep) (dp/ep when etp = tp) (Megatron compute_weight_and_optimizer_memory:
// expert optimizer state sharded over world/(ETP·EP·PP)), so their share is divided by
// dp/ep; the returned divisor is the average over dense and expert parameters.
double ZeroDivisor(const Parallelism& p, const LocalParams& l) {
  const double dp = std::max(1, p.DataParallel());
  if (l.expert <= 0 || l.base <= 0) return dp;
  const double expert_dp = std::max(1, p.ExpertDataParallel());
  if (expert_dp == dp) return dp;
  return l.base / ((l.base - l.expert) / dp + l.expert / expert_dp);
}

// The model states, in a breakdown the other terms are then filled into in place: the
// planner sizes every layout it tries, and moving the terms' messages around costs it time.
// Gradient communication buffers the data-parallel framework allocates beside the
// gradients themselves:
// - PyTorch DDP copies every gradient into its all-reduce buckets unless
//   gradient_as_bucket_view=True ("the saved memory size will be equal to the total
//   gradients size", torch.nn.parallel.DistributedDataParallel docs), which the HF
//   Trainer and Accelerate leave off: one more gradient-sized buffer.
// - DeepSpeed ZeRO-1/2 reduce gradients through an ipg bucket of reduce_bucket_size and
//   gather parameters through one of allgather_bucket_size elements, 5e8 each by default
//   (DeepSpeed config docs, zero_optimization), in the 16-bit training dtype.
// Megatron's DDP reduces in place in its contiguous gradient buffer; FSDP/ZeRO-3 buffers
// are the gathered units of Overhead().
void CommunicationBuckets(const Scenario& s, const LocalParams& l, const StateBytes& b, double dp,
                          OverheadParts& parts) {
  const Parallelism& p = s.parallel;
  if (dp <= 1 || l.trainable <= 0 || s.training.optimizer_in_backward) return;
  if (IsFsdpLayout(p) && p.zero == 0) {
    parts.bucket_bytes = l.trainable * b.grad;
  } else if (IsDeepSpeedLayout(p) && (p.zero == 1 || p.zero == 2)) {
    constexpr double kDeepSpeedBucketElements = 5e8;
    parts.bucket_bytes = 2 * std::min(kDeepSpeedBucketElements, l.trainable) * 2;
    parts.deepspeed_buckets = true;
  }
}

MemoryBreakdown ModelStates(const Scenario& s, const LocalParams& l, bool explain) {
  const Parallelism& p = s.parallel;
  const double dp = ZeroDivisor(p, l);
  const StateBytes b = TrainableStateBytes(s.training, LayoutOf(p), s.model);
  const bool shard_optim = p.zero >= 1, shard_grads = p.zero >= 2, shard_weights = p.zero >= 3;
  MemoryBreakdown st;
  const double weights = l.trainable * b.weight + FrozenBytes(s, l);
  st.weights.bytes = weights / (shard_weights ? dp : 1);
  if (explain) {
    std::vector<MessageArg> args = {NumberArg("trainable", l.trainable), NumberArg("trainable_bytes", b.weight)};
    if (l.frozen > 0) {
      args.push_back(NumberArg("frozen", l.frozen));
      args.push_back(NumberArg("frozen_bytes", FrozenBytes(s, l) / l.frozen));
    }
    st.weights.formula = Sharded(
        MakeMessage(l.frozen > 0 ? "memory.weights.formula.frozen" : "memory.weights.formula", std::move(args)), dp,
        shard_weights);
  }
  st.gradients.bytes = l.trainable * b.grad / (shard_grads ? dp : 1);
  if (explain) {
    st.gradients.formula = Sharded(MakeMessage("memory.gradients.formula", {NumberArg("trainable", l.trainable),
                                                                             NumberArg("grad_bytes", b.grad)}),
                                   dp, shard_grads);
  }
  CommunicationBuckets(s, l, b, dp, st.overhead_parts);
  if (s.training.optimizer_in_backward) {
    // Each parameter is stepped as soon as its gradient is accumulated and the gradient
    // freed (PyTorch register_post_accumulate_grad_hook; torchtune optimizer_in_bwd), so
    // at most the largest tensor's gradient lives at once: the V×h embedding or head.
    const double largest = std::min(l.trainable, double(s.model.vocab) * s.model.hidden / p.tp);
    st.gradients.bytes = largest * b.grad;
    if (explain) {
      st.gradients.formula = MakeMessage("memory.gradients.formula.optimizer_in_backward",
                                         {NumberArg("largest", largest), NumberArg("grad_bytes", b.grad)});
    }
  }
  st.optimizer.bytes = l.trainable * (b.master + b.optim) / (shard_optim ? dp : 1);
  if (explain) {
    // DeepSpeed keeps an fp32 gradient partition beside the master weights.
    const bool grad_partition = IsDeepSpeedLayout(p) && b.master > 0;
    st.optimizer.formula = Sharded(
        MakeMessage(grad_partition ? "memory.optimizer.formula.grad_partition" : "memory.optimizer.formula",
                    {NumberArg("trainable", l.trainable), NumberArg("master_bytes", b.master),
                     NumberArg("moment_bytes", b.optim)}),
        dp, shard_optim);
    st.weights.source = st.gradients.source = st.optimizer.source = MakeMessage("memory.source.zero");
  }
  if (explain && s.model.IsQuantizedCheckpoint()) {
    st.weights.source = MakeMessage("memory.source.quantized_checkpoint",
                                    {NumberArg("bytes_per_weight", s.model.stored_weight_bytes)});
  } else if (explain && s.training.method == Method::kQlora) {
    st.weights.source = MakeMessage("memory.source.qlora");
  }
  return st;
}

// ZeRO-Offload / ZeRO-Infinity (DeepSpeed): the optimizer step runs on the CPU, so fp32
// master weights, moments and the gradient partitions live in host RAM; with parameter
// offload the weights too. DeepSpeed's estimators size host RAM with
// additional_buffer_factor = 1.5 (stage3.py estimate_zero3_model_states_mem_needs).
constexpr double kOffloadHostBufferFactor = 1.5;

void ApplyOffload(const Parallelism& p, MemoryBreakdown& st, bool explain) {
  if (p.offload == Offload::kNone) return;
  double moved = st.optimizer.bytes + st.gradients.bytes;
  if (explain) {
    st.optimizer.formula = ToCpu(std::move(st.optimizer.formula));
    st.gradients.formula = ToCpu(std::move(st.gradients.formula));
  }
  st.optimizer.bytes = st.gradients.bytes = 0;
  if (p.offload == Offload::kOptimizerAndParams) {
    moved += st.weights.bytes;
    if (explain) {
      st.weights.formula = ToCpu(std::move(st.weights.formula));
    }
    st.weights.bytes = 0;
  }
  st.cpu_ram.bytes = moved * kOffloadHostBufferFactor;
  if (explain) {
    st.cpu_ram.formula = MakeMessage("memory.cpu_ram.formula", {BytesArg("offloaded_bytes", moved),
                                                                 NumberArg("buffer_factor", kOffloadHostBufferFactor)});
    st.cpu_ram.source = MakeMessage("memory.source.offload");
  }
}

// ---------------------------------------------------------------------------------------
// [SECTION] activations

// Bytes one layer stores for backward for one micro-batch, before any parallel division,
// with 2-byte activations. Counting tensor by tensor (Korthikanti Table 2 method):
// attention saves the norm input, QKV input, Q, K, V, the output-projection input and
// FlashAttention's fp32 log-sum-exp; a gated MLP saves the norm input, the gate/up input
// and three f-wide tensors (gate, up, their product); a plain MLP two f-wide tensors.
struct LayerBytes {
  double total = 0;
  double replicated = 0;  // not split by TP without sequence parallelism (norm and GEMM inputs)
};

// The f-wide tensors an MLP of width `width` saves: gate, up and their product (gated),
// or the GELU input and output (plain); unfused (eager) SwiGLU also saves SiLU(gate),
// 8f/h instead of 6f/h per sbh (model.md §3.3).
double MlpInternalBytes(const ModelSpec& m, double tokens, double width, Kernels kernels) {
  const double gated_tensors = kernels == Kernels::kEager ? 4 : 3;  // eager also keeps SiLU(gate)
  return 2 * tokens * width * (m.mlp == MlpKind::kGated ? gated_tensors : 2);
}

// Dense MLP block: norm input + gate/up (fc1) input + internals.
double MlpActivationBytes(const ModelSpec& m, double tokens, Kernels kernels) {
  return 4 * tokens * m.hidden + MlpInternalBytes(m, tokens, m.ffn, kernels);
}

double AttentionActivationBytes(const ModelSpec& m, double tokens, double b, double s) {
  const double h = m.hidden;
  double bytes = 4 * tokens * h + 4 * b * m.heads * s;  // norm + QKV inputs; fp32 LSE
  if (m.attention == AttentionKind::kMla) {
    const double qk = m.heads * double(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    const double v = m.heads * double(m.mla.v_head_dim);
    bytes += 2 * tokens * (m.mla.q_lora_rank + m.mla.kv_lora_rank + 2 * qk + 2 * v);
  } else {
    bytes += 2 * tokens * (2.0 * m.QueryWidth() + 2.0 * m.KvWidth());
  }
  return bytes;
}

// Mamba-2 mixer (mamba_ssm Mamba2 forward, tensor by tensor): norm input and in_proj
// input (4h), in_proj's z·x·B·C·dt output, the convolution's output over x, B and C, the
// scan output y, and the gated norm's output that out_proj reads (2 B each).
double MambaActivationBytes(const ModelSpec& m, double tokens) {
  const MambaDims& d = m.mamba;
  const double inner = d.Inner(), bc = 2.0 * d.groups * d.state;
  return tokens * (4.0 * m.hidden + 2 * (2 * inner + bc + d.heads) + 2 * (inner + bc) + 4 * inner);
}

// MoE block (model.md §3.7 after llm-analysis get_activation_memory_per_layer_mlp): norm
// and router inputs, fp32 router logits, k dispatched copies of each token with their
// expert's internals, and the shared experts as a dense MLP on every token.
double MoeActivationBytes(const ModelSpec& m, double tokens, Kernels kernels) {
  const MoeSpec& e = m.moe;
  const double k = e.experts_per_token;
  const double shared_width = e.SharedWidth();
  double bytes = 4 * tokens * m.hidden + 4 * tokens * e.experts;
  bytes += k * (2 * tokens * m.hidden + MlpInternalBytes(m, tokens, e.moe_ffn, kernels));
  bytes += MlpInternalBytes(m, tokens, shared_width, kernels);
  return bytes;
}

// PEFT applies lora_dropout to each adapter's input separately, so every adapted matrix
// stores a 1-byte mask and a 2-byte dropped copy of its input (Hu et al. 2021 use
// dropout on the adapter path; PEFT LoraLayer.lora_dropout).
double LoraDropoutBytes(const Scenario& s, double tokens, bool moe_layer) {
  const Training& t = s.training;
  if (t.lora_dropout <= 0 || (t.method != Method::kLora && t.method != Method::kQlora)) return 0;
  const ModelSpec& m = s.model;
  double inputs = t.lora_targets == LoraTargets::kQv ? 2.0 * m.hidden : 3.0 * m.hidden + m.QueryWidth();
  if (t.lora_targets == LoraTargets::kAllLinear) {
    const double width = moe_layer ? m.moe.experts_per_token * double(m.moe.moe_ffn) : m.ffn;
    const double copies = moe_layer ? m.moe.experts_per_token : 1;
    inputs += (m.mlp == MlpKind::kGated ? 2 : 1) * m.hidden * copies + width;
  }
  return 3.0 * tokens * inputs;
}

// bitsandbytes up to 0.43.1 saved each 4-bit layer's input A for backward
// (autograd/_functions.py MatMul4Bit.forward: ctx.tensors = (A, B)) though only the
// weight is needed, "the bug that caused a lot of memory issues with QLoRA" (removed by
// bitsandbytes#1270, 2024-07, released in 0.43.3). Layers sharing an input hold it once:
// attention input (q, k, v), output projection input, MLP input (gate, up; each routed
// expert gets its own dispatched copy), and the down projection's input.
double LegacyBnbInputBytes(const Scenario& s, double tokens, bool moe_layer) {
  const Training& t = s.training;
  if (t.method != Method::kQlora || !t.qlora_legacy_bnb) return 0;
  const ModelSpec& m = s.model;
  const double k = m.moe.experts_per_token;
  const double mlp = moe_layer ? k * (m.hidden + double(m.moe.moe_ffn)) + m.hidden + m.moe.SharedWidth()
                               : double(m.hidden) + m.ffn;
  const double width = t.precision == Precision::kFp32 ? 4 : 2;
  return width * tokens * (double(m.hidden) + m.QueryWidth() + mlp);
}

// torchtitan's per-op selective checkpointing keeps, per layer, its input, the outputs of
// every other matmul (wq, wv, w1, w2 of a Llama block: the 1st, 3rd, 5th and 7th aten.mm)
// and the attention output with its log-sum-exp; the rest is rebuilt in backward
// (torchtitan parallelize.py _custom_policy; model.md §3.4). A MoE block's grouped expert
// GEMMs are not plain matmuls: only its router output is kept.
LayerBytes EveryOtherMatmulBytes(const ModelSpec& m, double tokens, double b, double s, bool moe_layer) {
  const double h = m.hidden;
  double kept = 2 * h + 2 * double(m.QueryWidth()) + 2 * double(m.KvWidth()) + 2 * double(m.QueryWidth());
  if (m.attention == AttentionKind::kMla) {  // q_a, kv_a (latents) and the attention output
    kept = 2 * h + 2 * double(m.mla.q_lora_rank + m.mla.kv_lora_rank) + 2.0 * m.heads * m.mla.v_head_dim;
  }
  if (moe_layer) {
    kept += 2.0 * m.moe.experts;
  } else {
    kept += 2.0 * m.ffn + (m.mlp == MlpKind::kGated ? 2 * h : 0);  // w1 out (gated: and w2 out)
  }
  return {tokens * kept + 4 * b * m.heads * s, 4 * tokens * h};
}

// Bytes selective recomputation drops from one layer (recompute.h; Megatron-Core
// recompute_modules): each module's outputs beyond the input it is rebuilt from.
LayerBytes SelectiveDrop(const Scenario& s, const SelectiveParts& r, double tokens, bool moe_layer) {
  const ModelSpec& m = s.model;
  const Kernels kernels = s.training.kernels;
  LayerBytes drop;
  if (r.layernorm) {  // the two norm outputs (QKV and fc1 inputs), with their fp32 copies
    const double fp32_copies = kernels == Kernels::kEager ? 2.0 * tokens * m.hidden * m.norms_per_layer : 0;
    drop.total += 4 * tokens * m.hidden + fp32_copies;
    drop.replicated += 4 * tokens * m.hidden;
  }
  if (r.mla_up_proj && m.attention == AttentionKind::kMla) {
    const double qk = m.heads * double(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    drop.total += 2 * tokens * (2 * qk + m.heads * double(m.mla.v_head_dim));
  }
  if (!moe_layer) {
    if (r.mlp) drop.total += MlpInternalBytes(m, tokens, m.ffn, kernels);
    return drop;
  }
  if (r.moe) {  // the block's input stays; router, dispatch and experts are rebuilt
    drop.total += MoeActivationBytes(m, tokens, kernels) - 4 * tokens * m.hidden;
    return drop;
  }
  if (r.moe_act) drop.total += 2 * tokens * m.moe.experts_per_token * double(m.moe.moe_ffn);
  if (r.shared_experts) {
    drop.total += MlpInternalBytes(m, tokens, m.moe.SharedWidth(), kernels);
  }
  return drop;
}

LayerBytes LayerActivation(const Scenario& s, bool moe_layer) {
  const ModelSpec& m = s.model;
  const Training& t = s.training;
  const double b = t.micro_batch, seq = t.seq_len, tokens = b * seq;
  const SelectiveParts selective = SelectiveOf(s);
  if (selective.every_other_matmul) return EveryOtherMatmulBytes(m, tokens, b, seq, moe_layer);
  LayerBytes l;
  // Hybrid stacks: the average layer mixes attention and Mamba-2, and some dense layers
  // have no MLP.
  const double mamba_share = double(m.mamba.layers) / m.layers;
  const int dense_layers = m.IsMoe() ? m.moe.dense_layers : m.layers;
  const double mlp_share = moe_layer || dense_layers == 0 ? 1.0 : 1.0 - double(m.mlp_free_layers) / dense_layers;
  l.total = (1 - mamba_share) * AttentionActivationBytes(m, tokens, b, seq) +
            mamba_share * MambaActivationBytes(m, tokens) +
            (moe_layer ? MoeActivationBytes(m, tokens, t.kernels) : mlp_share * MlpActivationBytes(m, tokens, t.kernels));
  // Eager RMSNorm/LayerNorm (Hugging Face LlamaRMSNorm) upcasts its input and keeps the
  // fp32 copy for backward: +2 B per element beyond the bf16 input, per norm.
  if (t.kernels == Kernels::kEager) l.total += 2.0 * tokens * m.hidden * m.norms_per_layer;
  // FP8 training saves the inputs of FP8 GEMMs in FP8 (1 B instead of 2): the QKV,
  // output-projection, gate/up and down inputs (Transformer Engine; Megatron MoE README
  // "50% activation reduction" for those tensors). Attention, norms and residuals stay bf16.
  if (IsLowPrecisionGemm(t.precision) && m.attention == AttentionKind::kStandard && !moe_layer) {
    l.total -= tokens * (2.0 * m.hidden + m.QueryWidth() + m.ffn) * t.LowPrecisionLayerShare(m.layers);
  }
  l.total += LoraDropoutBytes(s, tokens, moe_layer) + LegacyBnbInputBytes(s, tokens, moe_layer);
  // Without FlashAttention (and without recomputing core attention) the softmax output,
  // its dropout mask and output are stored: 5·a·s²·b (Korthikanti Eq. 1).
  if (!t.flash_attention && !selective.core_attn) {
    l.total += 5.0 * m.heads * seq * seq * b;
  }
  l.replicated = 8 * tokens * m.hidden;
  const LayerBytes drop = SelectiveDrop(s, selective, tokens, moe_layer);
  l.total = std::max(0.0, l.total - drop.total);
  l.replicated = std::max(0.0, l.replicated - drop.replicated);
  return l;
}

// Per-layer bytes after TP/SP/CP: with SP everything is split by t (Korthikanti Eq. 4);
// without, the norm and GEMM inputs stay whole (Eq. 2). CP splits every token term by c.
double SplitLayer(const LayerBytes& l, const Parallelism& p) {
  const double split = p.sequence_parallel ? l.total / p.tp : l.replicated + (l.total - l.replicated) / p.tp;
  return split / p.cp;
}

// Activation offload copies each layer's stored activations to host memory once its
// forward is done and back before its backward, so the GPU holds the layer being
// computed and the one in transit (double buffering: torchtune OffloadActivations,
// Transformer Engine cpu_offload with one layer prefetched, Unsloth's checkpointing).
void OffloadActivations(const Training& t, double layer_bytes, double transient_bytes, bool explain, MemoryTerm& a,
                        double* offloaded_bytes) {
  *offloaded_bytes = 0;
  if (!t.activation_offload) return;
  const double kept = std::min(a.bytes, 2 * layer_bytes + transient_bytes);
  *offloaded_bytes = a.bytes - kept;
  a.bytes = kept;
  if (explain) {
    a.formula = MakeMessage("memory.activations.formula.offloaded",
                            {MessageArgOf("formula", std::move(a.formula)), BytesArg("offloaded_bytes", *offloaded_bytes)});
  }
}

// What one stage stores for backward (bytes after TP/SP/CP). Layers whose activations
// are stored on this GPU, and in-flight micro-batches: under 1F1B stage i holds
// min(m, p − i) micro-batches of its L/p layers, the first stage L layers' worth when
// m ≥ p; interleaving multiplies by 1 + (p − 1)/(p·v).
struct StageActivations {
  double layers = 0;       // layers with stored activations on this GPU
  double in_flight = 1;    // micro-batches whose activations are held at once
  double per_layer = 0;    // one layer's stored bytes without full recomputation
  double stored = 0;       // one layer's stored bytes as run (full recompute: mostly its input)
  double recomputed_share = 0;
  double transient = 0;    // one layer's rebuilt working set (full) or attention scores (selective)
};

StageActivations StageActivationsOf(const Scenario& s, Stage stage) {
  const ModelSpec& m = s.model;
  const Parallelism& p = s.parallel;
  const Training& t = s.training;
  StageActivations a;
  const int moe_layers = m.MoeLayers();
  const double dense_bytes = SplitLayer(LayerActivation(s, false), p);
  const double moe_bytes = moe_layers > 0 ? SplitLayer(LayerActivation(s, true), p) : 0;
  a.layers = m.layers * LayerShareOn(s, stage);
  // The MTP modules run after the last layer, on the last stage (Megatron-Core mtp_block).
  if (HoldsHead(stage)) a.layers += m.mtp_layers;
  double moe_share = double(moe_layers) / m.layers;
  if (t.method == Method::kFreeze) {  // no backward through the frozen lower layers
    a.layers = HoldsHead(stage) ? std::min<double>(a.layers, t.freeze_trainable_layers) : 0;
    moe_share = moe_layers > 0 ? 1.0 : 0.0;
  }
  const double micro_batches = MicroBatchesPerStep(t, p);
  // 1F1B: stage i (from 0) holds p − i micro-batches' activations at its peak.
  const double ahead = stage == Stage::kFirst ? p.pp : stage == Stage::kMiddle ? p.pp - 1 : 1;
  a.in_flight = std::min<double>(micro_batches, ahead);
  if (stage != Stage::kLast && stage != Stage::kOnly && p.virtual_pipeline > 1) {
    a.in_flight *= 1 + (p.pp - 1.0) / (p.pp * p.virtual_pipeline);
  }
  a.per_layer = (1 - moe_share) * dense_bytes + moe_share * moe_bytes;
  a.stored = a.per_layer;
  if (t.activation_checkpointing == Recompute::kFull) {
    // Only each layer's input is kept (2·s·b·h, split by SP/CP), plus one layer's full
    // working set while it is recomputed (model.md §3.4), less that layer's input, which
    // is already kept; with under one recomputed layer on this GPU, that share of it.
    // QLoRA with fp32 norms keeps fp32 hidden states (Training::Fp32HiddenStates): HF's
    // RMSNorm returns weight * x.to(input dtype), so an fp32 weight makes its output fp32,
    // bitsandbytes' Linear4bit casts its output back to its input's dtype, and the MLP's
    // fp32 output makes the residual stream fp32 from the first layer on (transformers
    // warns "The input hidden states seems to be silently casted in float32"). The layer
    // inputs kept for recomputation then take 4 B; the rebuilt layer's own fp32 tensors
    // are not added, as fms-acceleration's measured QLoRA peak (R15) does not show them.
    // With recompute_layers, the other layers keep their full activations.
    const double width = t.Fp32HiddenStates() ? 4.0 : 2.0;
    const double input = width * t.seq_len * t.micro_batch * m.hidden / (p.sequence_parallel ? p.tp : 1) / p.cp;
    a.recomputed_share = RecomputedShare(t, m.layers);
    a.stored = a.recomputed_share * input + (1 - a.recomputed_share) * a.per_layer;
    a.transient = std::min(1.0, a.layers * a.recomputed_share) * std::max(0.0, a.per_layer - input);
  } else if (SelectiveOf(s).core_attn && !t.flash_attention && a.layers > 0) {
    // Selective recomputation without FlashAttention rebuilds one layer's softmax output,
    // mask and attention output (5·a·s²·b, not stored) while that layer's backward runs.
    a.transient = SplitLayer({5.0 * m.heads * t.seq_len * double(t.seq_len) * t.micro_batch, 0}, p);
  }
  return a;
}

void Activations(const Scenario& s, Stage stage, bool explain, MemoryTerm& term, double* offloaded_bytes) {
  const Training& t = s.training;
  const StageActivations a = StageActivationsOf(s, stage);
  term.bytes = a.layers * a.in_flight * a.stored + a.transient;
  if (explain) {
    term.source = MakeMessage("memory.source.activations");
    std::vector<MessageArg> args = {NumberArg("layers", a.layers), NumberArg("in_flight", a.in_flight)};
    if (t.activation_checkpointing == Recompute::kFull) {
      args.push_back(BytesArg("stored_bytes", a.stored));
      args.push_back(BytesArg("working_set_bytes", a.transient));
      if (a.recomputed_share < 1) args.push_back(NumberArg("recomputed_percent", a.recomputed_share * 100));
      term.formula = MakeMessage(a.recomputed_share < 1 ? "memory.activations.formula.recompute_share"
                                                        : "memory.activations.formula.recompute",
                                 std::move(args));
    } else {
      args.push_back(BytesArg("layer_bytes", a.per_layer));
      args.push_back(NumberArg("seq_len", t.seq_len));
      args.push_back(NumberArg("micro_batch", t.micro_batch));
      if (a.transient > 0) args.push_back(BytesArg("scores_bytes", a.transient));
      term.formula = MakeMessage(a.transient > 0 ? "memory.activations.formula.scores" : "memory.activations.formula",
                                 std::move(args));
    }
  }
  OffloadActivations(t, a.stored, a.transient, explain, term, offloaded_bytes);
}

// ---------------------------------------------------------------------------------------
// [SECTION] logits and overheads

// Bytes per element of the s·b·V logits for one micro-batch, by loss implementation:
// standard: bf16 logits kept for backward + the fp32 copy cross-entropy upcasts to
// (Megatron counts 4·s·b·V/t fp32 logits, theoretical_memory_usage.py); eager: Hugging
// Face's logits.float() plus the fp32 log-softmax saved for backward, ≈ (2 + 4 + 4)
// (model.md §3.6); chunked: bf16 logits + one of 8 fp32 chunks at a time (torchtune
// CEWithChunkedOutputLoss, num_output_chunks = 8): 2 + 8/8.
double LogitsBytesPerElement(CrossEntropy ce) {
  switch (ce) {
    case CrossEntropy::kStandard: return 6.0;
    case CrossEntropy::kEager: return 10.0;
    case CrossEntropy::kChunked: return 3.0;
  }
  return 6.0;
}

void Logits(const Scenario& s, Stage stage, bool explain, MemoryTerm& l) {
  if (!HoldsHead(stage)) return;
  const Training& t = s.training;
  // Each MTP module computes its own logits and loss over the vocabulary.
  const double elements =
      double(t.seq_len) * t.micro_batch * s.model.vocab * (1 + s.model.mtp_layers) / (s.parallel.tp * s.parallel.cp);
  const double per_element = LogitsBytesPerElement(t.cross_entropy);
  l.bytes = elements * per_element;
  if (explain) {
    // One template per loss implementation (memory.logits.formula.standard, .eager, .chunked).
    l.formula = MakeMessage("memory.logits.formula." + std::string(EnumName(kCrossEntropyNames, t.cross_entropy)),
                            {NumberArg("logits", elements), NumberArg("logit_bytes", per_element)});
    l.source = MakeMessage("memory.source.logits");
  }
}

// CUDA context with cuBLAS/cuDNN/NCCL kernels: the HF "Model training anatomy" guide
// measures 1343 MB on a V100; lazy module loading lowers it, so 1 GiB is typical.
constexpr double kCudaContextBytes = 1.0 * kGiB;
// NCCL communicator buffers (NCCL_BUFFSIZE 4 MiB per channel and peer, several
// communicators): about 0.5 GiB once any collective runs (model.md §4).
constexpr double kNcclBytes = 0.5 * kGiB;
// Allocator fragmentation and temporaries: calibration.fragmentation_fraction of what is
// allocated (calibration.cpp).
void Overhead(const Scenario& s, const ParamCounts& c, double allocated, const Calibration& calibration,
              OverheadParts& parts, bool explain, MemoryTerm& o) {
  const Parallelism& p = s.parallel;
  parts.cuda_context_bytes = kCudaContextBytes;
  if (explain) {
    o.formula = MakeMessage("memory.overhead.formula");
  }
  if (p.gpus > 1) {
    parts.nccl_bytes = kNcclBytes;
    if (explain) {
      o.formula = MakeMessage("memory.overhead.formula.nccl", {MessageArgOf("formula", std::move(o.formula))});
    }
  }
  // PyTorch FSDP (FSDP1, as Accelerate runs it) on a single rank switches to NO_SHARD ("FSDP
  // is switching to use NO_SHARD instead of ShardingStrategy.FULL_SHARD since the world size
  // is 1", torch/distributed/fsdp/_init_utils.py, PyTorch 2.x, seen 2024-2025 in user logs):
  // the weights stay whole, nothing is gathered.
  const bool fsdp1 = p.framework == Framework::kFsdp || ShardsThroughAccelerateFsdp(p);
  const bool unsharded = fsdp1 && p.DataParallel() == 1 && p.offload != Offload::kOptimizerAndParams;
  if (p.zero == 3 && !unsharded) {
    // ZeRO-3/FSDP gathers a whole unit (a layer, or the embedding) before using it and
    // prefetches the next: 2 units of weights + one unit's fp32 gradient before
    // reduce-scatter (DeepSpeed estimate_zero3_model_states_mem_needs: 4·largest_layer).
    // Gathered weights have the training dtype (2 B, or 4 B in fp32); frozen weights
    // (LoRA) have no gradient to reduce.
    const double unit = std::max(c.largest_layer, c.embedding) / p.tp;
    const bool unit_grads = s.training.method == Method::kPretrain || s.training.method == Method::kFull;
    const double weight_bytes = FrozenWeightBytes(s.training.precision);
    parts.gathered_bytes = unit * (2 * weight_bytes + (unit_grads ? 4 : 0));
    // FSDP's root unit stays gathered from the end of forward until its own backward
    // (framework_profile.cpp, kept_gathered), beside the layer units. A pipeline stage
    // holds only one of the two tables: left out there.
    const KeptGathered kept = ProfileOf(p.framework).kept_gathered;
    if (kept != KeptGathered::kNone && IsFsdpLayout(p) && p.pp == 1) {
      const double head = c.lm_head > 0 ? c.lm_head : c.embedding;
      const double root = kept == KeptGathered::kHead ? head : c.embedding + c.lm_head;
      parts.gathered_bytes += root / p.tp * weight_bytes;
    }
    if (explain) {
      o.formula = MakeMessage("memory.overhead.formula.gathered", {MessageArgOf("formula", std::move(o.formula)),
                                                                   BytesArg("gathered_bytes", parts.gathered_bytes)});
    }
  }
  if (parts.bucket_bytes > 0 && explain) {
    o.formula = MakeMessage(parts.deepspeed_buckets ? "memory.overhead.formula.deepspeed_buckets"
                                                    : "memory.overhead.formula.ddp_buckets",
                            {MessageArgOf("formula", std::move(o.formula)), BytesArg("bucket_bytes", parts.bucket_bytes)});
  }
  parts.fragmentation_bytes =
      calibration.fragmentation_fraction * (allocated + parts.gathered_bytes + parts.bucket_bytes);
  if (explain) {
    o.formula = MakeMessage("memory.overhead.formula.fragmentation",
                            {MessageArgOf("formula", std::move(o.formula)),
                             BytesArg("fragmentation_bytes", parts.fragmentation_bytes)});
  }
  o.bytes = parts.cuda_context_bytes + parts.nccl_bytes + parts.gathered_bytes + parts.bucket_bytes +
            parts.fragmentation_bytes;
  if (explain) {
    o.source = MakeMessage("memory.source.overhead");
  }
}

// Offloaded activations sit in pinned host buffers of their own size (no optimizer
// buffer factor): added to the host RAM term.
void AddHostActivations(double bytes, bool explain, MemoryTerm& cpu_ram) {
  if (bytes <= 0) return;
  cpu_ram.bytes += bytes;
  if (explain) {
    cpu_ram.formula = cpu_ram.formula.id.empty()
                          ? MakeMessage("memory.cpu_ram.formula.activations", {BytesArg("activation_bytes", bytes)})
                          : MakeMessage("memory.cpu_ram.formula.plus_activations",
                                        {MessageArgOf("formula", std::move(cpu_ram.formula)),
                                         BytesArg("activation_bytes", bytes)});
    if (cpu_ram.source.id.empty()) cpu_ram.source = MakeMessage("memory.source.activation_offload");
  }
}

// [SECTION] the vision tower
//
// A vision-language model's tower runs over its own sequence, the patches of the sample's
// images and video (vision.h), before the first stage's layers. It stores activations only
// when backward runs through it (trained in full or with adapters): a layer of its width
// over the patches, by the same tensor count as the language model's layers (attention
// runs within each image, so no score matrix is kept); with recomputation, each layer's
// input and one layer's working set. A frozen tower's forward is over before the language
// model's backward begins, and its output is the language model's input. A trained
// projector keeps its input (w·merge² per merged token) and the GELU's two tensors.
struct VisionActivationBytes {
  double stored = 0;     // per micro-batch
  double transient = 0;  // one layer rebuilt in backward
  double patches = 0;    // per micro-batch
};

VisionActivationBytes VisionActivationsOf(const Scenario& s) {
  VisionActivationBytes out;
  const VisionSpec& v = s.model.vision;
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  const SampleSequence q = SampleSequenceOf(s);
  if (!v.present() || q.vision_patches <= 0) return out;
  out.patches = q.vision_patches * t.micro_batch;
  const double merged = std::max(0.0, q.media_tokens - q.marker_tokens) * t.micro_batch;
  if (BackpropagatesVision(t)) {
    const ModelSpec tower = VisionAsTransformer(v);
    LayerBytes layer;
    layer.total = AttentionActivationBytes(tower, out.patches, 1, out.patches) +
                  MlpActivationBytes(tower, out.patches, t.kernels);
    if (t.kernels == Kernels::kEager) layer.total += 2.0 * out.patches * v.hidden * 2;
    layer.replicated = 8 * out.patches * v.hidden;
    const double split = p.sequence_parallel ? layer.total / p.tp : layer.replicated + (layer.total - layer.replicated) / p.tp;
    if (RecomputesVision(t)) {
      const double input = 2 * out.patches * v.hidden / (p.sequence_parallel ? p.tp : 1);
      out.stored = v.layers * input;
      out.transient = std::max(0.0, split - input);
    } else {
      out.stored = v.layers * split;
    }
  }
  if (t.media.projector || BackpropagatesVision(t)) {
    out.stored += 3 * 2 * merged * double(v.hidden) * v.merge * v.merge / p.tp;
  }
  return out;
}

// The tower's activations on `stage` (the first holds it), all in-flight micro-batches.
double VisionActivationsOn(const Scenario& s, Stage stage) {
  if (!HoldsEmbedding(stage) || !s.model.vision.present() || !s.training.media.HasMedia()) return 0;
  const VisionActivationBytes a = VisionActivationsOf(s);
  const double in_flight =
      std::min<double>(MicroBatchesPerStep(s.training, s.parallel), stage == Stage::kFirst ? s.parallel.pp : 1);
  return a.stored * in_flight + a.transient;
}

void AddVisionActivations(double bytes, const Scenario& s, bool explain, MemoryTerm& a) {
  if (bytes <= 0) return;
  a.bytes += bytes;
  if (explain) {
    a.formula = MakeMessage("memory.activations.formula.plus_vision",
                            {MessageArgOf("formula", std::move(a.formula)), BytesArg("vision_bytes", bytes),
                             NumberArg("patches", VisionActivationsOf(s).patches)});
  }
}

MemoryBreakdown StageMemory(const Scenario& media, const ParamCounts& c, double trainable, Stage stage, bool explain,
                            const Calibration& calibration) {
  // The language model's terms at the text and media length; the tower's beside them.
  const LanguageModelView view(media);
  const Scenario& s = view.get();
  const LocalParams local = ParamsOnGpu(s, c, trainable, stage);
  MemoryBreakdown r = ModelStates(s, local, explain);
  ApplyOffload(s.parallel, r, explain);
  double offloaded_activations = 0;
  Activations(s, stage, explain, r.activations, &offloaded_activations);
  AddVisionActivations(VisionActivationsOn(media, stage), media, explain, r.activations);
  AddHostActivations(offloaded_activations, explain, r.cpu_ram);
  Logits(s, stage, explain, r.logits);
  const double allocated = r.weights.bytes + r.gradients.bytes + r.optimizer.bytes + r.activations.bytes +
                           r.logits.bytes;
  Overhead(s, c, allocated, calibration, r.overhead_parts, explain, r.overhead);
  r.trainable_params = trainable;
  return r;
}

}  // namespace

double VisionActivationBytesOnGpu(const Scenario& s) {
  return VisionActivationsOn(s, s.parallel.pp > 1 ? Stage::kFirst : Stage::kOnly);
}

double StoredActivationBytesPerMicroBatch(const Scenario& media) {
  const LanguageModelView view(media);
  const StageActivations a = StageActivationsOf(view.get(), Stage::kOnly);
  return a.layers * a.stored + VisionActivationsOf(media).stored;
}

namespace {

// Post-training: the policy's update as a plain training step, and the other roles
// beside it (post_training.h).
MemoryBreakdown PostTrainingBreakdown(const Scenario& s, const ParamCounts& c, bool explain,
                                      const Calibration& calibration, double gpu_memory_bytes) {
  MemoryBreakdown b = EstimateMemory(PolicyUpdateScenario(s), c, explain, calibration);
  b.post = EstimatePostTrainingMemory(s, c, b, gpu_memory_bytes, calibration);
  b.roles.bytes = b.post.added_bytes;
  b.cpu_ram.bytes += b.post.added_cpu_bytes;
  if (explain) {
    b.roles.formula = MakeMessage("memory.roles.formula", {CountArg("roles", static_cast<long long>(b.post.roles.size()) - 1),
                                                           BytesArg("rollout_bytes", b.post.rollout.bytes)});
    b.roles.source = MakeMessage("memory.source.roles");
  }
  return b;
}

}  // namespace

MemoryBreakdown EstimateMemory(const Scenario& s, const ParamCounts& c, bool explain, const Calibration& calibration,
                               double gpu_memory_bytes) {
  if (s.training.post.kind != PostTraining::kNone) {
    return PostTrainingBreakdown(s, c, explain, calibration, gpu_memory_bytes);
  }
  const double trainable = TrainableParams(s.model, c, s.training);
  if (s.parallel.pp == 1) return StageMemory(s, c, trainable, Stage::kOnly, explain, calibration);
  MemoryBreakdown peak = StageMemory(s, c, trainable, Stage::kFirst, explain, calibration);
  const bool uneven_ends = s.parallel.UnevenEnds();
  for (Stage stage : {Stage::kMiddle, Stage::kLast}) {
    if (stage == Stage::kMiddle && (s.parallel.pp <= 2 || !uneven_ends)) continue;  // never above the first
    MemoryBreakdown other = StageMemory(s, c, trainable, stage, explain, calibration);
    if (other.GpuBytes() > peak.GpuBytes()) peak = std::move(other);
  }
  return peak;
}

}  // namespace engine
