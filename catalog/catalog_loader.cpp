#include "catalog/catalog_loader.h"

#include <algorithm>
#include <set>

#include "catalog/catalog_entries.h"
#include "engine/contract/json_fields.h"
#include "engine/contract/scenario_json.h"

namespace catalog {
namespace {

using engine::InputError;
using engine::MakeInputError;
using engine::Result;
using engine::TextArg;

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
std::string EntryPath(const std::string& file, const std::string& array, size_t index, const engine::contract::Json& entry) {
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
std::optional<InputError> ReadArray(const engine::contract::Json& doc, const std::string& file, const std::string& key, Parse parse,
                                    std::vector<T>& out, bool overlay) {
  if (!doc[key].is_array()) return MakeInputError(file + ": " + key, "catalog.not_array");
  std::set<std::string> seen;
  const engine::contract::Json& arr = doc[key];
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = EntryPath(file, key, i, arr[i]);
    auto item = parse(arr[i], path);
    if (!item.ok()) return item.error();
    const std::string id = IdOf(item.value());
    const std::string id_field = key == "rates" ? "currency" : "id";
    if (!seen.insert(id).second) return MakeInputError(path + id_field, "catalog.duplicate_id", {TextArg("id", id)});
    auto existing = std::find_if(out.begin(), out.end(), [&](const T& x) { return IdOf(x) == id; });
    if (existing == out.end()) {
      out.push_back(std::move(item.value()));
    } else if (overlay) {
      *existing = std::move(item.value());
    } else {
      return MakeInputError(path + id_field, "catalog.duplicate_id.other_file", {TextArg("id", id)});
    }
  }
  return std::nullopt;
}

std::optional<InputError> ReadSection(const engine::contract::Json& d, const std::string& file, const std::string& key,
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
  return MakeInputError(file + ": " + key, "catalog.unknown_section");
}

std::optional<InputError> LoadOne(std::string_view text, const std::string& file, engine::Catalog& c, bool overlay) {
  // The scenario parser's rules (json_fields.h): text after a NUL byte or a key given twice
  // would otherwise be dropped silently, the last value winning.
  const auto parsed = engine::contract::ParseCatalogJson(text, kMaxFileBytes, file, kMaxNesting);
  if (!parsed.ok()) return parsed.error();
  const engine::contract::Json& d = parsed.value();
  if (!d.is_object()) return MakeInputError(file, "catalog.file_not_object");
  if (!overlay) {
    std::string compiled;
    if (auto err = engine::contract::RequireText(d, "compiled", file + ": ", &compiled)) return err;
    if (compiled > c.date) c.date = compiled;
  }
  for (const auto& [key, value] : d.items()) {
    if (auto err = ReadSection(d, file, key, c, overlay)) return err;
  }
  return std::nullopt;
}

InputError UnknownGpu(std::string field, const std::string& gpu) {
  return MakeInputError(std::move(field), "catalog.unknown_gpu", {TextArg("gpu", gpu)});
}

InputError UnknownFabric(std::string field, const std::string& fabric) {
  return MakeInputError(std::move(field), "catalog.unknown_fabric", {TextArg("fabric", fabric)});
}

// Every offer and server names a catalog GPU; offers and network gear name catalog fabrics.
std::optional<InputError> CheckCrossReferences(const engine::Catalog& c) {
  for (const engine::CloudOffer& o : c.offers) {
    if (c.FindGpu(o.gpu_id) == nullptr) return UnknownGpu("offers (" + o.id + "): gpu", o.gpu_id);
    if (!o.fabric.empty() && c.FindFabric(o.fabric) == nullptr) {
      return UnknownFabric("offers (" + o.id + "): fabric", o.fabric);
    }
  }
  for (const engine::ServerOption& s : c.servers) {
    if (c.FindGpu(s.gpu_id) == nullptr) return UnknownGpu("servers (" + s.id + "): gpu", s.gpu_id);
  }
  for (const engine::Example& x : c.examples) {
    auto s = engine::contract::ScenarioFromJson(engine::contract::Json::parse(x.scenario_json), c);
    if (!s.ok()) {
      InputError moved = s.error();  // the scenario's own error, under the example's path
      moved.field = "examples (" + x.id + "): scenario." + moved.field;
      return moved;
    }
  }
  for (const engine::NetworkGear& g : c.network_gear) {
    if (c.FindFabric(g.fabric) == nullptr) {
      return UnknownFabric("network_gear (" + g.id + "): fabric", g.fabric);
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
  if (c.gpus.empty()) return MakeInputError("catalog", "catalog.no_gpus");
  if (auto err = CheckCrossReferences(c)) return *err;
  return c;
}

Result<engine::Catalog> ApplyOverlay(const engine::Catalog& base, std::string_view overlay_json,
                                     const std::string& name) {
  if (overlay_json.size() > (8u << 20)) return MakeInputError(name, "catalog.overlay_too_large");
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
  engine::contract::Json all = engine::contract::Json::object();
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    std::string key(f.name.substr(0, f.name.rfind('.')));
    all[key] = engine::contract::Json::parse(f.text.begin(), f.text.end(), nullptr, false);
  }
  return engine::contract::DumpJson(all, 2);
}

}  // namespace catalog
