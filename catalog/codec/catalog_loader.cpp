#include "catalog_loader.h"

#include <set>

#include "engine/units.h"
#include "json_fields.h"
#include "model_json.h"

namespace catalog {
namespace {

using engine::InputError;
using engine::Result;

// Parses JSON without throwing; a syntax error names the byte offset.
Result<Json> ParseText(std::string_view text, const std::string& field) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return InputError{field, "is not valid JSON"};
  return doc;
}

// Lowercase letters, digits, '.' and '-', starting with a letter or digit.
bool IsSlug(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] == '-' || id[0] == '.') return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<InputError> RequireText(const Json& e, const char* key, const std::string& path, std::string* out) {
  if (auto err = Require(e, key, path)) return err;
  if (auto err = ReadString(e, key, path, out)) return err;
  if (out->empty()) return InputError{path + key, "must not be empty"};
  return std::nullopt;
}

// Entry prefix for errors: "gpus.json: gpus[3] (h100-sxm-80gb): ".
std::string EntryPath(const std::string& file, const char* array, size_t index, const Json& entry) {
  std::string id = entry.is_object() && entry.contains("id") && entry["id"].is_string()
                       ? " (" + entry["id"].get<std::string>() + ")"
                       : "";
  return file + ": " + array + "[" + std::to_string(index) + "]" + id + ": ";
}

std::optional<InputError> RequireNumber(const Json& e, const char* key, const std::string& path, double lo, double hi,
                                        double* out) {
  if (auto err = Require(e, key, path)) return err;
  return ReadNumber(e, key, path, lo, hi, out);
}

// Optional figure: null (unknown) is allowed and reads as 0.
std::optional<InputError> OptionalNumber(const Json& e, const char* key, const std::string& path, double lo,
                                         double hi, double* out) {
  if (!e.contains(key) || e[key].is_null()) return std::nullopt;
  return ReadNumber(e, key, path, lo, hi, out);
}

std::optional<InputError> ReadSoftware(const Json& e, const std::string& path, engine::SoftwareStack* out) {
  std::string s;
  if (auto err = RequireText(e, "software", path, &s)) return err;
  const std::pair<const char*, engine::SoftwareStack> names[] = {
      {"cuda", engine::SoftwareStack::kCuda}, {"rocm", engine::SoftwareStack::kRocm},
      {"cann", engine::SoftwareStack::kCann}, {"xla", engine::SoftwareStack::kXla},
      {"other", engine::SoftwareStack::kOther}};
  for (const auto& [name, value] : names) {
    if (s == name) {
      *out = value;
      return std::nullopt;
    }
  }
  return InputError{path + "software", "must be one of cuda, rocm, cann, xla, other, got '" + s + "'"};
}

Result<engine::GpuSpec> ParseGpu(const Json& e, const std::string& path) {
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  engine::GpuSpec g;
  std::string text;
  if (auto err = RequireText(e, "id", path, &g.id)) return *err;
  if (!IsSlug(g.id)) return InputError{path + "id", "must be a lowercase slug like h100-sxm-80gb"};
  if (auto err = RequireText(e, "name", path, &g.name)) return *err;
  if (auto err = RequireText(e, "vendor", path, &g.vendor)) return *err;
  if (auto err = RequireText(e, "source", path, &text)) return *err;
  if (auto err = RequireText(e, "source_date", path, &text)) return *err;
  double gb = 0, gib = 0, bw = 0, bf16 = 0, fp16 = 0, fp8 = 0, tf32 = 0, link = 0;
  if (auto err = RequireNumber(e, "memory_gb", path, 1, 4096, &gb)) return *err;
  if (auto err = RequireNumber(e, "memory_gib", path, 1, 4096, &gib)) return *err;
  if (auto err = RequireNumber(e, "memory_bandwidth_tb_per_s", path, 0.01, 100, &bw)) return *err;
  if (auto err = RequireNumber(e, "bf16_dense_tflops", path, 0.1, 100000, &bf16)) return *err;
  if (auto err = RequireNumber(e, "fp16_dense_tflops", path, 0.1, 100000, &fp16)) return *err;
  if (auto err = OptionalNumber(e, "fp8_dense_tflops", path, 0.1, 100000, &fp8)) return *err;
  if (auto err = OptionalNumber(e, "tf32_dense_tflops", path, 0.1, 100000, &tf32)) return *err;
  if (auto err = RequireNumber(e, "scale_up_gb_per_s", path, 0.1, 100000, &link)) return *err;
  if (auto err = Require(e, "tdp_w", path)) return *err;  // null = not published (TPUs, Ascend 910C)
  if (auto err = OptionalNumber(e, "tdp_w", path, 1, 10000, &g.tdp_w)) return *err;
  if (auto err = RequireText(e, "scale_up_link", path, &g.scale_up_link)) return *err;
  if (auto err = Require(e, "scale_up_domain_gpus", path)) return *err;
  if (auto err = ReadInt(e, "scale_up_domain_gpus", path, 1, 100000, &g.scale_up_domain)) return *err;
  // PCIe x16 per direction by generation: Gen3 16, Gen4 32, Gen5 64 GB/s (PCI-SIG).
  if (auto err = ReadString(e, "host_interface", path, &text)) return *err;
  g.pcie_bytes_per_s = text.find("Gen5") != std::string::npos   ? 64e9
                       : text.find("Gen3") != std::string::npos ? 16e9
                                                                : 32e9;
  if (auto err = ReadSoftware(e, path, &g.stack)) return *err;
  if (auto err = RequireText(e, "architecture", path, &g.architecture)) return *err;
  g.memory_bytes = gib * engine::kGiB;
  g.memory_bandwidth_bytes_per_s = bw * 1e12;
  g.bf16_flops = bf16 * engine::kTera;
  g.fp16_flops = fp16 * engine::kTera;
  g.fp8_flops = fp8 * engine::kTera;
  g.tf32_flops = tf32 * engine::kTera;
  g.scale_up_bytes_per_s = link * engine::kGB;
  return g;
}

Result<engine::FabricSpec> ParseFabric(const Json& e, const std::string& path) {
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  engine::FabricSpec f;
  std::string text, scope;
  if (auto err = RequireText(e, "id", path, &f.id)) return *err;
  if (!IsSlug(f.id)) return InputError{path + "id", "must be a lowercase slug like ib-ndr"};
  if (auto err = RequireText(e, "name", path, &f.name)) return *err;
  if (auto err = RequireText(e, "source", path, &text)) return *err;
  if (auto err = RequireText(e, "source_date", path, &text)) return *err;
  if (auto err = RequireText(e, "scope", path, &scope)) return *err;
  if (scope != "scale-up" && scope != "scale-out") {
    return InputError{path + "scope", "must be scale-up or scale-out, got '" + scope + "'"};
  }
  f.scale_out = scope == "scale-out";
  double port_gbps = 0, latency_us = 0, node_gbps = 0;
  if (auto err = RequireNumber(e, "per_port_gbps", path, 1, 1e6, &port_gbps)) return *err;
  if (auto err = RequireNumber(e, "latency_us", path, 0.01, 10000, &latency_us)) return *err;
  if (auto err = RequireNumber(e, "allreduce_busbw_fraction", path, 0.01, 1, &f.busbw_fraction)) return *err;
  if (auto err = OptionalNumber(e, "default_node_gbps", path, 1, 1e6, &node_gbps)) return *err;
  if (f.scale_out && node_gbps <= 0) return InputError{path + "default_node_gbps", "is required for a scale-out fabric"};
  f.port_bytes_per_s = port_gbps * 1e9 / 8;
  f.latency_s = latency_us * 1e-6;
  f.default_node_bytes_per_s = node_gbps * 1e9 / 8;
  return f;
}

std::optional<InputError> ReadChoiceText(const Json& e, const char* key, const std::string& path,
                                         std::initializer_list<const char*> allowed, bool required, std::string* out) {
  if (required) {
    if (auto err = RequireText(e, key, path, out)) return err;
  } else if (!e.contains(key) || e[key].is_null()) {
    return std::nullopt;
  } else if (auto err = ReadString(e, key, path, out)) {
    return err;
  }
  std::string list;
  for (const char* a : allowed) {
    if (*out == a) return std::nullopt;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  return InputError{path + key, "must be one of " + list + ", got '" + *out + "'"};
}

Result<engine::CloudOffer> ParseOffer(const Json& e, const std::string& path) {
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  engine::CloudOffer o;
  std::string text, billing;
  if (auto err = RequireText(e, "id", path, &o.id)) return *err;
  if (!IsSlug(o.id)) return InputError{path + "id", "must be a lowercase slug like aws-p5-48xlarge"};
  for (auto [key, out] : {std::pair{"provider", &o.provider}, {"provider_name", &o.provider_name},
                          {"instance", &o.instance}, {"gpu", &o.gpu_id}, {"region", &o.region},
                          {"confidence", &o.confidence}, {"source", &text}}) {
    if (auto err = RequireText(e, key, path, out)) return *err;
  }
  if (auto err = ReadChoiceText(e, "currency", path, {"USD", "CNY", "EUR"}, true, &o.currency)) return *err;
  if (auto err = ReadChoiceText(e, "billing", path, {"instance", "per-gpu"}, true, &billing)) return *err;
  o.per_gpu = billing == "per-gpu";
  if (auto err = ReadChoiceText(e, "billing_granularity", path, {"per-second", "per-minute", "per-hour"}, false,
                                &o.billing_granularity)) {
    return *err;
  }
  if (auto err = Require(e, "gpus", path)) return *err;
  if (auto err = ReadInt(e, "gpus", path, 1, 576, &o.gpus)) return *err;
  if (auto err = ReadInt(e, "max_gpus", path, 1, 100000, &o.max_gpus)) return *err;  // TPU pods: 8,960 chips
  if (o.per_gpu && o.gpus != 1) return InputError{path + "gpus", "must be 1 for per-gpu billing"};
  if (auto err = ReadString(e, "fabric", path, &o.fabric); err && !e["fabric"].is_null()) return *err;
  if (auto err = OptionalNumber(e, "node_gbps", path, 1, 1e6, &o.node_gbps)) return *err;
  const std::pair<const char*, double*> prices[] = {{"on_demand_per_hour", &o.on_demand_per_hour},
                                                    {"spot_per_hour", &o.spot_per_hour},
                                                    {"reserved_1yr_per_hour", &o.reserved_1yr_per_hour},
                                                    {"reserved_3yr_per_hour", &o.reserved_3yr_per_hour}};
  for (const auto& [key, out] : prices) {
    if (auto err = Require(e, key, path)) return *err;
    if (auto err = OptionalNumber(e, key, path, 0.001, 1e6, out)) return *err;
  }
  const bool priced = o.on_demand_per_hour > 0 || o.spot_per_hour > 0 || o.reserved_1yr_per_hour > 0 ||
                      o.reserved_3yr_per_hour > 0;
  if (priced) {
    if (auto err = RequireText(e, "price_date", path, &o.price_date)) return *err;
  }
  return o;
}

std::optional<InputError> ParseCurrencies(const Json& d, const std::string& file, engine::Catalog& c) {
  if (!d["rates"].is_array()) return InputError{file + ": rates", "must be an array"};
  for (size_t i = 0; i < d["rates"].size(); ++i) {
    const Json& r = d["rates"][i];
    const std::string path = file + ": rates[" + std::to_string(i) + "]: ";
    if (!r.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
    engine::CurrencyRate rate;
    std::string text;
    if (auto err = RequireText(r, "currency", path, &rate.code)) return err;
    if (auto err = RequireText(r, "date", path, &rate.date)) return err;
    if (auto err = RequireText(r, "source", path, &text)) return err;
    if (auto err = RequireNumber(r, "per_usd", path, 1e-4, 1e5, &rate.per_usd)) return err;
    c.currencies.push_back(rate);
  }
  return std::nullopt;
}

// Every offer must rent a catalog GPU on a catalog fabric (when it names one).
std::optional<InputError> CheckCrossReferences(const engine::Catalog& c) {
  for (size_t i = 0; i < c.offers.size(); ++i) {
    const engine::CloudOffer& o = c.offers[i];
    const std::string path = "cloud offer " + o.id + ": ";
    if (c.FindGpu(o.gpu_id) == nullptr) return InputError{path + "gpu", "names no catalog GPU: '" + o.gpu_id + "'"};
    if (!o.fabric.empty() && !c.fabrics.empty() && c.FindFabric(o.fabric) == nullptr) {
      return InputError{path + "fabric", "names no catalog fabric: '" + o.fabric + "'"};
    }
  }
  return std::nullopt;
}

Result<engine::ModelPreset> ParseModel(const Json& e, const std::string& path) {
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  engine::ModelPreset p;
  std::string id, name, date;
  if (auto err = RequireText(e, "id", path, &id)) return *err;
  if (!IsSlug(id)) return InputError{path + "id", "must be a lowercase slug like llama-3-8b"};
  if (auto err = RequireText(e, "name", path, &name)) return *err;
  if (auto err = RequireText(e, "family", path, &p.family)) return *err;
  if (auto err = RequireText(e, "source", path, &p.source)) return *err;
  if (auto err = RequireText(e, "source_date", path, &date)) return *err;
  if (auto err = ReadString(e, "license", path, &p.license)) return *err;
  if (auto err = ReadString(e, "hf_repo", path, &p.hf_repo)) return *err;
  if (auto err = RequireNumber(e, "official_params", path, 1e6, 1e13, &p.official_params)) return *err;
  if (auto err = OptionalNumber(e, "official_active_params", path, 1e6, 1e13, &p.official_active_params)) return *err;
  if (auto err = Require(e, "arch", path)) return *err;
  auto arch = ParseArchitecture(e["arch"], path + "arch.");
  if (!arch.ok()) return arch.error();
  p.spec = arch.value();
  p.spec.id = id;
  p.spec.name = name;
  return p;
}

template <class T, class Parse>
std::optional<InputError> ParseArray(const Json& doc, const std::string& file, const char* key, Parse parse,
                                     std::vector<T>* out, std::set<std::string>* ids) {
  if (!doc.contains(key) || !doc[key].is_array()) return InputError{file + ": " + key, "must be an array"};
  const Json& arr = doc[key];
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string path = EntryPath(file, key, i, arr[i]);
    auto item = parse(arr[i], path);
    if (!item.ok()) return item.error();
    const std::string& id = arr[i]["id"].template get_ref<const std::string&>();
    if (!ids->insert(id).second) return InputError{path + "id", "duplicates an earlier entry's id '" + id + "'"};
    out->push_back(std::move(item.value()));
  }
  return std::nullopt;
}

std::optional<InputError> LoadOne(const EmbeddedFile& f, engine::Catalog& c, std::set<std::string>& gpu_ids,
                                  std::set<std::string>& model_ids, std::set<std::string>& fabric_ids) {
  const std::string file(f.name);
  auto doc = ParseText(f.text, file);
  if (!doc.ok()) return doc.error();
  const Json& d = doc.value();
  if (!d.is_object()) return InputError{file, "must hold a JSON object"};
  std::string compiled;
  if (auto err = RequireText(d, "compiled", file + ": ", &compiled)) return err;
  if (compiled > c.date) c.date = compiled;
  if (d.contains("gpus")) {
    if (auto err = ParseArray(d, file, "gpus", ParseGpu, &c.gpus, &gpu_ids)) return err;
  }
  if (d.contains("models")) {
    if (auto err = ParseArray(d, file, "models", ParseModel, &c.models, &model_ids)) return err;
  }
  if (d.contains("fabrics")) {
    if (auto err = ParseArray(d, file, "fabrics", ParseFabric, &c.fabrics, &fabric_ids)) return err;
  }
  if (d.contains("offers")) {
    std::set<std::string> offer_ids;
    if (auto err = ParseArray(d, file, "offers", ParseOffer, &c.offers, &offer_ids)) return err;
  }
  if (d.contains("rates")) {
    if (auto err = ParseCurrencies(d, file, c)) return err;
  }
  return std::nullopt;
}

}  // namespace

Result<engine::Catalog> LoadFiles(std::span<const EmbeddedFile> files) {
  engine::Catalog c;
  std::set<std::string> gpu_ids, model_ids, fabric_ids;
  for (const EmbeddedFile& f : files) {
    if (auto err = LoadOne(f, c, gpu_ids, model_ids, fabric_ids)) return *err;
  }
  if (c.gpus.empty()) return InputError{"catalog", "holds no GPUs"};
  if (auto err = CheckCrossReferences(c)) return *err;
  return c;
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
  return all.dump(2);
}

}  // namespace catalog
