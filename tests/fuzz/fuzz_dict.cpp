// Writes the libFuzzer dictionary every target uses, at build time, from the contract
// itself (fuzz_contract.h): the scenario, claim, budget and architecture keys in their
// JSON ("key") and link (key=, claim.key=, m.key=) forms, every enum value, every catalog
// id and catalog field name, numeric edge values and each field's limits ± 1 ulp, and the
// keys and model types of the Hugging Face configs among the seed files given.
//   fuzz_dict OUTPUT [SEED_FILE_OR_DIR...]
// Nothing is hand-listed here but JSON and link punctuation and the link's view keys, so
// a field added to the contract reaches the dictionary on the next build.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fuzz_contract.h"

namespace {

// libFuzzer reads dictionary entries of up to 64 bytes.
constexpr size_t kMaxEntry = 64;

std::string Escape(const std::string& word) {
  std::string out = "\"";
  for (unsigned char ch : word) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20 || ch >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", ch);
      out += hex;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

// Keys and model_type values of every JSON object in a seed that looks like a Hugging
// Face config.json (has model_type, or sits under "hf_config").
void CollectHfKeys(const engine::contract::Json& j, bool in_config, std::set<std::string>& keys, std::set<std::string>& types) {
  if (j.is_object()) {
    const bool config = in_config || j.contains("model_type") || j.contains("num_hidden_layers");
    for (const auto& [k, v] : j.items()) {
      if (config) keys.insert(k);
      if (config && k == "model_type" && v.is_string()) types.insert(v.get<std::string>());
      CollectHfKeys(v, k == "hf_config", keys, types);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) CollectHfKeys(v, false, keys, types);
  }
}

void ReadSeeds(const std::filesystem::path& path, std::set<std::string>& keys, std::set<std::string>& types) {
  if (std::filesystem::is_directory(path)) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(path)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) ReadSeeds(f, keys, types);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const engine::contract::Json doc = engine::contract::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) CollectHfKeys(doc, false, keys, types);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_dict OUTPUT [SEED_FILE_OR_DIR...]\n");
    return 2;
  }
  const fuzz::Contract& c = fuzz::TheContract();
  std::vector<std::pair<std::string, std::set<std::string>>> sections;
  auto section = [&](const std::string& title) -> std::set<std::string>& {
    sections.push_back({title, {}});
    return sections.back().second;
  };
  auto quoted = [](const std::string& s) { return "\"" + s + "\""; };

  auto& syntax = section("JSON and link syntax");
  for (const char* s : {"{", "}", "[", "]", ":", ",", "\"", "true", "false", "null", "\\u0000", "\\\"", "\\ud800",
                        "&", "=", "#", "%", "%2C", "%00", "%zz", "m.", "claim.", "budget."}) {
    syntax.insert(s);
  }
  syntax.insert("v=" + std::to_string(engine::link::kUrlStateVersion) + "&");
  syntax.insert("v=" + std::to_string(engine::link::kUrlStateVersion + 1) + "&");
  // The link's page-only keys (url_state.cpp IsViewKey).
  for (const char* s : {"lang=en", "lang=zh", "theme=light", "theme=dark"}) syntax.insert(s);

  auto& scenario = section("scenario and planner fields (ScenarioFieldNames), JSON and link forms");
  for (const std::string& k : c.scenario_keys) {
    scenario.insert(quoted(k));
    scenario.insert(quoted(k) + ":");
    scenario.insert(k + "=");
  }
  auto& nested = section("nested fields (ClaimFieldNames, budget), JSON and link forms");
  for (const std::string& path : c.nested_keys) {
    nested.insert(quoted(path.substr(path.find('.') + 1)));
    nested.insert(path + "=");
  }
  auto& arch = section("architecture fields (ArchitectureToJson with every block), JSON and m.* forms");
  for (const std::string& k : c.arch_keys) {
    arch.insert(quoted(k));
    arch.insert("m." + k + "=");
  }
  arch.insert("params_b=");
  auto& enums = section("enum values (engine k*Names and the parsers' own lists)");
  for (const std::string& v : c.enum_values) {
    enums.insert(quoted(v));
    enums.insert(v);
  }
  auto& ids = section("catalog ids (embedded catalog): GPUs, presets, fabrics, offers, providers, currencies, ...");
  for (const std::string& id : c.catalog_ids) {
    ids.insert(quoted(id));
    ids.insert(id);
  }
  auto& catalog_keys = section("catalog file fields (overlays)");
  for (const std::string& k : c.catalog_keys) catalog_keys.insert(quoted(k));
  auto& catalog_words = section("one-word catalog values (software stacks, fabric kinds, billing, dates, ...)");
  for (const std::string& w : c.catalog_words) catalog_words.insert(quoted(w));

  std::set<std::string> hf_keys, hf_types;
  for (int i = 2; i < argc; ++i) ReadSeeds(argv[i], hf_keys, hf_types);
  auto& hf = section("Hugging Face config.json keys and model types (from the seeds)");
  for (const std::string& k : hf_keys) hf.insert(quoted(k));
  for (const std::string& t : hf_types) hf.insert(quoted(t));

  auto& numbers = section("numeric edges, and every field's limits +- 1 ulp");
  for (const std::string& n : fuzz::FixedEdges()) numbers.insert(n);
  for (const auto& [path, limits] : c.limits) {
    for (const std::string& n : fuzz::LimitEdges(limits)) numbers.insert(n);
  }

  // Written whole to a temporary file, then renamed: a build never reads half a dictionary.
  const std::string out_path = argv[1], tmp_path = out_path + ".tmp";
  FILE* out = std::fopen(tmp_path.c_str(), "w");
  if (out == nullptr) {
    std::perror(tmp_path.c_str());
    return 1;
  }
  std::fprintf(out, "# libFuzzer dictionary for the TrainSizer fuzz targets. GENERATED at build time by\n"
                    "# tests/fuzz/fuzz_dict.cpp from the contract (tests/fuzz/fuzz_contract.h); do not edit.\n");
  std::set<std::string> written;
  size_t count = 0;
  for (const auto& [title, words] : sections) {
    std::fprintf(out, "\n# %s\n", title.c_str());
    for (const std::string& w : words) {
      if (w.empty() || w.size() > kMaxEntry || !written.insert(w).second) continue;
      std::fprintf(out, "%s\n", Escape(w).c_str());
      ++count;
    }
  }
  if (std::fclose(out) != 0) return 1;
  std::filesystem::rename(tmp_path, out_path);
  std::printf("fuzz_dict: %zu entries (%zu scenario keys, %zu nested, %zu architecture, %zu enum values, "
              "%zu catalog ids, %zu catalog fields, %zu HF keys, %zu fields with limits) -> %s\n",
              count, c.scenario_keys.size(), c.nested_keys.size(), c.arch_keys.size(), c.enum_values.size(),
              c.catalog_ids.size(), c.catalog_keys.size(), hf_keys.size(), c.limits.size(), out_path.c_str());
  return 0;
}
