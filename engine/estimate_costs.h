// What the estimated job costs, computed once with the estimate: renting the cheapest
// on-demand catalog offer for its hours, the job's share of owning the cheapest catalog
// servers, cumulative rent vs buy month by month, and object storage while renting
// (model.md §8). The page's summary cards and rent-vs-buy chart only format these.
#pragma once

#include <optional>
#include <string>

#include "catalog.h"
#include "cost_model.h"
#include "model_spec.h"
#include "scenario.h"

namespace engine {

// The plan goal's figures that costs depend on (PlanConstraints carries the same two).
struct CostBasis {
  std::string currency = "USD";                     // the catalog's rates are USD-based
  double own_utilization = kDefaultOwnUtilization;  // share of wall-clock hours owned GPUs run
  std::string region;  // where it is rented (cost_model.h RentableIn); empty = anywhere
};

// Months the rent-vs-buy comparison runs over: four years, the depreciation period.
inline constexpr int kRentVsBuyHorizonMonths = 48;

struct EstimateCosts {
  CostBasis basis;
  // The hours priced: the job's wall time with failures and checkpoints, or 1 when no
  // tokens are given (the figures are then per hour).
  double hours = 0;
  // The cheapest on-demand offer for `hours` (billing granularity included); none when
  // the catalog rents this GPU in no such count.
  std::optional<CloudCost> rent;
  // The cheapest servers to buy (OwnOptions' first), with the break-even against
  // `hourly_rent`; none when the catalog sells no server for this GPU.
  std::optional<OwnCost> own;
  OwnershipAssumptions assumptions;  // the catalog's facility figures `own` was priced with
  double own_share_per_hour = 0;     // OwnSharePerHour(own, utilization)
  double own_share = 0;              // × hours
  // The cheapest on-demand offer per hour, which the rent-vs-buy series rents; it can
  // differ from `rent`, which is cheapest for the job's billed hours.
  std::optional<CloudCost> hourly_rent;
  // Renting `hourly_rent` vs buying `own`, both used at the basis' utilization; only when
  // both exist.
  std::optional<RentVsBuy> rent_vs_buy;
  double storage_per_hour = 0;  // object storage for data and checkpoints while renting
  double storage_cost = 0;      // × hours
};

// Object storage while renting: the tokenized dataset, three resumable checkpoints, one
// 16-bit copy of the weights, at the catalog's S3 Standard price (0 without one).
double CloudStoragePerHour(const Scenario& scenario, const ParamCounts& params, const Catalog& catalog,
                           const std::string& currency);

// The costs of running `scenario` for `hours` on its GPUs and GPU count.
EstimateCosts EstimateJobCosts(const Scenario& scenario, const ParamCounts& params, double hours,
                               const Catalog& catalog, const CostBasis& basis);

}  // namespace engine
