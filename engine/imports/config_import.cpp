#include "engine/imports/config_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include "engine/contract/message_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/imports/import_reader.h"

namespace engine::imports {

// [SECTION] The reader's verbs

const Setting* Reader::Take(std::string_view key) {
  for (Setting& s : doc_.settings) {
    if (s.key != key || s.taken) continue;
    s.taken = true;
    return &s;
  }
  return nullptr;
}

const Setting* Reader::TakeAny(std::initializer_list<std::string_view> keys) {
  const Setting* first = nullptr;
  for (std::string_view key : keys) {
    const Setting* s = Take(key);
    if (s == nullptr) continue;
    if (first == nullptr) {
      first = s;
    } else {
      Ignore(*s, engine::MakeMessage("import.ignored.alias", {engine::TextArg("key", first->key)}));
    }
  }
  return first;
}

UsedKey& Reader::UsedEntry(const Setting& from) {
  for (UsedKey& u : state_.result.used) {
    if (u.file == doc_.name && u.key == from.key && u.line == from.line && u.column == from.column) return u;
  }
  state_.result.used.push_back({doc_.name, from.key, from.value, from.line, from.column, contract::Json::object()});
  return state_.result.used.back();
}

const contract::Json* Reader::Field(std::string_view field) const {
  const contract::Json& fields = state_.result.scenario;
  const auto it = fields.find(std::string(field));
  return it == fields.end() ? nullptr : &*it;
}

void Reader::Set(std::string_view field_view, contract::Json value, const Setting& from) {
  const std::string field(field_view);
  contract::Json& fields = state_.result.scenario;
  const auto set_by = state_.field_file.find(field);
  if (set_by != state_.field_file.end() && set_by->second != doc_.name && fields[field] != value) {
    Ignore(from, engine::MakeMessage("import.ignored.conflict",
                                     {engine::TextArg("field", field), engine::TextArg("kept", fields[field].dump()),
                                      engine::TextArg("file", set_by->second)}));
    return;
  }
  fields[field] = value;
  state_.field_file[field] = doc_.name;
  UsedKey& used = UsedEntry(from);
  used.fields[field] = std::move(value);
  state_.field_used[field] = static_cast<size_t>(&used - state_.result.used.data());
}

void Reader::Used(const Setting& from) { UsedEntry(from); }

void Reader::SetPiece(std::optional<ImportState::Piece>& piece, long value, const Setting& from) {
  piece = ImportState::Piece{value, doc_.name, from.key};
  Used(from);
}

void Reader::Assume(std::string_view field, contract::Json value, engine::Message why) {
  for (Assumption& a : state_.result.assumed) {
    if (a.field == field) {
      a = {std::string(field), std::move(value), std::move(why)};
      return;
    }
  }
  state_.result.assumed.push_back({std::string(field), std::move(value), std::move(why)});
}

void Reader::Ignore(const Setting& from, engine::Message why) {
  state_.result.ignored.push_back({doc_.name, from.key, from.value, from.line, from.column, std::move(why)});
}

void Reader::IgnoreKeys(std::initializer_list<std::string_view> keys, const char* why_id) {
  for (std::string_view key : keys) {
    if (const Setting* s = Take(key)) Ignore(*s, engine::MakeMessage(why_id));
  }
}

void Reader::IgnorePrefix(std::string_view prefix, const char* why_id) {
  for (Setting& s : doc_.settings) {
    if (s.taken) continue;
    const bool under = s.key == prefix || (s.key.size() > prefix.size() && s.key.compare(0, prefix.size(), prefix) == 0 &&
                                           s.key[prefix.size()] == '.');
    if (!under) continue;
    s.taken = true;
    Ignore(s, engine::MakeMessage(why_id));
  }
}

void Reader::Fail(const Setting& s, engine::Message reason) {
  if (state_.error) return;
  state_.error = engine::MakeInputError(
      s.key, "import.at",
      {engine::TextArg("file", doc_.name), engine::CountArg("line", s.line), engine::CountArg("column", s.column),
       engine::MessageArgOf("reason", engine::MakeMessage("import.key_reason",
                                                          {engine::TextArg("key", s.key),
                                                           engine::MessageArgOf("reason", std::move(reason))}))});
}

// The number `s` holds, or nothing after failing: not a (whole, with `whole`) finite
// number, or outside [lo, hi].
std::optional<double> Reader::Parse(const Setting& s, double lo, double hi, bool whole) {
  const char* text = s.value.c_str();
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (s.value.empty() || end == text || *end != '\0' || !std::isfinite(value) || (whole && value != std::floor(value))) {
    Fail(s, engine::MakeMessage(whole ? "input.not_an_integer" : "input.not_a_number",
                                {engine::TextArg("got", engine::QuotedInput(s.value))}));
    return std::nullopt;
  }
  if (value < lo || value > hi) {
    Fail(s, engine::MakeMessage("input.out_of_range", {engine::ExactArg("min", lo), engine::ExactArg("max", hi),
                                                       engine::ExactArg("got", value)}));
    return std::nullopt;
  }
  return value;
}

std::optional<long> Reader::Int(const Setting& s, long lo, long hi) {
  const std::optional<double> value = Parse(s, lo, hi, /*whole=*/true);
  return value ? std::optional<long>(static_cast<long>(*value)) : std::nullopt;
}

std::optional<double> Reader::Number(const Setting& s, double lo, double hi) { return Parse(s, lo, hi, /*whole=*/false); }

std::optional<bool> Reader::Bool(const Setting& s) {
  std::string v = s.value;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  if (v == "true" || v == "yes" || v == "on" || v == "1") return true;
  if (v == "false" || v == "no" || v == "off" || v == "0" || s.is_null) return false;
  Fail(s, engine::MakeMessage("input.not_a_bool", {engine::TextArg("got", engine::QuotedInput(s.value))}));
  return std::nullopt;
}

// [SECTION] Model names

namespace {

// A model name reduced to what tells architectures apart: the last path part, lower case,
// without the suffixes of variants that share the base model's architecture (instruction
// tuning, chat, a 4-bit re-upload).
std::string ArchitectureKey(std::string_view name) {
  std::string key = Lower(std::string(name.substr(name.find_last_of('/') == std::string_view::npos ? 0 : name.find_last_of('/') + 1)));
  static constexpr std::string_view kVariants[] = {"-bnb-4bit", "-unsloth", "-instruct", "-chat", "-hf", "-it",
                                                   "-base", "-pt", "-sft", "-2503", "-2507", "-0528"};
  for (bool changed = true; changed;) {
    changed = false;
    for (std::string_view suffix : kVariants) {
      if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
        key.resize(key.size() - suffix.size());
        changed = true;
      }
    }
  }
  return key;
}

}  // namespace

void Reader::SetModelFromName(const Setting& s) {
  const std::string key = ArchitectureKey(s.value);
  const engine::Catalog& catalog = *state_.catalog;
  for (const engine::ModelPreset& preset : catalog.models) {
    const bool same = preset.spec.id == s.value || Lower(preset.hf_repo) == Lower(s.value);
    if (same) {
      Set("model", preset.spec.id, s);
      return;
    }
  }
  for (const engine::ModelPreset& preset : catalog.models) {
    if (key.empty() || (ArchitectureKey(preset.hf_repo) != key && ArchitectureKey(preset.spec.id) != key)) continue;
    Set("model", preset.spec.id, s);
    Assume("model", preset.spec.id,
           engine::MakeMessage("import.assumed.model_variant",
                               {engine::TextArg("name", s.value), engine::TextArg("preset", preset.spec.id)}));
    return;
  }
  Used(s);
  Assume("model", nullptr, engine::MakeMessage("import.assumed.model_unknown", {engine::TextArg("name", s.value)}));
}

// [SECTION] Detecting the tool

namespace {

// How many of `keys` the document has.
int Count(const ConfigDocument& doc, std::initializer_list<std::string_view> keys) {
  int n = 0;
  for (std::string_view k : keys) n += doc.Has(k) ? 1 : 0;
  return n;
}

bool HasPrefix(const ConfigDocument& doc, std::string_view prefix) {
  return std::any_of(doc.settings.begin(), doc.settings.end(),
                     [&](const Setting& s) { return s.key.compare(0, prefix.size(), prefix) == 0; });
}

ConfigTool DetectCommandLine(const ConfigDocument& doc) {
  if (doc.RunsProgram("swift")) return ConfigTool::kSwift;
  if (doc.RunsProgram("verl") || HasPrefix(doc, "actor_rollout_ref.")) return ConfigTool::kVerl;
  if (doc.RunsProgram("openrlhf")) return ConfigTool::kOpenRlhf;
  if (doc.RunsProgram("pretrain_") || doc.RunsProgram("megatron") ||
      Count(doc, {"tensor-model-parallel-size", "micro-batch-size", "num-layers", "seq-length", "global-batch-size"}) > 0) {
    return ConfigTool::kMegatron;
  }
  if (doc.RunsProgram("llamafactory")) return ConfigTool::kLlamaFactory;
  return ConfigTool::kTrl;
}

ConfigTool DetectMapping(const ConfigDocument& doc) {
  if (Count(doc, {"model_type", "num_hidden_layers", "hidden_size", "architectures"}) >= 2) return ConfigTool::kHfConfig;
  if (doc.Has("zero_optimization.stage") || doc.Has("train_micro_batch_size_per_gpu") ||
      HasPrefix(doc, "zero_optimization")) {
    return ConfigTool::kDeepSpeed;
  }
  if (doc.Has("model._component_") || doc.Has("tokenizer._component_")) return ConfigTool::kTorchtune;
  if (HasPrefix(doc, "actor_rollout_ref.")) return ConfigTool::kVerl;
  if (doc.Has("model.tensor_model_parallel_size") || doc.Has("trainer.devices")) return ConfigTool::kMegatron;
  const int factory = Count(doc, {"finetuning_type", "stage", "cutoff_len", "template", "lora_target", "lora_rank",
                                  "quantization_bit", "flash_attn", "dataset_dir"});
  const int axolotl = Count(doc, {"base_model", "adapter", "sequence_len", "micro_batch_size", "lora_r", "sample_packing",
                                  "load_in_4bit", "load_in_8bit", "datasets", "num_epochs", "lora_target_linear"});
  if (factory == 0 && axolotl == 0) return ConfigTool::kTrl;
  return factory >= axolotl ? ConfigTool::kLlamaFactory : ConfigTool::kAxolotl;
}

ConfigTool Detect(const ConfigDocument& doc) {
  return doc.kind == DocumentKind::kCommandLine ? DetectCommandLine(doc) : DetectMapping(doc);
}

void ReadWith(ConfigTool tool, Reader& reader) {
  switch (tool) {
    case ConfigTool::kLlamaFactory: ReadLlamaFactory(reader); break;
    case ConfigTool::kAxolotl: ReadAxolotl(reader); break;
    case ConfigTool::kDeepSpeed: ReadDeepSpeed(reader); break;
    case ConfigTool::kTorchtune: ReadTorchtune(reader); break;
    case ConfigTool::kMegatron: ReadMegatron(reader); break;
    case ConfigTool::kVerl: ReadVerl(reader); break;
    case ConfigTool::kOpenRlhf: ReadOpenRlhf(reader); break;
    case ConfigTool::kHfConfig: ReadHfConfig(reader); break;
    case ConfigTool::kSwift: ReadSwift(reader); break;
    default: ReadTrainerArguments(reader); break;
  }
  if (reader.doc().kind == DocumentKind::kCommandLine) ReadLauncher(reader);
}

// Companions are read after the main config, so that its values win a conflict (the
// Trainer fills a DeepSpeed JSON's "auto" from its own arguments).
int ReadOrder(ConfigTool tool) {
  return tool == ConfigTool::kHfConfig ? 0 : tool == ConfigTool::kDeepSpeed ? 2 : 1;
}

// [SECTION] What the pieces make

const contract::Json* Lookup(const contract::Json& fields, const contract::Json& base, const char* key) {
  if (fields.contains(key)) return &fields[key];
  if (base.is_object() && base.contains(key)) return &base[key];
  return nullptr;
}

// A whole number from the configs or the base (not validated yet), or `fallback` when it is
// missing, not a number or past what a count can be.
long IntOr(const contract::Json* value, long fallback) {
  if (value == nullptr || !value->is_number()) return fallback;
  const double v = value->get<double>();
  return v >= 0 && v <= kMaxCount ? static_cast<long>(v) : fallback;
}

// The used key a batch piece came from also lists the field it made.
void AddPieceField(ConfigImport& r, const ImportState::Piece& piece, const char* field, const contract::Json& value) {
  for (UsedKey& u : r.used) {
    if (u.key == piece.key && u.file == piece.file) u.fields[field] = value;
  }
}

// global_batch = micro-batch × accumulation × data-parallel ranks, and the tokens of a
// run of max_steps, once every file has been read.
void Finish(ImportState& state, const contract::Json& base) {
  ConfigImport& r = state.result;
  contract::Json& f = r.scenario;
  ConfigDocument none;
  Reader reader(none, state, ConfigTool::kAuto);
  const long gpus = IntOr(Lookup(f, base, "gpus"), 1);
  const bool gpus_given = f.contains("gpus");
  if (!gpus_given) {
    reader.Assume("gpus", gpus,
                  engine::MakeMessage(base.contains("gpus") ? "import.assumed.kept" : "import.assumed.default"));
  }
  // Remove what a later file settled (a DeepSpeed JSON gives the zero stage the YAML names).
  std::erase_if(r.assumed, [&](const Assumption& a) { return a.value.is_null() && f.contains(a.field); });
  const contract::Json* method = Lookup(f, base, "method");
  const std::string method_name = method && method->is_string() ? method->get<std::string>() : "full";
  const bool post_training = method_name == "dpo" || method_name == "orpo" || method_name == "simpo" ||
                             method_name == "kto" || method_name == "ppo" || method_name == "grpo";
  if (post_training && state.grad_accum && f.contains("micro_batch") && !f.contains("prompts_per_step")) {
    // A step trains on prompts × answers each; the DPO family's pairs are its sequences.
    const long data_parallel = gpus;
    const long group = IntOr(Lookup(f, base, "group_size"), method_name == "grpo" ? 8 : 1);
    const long long sequences = f["micro_batch"].get<long long>() * state.grad_accum->value * data_parallel;
    const long long prompts = std::max(1LL, sequences / std::max(1L, group));
    f["prompts_per_step"] = prompts;
    AddPieceField(r, *state.grad_accum, "prompts_per_step", prompts);
  } else if (state.grad_accum && f.contains("micro_batch") && !f.contains("global_batch")) {
    const long long model_parallel = static_cast<long long>(IntOr(Lookup(f, base, "tp"), 1)) *
                                     IntOr(Lookup(f, base, "pp"), 1) * IntOr(Lookup(f, base, "cp"), 1);
    const long long data_parallel = std::max(1LL, gpus / std::max(1LL, model_parallel));
    const long long global = f["micro_batch"].get<long long>() * state.grad_accum->value * data_parallel;
    f["global_batch"] = global;
    AddPieceField(r, *state.grad_accum, "global_batch", global);
    if (!gpus_given) {
      reader.Assume("global_batch", global,
                    engine::MakeMessage("import.assumed.global_batch",
                                        {engine::CountArg("micro_batch", f["micro_batch"].get<long>()),
                                         engine::CountArg("grad_accum", state.grad_accum->value),
                                         engine::CountArg("data_parallel", data_parallel)}));
    }
  }
  const long seq_len = IntOr(Lookup(f, base, "seq_len"), 4096);
  if (state.train_steps && f.contains("global_batch") && !f.contains("tokens")) {
    const double tokens = static_cast<double>(state.train_steps->value) * f["global_batch"].get<double>() * seq_len;
    f["tokens"] = tokens;
    AddPieceField(r, *state.train_steps, "tokens", tokens);
  } else if (state.samples && !f.contains("dataset_tokens") && !f.contains("tokens")) {
    const double tokens = static_cast<double>(state.samples->value) * seq_len;
    f["dataset_tokens"] = tokens;
    AddPieceField(r, *state.samples, "dataset_tokens", tokens);
    reader.Assume("dataset_tokens", tokens,
                  engine::MakeMessage("import.assumed.samples_full", {engine::CountArg("seq_len", seq_len)}));
  }
  if (!f.contains("tokens") && !f.contains("dataset_tokens") && !f.contains("prompts")) {
    const contract::Json* tokens = Lookup(f, base, "tokens");
    reader.Assume("tokens", tokens ? *tokens : contract::Json(0), engine::MakeMessage("import.assumed.tokens"));
  }
  if (!f.contains("model") && !std::any_of(r.assumed.begin(), r.assumed.end(),
                                           [](const Assumption& a) { return a.field == "model"; })) {
    const contract::Json* model = Lookup(f, base, "model");
    reader.Assume("model", model ? *model : contract::Json(nullptr), engine::MakeMessage("import.assumed.no_model"));
  }
  if (!f.contains("gpu")) {
    const contract::Json* gpu = Lookup(f, base, "gpu");
    reader.Assume("gpu", gpu ? *gpu : contract::Json("h100-sxm-80gb"),
                  engine::MakeMessage(gpu ? "import.assumed.kept" : "import.assumed.default"));
  }
}

// The merged scenario must validate; an error in a field the import set names the key
// that gave it, with its place.
std::optional<engine::InputError> Validate(const ImportState& state, const contract::Json& base,
                                           const engine::Catalog& catalog) {
  contract::Json merged = base.is_object() ? base : contract::Json::object();
  for (const auto& [key, value] : state.result.scenario.items()) merged[key] = value;
  if (!merged.contains("model") || merged["model"].is_null()) merged["model"] = "llama-3.1-8b";  // checks the rest
  engine::Result<engine::Scenario> checked = contract::ScenarioFromJson(merged, catalog);
  if (checked.ok()) return std::nullopt;
  const engine::InputError& error = checked.error();
  const std::string top = error.field.substr(0, error.field.find_first_of(".["));
  const auto used = state.field_used.find(top);
  if (used == state.field_used.end()) return error;
  const UsedKey& u = state.result.used[used->second];
  return engine::MakeInputError(
      u.key, "import.at",
      {engine::TextArg("file", u.file), engine::CountArg("line", u.line), engine::CountArg("column", u.column),
       engine::MessageArgOf("reason", engine::MakeMessage("import.field_invalid",
                                                          {engine::TextArg("key", u.key), engine::TextArg("field", error.field),
                                                           engine::MessageArgOf("reason", engine::ErrorMessage(error))}))});
}

}  // namespace

engine::Result<ConfigImport> ImportConfigs(const std::vector<ConfigFile>& files, ConfigTool from,
                                           const contract::Json& base, const engine::Catalog& catalog) {
  if (files.empty()) return engine::MakeInputError("files", "import.no_files");
  std::vector<std::pair<ConfigDocument, ConfigTool>> docs;
  for (const ConfigFile& file : files) {
    engine::Result<ConfigDocument> doc = ReadConfigText(file);
    if (!doc.ok()) return doc.error();
    const ConfigTool detected = Detect(doc.value());
    const bool companion = detected == ConfigTool::kDeepSpeed || detected == ConfigTool::kHfConfig;
    docs.emplace_back(std::move(doc.value()), from == ConfigTool::kAuto || companion ? detected : from);
  }
  std::stable_sort(docs.begin(), docs.end(),
                   [](const auto& a, const auto& b) { return ReadOrder(a.second) < ReadOrder(b.second); });
  ImportState state;
  state.catalog = &catalog;
  for (auto& [doc, tool] : docs) {
    state.result.files.push_back({doc.name, tool});
    Reader reader(doc, state, tool);
    // argparse and Hydra keep the last of a repeated flag: the earlier ones are listed.
    std::map<std::string, size_t> last;
    for (size_t i = 0; i < doc.settings.size(); ++i) last[doc.settings[i].key] = i;
    for (size_t i = 0; i < doc.settings.size(); ++i) {
      Setting& s = doc.settings[i];
      if (last[s.key] == i) continue;
      s.taken = true;
      reader.Ignore(s, engine::MakeMessage("import.ignored.overridden", {engine::TextArg("key", s.key)}));
    }
    ReadWith(tool, reader);
    if (state.error) return *state.error;
    // What no reader took: an empty key (the tool's default), else one it does not know.
    for (Setting& s : doc.settings) {
      if (s.taken) continue;
      s.taken = true;
      reader.Ignore(s, s.is_null ? engine::MakeMessage("import.ignored.empty")
                                 : engine::MakeMessage("import.ignored.unknown",
                                                       {engine::TextArg("tool", std::string(reader.tool_name()))}));
    }
  }
  Finish(state, base);
  if (std::optional<engine::InputError> error = Validate(state, base, catalog)) return *error;
  return std::move(state.result);
}

// [SECTION] JSON

namespace {

contract::Json Place(const std::string& file, const std::string& key, const std::string& value, int line, int column) {
  return {{"file", file}, {"line", line}, {"column", column}, {"key", key}, {"value", value}};
}

void AddMessage(contract::Json& entry, const engine::Message& why) {
  entry["why"] = why.english;
  entry["code"] = why.id;
  entry["args"] = contract::MessageArgsJson(why.args);
}

}  // namespace

contract::Json ConfigImportToJson(const ConfigImport& r) {
  contract::Json files = contract::Json::array(), used = contract::Json::array(), ignored = contract::Json::array(),
                 assumed = contract::Json::array();
  for (const DetectedFile& f : r.files) {
    files.push_back({{"file", f.file}, {"tool", std::string(kConfigToolNames[static_cast<size_t>(f.tool)])}});
  }
  for (const UsedKey& u : r.used) {
    contract::Json entry = Place(u.file, u.key, u.value, u.line, u.column);
    entry["fields"] = u.fields;
    used.push_back(std::move(entry));
  }
  for (const IgnoredKey& i : r.ignored) {
    contract::Json entry = Place(i.file, i.key, i.value, i.line, i.column);
    AddMessage(entry, i.why);
    ignored.push_back(std::move(entry));
  }
  for (const Assumption& a : r.assumed) {
    contract::Json entry = {{"field", a.field}, {"value", a.value}};
    AddMessage(entry, a.why);
    assumed.push_back(std::move(entry));
  }
  return {{"scenario", r.scenario}, {"files", files}, {"used", used}, {"ignored", ignored}, {"assumed", assumed}};
}

}  // namespace engine::imports
