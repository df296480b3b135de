// Decoder-only transformer architectures (dense and Mixture-of-Experts) and their
// parameter counts. The counts follow Megatron-LM's theoretical_memory_usage.py
// (compute_weight_and_optimizer_memory) and torchtitan's models/utils.py counters, extended
// with biases, untied heads and MLA; tests reproduce the official totals of every preset.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "result.h"
#include "vision_spec.h"

namespace engine {

enum class MlpKind { kGated, kPlain };          // gated = SwiGLU/GeGLU (3 matrices); plain = GELU (2)
enum class NormKind { kRmsNorm, kLayerNorm };   // LayerNorm carries a bias as well as a weight
enum class AttentionKind { kStandard, kMla };   // MLA = DeepSeek-V2/V3 multi-head latent attention

// DeepSeek MLA projection ranks (config.json names).
struct MlaDims {
  int q_lora_rank = 0;  // 0 = queries projected directly from the hidden state
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

// Mixture-of-Experts feed-forward. experts == 0 means a dense model.
struct MoeSpec {
  int experts = 0;            // routed experts per MoE layer
  int experts_per_token = 0;  // top-k
  int shared_experts = 0;     // always-on experts of width moe_ffn each
  int moe_ffn = 0;            // width of one expert
  int dense_layers = 0;       // leading layers with a dense MLP of width `ffn`
  int shared_expert_ffn = 0;  // total shared width when given as one number (Qwen2-MoE)

  // The shared experts' total width, however it is given.
  double SharedWidth() const { return shared_expert_ffn > 0 ? shared_expert_ffn : double(shared_experts) * moe_ffn; }
};

// Mamba-2 mixers in place of attention on some layers (hybrid stacks: Nemotron-H; Dao &
// Gu 2024, arXiv 2405.21060). config.json names in the comments.
struct MambaDims {
  int layers = 0;     // how many of the model's layers mix with Mamba-2 instead of attention
  int heads = 0;      // mamba_num_heads
  int head_dim = 64;  // mamba_head_dim; the inner width is heads × head_dim
  int state = 128;    // ssm_state_size
  int groups = 8;     // n_groups: heads sharing one B and C projection
  int conv = 4;       // conv_kernel of the depthwise convolution
  double Inner() const { return double(heads) * head_dim; }
};

struct ModelSpec {
  std::string id;    // preset id, or "custom"
  std::string name;
  int layers = 0;
  int hidden = 0;
  int heads = 0;     // query heads
  int kv_heads = 0;  // key/value heads (GQA/MQA)
  int head_dim = 0;  // not always hidden/heads (Gemma-2)
  int ffn = 0;       // dense MLP width
  int vocab = 0;
  MlpKind mlp = MlpKind::kGated;
  NormKind norm = NormKind::kRmsNorm;
  int norms_per_layer = 2;
  bool tied_embeddings = false;
  bool qkv_bias = false;
  bool linear_bias = false;   // biases on every linear layer (GPT-2/3 style)
  int learned_positions = 0;  // rows of a learned position embedding (0 for RoPE)
  int max_context = 0;        // trained context length; 0 = unknown
  AttentionKind attention = AttentionKind::kStandard;
  // Sliding-window (local) attention: each query sees the last `sliding_window` keys on
  // `sliding_window_layers` of the layers (0 = every layer); 0 = full attention everywhere.
  // Mistral 7B v0.1: 4096 on all layers; Gemma 2 and gpt-oss: every other layer; Gemma 3:
  // five of every six.
  int sliding_window = 0;
  int sliding_window_layers = 0;
  bool attention_sinks = false;  // a learned softmax logit per head (gpt-oss)
  // Multi-token prediction modules trained beside the model (DeepSeek-V3 §2.2: a projection
  // 2h → h, two RMSNorms and one more transformer block each, sharing the embedding and
  // output head, with a loss of its own).
  int mtp_layers = 0;
  MambaDims mamba;
  // Layers with a mixer and no MLP after it (Nemotron-H's attention blocks stand alone).
  int mlp_free_layers = 0;
  MlaDims mla;
  MoeSpec moe;
  // Bytes per linear-layer weight as a quantized checkpoint stores it (GPTQ, AWQ,
  // bitsandbytes, FP8; read from config.json's quantization_config). 0 = not quantized:
  // the weights are held at the training precision. Only adapters train on such weights.
  double stored_weight_bytes = 0;
  // The vision tower and projector of a vision-language model (layers 0 = text only).
  VisionSpec vision;

  bool IsMoe() const { return moe.experts > 0; }
  // Layers with routed experts (the leading dense_layers keep a dense MLP).
  int MoeLayers() const { return IsMoe() ? layers - moe.dense_layers : 0; }
  int LocalAttentionLayers() const {
    if (sliding_window <= 0) return 0;
    return sliding_window_layers > 0 ? std::min(sliding_window_layers, layers) : layers;
  }
  bool IsQuantizedCheckpoint() const { return stored_weight_bytes > 0; }
  int QueryWidth() const { return heads * head_dim; }
  int KvWidth() const { return kv_heads * head_dim; }
};

// Parameter counts derived from a ModelSpec. All counts are plain numbers of parameters.
struct ParamCounts {
  double total = 0;          // every parameter stored
  double active = 0;         // parameters used per token (MoE: top-k routed + shared)
  double embedding = 0;      // input token embedding (+ learned positions)
  double lm_head = 0;        // separate output projection (0 when tied)
  double transformer = 0;    // all decoder layers + final norm
  double linear = 0;         // parameters inside linear (GEMM) weights of the layers
  double matmul_active = 0;  // per-token GEMM weights incl. the LM head (for FLOPs)
  double largest_layer = 0;  // largest decoder layer (the ZeRO-3/FSDP gather unit)
  double expert = 0;         // routed-expert parameters (sharded by expert parallelism)
  double mtp = 0;            // multi-token prediction modules (part of total and transformer)
  // A vision-language model's vision tower (ViT blocks, patch and position embeddings) and
  // projector: part of total and active, not of the language model's other counts.
  double vision_tower = 0;
  double vision_projector = 0;
};

ParamCounts CountParams(const ModelSpec& model);

// Bytes per token of a tokenized dataset: uint16 ids when the vocabulary fits, else uint32.
inline double TokenBytes(const ModelSpec& model) { return model.vocab <= 65535 ? 2 : 4; }

// Checks the shape is a valid transformer; returns the first problem found.
std::optional<InputError> ValidateModel(const ModelSpec& model, const std::string& field_prefix);

// A plausible dense Llama-style shape for a bare parameter count (in parameters),
// following published scaling practice; see model_spec.cpp for the table used.
Result<ModelSpec> DeriveDenseShape(double params);

// A model's name as a message: a preset's or config's own name as it is, the names the
// engine makes up (a derived shape, a custom architecture) from their templates.
Message ModelNameMessage(const ModelSpec& model, bool derived);
// The English name of a custom architecture (contract/model_json.cpp names it so).
std::string CustomModelName();

}  // namespace engine
