// The hardware and model catalog as engine types. The codec layer fills it from the
// embedded catalog/*.json; tests build small ones by hand.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "hardware.h"
#include "model_spec.h"

namespace engine {

// Where an offer's GPUs are (catalog_entries.cpp MarketOf reads it from the free-text
// region): kGlobal for marketplaces and offers listed in several regions.
enum class Market { kUs, kEu, kCn, kAsia, kGlobal };
// The names a plan's region is given in ("cn"), in enum order.
inline constexpr std::array<std::string_view, 5> kMarketNames = {"us", "eu", "cn", "asia", "global"};

// How a provider rounds the hours it bills (cloud_offers.json "billing_granularity");
// kUnknown when the catalog does not say (billed as used).
enum class BillingGranularity { kUnknown, kPerSecond, kPerMinute, kPerHour };
inline constexpr std::array<std::string_view, 4> kBillingGranularityNames = {"unknown", "per-second", "per-minute",
                                                                             "per-hour"};

// How one buyer gets an offer's GPUs (cloud_offers.json "capacity_kind"): on their own
// (self-serve), after the provider approves a quota request, from third-party hosts of a
// marketplace, as a capacity block booked ahead for a fixed term, or only through a
// reserved cluster negotiated with sales.
enum class CapacityKind { kSelfServe, kQuotaRequest, kMarketplace, kCapacityBlock, kReservedCluster };
inline constexpr std::array<std::string_view, 5> kCapacityKindNames = {"self-serve", "quota-request", "marketplace",
                                                                       "capacity-block", "reserved-cluster"};

// A rentable cloud unit: an instance (or a single GPU) at a price per unit-hour in its
// currency. A price of 0 means the provider does not offer that pricing.
struct CloudOffer {
  std::string id, provider, provider_name, instance, region;
  std::string gpu_id;
  int gpus = 1;            // GPUs in one rentable unit
  bool per_gpu = false;    // any number of single GPUs can be rented (then gpus == 1)
  int max_gpus = 8;        // GPUs one node of this offer holds
  std::string fabric;      // scale-out fabric id, empty if unknown
  double node_gbps = 0;
  std::string currency = "USD";
  Market market = Market::kGlobal;  // from `region`
  double on_demand_per_hour = 0, spot_per_hour = 0, reserved_1yr_per_hour = 0, reserved_3yr_per_hour = 0;
  BillingGranularity billing_granularity = BillingGranularity::kUnknown;
  std::string price_date;
  std::string confidence;
  // What one buyer can actually rent at these prices: at most capacity_gpus GPUs (0: none
  // without sales), for at least min_term_hours (a capacity block's one day), after
  // lead_time_days of waiting (quota approval, a block's start). Stated by the provider or
  // assumed (capacity_basis says which).
  int capacity_gpus = 8;
  CapacityKind capacity_kind = CapacityKind::kSelfServe;
  double min_term_hours = 0;
  double lead_time_days = 0;
  std::string capacity_basis;
};

// A server one can buy: GPUs with their host, as a unit.
struct ServerOption {
  std::string id, name, gpu_id, form, scale_up;
  int gpus = 8;
  double cpu_cores = 0, ram_gib = 0, nvme_tb = 0, power_kw = 0;
  double price_usd_new = 0, price_usd_used = 0;  // 0 = not known
  std::string price_date, confidence;
  std::string nics;  // the scale-out and storage NICs it ships with, as the vendor lists them
};

struct NetworkGear {
  std::string id, name, fabric;
  std::string kind;  // switch | nic | transceiver | fabric (a whole priced fabric)
  int ports = 0;
  double price_usd = 0, power_kw = 0;  // 0 = not known
  std::string price_date;
};

struct StorageTier {
  std::string id, name, kind;  // kind: local | parallel-fs | object
  std::string scope;           // what write_gb_per_s is per: "per drive", "per node", "per appliance", ...
  double read_gb_per_s = 0, write_gb_per_s = 0, price_usd_per_tb = 0, cloud_usd_per_tb_month = 0;
  std::string price_date;  // the entry's source date
};

// A datacenter or ownership figure: PUE, electricity price, colocation, depreciation...
struct FacilityFigure {
  std::string id;
  LocalText name;
  LocalText unit;  // unit.en is the unit the value is in, checked against the ranges
  std::string region;
  double value = 0;
  bool known = false;
};

// A one-click example: a scenario (as JSON text, parsed by the codec) with a title.
struct Example {
  std::string id;
  LocalText title, description;
  std::string scenario_json;
};

struct CurrencyRate {
  std::string code;     // "CNY"
  double per_usd = 0;   // units of this currency per US dollar
  std::string date;
};

// A model preset: the architecture plus what the catalog says about it.
struct ModelPreset {
  ModelSpec spec;
  std::string family;
  std::string license;
  std::string hf_repo;
  std::string released;               // "2025-04": when the weights came out
  double official_params = 0;         // published total, for comparison
  double official_active_params = 0;  // MoE only
  // How far the computed total may stray from official_params, as a fraction, when the
  // published figure is only a rounded name or counts parts the preset leaves out (a
  // vision encoder); 0 = the catalog test's default. The source says why.
  double official_params_tolerance = 0;
  std::string source;
  // Why the preset's architecture only approximates the model (layers the engine cannot
  // express: linear attention, interleaved MoE, chunked attention); empty = exact. The
  // estimate of an approximate preset carries it as the warning approximate_model.
  LocalText approximate;
};

struct Catalog {
  std::vector<GpuSpec> gpus;
  std::vector<ModelPreset> models;
  std::vector<FabricSpec> fabrics;
  std::vector<CloudOffer> offers;
  std::vector<CurrencyRate> currencies;
  std::vector<ServerOption> servers;
  std::vector<NetworkGear> network_gear;
  std::vector<StorageTier> storage;
  std::vector<FacilityFigure> facility;
  std::vector<Example> examples;
  std::string date;  // newest figure's date, shown on the page

  const GpuSpec* FindGpu(std::string_view id) const;
  const ModelPreset* FindModel(std::string_view id) const;
  const FabricSpec* FindFabric(std::string_view id) const;
  const FacilityFigure* FindFacility(std::string_view id) const;
  const StorageTier* FindStorage(std::string_view id) const;
  const CloudOffer* FindOffer(std::string_view id) const;
  const ServerOption* FindServer(std::string_view id) const;
};

}  // namespace engine
