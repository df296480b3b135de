// Megatron-LM arguments (pretrain_gpt.py flags, megatron/training/arguments.py in
// https://github.com/NVIDIA/Megatron-LM; the launch scripts of examples/gpt3 and examples/llama
// with bash arrays of flags) and NeMo 1.x YAML (megatron_gpt_config.yaml: trainer.* and
// model.* keys, or the same keys as Hydra overrides). The reader inverts what
// engine/exports/launch_configs.cpp's MegatronCommand writes, so that its text imports back
// to the scenario it came from; what the flags leave unsaid is Megatron-LM's own default.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

using contract::Json;


// A value of `s`, or nothing when absent (an error is recorded when it is not an integer).
std::optional<long> IntOf(Reader& reader, const Setting* s, long lo, long hi) {
  if (s == nullptr) return std::nullopt;
  return reader.Int(*s, lo, hi);
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A store_true flag of a command line ("--swiglu"): on unless written false. A mapping
// (NeMo YAML) holds a boolean, read strictly.
bool FlagOn(Reader& reader, const Setting* s) {
  if (s == nullptr) return false;
  if (reader.doc().kind == DocumentKind::kMapping) return reader.Bool(*s).value_or(false);
  const std::string v = Lower(s->value);
  return !(v == "false" || v == "0" || v == "no" || v == "off");
}

void FailChoice(Reader& reader, const Setting& s, const char* allowed) {
  reader.Fail(s, engine::MakeMessage("input.not_one_of",
                                     {engine::TextArg("allowed", allowed), engine::TextArg("got", engine::QuotedInput(s.value))}));
}

// A field Megatron-LM decides by itself when its flag is absent: the default is written and
// listed as assumed (a value another file gave stays).
void AssumeDefault(Reader& reader, const char* field, Json value, const char* flag) {
  if (reader.Field(field)) return;
  reader.state().result.scenario[field] = value;
  reader.Assume(field, std::move(value), engine::MakeMessage("import.assumed.megatron_default", {engine::TextArg("flag", flag)}));
}

void IgnoreWith(Reader& reader, const Setting* s, const char* id, const char* arg, const char* text) {
  if (s != nullptr) reader.Ignore(*s, engine::MakeMessage(id, {engine::TextArg(arg, text)}));
}

// [SECTION] The architecture

// The architecture the flags describe, with Megatron-LM's defaults filled in
// (arguments.py _add_network_size_args and validate_args).
struct Arch {
  const Setting* layers_from = nullptr;  // the key the model is listed under
  long layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, ffn = 0, vocab = 0, max_positions = 0;
  bool head_dim_given = false;
  bool swiglu = false, rmsnorm = false, tied = true, linear_bias = true, qkv_bias = false, learned = true;
  long experts = 0, topk = 0, moe_ffn = 0, shared_ffn = 0, dense_layers = 0;
  // --multi-latent-attention (DeepSeek MLA) with its ranks; --mtp-num-layers. Without the
  // flags the architecture does not say (TrainSizer's own command leaves them out).
  bool mla = false;
  long q_lora = 0, kv_lora = 0, qk_head = 0, qk_pos = 0, v_head = 0;
  std::optional<long> mtp;
  std::vector<const Setting*> flags;  // every key read for it, besides layers_from
};

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

// Megatron-LM's own flags (arguments.py _add_network_size_args, _add_moe_args).
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

// NeMo 1.x model.* keys (megatron_gpt_config.yaml), with NeMo's defaults.
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

// The model: a catalog preset when one has exactly this architecture (the vocabulary, then
// the positions the command allows, choose among presets of the same shapes), else the
// architecture itself.
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

// [SECTION] Megatron-LM flags

void ReadMegatronPrecision(Reader& reader) {
  const Setting* bf16 = reader.Take("bf16");
  const Setting* fp16 = reader.Take("fp16");
  const Setting* fp8 = reader.Take("fp8-format");
  const Setting* fp8_recipe = reader.Take("fp8-recipe");
  const Setting* fp4 = reader.Take("fp4-format");
  const Setting* fp4_recipe = reader.Take("fp4-recipe");
  const Setting* first_last = reader.Take("first-last-layers-bf16");
  const Setting* at_start = reader.Take("num-layers-at-start-in-bf16");
  const Setting* at_end = reader.Take("num-layers-at-end-in-bf16");
  std::string precision;
  if (fp4) {
    if (fp4->value != "e2m1") FailChoice(reader, *fp4, "e2m1");
    precision = "nvfp4";
    reader.Set("precision", precision, *fp4);
  } else if (fp8) {
    if (fp8->value != "hybrid" && fp8->value != "e4m3") FailChoice(reader, *fp8, "hybrid, e4m3");
    precision = fp8_recipe && fp8_recipe->value == "mxfp8" ? "mxfp8" : "fp8";
    reader.Set("precision", precision, *fp8);
  } else if (FlagOn(reader, bf16)) {
    precision = "bf16";
    reader.Set("precision", precision, *bf16);
  } else if (FlagOn(reader, fp16)) {
    precision = "fp16";
    reader.Set("precision", precision, *fp16);
  } else {
    AssumeDefault(reader, "precision", "fp32", "--bf16 or --fp16");
  }
  // --bf16 beside an FP8 or FP4 format is the precision of what is not FP8/FP4.
  for (const Setting* s : {bf16, fp16, fp8, fp8_recipe, fp4_recipe}) {
    if (s != nullptr) reader.Used(*s);
  }
  // --first-last-layers-bf16 keeps --num-layers-at-start/end-in-bf16 layers (default 1 each) in BF16.
  if (FlagOn(reader, first_last)) {
    const long start = at_start ? IntOf(reader, at_start, 0, 1000).value_or(0) : 1;
    const long end = at_end ? IntOf(reader, at_end, 0, 1000).value_or(0) : 1;
    if (reader.failed()) return;
    if (precision == "fp8" || precision == "mxfp8" || precision == "nvfp4") {
      reader.Set("bf16_layers", start + end, *first_last);
      if (at_start) reader.Used(*at_start);
      if (at_end) reader.Used(*at_end);
    } else {
      reader.Used(*first_last);
      if (at_start) reader.Used(*at_start);
      if (at_end) reader.Used(*at_end);
    }
  } else {
    if (first_last) reader.Used(*first_last);
    IgnoreWith(reader, at_start, "import.ignored.only_with", "key", "--first-last-layers-bf16");
    IgnoreWith(reader, at_end, "import.ignored.only_with", "key", "--first-last-layers-bf16");
  }
}

void ReadMegatronAttention(Reader& reader) {
  const Setting* backend = reader.Take("attention-backend");
  const Setting* legacy = reader.Take("use-flash-attn");
  if (backend) {
    const std::string& b = backend->value;
    if (b == "fused") {
      reader.Set("flash_attention", true, *backend);
      reader.Set("attention_backend", "cudnn", *backend);
    } else if (b == "flash") {
      reader.Set("flash_attention", true, *backend);
      reader.Set("attention_backend", "flash-attn", *backend);
    } else if (b == "unfused" || b == "local") {
      reader.Set("flash_attention", false, *backend);
    } else if (b == "auto") {
      reader.Used(*backend);  // Transformer Engine chooses: the framework's backend
    } else {
      FailChoice(reader, *backend, "flash, fused, unfused, local, auto");
    }
    if (legacy) reader.Used(*legacy);
  } else if (FlagOn(reader, legacy)) {
    reader.Set("flash_attention", true, *legacy);
    reader.Set("attention_backend", "flash-attn", *legacy);
  } else if (legacy) {
    reader.Used(*legacy);
  }
}

void ReadMegatronRecompute(Reader& reader, long pp, long layers) {
  const Setting* granularity = reader.Take("recompute-granularity");
  const Setting* method = reader.Take("recompute-method");
  const Setting* count = reader.Take("recompute-num-layers");
  const Setting* modules = reader.Take("recompute-modules");
  if (granularity == nullptr) {
    AssumeDefault(reader, "activation_checkpointing", "none", "--recompute-granularity");
    IgnoreWith(reader, method, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, count, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, modules, "import.ignored.only_with", "key", "--recompute-granularity selective");
    return;
  }
  const std::string& g = granularity->value;
  if (g != "full" && g != "selective") return FailChoice(reader, *granularity, "full, selective");
  reader.Set("activation_checkpointing", g, *granularity);
  if (g == "selective") {
    if (modules) {
      Json list = Json::array();
      for (const std::string& name : SettingItems(modules->value)) list.push_back(name);
      reader.Set("recompute_modules", list, *modules);
    }
    IgnoreWith(reader, method, "import.ignored.only_with", "key", "--recompute-granularity full");
    IgnoreWith(reader, count, "import.ignored.only_with", "key", "--recompute-granularity full");
    return;
  }
  IgnoreWith(reader, modules, "import.ignored.only_with", "key", "--recompute-granularity selective");
  if (method == nullptr) {
    if (count) reader.Used(*count);
    return;
  }
  if (method->value == "uniform") {
    // Every layer is recomputed, in groups of --recompute-num-layers.
    reader.Set("recompute_layers", 0, *method);
    if (count) {
      IntOf(reader, count, 1, 1000);
      reader.Used(*count);
    }
  } else if (method->value == "block") {
    if (count == nullptr) {
      reader.Used(*method);
      return;
    }
    // block: this many layers of each pipeline stage are recomputed.
    const std::optional<long> n = IntOf(reader, count, 0, 1000);
    if (!n) return;
    long long total = static_cast<long long>(*n) * pp;
    if (layers > 0) total = std::min<long long>(total, layers);
    reader.Set("recompute_layers", std::min<long long>(total, 1000), *count);
    reader.Used(*method);
  } else {
    FailChoice(reader, *method, "uniform, block");
  }
}

void IgnoreMegatronRest(Reader& reader) {
  reader.IgnoreKeys({"lr", "min-lr", "lr-decay-style", "lr-decay-iters", "lr-decay-samples", "lr-warmup-fraction",
                     "lr-warmup-iters", "lr-warmup-samples", "lr-warmup-init", "lr-wsd-decay-style",
                     "lr-wsd-decay-iters", "lr-wsd-decay-samples", "clip-grad", "weight-decay", "start-weight-decay",
                     "end-weight-decay", "weight-decay-incr-style", "adam-beta1", "adam-beta2", "adam-eps",
                     "sgd-momentum", "init-method-std", "attention-dropout", "hidden-dropout", "seed",
                     "rampup-batch-size", "moe-aux-loss-coeff", "moe-z-loss-coeff", "moe-router-load-balancing-type",
                     "moe-router-score-function", "moe-router-topk-scaling-factor", "moe-router-enable-expert-bias",
                     "moe-router-bias-update-rate", "moe-token-drop-policy", "moe-expert-capacity-factor",
                     "norm-epsilon", "apply-layernorm-1p", "use-checkpoint-opt_param-scheduler",
                     "override-opt_param-scheduler", "decoupled-lr", "decoupled-min-lr", "qk-layernorm",
                     "apply-query-key-layer-scaling", "attention-softmax-in-fp32"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"loss-scale", "initial-loss-scale", "min-loss-scale", "loss-scale-window", "hysteresis",
                     "accumulate-allreduce-grads-in-fp32", "fp8-margin", "fp8-amax-history-len",
                     "fp8-amax-compute-algo", "fp8-interval", "fp8-param-gather"},
                    "import.ignored.loss_scale");
  reader.IgnoreKeys({"data-path", "train-data-path", "valid-data-path", "test-data-path", "data-cache-path",
                     "mock-data", "split", "tokenizer-type", "tokenizer-model", "vocab-file", "merge-file",
                     "make-vocab-size-divisible-by", "save", "load", "pretrained-checkpoint", "finetune",
                     "no-load-optim", "no-load-rng", "no-save-optim", "no-save-rng", "ckpt-format", "use-dist-ckpt",
                     "auto-detect-ckpt-format", "async-save", "use-checkpoint-args", "exit-interval",
                     "exit-duration-in-mins", "exit-signal-handler", "log-interval", "eval-interval", "eval-iters",
                     "save-interval", "tensorboard-dir", "tensorboard-log-interval", "tensorboard-queue-size",
                     "wandb-project", "wandb-exp-name", "wandb-save-dir", "log-throughput",
                     "log-timers-to-tensorboard", "log-validation-ppl-to-tensorboard", "log-memory-to-tensorboard",
                     "log-params-norm", "log-num-zeros-in-grad", "log-progress", "timing-log-level",
                     "timing-log-option", "num-workers", "dataloader-type", "reset-position-ids",
                     "reset-attention-mask", "eod-mask-loss", "no-create-attention-mask-in-dataloader",
                     "no-mmap-bin-files", "data-args-path", "per-split-data-args-path", "distributed-timeout-minutes",
                     "profile", "profile-step-start", "profile-step-end", "profile-ranks", "use-pytorch-profiler",
                     "dist-ckpt-strictness", "ckpt-fully-parallel-save", "ckpt-fully-parallel-load",
                     "ckpt-assume-constant-structure", "log-straggler", "logging-level"},
                    "import.ignored.io");
  reader.IgnoreKeys({"rotary-base", "use-rope-scaling", "rope-scaling-factor", "rotary-percent",
                     "rotary-interleaved", "rotary-seq-len-interpolation-factor", "no-rope-fusion",
                     "no-position-embedding"},
                    "import.ignored.rope");
  reader.IgnoreKeys({"overlap-grad-reduce", "overlap-param-gather", "overlap-param-gather-with-optimizer-step",
                     "no-gradient-accumulation-fusion", "no-masked-softmax-fusion", "no-bias-gelu-fusion",
                     "no-bias-swiglu-fusion", "no-bias-dropout-fusion", "use-mcore-models", "transformer-impl",
                     "distributed-backend", "ddp-bucket-size", "ddp-average-in-collective", "manual-gc",
                     "manual-gc-interval", "moe-grouped-gemm", "moe-token-dispatcher-type", "moe-router-dtype",
                     "moe-permute-fusion", "tp-comm-overlap-cfg", "tp-comm-bootstrap-backend", "defer-embedding-wgrad-compute",
                     "overlap-p2p-communication", "no-overlap-p2p-communication",
                     "overlap-p2p-communication-warmup-flush", "use-precision-aware-optimizer", "main-grads-dtype",
                     "main-params-dtype", "exp-avg-dtype", "exp-avg-sq-dtype", "calculate-per-token-loss",
                     "deterministic-mode", "use-cpu-initialization", "empty-unused-memory-level",
                     "check-for-nan-in-loss-and-grad", "no-check-for-nan-in-loss-and-grad", "use-flash-decode",
                     "num-distributed-optimizer-instances", "cpu-offloading-activations", "cpu-offloading-weights",
                     "cpu-offloading-num-layers", "optimizer-offload-fraction", "overlap-cpu-optimizer-d2h-h2d",
                     "use-torch-optimizer-for-cpu-offload", "cross-entropy-loss-fusion", "cross-entropy-fusion-impl"},
                    "import.ignored.megatron_tuning");
}

void ReadMegatronLm(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  // Megatron-FSDP (--use-megatron-fsdp) shards what --data-parallel-sharding-strategy says.
  const Setting* mfsdp = reader.Take("use-megatron-fsdp");
  const Setting* strategy = reader.Take("data-parallel-sharding-strategy");
  const Setting* dist_opt = reader.Take("use-distributed-optimizer");
  if (FlagOn(reader, mfsdp)) {
    reader.Set("framework", "megatron-fsdp", *mfsdp);
    const std::string s = strategy ? strategy->value : "optim_grads_params";
    const int zero = s == "no_shard" ? 0 : s == "optim" ? 1 : s == "optim_grads" ? 2 : s == "optim_grads_params" ? 3 : -1;
    if (zero < 0) return FailChoice(reader, *strategy, "no_shard, optim, optim_grads, optim_grads_params");
    reader.Set("zero", zero, strategy ? *strategy : *mfsdp);
    if (dist_opt) reader.Used(*dist_opt);
  } else {
    if (mfsdp) reader.Used(*mfsdp);
    IgnoreWith(reader, strategy, "import.ignored.only_with", "key", "--use-megatron-fsdp");
    if (!reader.Field("framework")) {
      reader.state().result.scenario["framework"] = "megatron";
      reader.Assume("framework", "megatron",
                    engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "Megatron-LM")}));
    }
    // The distributed optimizer shards the optimizer state over the data-parallel ranks.
    if (FlagOn(reader, dist_opt)) reader.Set("zero", 1, *dist_opt);
    else if (dist_opt) reader.Set("zero", 0, *dist_opt);
    else AssumeDefault(reader, "zero", 0, "--use-distributed-optimizer");
  }

  // Batch and sequence.
  std::optional<long> seq_len;
  if (const Setting* s = reader.TakeAny({"seq-length", "encoder-seq-length"})) {
    seq_len = reader.Int(*s, 1, 10000000);
    if (seq_len) reader.Set("seq_len", *seq_len, *s);
  }
  const Setting* micro = reader.Take("micro-batch-size");
  if (const std::optional<long> v = IntOf(reader, micro, 1, 65536)) reader.Set("micro_batch", *v, *micro);
  if (const Setting* s = reader.Take("global-batch-size")) {
    if (auto v = reader.Int(*s, 1, 100000000)) reader.Set("global_batch", *v, *s);
  } else if (micro != nullptr && !reader.state().grad_accum) {
    // Megatron-LM's default global batch: one micro-batch on every data-parallel rank.
    reader.state().grad_accum = ImportState::Piece{1, doc.name, micro->key};
  }
  if (const Setting* s = reader.Take("train-iters")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  }
  if (const Setting* s = reader.Take("train-samples")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) {
      if (seq_len) reader.Set("tokens", static_cast<double>(*v) * static_cast<double>(*seq_len), *s);
      else reader.Ignore(*s, engine::MakeMessage("import.ignored.needs_key", {engine::TextArg("key", "--seq-length")}));
    }
  }
  if (reader.failed()) return;

  const std::optional<Arch> arch = ReadMegatronArch(reader);
  if (reader.failed()) return;
  if (arch) SetArchitecture(reader, *arch, seq_len, "--vocab-size");

  // Parallelism (arguments.py _add_distributed_args).
  long tp = 1, pp = 1;
  if (const Setting* s = reader.Take("tensor-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) {
      tp = *v;
      reader.Set("tp", *v, *s);
    }
  }
  if (const Setting* s = reader.Take("pipeline-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1000)) {
      pp = *v;
      reader.Set("pp", *v, *s);
    }
  }
  if (const Setting* s = reader.Take("context-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) reader.Set("cp", *v, *s);
  }
  if (const Setting* s = reader.Take("expert-model-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("ep", *v, *s);
  }
  if (const Setting* s = reader.Take("expert-tensor-parallel-size")) {
    if (auto v = reader.Int(*s, 1, 1024)) reader.Set("etp", *v, *s);
  }
  if (const Setting* s = reader.Take("decoder-first-pipeline-num-layers")) {
    if (auto v = reader.Int(*s, 0, 1000)) reader.Set("first_stage_layers", *v, *s);
  }
  if (const Setting* s = reader.Take("decoder-last-pipeline-num-layers")) {
    if (auto v = reader.Int(*s, 0, 1000)) reader.Set("last_stage_layers", *v, *s);
  }
  if (const Setting* s = reader.Take("num-layers-per-virtual-pipeline-stage")) {
    if (auto v = reader.Int(*s, 1, 1000)) {
      if (arch && arch->layers > 0) {
        reader.Set("virtual_pipeline", std::clamp<long long>(arch->layers / (static_cast<long long>(pp) * *v), 1, 64), *s);
      } else {
        reader.Ignore(*s, engine::MakeMessage("import.ignored.needs_key", {engine::TextArg("key", "--num-layers")}));
      }
    }
  }
  if (const Setting* s = reader.Take("num-virtual-stages-per-pipeline-rank")) {
    if (auto v = reader.Int(*s, 1, 64)) reader.Set("virtual_pipeline", *v, *s);
  }
  if (const Setting* s = reader.Take("sequence-parallel")) reader.Set("sequence_parallel", FlagOn(reader, s), *s);
  else if (tp > 1) AssumeDefault(reader, "sequence_parallel", false, "--sequence-parallel");
  if (const Setting* s = reader.Take("tp-comm-overlap")) reader.Set("tp_comm_overlap", FlagOn(reader, s), *s);
  else if (tp > 1) AssumeDefault(reader, "tp_comm_overlap", false, "--tp-comm-overlap");
  if (reader.failed()) return;

  ReadMegatronPrecision(reader);
  if (reader.failed()) return;
  ReadMegatronAttention(reader);
  if (reader.failed()) return;
  ReadMegatronRecompute(reader, pp, arch ? arch->layers : 0);
  if (reader.failed()) return;
  if (const Setting* s = reader.Take("cpu-offloading")) {
    reader.Set("activation_offload", FlagOn(reader, s), *s);
    // How many layers go to host: the engine keeps about two layers' worth on the GPU.
    if (const Setting* n = reader.Take("cpu-offloading-num-layers")) reader.Used(*n);
  }
  if (const Setting* s = reader.Take("optimizer")) {
    if (s->value == "adam") reader.Set("optimizer", "adamw", *s);  // Megatron's adam is AdamW (decoupled decay)
    else if (s->value == "sgd") reader.Set("optimizer", "sgd", *s);
    else ReadTrainerOptimizer(reader, *s);
  }
  if (const Setting* s = reader.Take("optimizer-cpu-offload")) {
    if (FlagOn(reader, s)) reader.Set("offload", "optimizer", *s);
    else reader.Used(*s);
  }
  IgnoreMegatronRest(reader);
}

// [SECTION] NeMo 1.x

bool IsNemo(const ConfigDocument& doc) {
  for (const Setting& s : doc.settings) {
    if (s.key.rfind("model.", 0) == 0 || s.key.rfind("trainer.", 0) == 0) return true;
  }
  return false;
}

std::optional<long> NemoInt(Reader& reader, const Setting* s, long lo, long hi) {
  if (s == nullptr || s->is_null) return std::nullopt;
  return reader.Int(*s, lo, hi);
}

void ReadNemo(Reader& reader) {
  if (!reader.Field("framework")) {
    reader.state().result.scenario["framework"] = "nemo";
    reader.Assume("framework", "nemo", engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", "NeMo")}));
  }
  // trainer: the GPUs and the steps (PyTorch Lightning Trainer arguments).
  const Setting* devices = reader.Take("trainer.devices");
  const Setting* nodes = reader.Take("trainer.num_nodes");
  if (devices && (devices->value == "-1" || devices->value == "auto")) {
    reader.Ignore(*devices, engine::MakeMessage("import.ignored.all_devices"));
    if (nodes) reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  } else if (devices) {
    const std::optional<long> per_node = reader.Int(*devices, 1, kMaxGpus);
    const std::optional<long> n = nodes ? reader.Int(*nodes, 1, kMaxGpus) : std::optional<long>(1);
    if (per_node && n) {
      reader.Set("gpus_per_node", *per_node, *devices);
      reader.Set("gpus", static_cast<long long>(*per_node) * *n, *devices);
      if (nodes) reader.Set("gpus", static_cast<long long>(*per_node) * *n, *nodes);
    }
  } else if (nodes) {
    reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  }
  if (const Setting* s = reader.Take("trainer.max_steps"); s != nullptr && s->value != "-1" && !s->is_null) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) reader.SetPiece(reader.state().train_steps, *v, *s);
  } else if (s != nullptr) {
    reader.Used(*s);
  }
  const Setting* fp8 = reader.Take("model.fp8");
  if (const Setting* s = reader.Take("trainer.precision")) {
    const std::string p = Lower(s->value);
    std::string precision;
    if (p == "bf16" || p == "bf16-mixed" || p == "bf16-true") precision = "bf16";
    else if (p == "16" || p == "16-mixed" || p == "fp16") precision = "fp16";
    else if (p == "32" || p == "32-true" || p == "fp32") precision = "fp32";
    else return FailChoice(reader, *s, "bf16, bf16-mixed, 16, 16-mixed, 32");
    if (fp8 && reader.Bool(*fp8).value_or(false)) {
      reader.Set("precision", "fp8", *fp8);
      reader.Used(*s);
    } else {
      reader.Set("precision", precision, *s);
      if (fp8) reader.Used(*fp8);
    }
  } else if (fp8) {
    if (reader.Bool(*fp8).value_or(false)) reader.Set("precision", "fp8", *fp8);
    else reader.Used(*fp8);
  }
  for (const char* key : {"model.fp8_hybrid", "model.fp8_e4m3", "model.transformer_engine", "model.megatron_amp_O2",
                          "model.mcore_gpt"}) {
    if (const Setting* s = reader.Take(key)) reader.Used(*s);
  }
  if (reader.failed()) return;

  // model: batch and sequence.
  std::optional<long> seq_len;
  if (const Setting* s = reader.TakeAny({"model.encoder_seq_length", "model.seq_length"})) {
    seq_len = reader.Int(*s, 1, 10000000);
    if (seq_len) reader.Set("seq_len", *seq_len, *s);
  }
  if (const Setting* s = reader.Take("model.micro_batch_size")) {
    if (auto v = reader.Int(*s, 1, 65536)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = reader.Take("model.global_batch_size")) {
    if (auto v = reader.Int(*s, 1, 100000000)) reader.Set("global_batch", *v, *s);
  }
  if (reader.failed()) return;
  const std::optional<Arch> arch = ReadNemoArch(reader);
  if (reader.failed()) return;
  if (arch) SetArchitecture(reader, *arch, seq_len, "model.tokenizer");

  // model: parallelism.
  long pp = 1;
  struct IntKey {
    const char* key;
    const char* field;
    long lo, hi;
  };
  for (const IntKey& k : {IntKey{"model.tensor_model_parallel_size", "tp", 1, 1024},
                          IntKey{"model.pipeline_model_parallel_size", "pp", 1, 1000},
                          IntKey{"model.context_parallel_size", "cp", 1, 1024},
                          IntKey{"model.expert_model_parallel_size", "ep", 1, 4096},
                          IntKey{"model.expert_tensor_parallel_size", "etp", 1, 1024},
                          IntKey{"model.virtual_pipeline_model_parallel_size", "virtual_pipeline", 1, 64}}) {
    const Setting* s = reader.Take(k.key);
    if (s != nullptr && s->is_null) {
      reader.Used(*s);
    } else if (const std::optional<long> v = NemoInt(reader, s, k.lo, k.hi)) {
      reader.Set(k.field, *v, *s);
      if (std::string(k.field) == "pp") pp = *v;
    }
  }
  if (const Setting* s = reader.Take("model.sequence_parallel")) {
    if (auto v = reader.Bool(*s)) reader.Set("sequence_parallel", *v, *s);
  }
  if (const Setting* s = reader.Take("model.ub_tp_comm_overlap")) {
    if (auto v = reader.Bool(*s)) reader.Set("tp_comm_overlap", *v, *s);
  }
  if (const Setting* s = reader.Take("model.use_flash_attention")) {
    if (auto v = reader.Bool(*s)) reader.Set("flash_attention", *v, *s);
  }
  if (reader.failed()) return;

  // model: activation checkpointing (NeMo's activations_checkpoint_*).
  const Setting* granularity = reader.Take("model.activations_checkpoint_granularity");
  const Setting* method = reader.Take("model.activations_checkpoint_method");
  const Setting* count = reader.Take("model.activations_checkpoint_num_layers");
  if (granularity && !granularity->is_null) {
    const std::string& g = granularity->value;
    if (g != "full" && g != "selective") return FailChoice(reader, *granularity, "full, selective, null");
    reader.Set("activation_checkpointing", g, *granularity);
    if (g == "full" && method && method->value == "block" && count && !count->is_null) {
      if (auto n = reader.Int(*count, 0, 1000)) {
        long long total = static_cast<long long>(*n) * pp;
        if (arch && arch->layers > 0) total = std::min<long long>(total, arch->layers);
        reader.Set("recompute_layers", std::min<long long>(total, 1000), *count);
      }
      reader.Used(*method);
    } else if (g == "full" && method && method->value == "uniform") {
      reader.Set("recompute_layers", 0, *method);
      if (count) reader.Used(*count);
    } else {
      if (method) reader.Used(*method);
      if (count) reader.Used(*count);
    }
  } else {
    if (granularity) reader.Set("activation_checkpointing", "none", *granularity);
    if (method) reader.Used(*method);
    if (count) reader.Used(*count);
  }
  if (reader.failed()) return;

  // model.optim: distributed_fused_adam is Megatron's distributed optimizer (zero 1).
  if (const Setting* s = reader.Take("model.optim.name")) {
    const std::string& o = s->value;
    if (o == "distributed_fused_adam" || o == "mcore_distributed_optim") {
      reader.Set("optimizer", "adamw", *s);
      reader.Set("zero", 1, *s);
    } else if (o == "fused_adam" || o == "adam" || o == "adamw") {
      reader.Set("optimizer", "adamw", *s);
      reader.Set("zero", 0, *s);
    } else {
      ReadTrainerOptimizer(reader, *s);
    }
  }
  reader.IgnorePrefix("model.optim", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"model.init_method_std", "model.hidden_dropout", "model.attention_dropout", "model.ffn_dropout",
                     "model.seed", "model.layernorm_epsilon", "model.use_scaled_init_method",
                     "model.apply_query_key_layer_scaling", "model.normalize_attention_scores",
                     "model.do_layer_norm_weight_decay", "trainer.gradient_clip_val", "model.native_amp_init_scale",
                     "model.native_amp_growth_interval", "model.hysteresis", "model.fp16_lm_cross_entropy"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"model.rotary_percentage", "model.rotary_base", "model.seq_len_interpolation_factor",
                     "model.scale_positional_embedding"},
                    "import.ignored.rope");
  reader.IgnorePrefix("model.tokenizer", "import.ignored.io");
  reader.IgnorePrefix("model.data", "import.ignored.io");
  reader.IgnorePrefix("model.nsys_profile", "import.ignored.io");
  reader.IgnorePrefix("exp_manager", "import.ignored.io");
  reader.IgnoreKeys({"name", "restore_from_path", "model.make_vocab_size_divisible_by", "model.resume_from_checkpoint",
                     "trainer.logger", "trainer.enable_checkpointing", "trainer.log_every_n_steps",
                     "trainer.val_check_interval", "trainer.limit_val_batches", "trainer.limit_test_batches",
                     "trainer.accelerator", "trainer.use_distributed_sampler", "trainer.enable_progress_bar",
                     "trainer.benchmark", "trainer.max_time", "trainer.max_epochs", "trainer.num_sanity_val_steps",
                     "trainer.enable_model_summary"},
                    "import.ignored.io");
  reader.IgnoreKeys({"trainer.accumulate_grad_batches"}, "import.ignored.megatron_tuning");
  reader.IgnoreKeys({"model.grad_allreduce_chunk_size_mb", "model.grad_div_ar_fusion",
                     "model.gradient_accumulation_fusion", "model.bias_activation_fusion",
                     "model.bias_dropout_add_fusion", "model.masked_softmax_fusion",
                     "model.get_attention_mask_from_fusion", "model.apply_rope_fusion", "model.persist_layer_norm",
                     "model.use_cpu_initialization", "model.onnx_safe", "model.apex_transformer_log_level",
                     "model.gradient_as_bucket_view", "model.sync_batch_comm", "model.overlap_p2p_comm",
                     "model.batch_p2p_comm", "model.pre_process", "model.post_process", "model.fp8_margin",
                     "model.fp8_interval", "model.fp8_amax_history_len", "model.fp8_amax_compute_algo",
                     "model.reduce_amax", "model.use_emha", "model.cpu_offloading_num_layers",
                     "model.num_micro_batches_with_partial_activation_checkpoints",
                     "model.activations_checkpoint_layers_per_pipeline", "model.use_te_rng_tracker",
                     "model.headscale", "model.transformer_block_type", "model.openai_gelu",
                     "model.attention_type"},
                    "import.ignored.megatron_tuning");
  if (const Setting* s = reader.Take("model.cpu_offloading")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_offload", *v, *s);
  }
}

}  // namespace

void ReadMegatron(Reader& reader) {
  if (reader.doc().kind == DocumentKind::kMapping || IsNemo(reader.doc())) {
    ReadNemo(reader);
    return;
  }
  ReadMegatronLm(reader);
}

}  // namespace engine::imports
