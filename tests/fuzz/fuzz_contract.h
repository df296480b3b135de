// The contract's vocabulary, read from the code at run time rather than written down:
// the scenario, claim, budget and architecture field names, every enum value, every
// catalog id and field, and each numeric field's limits. fuzz_dict.cpp turns it into the
// libFuzzer dictionary at build time; fuzz_mutator.h uses the limits for its edge values.
// A field added to the contract shows up in both without editing anything here.
//
// Enum values and limits are found by asking the parsers: a string field given "\x01"
// answers "must be one of a, b, c, got ...", a number given 1e300 answers "must be
// between lo and hi, got ...". The enum arrays of engine/scenario.h and engine/planner.h
// are listed as well, so that a field whose message changes still gets its values.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog_loader.h"
#include "engine/contract/model_json.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/link/url_state.h"
#include "engine/planner.h"
#include "engine/scenario.h"

namespace fuzz {

struct Limits {
  double lo = 0, hi = 0;
  bool integer = false;
};

struct Contract {
  // Top-level scenario + planner fields; nested "group.field" names (claim.*, budget.*);
  // architecture fields (link form m.<key>).
  std::set<std::string> scenario_keys, nested_keys, arch_keys;
  std::set<std::string> enum_values;  // method, precision, ..., mlp, norm, attention, region
  std::set<std::string> catalog_ids;  // gpus, presets, fabrics, offers, providers, currencies, ...
  std::set<std::string> catalog_keys;  // every key of every catalog file (overlays use them)
  std::set<std::string> catalog_words;  // one-word string values there: "cuda", "pcie", "per-second"
  // Numeric limits by field path ("tp", "claim.wall_hours", "model.layers") and by bare
  // key ("wall_hours", "layers"), for a mutator that only sees the key before a number.
  std::map<std::string, Limits> limits;
};

namespace detail {

// "must be one of a, b, c, got 'x'" / "must be us, eu, asia or cn, got 'x'" -> {a, b, c}.
inline std::vector<std::string> ChoicesIn(const std::string& message) {
  std::vector<std::string> out;
  size_t start = message.find("must be ");
  const size_t end = message.find(", got");
  if (start == std::string::npos || end == std::string::npos || end < start) return out;
  start += 8;
  if (message.compare(start, 7, "one of ") == 0) start += 7;
  std::string list = message.substr(start, end - start);
  for (size_t p; (p = list.find(" or ")) != std::string::npos;) list.replace(p, 4, ", ");
  size_t from = 0;
  while (from <= list.size()) {
    const size_t comma = std::min(list.find(", ", from), list.size());
    const std::string word = list.substr(from, comma - from);
    // Only single words: "a number" or "an integer" are types, not values.
    if (word.empty() || word.find(' ') != std::string::npos || word.find('\'') != std::string::npos) return {};
    out.push_back(word);
    from = comma + 2;
  }
  return out;
}

// "must be between 1 and 1024, got 1e300" -> {1, 1024}.
inline bool LimitsIn(const std::string& message, Limits* out) {
  const size_t start = message.find("between ");
  if (start == std::string::npos) return false;
  const char* text = message.c_str() + start + 8;
  char* end = nullptr;
  out->lo = std::strtod(text, &end);
  if (end == text || std::string_view(end).substr(0, 5) != " and ") return false;
  text = end + 5;
  out->hi = std::strtod(text, &end);
  return end != text && std::isfinite(out->lo) && std::isfinite(out->hi);
}

inline void AddLimits(Contract& c, const std::string& path, const Limits& l) {
  c.limits[path] = l;
  const size_t dot = path.rfind('.');
  if (dot != std::string::npos) c.limits.emplace(path.substr(dot + 1), l);
}

// Asks `parse` about field `key` of `doc` set to a huge number and to a non-value string.
template <class Parse>
void Probe(Contract& c, engine::contract::Json& doc, engine::contract::Json* slot, const std::string& path, bool integer, Parse parse) {
  if (slot->is_number()) {
    *slot = 1e300;
    if (auto error = parse(doc)) {
      Limits l;
      l.integer = integer;
      if (error->field == path && LimitsIn(error->message, &l)) AddLimits(c, path, l);
    }
  } else if (slot->is_string()) {
    *slot = "\x01";
    if (auto error = parse(doc)) {
      if (error->field == path) {
        for (const std::string& v : ChoicesIn(error->message)) c.enum_values.insert(v);
      }
    }
  }
}

template <size_t N>
void AddNames(Contract& c, const std::array<std::string_view, N>& names) {
  for (auto n : names) c.enum_values.insert(std::string(n));
}

// Every key, and every string value that is one short word (the catalog's enums: a
// GPU's software stack, a fabric's kind, an offer's billing), of a catalog file.
inline void CollectKeys(const engine::contract::Json& j, std::set<std::string>& keys, std::set<std::string>& words) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      keys.insert(k);
      CollectKeys(v, keys, words);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) CollectKeys(v, keys, words);
  } else if (j.is_string()) {
    const std::string& w = j.get_ref<const std::string&>();
    if (!w.empty() && w.size() <= 24 && w.find_first_of(" /:") == std::string::npos) words.insert(w);
  }
}

}  // namespace detail

inline Contract ReadContract() {
  using engine::contract::Json;
  Contract c;
  const auto& embedded = catalog::Embedded();
  if (!embedded.ok()) std::abort();
  const engine::Catalog& cat = embedded.value();

  // --- scenario and planner fields, with the defaults the link codec uses for types.
  Json defaults = engine::contract::ScenarioToJson(engine::Scenario{});
  defaults.update(engine::contract::ConstraintsToJson(engine::PlanConstraints{}));
  defaults.erase("model");
  for (const std::string& k : engine::contract::ScenarioFieldNames()) c.scenario_keys.insert(k);
  for (const std::string& k : engine::contract::ClaimFieldNames()) c.nested_keys.insert("claim." + k);
  // {"budget": {"amount", "currency"}} (plan_json.cpp; no exported list yet).
  c.nested_keys.insert("budget.amount");
  c.nested_keys.insert("budget.currency");
  for (const auto& [k, v] : defaults.items()) {
    if (!v.is_object()) continue;
    for (const auto& [field, value] : v.items()) c.nested_keys.insert(k + "." + field);
  }

  const std::string model = cat.models.empty() ? "llama-3-8b" : cat.models.front().spec.id;
  const auto scenario_error = [&](const Json& doc) -> std::optional<engine::InputError> {
    auto s = engine::contract::ScenarioFromJson(doc, cat);
    if (!s.ok()) return s.error();
    auto k = engine::contract::ConstraintsFromJson(doc);
    if (!k.ok()) return k.error();
    return std::nullopt;
  };
  // Integer fields are those whose default is written as a JSON integer.
  for (const std::string& key : c.scenario_keys) {
    if (!defaults.contains(key)) continue;
    Json doc = {{"model", model}, {key, defaults[key]}};
    detail::Probe(c, doc, &doc[key], key, defaults[key].is_number_integer(), scenario_error);
  }
  for (const std::string& path : c.nested_keys) {
    const size_t dot = path.find('.');
    const std::string group = path.substr(0, dot), field = path.substr(dot + 1);
    Json value = 1.0;
    if (defaults.contains(group) && defaults[group].is_object() && defaults[group].contains(field)) {
      value = defaults[group][field];
    } else if (field == "currency") {
      value = "USD";
    }
    Json doc = {{"model", model}, {group, {{field, value}}}};
    detail::Probe(c, doc, &doc[group][field], path, value.is_number_integer(), scenario_error);
  }
  {
    Json doc = {{"model", {{"params_b", 7}}}};
    detail::Probe(c, doc, &doc["model"]["params_b"], "model.params_b", false, scenario_error);
  }

  // --- architecture fields: one spec with every optional block (as url_state.cpp does).
  engine::ModelSpec every = cat.models.empty() ? engine::ModelSpec{} : cat.models.front().spec;
  every.moe.experts = 8;
  every.moe.experts_per_token = 2;
  every.moe.moe_ffn = every.ffn;
  every.attention = engine::AttentionKind::kMla;
  every.mla = {512, 512, 128, 64, 128};
  const Json arch = engine::contract::ArchitectureToJson(every);
  for (const auto& [k, v] : arch.items()) c.arch_keys.insert(k);
  c.arch_keys.insert("params_b");
  c.arch_keys.insert("hf_config");
  const auto arch_error = [](const Json& doc) -> std::optional<engine::InputError> {
    auto a = engine::contract::ParseArchitecture(doc, "model.");
    if (!a.ok()) return a.error();
    return std::nullopt;
  };
  for (const auto& [k, v] : arch.items()) {
    Json doc = arch;
    detail::Probe(c, doc, &doc[k], "model." + k, v.is_number_integer(), arch_error);
  }
  // The architecture's enum values also as written for each variant.
  for (auto mlp : {engine::MlpKind::kGated, engine::MlpKind::kPlain}) {
    for (auto norm : {engine::NormKind::kRmsNorm, engine::NormKind::kLayerNorm}) {
      for (auto attention : {engine::AttentionKind::kStandard, engine::AttentionKind::kMla}) {
        engine::ModelSpec m = every;
        m.mlp = mlp;
        m.norm = norm;
        m.attention = attention;
        const Json written = engine::contract::ArchitectureToJson(m);
        for (const auto& [k, v] : written.items()) {
          if (v.is_string() && k != "name") c.enum_values.insert(v.get<std::string>());
        }
      }
    }
  }

  // --- enum arrays (engine/scenario.h, engine/planner.h).
  detail::AddNames(c, engine::kMethodNames);
  detail::AddNames(c, engine::kPrecisionNames);
  detail::AddNames(c, engine::kFrameworkNames);
  detail::AddNames(c, engine::kOptimizerNames);
  detail::AddNames(c, engine::kRecomputeNames);
  detail::AddNames(c, engine::kOffloadNames);
  detail::AddNames(c, engine::kLoraTargetNames);
  detail::AddNames(c, engine::kSavedModuleNames);
  detail::AddNames(c, engine::kShardingNames);
  detail::AddNames(c, engine::kAttentionBackendNames);
  detail::AddNames(c, engine::kKernelNames);
  detail::AddNames(c, engine::kCrossEntropyNames);
  detail::AddNames(c, engine::kObjectiveNames);
  detail::AddNames(c, engine::kPurchaseNames);

  // --- catalog ids and every key of every catalog file.
  for (const auto& g : cat.gpus) c.catalog_ids.insert(g.id);
  for (const auto& m : cat.models) c.catalog_ids.insert(m.spec.id);
  for (const auto& f : cat.fabrics) c.catalog_ids.insert(f.id);
  for (const auto& o : cat.offers) {
    c.catalog_ids.insert(o.id);
    c.catalog_ids.insert(o.provider);
    c.catalog_ids.insert(o.region);
    c.catalog_ids.insert(std::string(engine::EnumName(engine::kMarketNames, o.market)));
  }
  for (const auto& r : cat.currencies) c.catalog_ids.insert(r.code);
  for (const auto& s : cat.servers) c.catalog_ids.insert(s.id);
  for (const auto& n : cat.network_gear) c.catalog_ids.insert(n.id);
  for (const auto& s : cat.storage) c.catalog_ids.insert(s.id);
  for (const auto& f : cat.facility) c.catalog_ids.insert(f.id);
  for (const auto& e : cat.examples) c.catalog_ids.insert(e.id);
  c.catalog_ids.erase("");
  for (const catalog::EmbeddedFile& f : catalog::EmbeddedFiles()) {
    const Json doc = Json::parse(f.text.begin(), f.text.end(), nullptr, /*allow_exceptions=*/false);
    detail::CollectKeys(doc, c.catalog_keys, c.catalog_words);
  }
  return c;
}

// Numbers at the edges of what doubles, int32, int64 and JavaScript hold, and of what the
// parsers accept: subnormals, signed zero, overflow to infinity, the spellings of NaN
// and infinity that JSON refuses (and links might not), and powers of two plus one.
inline const std::vector<std::string>& FixedEdges() {
  static const std::vector<std::string> edges = {
      "5e-324", "4.9406564584124654e-324", "2.2250738585072009e-308", "2.2250738585072014e-308", "1e-300",
      "1e-7", "0.1", "-0.0", "-0", "0", "-1", "1", "1e308", "1.7976931348623157e308", "1.7976931348623159e308",
      "1e309", "-1e309", "1e999", "-1e999", "9.3e18", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
      "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "1000000000000001",
      "1e15", "9007199254740993", "65535", "65536", "65537", "1048576", "1048577", "16777217", "NaN", "nan",
      "-nan", "Infinity", "-Infinity", "inf", "-inf"};
  return edges;
}

// A double in the fewest digits that read back as it ("%.17g" at worst).
inline std::string Spell(double v) {
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

// A field's limits and their neighbours: lo and hi, one ulp either side of each, and for
// integer fields lo - 1 and hi + 1.
inline std::vector<std::string> LimitEdges(const Limits& l) {
  std::vector<std::string> out;
  for (double v : {l.lo, l.hi}) {
    out.push_back(Spell(v));
    out.push_back(Spell(std::nextafter(v, -HUGE_VAL)));
    out.push_back(Spell(std::nextafter(v, HUGE_VAL)));
    if (l.integer) {
      out.push_back(Spell(v - 1));
      out.push_back(Spell(v + 1));
    }
  }
  return out;
}

// Parsed once per process (the mutator asks on every call).
inline const Contract& TheContract() {
  static const Contract contract = ReadContract();
  return contract;
}

}  // namespace fuzz
