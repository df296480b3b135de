#include "cost_model.h"

#include <algorithm>
#include <cmath>

#include "scenario.h"
#include "units.h"

namespace engine {
namespace {

double Rate(const Catalog& c, const std::string& code) {
  if (code == "USD") return 1.0;
  for (const CurrencyRate& r : c.currencies) {
    if (r.code == code) return r.per_usd;
  }
  return -1;
}

double Figure(const Catalog& c, const char* id, double fallback) {
  const FacilityFigure* f = c.FindFacility(id);
  return f != nullptr && f->known ? f->value : fallback;
}

double PriceOf(const CloudOffer& o, Pricing p) {
  switch (p) {
    case Pricing::kOnDemand: return o.on_demand_per_hour;
    case Pricing::kSpot: return o.spot_per_hour;
    case Pricing::kReserved1yr: return o.reserved_1yr_per_hour;
    case Pricing::kReserved3yr: return o.reserved_3yr_per_hour;
  }
  return 0;
}



// model.md §8: u* = C_fixed / (P_cloud − C_power) per GPU-hour, and the months of
// continuous use until the rent saved covers the purchase net of resale. Without a
// rental price the months stay kNoRentalToCompare; when renting stays cheaper they are
// kNeverBreaksEven; u* is kNoBreakEvenUtilization in both cases.
void SetBreakEven(OwnCost& o, const OwnershipAssumptions& a, double cloud_per_gpu_hour, int owned_gpus) {
  if (!(cloud_per_gpu_hour > 0)) return;
  const double margin = cloud_per_gpu_hour - o.power_per_hour / owned_gpus;
  o.break_even_utilization = margin > 0 ? (o.fixed_per_hour / owned_gpus) / margin : kNoBreakEvenUtilization;
  const double monthly_gain = (cloud_per_gpu_hour * owned_gpus - o.running_per_hour - o.power_per_hour) * kHoursPerMonth;
  o.break_even_months = monthly_gain > 0 ? o.capex * (1 - a.resale_fraction) / monthly_gain : kNeverBreaksEven;
}

}  // namespace

// China's Cybersecurity Law (2017), art. 24, has network services verify their users' real
// identity; Chinese clouds ask for a Chinese ID or business licence (实名认证).
bool RentableIn(const CloudOffer& offer, const std::string& region, const std::string& currency) {
  if (region.empty()) return offer.market != Market::kCn || currency == "CNY";
  if (EnumName(kMarketNames, offer.market) == region) return true;
  return region != "cn" && offer.market == Market::kGlobal;
}

bool ProviderAllowed(const std::vector<std::string>& providers, const std::string& provider) {
  return providers.empty() || std::find(providers.begin(), providers.end(), provider) != providers.end();
}

double BilledHours(const CloudOffer& o, double used_hours) {
  // A term shorter than the offer's minimum is billed for the minimum (a capacity block's day).
  const double hours = std::max(used_hours, o.min_term_hours);
  if (o.billing_granularity == BillingGranularity::kPerSecond) return std::ceil(hours * kSecondsPerHour) / kSecondsPerHour;
  if (o.billing_granularity == BillingGranularity::kPerMinute) return std::ceil(hours * 60) / 60;
  return std::ceil(hours);
}

double Convert(const Catalog& c, double amount, const std::string& from, const std::string& to) {
  const double from_rate = Rate(c, from), to_rate = Rate(c, to);
  if (from_rate <= 0 || to_rate <= 0) return -1;
  return amount / from_rate * to_rate;
}

// Facility figures (catalog/own_hardware.json): PUE of a typical colocation facility, US
// industrial electricity, US colocation per kW-month, 4-year depreciation, resale after
// 5 years, maintenance 8%/year (model.md §8), network and storage 15% of server price.
OwnershipAssumptions AssumptionsFromCatalog(const Catalog& c) {
  OwnershipAssumptions a;
  a.pue = Figure(c, "pue-typical", a.pue);
  a.electricity_per_kwh_usd = Figure(c, "electricity-us", a.electricity_per_kwh_usd);
  a.colocation_per_kw_month_usd = Figure(c, "colocation-us", a.colocation_per_kw_month_usd);
  a.depreciation_years = Figure(c, "depreciation-years", a.depreciation_years);
  a.resale_fraction = a.depreciation_years > 4 ? Figure(c, "resale-fraction-5y", a.resale_fraction)
                                               : Figure(c, "resale-fraction-3y", 0.75) * 0.75;
  a.maintenance_rate = Figure(c, "maintenance-rate", a.maintenance_rate);
  a.network_storage_fraction = Figure(c, "network-storage-fraction", a.network_storage_fraction);
  a.install_fraction = Figure(c, "install-fraction", a.install_fraction);
  a.sustained_power_fraction = Figure(c, "sustained-power-fraction", a.sustained_power_fraction);
  return a;
}

std::vector<CloudCost> CloudOptions(const Catalog& c, const std::string& gpu_id, int gpus, double hours,
                                    const std::string& currency, const std::vector<std::string>& providers) {
  std::vector<CloudCost> out;
  for (const CloudOffer& o : c.offers) {
    if (o.gpu_id != gpu_id || !ProviderAllowed(providers, o.provider)) continue;
    const int units = o.per_gpu ? gpus : (gpus + o.gpus - 1) / o.gpus;
    // Spanning several nodes needs a cluster fabric the provider states.
    const bool multi_node = gpus > o.max_gpus;
    if (multi_node && o.fabric.empty()) continue;
    for (Pricing p : {Pricing::kOnDemand, Pricing::kSpot, Pricing::kReserved1yr, Pricing::kReserved3yr}) {
      const double price = Convert(c, PriceOf(o, p), o.currency, currency);
      if (price <= 0) continue;
      CloudCost cc;
      cc.offer = &o;
      cc.pricing = p;
      cc.units = units;
      cc.price_per_hour = units * price;
      cc.billed_hours = BilledHours(o, hours);
      cc.total = cc.price_per_hour * cc.billed_hours;
      cc.per_gpu_hour = cc.price_per_hour / (units * (o.per_gpu ? 1 : o.gpus));
      cc.within_capacity = units * (o.per_gpu ? 1 : o.gpus) <= o.capacity_gpus;
      out.push_back(cc);
    }
  }
  std::sort(out.begin(), out.end(), [](const CloudCost& x, const CloudCost& y) {
    return x.total != y.total ? x.total < y.total : x.offer->id < y.offer->id;
  });
  return out;
}

// The cheapest on-demand rental one buyer can get; when no offer has the capacity, the
// cheapest of those that would need a sales-negotiated cluster (within_capacity false).
const CloudCost* CheapestOnDemand(const std::vector<CloudCost>& options) {
  const CloudCost* over_capacity = nullptr;
  for (const CloudCost& c : options) {
    if (c.pricing != Pricing::kOnDemand) continue;
    if (c.within_capacity) return &c;
    if (over_capacity == nullptr) over_capacity = &c;
  }
  return over_capacity;
}

Message OwnPurchase(const OwnCost& o) {
  if (o.share < 1) {
    return MakeMessage(o.used ? "plan.procurement.share_used" : "plan.procurement.share_new",
                       {CountArg("gpus", o.job_gpus), CountArg("server_gpus", o.server->gpus),
                        TextArg("server", o.server->name)});
  }
  return MakeMessage(o.used ? "plan.procurement.used" : "plan.procurement.new",
                     {CountArg("servers", o.servers), TextArg("server", o.server->name)});
}

Capex OwnedCapex(double price, int servers, const OwnershipAssumptions& a) {
  Capex c;
  c.servers = servers * price;
  c.network_storage = servers > 1 ? c.servers * a.network_storage_fraction : 0;
  c.install = (c.servers + c.network_storage) * a.install_fraction;
  return c;
}

std::vector<OwnCost> OwnOptions(const Catalog& c, const OwnershipAssumptions& a, const std::string& gpu_id, int gpus,
                                double hours, const std::string& currency, double cloud_per_gpu_hour) {
  std::vector<OwnCost> out;
  const double to_currency = Convert(c, 1.0, "USD", currency);
  if (to_currency <= 0) return out;
  for (const ServerOption& s : c.servers) {
    if (s.gpu_id != gpu_id) continue;
    for (bool used : {false, true}) {
      const double price = used ? s.price_usd_used : s.price_usd_new;
      if (price <= 0) continue;
      OwnCost o;
      o.server = &s;
      o.used = used;
      o.servers = (gpus + s.gpus - 1) / s.gpus;
      o.share = gpus < s.gpus ? double(gpus) / s.gpus : 1.0;
      o.job_gpus = o.share < 1 ? gpus : o.servers * s.gpus;
      o.whole_capex = OwnedCapex(price, o.servers, a).Total();
      o.capex = o.whole_capex * o.share;
      const double kw = o.servers * s.power_kw * o.share;
      const double depreciation = o.capex * (1 - a.resale_fraction) / (a.depreciation_years * kHoursPerYear);
      const double colocation = a.colocation_per_kw_month_usd * kw * 12 / kHoursPerYear;
      const double maintenance = a.maintenance_rate * o.capex / kHoursPerYear;
      o.fixed_per_hour = (depreciation + colocation + maintenance) * to_currency;
      o.running_per_hour = (colocation + maintenance) * to_currency;
      o.power_per_hour = kw * a.sustained_power_fraction * a.pue * a.electricity_per_kwh_usd * to_currency;
      o.capex *= to_currency;
      o.whole_capex *= to_currency;
      o.job_total = (o.fixed_per_hour + o.power_per_hour) * hours;
      o.per_gpu_hour = (o.fixed_per_hour + o.power_per_hour) / o.job_gpus;
      SetBreakEven(o, a, cloud_per_gpu_hour, o.job_gpus);
      out.push_back(o);
    }
  }
  std::sort(out.begin(), out.end(), [](const OwnCost& x, const OwnCost& y) {
    return x.job_total != y.job_total ? x.job_total < y.job_total : x.server->id < y.server->id;
  });
  return out;
}

// Renting: the hourly price for the hours used. Owning: the purchase up front, then
// colocation and maintenance every hour and power for the hours used (model.md §8).
RentVsBuy RentVsBuySeries(double cloud_per_hour, const OwnCost& own, double utilization, int horizon_months) {
  RentVsBuy r;
  for (int m = 0; m <= horizon_months; ++m) {
    const double hours = m * kHoursPerMonth;
    r.months.push_back(m);
    r.rent.push_back(cloud_per_hour * hours * utilization);
    r.own.push_back(own.capex + own.running_per_hour * hours + own.power_per_hour * hours * utilization);
    r.own_net.push_back(own.fixed_per_hour * hours + own.power_per_hour * hours * utilization);
    if (!r.breaks_even && m > 0 && r.own.back() <= r.rent.back()) {
      r.breaks_even = true;
      r.break_even_month = m;
    }
  }
  return r;
}

}  // namespace engine
