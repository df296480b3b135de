#include "engine/link/url_state.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "engine/contract/field_json.h"
#include "engine/contract/model_json.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/link/utf8.h"
#include "engine/planner.h"
#include "engine/post_training.h"
#include "engine/scenario_check.h"
#include "engine/scenario_fields.h"

namespace engine::link {
namespace {


// "key: <reason>": a parameter dropped for the reason a reader gave.
Message Notice(const std::string& key, Message reason) {
  return MakeMessage("input.link.notice", {TextArg("key", key), engine::MessageArgOf("reason", std::move(reason))});
}

constexpr std::string_view kArchPrefix = "m.";
// More parameters than any real link has (about 60 fields exist); stops a pasted novel
// from costing one scenario parse per parameter.
constexpr size_t kMaxParameters = 200;

// The JSON type of every key a link may carry, read off the default documents so that a
// field added to the scenario contract is accepted in links without touching this file.
struct KeyTypes {
  contract::Json scenario_defaults;  // scenario + constraint fields (no model)
  contract::Json arch_types;         // one architecture with every optional block present
  contract::Json arch_defaults;      // what contract::ParseArchitecture assumes for a field left out
};

const KeyTypes& Types() {
  static const KeyTypes types = [] {
    KeyTypes t;
    t.scenario_defaults = contract::ScenarioToJson(engine::Scenario{});
    t.scenario_defaults.erase("model");
    t.scenario_defaults.update(contract::ConstraintsToJson(engine::PlanConstraints{}));
    // Post-training's fields, written for a post-training run only, at GRPO's defaults.
    engine::Scenario post;
    post.training.post.kind = engine::PostTraining::kGrpo;
    post.training.post.group_size = engine::GroupSize(post.training.post);
    // A vision-language model's media fields, and the video's (written once there is video).
    engine::Scenario vision;
    vision.model.vision.layers = 1;
    engine::Scenario video = vision;
    video.training.media.video_seconds = 1;
    for (const engine::Scenario* other : {&post, &vision, &video}) {
      const contract::Json fields = contract::ScenarioToJson(*other);
      for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (!t.scenario_defaults.contains(it.key())) t.scenario_defaults[it.key()] = it.value();
      }
    }
    engine::ModelSpec every_field;
    every_field.moe.experts = 2;
    every_field.attention = engine::AttentionKind::kMla;
    every_field.stored_weight_bytes = 0.5;
    every_field.vision.layers = 1;
    t.arch_types = contract::ArchitectureToJson(every_field);
    t.arch_defaults = contract::ArchitectureToJson(engine::ModelSpec{});
    return t;
  }();
  return types;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; false on a broken escape. '+' stays '+': fragments are not forms.
bool PercentDecode(std::string_view in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out->push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return false;
    const int hi = HexDigit(in[i + 1]), lo = HexDigit(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

bool IsUnreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == ',';
}

std::string PercentEncode(std::string_view in) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : in) {
    if (IsUnreserved(c)) {
      out.push_back(c);
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += {'%', kHex[b >> 4], kHex[b & 15]};
    }
  }
  return out;
}

// A link value as the JSON type `like` has; false with a reason when it does not read.
bool ParseValue(const std::string& text, const contract::Json& like, contract::Json* out, Message* why) {
  if (like.is_boolean()) {
    if (text == "true" || text == "1") *out = true;
    else if (text == "false" || text == "0") *out = false;
    else return *why = MakeMessage("input.link.not_bool", {TextArg("got", engine::QuotedInput(text))}), false;
    return true;
  }
  if (like.is_number()) {
    // strtod, not from_chars: Emscripten's libc++ has no floating-point from_chars.
    char* end = nullptr;
    const double value = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                             ? NAN
                             : std::strtod(text.c_str(), &end);
    // Decimal only: strtod also reads hexadecimal ("0x10" is 16), which no person means.
    const bool hex = text.find_first_of("xX") != std::string::npos;
    if (hex || end != text.c_str() + text.size() || !std::isfinite(value)) {
      return *why = MakeMessage("input.link.not_number", {TextArg("got", engine::QuotedInput(text))}), false;
    }
    // Integral values go in as JSON integers: integer fields refuse 16.0-style doubles.
    if (value == std::floor(value) && std::fabs(value) < 9e15) *out = static_cast<std::int64_t>(value);
    else *out = value;
    return true;
  }
  if (like.is_array() && !like.empty() && like[0].is_number()) {
    // A size, "1024,768": each part a number; the reader checks there are two.
    contract::Json list = contract::Json::array();
    size_t start = 0;
    while (start <= text.size()) {
      const size_t comma = std::min(text.find(',', start), text.size());
      contract::Json part;
      if (!ParseValue(text.substr(start, comma - start), like[0], &part, why)) return false;
      list.push_back(part);
      start = comma + 1;
    }
    *out = list;
    return true;
  }
  if (like.is_array()) {
    contract::Json list = contract::Json::array();
    size_t start = 0;
    while (start <= text.size() && !text.empty()) {
      const size_t comma = std::min(text.find(',', start), text.size());
      if (comma > start) list.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
    *out = list;
    return true;
  }
  *out = text;
  return true;
}

// A number the way a person would type it: 4096, 0.5, 2e9 (no '+', which forms read as space).
std::string NumberText(const contract::Json& value) {
  if (value.is_number_integer()) return contract::DumpJson(value);
  const double d = value.get<double>();
  // The shortest text that reads back as the same double, without the '+'.
  char buffer[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, d);
    if (std::strtod(buffer, nullptr) == d) break;
  }
  std::string text(buffer);
  // "2e+09" -> "2e9", "1.5e-07" -> "1.5e-7"
  if (const size_t e = text.find('e'); e != std::string::npos) {
    size_t digits = e + 1;
    if (text[digits] == '+') text.erase(digits, 1);
    else if (text[digits] == '-') ++digits;
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
  }
  // Whole numbers in full ("40000"), unless e-notation is much shorter ("2e9" tokens).
  if (d == std::floor(d) && std::fabs(d) < 1e15) {
    const std::string whole = std::to_string(static_cast<std::int64_t>(d));
    if (whole.size() < text.size() + 3) return whole;
  }
  return text;
}

std::string ValueText(const contract::Json& value) {
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) return NumberText(value);
  if (value.is_array()) {
    std::string list;
    for (const contract::Json& item : value) {
      list += (list.empty() ? "" : ",") + (item.is_number() ? NumberText(item) : PercentEncode(item.get<std::string>()));
    }
    return list;
  }
  return PercentEncode(value.is_string() ? value.get<std::string>() : contract::DumpJson(value));
}

bool IsViewKey(const std::string& key, const std::string& value, Message* why) {
  if (key == "lang") {
    if (value == "en" || value == "zh") return true;
    return *why = MakeMessage("input.link.bad_lang", {TextArg("got", engine::QuotedInput(value))}), false;
  }
  if (key == "theme") {
    if (value == "light" || value == "dark") return true;
    return *why = MakeMessage("input.link.bad_theme", {TextArg("got", engine::QuotedInput(value))}), false;
  }
  return false;
}

// The defaults the reader fills for the fields that follow others (field_table.h
// fill_default), given this document's values of the rest: a bad value keeps its default
// here (the reader reports it).
contract::Json FollowingDefaults(const contract::Json& doc) {
  engine::Scenario s;
  for (const engine::ScenarioField& f : engine::ScenarioFields()) {
    if (f.fill_default != nullptr || !engine::KeyGroup(f.key).empty()) continue;
    (void)contract::ReadTableField(doc, f, "", s);
  }
  contract::FillDefaults(contract::Json::object(), engine::ScenarioFields(), s);
  return contract::ScenarioToJson(s);
}

// The default of a field inside an object-valued scenario field, written "claim.wall_hours"
// in a link (the name its errors carry too); null when `key` is no such field.
const contract::Json* NestedDefault(const contract::Json& scenario_defaults, const std::string& key) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos) return nullptr;
  const std::string group = key.substr(0, dot), field = key.substr(dot + 1);
  if (!scenario_defaults.contains(group) || !scenario_defaults[group].is_object()) return nullptr;
  const contract::Json& defaults = scenario_defaults[group];
  return defaults.contains(field) && !defaults[field].is_object() ? &defaults[field] : nullptr;
}

// The link's fields as one scenario document: the model from `model`, `params_b` or the
// m.* architecture fields, "group.field" inside its group, everything else as it is.
contract::Json AssembleScenario(const std::map<std::string, contract::Json>& fields) {
  contract::Json doc = contract::Json::object(), arch = contract::Json::object();
  for (const auto& [key, value] : fields) {
    const size_t dot = key.find('.');
    if (key.starts_with(kArchPrefix)) arch[key.substr(kArchPrefix.size())] = value;
    else if (key == "params_b") doc["model"] = contract::Json{{"params_b", value}};
    else if (dot != std::string::npos) {
      contract::Json& group = doc[key.substr(0, dot)];
      if (!group.is_object()) group = contract::Json::object();  // only "group.field" keys reach here
      group[key.substr(dot + 1)] = value;
    }
    else doc[key] = value;
  }
  if (!doc.contains("model") && !arch.empty()) doc["model"] = arch;
  return doc;
}

// The link key an error's field came from, or "" when the error names a field the link
// did not set (a default that conflicts with it: the page shows that error in place).
std::string LinkKeyFor(const std::string& field, const std::map<std::string, contract::Json>& fields) {
  if (fields.contains(field)) return field;
  if (field.starts_with("model.")) {
    const std::string key = std::string(kArchPrefix) + field.substr(6);
    if (fields.contains(key)) return key;
    if (field == "model.params_b" && fields.contains("params_b")) return "params_b";
  }
  if (field == "model") {
    for (const char* key : {"model", "params_b"}) {
      if (fields.contains(key)) return key;
    }
  }
  if (field.starts_with("budget.") && fields.contains("budget")) return "budget";
  return "";
}

// A link that names its model (model= or params_b=) has no use for m.* architecture
// fields: each is dropped with a notice rather than silently.
void DropArchitectureOfNamedModel(std::map<std::string, contract::Json>& fields, std::vector<Message>& ignored) {
  const char* named = fields.contains("model") ? "model" : fields.contains("params_b") ? "params_b" : nullptr;
  if (named == nullptr) return;
  for (auto it = fields.begin(); it != fields.end();) {
    if (!it->first.starts_with(kArchPrefix)) {
      ++it;
      continue;
    }
    ignored.push_back(MakeMessage("input.link.named_model", {TextArg("key", it->first), TextArg("named", named)}));
    it = fields.erase(it);
  }
}

// Drops, one at a time, the parameters the scenario and constraint parsers refuse.
void DropRefusedFields(std::map<std::string, contract::Json>& fields, const engine::Catalog& catalog,
                       std::vector<Message>& ignored) {
  // Each round drops a field or returns, so one more round than there are fields is enough.
  const size_t rounds = fields.size() + 1;
  for (size_t round = 0; round < rounds; ++round) {
    contract::Json doc = AssembleScenario(fields);
    const bool has_model = doc.contains("model");
    // The page keeps its own model when the link names none; any preset checks the rest.
    if (!has_model && !catalog.models.empty()) doc["model"] = catalog.models.front().spec.id;
    std::optional<engine::InputError> error;
    if (auto scenario = contract::ScenarioFromJson(doc, catalog); !scenario.ok()) error = scenario.error();
    else error = engine::ValidateScenario(scenario.value(), catalog);
    // A scenario error on a field the link did not set (pp=16 against the default 1 GPU)
    // stays for the page to show in place; the goal's own fields are still checked.
    const bool scenario_error_is_the_pages = error && LinkKeyFor(error->field, fields).empty() &&
                                             !(error->field.starts_with("model") && has_model);
    if (!error || scenario_error_is_the_pages) {
      std::optional<engine::InputError> goal_error;
      if (auto goal = contract::ConstraintsFromJson(doc); !goal.ok()) goal_error = goal.error();
      else goal_error = engine::ValidateConstraints(goal.value(), catalog);  // currency, GPU ids...
      if (goal_error) error = goal_error;
    }
    if (!error) return;
    const std::string key = LinkKeyFor(error->field, fields);
    const bool custom_model = has_model && AssembleScenario(fields)["model"].is_object() &&
                              !fields.contains("params_b");
    if (key.empty() && error->field.starts_with("model") && custom_model) {
      // The custom architecture as a whole is refused (e.g. heads not dividing hidden):
      // drop all of it and keep the page's model.
      std::erase_if(fields, [](const auto& field) { return field.first.starts_with(kArchPrefix); });
      // Incomplete because an m.* field was refused already: that notice says why.
      const bool explained = std::any_of(ignored.begin(), ignored.end(), [](const Message& notice) {
        return notice.english.starts_with(kArchPrefix);
      });
      if (!explained) ignored.push_back(Notice("model", engine::ErrorMessage(*error)));
      continue;
    }
    if (key.empty()) return;
    ignored.push_back(Notice(key, engine::ErrorMessage(*error)));
    fields.erase(key);
  }
}

}  // namespace

UrlState DecodeUrlState(std::string_view fragment, const engine::Catalog& catalog) {
  UrlState state;
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  if (fragment.empty()) return state;
  if (fragment.size() > kMaxUrlStateBytes) {
    state.ignored.push_back(
        MakeMessage("input.link.too_long", {engine::CountArg("max_chars", static_cast<long long>(kMaxUrlStateBytes))}));
    return state;
  }
  const KeyTypes& types = Types();
  std::map<std::string, contract::Json> fields;
  std::set<std::string> seen;
  size_t parameters = 0;
  size_t start = 0;
  while (start <= fragment.size()) {
    const size_t amp = std::min(fragment.find('&', start), fragment.size());
    const std::string_view pair = fragment.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) continue;
    if (++parameters > kMaxParameters) {
      state.ignored.push_back(MakeMessage(
          "input.link.too_many", {engine::CountArg("max_parameters", static_cast<long long>(kMaxParameters))}));
      break;
    }
    const size_t eq = pair.find('=');
    std::string key, value;
    if (!PercentDecode(pair.substr(0, eq), &key) ||
        (eq != std::string_view::npos && !PercentDecode(pair.substr(eq + 1), &value))) {
      const std::string parameter(pair.substr(0, std::min<size_t>(pair.size(), 40)));
      state.ignored.push_back(MakeMessage("input.link.broken_escape", {TextArg("parameter", parameter)}));
      continue;
    }
    if (!IsUtf8(key)) {
      state.ignored.push_back(MakeMessage("input.link.name_not_utf8"));
      continue;
    }
    key = engine::QuotedInput(key);
    if (eq == std::string_view::npos) {
      state.ignored.push_back(MakeMessage("input.link.no_value", {TextArg("key", key)}));
      continue;
    }
    if (!IsUtf8(value)) {
      state.ignored.push_back(MakeMessage("input.link.value_not_utf8", {TextArg("key", key)}));
      continue;
    }
    if (!seen.insert(key).second) state.ignored.push_back(MakeMessage("input.link.twice", {TextArg("key", key)}));
    Message why;
    if (key == "v") {
      int version = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), version);
      if (ec != std::errc() || ptr != value.data() + value.size() || version < 1) {
        state.ignored.push_back(MakeMessage("input.link.bad_version", {TextArg("got", engine::QuotedInput(value)),
                                                                     engine::CountArg("version", kUrlStateVersion)}));
      } else if (version > kUrlStateVersion) {
        state.ignored.push_back(MakeMessage("input.link.newer_version", {TextArg("got", engine::QuotedInput(value)),
                                                                       engine::CountArg("version", kUrlStateVersion)}));
      }
      continue;
    }
    if (key == "lang" || key == "theme") {
      if (IsViewKey(key, value, &why)) state.view[key] = value;
      else state.ignored.push_back(Notice(key, std::move(why)));
      continue;
    }
    const contract::Json* like = nullptr;
    if (key == "model") {
      static const contract::Json kText = "";
      like = &kText;
    } else if (key == "params_b") {
      static const contract::Json kNumber = 0.0;
      like = &kNumber;
    } else if (key.starts_with(kArchPrefix) && types.arch_types.contains(key.substr(kArchPrefix.size()))) {
      like = &types.arch_types[key.substr(kArchPrefix.size())];
    } else if (types.scenario_defaults.contains(key)) {
      like = &types.scenario_defaults[key];
    } else {
      like = NestedDefault(types.scenario_defaults, key);
    }
    if (like == nullptr) {
      state.ignored.push_back(MakeMessage("input.link.unknown_key", {TextArg("key", key)}));
      continue;
    }
    if (like->is_object()) {
      // A group (claim) is set field by field; its name alone has no value to take.
      std::string fields_of;
      for (const auto& [field, unused] : like->items()) fields_of += (fields_of.empty() ? "" : ", ") + key + "." + field;
      state.ignored.push_back(MakeMessage("input.link.group", {TextArg("key", key), TextArg("fields", fields_of)}));
      continue;
    }
    contract::Json parsed;
    if (!ParseValue(value, *like, &parsed, &why)) {
      state.ignored.push_back(Notice(key, std::move(why)));
      continue;
    }
    fields[key] = parsed;
  }
  DropArchitectureOfNamedModel(fields, state.ignored);
  DropRefusedFields(fields, catalog, state.ignored);
  state.scenario = AssembleScenario(fields);
  return state;
}

std::string EncodeUrlState(const contract::Json& doc, const std::map<std::string, std::string>& view) {
  const KeyTypes& types = Types();
  std::string out = "v=" + std::to_string(kUrlStateVersion);
  auto add = [&out](const std::string& key, const std::string& value) { out += "&" + key + "=" + value; };
  if (doc.contains("model")) {
    const contract::Json& model = doc["model"];
    if (model.is_string()) {
      add("model", PercentEncode(model.get<std::string>()));
    } else if (model.is_object() && model.contains("params_b")) {
      add("params_b", NumberText(model["params_b"]));
    } else if (model.is_object()) {
      for (const auto& [key, value] : model.items()) {
        if (!types.arch_types.contains(key)) continue;
        if (types.arch_defaults.contains(key) && types.arch_defaults[key] == value) continue;
        add(std::string(kArchPrefix) + key, ValueText(value));
      }
    }
  }
  auto same = [](const contract::Json& value, const contract::Json& default_value) {
    return value.is_number() && default_value.is_number() ? value.get<double>() == default_value.get<double>()
                                                          : value == default_value;
  };
  const contract::Json following = FollowingDefaults(doc);
  for (const auto& [key, value] : doc.items()) {
    if (key == "model" || !types.scenario_defaults.contains(key)) continue;
    const contract::Json& default_value = types.scenario_defaults[key];
    if (value.is_object() && default_value.is_object()) {
      // claim → claim.tokens_per_s=...: one parameter per field that differs.
      for (const auto& [field, field_value] : value.items()) {
        const std::string link_key = key + "." + field;
        const contract::Json* field_default = NestedDefault(types.scenario_defaults, link_key);
        if (field_default != nullptr && !same(field_value, *field_default)) add(link_key, ValueText(field_value));
      }
      continue;
    }
    // A default that follows other fields (gpus_per_node follows gpus, kernels the
    // framework) is the one the reader fills for this document's values.
    if (const engine::ScenarioField* f = engine::FindScenarioField(key); f != nullptr && f->fill_default != nullptr) {
      if (!same(value, following[key])) add(key, ValueText(value));
      continue;
    }
    if (!same(value, default_value)) add(key, ValueText(value));
  }
  for (const auto& [key, value] : view) add(key, PercentEncode(value));
  return out;
}

}  // namespace engine::link
