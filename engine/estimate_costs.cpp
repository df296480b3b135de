#include "estimate_costs.h"

#include <algorithm>

#include "reliability.h"
#include "units.h"

namespace engine {
namespace {

// The cheapest on-demand rental of the scenario's GPUs for `hours`, from any provider.
std::optional<CloudCost> CheapestRental(const Scenario& s, double hours, const Catalog& catalog,
                                        const CostBasis& basis) {
  auto offers = CloudOptions(catalog, s.gpu_id, s.parallel.gpus, hours, basis.currency, {});
  std::erase_if(offers, [&](const CloudCost& c) { return !RentableIn(*c.offer, basis.region, basis.currency); });
  const CloudCost* cheapest = CheapestOnDemand(offers);
  if (cheapest == nullptr) return std::nullopt;
  return *cheapest;
}

// Buying: the cheapest servers (OwnOptions sorts them), compared with `hourly_rent` for
// the break-even, as the planner compares its owned plans with the cheapest rental.
void PriceOwning(const Scenario& s, const Catalog& catalog, EstimateCosts& costs) {
  costs.assumptions = AssumptionsFromCatalog(catalog);
  const GpuSpec* gpu = catalog.FindGpu(s.gpu_id);
  if (gpu == nullptr || !BuyableIn(*gpu, costs.basis.region)) return;
  const int gpus = s.parallel.gpus;
  const double cloud_per_gpu_hour = costs.hourly_rent ? costs.hourly_rent->price_per_hour / gpus : 0;
  const auto own =
      OwnOptions(catalog, costs.assumptions, s.gpu_id, gpus, 1.0, costs.basis.currency, cloud_per_gpu_hour);
  if (own.empty()) return;
  costs.own = own.front();
  costs.own_share_per_hour = OwnSharePerHour(*costs.own, costs.basis.own_utilization);
  costs.own_share = costs.own_share_per_hour * costs.hours;
}

}  // namespace

// Object storage while renting: the tokenized dataset (2 or 4 B per token), three
// resumable checkpoints of the size the estimate writes (CheckpointBytes: the optimizer
// state for full training, only the adapters for LoRA) and one 16-bit copy of the weights
// (the base model a fine-tune starts from, or the exported result), at the catalog's S3
// Standard price per TB-month (730 hours).
double CloudStoragePerHour(const Scenario& s, const ParamCounts& c, const Catalog& cat, const std::string& currency) {
  const StorageTier* s3 = cat.FindStorage("s3-standard");
  if (s3 == nullptr || s3->cloud_usd_per_tb_month <= 0) return 0;
  const double dataset = TrainingTokens(s.training) / std::max(1.0, s.training.epochs) * TokenBytes(s.model);
  const double terabytes = (dataset + 3 * CheckpointBytes(s, c) + ExportBytes(c)) / 1e12;
  return std::max(0.0, Convert(cat, terabytes * s3->cloud_usd_per_tb_month / kHoursPerMonth, "USD", currency));
}

EstimateCosts EstimateJobCosts(const Scenario& s, const ParamCounts& params, double hours, const Catalog& catalog,
                               const CostBasis& basis) {
  EstimateCosts costs;
  costs.basis = basis;
  costs.hours = hours;
  costs.rent = CheapestRental(s, hours, catalog, basis);
  costs.hourly_rent = CheapestRental(s, 1.0, catalog, basis);
  PriceOwning(s, catalog, costs);
  if (costs.hourly_rent && costs.own) {
    costs.rent_vs_buy = RentVsBuySeries(costs.hourly_rent->price_per_hour, *costs.own, basis.own_utilization,
                                        kRentVsBuyHorizonMonths);
  }
  costs.storage_per_hour = CloudStoragePerHour(s, params, catalog, basis.currency);
  costs.storage_cost = costs.storage_per_hour * hours;
  return costs;
}

}  // namespace engine
