#include "catalog_entries.h"

#include <cctype>
#include <string_view>

#include "engine/units.h"
#include "model_json.h"

namespace catalog {

using engine::InputError;
using engine::Result;

namespace {

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

}  // namespace

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
  // Optional: efficiencies measured on one's own cluster (the page's Assumptions panel).
  if (auto err = OptionalNumber(e, "gemm_efficiency", path, 0.01, 1, &g.gemm_efficiency)) return *err;
  if (auto err = OptionalNumber(e, "attention_efficiency", path, 0.01, 1, &g.attention_efficiency)) return *err;
  if (auto err = OptionalNumber(e, "memory_efficiency", path, 0.01, 1, &g.memory_efficiency)) return *err;
  if (e.contains("export_control") && e["export_control"].is_object() && e["export_control"].contains("cn")) {
    const Json& cn = e["export_control"]["cn"];
    std::string status;
    if (auto err = ReadChoiceText(cn, "status", path + "export_control.cn.",
                                  {"restricted", "allowed", "china-variant", "domestic", "not-applicable", "unknown"},
                                  true, &status)) {
      return *err;
    }
    g.export_restricted_cn = status == "restricted";
    if (auto err = ReadString(cn, "note", path + "export_control.cn.", &g.export_note_cn)) return *err;
  }
  if (e.contains("price") && e["price"].is_object()) {
    const Json& price = e["price"];
    if (auto err = OptionalNumber(price, "new_usd_low", path + "price.", 1, 1e8, &g.price_new_usd)) return *err;
    if (auto err = OptionalNumber(price, "used_usd_low", path + "price.", 1, 1e8, &g.price_used_usd)) return *err;
  }
  if (e.contains("seed_correction") && e["seed_correction"].is_object()) {
    const Json& sc = e["seed_correction"];
    std::string claim, correct;
    if (auto err = RequireText(sc, "claim", path + "seed_correction.", &claim)) return *err;
    if (auto err = RequireText(sc, "correct", path + "seed_correction.", &correct)) return *err;
    g.seed_correction = "Seed said: " + claim + ". Datasheet: " + correct + ".";
  }
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

// The market an offer's free-text region names ("us-east-1", "eastus", "US (North
// America)", "eu-north1", "cn-hangzhou (zone j)", "ap-beijing (zone 6)", "China (various)",
// "ap-northeast-1 (Tokyo)"); marketplaces and multi-region listings are "global".
std::string MarketOf(const std::string& region, const std::string& currency) {
  std::string r;
  for (char c : region) r += char(std::tolower(static_cast<unsigned char>(c)));
  const auto starts = [&](std::string_view prefix) { return r.rfind(prefix, 0) == 0; };
  if (starts("cn-") || starts("china") || starts("ap-beijing") || starts("ap-guangzhou") || starts("ap-shanghai")) {
    return "cn";
  }
  if (starts("us") || starts("eastus") || starts("westus") || starts("centralus")) return "us";
  if (starts("eu")) return "eu";
  if (starts("ap-") || starts("asia")) return "asia";  // Alibaba's Tokyo is priced in CNY: region first
  return currency == "CNY" ? "cn" : "global";
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
  o.market = MarketOf(o.region, o.currency);
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

namespace {

// Every catalog entry carries where its figures come from and when.
std::optional<InputError> RequireSource(const Json& e, const std::string& path) {
  std::string text;
  if (auto err = RequireText(e, "source", path, &text)) return err;
  if (e.contains("source_date") || !e.contains("price_date")) {
    if (auto err = RequireText(e, "source_date", path, &text)) return err;
  }
  return std::nullopt;
}

std::optional<InputError> RequireIdAndName(const Json& e, const std::string& path, std::string* id, std::string* name) {
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  if (auto err = RequireText(e, "id", path, id)) return err;
  if (!IsSlug(*id)) return InputError{path + "id", "must be a lowercase slug (letters, digits, '-', '.')"};
  if (auto err = RequireText(e, "name", path, name)) return err;
  return RequireSource(e, path);
}

}  // namespace

Result<engine::ServerOption> ParseServer(const Json& e, const std::string& path) {
  engine::ServerOption s;
  if (auto err = RequireIdAndName(e, path, &s.id, &s.name)) return *err;
  if (auto err = RequireText(e, "gpu", path, &s.gpu_id)) return *err;
  if (auto err = ReadChoiceText(e, "form", path, {"hgx", "pcie", "workstation"}, true, &s.form)) return *err;
  if (auto err = Require(e, "gpus", path)) return *err;
  if (auto err = ReadInt(e, "gpus", path, 1, 72, &s.gpus)) return *err;
  if (auto err = RequireNumber(e, "power_kw", path, 0.1, 200, &s.power_kw)) return *err;
  if (auto err = OptionalNumber(e, "cpu_cores", path, 1, 1024, &s.cpu_cores)) return *err;
  if (auto err = OptionalNumber(e, "ram_gib", path, 1, 65536, &s.ram_gib)) return *err;
  if (auto err = OptionalNumber(e, "nvme_tb", path, 0, 10000, &s.nvme_tb)) return *err;
  if (auto err = OptionalNumber(e, "price_usd_new", path, 100, 1e8, &s.price_usd_new)) return *err;
  if (auto err = OptionalNumber(e, "price_usd_used", path, 100, 1e8, &s.price_usd_used)) return *err;
  if (auto err = ReadString(e, "scale_up", path, &s.scale_up); err && !e["scale_up"].is_null()) return *err;
  if (auto err = ReadString(e, "confidence", path, &s.confidence)) return *err;
  if (s.price_usd_new > 0 || s.price_usd_used > 0) {
    if (auto err = RequireText(e, "price_date", path, &s.price_date)) return *err;
  }
  return s;
}

Result<engine::NetworkGear> ParseNetworkGear(const Json& e, const std::string& path) {
  engine::NetworkGear g;
  if (auto err = RequireIdAndName(e, path, &g.id, &g.name)) return *err;
  if (auto err = RequireText(e, "fabric", path, &g.fabric)) return *err;
  if (e.contains("ports") && !e["ports"].is_null()) {
    if (auto err = ReadInt(e, "ports", path, 0, 100000, &g.ports)) return *err;
  }
  if (auto err = OptionalNumber(e, "price_usd", path, 1, 1e8, &g.price_usd)) return *err;
  if (auto err = OptionalNumber(e, "power_kw", path, 0.001, 100, &g.power_kw)) return *err;
  return g;
}

Result<engine::StorageTier> ParseStorage(const Json& e, const std::string& path) {
  engine::StorageTier t;
  if (auto err = RequireIdAndName(e, path, &t.id, &t.name)) return *err;
  if (auto err = ReadChoiceText(e, "kind", path, {"local", "parallel-fs", "object"}, true, &t.kind)) return *err;
  if (auto err = ReadChoiceText(e, "scope", path,
                                {"per drive", "per node", "per client node", "per GPU", "per appliance", "per SSU",
                                 "whole cluster", "per TiB provisioned", "per bucket"},
                                true, &t.scope)) {
    return *err;
  }
  if (auto err = OptionalNumber(e, "read_gb_per_s", path, 0.001, 1e5, &t.read_gb_per_s)) return *err;
  if (auto err = OptionalNumber(e, "write_gb_per_s", path, 0.001, 1e5, &t.write_gb_per_s)) return *err;
  if (auto err = OptionalNumber(e, "price_usd_per_tb", path, 0.1, 1e5, &t.price_usd_per_tb)) return *err;
  if (auto err = OptionalNumber(e, "cloud_usd_per_tb_month", path, 0.1, 1e5, &t.cloud_usd_per_tb_month)) return *err;
  return t;
}

Result<engine::FacilityFigure> ParseFacility(const Json& e, const std::string& path) {
  engine::FacilityFigure f;
  if (auto err = RequireIdAndName(e, path, &f.id, &f.name)) return *err;
  if (auto err = RequireText(e, "unit", path, &f.unit)) return *err;
  if (auto err = ReadString(e, "region", path, &f.region); err && !e["region"].is_null()) return *err;
  if (auto err = Require(e, "value", path)) return *err;
  if (auto err = OptionalNumber(e, "value", path, 0, 1e9, &f.value)) return *err;
  f.known = !e["value"].is_null();
  return f;
}

// The scenario itself is checked against the loaded catalog afterwards (catalog_loader).
Result<engine::Example> ParseExample(const Json& e, const std::string& path) {
  engine::Example x;
  if (!e.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  if (auto err = RequireText(e, "id", path, &x.id)) return *err;
  if (auto err = RequireText(e, "title", path, &x.title)) return *err;
  if (auto err = RequireText(e, "description", path, &x.description)) return *err;
  if (auto err = RequireSource(e, path)) return *err;
  if (auto err = Require(e, "scenario", path)) return *err;
  if (!e["scenario"].is_object()) return InputError{path + "scenario", "must be a scenario object"};
  x.scenario_json = e["scenario"].dump();
  return x;
}

Result<engine::CurrencyRate> ParseCurrency(const Json& r, const std::string& path) {
  if (!r.is_object()) return InputError{path.substr(0, path.size() - 2), "must be an object"};
  engine::CurrencyRate rate;
  std::string text;
  if (auto err = RequireText(r, "currency", path, &rate.code)) return *err;
  if (auto err = RequireText(r, "date", path, &rate.date)) return *err;
  if (auto err = RequireText(r, "source", path, &text)) return *err;
  if (auto err = RequireNumber(r, "per_usd", path, 1e-4, 1e5, &rate.per_usd)) return *err;
  return rate;
}

}  // namespace catalog
