#include "catalog/catalog_entries.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <string_view>

#include "engine/contract/model_json.h"
#include "engine/format.h"
#include "engine/units.h"

namespace catalog {

using engine::InputError;
using engine::MakeInputError;
using engine::Result;
using engine::TextArg;

namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] ranges: every numeric catalog field's floor and ceiling, in one table

// A field's allowed values, inclusive, in the unit its JSON key (or a facility figure's
// "unit") names. Floors and ceilings are physical or market limits with a margin around
// the catalog's own extremes (catalog/*.json, compiled 2026-11-29, each figure there with
// its source and date), so a typo or a unit mix-up (MB for GB, months for years, cents
// for dollars) is refused instead of becoming a number in a plan.
struct Range {
  // "<section>.<key>"; prices that depend on the currency end in ".<ISO code>"; facility
  // figures are "facility:<unit>".
  std::string_view field;
  double lo, hi;
  // Facility rows: the figures engine/cost_model.cpp reads in this unit (they must carry it).
  std::string_view engine_ids = {};
};

constexpr Range kRanges[] = {
    // GPUs. Memory: T4 16 GB .. MI325X 256 GB (datasheets in gpus.json); 2048 is 8× the largest.
    {"gpus.memory_gb", 1, 2048},
    {"gpus.memory_gib", 1, 2048},
    // HBM/GDDR bandwidth: L4 0.3 .. GB200 8 TB/s; 100 is 12× the fastest.
    {"gpus.memory_bandwidth_tb_per_s", 0.05, 100},
    // Dense tensor TFLOPS: T4 65 .. GB200 2,500 (bf16/fp16), 5,000 (fp8), 1,250 (tf32); below
    // 1 TFLOPS no LLM trains in useful time; the ceilings are 20× GB200.
    {"gpus.bf16_dense_tflops", 1, 50000},
    {"gpus.fp16_dense_tflops", 1, 50000},
    {"gpus.fp8_dense_tflops", 1, 100000},
    {"gpus.fp4_dense_tflops", 1, 200000},
    {"gpus.tf32_dense_tflops", 1, 25000},
    // Scale-up link per GPU: T4 32 GB/s (PCIe Gen3 x16) .. NVLink 5 1,800 GB/s.
    {"gpus.scale_up_gb_per_s", 1, 50000},
    // Board power: T4 70 W .. GB200 1,200 W.
    {"gpus.tdp_w", 10, 5000},
    // Scale-up domain: 1 (PCIe cards) .. TPU v5p pod 8,960 chips.
    {"gpus.scale_up_domain_gpus", 1, 100000},
    // Measured efficiencies are shares of the peak: (0, 1].
    {"gpus.gemm_efficiency", 0.01, 1},
    {"gpus.attention_efficiency", 0.01, 1},
    {"gpus.memory_efficiency", 0.01, 1},
    // Card prices: used V100 $500 .. new B200 $30,000; a card under $50 or over $1M is a typo.
    {"gpus.price.new_usd_low", 50, 1e6},
    {"gpus.price.used_usd_low", 50, 1e6},

    // Fabrics (networks.json): ports 25 Gb/s Ethernet .. 7,200 Gb/s NVLink 5 per GPU.
    {"fabrics.per_port_gbps", 1, 1e5},
    {"fabrics.default_node_gbps", 1, 1e5},
    // One-way latency: NVLink/InfiniBand ~1 µs .. Ethernet 20 µs; 10 ms is a WAN, not a cluster.
    {"fabrics.latency_us", 0.05, 10000},
    // All-reduce bus bandwidth achieved, a share of the line rate (0.5 .. 0.96 in the catalog).
    {"fabrics.allreduce_busbw_fraction", 0.01, 1},

    // Cloud offers (cloud_offers.json). GPUs per rentable unit: up to an NVL576 domain
    // (NVIDIA GTC 2025, Rubin Ultra NVL576, the largest announced).
    {"offers.gpus", 1, 576},
    // GPUs one node or pod of the offer holds: TPU v5p pods reach 8,960.
    {"offers.max_gpus", 1, 100000},
    {"offers.node_gbps", 1, 1e5},
    // Capacity one buyer gets: 0 (sales only) .. 100,000 GPUs; a term of up to a year
    // (capacity blocks run 1-182 days); a lead time of up to a quarter (blocks book 8 weeks ahead).
    {"offers.capacity_gpus", 0, 100000},
    {"offers.min_term_days", 0, 366},
    {"offers.lead_time_days", 0, 92},
    // Price per GPU-hour (an instance's price ÷ its GPUs), in the offer's currency: the
    // catalog spans 0.25 USD (Vast.ai RTX 3090) .. 14.24 USD (AWS p6-b200) and 0.76 .. 45.2
    // CNY; the floor is 25× below the cheapest, the ceiling 35× above the dearest.
    {"offers.per_gpu_hour.USD", 0.01, 500},
    {"offers.per_gpu_hour.EUR", 0.01, 500},
    {"offers.per_gpu_hour.CNY", 0.05, 3500},

    // Servers (own_hardware.json): 1 .. 72 GPUs (GB200 NVL72 rack).
    {"servers.gpus", 1, 72},
    // Maximum system power: 4× RTX A6000 workstation 1.6 kW .. HGX B200 14.3 kW; an NVL72
    // rack draws about 120 kW.
    {"servers.power_kw", 0.1, 200},
    // CPU cores: a 16-core workstation .. an NVL72 rack's 36 Grace CPUs × 72 cores = 2,592.
    {"servers.cpu_cores", 1, 4096},
    {"servers.ram_gib", 1, 65536},
    {"servers.nvme_tb", 0, 10000},
    // Server prices: 4× RTX 4090 workstation $15,000 .. HGX B200 $450,000; an NVL72 rack is
    // a few million dollars.
    {"servers.price_usd_new", 100, 1e8},
    {"servers.price_usd_used", 100, 1e8},

    // Network gear: a $700 optic .. a $2.05M 1,024-GPU NDR fabric.
    {"network_gear.ports", 0, 100000},
    {"network_gear.price_usd", 1, 1e8},
    {"network_gear.power_kw", 0.001, 100},

    // Storage: 0.125 GB/s (FSx per TiB) .. 2,000 GB/s (Meta's Tectonic for Llama 3).
    {"storage.read_gb_per_s", 0.001, 1e5},
    {"storage.write_gb_per_s", 0.001, 1e5},
    {"storage.price_usd_per_tb", 0.1, 1e5},
    {"storage.cloud_usd_per_tb_month", 0.1, 1e5},

    // Model presets: 494M (Qwen2.5-0.5B) .. 1.03T (Kimi K2) parameters.
    {"models.official_params", 1e6, 1e13},
    {"models.official_active_params", 1e6, 1e13},
    // A preset's own tolerance: Falcon's "7B" and "40B" names round by 1.1% and 3.3%.
    {"models.official_params_tolerance", 0.0001, 0.05},

    // Exchange rates, units per US dollar. EUR: the ECB reference rate has ranged from 1.599
    // USD per EUR (2008-07-15) to 0.8252 (2000-10-26), i.e. 0.63 .. 1.21 EUR per USD. CNY:
    // 8.28 until the 2005-07-21 revaluation (PBoC), 6.04 at its strongest (2014-01). Other
    // currencies: from the Kuwaiti dinar (~0.31 per USD) to the Iranian rial (~42,000
    // official), with a margin.
    {"rates.per_usd.EUR", 0.5, 1.5},
    {"rates.per_usd.CNY", 5, 10},
    {"rates.per_usd", 1e-4, 1e6},

    // Facility figures (own_hardware.json "facility"), by unit.
    // PUE = facility power / IT power: at least 1 by definition (The Green Grid, PUE white
    // paper #49, 2012); the Uptime Institute survey averaged 2.5 in 2007 and 1.56 in 2024.
    {"facility:ratio", 1.0, 3.0, "pue-typical"},
    // Electricity: US industrial 8.1 c/kWh, regions 7-18 c (EIA Electric Power Monthly,
    // 2024); EU non-household 0.094-0.256 EUR/kWh (Eurostat nrg_pc_205, 2024-H1); China
    // industrial 0.3-0.8 CNY/kWh (catalog, low confidence). Ceilings ~5× the dearest.
    {"facility:USD/kWh", 0.01, 1.0, "electricity-us"},
    {"facility:EUR/kWh", 0.01, 1.0},
    {"facility:CNY/kWh", 0.05, 7},
    // Colocation: North America asking rent $163-184 per kW-month (CBRE, 2023-H2 .. 2024-H2).
    {"facility:USD/kW-month", 10, 2000, "colocation-us"},
    // Rack power: legacy colocation 4-8 kW, specialist liquid-cooled 60-120 kW (servnetuk, 2026).
    {"facility:kW per rack", 1, 300},
    // Depreciation life: under a year is renting, not owning; hyperscalers use 5-6 years
    // (MSFT/GOOG 6, AMZN 5 in 2025); 15 is past any GPU's useful life. 0 divided by zero and
    // wedged the page (issue 14).
    {"facility:years", 1, 15, "depreciation-years"},
    // Resale: a share of the price paid, below 1: at 1 owning would cost no depreciation, and
    // above it the fixed cost turned negative and owned plans vanished (issue 14). The
    // sources quote at most 0.85 after 3 years (used H100, 2026).
    {"facility:fraction of purchase price", 0, 0.95, "resale-fraction-3y,resale-fraction-5y"},
    // Maintenance and support per year: 8% assumed, DGX support quoted at ~20% (2024).
    {"facility:fraction of purchase price per year", 0, 0.5, "maintenance-rate"},
    // Average draw over nameplate maximum: 0.6-0.8 quoted (2024); never above 1, and below
    // 0.1 the servers idle rather than train.
    {"facility:fraction of max power", 0.1, 1, "sustained-power-fraction"},
    // Network and storage over server price: 0.10-0.15 quoted, 0.16-0.29 implied by all-in
    // H100 cluster costs (2023-24); 1 would double the purchase.
    {"facility:fraction of server price", 0, 1, "network-storage-fraction"},
    // Installation and commissioning: no sourced figure; half the hardware price is far out.
    {"facility:fraction of hardware price", 0, 0.5, "install-fraction"},
    // All-in H100 cluster cost per GPU $45-50k (Epoch AI, 2023-24).
    {"facility:USD per GPU", 100, 1e6},
    // Rack PDUs: no current price found; ~$750 for a 24-outlet unit (old lab wiki).
    {"facility:USD per rack", 10, 1e6},
};

const Range* FindRange(std::string_view field) {
  for (const Range& r : kRanges) {
    if (r.field == field) return &r;
  }
  return nullptr;
}

// The row for `field`. Every field the parsers read has one (tests/catalog: the embedded
// catalog loads); a missing row refuses every value rather than allowing any.
Range RangeOf(std::string_view field) {
  const Range* r = FindRange(field);
  return r != nullptr ? *r : Range{field, 1, 0};
}

Range RangeOf(std::string_view section, const char* key) { return RangeOf(std::string(section) + "." + key); }

// Readers of table-ranged numbers: required or optional (absent or null = unknown), and integers.
std::optional<InputError> NeedNumber(const engine::contract::Json& e, std::string_view section, const char* key,
                                     const std::string& path, double* out) {
  const Range r = RangeOf(section, key);
  return engine::contract::RequireNumber(e, key, path, r.lo, r.hi, out);
}

std::optional<InputError> MaybeNumber(const engine::contract::Json& e, std::string_view section, const char* key,
                                      const std::string& path, double* out) {
  const Range r = RangeOf(section, key);
  return engine::contract::OptionalNumber(e, key, path, r.lo, r.hi, out);
}

std::optional<InputError> MaybeInt(const engine::contract::Json& e, std::string_view section, const char* key, const std::string& path,
                                   int* out) {
  const Range r = RangeOf(section, key);
  return engine::contract::ReadInt(e, key, path, int(r.lo), int(r.hi), out);
}

// An entry that is not a JSON object: the error names the entry ("gpus.json: gpus[3]").
InputError NotAnObject(const std::string& path) {
  return MakeInputError(path.substr(0, path.size() - 2), "catalog.not_object");
}

InputError SlugError(const std::string& path, const char* example) {
  return MakeInputError(path + "id", "catalog.slug.example", {TextArg("example", example)});
}

// A price or count as written, all its digits ("300000", "14.2416"): Num's three
// significant digits would print 300,000 as "3e5".
std::string Exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// "must be at most <other> (<its value>), got <value>": two fields of one entry that disagree.
InputError AtMost(const std::string& path, const char* key, const char* other, double limit, double value) {
  return MakeInputError(path + key, "catalog.at_most",
                        {TextArg("other", other), TextArg("limit", Exact(limit)), TextArg("value", Exact(value))});
}

// An offer's four prices per rentable unit-hour in its currency (null = not offered),
// within the table's per-GPU-hour range times the unit's GPUs. A discount never costs more
// than the list price: spot and 1-year reserved at most on-demand (AWS has capped spot at
// on-demand since its 2017 pricing change), 3-year at most 1-year.
std::optional<InputError> ReadPrices(const engine::contract::Json& e, const std::string& path, engine::CloudOffer& o) {
  const Range per_gpu_hour = RangeOf("offers.per_gpu_hour." + o.currency);
  const std::pair<const char*, double*> prices[] = {{"on_demand_per_hour", &o.on_demand_per_hour},
                                                    {"spot_per_hour", &o.spot_per_hour},
                                                    {"reserved_1yr_per_hour", &o.reserved_1yr_per_hour},
                                                    {"reserved_3yr_per_hour", &o.reserved_3yr_per_hour}};
  for (const auto& [key, out] : prices) {
    if (auto err = engine::contract::Require(e, key, path)) return err;
    if (auto err = engine::contract::OptionalNumber(e, key, path, per_gpu_hour.lo * o.gpus, per_gpu_hour.hi * o.gpus, out)) return err;
  }
  const double on_demand = o.on_demand_per_hour, one_year = o.reserved_1yr_per_hour;
  if (on_demand > 0 && o.spot_per_hour > on_demand) {
    return AtMost(path, "spot_per_hour", "on_demand_per_hour", on_demand, o.spot_per_hour);
  }
  if (on_demand > 0 && one_year > on_demand) {
    return AtMost(path, "reserved_1yr_per_hour", "on_demand_per_hour", on_demand, one_year);
  }
  const double three_year_cap = one_year > 0 ? one_year : on_demand;
  if (three_year_cap > 0 && o.reserved_3yr_per_hour > three_year_cap) {
    return AtMost(path, "reserved_3yr_per_hour", one_year > 0 ? "reserved_1yr_per_hour" : "on_demand_per_hour",
                  three_year_cap, o.reserved_3yr_per_hour);
  }
  return std::nullopt;
}

bool ListHas(std::string_view list, std::string_view id) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    if (list.substr(0, comma) == id) return true;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return false;
}

// A facility figure's unit must have a row in kRanges, and a figure the engine reads must
// carry the unit it is read in (depreciation-years in years, not months).
std::optional<InputError> CheckFacilityUnit(const std::string& id, const std::string& unit, const std::string& path) {
  constexpr std::string_view kPrefix = "facility:";
  std::string units;
  for (const Range& r : kRanges) {
    if (!r.field.starts_with(kPrefix)) continue;
    const std::string_view row_unit = r.field.substr(kPrefix.size());
    if (ListHas(r.engine_ids, id) && row_unit != unit) {
      return MakeInputError(path + "unit", "catalog.facility_unit",
                            {TextArg("allowed", std::string(row_unit)), TextArg("unit", unit)});
    }
    units += (units.empty() ? "" : ", ") + std::string(row_unit);
  }
  if (FindRange(std::string(kPrefix) + unit) == nullptr) {
    return MakeInputError(path + "unit", "catalog.facility_unit", {TextArg("allowed", units), TextArg("unit", unit)});
  }
  return std::nullopt;
}

// A catalog value that names an enum: one of `names` from index `first` on (earlier names
// are the engine's own, e.g. "unknown"). Absent or null leaves *out unless `required`.
template <class Enum, size_t N>
std::optional<InputError> ReadCatalogEnum(const engine::contract::Json& e, const char* key, const std::string& path,
                                   const std::array<std::string_view, N>& names, size_t first, bool required,
                                   Enum* out) {
  std::string text;
  if (required) {
    if (auto err = engine::contract::RequireText(e, key, path, &text)) return err;
  } else if (!e.contains(key) || e[key].is_null()) {
    return std::nullopt;
  } else if (auto err = engine::contract::ReadString(e, key, path, &text)) {
    return err;
  }
  std::string allowed;
  for (size_t i = first; i < N; ++i) {
    if (names[i] == text) {
      *out = static_cast<Enum>(i);
      return std::nullopt;
    }
    allowed += (allowed.empty() ? "" : ", ") + std::string(names[i]);
  }
  return MakeInputError(path + key, "catalog.not_one_of",
                        {TextArg("allowed", allowed), TextArg("value", engine::QuotedInput(text))});
}

std::optional<InputError> ReadSoftware(const engine::contract::Json& e, const std::string& path, engine::SoftwareStack* out) {
  std::string s;
  if (auto err = engine::contract::RequireText(e, "software", path, &s)) return err;
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
  return MakeInputError(path + "software", "catalog.not_one_of",
                        {TextArg("allowed", "cuda, rocm, cann, xla, other"), TextArg("value", s)});
}

}  // namespace

engine::MessageArg JsonTypeArg(std::string name, const engine::contract::Json& value) {
  const char* type = "other";
  switch (value.type()) {
    case engine::contract::Json::value_t::null: type = "null"; break;
    case engine::contract::Json::value_t::object: type = "object"; break;
    case engine::contract::Json::value_t::array: type = "array"; break;
    case engine::contract::Json::value_t::string: type = "string"; break;
    case engine::contract::Json::value_t::boolean: type = "boolean"; break;
    case engine::contract::Json::value_t::number_integer:
    case engine::contract::Json::value_t::number_unsigned:
    case engine::contract::Json::value_t::number_float: type = "number"; break;
    default: break;
  }
  return engine::MessageArgOf(std::move(name), engine::MakeMessage(std::string("catalog.json_type.") + type));
}

std::optional<InputError> ReadLocalText(const engine::contract::Json& e, const char* key, const std::string& path, bool required,
                                        engine::LocalText* out) {
  if (required) {
    if (auto err = engine::contract::RequireText(e, key, path, &out->en)) return err;
  } else if (auto err = engine::contract::ReadString(e, key, path, &out->en)) {
    return err;
  }
  const std::string zh_key = std::string(key) + "_zh";
  out->zh = out->en;  // no translation yet: the English on every page
  if (!e.is_object() || !e.contains(zh_key)) return std::nullopt;
  if (!e[zh_key].is_string()) {
    return MakeInputError(path + zh_key, "catalog.local_text", {TextArg("field", key), JsonTypeArg("type", e[zh_key])});
  }
  out->zh = e[zh_key].get<std::string>();
  return std::nullopt;
}

Result<engine::GpuSpec> ParseGpu(const engine::contract::Json& e, const std::string& path) {
  if (!e.is_object()) return NotAnObject(path);
  engine::GpuSpec g;
  std::string text;
  if (auto err = engine::contract::RequireText(e, "id", path, &g.id)) return *err;
  if (!engine::contract::IsSlug(g.id)) return SlugError(path, "h100-sxm-80gb");
  if (auto err = engine::contract::RequireText(e, "name", path, &g.name)) return *err;
  if (auto err = engine::contract::RequireText(e, "vendor", path, &g.vendor)) return *err;
  if (auto err = engine::contract::RequireText(e, "source", path, &text)) return *err;
  if (auto err = engine::contract::RequireText(e, "source_date", path, &text)) return *err;
  double gb = 0, gib = 0, bw = 0, bf16 = 0, fp16 = 0, fp8 = 0, tf32 = 0, link = 0;
  if (auto err = NeedNumber(e, "gpus", "memory_gb", path, &gb)) return *err;
  if (auto err = NeedNumber(e, "gpus", "memory_gib", path, &gib)) return *err;
  // A GiB (2^30 B) is larger than a GB (1e9 B) and drivers reserve some: the usable GiB
  // are at most the marketed GB (H100: 80 GB, 79.6 GiB reported), and not under half.
  if (gib > gb || gib < gb / 2) {
    return MakeInputError(path + "memory_gib", "catalog.memory_gib",
                          {engine::NumberArg("low", gb / 2), engine::NumberArg("high", gb), engine::NumberArg("value", gib)});
  }
  if (auto err = NeedNumber(e, "gpus", "memory_bandwidth_tb_per_s", path, &bw)) return *err;
  if (auto err = NeedNumber(e, "gpus", "bf16_dense_tflops", path, &bf16)) return *err;
  if (auto err = NeedNumber(e, "gpus", "fp16_dense_tflops", path, &fp16)) return *err;
  if (auto err = MaybeNumber(e, "gpus", "fp8_dense_tflops", path, &fp8)) return *err;
  double fp4 = 0;  // optional: only block-scaled (Blackwell-class) parts list it
  if (auto err = MaybeNumber(e, "gpus", "fp4_dense_tflops", path, &fp4)) return *err;
  if (auto err = MaybeNumber(e, "gpus", "tf32_dense_tflops", path, &tf32)) return *err;
  if (auto err = NeedNumber(e, "gpus", "scale_up_gb_per_s", path, &link)) return *err;
  if (auto err = engine::contract::Require(e, "tdp_w", path)) return *err;  // null = not published (TPUs, Ascend 910C)
  if (auto err = MaybeNumber(e, "gpus", "tdp_w", path, &g.tdp_w)) return *err;
  if (auto err = engine::contract::RequireText(e, "scale_up_link", path, &g.scale_up_link)) return *err;
  if (auto err = engine::contract::Require(e, "scale_up_domain_gpus", path)) return *err;
  if (auto err = MaybeInt(e, "gpus", "scale_up_domain_gpus", path, &g.scale_up_domain)) return *err;
  // PCIe x16 per direction by generation: Gen3 16, Gen4 32, Gen5 64 GB/s (PCI-SIG).
  if (auto err = engine::contract::ReadString(e, "host_interface", path, &text)) return *err;
  g.pcie_bytes_per_s = text.find("Gen5") != std::string::npos   ? 64e9
                       : text.find("Gen3") != std::string::npos ? 16e9
                                                                : 32e9;
  if (auto err = ReadSoftware(e, path, &g.stack)) return *err;
  if (auto err = ReadCatalogEnum(e, "architecture", path, engine::kArchitectureNames, 0, true, &g.architecture)) return *err;
  // Optional: efficiencies measured on one's own cluster (the page's Assumptions panel).
  if (auto err = MaybeNumber(e, "gpus", "gemm_efficiency", path, &g.gemm_efficiency)) return *err;
  if (auto err = MaybeNumber(e, "gpus", "attention_efficiency", path, &g.attention_efficiency)) return *err;
  if (auto err = MaybeNumber(e, "gpus", "memory_efficiency", path, &g.memory_efficiency)) return *err;
  if (e.contains("export_control") && e["export_control"].is_object() && e["export_control"].contains("cn")) {
    const engine::contract::Json& cn = e["export_control"]["cn"];
    std::string status;
    if (auto err = engine::contract::ReadChoiceText(cn, "status", path + "export_control.cn.",
                                  {"restricted", "allowed", "china-variant", "domestic", "not-applicable", "unknown"},
                                  true, &status)) {
      return *err;
    }
    g.export_restricted_cn = status == "restricted";
    if (auto err = ReadLocalText(cn, "note", path + "export_control.cn.", false, &g.export_note_cn)) return *err;
  }
  if (e.contains("unavailable") && e["unavailable"].is_object()) {
    if (auto err = ReadLocalText(e["unavailable"], "note", path + "unavailable.", true, &g.unavailable_note)) return *err;
  }
  if (e.contains("price") && e["price"].is_object()) {
    const engine::contract::Json& price = e["price"];
    if (auto err = MaybeNumber(price, "gpus.price", "new_usd_low", path + "price.", &g.price_new_usd)) return *err;
    if (auto err = MaybeNumber(price, "gpus.price", "used_usd_low", path + "price.", &g.price_used_usd)) return *err;
    if (g.price_new_usd > 0 && g.price_used_usd > g.price_new_usd) {
      return AtMost(path + "price.", "used_usd_low", "new_usd_low", g.price_new_usd, g.price_used_usd);
    }
  }
  if (e.contains("seed_correction") && e["seed_correction"].is_object()) {
    const engine::contract::Json& sc = e["seed_correction"];
    if (auto err = ReadLocalText(sc, "claim", path + "seed_correction.", true, &g.seed_claim)) return *err;
    if (auto err = ReadLocalText(sc, "correct", path + "seed_correction.", true, &g.seed_datasheet)) return *err;
  }
  g.memory_bytes = gib * engine::kGiB;
  g.memory_bandwidth_bytes_per_s = bw * 1e12;
  g.bf16_flops = bf16 * engine::kTera;
  g.fp16_flops = fp16 * engine::kTera;
  g.fp8_flops = fp8 * engine::kTera;
  g.fp4_flops = fp4 * engine::kTera;
  g.tf32_flops = tf32 * engine::kTera;
  g.scale_up_bytes_per_s = link * engine::kGB;
  return g;
}

Result<engine::FabricSpec> ParseFabric(const engine::contract::Json& e, const std::string& path) {
  if (!e.is_object()) return NotAnObject(path);
  engine::FabricSpec f;
  std::string text, scope;
  if (auto err = engine::contract::RequireText(e, "id", path, &f.id)) return *err;
  if (!engine::contract::IsSlug(f.id)) return SlugError(path, "ib-ndr");
  if (auto err = ReadLocalText(e, "name", path, true, &f.name)) return *err;
  if (auto err = engine::contract::RequireText(e, "source", path, &text)) return *err;
  if (auto err = engine::contract::RequireText(e, "source_date", path, &text)) return *err;
  if (auto err = engine::contract::RequireText(e, "scope", path, &scope)) return *err;
  if (scope != "scale-up" && scope != "scale-out") {
    return MakeInputError(path + "scope", "catalog.fabric_scope", {TextArg("scope", scope)});
  }
  f.scale_out = scope == "scale-out";
  double port_gbps = 0, latency_us = 0, node_gbps = 0;
  if (auto err = NeedNumber(e, "fabrics", "per_port_gbps", path, &port_gbps)) return *err;
  if (auto err = NeedNumber(e, "fabrics", "latency_us", path, &latency_us)) return *err;
  if (auto err = NeedNumber(e, "fabrics", "allreduce_busbw_fraction", path, &f.busbw_fraction)) return *err;
  if (auto err = MaybeNumber(e, "fabrics", "default_node_gbps", path, &node_gbps)) return *err;
  if (f.scale_out && node_gbps <= 0) return MakeInputError(path + "default_node_gbps", "catalog.scale_out_node_gbps");
  f.port_bytes_per_s = port_gbps * 1e9 / 8;
  f.latency_s = latency_us * 1e-6;
  f.default_node_bytes_per_s = node_gbps * 1e9 / 8;
  return f;
}

// The market an offer's free-text region names ("us-east-1", "eastus", "US (North
// America)", "eu-north1", "cn-hangzhou (zone j)", "ap-beijing (zone 6)", "China (various)",
// "ap-northeast-1 (Tokyo)"); marketplaces and multi-region listings are "global".
engine::Market MarketOf(const std::string& region, const std::string& currency) {
  using engine::Market;
  std::string r;
  for (char c : region) r += char(std::tolower(static_cast<unsigned char>(c)));
  const auto starts = [&](std::string_view prefix) { return r.rfind(prefix, 0) == 0; };
  if (starts("cn-") || starts("china") || starts("ap-beijing") || starts("ap-guangzhou") || starts("ap-shanghai")) {
    return Market::kCn;
  }
  if (starts("us") || starts("eastus") || starts("westus") || starts("centralus")) return Market::kUs;
  if (starts("eu")) return Market::kEu;
  if (starts("ap-") || starts("asia")) return Market::kAsia;  // Alibaba's Tokyo is priced in CNY: region first
  return currency == "CNY" ? Market::kCn : Market::kGlobal;
}

// What one buyer can rent of an offer. Without capacity_gpus an offer (an overlay's)
// gives one node, self-serve, as most providers let a new account do; with it, the kind
// and its basis (a source or a stated assumption) are required.
std::optional<InputError> ReadCapacity(const engine::contract::Json& e, const std::string& path, engine::CloudOffer& o) {
  o.capacity_gpus = o.max_gpus;
  if (!e.contains("capacity_gpus") || e["capacity_gpus"].is_null()) return std::nullopt;
  if (auto err = MaybeInt(e, "offers", "capacity_gpus", path, &o.capacity_gpus)) return err;
  if (auto err = ReadCatalogEnum(e, "capacity_kind", path, engine::kCapacityKindNames, 0, true, &o.capacity_kind)) {
    return err;
  }
  if (auto err = engine::contract::RequireText(e, "capacity_basis", path, &o.capacity_basis)) return err;
  double min_term_days = 0;
  if (auto err = MaybeNumber(e, "offers", "min_term_days", path, &min_term_days)) return err;
  o.min_term_hours = min_term_days * 24;
  return MaybeNumber(e, "offers", "lead_time_days", path, &o.lead_time_days);
}

Result<engine::CloudOffer> ParseOffer(const engine::contract::Json& e, const std::string& path) {
  if (!e.is_object()) return NotAnObject(path);
  engine::CloudOffer o;
  std::string text, billing;
  if (auto err = engine::contract::RequireText(e, "id", path, &o.id)) return *err;
  if (!engine::contract::IsSlug(o.id)) return SlugError(path, "aws-p5-48xlarge");
  for (auto [key, out] : {std::pair{"provider", &o.provider}, {"provider_name", &o.provider_name},
                          {"instance", &o.instance}, {"gpu", &o.gpu_id}, {"region", &o.region},
                          {"confidence", &o.confidence}, {"source", &text}}) {
    if (auto err = engine::contract::RequireText(e, key, path, out)) return *err;
  }
  if (auto err = engine::contract::ReadChoiceText(e, "currency", path, {"USD", "CNY", "EUR"}, true, &o.currency)) return *err;
  o.market = MarketOf(o.region, o.currency);
  if (auto err = engine::contract::ReadChoiceText(e, "billing", path, {"instance", "per-gpu"}, true, &billing)) return *err;
  o.per_gpu = billing == "per-gpu";
  if (auto err = ReadCatalogEnum(e, "billing_granularity", path, engine::kBillingGranularityNames, 1, false,
                         &o.billing_granularity)) {
    return *err;
  }
  if (auto err = engine::contract::Require(e, "gpus", path)) return *err;
  if (auto err = MaybeInt(e, "offers", "gpus", path, &o.gpus)) return *err;
  if (o.per_gpu && o.gpus != 1) return MakeInputError(path + "gpus", "catalog.per_gpu_units");
  // A node holds at least the GPUs of one rentable unit; without max_gpus it holds that unit.
  o.max_gpus = std::max(o.max_gpus, o.gpus);
  if (auto err = MaybeInt(e, "offers", "max_gpus", path, &o.max_gpus)) return *err;
  if (o.gpus > o.max_gpus) {
    return MakeInputError(path + "gpus", "catalog.gpus_over_max",
                          {engine::CountArg("max_gpus", o.max_gpus), engine::CountArg("gpus", o.gpus)});
  }
  if (auto err = engine::contract::ReadString(e, "fabric", path, &o.fabric); err && !e["fabric"].is_null()) return *err;
  if (auto err = MaybeNumber(e, "offers", "node_gbps", path, &o.node_gbps)) return *err;
  if (auto err = ReadPrices(e, path, o)) return *err;
  if (auto err = ReadCapacity(e, path, o)) return *err;
  const bool priced = o.on_demand_per_hour > 0 || o.spot_per_hour > 0 || o.reserved_1yr_per_hour > 0 ||
                      o.reserved_3yr_per_hour > 0;
  if (priced) {
    if (auto err = engine::contract::RequireText(e, "price_date", path, &o.price_date)) return *err;
  }
  return o;
}

Result<engine::ModelPreset> ParseModel(const engine::contract::Json& e, const std::string& path) {
  if (!e.is_object()) return NotAnObject(path);
  engine::ModelPreset p;
  std::string id, name, date;
  if (auto err = engine::contract::RequireText(e, "id", path, &id)) return *err;
  if (!engine::contract::IsSlug(id)) return SlugError(path, "llama-3-8b");
  if (auto err = engine::contract::RequireText(e, "name", path, &name)) return *err;
  if (auto err = engine::contract::RequireText(e, "family", path, &p.family)) return *err;
  if (auto err = engine::contract::RequireText(e, "source", path, &p.source)) return *err;
  if (auto err = engine::contract::RequireText(e, "source_date", path, &date)) return *err;
  if (auto err = engine::contract::ReadString(e, "license", path, &p.license)) return *err;
  if (auto err = engine::contract::ReadString(e, "hf_repo", path, &p.hf_repo)) return *err;
  if (auto err = engine::contract::ReadString(e, "released", path, &p.released)) return *err;
  if (auto err = NeedNumber(e, "models", "official_params", path, &p.official_params)) return *err;
  if (auto err = MaybeNumber(e, "models", "official_active_params", path, &p.official_active_params)) return *err;
  if (auto err = MaybeNumber(e, "models", "official_params_tolerance", path, &p.official_params_tolerance)) return *err;
  if (auto err = ReadLocalText(e, "approximate", path, false, &p.approximate)) return *err;
  if (auto err = engine::contract::Require(e, "arch", path)) return *err;
  auto arch = engine::contract::ParseArchitecture(e["arch"], path + "arch.");
  if (!arch.ok()) return arch.error();
  p.spec = arch.value();
  p.spec.id = id;
  p.spec.name = name;
  return p;
}

namespace {

// Every catalog entry carries where its figures come from and when.
std::optional<InputError> RequireSource(const engine::contract::Json& e, const std::string& path) {
  std::string text;
  if (auto err = engine::contract::RequireText(e, "source", path, &text)) return err;
  if (e.contains("source_date") || !e.contains("price_date")) {
    if (auto err = engine::contract::RequireText(e, "source_date", path, &text)) return err;
  }
  return std::nullopt;
}

std::optional<InputError> RequireIdAndName(const engine::contract::Json& e, const std::string& path, std::string* id, std::string* name) {
  if (!e.is_object()) return NotAnObject(path);
  if (auto err = engine::contract::RequireText(e, "id", path, id)) return err;
  if (!engine::contract::IsSlug(*id)) return MakeInputError(path + "id", "catalog.slug");
  if (auto err = engine::contract::RequireText(e, "name", path, name)) return err;
  return RequireSource(e, path);
}

}  // namespace

Result<engine::ServerOption> ParseServer(const engine::contract::Json& e, const std::string& path) {
  engine::ServerOption s;
  if (auto err = RequireIdAndName(e, path, &s.id, &s.name)) return *err;
  if (auto err = engine::contract::RequireText(e, "gpu", path, &s.gpu_id)) return *err;
  if (auto err = engine::contract::ReadChoiceText(e, "form", path, {"hgx", "pcie", "workstation", "rack"}, true, &s.form)) return *err;
  if (auto err = engine::contract::Require(e, "gpus", path)) return *err;
  if (auto err = MaybeInt(e, "servers", "gpus", path, &s.gpus)) return *err;
  if (auto err = NeedNumber(e, "servers", "power_kw", path, &s.power_kw)) return *err;
  if (auto err = MaybeNumber(e, "servers", "cpu_cores", path, &s.cpu_cores)) return *err;
  if (auto err = MaybeNumber(e, "servers", "ram_gib", path, &s.ram_gib)) return *err;
  if (auto err = MaybeNumber(e, "servers", "nvme_tb", path, &s.nvme_tb)) return *err;
  if (auto err = MaybeNumber(e, "servers", "price_usd_new", path, &s.price_usd_new)) return *err;
  if (auto err = MaybeNumber(e, "servers", "price_usd_used", path, &s.price_usd_used)) return *err;
  if (s.price_usd_new > 0 && s.price_usd_used > s.price_usd_new) {
    return AtMost(path, "price_usd_used", "price_usd_new", s.price_usd_new, s.price_usd_used);
  }
  if (auto err = engine::contract::ReadString(e, "scale_up", path, &s.scale_up); err && !e["scale_up"].is_null()) return *err;
  if (auto err = engine::contract::ReadString(e, "confidence", path, &s.confidence)) return *err;
  if (auto err = engine::contract::ReadString(e, "nics", path, &s.nics); err && !e["nics"].is_null()) return *err;
  if (s.price_usd_new > 0 || s.price_usd_used > 0) {
    if (auto err = engine::contract::RequireText(e, "price_date", path, &s.price_date)) return *err;
  }
  return s;
}

Result<engine::NetworkGear> ParseNetworkGear(const engine::contract::Json& e, const std::string& path) {
  engine::NetworkGear g;
  if (auto err = RequireIdAndName(e, path, &g.id, &g.name)) return *err;
  if (auto err = engine::contract::RequireText(e, "fabric", path, &g.fabric)) return *err;
  if (auto err = engine::contract::ReadChoiceText(e, "kind", path, {"switch", "nic", "transceiver", "fabric"}, false,
                                                  &g.kind)) {
    return *err;
  }
  if (e.contains("ports") && !e["ports"].is_null()) {
    if (auto err = MaybeInt(e, "network_gear", "ports", path, &g.ports)) return *err;
  }
  if (auto err = MaybeNumber(e, "network_gear", "price_usd", path, &g.price_usd)) return *err;
  if (auto err = MaybeNumber(e, "network_gear", "power_kw", path, &g.power_kw)) return *err;
  if (g.price_usd > 0) {
    if (auto err = engine::contract::RequireText(e, "price_date", path, &g.price_date)) return *err;
  }
  return g;
}

Result<engine::StorageTier> ParseStorage(const engine::contract::Json& e, const std::string& path) {
  engine::StorageTier t;
  if (auto err = RequireIdAndName(e, path, &t.id, &t.name)) return *err;
  if (auto err = engine::contract::ReadChoiceText(e, "kind", path, {"local", "parallel-fs", "object"}, true, &t.kind)) return *err;
  if (auto err = engine::contract::ReadChoiceText(e, "scope", path,
                                {"per drive", "per node", "per client node", "per GPU", "per appliance", "per SSU",
                                 "whole cluster", "per TiB provisioned", "per bucket"},
                                true, &t.scope)) {
    return *err;
  }
  for (auto [key, out] : {std::pair{"read_gb_per_s", &t.read_gb_per_s}, {"write_gb_per_s", &t.write_gb_per_s},
                          {"price_usd_per_tb", &t.price_usd_per_tb},
                          {"cloud_usd_per_tb_month", &t.cloud_usd_per_tb_month}}) {
    if (auto err = MaybeNumber(e, "storage", key, path, out)) return *err;
  }
  if (auto err = engine::contract::ReadString(e, "source_date", path, &t.price_date)) return *err;
  return t;
}

Result<engine::FacilityFigure> ParseFacility(const engine::contract::Json& e, const std::string& path) {
  engine::FacilityFigure f;
  if (auto err = RequireIdAndName(e, path, &f.id, &f.name.en)) return *err;
  if (auto err = ReadLocalText(e, "name", path, true, &f.name)) return *err;
  if (auto err = ReadLocalText(e, "unit", path, true, &f.unit)) return *err;
  if (auto err = CheckFacilityUnit(f.id, f.unit.en, path)) return *err;
  if (auto err = engine::contract::ReadString(e, "region", path, &f.region); err && !e["region"].is_null()) return *err;
  if (auto err = engine::contract::Require(e, "value", path)) return *err;
  const Range r = RangeOf("facility:" + f.unit.en);
  if (auto err = engine::contract::OptionalNumber(e, "value", path, r.lo, r.hi, &f.value)) return *err;
  f.known = !e["value"].is_null();
  return f;
}

// The scenario itself is checked against the loaded catalog afterwards (catalog_loader).
Result<engine::Example> ParseExample(const engine::contract::Json& e, const std::string& path) {
  engine::Example x;
  if (!e.is_object()) return NotAnObject(path);
  if (auto err = engine::contract::RequireText(e, "id", path, &x.id)) return *err;
  if (auto err = ReadLocalText(e, "title", path, true, &x.title)) return *err;
  if (auto err = ReadLocalText(e, "description", path, true, &x.description)) return *err;
  if (auto err = RequireSource(e, path)) return *err;
  if (auto err = engine::contract::Require(e, "scenario", path)) return *err;
  if (!e["scenario"].is_object()) return MakeInputError(path + "scenario", "catalog.example_scenario");
  x.scenario_json = engine::contract::DumpJson(e["scenario"]);
  return x;
}

Result<engine::CurrencyRate> ParseCurrency(const engine::contract::Json& r, const std::string& path) {
  if (!r.is_object()) return NotAnObject(path);
  engine::CurrencyRate rate;
  std::string text;
  if (auto err = engine::contract::RequireText(r, "currency", path, &rate.code)) return *err;
  const bool iso_shape = rate.code.size() == 3 && std::all_of(rate.code.begin(), rate.code.end(), [](char c) {
    return c >= 'A' && c <= 'Z';
  });
  if (!iso_shape) {
    return MakeInputError(path + "currency", "catalog.currency_code", {TextArg("code", rate.code)});
  }
  // Rates are units per US dollar: USD is the base, 1 by definition (cost_model.cpp Rate),
  // so a USD row would be ignored while looking applied.
  if (rate.code == "USD") {
    return MakeInputError(path + "currency", "catalog.currency_usd");
  }
  if (auto err = engine::contract::RequireText(r, "date", path, &rate.date)) return *err;
  if (auto err = engine::contract::RequireText(r, "source", path, &text)) return *err;
  const Range* own = FindRange("rates.per_usd." + rate.code);
  const Range bounds = own != nullptr ? *own : RangeOf("rates.per_usd");
  if (auto err = engine::contract::RequireNumber(r, "per_usd", path, bounds.lo, bounds.hi, &rate.per_usd)) return *err;
  return rate;
}

}  // namespace catalog
