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
  if (auto err = RequireNumber(e, "tdp_w", path, 1, 10000, &g.tdp_w)) return *err;
  if (auto err = RequireText(e, "scale_up_link", path, &g.scale_up_link)) return *err;
  if (auto err = ReadSoftware(e, path, &g.stack)) return *err;
  g.memory_bytes = gib * engine::kGiB;
  g.memory_bandwidth_bytes_per_s = bw * 1e12;
  g.bf16_flops = bf16 * engine::kTera;
  g.fp16_flops = fp16 * engine::kTera;
  g.fp8_flops = fp8 * engine::kTera;
  g.tf32_flops = tf32 * engine::kTera;
  g.scale_up_bytes_per_s = link * engine::kGB;
  return g;
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
                                  std::set<std::string>& model_ids) {
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
  return std::nullopt;
}

}  // namespace

Result<engine::Catalog> LoadFiles(std::span<const EmbeddedFile> files) {
  engine::Catalog c;
  std::set<std::string> gpu_ids, model_ids;
  for (const EmbeddedFile& f : files) {
    if (auto err = LoadOne(f, c, gpu_ids, model_ids)) return *err;
  }
  if (c.gpus.empty()) return InputError{"catalog", "holds no GPUs"};
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
