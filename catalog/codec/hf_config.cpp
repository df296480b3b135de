#include "hf_config.h"

#include <set>
#include <string>

namespace catalog {
namespace {

using engine::InputError;
constexpr const char* kPath = "model.hf_config.";

// Keys that do not change parameter count or training memory (tokens ids, init,
// numerics, rope parameters, library bookkeeping).
const std::set<std::string> kIrrelevantKeys = {
    "_name_or_path", "architectures", "auto_map", "bos_token_id", "eos_token_id", "pad_token_id", "torch_dtype",
    "transformers_version", "initializer_range", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon",
    "rope_theta", "rope_scaling", "use_cache", "attention_dropout", "hidden_dropout", "dropout", "model_type",
    "hidden_act", "hidden_activation", "pretraining_tp", "output_router_logits", "router_aux_loss_coef",
    "router_jitter_noise", "norm_topk_prob", "quantization_config", "use_sliding_window", "sliding_window",
    "max_window_layers", "attn_logit_softcapping", "final_logit_softcapping", "query_pre_attn_scalar",
    "original_max_position_embeddings", "rotary_pct", "rotary_emb_base", "use_parallel_residual",
    "classifier_dropout", "partial_rotary_factor", "embd_pdrop", "resid_pdrop", "aux_loss_alpha",
    "seq_aux", "topk_method", "scoring_func", "routed_scaling_factor", "n_group", "topk_group", "ep_size",
    "moe_layer_freq", "num_nextn_predict_layers", "decoder_sparse_step", "alibi", "parallel_attn",
    "new_decoder_architecture", "multi_query", "bias", "num_kv_heads", "n_head_kv", "attention_bias", "mlp_bias",
    "tie_word_embeddings", "max_position_embeddings", "num_hidden_layers", "hidden_size", "num_attention_heads",
    "num_key_value_heads", "head_dim", "intermediate_size", "vocab_size", "num_local_experts",
    "num_experts_per_tok", "num_experts", "moe_intermediate_size", "shared_expert_intermediate_size",
    "mlp_only_layers", "n_routed_experts", "n_shared_experts", "first_k_dense_replace", "q_lora_rank",
    "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "ffn_hidden_size", "n_layer",
    "n_embd", "num_layers", "qkv_bias", "use_qk_norm", "is_decoder", "return_dict", "tokenizer_class",
    "bos_token", "eos_token", "name_or_path", "output_attentions", "output_hidden_states", "vision_config"};

const std::set<std::string> kKnownTypes = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3",
                                           "qwen3_moe", "gemma", "gemma2", "phi3", "deepseek_v2", "deepseek_v3",
                                           "gpt_neox", "falcon", "RefinedWeb", "RefinedWebModel"};

// Reads an int config key that may be absent (keeps *out) or null (keeps *out).
std::optional<InputError> Int(const Json& c, const char* key, int* out, int hi = 100000000) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return ReadInt(c, key, kPath, 0, hi, out);
}

std::optional<InputError> Flag(const Json& c, const char* key, bool* out) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return ReadBool(c, key, kPath, out);
}

std::optional<InputError> ReadCommon(const Json& c, const std::string& type, engine::ModelSpec& m) {
  for (const char* key : {"num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size"}) {
    if (!c.contains(key)) return InputError{std::string(kPath) + key, "is required to size the model"};
  }
  if (auto e = Int(c, "num_hidden_layers", &m.layers)) return e;
  if (auto e = Int(c, "hidden_size", &m.hidden)) return e;
  if (auto e = Int(c, "num_attention_heads", &m.heads)) return e;
  if (auto e = Int(c, "vocab_size", &m.vocab)) return e;
  if (m.heads <= 0) return InputError{std::string(kPath) + "num_attention_heads", "must be at least 1"};
  m.kv_heads = m.heads;
  if (auto e = Int(c, "num_key_value_heads", &m.kv_heads)) return e;
  m.head_dim = m.hidden / m.heads;
  if (auto e = Int(c, "head_dim", &m.head_dim)) return e;
  m.ffn = 4 * m.hidden;
  if (auto e = Int(c, "intermediate_size", &m.ffn)) return e;
  if (auto e = Int(c, "max_position_embeddings", &m.max_context)) return e;
  // Transformers' per-architecture defaults for tie_word_embeddings.
  m.tied_embeddings = type == "gemma" || type == "gemma2" || type == "falcon";
  if (auto e = Flag(c, "tie_word_embeddings", &m.tied_embeddings)) return e;
  bool attention_bias = type == "qwen2" || type == "qwen2_moe" || type == "gpt_neox";
  if (auto e = Flag(c, "attention_bias", &attention_bias)) return e;
  if (auto e = Flag(c, "qkv_bias", &attention_bias)) return e;
  m.qkv_bias = attention_bias;
  return std::nullopt;
}

std::optional<InputError> ReadMoe(const Json& c, const std::string& type, engine::ModelSpec& m,
                                  std::vector<engine::Warning>& w) {
  engine::MoeSpec& e = m.moe;
  if (auto err = Int(c, "num_local_experts", &e.experts)) return err;   // mixtral
  if (auto err = Int(c, "num_experts", &e.experts)) return err;         // qwen*_moe
  if (auto err = Int(c, "n_routed_experts", &e.experts)) return err;    // deepseek
  if (auto err = Int(c, "num_experts_per_tok", &e.experts_per_token)) return err;
  if (auto err = Int(c, "n_shared_experts", &e.shared_experts)) return err;
  if (auto err = Int(c, "shared_expert_intermediate_size", &e.shared_expert_ffn)) return err;
  if (auto err = Int(c, "first_k_dense_replace", &e.dense_layers)) return err;
  e.moe_ffn = type == "mixtral" ? m.ffn : 0;
  if (auto err = Int(c, "moe_intermediate_size", &e.moe_ffn)) return err;
  if (c.contains("mlp_only_layers") && c["mlp_only_layers"].is_array() && !c["mlp_only_layers"].empty()) {
    e.dense_layers = int(c["mlp_only_layers"].size());
    w.push_back({"hf_config_dense_layers", "mlp_only_layers are read as leading dense layers."});
  }
  if (e.experts > 0 && e.moe_ffn == 0) {
    return InputError{std::string(kPath) + "moe_intermediate_size", "is required for a Mixture-of-Experts model"};
  }
  return std::nullopt;
}

std::optional<InputError> ReadMla(const Json& c, engine::ModelSpec& m) {
  m.attention = engine::AttentionKind::kMla;
  engine::MlaDims& d = m.mla;
  if (auto e = Int(c, "q_lora_rank", &d.q_lora_rank)) return e;
  if (auto e = Int(c, "kv_lora_rank", &d.kv_lora_rank)) return e;
  if (auto e = Int(c, "qk_nope_head_dim", &d.qk_nope_head_dim)) return e;
  if (auto e = Int(c, "qk_rope_head_dim", &d.qk_rope_head_dim)) return e;
  if (auto e = Int(c, "v_head_dim", &d.v_head_dim)) return e;
  m.kv_heads = m.heads;
  m.head_dim = d.v_head_dim > 0 ? d.v_head_dim : m.head_dim;
  return std::nullopt;
}

// GPT-NeoX: LayerNorm with biases everywhere, plain GELU MLP. Falcon: LayerNorm, no
// linear biases, plain GELU MLP of 4h, multi-query or grouped KV heads.
std::optional<InputError> ReadLegacyShape(const Json& c, const std::string& type, engine::ModelSpec& m) {
  m.mlp = engine::MlpKind::kPlain;
  m.norm = engine::NormKind::kLayerNorm;
  if (type == "gpt_neox") {
    m.linear_bias = true;
    return std::nullopt;
  }
  bool new_arch = false, multi_query = true, bias = false;
  if (auto e = Flag(c, "new_decoder_architecture", &new_arch)) return e;
  if (auto e = Flag(c, "multi_query", &multi_query)) return e;
  if (auto e = Flag(c, "bias", &bias)) return e;
  m.linear_bias = bias;
  m.kv_heads = multi_query ? 1 : m.heads;
  if (auto e = Int(c, "num_kv_heads", &m.kv_heads)) return e;
  if (auto e = Int(c, "n_head_kv", &m.kv_heads)) return e;
  if (auto e = Int(c, "ffn_hidden_size", &m.ffn)) return e;
  m.norms_per_layer = new_arch ? 2 : 1;  // ln_attn + ln_mlp, or one shared input_layernorm
  return std::nullopt;
}

void WarnUnknownKeys(const Json& c, std::vector<engine::Warning>& w) {
  std::string unknown;
  for (const auto& [key, value] : c.items()) {
    if (!kIrrelevantKeys.count(key)) unknown += (unknown.empty() ? "" : ", ") + key;
  }
  if (!unknown.empty()) {
    w.push_back({"hf_config_unmapped_keys", "config.json keys not used for sizing: " + unknown + "."});
  }
}

}  // namespace

engine::Result<HfImport> ImportHfConfig(const Json& c) {
  if (!c.is_object()) return InputError{"model.hf_config", "must be the JSON object of a config.json"};
  HfImport r;
  engine::ModelSpec& m = r.spec;
  std::string type = "llama";
  if (auto e = ReadString(c, "model_type", kPath, &type)) return *e;
  if (!kKnownTypes.count(type)) {
    r.warnings.push_back({"hf_config_unknown_type", "model_type '" + type +
                                                        "' is not one TrainSizer knows; read as a Llama-style "
                                                        "decoder (gated MLP, RMSNorm)."});
  }
  if (type == "RefinedWeb" || type == "RefinedWebModel") type = "falcon";
  if (auto e = ReadCommon(c, type, m)) return *e;
  if (type == "gemma2") m.norms_per_layer = 4;  // pre/post attention and pre/post MLP norms
  if (type == "gpt_neox" || type == "falcon") {
    if (auto e = ReadLegacyShape(c, type, m)) return *e;
  }
  if (type == "deepseek_v2" || type == "deepseek_v3") {
    if (auto e = ReadMla(c, m)) return *e;
  }
  if (auto e = ReadMoe(c, type, m, r.warnings)) return *e;
  if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0) {
    return InputError{std::string(kPath) + "num_key_value_heads", "must divide num_attention_heads"};
  }
  m.id = "custom";
  m.name = "Imported config.json";
  if (c.contains("_name_or_path") && c["_name_or_path"].is_string()) m.name = c["_name_or_path"].get<std::string>();
  WarnUnknownKeys(c, r.warnings);
  if (auto e = engine::ValidateModel(m, "model.hf_config.")) return *e;
  return r;
}

}  // namespace catalog
