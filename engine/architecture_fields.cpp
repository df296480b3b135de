#include "architecture_fields.h"

#include <string>
#include <vector>

namespace engine {
namespace {

using field_access::Range;

bool IsMoe(const ModelSpec& m) { return m.IsMoe(); }
bool IsMla(const ModelSpec& m) { return m.attention == AttentionKind::kMla; }
bool IsHybrid(const ModelSpec& m) { return m.mamba.layers > 0; }
bool HasVision(const ModelSpec& m) { return m.vision.present(); }

// Ranges: the floors are the smallest shapes that are still a transformer; the ceilings
// are far past any published model (the largest have 128 layers, 18,432 hidden, 256
// experts, 256k vocabularies) and keep every count finite in doubles.
std::vector<ArchitectureField> BuildTable() {
  using FT = FieldType;
  using FS = FormSection;
  std::vector<ArchitectureField> t = {
      {.key = "layers", .type = FT::kInteger, .label = "Layers", .help = "Decoder layers (num_hidden_layers).",
       .section = FS::kArchitecture, .limit = Range(1, 1000, "layers"), .default_text = "required",
       TS_FIELD_VALUE(ModelSpec, layers), .required = true},
      {.key = "hidden", .type = FT::kInteger, .label = "Hidden size", .help = "Model width (hidden_size).",
       .section = FS::kArchitecture, .limit = Range(8, 262144), .default_text = "required",
       TS_FIELD_VALUE(ModelSpec, hidden), .required = true, .form = {.step = 128}},
      {.key = "heads", .type = FT::kInteger, .label = "Attention heads",
       .help = "Query heads (num_attention_heads).", .section = FS::kArchitecture, .limit = Range(1, 4096),
       .default_text = "required", TS_FIELD_VALUE(ModelSpec, heads), .required = true},
      {.key = "kv_heads", .type = FT::kInteger, .label = "KV heads",
       .help = "Key/value heads (num_key_value_heads): fewer than heads = GQA.", .section = FS::kArchitecture,
       .limit = Range(1, 4096), .default_text = "heads", TS_FIELD_VALUE(ModelSpec, kv_heads),
       .fill_default = [](ModelSpec& m) { m.kv_heads = m.heads; }},
      // Without head_dim, hidden must divide into the heads (model_json.cpp says so).
      {.key = "head_dim", .type = FT::kInteger, .label = "Head dim",
       .help = "Per-head width (head_dim); not always hidden/heads.", .section = FS::kArchitecture,
       .limit = Range(1, 4096), .default_text = "hidden / heads", TS_FIELD_VALUE(ModelSpec, head_dim),
       .fill_default = [](ModelSpec& m) { m.head_dim = m.heads > 0 ? m.hidden / m.heads : 0; },
       .form = {.step = 8}},
      {.key = "ffn", .type = FT::kInteger, .label = "FFN width", .help = "MLP intermediate size (intermediate_size).",
       .section = FS::kArchitecture, .limit = Range(1, 4194304), .default_text = "required",
       TS_FIELD_VALUE(ModelSpec, ffn), .required = true, .form = {.step = 256}},
      {.key = "vocab", .type = FT::kInteger, .label = "Vocabulary", .help = "Tokenizer vocabulary (vocab_size).",
       .section = FS::kArchitecture, .limit = Range(1, 16777216), .default_text = "required",
       TS_FIELD_VALUE(ModelSpec, vocab), .required = true, .form = {.step = 1024}},
      {.key = "mlp", .type = FT::kChoice, .help = "Gated MLP (SwiGLU/GeGLU, three matrices) or plain GELU (two).",
       .choices = kMlpNames, TS_FIELD_VALUE(ModelSpec, mlp)},
      {.key = "norm", .type = FT::kChoice, .help = "RMSNorm (a weight) or LayerNorm (a weight and a bias).",
       .choices = kNormNames, TS_FIELD_VALUE(ModelSpec, norm)},
      {.key = "norms_per_layer", .type = FT::kInteger,
       .help = "Norms per decoder layer (2 in Llama; 4 in Gemma 2/3, which also norm each sublayer's output).",
       .limit = Range(0, 8), TS_FIELD_VALUE(ModelSpec, norms_per_layer)},
      {.key = "tied_embeddings", .type = FT::kBool, .label = "Tied embeddings",
       .help = "Input embedding and LM head share one matrix (tie_word_embeddings).", .section = FS::kArchitecture,
       TS_FIELD_VALUE(ModelSpec, tied_embeddings)},
      {.key = "qkv_bias", .type = FT::kBool, .help = "Biases on the query, key and value projections (Qwen2).",
       TS_FIELD_VALUE(ModelSpec, qkv_bias)},
      {.key = "linear_bias", .type = FT::kBool, .help = "Biases on every linear layer (GPT-2/3, OPT, BLOOM).",
       TS_FIELD_VALUE(ModelSpec, linear_bias)},
      {.key = "learned_positions", .type = FT::kInteger,
       .help = "Rows of a learned position embedding; 0 for rotary positions.", .limit = Range(0, 16777216),
       TS_FIELD_VALUE(ModelSpec, learned_positions)},
      {.key = "max_context", .type = FT::kInteger, .help = "The context the model was trained for; 0 = unknown.",
       .limit = Range(0, 1e8, "tokens"), TS_FIELD_VALUE(ModelSpec, max_context)},
      // ValidateModel holds the finer range (0, or 0.125 to below 2).
      {.key = "weight_bytes", .type = FT::kNumber,
       .help = "Bytes per linear weight of a quantized checkpoint (GPTQ/AWQ 4-bit: 0.5); 0 = held at the training "
               "precision. Only adapters train on such weights.",
       .limit = Range(0, 2), TS_FIELD_VALUE(ModelSpec, stored_weight_bytes),
       .write_if = [](const ModelSpec& m) { return m.IsQuantizedCheckpoint(); }},
      {.key = "experts", .type = FT::kInteger, .label = "Experts", .help = "Routed experts per MoE layer; 0 = dense.",
       .section = FS::kArchitecture, .limit = Range(0, 4096), TS_FIELD_VALUE(ModelSpec, moe.experts),
       .write_if = IsMoe},
      {.key = "experts_per_token", .type = FT::kInteger, .label = "Experts per token",
       .help = "Top-k routed experts.", .section = FS::kArchitecture, .limit = Range(0, 4096),
       TS_FIELD_VALUE(ModelSpec, moe.experts_per_token), .write_if = IsMoe},
      {.key = "shared_experts", .type = FT::kInteger,
       .help = "Always-on experts per MoE layer, each moe_ffn wide (DeepSeek).", .limit = Range(0, 64),
       TS_FIELD_VALUE(ModelSpec, moe.shared_experts), .write_if = IsMoe},
      {.key = "moe_ffn", .type = FT::kInteger, .label = "Expert FFN width",
       .help = "Width of one expert (moe_intermediate_size).", .section = FS::kArchitecture,
       .limit = Range(0, 4194304), TS_FIELD_VALUE(ModelSpec, moe.moe_ffn), .write_if = IsMoe, .form = {.step = 128}},
      {.key = "dense_layers", .type = FT::kInteger,
       .help = "Leading layers with a dense MLP of width ffn (DeepSeek first_k_dense_replace).",
       .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(ModelSpec, moe.dense_layers), .write_if = IsMoe},
      {.key = "shared_expert_ffn", .type = FT::kInteger,
       .help = "Total shared-expert width when given as one number (Qwen2-MoE shared_expert_intermediate_size).",
       .limit = Range(0, 4194304), TS_FIELD_VALUE(ModelSpec, moe.shared_expert_ffn), .write_if = IsMoe},
      {.key = "sliding_window", .type = FT::kInteger,
       .help = "Keys each query sees on the sliding-window (local) attention layers (Mistral, Gemma 2/3, gpt-oss); "
               "0 = full attention on every layer.",
       .limit = Range(0, 1e8, "tokens"), TS_FIELD_VALUE(ModelSpec, sliding_window),
       .write_if = [](const ModelSpec& m) { return m.sliding_window > 0; }},
      {.key = "sliding_window_layers", .type = FT::kInteger,
       .help = "How many layers use the sliding window (gpt-oss, Gemma 2: half; Gemma 3: five of six); 0 = all.",
       .limit = Range(0, 1000, "layers"), .default_text = "all layers", TS_FIELD_VALUE(ModelSpec, sliding_window_layers),
       .write_if = [](const ModelSpec& m) { return m.sliding_window > 0 && m.sliding_window_layers > 0; }},
      {.key = "attention_sinks", .type = FT::kBool,
       .help = "A learned softmax logit per attention head (gpt-oss): one parameter per head and layer.",
       TS_FIELD_VALUE(ModelSpec, attention_sinks), .write_if = [](const ModelSpec& m) { return m.attention_sinks; }},
      {.key = "mtp_layers", .type = FT::kInteger,
       .help = "Multi-token prediction modules trained with the model (DeepSeek-V3: 1): one more block, a 2h→h "
               "projection and one more loss over the vocabulary each.",
       .limit = Range(0, 16), TS_FIELD_VALUE(ModelSpec, mtp_layers),
       .write_if = [](const ModelSpec& m) { return m.mtp_layers > 0; }},
      {.key = "mamba_layers", .type = FT::kInteger,
       .help = "Layers that mix with a Mamba-2 state-space mixer instead of attention (hybrid stacks: Nemotron-H); "
               "0 = attention everywhere.",
       .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(ModelSpec, mamba.layers), .write_if = IsHybrid},
      {.key = "mamba_heads", .type = FT::kInteger, .help = "Mamba-2 heads (mamba_num_heads).",
       .limit = Range(0, 65536), TS_FIELD_VALUE(ModelSpec, mamba.heads), .write_if = IsHybrid},
      {.key = "mamba_head_dim", .type = FT::kInteger, .help = "Width of one Mamba-2 head (mamba_head_dim).",
       .limit = Range(1, 4096), TS_FIELD_VALUE(ModelSpec, mamba.head_dim), .write_if = IsHybrid},
      {.key = "mamba_state", .type = FT::kInteger, .help = "Mamba-2 state size per head (ssm_state_size).",
       .limit = Range(1, 65536), TS_FIELD_VALUE(ModelSpec, mamba.state), .write_if = IsHybrid},
      {.key = "mamba_groups", .type = FT::kInteger, .help = "Head groups sharing one B and C projection (n_groups).",
       .limit = Range(1, 4096), TS_FIELD_VALUE(ModelSpec, mamba.groups), .write_if = IsHybrid},
      {.key = "mamba_conv", .type = FT::kInteger, .help = "Kernel of the Mamba-2 depthwise convolution (conv_kernel).",
       .limit = Range(1, 64), TS_FIELD_VALUE(ModelSpec, mamba.conv), .write_if = IsHybrid},
      {.key = "mlp_free_layers", .type = FT::kInteger,
       .help = "Dense layers with a mixer and no MLP (Nemotron-H's attention blocks).",
       .limit = Range(0, 1000, "layers"), TS_FIELD_VALUE(ModelSpec, mlp_free_layers),
       .write_if = [](const ModelSpec& m) { return m.mlp_free_layers > 0; }},
      {.key = "attention", .type = FT::kChoice,
       .help = "Standard multi-head attention (with GQA/MQA through kv_heads) or DeepSeek's multi-head latent "
               "attention.",
       .choices = kAttentionNames, TS_FIELD_VALUE(ModelSpec, attention), .write_if = IsMla},
      {.key = "q_lora_rank", .type = FT::kInteger,
       .help = "MLA: rank of the query projection; 0 = queries projected directly.", .limit = Range(0, 65536),
       TS_FIELD_VALUE(ModelSpec, mla.q_lora_rank), .write_if = IsMla},
      {.key = "kv_lora_rank", .type = FT::kInteger, .help = "MLA: rank of the joint key/value latent.",
       .limit = Range(0, 65536), TS_FIELD_VALUE(ModelSpec, mla.kv_lora_rank), .write_if = IsMla},
      {.key = "qk_nope_head_dim", .type = FT::kInteger, .help = "MLA: per-head query/key width without rotary.",
       .limit = Range(0, 4096), TS_FIELD_VALUE(ModelSpec, mla.qk_nope_head_dim), .write_if = IsMla},
      {.key = "qk_rope_head_dim", .type = FT::kInteger, .help = "MLA: per-head query/key width with rotary.",
       .limit = Range(0, 4096), TS_FIELD_VALUE(ModelSpec, mla.qk_rope_head_dim), .write_if = IsMla},
      {.key = "v_head_dim", .type = FT::kInteger, .help = "MLA: per-head value width.", .limit = Range(0, 4096),
       TS_FIELD_VALUE(ModelSpec, mla.v_head_dim), .write_if = IsMla},
      // The vision tower and projector of a vision-language model (config.json vision_config;
      // vision_spec.h). Ceilings: the largest towers have 48 layers of 3,200 (InternViT-6B);
      // Qwen's processor allows 16,384² px.
      {.key = "vision_layers", .type = FT::kInteger,
       .help = "Vision-language models: blocks of the vision tower (ViT depth); 0 = a text-only model.",
       .limit = Range(0, 256, "layers"), TS_FIELD_VALUE(ModelSpec, vision.layers), .write_if = HasVision},
      {.key = "vision_hidden", .type = FT::kInteger, .help = "Width of the vision tower.",
       .limit = Range(0, 65536), TS_FIELD_VALUE(ModelSpec, vision.hidden), .write_if = HasVision},
      {.key = "vision_heads", .type = FT::kInteger, .help = "Attention heads of the vision tower.",
       .limit = Range(0, 1024), TS_FIELD_VALUE(ModelSpec, vision.heads), .write_if = HasVision},
      {.key = "vision_ffn", .type = FT::kInteger, .help = "MLP width of the vision tower.",
       .limit = Range(0, 1048576), TS_FIELD_VALUE(ModelSpec, vision.ffn), .write_if = HasVision},
      {.key = "vision_mlp", .type = FT::kChoice,
       .help = "The tower's MLP: gated (SwiGLU: Qwen2.5-VL, Pixtral) or plain GELU (CLIP, SigLIP, InternViT).",
       .choices = kMlpNames, TS_FIELD_VALUE(ModelSpec, vision.mlp), .write_if = HasVision},
      {.key = "vision_norm", .type = FT::kChoice, .help = "The tower's norms: RMSNorm or LayerNorm.",
       .choices = kNormNames, TS_FIELD_VALUE(ModelSpec, vision.norm), .write_if = HasVision},
      {.key = "vision_bias", .type = FT::kBool, .help = "Biases on the tower's linear layers.",
       TS_FIELD_VALUE(ModelSpec, vision.bias), .write_if = HasVision},
      {.key = "vision_patch", .type = FT::kInteger, .help = "Pixels per side of a patch (14; 16 in Qwen3-VL, Pixtral).",
       .limit = Range(1, 1024, "px"), TS_FIELD_VALUE(ModelSpec, vision.patch), .write_if = HasVision},
      {.key = "vision_merge", .type = FT::kInteger,
       .help = "Patches merged per side into one language-model token (Qwen 2, InternVL pixel shuffle 2, Gemma 3 "
               "pooling 4, LLaVA 1).",
       .limit = Range(1, 64), TS_FIELD_VALUE(ModelSpec, vision.merge), .write_if = HasVision},
      {.key = "vision_temporal_patch", .type = FT::kInteger,
       .help = "Video frames fused into one patch (Qwen 2; 1 elsewhere).", .limit = Range(1, 64, "frames"),
       TS_FIELD_VALUE(ModelSpec, vision.temporal_patch), .write_if = HasVision},
      {.key = "vision_positions", .type = FT::kInteger,
       .help = "Rows of the tower's learned position embedding (CLIP-336: 577); 0 = rotary positions.",
       .limit = Range(0, 1048576), TS_FIELD_VALUE(ModelSpec, vision.positions), .write_if = HasVision},
      {.key = "vision_window", .type = FT::kInteger,
       .help = "Windowed attention over window × window patches (Qwen2.5-VL: 8); 0 = full attention in every layer.",
       .limit = Range(0, 1024, "patches"), TS_FIELD_VALUE(ModelSpec, vision.window), .write_if = HasVision},
      {.key = "vision_full_attention_layers", .type = FT::kInteger,
       .help = "With a window: the tower's layers that still attend over the whole image (Qwen2.5-VL: 4).",
       .limit = Range(0, 256, "layers"), TS_FIELD_VALUE(ModelSpec, vision.full_attention_layers),
       .write_if = HasVision},
      {.key = "vision_scheme", .type = FT::kChoice,
       .help = "How images become tokens: dynamic resolution (Qwen, Pixtral), a fixed size (LLaVA-1.5, Gemma 3), "
               "tiles with a thumbnail (InternVL, MiniCPM-V, LLaVA-OneVision), or tiles read through "
               "cross-attention layers (Llama 3.2 Vision).",
       .choices = kMediaSchemeNames, TS_FIELD_VALUE(ModelSpec, vision.scheme), .write_if = HasVision},
      {.key = "vision_image_size", .type = FT::kInteger,
       .help = "Fixed scheme: the side images are resized to; tiled: a tile's side.", .limit = Range(0, 16384, "px"),
       TS_FIELD_VALUE(ModelSpec, vision.image_size), .write_if = HasVision},
      {.key = "vision_max_tiles", .type = FT::kInteger, .help = "Tiled schemes: tiles per image at most.",
       .limit = Range(1, 256, "tiles"), TS_FIELD_VALUE(ModelSpec, vision.max_tiles), .write_if = HasVision},
      {.key = "vision_thumbnail", .type = FT::kBool,
       .help = "Tiled schemes: a whole-image thumbnail tile beside a grid of more than one.",
       TS_FIELD_VALUE(ModelSpec, vision.thumbnail), .write_if = HasVision},
      {.key = "vision_query_tokens", .type = FT::kInteger,
       .help = "A resampler's tokens per tile (MiniCPM-V); 0 = the patches over merge².",
       .limit = Range(0, 65536, "tokens"), TS_FIELD_VALUE(ModelSpec, vision.query_tokens), .write_if = HasVision},
      {.key = "vision_min_pixels", .type = FT::kNumber,
       .help = "Dynamic scheme: the smallest area the processor resizes to (Qwen2.5-VL 3,136).",
       .limit = Range(0, 268435456, "px"), TS_FIELD_VALUE(ModelSpec, vision.min_pixels), .write_if = HasVision},
      {.key = "vision_max_pixels", .type = FT::kNumber,
       .help = "Dynamic scheme: the largest area the processor resizes to (Qwen2.5-VL 12,845,056).",
       .limit = Range(0, 268435456, "px"), TS_FIELD_VALUE(ModelSpec, vision.max_pixels), .write_if = HasVision},
      {.key = "vision_video_max_pixels", .type = FT::kNumber,
       .help = "Dynamic scheme: the largest area of one video frame (qwen-vl-utils 602,112); 0 = vision_max_pixels.",
       .limit = Range(0, 268435456, "px"), TS_FIELD_VALUE(ModelSpec, vision.video_max_pixels), .write_if = HasVision},
      {.key = "vision_video_min_pixels", .type = FT::kNumber,
       .help = "Dynamic scheme: the least area of a video frame (qwen-vl-utils 100,352); the per-frame cap stays at "
               "least 1.05 × it. 0 = vision_min_pixels.",
       .limit = Range(0, 268435456, "px"), TS_FIELD_VALUE(ModelSpec, vision.video_min_pixels), .write_if = HasVision},
      {.key = "vision_markers", .type = FT::kInteger,
       .help = "Tokens around each image or video (Qwen's vision start and end: 2; Llama 3.2 Vision's image token: 1).",
       .limit = Range(0, 64, "tokens"), TS_FIELD_VALUE(ModelSpec, vision.markers), .write_if = HasVision},
      {.key = "vision_row_breaks", .type = FT::kBool, .help = "One more token after each row of image tokens (Pixtral).",
       TS_FIELD_VALUE(ModelSpec, vision.row_breaks), .write_if = HasVision},
      {.key = "vision_projector_params", .type = FT::kNumber,
       .help = "Parameters of the projector (Qwen's merger, LLaVA's MLP) from the tower into the language model.",
       .limit = Range(0, 1e11), TS_FIELD_VALUE(ModelSpec, vision.projector_params), .write_if = HasVision},
      {.key = "name", .type = FT::kText, .help = "A name for the model in reports.", .type_text = "string",
       .default_text = "Custom architecture", TS_FIELD_TEXT(ModelSpec, name), .written = false},
  };
  return t;
}

const FieldTable<ModelSpec>& Table() {
  static const FieldTable<ModelSpec> table(BuildTable(), "model.");
  return table;
}

}  // namespace

std::span<const ArchitectureField> ArchitectureFields() { return Table().fields(); }

std::span<const NumericLimit> ArchitectureFieldLimits() { return Table().limits(); }

}  // namespace engine
