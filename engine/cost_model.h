// What a plan costs: renting (catalog cloud offers, billed at their granularity, on-demand,
// spot or reserved) and owning (servers, network, storage, installation, power × PUE ×
// electricity, colocation, maintenance, depreciation and resale), plus the break-even
// point where buying beats renting (model.md §8). All amounts in the chosen currency.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "catalog.h"
#include "message.h"

namespace engine {

// Break-even figures that are not a number of months or a utilization: renting stays
// cheaper forever (+∞), or there was no rental price to compare with (NaN). Never 0,
// which is a real break-even: the JSON writes them as null (plan_json.cpp).
inline constexpr double kNeverBreaksEven = std::numeric_limits<double>::infinity();
inline constexpr double kNoRentalToCompare = std::numeric_limits<double>::quiet_NaN();
// A break-even utilization beyond any: finite, far above 1 (full use).
inline constexpr double kNoBreakEvenUtilization = std::numeric_limits<double>::max();
// True when break_even_months (OwnCost, Plan) is a number: buying pays back against the
// rental it was compared with.
inline bool BreaksEven(double break_even_months) { return std::isfinite(break_even_months); }
// False when no rental price was given, so "never" would be wrong: there is no comparison.
inline bool HasRentalToCompare(double break_even_months) { return !std::isnan(break_even_months); }

// Owned hardware is paid whether busy or not, so the share of wall-clock hours it runs sets
// what a job's hour costs: 70% is a well-run shared cluster [A] (model.md §8).
inline constexpr double kDefaultOwnUtilization = 0.7;

enum class Pricing { kOnDemand, kSpot, kReserved1yr, kReserved3yr };
inline constexpr std::array<std::string_view, 4> kPricingNames = {"on-demand", "spot", "reserved-1yr", "reserved-3yr"};

struct CloudCost {
  const CloudOffer* offer = nullptr;
  Pricing pricing = Pricing::kOnDemand;
  int units = 0;                 // instances (or single GPUs) rented
  double price_per_hour = 0;     // all units, in the target currency
  double billed_hours = 0;       // rounded up to the billing granularity
  double total = 0;              // price_per_hour × billed_hours
  double per_gpu_hour = 0;
  bool within_capacity = true;   // one buyer can rent this many of the offer's GPUs (capacity_gpus)
};

struct OwnCost {
  const ServerOption* server = nullptr;
  bool used = false;             // bought second-hand
  int servers = 0;
  // The share of the servers' GPUs the job is charged for: a job smaller than one server
  // (1 GPU of an 8-GPU HGX) is priced as its GPUs' share of that server, the rest serving
  // other work, not as the whole server; 1 otherwise. Every figure below is that share's.
  double share = 1;
  int job_gpus = 0;              // the GPUs the share holds (share × the server's GPUs)
  double capex = 0;              // servers + network/storage share + installation
  double whole_capex = 0;        // the whole servers' purchase price (capex / share)
  double fixed_per_hour = 0;     // depreciation net of resale + colocation + maintenance, per wall-clock hour
  double power_per_hour = 0;     // electricity × PUE while running
  double running_per_hour = 0;   // colocation + maintenance, paid whether busy or not
  double job_total = 0;          // (fixed + power) × job hours: the job's share of owning
  double per_gpu_hour = 0;       // fixed + power, per GPU-hour at full utilization
  // u* = fixed / (cloud − power): > 1 = only past full use. Always finite (the planner
  // drops plans with a non-finite figure): kNoBreakEvenUtilization when power alone costs
  // more than the rental or there is no rental price; break_even_months tells which.
  double break_even_utilization = kNoBreakEvenUtilization;
  // Months of continuous use until the rent saved pays for the purchase net of resale: a
  // finite number when it does (0 would be a real "from the first month"), kNeverBreaksEven
  // when renting stays cheaper however long the servers run, kNoRentalToCompare when no
  // rental price was given. Plan copies it as is; test it with BreaksEven/HasRentalToCompare.
  double break_even_months = kNoRentalToCompare;
};

// What buying `servers` servers at `price` each costs (model.md §8.2): the servers, the
// network-and-storage share of a cluster of more than one, and installation on both.
struct Capex {
  double servers = 0, network_storage = 0, install = 0;
  double Total() const { return servers + network_storage + install; }
};

// A job's share of owning `own` per hour it runs: the fixed costs (depreciation,
// colocation, maintenance) run whether the GPUs are busy or not, so a job carries them
// divided by the utilization, plus the power it draws (model.md §8). The planner prices
// owned plans and the estimate its own-it figure with this one rule.
inline double OwnSharePerHour(const OwnCost& own, double utilization) {
  return own.fixed_per_hour / utilization + own.power_per_hour;
}

// Ownership assumptions, read from the catalog's facility figures (with defaults when a
// figure is missing) and editable by the user.
struct OwnershipAssumptions {
  double pue = 1.4;
  double electricity_per_kwh_usd = 0.081;
  double colocation_per_kw_month_usd = 184;
  double depreciation_years = 4;
  double resale_fraction = 0.55;        // after the depreciation period
  double maintenance_rate = 0.08;       // of purchase price per year
  double network_storage_fraction = 0.15;  // of server price, multi-node clusters
  double install_fraction = 0.02;       // of hardware price
  double sustained_power_fraction = 0.7;   // average draw / max power
};

OwnershipAssumptions AssumptionsFromCatalog(const Catalog& catalog);

Capex OwnedCapex(double price, int servers, const OwnershipAssumptions& a);

// Hours billed for `hours` of use of `offer`: at least its minimum term (a capacity
// block's day), at its granularity (per second, minute or started hour; unknown
// granularity is billed by the started hour, the common default).
double BilledHours(const CloudOffer& offer, double hours);

// A region rents where it is: its own market and, outside China, global marketplaces.
// A team in China rents from Chinese clouds (data and payment stay there). With no region,
// anywhere, except China's clouds unless the goal is priced in CNY: they rent only to
// accounts that pass real-name verification with a Chinese ID or business licence.
bool RentableIn(const CloudOffer& offer, const std::string& region, const std::string& currency);

// Export rules govern buying new parts, not renting what Chinese clouds have installed: a
// team in China ("cn") cannot buy a GPU export-restricted for China, anyone else can.
inline bool BuyableIn(const GpuSpec& gpu, const std::string& region) {
  return !(region == "cn" && gpu.export_restricted_cn);
}

// Whether `provider` is among `providers` (empty: every provider is).
bool ProviderAllowed(const std::vector<std::string>& providers, const std::string& provider);

// Converts `amount` in `from` to `to` with the catalog's rates (USD-based); returns a
// negative number when a rate is missing.
double Convert(const Catalog& catalog, double amount, const std::string& from, const std::string& to);

// The cheapest way to rent `gpus` GPUs of `gpu_id` for `hours` with `pricing`, among the
// offers whose provider is allowed (empty list = all). None when no offer fits.
std::vector<CloudCost> CloudOptions(const Catalog& catalog, const std::string& gpu_id, int gpus, double hours,
                                    const std::string& currency, const std::vector<std::string>& providers);

// Cumulative cash out over time for renting vs buying the same GPUs, used at
// `utilization` (share of wall-clock hours the GPUs run), month by month.
// `own` is the cash paid (the purchase up front, then running costs); `own_net` subtracts
// what the servers would still sell for, their value falling straight-line to the resale
// fraction over the depreciation years: the same accounting as OwnSharePerHour, so the
// net line is below the rent line exactly when the job's share of owning is below renting.
struct RentVsBuy {
  std::vector<double> months, rent, own, own_net;  // cumulative amounts
  bool breaks_even = false;               // own ≤ rent in some month of the horizon
  double break_even_month = 0;            // that first month (≥ 1) when breaks_even, else 0
};
RentVsBuy RentVsBuySeries(double cloud_per_hour, const OwnCost& own, double utilization, int horizon_months);

// The cheapest on-demand option of CloudOptions' result (sorted by cost) within its offer's
// capacity, else the cheapest beyond it (a sales-negotiated cluster), or nullptr.
const CloudCost* CheapestOnDemand(const std::vector<CloudCost>& options);

// What is bought, in words: "4× HGX H100 8-GPU (new)", or for a share "1 of the 8 GPUs of
// one HGX H100 8-GPU (new)".
Message OwnPurchase(const OwnCost& own);

// Buying enough catalog servers of `gpu_id` for `gpus` GPUs, compared with a cloud
// price per GPU-hour for the break-even.
std::vector<OwnCost> OwnOptions(const Catalog& catalog, const OwnershipAssumptions& a, const std::string& gpu_id,
                                int gpus, double hours, const std::string& currency, double cloud_per_gpu_hour);

}  // namespace engine
