#include "catalog_loader.h"

#include <algorithm>
#include <set>

#include "catalog_entries.h"
#include "scenario_json.h"
#include "json_fields.h"

namespace catalog {
namespace {

using engine::InputError;
using engine::Result;

// Deepest nesting a catalog file or overlay may have (the real files reach 5 levels).
// nlohmann's parser and destructor are iterative but dump() recurses, and an overlay's
// example scenarios and metadata notes get dumped: [[[[...]]]] 10,000 levels deep in
// either overflowed the stack (tests/fuzz/README.md, finding 1).
constexpr int kMaxNesting = 64;

// Largest catalog file or overlay: the biggest embedded file (cloud_offers.json) is under
// 0.2 MiB, and ApplyOverlay refuses overlays above 8 MiB before parsing.
constexpr size_t kMaxFileBytes = 8u << 20;

// Top-level keys a catalog file may carry besides its entry arrays.
const std::set<std::string> kMetadataKeys = {"schema", "compiled", "conventions", "source_note", "description",
                                             "base", "note", "notes"};

const std::string& IdOf(const engine::GpuSpec& x) { return x.id; }
const std::string& IdOf(const engine::FabricSpec& x) { return x.id; }
const std::string& IdOf(const engine::CloudOffer& x) { return x.id; }
const std::string& IdOf(const engine::ModelPreset& x) { return x.spec.id; }
const std::string& IdOf(const engine::ServerOption& x) { return x.id; }
const std::string& IdOf(const engine::NetworkGear& x) { return x.id; }
const std::string& IdOf(const engine::StorageTier& x) { return x.id; }
const std::string& IdOf(const engine::FacilityFigure& x) { return x.id; }
const std::string& IdOf(const engine::CurrencyRate& x) { return x.code; }
const std::string& IdOf(const engine::Example& x) { return x.id; }

// Entry prefix for errors: "gpus.json: gpus[3] (h100-sxm-80gb): ".
std::string EntryPath(const std::string& file, const std::string& array, size_t index, const Json& entry) {
  // Entries are named by their id; exchange rates, which have none, by their currency.
  std::string id;
  for (const char* key : {"currency", "id"}) {
    if (entry.is_object() && entry.contains(key) && entry[key].is_string()) id = " (" + entry[key].get<std::string>() + ")";
  }
  return file + ": " + array + "[" + std::to_string(index) + "]" + id + ": ";
}

// Reads one entry array. Ids must be unique within the file; an id already in `out`
// (from an earlier file) is an error, unless this is an overlay, which replaces it.
template <class T, class Parse>
std::optional<InputError> ReadArray(const Json& doc, const std::string& file, const std::string& key, Parse parse,
                                    std::vector<T>& out, bool overlay) {
  if (!doc[key].is_array()) return InputError{file + ": " + key, "must be an array"};
  std::set<std::string> seen;
  const Json& arr = doc[key];
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = EntryPath(file, key, i, arr[i]);
    auto item = parse(arr[i], path);
    if (!item.ok()) return item.error();
    const std::string id = IdOf(item.value());
    const std::string id_field = key == "rates" ? "currency" : "id";
    if (!seen.insert(id).second) return InputError{path + id_field, "duplicates an earlier entry's id '" + id + "'"};
    auto existing = std::find_if(out.begin(), out.end(), [&](const T& x) { return IdOf(x) == id; });
    if (existing == out.end()) {
      out.push_back(std::move(item.value()));
    } else if (overlay) {
      *existing = std::move(item.value());
    } else {
      return InputError{path + id_field, "duplicates id '" + id + "' from another catalog file"};
    }
  }
  return std::nullopt;
}

std::optional<InputError> ReadSection(const Json& d, const std::string& file, const std::string& key,
                                      engine::Catalog& c, bool overlay) {
  if (key == "gpus") return ReadArray(d, file, key, ParseGpu, c.gpus, overlay);
  if (key == "models") return ReadArray(d, file, key, ParseModel, c.models, overlay);
  if (key == "fabrics") return ReadArray(d, file, key, ParseFabric, c.fabrics, overlay);
  if (key == "offers") return ReadArray(d, file, key, ParseOffer, c.offers, overlay);
  if (key == "rates") return ReadArray(d, file, key, ParseCurrency, c.currencies, overlay);
  if (key == "servers") return ReadArray(d, file, key, ParseServer, c.servers, overlay);
  if (key == "network_gear") return ReadArray(d, file, key, ParseNetworkGear, c.network_gear, overlay);
  if (key == "storage") return ReadArray(d, file, key, ParseStorage, c.storage, overlay);
  if (key == "facility") return ReadArray(d, file, key, ParseFacility, c.facility, overlay);
  if (key == "examples") return ReadArray(d, file, key, ParseExample, c.examples, overlay);
  if (kMetadataKeys.count(key)) return std::nullopt;
  return InputError{file + ": " + key, "is not a catalog section (gpus, models, fabrics, offers, rates, servers, "
                                       "network_gear, storage, facility, examples)"};
}

std::optional<InputError> LoadOne(std::string_view text, const std::string& file, engine::Catalog& c, bool overlay) {
  // The scenario parser's rules (json_fields.h): text after a NUL byte or a key given twice
  // would otherwise be dropped silently, the last value winning.
  const auto parsed = ParseCatalogJson(text, kMaxFileBytes, file, kMaxNesting);
  if (!parsed.ok()) return parsed.error();
  const Json& d = parsed.value();
  if (!d.is_object()) return InputError{file, "must hold a JSON object"};
  if (!overlay) {
    std::string compiled;
    if (auto err = RequireText(d, "compiled", file + ": ", &compiled)) return err;
    if (compiled > c.date) c.date = compiled;
  }
  for (const auto& [key, value] : d.items()) {
    if (auto err = ReadSection(d, file, key, c, overlay)) return err;
  }
  return std::nullopt;
}

// Every offer and server names a catalog GPU; offers and network gear name catalog fabrics.
std::optional<InputError> CheckCrossReferences(const engine::Catalog& c) {
  for (const engine::CloudOffer& o : c.offers) {
    if (c.FindGpu(o.gpu_id) == nullptr) return InputError{"offers (" + o.id + "): gpu", "names no catalog GPU: '" + o.gpu_id + "'"};
    if (!o.fabric.empty() && c.FindFabric(o.fabric) == nullptr) {
      return InputError{"offers (" + o.id + "): fabric", "names no catalog fabric: '" + o.fabric + "'"};
    }
  }
  for (const engine::ServerOption& s : c.servers) {
    if (c.FindGpu(s.gpu_id) == nullptr) return InputError{"servers (" + s.id + "): gpu", "names no catalog GPU: '" + s.gpu_id + "'"};
  }
  for (const engine::Example& x : c.examples) {
    auto s = ScenarioFromJson(Json::parse(x.scenario_json), c);
    if (!s.ok()) return InputError{"examples (" + x.id + "): scenario." + s.error().field, s.error().message};
  }
  for (const engine::NetworkGear& g : c.network_gear) {
    if (c.FindFabric(g.fabric) == nullptr) {
      return InputError{"network_gear (" + g.id + "): fabric", "names no catalog fabric: '" + g.fabric + "'"};
    }
  }
  return std::nullopt;
}

}  // namespace

Result<engine::Catalog> LoadFiles(std::span<const EmbeddedFile> files) {
  engine::Catalog c;
  for (const EmbeddedFile& f : files) {
    if (auto err = LoadOne(f.text, std::string(f.name), c, /*overlay=*/false)) return *err;
  }
  if (c.gpus.empty()) return InputError{"catalog", "holds no GPUs"};
  if (auto err = CheckCrossReferences(c)) return *err;
  return c;
}

Result<engine::Catalog> ApplyOverlay(const engine::Catalog& base, std::string_view overlay_json,
                                     const std::string& name) {
  if (overlay_json.size() > (8u << 20)) return InputError{name, "is larger than the 8 MiB overlay limit"};
  engine::Catalog merged = base;
  if (auto err = LoadOne(overlay_json, name, merged, /*overlay=*/true)) return *err;
  if (auto err = CheckCrossReferences(merged)) return *err;
  return merged;
}

const Result<engine::Catalog>& Embedded() {
  static const Result<engine::Catalog> kCatalog = LoadFiles(EmbeddedFiles());
  return kCatalog;
}

std::string EmbeddedCatalogJson() {
  Json all = Json::object();
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    std::string key(f.name.substr(0, f.name.rfind('.')));
    all[key] = Json::parse(f.text.begin(), f.text.end(), nullptr, false);
  }
  return DumpJson(all, 2);
}

}  // namespace catalog
