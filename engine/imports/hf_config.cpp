#include "engine/imports/hf_config.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "catalog/catalog_entries.h"
#include "engine/format.h"
#include "engine/input_limits.h"
#include "engine/vision.h"

namespace engine::imports {
namespace {

constexpr const char* kRoot = "model.hf_config.";

// Keys that do not change parameter count or training memory (tokens ids, init,
// numerics, rope parameters, library bookkeeping, the wrapper keys of vision-language
// configs). quantization_config, text_config and vision_config are read separately.
const std::set<std::string> kIrrelevantKeys = {
    "_name_or_path", "architectures", "auto_map", "bos_token_id", "eos_token_id", "pad_token_id", "torch_dtype",
    "transformers_version", "initializer_range", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon",
    "rope_theta", "rope_scaling", "rope_parameters", "use_cache", "attention_dropout", "hidden_dropout", "dropout",
    "model_type", "hidden_act", "hidden_activation", "pretraining_tp", "output_router_logits",
    "router_aux_loss_coef", "router_jitter_noise", "norm_topk_prob", "quantization_config", "use_sliding_window",
    "sliding_window", "max_window_layers", "attn_logit_softcapping", "final_logit_softcapping",
    "query_pre_attn_scalar", "original_max_position_embeddings", "rotary_pct", "rotary_emb_base",
    "use_parallel_residual", "classifier_dropout", "partial_rotary_factor", "embd_pdrop", "resid_pdrop",
    "aux_loss_alpha", "seq_aux", "topk_method", "scoring_func", "routed_scaling_factor", "n_group", "topk_group",
    "ep_size", "moe_layer_freq", "num_nextn_predict_layers", "decoder_sparse_step", "alibi", "parallel_attn",
    "new_decoder_architecture", "multi_query", "bias", "num_kv_heads", "n_head_kv", "attention_bias", "mlp_bias",
    "tie_word_embeddings", "max_position_embeddings", "num_hidden_layers", "hidden_size", "num_attention_heads",
    "num_key_value_heads", "head_dim", "intermediate_size", "vocab_size", "num_local_experts",
    "num_experts_per_tok", "num_experts", "moe_intermediate_size", "shared_expert_intermediate_size",
    "mlp_only_layers", "n_routed_experts", "n_shared_experts", "first_k_dense_replace", "q_lora_rank",
    "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "ffn_hidden_size", "n_layer",
    "n_embd", "num_layers", "qkv_bias", "use_qk_norm", "is_decoder", "return_dict", "tokenizer_class",
    "bos_token", "eos_token", "name_or_path", "output_attentions", "output_hidden_states", "vision_config",
    "text_config", "llm_config", "dtype", "rope_local_base_freq", "sliding_window_pattern", "layer_types",
    "cache_implementation", "image_token_index", "image_token_id", "video_token_id", "vision_start_token_id",
    "vision_end_token_id", "vision_token_id", "boi_token_index", "eoi_token_index", "mm_tokens_per_image",
    "projector_hidden_act", "vision_feature_layer", "vision_feature_select_strategy", "image_seq_length",
    "ignore_index", "multimodal_projector_bias", "downsample_ratio", "template", "experts_per_token",
    "swiglu_limit", "initial_context_length", "hybrid_override_pattern", "mamba_num_heads", "mamba_head_dim",
    "ssm_state_size", "n_groups", "conv_kernel", "chunk_size", "expand", "mamba_hidden_act", "mlp_hidden_act",
    "mamba_proj_bias", "use_bias", "use_conv_bias", "residual_in_fp32", "rescale_prenorm_residual",
    "num_logits_to_keep", "use_mamba_kernels", "attention_head_dim", "time_step_min", "time_step_max",
    "time_step_floor", "time_step_limit", "time_step_rank", "mamba_num_groups", "kv_channels", "seq_length",
    "no_bias", "scale_attn_weights", "use_dynamic_ntk", "use_logn_attn", "use_flash_attn", "bf16", "fp16",
    "fp32", "emb_dropout_prob", "attn_dropout_prob", "softmax_in_fp32", "onnx_safe", "tokenizer_type",
    "use_cache_quantization", "use_cache_kernel"};

// Top-level keys of vision-language configs that ReadVision reads (the tiles, the merge) or
// that change neither size nor tokens (InternVL's ps_version, select_layer, ...).
const std::set<std::string> kVisionWrapperKeys = {"image_grid_pinpoints", "vision_aspect_ratio", "max_dynamic_patch",
                                                  "min_dynamic_patch", "use_thumbnail", "force_image_size",
                                                  "spatial_merge_size", "ps_version", "select_layer",
                                                  "dynamic_image_size"};

// model_type values read as another one: Falcon's pre-transformers names, and the text
// models of Qwen2-VL/2.5-VL (Qwen2 decoders with QKV bias; transformers
// modeling_qwen2_vl) and Qwen3-VL (Qwen3 decoders).
const std::map<std::string, std::string> kTypeAliases = {
    {"RefinedWeb", "falcon"},          {"RefinedWebModel", "falcon"},   {"qwen2_vl", "qwen2"},
    {"qwen2_5_vl", "qwen2"},           {"qwen2_vl_text", "qwen2"},      {"qwen2_5_vl_text", "qwen2"},
    {"qwen3_vl_text", "qwen3"},        {"qwen3_vl_moe_text", "qwen3_moe"}};

const std::set<std::string> kKnownTypes = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3",
                                           "qwen3_moe", "gemma", "gemma2", "gemma3_text", "phi3", "deepseek_v2",
                                           "deepseek_v3", "gpt_neox", "falcon", "gpt_oss",
                                           "nemotron_h", "qwen"};

// Types whose transformers config class gives head_dim a fixed default (GemmaConfig,
// Gemma2Config, Gemma3TextConfig: 256; Qwen3Config, Qwen3MoeConfig: 128) instead of
// hidden_size / num_attention_heads, so an absent head_dim cannot be derived.
bool FixedHeadDimDefault(const std::string& type) {
  return type == "gemma" || type == "gemma2" || type == "gemma3_text" || type == "qwen3" || type == "qwen3_moe";
}

// Reads the keys of one config object (the config.json, or its text_config) and remembers
// which key set each engine field, so that errors name the config.json key.
struct Reader {
  const contract::Json& c;
  std::string path;          // error prefix: "model.hf_config." or "model.hf_config.text_config."
  bool nested = false;       // a text_config, which transformers writes without class defaults
  std::string model_hint;    // the text_config's _name_or_path, for the missing-key hint
  std::map<std::string, std::string> origin;  // engine field -> config key

  bool Has(const char* key) const { return c.contains(key) && !c[key].is_null(); }

  // An int key that may be absent or null (keeps *out). The 1e8 bound only keeps the value
  // an int; engine::ValidateModel checks the real range, reported under this key.
  std::optional<InputError> Int(const char* key, const char* field, int* out) {
    if (!Has(key)) return std::nullopt;
    if (auto e = contract::ReadInt(c, key, path, 0, 100000000, out)) return e;
    if (field != nullptr) origin[field] = key;
    return std::nullopt;
  }

  std::optional<InputError> Flag(const char* key, bool* out) const {
    if (!Has(key)) return std::nullopt;
    return contract::ReadBool(c, key, path, out);
  }

  // A required key that is absent: `why` (an hf_config.required* message) says what it sizes.
  InputError Missing(const char* key, engine::Message why) const {
    if (!nested) return MakeInputError(path + key, why.id, why.args);
    // transformers' PretrainedConfig.to_diff_dict writes only the values that differ
    // from the sub-config class's defaults (llava-hf/llava-1.5-7b-hf keeps 7 keys).
    if (model_hint.empty()) {
      return MakeInputError(path + key, "hf_config.text_config_defaults", {MessageArgOf("reason", std::move(why))});
    }
    return MakeInputError(path + key, "hf_config.text_config_defaults.named",
                          {MessageArgOf("reason", std::move(why)), TextArg("model", QuotedInput(model_hint))});
  }
};

std::optional<InputError> ReadCommon(Reader& r, const std::string& type, engine::ModelSpec& m,
                                     std::vector<engine::Warning>& w) {
  for (const char* key : {"num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size"}) {
    if (!r.Has(key)) return r.Missing(key, MakeMessage("hf_config.required"));
  }
  if (auto e = r.Int("num_hidden_layers", "layers", &m.layers)) return e;
  if (auto e = r.Int("hidden_size", "hidden", &m.hidden)) return e;
  if (auto e = r.Int("num_attention_heads", "heads", &m.heads)) return e;
  if (auto e = r.Int("vocab_size", "vocab", &m.vocab)) return e;
  // LlamaConfig: num_key_value_heads None means num_attention_heads (multi-head). Other
  // text_config classes default it to a fixed number (Gemma3TextConfig: 4), which an
  // omitted key then stands for.
  if (r.nested && type != "llama" && !r.Has("num_key_value_heads")) {
    return r.Missing("num_key_value_heads",
                     MakeMessage("hf_config.required.attention", {TextArg("model_type", QuotedInput(type))}));
  }
  m.kv_heads = m.heads;
  if (auto e = r.Int("num_key_value_heads", "kv_heads", &m.kv_heads)) return e;
  if (FixedHeadDimDefault(type) && !r.Has("head_dim")) {
    return r.Missing("head_dim", MakeMessage("hf_config.required.head_dim", {TextArg("model_type", type)}));
  }
  m.head_dim = m.heads > 0 ? m.hidden / m.heads : 0;
  if (auto e = r.Int("head_dim", "head_dim", &m.head_dim)) return e;
  if (type == "falcon") {
    // FalconConfig: ffn_hidden_size None means 4 × hidden_size (the Falcon MLP,
    // transformers configuration_falcon.py; tiiuae/falcon-7b and -40b configs omit it).
    m.ffn = 4 * m.hidden;
    if (!r.Has("ffn_hidden_size")) {
      w.push_back(engine::MakeWarning("hf_config_assumed", {engine::CountArg("ffn", m.ffn)}));
    }
    if (auto e = r.Int("ffn_hidden_size", "ffn", &m.ffn)) return e;
  } else {
    // No architecture fixes the MLP width of the other types: their config classes fall
    // back to one model's number (LlamaConfig 11008, Llama-2-7B's; GPTNeoXConfig 24576,
    // NeoX-20B's), which a guess from hidden_size would not reproduce either.
    if (!r.Has("intermediate_size")) {
      return r.Missing("intermediate_size",
                       MakeMessage("hf_config.required.mlp", {TextArg("model_type", QuotedInput(type))}));
    }
    if (auto e = r.Int("intermediate_size", "ffn", &m.ffn)) return e;
  }
  if (auto e = r.Int("max_position_embeddings", "max_context", &m.max_context)) return e;
  // Transformers' per-architecture defaults for tie_word_embeddings.
  m.tied_embeddings = type == "gemma" || type == "gemma2" || type == "gemma3_text" || type == "falcon";
  if (auto e = r.Flag("tie_word_embeddings", &m.tied_embeddings)) return e;
  bool attention_bias = type == "qwen2" || type == "qwen2_moe" || type == "gpt_neox";
  if (auto e = r.Flag("attention_bias", &attention_bias)) return e;
  if (auto e = r.Flag("qkv_bias", &attention_bias)) return e;
  m.qkv_bias = attention_bias;
  return std::nullopt;
}

std::optional<InputError> ReadMoe(Reader& r, const std::string& type, engine::ModelSpec& m,
                                  std::vector<engine::Warning>& w) {
  engine::MoeSpec& e = m.moe;
  if (auto err = r.Int("num_local_experts", "experts", &e.experts)) return err;   // mixtral
  if (auto err = r.Int("num_experts", "experts", &e.experts)) return err;         // qwen*_moe
  if (auto err = r.Int("n_routed_experts", "experts", &e.experts)) return err;    // deepseek
  if (auto err = r.Int("num_experts_per_tok", "experts_per_token", &e.experts_per_token)) return err;
  if (auto err = r.Int("n_shared_experts", "shared_experts", &e.shared_experts)) return err;
  if (auto err = r.Int("shared_expert_intermediate_size", nullptr, &e.shared_expert_ffn)) return err;
  if (auto err = r.Int("first_k_dense_replace", "dense_layers", &e.dense_layers)) return err;
  e.moe_ffn = type == "mixtral" || type == "gpt_oss" ? m.ffn : 0;
  if (type == "mixtral" || type == "gpt_oss") r.origin["moe_ffn"] = "intermediate_size";
  if (auto err = r.Int("moe_intermediate_size", "moe_ffn", &e.moe_ffn)) return err;
  if (r.c.contains("mlp_only_layers") && r.c["mlp_only_layers"].is_array() && !r.c["mlp_only_layers"].empty()) {
    e.dense_layers = int(std::min<size_t>(r.c["mlp_only_layers"].size(), 100000));
    r.origin["dense_layers"] = "mlp_only_layers";
    w.push_back(engine::MakeWarning("hf_config_dense_layers", {}));
  }
  if (e.experts > 0 && e.moe_ffn == 0) {
    return MakeInputError(r.path + "moe_intermediate_size", "hf_config.required.moe");
  }
  return std::nullopt;
}

std::optional<InputError> ReadMla(Reader& r, engine::ModelSpec& m) {
  m.attention = engine::AttentionKind::kMla;
  engine::MlaDims& d = m.mla;
  if (auto e = r.Int("q_lora_rank", "q_lora_rank", &d.q_lora_rank)) return e;
  if (auto e = r.Int("kv_lora_rank", "kv_lora_rank", &d.kv_lora_rank)) return e;
  if (auto e = r.Int("qk_nope_head_dim", "qk_nope_head_dim", &d.qk_nope_head_dim)) return e;
  if (auto e = r.Int("qk_rope_head_dim", "qk_rope_head_dim", &d.qk_rope_head_dim)) return e;
  if (auto e = r.Int("v_head_dim", "v_head_dim", &d.v_head_dim)) return e;
  m.kv_heads = m.heads;
  r.origin["kv_heads"] = "num_attention_heads";
  if (d.v_head_dim > 0) {
    m.head_dim = d.v_head_dim;
    r.origin["head_dim"] = "v_head_dim";
  }
  return std::nullopt;
}

// Sliding-window layers: layer_types counts them where the config lists them (gpt-oss,
// newer Qwen/Mistral configs); Gemma 2 alternates local and global layers
// (modeling_gemma2.py); Gemma 3 makes every sliding_window_pattern-th layer global (6 by
// default, Gemma3TextConfig); Qwen2/3 configs carry a window they do not use unless
// use_sliding_window; elsewhere (Mistral) every layer is local.
std::optional<InputError> ReadSlidingWindow(Reader& r, const std::string& type, engine::ModelSpec& m) {
  bool use_window = !(type == "qwen2" || type == "qwen2_moe" || type == "qwen3" || type == "qwen3_moe");
  if (auto e = r.Flag("use_sliding_window", &use_window)) return e;
  int window = 0;
  if (auto e = r.Int("sliding_window", "sliding_window", &window)) return e;
  if (!use_window || window <= 0) return std::nullopt;
  m.sliding_window = window;
  if (r.c.contains("layer_types") && r.c["layer_types"].is_array()) {
    int local = 0;
    for (const contract::Json& kind : r.c["layer_types"]) local += kind.is_string() && kind.get<std::string>() == "sliding_attention";
    if (local == 0) m.sliding_window = 0;
    m.sliding_window_layers = std::min(local, m.layers);
    r.origin["sliding_window_layers"] = "layer_types";
    return std::nullopt;
  }
  if (type == "gemma2") m.sliding_window_layers = m.layers / 2;
  if (type == "gemma3_text") {
    int pattern = 6;
    if (auto e = r.Int("sliding_window_pattern", nullptr, &pattern)) return e;
    if (pattern > 0) m.sliding_window_layers = m.layers - m.layers / pattern;
  }
  return std::nullopt;
}

// Nemotron-H (transformers configuration_nemotron_h.py): hybrid_override_pattern lists
// the blocks, "M" a Mamba-2 mixer, "*" attention, "-" a squared-ReLU MLP, each with one
// norm. The engine's layer is a mixer with the MLP that follows it, so the layers are the
// mixers and those without an MLP are mlp_free_layers.
std::optional<InputError> ReadHybrid(Reader& r, engine::ModelSpec& m) {
  std::string pattern;
  if (auto e = contract::ReadString(r.c, "hybrid_override_pattern", r.path, &pattern)) return e;
  int mamba = 0, attention = 0, mlp = 0;
  for (char block : pattern) {
    if (block == 'M') ++mamba;
    else if (block == '*') ++attention;
    else if (block == '-') ++mlp;
    else return MakeInputError(r.path + "hybrid_override_pattern", "hf_config.hybrid_pattern", {TextArg("block", std::string(1, block))});
  }
  if (mamba + attention == 0 || mlp > mamba + attention) {
    return MakeInputError(r.path + "hybrid_override_pattern", "hf_config.hybrid_pattern", {TextArg("block", pattern.substr(0, 16))});
  }
  // num_hidden_layers (read into m.layers by ReadCommon) counts every block of the
  // pattern, MLPs included (Nemotron-H-8B: 52).
  if (m.layers != int(pattern.size())) {
    return MakeInputError(r.path + "hybrid_override_pattern", "hf_config.hybrid_pattern.length",
                          {NumberArg("blocks", double(pattern.size())), NumberArg("layers", m.layers)});
  }
  if (mamba > 0) {
    for (const char* key : {"mamba_num_heads", "mamba_head_dim", "ssm_state_size"}) {
      if (!r.Has(key)) return r.Missing(key, MakeMessage("hf_config.required.mamba"));
    }
  }
  m.layers = mamba + attention;
  m.mamba.layers = mamba;
  m.mlp_free_layers = m.layers - mlp;
  r.origin["layers"] = r.origin["mamba_layers"] = r.origin["mlp_free_layers"] = "hybrid_override_pattern";
  m.mlp = engine::MlpKind::kPlain;
  if (auto e = r.Int("attention_head_dim", "head_dim", &m.head_dim)) return e;
  if (auto e = r.Int("mamba_num_heads", "mamba_heads", &m.mamba.heads)) return e;
  if (auto e = r.Int("mamba_head_dim", "mamba_head_dim", &m.mamba.head_dim)) return e;
  if (auto e = r.Int("ssm_state_size", "mamba_state", &m.mamba.state)) return e;
  if (auto e = r.Int("n_groups", "mamba_groups", &m.mamba.groups)) return e;
  if (auto e = r.Int("conv_kernel", "mamba_conv", &m.mamba.conv)) return e;
  return std::nullopt;
}

// GPT-NeoX: LayerNorm with biases everywhere, plain GELU MLP. Falcon: LayerNorm, no
// linear biases, plain GELU MLP (width read in ReadCommon), multi-query or grouped KV heads.
std::optional<InputError> ReadLegacyShape(Reader& r, const std::string& type, engine::ModelSpec& m) {
  m.mlp = engine::MlpKind::kPlain;
  m.norm = engine::NormKind::kLayerNorm;
  if (type == "gpt_neox") {
    m.linear_bias = true;
    return std::nullopt;
  }
  bool new_arch = false, multi_query = true, bias = false;
  if (auto e = r.Flag("new_decoder_architecture", &new_arch)) return e;
  if (auto e = r.Flag("multi_query", &multi_query)) return e;
  if (auto e = r.Flag("bias", &bias)) return e;
  m.linear_bias = bias;
  m.kv_heads = multi_query ? 1 : m.heads;
  if (auto e = r.Int("num_kv_heads", "kv_heads", &m.kv_heads)) return e;
  if (auto e = r.Int("n_head_kv", "kv_heads", &m.kv_heads)) return e;
  m.norms_per_layer = new_arch ? 2 : 1;  // ln_attn + ln_mlp, or one shared input_layernorm
  return std::nullopt;
}

// Names the keys not used for sizing: each quoted at most 64 bytes, at most 20 of them,
// so a config.json with huge or countless keys is not echoed back whole.
void WarnUnknownKeys(const contract::Json& c, const std::string& prefix, std::vector<engine::Warning>& w) {
  constexpr size_t kMaxListed = 20;
  std::string unknown;
  size_t count = 0;
  for (const auto& [key, value] : c.items()) {
    if (kIrrelevantKeys.count(key) || kVisionWrapperKeys.count(key)) continue;
    if (++count <= kMaxListed) unknown += (unknown.empty() ? "" : ", ") + prefix + QuotedInput(key);
  }
  if (unknown.empty()) return;
  std::vector<engine::MessageArg> args = {engine::TextArg("keys", unknown)};
  if (count <= kMaxListed) {
    w.push_back(engine::MakeWarning("hf_config_unmapped_keys", std::move(args)));
    return;
  }
  args.push_back(engine::CountArg("more", static_cast<long long>(count - kMaxListed)));
  w.push_back(engine::MakeWarning("hf_config_unmapped_keys", std::move(args), "hf_config_unmapped_keys.more"));
}

// [SECTION] RoPE values

// rope_theta: real bases run from 1e4 (RoFormer, Llama 2, GPT-NeoX) to 3.58e9
// (gradientai/Llama-3-8B-Instruct-Gradient-1048k config.json, 2024-05). Below 100 the
// slowest rotary wavelength (≈ 2π·θ tokens) is under 630 tokens, shorter than any trained
// context; above 1e11 the slowest dimensions turn by under 1e-3 rad across the longest
// context TrainSizer takes (1e8 tokens), i.e. carry no position at all. Either is a typo.
// rope_scaling.factor stretches the original context: 1 is none, and 1024 × a 4K context is
// 4M tokens, past LongRoPE's 2048K from 4K (512×, Ding et al. 2024).
std::optional<InputError> CheckRopeObject(const contract::Json& o, const std::string& path, bool scaling) {
  double value = 0;
  for (const char* key : {"rope_theta", "rotary_emb_base"}) {
    if (auto e = contract::OptionalNumber(o, key, path, kMinRopeTheta, kMaxRopeTheta, &value)) return e;
  }
  if (!scaling) return std::nullopt;
  return contract::OptionalNumber(o, "factor", path, kMinRopeScalingFactor, kMaxRopeScalingFactor, &value);
}

std::optional<InputError> CheckRope(const contract::Json& t, const std::string& path) {
  if (auto e = CheckRopeObject(t, path, false)) return e;
  for (const char* key : {"rope_scaling", "rope_parameters"}) {
    if (!t.contains(key) || t[key].is_null()) continue;
    if (!t[key].is_object()) {
      return MakeInputError(path + key, "hf_config.rope_not_object", {catalog::JsonTypeArg("type", t[key])});
    }
    if (auto e = CheckRopeObject(t[key], path + key + ".", true)) return e;
  }
  return std::nullopt;
}

// [SECTION] quantization_config

// Bytes per stored weight of a GPTQ/AWQ linear layer: `bits`/8 for the packed weight, plus
// per group of `group_size` input rows an fp16 scale (2 B) and a zero point packed at `bits`
// (AutoGPTQ/GPTQModel and AutoAWQ buffers: qweight [in/(32/bits), out] int32, scales
// [in/group, out] fp16, qzeros [in/group, out/(32/bits)] int32). 4 bits, group 128: 0.520 B.
double PackedBytesPerWeight(int bits, int group_size) {
  const double weight = bits / 8.0;
  return group_size > 0 ? weight + (2.0 + weight) / group_size : weight;
}

// Bytes per stored weight of a bitsandbytes 4-bit layer: 4 bits plus an fp32 absmax per
// block of 64, or with double quantization an 8-bit absmax per 64 and one fp32 scale per
// 256 blocks: 0.5625 B or 0.516 B (Dettmers et al. 2023 §3; bitsandbytes quantize_4bit).
double Bnb4BitBytesPerWeight(bool double_quant) {
  return double_quant ? (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0 : (4.0 + 32.0 / 64.0) / 8.0;
}

// FP8 checkpoints (DeepSeek-V3, Qwen3-FP8) store e4m3 weights with an fp32 scale per
// weight_block_size block (128 × 128 in both: config.json quantization_config); without a
// block size, one scale per tensor.
double Fp8BytesPerWeight(double block_elements) { return block_elements > 0 ? 1.0 + 4.0 / block_elements : 1.0; }

// weight_block_size: [rows, columns] of the blocks sharing one scale. Real checkpoints use
// 128 × 128; a side under 16 would store more scale than weight, so it is refused.
std::optional<InputError> ReadWeightBlock(const contract::Json& qc, const std::string& path, double* elements) {
  if (!qc.contains("weight_block_size") || qc["weight_block_size"].is_null()) return std::nullopt;
  const contract::Json& b = qc["weight_block_size"];
  const bool pair = b.is_array() && b.size() == 2 && b[0].is_number_integer() && b[1].is_number_integer();
  if (!pair || b[0].get<long long>() < 16 || b[1].get<long long>() < 16 || b[0].get<long long>() > 65536 ||
      b[1].get<long long>() > 65536) {
    return MakeInputError(path + "weight_block_size", "hf_config.weight_block_size",
                          {TextArg("value", QuotedInput(b.dump()))});
  }
  *elements = b[0].get<double>() * b[1].get<double>();
  return std::nullopt;
}

// The stored bytes per linear weight the engine sizes the frozen base with; 0 when the
// config does not say how wide its weights are.
double StoredBytesPerWeight(const HfQuantization& q, double fp8_block_elements, bool bnb_double_quant) {
  if (q.bits <= 0) return 0;
  if (q.method == "gptq" || q.method == "awq") return PackedBytesPerWeight(q.bits, q.group_size);
  if (q.method == "bitsandbytes" && q.bits == 4) return Bnb4BitBytesPerWeight(bnb_double_quant);
  if (q.method == "fp8") return Fp8BytesPerWeight(fp8_block_elements);
  // LLM.int8 (bitsandbytes 8-bit) and any other scheme: the stated width; per-row scales
  // add well under 1%.
  return q.bits / 8.0;
}

std::optional<InputError> ReadQuantization(const contract::Json& c, HfQuantization& q, std::vector<engine::Warning>& w) {
  if (!c.contains("quantization_config") || c["quantization_config"].is_null()) return std::nullopt;
  const std::string path = std::string(kRoot) + "quantization_config.";
  const contract::Json& qc = c["quantization_config"];
  if (!qc.is_object()) {
    return MakeInputError(path.substr(0, path.size() - 1), "hf_config.quantization_not_object",
                          {catalog::JsonTypeArg("type", qc)});
  }
  q.present = true;
  q.method = "unknown";
  if (auto e = contract::ReadString(qc, "quant_method", path, &q.method)) return e;
  // Bits: GPTQ takes 2, 3, 4 or 8 and AWQ 4 (transformers GPTQConfig, AwqConfig); FP8 and
  // other schemes store 8 or fewer. 1..8 is every width a quantized weight could have.
  if (qc.contains("bits") && !qc["bits"].is_null()) {
    if (auto e = contract::ReadInt(qc, "bits", path, 1, 8, &q.bits)) return e;
  }
  // Group size: -1 is one scale per output column; real groups are 32 to 128 weights
  // (AutoGPTQ, AutoAWQ). Under 16 the scales would outweigh the weights.
  if (qc.contains("group_size") && !qc["group_size"].is_null()) {
    if (auto e = contract::ReadInt(qc, "group_size", path, -1, 1 << 20, &q.group_size)) return e;
    if (q.group_size >= 1 && q.group_size < 16) {
      return MakeInputError(path + "group_size", "hf_config.group_size", {engine::CountArg("group_size", q.group_size)});
    }
  }
  double fp8_block_elements = 0;
  if (auto e = ReadWeightBlock(qc, path, &fp8_block_elements)) return e;
  bool in_4bit = false, in_8bit = false, double_quant = false;
  if (auto e = qc.contains("load_in_4bit") ? contract::ReadBool(qc, "load_in_4bit", path, &in_4bit) : std::nullopt) return e;
  if (auto e = qc.contains("load_in_8bit") ? contract::ReadBool(qc, "load_in_8bit", path, &in_8bit) : std::nullopt) return e;
  if (qc.contains("bnb_4bit_use_double_quant") && !qc["bnb_4bit_use_double_quant"].is_null()) {
    if (auto e = contract::ReadBool(qc, "bnb_4bit_use_double_quant", path, &double_quant)) return e;
  }
  if (q.method == "bitsandbytes" && q.bits == 0) q.bits = in_4bit ? 4 : in_8bit ? 8 : 0;
  if (q.method == "fp8" && q.bits == 0) q.bits = 8;  // DeepSeek-V3's e4m3 block-scaled weights
  q.bytes_per_weight = StoredBytesPerWeight(q, fp8_block_elements, double_quant);

  std::vector<engine::MessageArg> args = {engine::TextArg("method", QuotedInput(q.method))};
  std::string variant = "quantized_checkpoint.unknown_bits";
  if (q.bytes_per_weight > 0) {
    args.push_back(engine::CountArg("bits", q.bits));
    args.push_back(engine::NumberArg("bytes_per_weight", q.bytes_per_weight));
    variant = "quantized_checkpoint.bits";
    if (q.group_size > 0) {
      args.push_back(engine::CountArg("group_size", q.group_size));
      variant = "quantized_checkpoint.grouped";
    }
  }
  w.push_back(engine::MakeWarning("quantized_checkpoint", std::move(args), variant));
  return std::nullopt;
}

// [SECTION] vision_config

// The vision-language families whose vision_config is read, by the wrapper's model_type.
// Their shapes and projectors are those of the presets (catalog/models.json, whose notes
// count each one); any other vision_config is sized from its generic keys (ReadGenericVision).
enum class VisionFamily { kQwen2Vl, kQwen25Vl, kQwen3Vl, kLlava, kLlavaTiled, kInternVl, kGemma3, kMllama, kMistral3 };

const std::map<std::string, VisionFamily> kVisionFamilies = {
    {"qwen2_vl", VisionFamily::kQwen2Vl},         {"qwen2_5_vl", VisionFamily::kQwen25Vl},
    {"qwen3_vl", VisionFamily::kQwen3Vl},         {"qwen3_vl_moe", VisionFamily::kQwen3Vl},
    {"llava", VisionFamily::kLlava},              {"llava_next", VisionFamily::kLlavaTiled},
    {"llava_onevision", VisionFamily::kLlavaTiled}, {"internvl_chat", VisionFamily::kInternVl},
    {"internvl", VisionFamily::kInternVl},        {"gemma3", VisionFamily::kGemma3},
    {"mllama", VisionFamily::kMllama},            {"mistral3", VisionFamily::kMistral3}};

// The keys that name a ViT's shape in a family's vision_config.
struct VitKeys {
  const char* layers;
  const char* hidden;
  const char* heads;
  const char* ffn;  // nullptr: mlp_ratio × hidden (Qwen2-VL)
};
// CLIPVisionConfig, SiglipVisionConfig, InternVisionConfig, PixtralVisionConfig.
constexpr VitKeys kHfVitKeys = {"num_hidden_layers", "hidden_size", "num_attention_heads", "intermediate_size"};
constexpr VitKeys kQwenVitKeys = {"depth", "hidden_size", "num_heads", "intermediate_size"};  // Qwen2.5-VL, Qwen3-VL
constexpr VitKeys kQwen2VitKeys = {"depth", "embed_dim", "num_heads", nullptr};
constexpr VitKeys kMllamaVitKeys = {"num_hidden_layers", "hidden_size", "attention_heads", "intermediate_size"};

// One JSON value read as an int under `path` + `key` (an element of an array).
std::optional<InputError> ReadIntValue(const contract::Json& value, const std::string& path, const char* key, int lo,
                                       int hi, int* out) {
  contract::Json holder = contract::Json::object();
  holder[key] = value;
  return contract::ReadInt(holder, key, path, lo, hi, out);
}

// An int key within the limit of an engine field (engine/architecture_fields.cpp declares each
// vision_* range once: "model.vision_layers"); the error names the config key. HF-native InternVL
// writes image_size and patch_size as [height, width]: the height is read (its towers are square).
std::optional<InputError> ReadLimited(Reader& r, const char* key, const char* field, int* out) {
  if (!r.Has(key)) return std::nullopt;
  const contract::Json& value = r.c[key].is_array() && !r.c[key].empty() ? r.c[key][0] : r.c[key];
  int read = 0;
  if (auto e = ReadIntValue(value, r.path, key, 0, 100000000, &read)) return e;
  if (auto e = engine::CheckLimit(std::string("model.") + field, r.path + key, read)) return e;
  *out = read;
  r.origin[field] = key;
  return std::nullopt;
}

// The length of an array of layer indexes (Qwen2.5-VL's fullatt_block_indexes, Qwen3-VL's
// deepstack_visual_indexes); absent keeps *count.
std::optional<InputError> ReadIndexCount(Reader& r, const char* key, const char* field, int* count) {
  if (!r.Has(key)) return std::nullopt;
  if (!r.c[key].is_array()) {
    return MakeInputError(r.path + key, "input.not_an_array", {catalog::JsonTypeArg("got", r.c[key])});
  }
  int index = 0;
  for (const contract::Json& i : r.c[key]) {
    if (auto e = ReadIntValue(i, r.path, key, 0, 255, &index)) return e;
  }
  *count = static_cast<int>(r.c[key].size());
  if (field != nullptr) r.origin[field] = key;
  return engine::CheckLimit("model.vision_layers", r.path + key, *count);
}

bool ActIsSilu(const Reader& r, bool absent) {
  if (!r.Has("hidden_act")) return absent;
  return r.c["hidden_act"] == "silu" || r.c["hidden_act"] == "swish";
}

// Depth, width, heads, MLP width and patch. Heads may be given as head_dim (PixtralVisionConfig).
std::optional<InputError> ReadVit(Reader& v, const VitKeys& k, VisionSpec& s) {
  for (const char* key : {k.layers, k.hidden, k.ffn}) {
    if (key != nullptr && !v.Has(key)) return v.Missing(key, MakeMessage("hf_config.required"));
  }
  if (auto e = ReadLimited(v, k.layers, "vision_layers", &s.layers)) return e;
  if (auto e = ReadLimited(v, k.hidden, "vision_hidden", &s.hidden)) return e;
  if (!v.Has(k.heads) && v.Has("head_dim")) {
    int head_dim = 0;
    if (auto e = ReadLimited(v, "head_dim", "vision_heads", &head_dim)) return e;
    s.heads = head_dim > 0 ? s.hidden / head_dim : 0;
  } else {
    if (!v.Has(k.heads)) return v.Missing(k.heads, MakeMessage("hf_config.required"));
    if (auto e = ReadLimited(v, k.heads, "vision_heads", &s.heads)) return e;
  }
  if (k.ffn != nullptr) {
    if (auto e = ReadLimited(v, k.ffn, "vision_ffn", &s.ffn)) return e;
  } else {
    // Qwen2-VL's MLP is int(embed_dim × mlp_ratio) wide (VisionMlp, modeling_qwen2_vl.py,
    // 2024-08); Qwen2VLVisionConfig's mlp_ratio defaults to 4.
    double ratio = 4;
    if (auto e = contract::OptionalNumber(v.c, "mlp_ratio", v.path, 0.0625, 64, &ratio)) return e;
    s.ffn = static_cast<int>(s.hidden * ratio);
    v.origin["vision_ffn"] = "mlp_ratio";
  }
  return ReadLimited(v, "patch_size", "vision_patch", &s.patch);
}

// Learned positions of a tower of image_size: one per patch, plus CLIP's and InternViT's class token.
int LearnedPositions(const VisionSpec& s, bool class_token) {
  const int side = s.patch > 0 ? s.image_size / s.patch : 0;
  return side * side + (class_token ? 1 : 0);
}

double LinearParams(double in, double out, bool bias) { return in * out + (bias ? out : 0); }
double NormParams(double width, VisionNorm norm) { return width * (norm == VisionNorm::kLayerNorm ? 2 : 1); }

// [SECTION] vision_config: Qwen2-VL, Qwen2.5-VL, Qwen3-VL

// Qwen's PatchMerger (modeling_qwen2_vl.py 2024-08, modeling_qwen2_5_vl.py 2025-01,
// modeling_qwen3_vl.py 2025-09): a norm over the ViT width, then Linear(w·m², w·m²) -> GELU ->
// Linear(w·m², out) with biases over merge² patches concatenated. Qwen3-VL adds one merger per
// deepstack_visual_indexes entry, normed after the shuffle (over w·m²).
double QwenMergerParams(const VisionSpec& s, int out, int deepstack) {
  const double merged = double(s.hidden) * s.merge * s.merge;
  const double mlp = LinearParams(merged, merged, true) + LinearParams(merged, out, true);
  return NormParams(s.hidden, s.norm) + mlp + deepstack * (NormParams(merged, s.norm) + mlp);
}

// Qwen2.5-VL attends within window_size px windows (112 px = 8 patches of 14), except in the
// fullatt_block_indexes blocks (Qwen2_5_VLVisionConfig defaults: 112, [7, 15, 23, 31]).
std::optional<InputError> ReadQwenWindow(Reader& v, VisionSpec& s) {
  int window_px = 112;
  s.full_attention_layers = 4;
  if (auto e = v.Int("window_size", nullptr, &window_px)) return e;
  if (auto e = ReadIndexCount(v, "fullatt_block_indexes", "vision_full_attention_layers", &s.full_attention_layers)) {
    return e;
  }
  s.window = window_px / std::max(1, s.patch);
  v.origin["vision_window"] = "window_size";
  return engine::CheckLimit("model.vision_window", v.path + "window_size", s.window);
}

// Pixel limits live in preprocessor_config.json, not config.json: the processors' defaults, as the
// presets take them. Qwen2VLImageProcessor min_pixels 56·56 = 3136, max_pixels 28·28·16384 =
// 12845056; Qwen3-VL's shortest_edge 65536, longest_edge 16777216 (factor 32). A video frame is
// capped at qwen-vl-utils' VIDEO_MAX_PIXELS 768·28·28 = 602112 (Qwen3-VL: 768·32·32 = 786432),
// and for Qwen2/2.5-VL never below 1.05 × its VIDEO_MIN_PIXELS 128·28·28 = 100352.
void QwenPixelLimits(bool qwen3, VisionSpec& s) {
  s.min_pixels = qwen3 ? 65536 : 3136;
  s.max_pixels = qwen3 ? 16777216 : 12845056;
  s.video_max_pixels = qwen3 ? 786432 : 602112;
  s.video_min_pixels = qwen3 ? 0 : 100352;
}

// Qwen2-VL: embed_dim wide, GELU MLP, LayerNorm, vision_config.hidden_size = the merger's output.
// Qwen2.5-VL: hidden_size wide, SwiGLU (hidden_act silu) and RMSNorm, windows, out_hidden_size.
// Qwen3-VL: GELU and LayerNorm, patch 16, learned num_position_embeddings (2304), DeepStack.
std::optional<InputError> ReadQwenVision(Reader& v, VisionFamily f, int text_hidden, VisionSpec& s) {
  const bool qwen2 = f == VisionFamily::kQwen2Vl, qwen25 = f == VisionFamily::kQwen25Vl;
  const bool qwen3 = f == VisionFamily::kQwen3Vl;
  s.patch = qwen3 ? 16 : 14;
  s.merge = s.temporal_patch = 2;
  if (auto e = ReadVit(v, qwen2 ? kQwen2VitKeys : kQwenVitKeys, s)) return e;
  if (auto e = ReadLimited(v, "spatial_merge_size", "vision_merge", &s.merge)) return e;
  if (auto e = ReadLimited(v, "temporal_patch_size", "vision_temporal_patch", &s.temporal_patch)) return e;
  s.mlp = qwen25 && ActIsSilu(v, true) ? VisionMlp::kGated : VisionMlp::kPlain;
  s.norm = qwen25 ? VisionNorm::kRmsNorm : VisionNorm::kLayerNorm;
  if (qwen25) {
    if (auto e = ReadQwenWindow(v, s)) return e;
  }
  int deepstack = 0;
  if (qwen3) {
    s.positions = 2304;
    deepstack = 3;
    if (auto e = ReadLimited(v, "num_position_embeddings", "vision_positions", &s.positions)) return e;
    if (auto e = ReadIndexCount(v, "deepstack_visual_indexes", nullptr, &deepstack)) return e;
  }
  // The merger's output is the language model's width (the configs repeat it).
  int out = text_hidden;
  const char* out_key = qwen2 ? "hidden_size" : "out_hidden_size";
  if (auto e = v.Int(out_key, nullptr, &out)) return e;
  if (auto e = engine::CheckLimit("model.hidden", v.path + out_key, out)) return e;
  s.projector_params = QwenMergerParams(s, out, deepstack);
  s.scheme = MediaScheme::kDynamic;
  s.markers = 2;  // <|vision_start|> and <|vision_end|>
  QwenPixelLimits(qwen3, s);
  return std::nullopt;
}

// [SECTION] vision_config: LLaVA, Pixtral, Mistral 3

// Pixtral's ViT (modeling_pixtral.py, 2024-09): SwiGLU and RMSNorm without biases, 2-D RoPE (no
// learned positions), one token per patch (per merge² patches in Mistral 3) and an [IMG_BREAK]
// after each row. The processor caps the longest edge at image_size, taken as an image_size²
// area as the pixtral-12b preset does.
std::optional<InputError> ReadPixtralTower(Reader& v, VisionSpec& s) {
  s.patch = 16;
  s.image_size = 1024;  // PixtralVisionConfig defaults
  if (auto e = ReadVit(v, kHfVitKeys, s)) return e;
  if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
  v.origin["vision_max_pixels"] = "image_size";
  s.mlp = VisionMlp::kGated;
  s.norm = VisionNorm::kRmsNorm;
  s.bias = false;
  s.scheme = MediaScheme::kDynamic;
  s.max_pixels = double(s.image_size) * s.image_size;
  s.image_size = 0;
  s.row_breaks = true;
  return std::nullopt;
}

// LLaVA-NeXT picks a grid from image_grid_pinpoints, whose largest holds w·h / image_size² tiles
// (LlavaNextConfig's default pinpoints, up to 672 × 672 at 336: 4); LLaVA-OneVision caps the grid
// at anyres_max_N crops (vision_aspect_ratio, configuration_llava_onevision.py, 2024-08).
std::optional<InputError> ReadLlavaTiles(const contract::Json& c, VisionSpec& s) {
  const std::string path = std::string(kRoot) + "image_grid_pinpoints";
  int tiles = 4;
  if (c.contains("image_grid_pinpoints") && c["image_grid_pinpoints"].is_array()) {
    tiles = 1;
    for (const contract::Json& point : c["image_grid_pinpoints"]) {
      int h = 0, w = 0;
      const bool pair = point.is_array() && point.size() == 2;
      if (auto e = ReadIntValue(pair ? point[0] : point, kRoot, "image_grid_pinpoints", 1, 16384, &h)) return e;
      if (auto e = ReadIntValue(pair ? point[1] : point, kRoot, "image_grid_pinpoints", 1, 16384, &w)) return e;
      tiles = std::max(tiles, (h / s.image_size) * (w / s.image_size));
    }
  }
  const std::string anyres = "anyres_max_";
  if (c.contains("vision_aspect_ratio") && c["vision_aspect_ratio"].is_string()) {
    const std::string ratio = c["vision_aspect_ratio"].get<std::string>();
    if (ratio.rfind(anyres, 0) == 0) {
      // strtol saturates where atoi's overflow is undefined; the limit check below refuses it.
      const long n = std::strtol(ratio.c_str() + anyres.size(), nullptr, 10);
      tiles = static_cast<int>(std::clamp<long>(n, -1, 1 << 20));
    }
  }
  s.max_tiles = tiles;
  s.thumbnail = true;  // the base image beside the grid
  return engine::CheckLimit("model.vision_max_tiles", path, tiles);
}

// LLaVA (modeling_llava.py, llava_next, llava_onevision; 2023-2024): a CLIP or SigLIP tower (or
// Pixtral's, mistral-community/pixtral-12b) and LlavaMultiModalProjector Linear(w·feature layers,
// text) -> GELU -> Linear(text, text), biased unless multimodal_projector_bias is false. LLaVA-NeXT
// and OneVision add image_newline (one text-width vector). CLIP positions include its class token.
std::optional<InputError> ReadLlavaVision(Reader& v, const contract::Json& c, VisionFamily f, int text_hidden,
                                          VisionSpec& s) {
  std::string tower = "clip_vision_model";  // LlavaConfig's default vision_config
  if (auto e = contract::ReadString(v.c, "model_type", v.path, &tower)) return e;
  if (tower == "pixtral") {
    if (auto e = ReadPixtralTower(v, s)) return e;
  } else {
    s.patch = tower == "siglip_vision_model" ? 16 : 32;  // SiglipVisionConfig, CLIPVisionConfig defaults
    s.image_size = 224;
    if (auto e = ReadVit(v, kHfVitKeys, s)) return e;
    if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
    s.positions = LearnedPositions(s, tower != "siglip_vision_model");
    s.scheme = f == VisionFamily::kLlavaTiled ? MediaScheme::kTiled : MediaScheme::kFixed;
    if (f == VisionFamily::kLlavaTiled) {
      if (auto e = ReadLlavaTiles(c, s)) return e;
    }
  }
  bool bias = true;
  if (c.contains("multimodal_projector_bias")) {
    if (auto e = contract::ReadBool(c, "multimodal_projector_bias", kRoot, &bias)) return e;
  }
  const auto& layer = c.contains("vision_feature_layer") ? c["vision_feature_layer"] : contract::Json();
  const double in = double(s.hidden) * (layer.is_array() ? std::max<size_t>(1, layer.size()) : 1);
  s.projector_params = LinearParams(in, text_hidden, bias) + LinearParams(text_hidden, text_hidden, bias) +
                       (f == VisionFamily::kLlavaTiled ? text_hidden : 0);
  return std::nullopt;
}

// Mistral 3 (modeling_mistral3.py, 2025-03): Pixtral's tower, spatial_merge_size² patches per
// token, and a projector RMSNorm(w) + Linear(w·m², w) without bias (the patch merger) +
// Linear(w, text) -> GELU -> Linear(text, text), biased when multimodal_projector_bias (default false).
std::optional<InputError> ReadMistral3Vision(Reader& v, Reader& top, int text_hidden, VisionSpec& s) {
  if (auto e = ReadPixtralTower(v, s)) return e;
  s.merge = 2;
  if (auto e = ReadLimited(top, "spatial_merge_size", "vision_merge", &s.merge)) return e;
  bool bias = false;
  if (top.Has("multimodal_projector_bias")) {
    if (auto e = contract::ReadBool(top.c, "multimodal_projector_bias", kRoot, &bias)) return e;
  }
  const double w = s.hidden;
  s.projector_params = NormParams(w, VisionNorm::kRmsNorm) + LinearParams(w * s.merge * s.merge, w, false) +
                       LinearParams(w, text_hidden, bias) + LinearParams(text_hidden, text_hidden, bias);
  return std::nullopt;
}

// [SECTION] vision_config: InternVL, Gemma 3, Llama 3.2 Vision

// InternVL (remote code: OpenGVLab configuration_internvl_chat.py and modeling_internvl_chat.py,
// 2024-2025; HF-native: configuration_internvl.py, 2025-04): InternViT (norm_type rms_norm in the
// 6B, layer_norm in the 300M), a pixel shuffle keeping downsample_ratio per side (0.5: 2 × 2
// patches per token), tiles of force_image_size (or the tower's image_size) up to
// max_dynamic_patch (12) plus a thumbnail (use_thumbnail; the HF-native processor's defaults are
// the same), <img></img> around each image, and mlp1 = LayerNorm(w·m²) -> Linear(w·m², text) ->
// GELU -> Linear(text, text) with biases.
std::optional<InputError> ReadInternVision(Reader& v, Reader& top, int text_hidden, VisionSpec& s) {
  s.image_size = 448;
  if (auto e = ReadVit(v, kHfVitKeys, s)) return e;
  if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
  if (auto e = ReadLimited(top, "force_image_size", "vision_image_size", &s.image_size)) return e;
  s.norm = v.Has("norm_type") && v.c["norm_type"] == "rms_norm" ? VisionNorm::kRmsNorm : VisionNorm::kLayerNorm;
  double ratio = 0.5;
  if (auto e = contract::OptionalNumber(top.c, "downsample_ratio", kRoot, 1.0 / 64, 1, &ratio)) return e;
  s.merge = static_cast<int>(std::lround(1 / ratio));
  s.max_tiles = 12;
  s.thumbnail = true;
  if (auto e = ReadLimited(top, "max_dynamic_patch", "vision_max_tiles", &s.max_tiles)) return e;
  if (auto e = top.Flag("use_thumbnail", &s.thumbnail)) return e;
  s.positions = LearnedPositions(s, true);
  s.scheme = MediaScheme::kTiled;
  s.markers = 2;
  const double merged = double(s.hidden) * s.merge * s.merge;
  s.projector_params = NormParams(merged, VisionNorm::kLayerNorm) + LinearParams(merged, text_hidden, true) +
                       LinearParams(text_hidden, text_hidden, true);
  return std::nullopt;
}

// Gemma 3 (modeling_gemma3.py, 2025-03): SigLIP at image_size (896), average-pooled to
// mm_tokens_per_image (256) tokens: (896/14)² / 256 = 16 patches, a merge of 4 per side;
// <start_of_image> and <end_of_image> around them; Gemma3MultiModalProjector = RMSNorm(w) + a
// w × text matrix without bias.
std::optional<InputError> ReadGemma3Vision(Reader& v, Reader& top, int text_hidden, VisionSpec& s) {
  s.patch = 14;
  s.image_size = 896;
  if (auto e = ReadVit(v, kHfVitKeys, s)) return e;
  if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
  s.positions = LearnedPositions(s, false);
  int tokens = 256;
  if (top.Has("mm_tokens_per_image")) {
    if (auto e = contract::ReadInt(top.c, "mm_tokens_per_image", kRoot, 1, std::max(1, s.positions), &tokens)) return e;
  }
  s.merge = std::max(1, static_cast<int>(std::lround(std::sqrt(double(s.positions) / tokens))));
  s.scheme = MediaScheme::kFixed;
  s.markers = 2;
  s.projector_params = NormParams(s.hidden, VisionNorm::kRmsNorm) + LinearParams(s.hidden, text_hidden, false);
  return std::nullopt;
}

// Llama 3.2 Vision (modeling_mllama.py, 2024-09): num_hidden_layers local and num_global_layers
// global blocks; per tile (image_size 560) learned positions for its patches and class token, and
// a tile-position embedding Embedding(aspect ratios + 1, max_num_tiles × positions × w) counted as
// rows of w; the features of several layers concatenated (vision_output_dim 7680) go through
// Linear(vision_output_dim, text) with bias. The language model reads them by cross-attention: one
// <|image|> token. MllamaVisionConfig's supported_aspect_ratios are the grids of at most
// max_num_tiles tiles (8 for 4).
int MllamaAspectRatios(int max_tiles) {
  int count = 0;
  for (int w = 1; w <= max_tiles; ++w) count += max_tiles / w;
  return count;
}

std::optional<InputError> ReadMllamaVision(Reader& v, int text_hidden, VisionSpec& s) {
  s.patch = 14;
  s.image_size = 560;
  s.max_tiles = 4;
  if (auto e = ReadVit(v, kMllamaVitKeys, s)) return e;
  int global = 8, output = 7680;
  if (auto e = ReadLimited(v, "num_global_layers", "vision_layers", &global)) return e;
  if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
  if (auto e = ReadLimited(v, "max_num_tiles", "vision_max_tiles", &s.max_tiles)) return e;
  if (auto e = v.Int("vision_output_dim", nullptr, &output)) return e;
  int ratios = MllamaAspectRatios(s.max_tiles);
  if (v.Has("supported_aspect_ratios") && v.c["supported_aspect_ratios"].is_array()) {
    ratios = static_cast<int>(v.c["supported_aspect_ratios"].size());
  }
  s.layers += global;
  v.origin["vision_layers"] = "num_hidden_layers";
  if (auto e = engine::CheckLimit("model.vision_layers", v.path + "num_global_layers", s.layers)) return e;
  const int tile_positions = LearnedPositions(s, true);
  s.positions = tile_positions + (ratios + 1) * s.max_tiles * tile_positions;
  s.scheme = MediaScheme::kCrossAttention;
  s.markers = 1;
  s.projector_params = LinearParams(output, text_hidden, true);
  return std::nullopt;
}

// [SECTION] vision_config: other families

// A vision_config of another family: the ViT from its generic keys (CLIP-style or Qwen2-VL-style
// names), a learned position per patch, each image resized to the tower's image_size, one token
// per patch, no projector. *sized is false when those keys are missing.
std::optional<InputError> ReadGenericVision(Reader& v, VisionSpec& s, bool* sized) {
  auto first = [&](std::initializer_list<const char*> keys) -> const char* {
    for (const char* key : keys) {
      if (v.Has(key)) return key;
    }
    return nullptr;
  };
  const VitKeys k = {first({"num_hidden_layers", "depth"}), first({"embed_dim", "hidden_size"}),
                     first({"num_attention_heads", "num_heads", "attention_heads"}),
                     v.Has("intermediate_size") || !v.Has("mlp_ratio") ? "intermediate_size" : nullptr};
  *sized = k.layers && k.hidden && k.heads && (k.ffn == nullptr || v.Has(k.ffn)) && v.Has("image_size");
  if (!*sized) return std::nullopt;
  if (auto e = ReadVit(v, k, s)) return e;
  int global = 0;
  if (auto e = ReadLimited(v, "num_global_layers", "vision_layers", &global)) return e;  // Mllama-like
  s.layers += global;
  v.origin["vision_layers"] = k.layers;
  if (auto e = ReadLimited(v, "image_size", "vision_image_size", &s.image_size)) return e;
  s.mlp = ActIsSilu(v, false) ? VisionMlp::kGated : VisionMlp::kPlain;
  s.positions = LearnedPositions(s, false);
  s.scheme = MediaScheme::kFixed;
  return std::nullopt;
}

// Reads vision_config into m.vision (after the language model, whose width the projector
// meets). `v` reads vision_config, `top` the wrapper's keys; both remember which key set each
// vision_* field, for the errors of ValidateModel.
std::optional<InputError> ReadVision(Reader& v, Reader& top, const std::string& wrapper_type, engine::ModelSpec& m,
                                     std::vector<engine::Warning>& w) {
  VisionSpec s;
  const auto family = kVisionFamilies.find(wrapper_type);
  if (family == kVisionFamilies.end()) {
    bool sized = false;
    if (auto e = ReadGenericVision(v, s, &sized)) return e;
    if (!sized) {
      w.push_back(engine::MakeWarning("vision_tower_not_sized", {}));
      return std::nullopt;
    }
    const double tokens = double(s.image_size / s.patch) * (s.image_size / s.patch);
    w.push_back(engine::MakeWarning(
        "vision_config_assumed",
        {engine::TextArg("model_type", QuotedInput(wrapper_type)),
         engine::NumberArg("tower_params_b", engine::VisionTowerParams(s) / 1e9),
         engine::CountArg("image_size", s.image_size), engine::CountArg("tokens", static_cast<long long>(tokens))}));
    m.vision = s;
    return std::nullopt;
  }
  std::optional<InputError> e;
  switch (family->second) {
    case VisionFamily::kQwen2Vl:
    case VisionFamily::kQwen25Vl:
    case VisionFamily::kQwen3Vl: e = ReadQwenVision(v, family->second, m.hidden, s); break;
    case VisionFamily::kLlava:
    case VisionFamily::kLlavaTiled: e = ReadLlavaVision(v, top.c, family->second, m.hidden, s); break;
    case VisionFamily::kMistral3: e = ReadMistral3Vision(v, top, m.hidden, s); break;
    case VisionFamily::kInternVl: e = ReadInternVision(v, top, m.hidden, s); break;
    case VisionFamily::kGemma3: e = ReadGemma3Vision(v, top, m.hidden, s); break;
    case VisionFamily::kMllama: e = ReadMllamaVision(v, m.hidden, s); break;
  }
  if (e) return e;
  m.vision = s;
  return std::nullopt;
}

// The text_config (or InternVL's llm_config) when the config nests one, else nullptr.
const contract::Json* NestedTextConfig(const contract::Json& c) {
  for (const char* key : {"text_config", "llm_config"}) {
    if (c.contains(key) && c[key].is_object()) return &c[key];
  }
  return nullptr;
}

// The config key that set a vision_* field: the wrapper's (force_image_size overrides the
// tower's image_size) or the vision_config's, else the vision_config itself.
std::string VisionKeyPath(const std::string& field, const Reader& vision, const Reader& top) {
  if (const auto it = top.origin.find(field); it != top.origin.end()) return top.path + it->second;
  if (const auto it = vision.origin.find(field); it != vision.origin.end()) return vision.path + it->second;
  return vision.path.substr(0, vision.path.size() - 1);
}

// ValidateModel names the engine's fields ("layers"); the error is moved to the key of
// the config.json that set the field ("num_hidden_layers").
InputError ToConfigKey(const InputError& e, const Reader& r, const Reader& vision, const Reader& top) {
  InputError moved = e;  // the same message (code and arguments), under the config.json key
  if (e.field.rfind("vision_", 0) == 0) {
    moved.field = VisionKeyPath(e.field, vision, top);
    return moved;
  }
  if (e.field == "model") {
    moved.field = r.path.substr(0, r.path.size() - 1);
    return moved;
  }
  if (e.field == "head_dim" && !r.origin.count("head_dim")) {
    const std::string field = r.path + "num_attention_heads";
    return MakeInputError(field, "hf_config.derived_head_dim", {MessageArgOf("reason", engine::ErrorMessage(e))});
  }
  const auto it = r.origin.find(e.field);
  moved.field = r.path + (it != r.origin.end() ? it->second : e.field);
  return moved;
}

}  // namespace

const contract::Json& HfTextConfig(const contract::Json& config) {
  if (!config.is_object()) return config;
  const contract::Json* text = NestedTextConfig(config);
  return text != nullptr ? *text : config;
}

std::optional<InputError> CheckQuantizedCheckpointMethod(const HfQuantization& q, engine::Method method) {
  if (!q.present || engine::TrainsAdapters(method)) return std::nullopt;
  return MakeInputError("method", "hf_config.quantized_method",
                        {TextArg("method", std::string(engine::EnumName(engine::kMethodNames, method))),
                         TextArg("quant_method", QuotedInput(q.method))});
}

engine::Result<HfImport> ImportHfConfig(const contract::Json& c) {
  if (!c.is_object()) return MakeInputError("model.hf_config", "hf_config.not_object");
  HfImport r;
  engine::ModelSpec& m = r.spec;
  for (const char* key : {"text_config", "llm_config"}) {
    if (c.contains(key) && !c[key].is_null() && !c[key].is_object()) {
      return MakeInputError(std::string(kRoot) + key, "hf_config.text_config_not_object", {catalog::JsonTypeArg("type", c[key])});
    }
  }
  const contract::Json* nested = NestedTextConfig(c);
  const std::string nested_key = nested == nullptr ? "" : c.contains("text_config") && c["text_config"].is_object()
                                                              ? "text_config"
                                                              : "llm_config";
  Reader reader{nested != nullptr ? *nested : c, std::string(kRoot) + (nested ? nested_key + "." : ""),
                nested != nullptr, "", {}};
  if (nested != nullptr && nested->contains("_name_or_path") && (*nested)["_name_or_path"].is_string()) {
    reader.model_hint = (*nested)["_name_or_path"].get<std::string>();
  }

  std::string type = "llama";
  if (auto e = contract::ReadString(c, "model_type", kRoot, &type)) return *e;
  const std::string wrapper_type = type;  // names the vision-language family
  if (nested != nullptr) {
    // The wrapper's model_type ("llava", "gemma3") names the pair; the text model's, the decoder.
    if (nested->contains("model_type")) {
      if (auto e = contract::ReadString(*nested, "model_type", reader.path, &type)) return *e;
    } else {
      type = "llama";
    }
  }
  if (const auto alias = kTypeAliases.find(type); alias != kTypeAliases.end()) type = alias->second;
  if (!kKnownTypes.count(type)) {
    r.warnings.push_back(engine::MakeWarning("hf_config_unknown_type", {engine::TextArg("model_type", QuotedInput(type))}));
  }
  // Without its own key, a text_config's embeddings follow the wrapper's tie_word_embeddings.
  if (auto e = ReadCommon(reader, type, m, r.warnings)) return *e;
  if (nested != nullptr && !reader.Has("tie_word_embeddings") && c.contains("tie_word_embeddings") &&
      !c["tie_word_embeddings"].is_null()) {
    if (auto e = contract::ReadBool(c, "tie_word_embeddings", kRoot, &m.tied_embeddings)) return *e;
  }
  // Gemma 2 and 3: pre/post attention and pre/post MLP norms. Gemma 3's q/k norms
  // (2 × head_dim per layer, 24,576 weights in the 12B) are not counted.
  if (type == "gemma2" || type == "gemma3_text") m.norms_per_layer = 4;
  if (type == "gpt_neox" || type == "falcon") {
    if (auto e = ReadLegacyShape(reader, type, m)) return *e;
  }
  if (type == "deepseek_v2" || type == "deepseek_v3") {
    if (auto e = ReadMla(reader, m)) return *e;
  }
  if (auto e = ReadSlidingWindow(reader, type, m)) return *e;
  // gpt-oss: biases on q, k, v, o and on every expert, a learned sink per head, and
  // experts as wide as intermediate_size (modeling_gpt_oss.py).
  // Qwen (v1, modeling_qwen.py): intermediate_size is twice the SwiGLU width (w1 and w2
  // are each intermediate_size / 2 wide), c_attn carries a bias, the context is seq_length.
  if (type == "qwen") {
    m.ffn /= 2;
    m.qkv_bias = true;
    if (auto e = reader.Int("seq_length", "max_context", &m.max_context)) return *e;
  }
  if (type == "nemotron_h") {
    if (!reader.Has("hybrid_override_pattern")) {
      return reader.Missing("hybrid_override_pattern", MakeMessage("hf_config.required"));
    }
    if (auto e = ReadHybrid(reader, m)) return *e;
  }
  if (type == "gpt_oss") {
    m.linear_bias = true;
    m.attention_sinks = true;
  }
  if (auto e = ReadMoe(reader, type, m, r.warnings)) return *e;
  if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0) {
    const auto kv_key = reader.origin.find("kv_heads");
    return MakeInputError(reader.path + (kv_key != reader.origin.end() ? kv_key->second : "num_key_value_heads"),
                          "hf_config.kv_heads_divide",
                          {engine::CountArg("heads", m.heads), engine::CountArg("kv_heads", m.kv_heads)});
  }
  if (auto e = CheckRope(reader.c, reader.path)) return *e;
  if (auto e = ReadQuantization(c, r.quantization, r.warnings)) return *e;
  m.stored_weight_bytes = r.quantization.bytes_per_weight;
  m.id = "custom";
  m.name = "Imported config.json";
  if (c.contains("_name_or_path") && c["_name_or_path"].is_string()) {
    m.name = QuotedInput(c["_name_or_path"].get<std::string>());
  }
  WarnUnknownKeys(c, "", r.warnings);
  if (nested != nullptr) WarnUnknownKeys(*nested, nested_key + ".", r.warnings);
  Reader top{c, kRoot, false, "", {}};
  Reader vision{c, std::string(kRoot) + "vision_config.", false, "", {}};
  if (c.contains("vision_config") && !c["vision_config"].is_null()) {
    if (!c["vision_config"].is_object()) {
      return MakeInputError(std::string(kRoot) + "vision_config", "input.not_an_object",
                            {catalog::JsonTypeArg("got", c["vision_config"])});
    }
    Reader tower{c["vision_config"], vision.path, false, "", {}};
    if (auto e = ReadVision(tower, top, wrapper_type, m, r.warnings)) return *e;
    vision.origin = std::move(tower.origin);
  }
  if (auto e = engine::ValidateModel(m, "")) return ToConfigKey(*e, reader, vision, top);
  return r;
}

}  // namespace engine::imports
