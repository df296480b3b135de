#include "engine/contract/model_json.h"

#include <array>
#include <set>
#include <string_view>

#include "engine/scenario.h"

namespace engine::contract {
namespace {

const std::set<std::string> kArchFields = {
    "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn", "vocab", "mlp", "tied_embeddings", "qkv_bias",
    "linear_bias", "norm", "norms_per_layer", "learned_positions", "max_context", "experts", "experts_per_token",
    "shared_experts", "moe_ffn", "dense_layers", "shared_expert_ffn", "attention", "q_lora_rank", "kv_lora_rank",
    "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "weight_bytes", "name"};

std::optional<engine::InputError> CheckKnownFields(const Json& arch, const std::string& path) {
  for (const auto& [key, value] : arch.items()) {
    if (!kArchFields.count(key)) {
      return engine::MakeInputError(path + engine::QuotedInput(key), "input.not_architecture_field");
    }
  }
  return std::nullopt;
}

// The names of the architecture's variants, in the order of their enums' values.
constexpr std::array<std::string_view, 2> kMlpNames = {"swiglu", "gelu"};            // MlpKind
constexpr std::array<std::string_view, 2> kNormNames = {"rmsnorm", "layernorm"};     // NormKind
constexpr std::array<std::string_view, 2> kAttentionNames = {"standard", "mla"};     // AttentionKind

std::optional<engine::InputError> ReadShape(const Json& a, const std::string& path, engine::ModelSpec& m) {
  for (const char* key : {"layers", "hidden", "heads", "ffn", "vocab"}) {
    if (auto e = Require(a, key, path)) return e;
  }
  if (auto e = ReadInt(a, "layers", path, 1, 1000, &m.layers)) return e;
  if (auto e = ReadInt(a, "hidden", path, 8, 262144, &m.hidden)) return e;
  if (auto e = ReadInt(a, "heads", path, 1, 4096, &m.heads)) return e;
  m.kv_heads = m.heads;
  if (auto e = ReadInt(a, "kv_heads", path, 1, 4096, &m.kv_heads)) return e;
  if (a.contains("head_dim")) {
    if (auto e = ReadInt(a, "head_dim", path, 1, 4096, &m.head_dim)) return e;
  } else if (m.hidden % m.heads != 0) {
    return engine::MakeInputError(path + "heads", "input.heads_divide_hidden",
                                  {engine::CountArg("hidden", m.hidden), engine::CountArg("heads", m.heads)});
  } else {
    m.head_dim = m.hidden / m.heads;
  }
  if (auto e = ReadInt(a, "ffn", path, 1, 4194304, &m.ffn)) return e;
  if (auto e = ReadInt(a, "vocab", path, 1, 16777216, &m.vocab)) return e;
  return std::nullopt;
}

std::optional<engine::InputError> ReadVariants(const Json& a, const std::string& path, engine::ModelSpec& m) {
  if (auto e = ReadEnum(a, "mlp", path, kMlpNames, &m.mlp)) return e;
  if (auto e = ReadEnum(a, "norm", path, kNormNames, &m.norm)) return e;
  if (auto e = ReadEnum(a, "attention", path, kAttentionNames, &m.attention)) return e;
  if (auto e = ReadBool(a, "tied_embeddings", path, &m.tied_embeddings)) return e;
  if (auto e = ReadBool(a, "qkv_bias", path, &m.qkv_bias)) return e;
  if (auto e = ReadBool(a, "linear_bias", path, &m.linear_bias)) return e;
  if (auto e = ReadInt(a, "norms_per_layer", path, 0, 8, &m.norms_per_layer)) return e;
  if (auto e = ReadInt(a, "learned_positions", path, 0, 16777216, &m.learned_positions)) return e;
  if (auto e = ReadInt(a, "max_context", path, 0, 100000000, &m.max_context)) return e;
  // ValidateModel holds the range (0, or 0.125 to below 2).
  if (auto e = ReadNumber(a, "weight_bytes", path, 0, 2, &m.stored_weight_bytes)) return e;
  return ReadString(a, "name", path, &m.name);
}

std::optional<engine::InputError> ReadMoeAndMla(const Json& a, const std::string& path, engine::ModelSpec& m) {
  engine::MoeSpec& e = m.moe;
  if (auto err = ReadInt(a, "experts", path, 0, 4096, &e.experts)) return err;
  if (auto err = ReadInt(a, "experts_per_token", path, 0, 4096, &e.experts_per_token)) return err;
  if (auto err = ReadInt(a, "shared_experts", path, 0, 64, &e.shared_experts)) return err;
  if (auto err = ReadInt(a, "moe_ffn", path, 0, 4194304, &e.moe_ffn)) return err;
  if (auto err = ReadInt(a, "dense_layers", path, 0, 1000, &e.dense_layers)) return err;
  if (auto err = ReadInt(a, "shared_expert_ffn", path, 0, 4194304, &e.shared_expert_ffn)) return err;
  engine::MlaDims& d = m.mla;
  if (auto err = ReadInt(a, "q_lora_rank", path, 0, 65536, &d.q_lora_rank)) return err;
  if (auto err = ReadInt(a, "kv_lora_rank", path, 0, 65536, &d.kv_lora_rank)) return err;
  if (auto err = ReadInt(a, "qk_nope_head_dim", path, 0, 4096, &d.qk_nope_head_dim)) return err;
  if (auto err = ReadInt(a, "qk_rope_head_dim", path, 0, 4096, &d.qk_rope_head_dim)) return err;
  return ReadInt(a, "v_head_dim", path, 0, 4096, &d.v_head_dim);
}

}  // namespace

engine::Result<engine::ModelSpec> ParseArchitecture(const Json& a, const std::string& path) {
  if (!a.is_object()) {
    return engine::MakeInputError(path.empty() ? "model" : path.substr(0, path.size() - 1), "input.not_an_object",
                                  {TypeArg("got", a)});
  }
  engine::ModelSpec m;
  m.id = "custom";
  m.name = engine::CustomModelName();
  if (auto e = CheckKnownFields(a, path)) return *e;
  if (auto e = ReadShape(a, path, m)) return *e;
  if (auto e = ReadVariants(a, path, m)) return *e;
  if (auto e = ReadMoeAndMla(a, path, m)) return *e;
  if (auto e = engine::ValidateModel(m, path)) return *e;
  return m;
}

Json ArchitectureToJson(const engine::ModelSpec& m) {
  Json j = {{"layers", m.layers},
            {"hidden", m.hidden},
            {"heads", m.heads},
            {"kv_heads", m.kv_heads},
            {"head_dim", m.head_dim},
            {"ffn", m.ffn},
            {"vocab", m.vocab},
            {"mlp", engine::EnumName(kMlpNames, m.mlp)},
            {"norm", engine::EnumName(kNormNames, m.norm)},
            {"norms_per_layer", m.norms_per_layer},
            {"tied_embeddings", m.tied_embeddings},
            {"qkv_bias", m.qkv_bias},
            {"linear_bias", m.linear_bias},
            {"learned_positions", m.learned_positions},
            {"max_context", m.max_context}};
  if (m.IsMoe()) {
    j["experts"] = m.moe.experts;
    j["experts_per_token"] = m.moe.experts_per_token;
    j["shared_experts"] = m.moe.shared_experts;
    j["moe_ffn"] = m.moe.moe_ffn;
    j["dense_layers"] = m.moe.dense_layers;
    j["shared_expert_ffn"] = m.moe.shared_expert_ffn;
  }
  if (m.IsQuantizedCheckpoint()) j["weight_bytes"] = m.stored_weight_bytes;
  if (m.attention == engine::AttentionKind::kMla) {
    j["attention"] = "mla";
    j["q_lora_rank"] = m.mla.q_lora_rank;
    j["kv_lora_rank"] = m.mla.kv_lora_rank;
    j["qk_nope_head_dim"] = m.mla.qk_nope_head_dim;
    j["qk_rope_head_dim"] = m.mla.qk_rope_head_dim;
    j["v_head_dim"] = m.mla.v_head_dim;
  }
  return j;
}

}  // namespace engine::contract
