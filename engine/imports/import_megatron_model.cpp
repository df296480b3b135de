// The model of a Megatron-LM command or a NeMo 1.x config (engine/imports/megatron_import.h):
// the architecture its flags or model.* keys describe, with the framework's defaults filled in,
// the --moe-layer-freq pattern, and the catalog preset it matches.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/imports/megatron_import.h"

namespace engine::imports::megatron {

using contract::Json;

namespace {

// --moe-layer-freq: an integer n (every n-th layer has experts, from the first) or a
// Python list expression such as "[0]*3+[1]*58", "([1]*3+[0]*1)*3" or "[0,1,1]"
// (1 = experts; arguments.py moe_freq_type). expr := term ('+' term)*; term := atom ('*' n)*;
// atom := '[' 0|1 (',' 0|1)* ']' | '(' expr ')'.
struct PatternParser {
  const std::string& t;
  size_t i = 0;
  int depth = 0;  // parentheses open: bounded, so hostile text cannot exhaust the stack
  static constexpr size_t kMaxLength = 100000;
  static constexpr int kMaxDepth = 16;

  std::optional<std::vector<int>> Expr() {
    std::optional<std::vector<int>> out = Term();
    while (out && i < t.size() && t[i] == '+') {
      ++i;
      std::optional<std::vector<int>> next = Term();
      if (!next || out->size() + next->size() > kMaxLength) return std::nullopt;
      out->insert(out->end(), next->begin(), next->end());
    }
    return out;
  }
  std::optional<std::vector<int>> Term() {
    std::optional<std::vector<int>> atom = Atom();
    while (atom && i < t.size() && t[i] == '*') {
      ++i;
      size_t start = i;
      long times = 0;
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) && times <= static_cast<long>(kMaxLength)) {
        times = times * 10 + (t[i++] - '0');
      }
      if (i == start || times < 1 || static_cast<double>(atom->size()) * static_cast<double>(times) > kMaxLength) {
        return std::nullopt;
      }
      std::vector<int> repeated;
      for (long k = 0; k < times; ++k) repeated.insert(repeated.end(), atom->begin(), atom->end());
      atom = std::move(repeated);
    }
    return atom;
  }
  std::optional<std::vector<int>> Atom() {
    if (i >= t.size()) return std::nullopt;
    if (t[i] == '(') {
      if (++depth > kMaxDepth) return std::nullopt;
      ++i;
      std::optional<std::vector<int>> inner = Expr();
      --depth;
      if (!inner || i >= t.size() || t[i] != ')') return std::nullopt;
      ++i;
      return inner;
    }
    if (t[i] != '[') return std::nullopt;
    ++i;
    std::vector<int> items;
    while (i < t.size() && (t[i] == '0' || t[i] == '1')) {
      items.push_back(t[i++] - '0');
      if (i < t.size() && t[i] == ',') ++i;
    }
    if (i >= t.size() || t[i] != ']' || items.empty()) return std::nullopt;  // [] repeats nothing
    ++i;
    return items;
  }
};

std::optional<std::vector<int>> LayerPattern(const std::string& text, long layers) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '"' && c != '\'') t += c;
  }
  if (t.empty()) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(t[0]))) {
    char* end = nullptr;
    const long every = std::strtol(t.c_str(), &end, 10);
    if (*end != '\0' || every < 1 || layers < 1 || layers > static_cast<long>(PatternParser::kMaxLength)) return std::nullopt;
    std::vector<int> pattern;
    for (long i = 0; i < layers; ++i) pattern.push_back(i % every == 0 ? 1 : 0);
    return pattern;
  }
  PatternParser parser{t};
  std::optional<std::vector<int>> pattern = parser.Expr();
  if (!pattern || parser.i != t.size() || pattern->empty()) return std::nullopt;
  return pattern;
}

// The dense layers of a --moe-layer-freq pattern; the engine places them first.
void ReadLayerPattern(Reader& reader, const Setting& s, Arch& a) {
  const std::optional<std::vector<int>> pattern = LayerPattern(s.value, a.layers);
  if (!pattern) {
    reader.Fail(s, engine::MakeMessage("import.moe_layer_freq", {engine::TextArg("got", engine::QuotedInput(s.value))}));
    return;
  }
  long dense = 0, leading = 0;
  bool leading_run = true;
  for (int layer : *pattern) {
    if (layer == 0) ++dense;
    if (layer == 0 && leading_run) ++leading;
    if (layer != 0) leading_run = false;
  }
  a.dense_layers = dense;
  if (dense != leading) {
    reader.Assume("model.dense_layers", dense,
                  engine::MakeMessage("import.assumed.moe_layer_pattern",
                                      {engine::TextArg("pattern", s.value), engine::CountArg("dense", dense)}));
  }
}

int PresetKvHeads(const engine::ModelSpec& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
int PresetHeadDim(const engine::ModelSpec& m) { return m.head_dim > 0 ? m.head_dim : m.heads > 0 ? m.hidden / m.heads : 0; }

// The preset the architecture is: the shapes and every feature the flags can say alike.
bool SameArchitecture(const engine::ModelSpec& m, const Arch& a) {
  if (m.layers != a.layers || m.hidden != a.hidden || m.heads != a.heads || PresetKvHeads(m) != a.kv_heads ||
      m.ffn != a.ffn || m.moe.experts != a.experts) {
    return false;
  }
  if (PresetHeadDim(m) != a.head_dim) return false;
  if ((m.mlp == engine::MlpKind::kGated) != a.swiglu || (m.norm == engine::NormKind::kRmsNorm) != a.rmsnorm) return false;
  if (m.tied_embeddings != a.tied || m.linear_bias != a.linear_bias || m.qkv_bias != a.qkv_bias) return false;
  if ((m.learned_positions > 0) != a.learned) return false;
  if (a.mla && (m.attention != engine::AttentionKind::kMla || m.mla.q_lora_rank != a.q_lora ||
                m.mla.kv_lora_rank != a.kv_lora || m.mla.qk_nope_head_dim != a.qk_head ||
                m.mla.qk_rope_head_dim != a.qk_pos || m.mla.v_head_dim != a.v_head)) {
    return false;
  }
  if (a.experts > 0) {
    if (m.moe.experts_per_token != a.topk || m.moe.moe_ffn != a.moe_ffn || m.moe.dense_layers != a.dense_layers ||
        static_cast<long>(m.moe.SharedWidth()) != a.shared_ffn) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Arch> ReadMegatronArch(Reader& reader) {
  Arch a;
  const Setting* layers = reader.Take("num-layers");
  const Setting* hidden = reader.Take("hidden-size");
  const Setting* heads = reader.Take("num-attention-heads");
  const Setting* ffn = reader.Take("ffn-hidden-size");
  const Setting* gqa = reader.Take("group-query-attention");
  const Setting* groups = reader.Take("num-query-groups");
  const Setting* kv_channels = reader.Take("kv-channels");
  const Setting* max_positions = reader.Take("max-position-embeddings");
  const Setting* swiglu = reader.Take("swiglu");
  const Setting* norm = reader.Take("normalization");
  const Setting* positions = reader.Take("position-embedding-type");
  const Setting* untie = reader.Take("untie-embeddings-and-output-weights");
  const Setting* no_bias = reader.Take("disable-bias-linear");
  const Setting* qkv_bias = reader.Take("add-qkv-bias");
  const Setting* vocab = reader.Take("vocab-size");
  const Setting* experts = reader.Take("num-experts");
  const Setting* topk = reader.Take("moe-router-topk");
  const Setting* moe_ffn = reader.Take("moe-ffn-hidden-size");
  const Setting* shared = reader.Take("moe-shared-expert-intermediate-size");
  const Setting* freq = reader.Take("moe-layer-freq");
  const Setting* mla = reader.Take("multi-latent-attention");
  const Setting* q_lora = reader.Take("q-lora-rank");
  const Setting* kv_lora = reader.Take("kv-lora-rank");
  const Setting* qk_head = reader.Take("qk-head-dim");
  const Setting* qk_pos = reader.Take("qk-pos-emb-head-dim");
  const Setting* v_head = reader.Take("v-head-dim");
  const Setting* mtp = reader.Take("mtp-num-layers");
  for (const Setting* s : {hidden, heads, ffn, gqa, groups, kv_channels, max_positions, swiglu, norm, positions, untie,
                           no_bias, qkv_bias, vocab, experts, topk, moe_ffn, shared, freq, mla, q_lora, kv_lora, qk_head,
                           qk_pos, v_head, mtp}) {
    if (s != nullptr) a.flags.push_back(s);
  }
  if (layers == nullptr || hidden == nullptr || heads == nullptr) {
    for (const Setting* s : a.flags) IgnoreWith(reader, s, "import.ignored.partial_architecture", "flags", "--num-layers, --hidden-size and --num-attention-heads");
    IgnoreWith(reader, layers, "import.ignored.partial_architecture", "flags", "--num-layers, --hidden-size and --num-attention-heads");
    return std::nullopt;
  }
  a.layers_from = layers;
  a.layers = IntOf(reader, layers, 1, 1000).value_or(0);
  a.hidden = IntOf(reader, hidden, 8, 262144).value_or(0);
  a.heads = IntOf(reader, heads, 1, 4096).value_or(0);
  a.swiglu = FlagOn(reader, swiglu);
  // Megatron-LM: 4h, or for SwiGLU 2/3 of it rounded down to a multiple of 64.
  a.ffn = ffn ? IntOf(reader, ffn, 1, 4194304).value_or(0) : a.swiglu ? (4 * a.hidden * 2 / 3) / 64 * 64 : 4 * a.hidden;
  // --num-query-groups counts only with --group-query-attention (default 1 query group).
  a.kv_heads = a.heads;
  if (FlagOn(reader, gqa)) {
    a.kv_heads = groups ? IntOf(reader, groups, 1, 4096).value_or(0) : 1;
  } else if (groups != nullptr) {
    reader.Ignore(*groups, engine::MakeMessage("import.ignored.query_groups_without_gqa"));
    std::erase(a.flags, groups);
  }
  if (kv_channels) {
    a.head_dim = IntOf(reader, kv_channels, 1, 4096).value_or(0);
    a.head_dim_given = true;
  } else {
    a.head_dim = a.heads > 0 ? a.hidden / a.heads : 0;
  }
  if (vocab) a.vocab = IntOf(reader, vocab, 1, 16777216).value_or(0);
  if (max_positions) a.max_positions = IntOf(reader, max_positions, 1, 100000000).value_or(0);
  if (norm) {
    const std::string n = Lower(norm->value);
    if (n != "layernorm" && n != "rmsnorm") FailChoice(reader, *norm, "LayerNorm, RMSNorm");
    a.rmsnorm = n == "rmsnorm";
  }
  if (positions) {
    const std::string& p = positions->value;
    if (p != "learned_absolute" && p != "rope" && p != "mrope" && p != "yarn" && p != "none" && p != "relative") {
      FailChoice(reader, *positions, "learned_absolute, rope, mrope, yarn, relative, none");
    }
    a.learned = p == "learned_absolute";
  }
  a.tied = !FlagOn(reader, untie);
  a.linear_bias = !FlagOn(reader, no_bias);
  a.qkv_bias = FlagOn(reader, qkv_bias);
  if (experts) {
    a.experts = IntOf(reader, experts, 0, 4096).value_or(0);
    a.topk = topk ? IntOf(reader, topk, 1, 4096).value_or(0) : 2;  // Megatron-LM's default top-k
    a.moe_ffn = moe_ffn ? IntOf(reader, moe_ffn, 1, 4194304).value_or(0) : a.ffn;
    if (shared) a.shared_ffn = IntOf(reader, shared, 0, 4194304).value_or(0);
    if (freq && !reader.failed()) ReadLayerPattern(reader, *freq, a);
  } else {
    for (const Setting* s : {topk, moe_ffn, shared, freq}) {
      if (s == nullptr) continue;
      IgnoreWith(reader, s, "import.ignored.only_with", "key", "--num-experts");
      std::erase(a.flags, s);
    }
  }
  // Megatron-LM's MLA defaults (arguments.py _add_mla_args): queries projected directly,
  // kv rank 32, 128 + 64 query/key widths, 128 value width.
  a.mla = FlagOn(reader, mla);
  if (a.mla) {
    a.q_lora = q_lora && q_lora->value != "None" ? IntOf(reader, q_lora, 0, 65536).value_or(0) : 0;
    a.kv_lora = kv_lora ? IntOf(reader, kv_lora, 0, 65536).value_or(0) : 32;
    a.qk_head = qk_head ? IntOf(reader, qk_head, 0, 4096).value_or(0) : 128;
    a.qk_pos = qk_pos ? IntOf(reader, qk_pos, 0, 4096).value_or(0) : 64;
    a.v_head = v_head ? IntOf(reader, v_head, 0, 4096).value_or(0) : 128;
  } else {
    for (const Setting* s : {q_lora, kv_lora, qk_head, qk_pos, v_head}) {
      if (s == nullptr) continue;
      IgnoreWith(reader, s, "import.ignored.only_with", "key", "--multi-latent-attention");
      std::erase(a.flags, s);
    }
  }
  if (mtp) a.mtp = IntOf(reader, mtp, 0, 16);
  if (reader.failed()) return std::nullopt;
  return a;
}

std::optional<Arch> ReadNemoArch(Reader& reader) {
  Arch a;
  const Setting* layers = reader.Take("model.num_layers");
  const Setting* hidden = reader.Take("model.hidden_size");
  const Setting* heads = reader.Take("model.num_attention_heads");
  const Setting* ffn = reader.Take("model.ffn_hidden_size");
  const Setting* groups = reader.Take("model.num_query_groups");
  const Setting* kv_channels = reader.Take("model.kv_channels");
  const Setting* max_positions = reader.Take("model.max_position_embeddings");
  const Setting* activation = reader.Take("model.activation");
  const Setting* norm = reader.Take("model.normalization");
  const Setting* positions = reader.Take("model.position_embedding_type");
  const Setting* tied = reader.Take("model.share_embeddings_and_output_weights");
  const Setting* bias = reader.Take("model.bias");
  const Setting* experts = reader.Take("model.num_moe_experts");
  const Setting* topk = reader.Take("model.moe_router_topk");
  for (const Setting* s : {hidden, heads, ffn, groups, kv_channels, max_positions, activation, norm, positions, tied, bias,
                           experts, topk}) {
    if (s != nullptr) a.flags.push_back(s);
  }
  if (layers == nullptr || hidden == nullptr || heads == nullptr) {
    for (const Setting* s : a.flags) IgnoreWith(reader, s, "import.ignored.partial_architecture", "flags", "model.num_layers, model.hidden_size and model.num_attention_heads");
    IgnoreWith(reader, layers, "import.ignored.partial_architecture", "flags", "model.num_layers, model.hidden_size and model.num_attention_heads");
    return std::nullopt;
  }
  a.layers_from = layers;
  a.layers = IntOf(reader, layers, 1, 1000).value_or(0);
  a.hidden = IntOf(reader, hidden, 8, 262144).value_or(0);
  a.heads = IntOf(reader, heads, 1, 4096).value_or(0);
  a.swiglu = activation && activation->value.find("glu") != std::string::npos;
  a.ffn = ffn && !ffn->is_null ? IntOf(reader, ffn, 1, 4194304).value_or(0) : 4 * a.hidden;
  a.kv_heads = groups && !groups->is_null ? IntOf(reader, groups, 1, 4096).value_or(0) : a.heads;
  if (kv_channels && !kv_channels->is_null) {
    a.head_dim = IntOf(reader, kv_channels, 1, 4096).value_or(0);
    a.head_dim_given = true;
  } else {
    a.head_dim = a.heads > 0 ? a.hidden / a.heads : 0;
  }
  if (max_positions && !max_positions->is_null) a.max_positions = IntOf(reader, max_positions, 1, 100000000).value_or(0);
  a.rmsnorm = norm && Lower(norm->value) == "rmsnorm";
  a.learned = !positions || positions->value == "learned_absolute";
  a.tied = !tied || reader.Bool(*tied).value_or(true);
  a.linear_bias = !bias || reader.Bool(*bias).value_or(true);
  if (experts && !experts->is_null) {
    a.experts = IntOf(reader, experts, 0, 4096).value_or(0);
    a.topk = topk && !topk->is_null ? IntOf(reader, topk, 1, 4096).value_or(0) : 2;
    a.moe_ffn = a.ffn;
  }
  if (reader.failed()) return std::nullopt;
  return a;
}

void SetArchitecture(Reader& reader, const Arch& a, std::optional<long> seq_len, const char* vocab_key) {
  const engine::Catalog& catalog = *reader.state().catalog;
  const engine::ModelPreset* best = nullptr;
  int best_score = -1;
  for (const engine::ModelPreset& preset : catalog.models) {
    if (!SameArchitecture(preset.spec, a)) continue;
    int score = 0;
    if (a.vocab > 0 && preset.spec.vocab == a.vocab) score += 4;
    if (a.mtp && preset.spec.mtp_layers == *a.mtp) score += 2;
    // The exporter writes max(max_context, seq_len).
    if (a.max_positions > 0 && std::max<long>(preset.spec.max_context, seq_len.value_or(0)) == a.max_positions) score += 1;
    if (score > best_score) {
      best = &preset;
      best_score = score;
    }
  }
  for (const Setting* s : a.flags) reader.Used(*s);
  if (best != nullptr) {
    const std::string& id = best->spec.id;
    // What the flags give beside the preset's shapes: its vocabulary, multi-token prediction.
    Json changed = Json::object();
    std::string changes;
    if (a.vocab > 0 && best->spec.vocab != a.vocab) changed["vocab"] = a.vocab;
    if (a.mtp && best->spec.mtp_layers != *a.mtp) changed["mtp_layers"] = *a.mtp;
    for (const auto& [key, value] : changed.items()) changes += (changes.empty() ? "" : ", ") + key + " " + value.dump();
    if (!changed.empty()) {
      Json model = {{"preset", id}};
      model.update(changed);
      reader.Set("model", model, *a.layers_from);
      if (reader.Field("model") == nullptr || *reader.Field("model") != model) return;  // another file's model stays
      reader.Assume("model", model,
                    engine::MakeMessage("import.assumed.model_architecture_changed",
                                        {engine::TextArg("preset", id), engine::TextArg("changes", changes)}));
    } else {
      reader.Set("model", id, *a.layers_from);
      if (reader.Field("model") == nullptr || *reader.Field("model") != id) return;
      reader.Assume("model", id, engine::MakeMessage("import.assumed.model_architecture", {engine::TextArg("preset", id)}));
    }
    return;
  }
  Json arch = {{"name", "Megatron-LM model"}, {"layers", a.layers}, {"hidden", a.hidden}, {"heads", a.heads},
               {"kv_heads", a.kv_heads}, {"ffn", a.ffn}};
  if (a.head_dim_given) arch["head_dim"] = a.head_dim;
  long vocab = a.vocab;
  std::optional<engine::Message> vocab_why;
  if (vocab <= 0) {
    // The GPT-2 BPE files (examples/gpt3) give GPT-2's vocabulary.
    const ConfigDocument& doc = reader.doc();
    const Setting* type = doc.Find("tokenizer-type");
    const bool gpt2 = (type && type->value == "GPT2BPETokenizer") || (doc.Has("vocab-file") && doc.Has("merge-file"));
    vocab = gpt2 ? 50257 : 32000;
    vocab_why = gpt2 ? engine::MakeMessage("import.assumed.vocab_gpt2", {engine::CountArg("vocab", vocab)})
                     : engine::MakeMessage("import.assumed.vocab", {engine::TextArg("key", vocab_key),
                                                                     engine::CountArg("vocab", vocab)});
  }
  arch["vocab"] = vocab;
  arch["mlp"] = a.swiglu ? "swiglu" : "gelu";
  arch["norm"] = a.rmsnorm ? "rmsnorm" : "layernorm";
  arch["tied_embeddings"] = a.tied;
  arch["qkv_bias"] = a.qkv_bias;
  arch["linear_bias"] = a.linear_bias;
  if (a.learned) arch["learned_positions"] = a.max_positions > 0 ? a.max_positions : seq_len.value_or(0);
  if (a.learned && arch["learned_positions"] == 0) arch.erase("learned_positions");
  if (a.max_positions > 0) arch["max_context"] = a.max_positions;
  if (a.experts > 0) {
    arch["experts"] = a.experts;
    arch["experts_per_token"] = a.topk;
    arch["moe_ffn"] = a.moe_ffn;
    if (a.shared_ffn > 0) arch["shared_expert_ffn"] = a.shared_ffn;
    if (a.dense_layers > 0) arch["dense_layers"] = a.dense_layers;
  }
  if (a.mla) {
    arch["attention"] = "mla";
    arch["q_lora_rank"] = a.q_lora;
    arch["kv_lora_rank"] = a.kv_lora;
    arch["qk_nope_head_dim"] = a.qk_head;
    arch["qk_rope_head_dim"] = a.qk_pos;
    arch["v_head_dim"] = a.v_head;
  }
  if (a.mtp && *a.mtp > 0) arch["mtp_layers"] = *a.mtp;
  reader.Set("model", arch, *a.layers_from);
  if (vocab_why && reader.Field("model") != nullptr && *reader.Field("model") == arch) {
    reader.Assume("model.vocab", vocab, std::move(*vocab_why));
  }
}

}  // namespace engine::imports::megatron
