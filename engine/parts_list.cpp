#include "parts_list.h"

#include <algorithm>
#include <cmath>

#include "cost_model.h"

namespace engine {
namespace {

// The catalog's gear of `kind` for `fabric`, the one with the lowest price per port among
// those priced (else the first): switches and transceivers are bought by the port.
const NetworkGear* CheapestGear(const Catalog& cat, const std::string& fabric, const std::string& kind) {
  const NetworkGear* best = nullptr;
  auto per_port = [](const NetworkGear& g) { return g.price_usd / std::max(1, g.ports); };
  for (const NetworkGear& g : cat.network_gear) {
    if (g.fabric != fabric || g.kind != kind || g.ports <= 0) continue;
    if (best == nullptr || (g.price_usd > 0 && (best->price_usd <= 0 || per_port(g) < per_port(*best)))) best = &g;
  }
  return best;
}

PartLine Line(Message item, double quantity, const char* unit, double unit_price, std::string date,
              PartRole role = PartRole::kCounted) {
  // One server, switch or transceiver is said in the singular.
  const std::string unit_id = std::string("parts.unit.") + unit + (quantity == 1 && unit != std::string("lot") ? ".one" : "");
  return {std::move(item), quantity, MakeMessage(unit_id), unit_price, quantity * unit_price, std::move(date), role};
}

// The scale-out network a cluster of `nodes` needs, one NIC port per GPU (as the bill of
// materials counts them): one switch when the ports fit its radix, else a non-blocking
// two-tier fat tree (each leaf gives half its ports to nodes and half to spines), and a
// transceiver at both ends of every link. NVIDIA's DGX SuperPOD reference architecture
// builds its compute fabric this way (rail-optimized leaves, spines with the same radix).
void AddNetwork(PartsList& parts, const std::string& fabric, int nodes, int nics_per_node, double to_currency,
                const Catalog& cat) {
  const int endpoints = nodes * nics_per_node;
  const NetworkGear* sw = CheapestGear(cat, fabric, "switch");
  if (sw == nullptr) return;
  const int half = std::max(1, sw->ports / 2);
  const int leaves = endpoints <= sw->ports ? 1 : (endpoints + half - 1) / half;
  // A spine reaches every leaf with one port: two tiers end at `ports` leaves (ports²/2
  // endpoints); past that the fabric needs a third tier, designed with the vendor.
  if (leaves > sw->ports) {
    parts.lines.push_back(Line(MakeMessage("parts.fabric_design", {TextArg("name", sw->name)}), endpoints, "port", 0, "",
                               PartRole::kWithin));
    return;
  }
  const int spines = leaves == 1 ? 0 : (leaves + 1) / 2;
  const int links = spines > 0 ? 2 * endpoints : endpoints;  // node links, and as many leaf uplinks
  Message item = spines == 0 ? MakeMessage("parts.switch.one", {TextArg("name", sw->name)})
                             : MakeMessage("parts.switch", {TextArg("name", sw->name), CountArg("leaves", leaves),
                                                            CountArg("spines", spines)});
  parts.lines.push_back(Line(std::move(item), leaves + spines, "switch", sw->price_usd * to_currency, sw->price_date,
                             PartRole::kWithin));
  parts.itemized_within += parts.lines.back().total;
  if (const NetworkGear* optic = CheapestGear(cat, fabric, "transceiver")) {
    const int ends = 2 * links;
    parts.lines.push_back(Line(MakeMessage("parts.transceiver", {TextArg("name", optic->name), CountArg("links", links)}),
                               (ends + optic->ports - 1) / optic->ports, "transceiver", optic->price_usd * to_currency,
                               optic->price_date, PartRole::kWithin));
    parts.itemized_within += parts.lines.back().total;
  }
}

double SharedStorageTb(const Estimate& e) {
  for (const BomLine& line : e.server.lines) {
    if (line.item.id == "bom.shared_storage.item") return line.quantity;
  }
  return 0;
}

PartsList OwnedParts(const Plan& p, const Scenario& s, const Estimate& e, const PlanConstraints& c,
                     const Catalog& cat) {
  PartsList parts;
  const ServerOption* server = cat.FindServer(p.procurement_id);
  const double to_currency = Convert(cat, 1.0, "USD", c.currency);
  if (server == nullptr || to_currency <= 0) return parts;
  const OwnershipAssumptions a = AssumptionsFromCatalog(cat);
  const double unit = (p.used_hardware ? server->price_usd_used : server->price_usd_new) * to_currency;
  const Capex capex = OwnedCapex(unit, p.units, a);
  parts.lines.push_back(Line(MakeMessage(p.used_hardware ? "parts.server.used" : "parts.server.new",
                                         {TextArg("server", server->name)}),
                             p.units, "server", unit, server->price_date));
  if (!server->nics.empty()) {
    parts.lines.push_back(Line(MakeMessage("parts.nics", {TextArg("nics", server->nics)}), p.units, "server", 0, "",
                               PartRole::kIncluded));
  }
  if (capex.network_storage > 0) {
    parts.allowance = capex.network_storage;
    parts.lines.push_back(
        Line(MakeMessage("parts.network_storage", {NumberArg("percent", a.network_storage_fraction * 100)}), 1, "lot",
             capex.network_storage, ""));
    AddNetwork(parts, s.parallel.network, p.units, std::min(p.layout.gpus, server->gpus), to_currency, cat);
    const StorageTier* appliance = nullptr;
    for (const StorageTier& t : cat.storage) {
      if (appliance == nullptr && t.kind == "parallel-fs" && t.scope == "per appliance") appliance = &t;
    }
    if (const double tb = SharedStorageTb(e); tb > 0 && appliance != nullptr) {
      parts.lines.push_back(Line(MakeMessage("parts.shared_storage", {TextArg("example", appliance->name)}), tb, "tb",
                                 appliance->price_usd_per_tb * to_currency, appliance->price_date, PartRole::kWithin));
    }
  }
  parts.lines.push_back(Line(MakeMessage("parts.install", {NumberArg("percent", a.install_fraction * 100)}), 1, "lot",
                             capex.install, ""));
  for (const PartLine& line : parts.lines) {
    if (line.role == PartRole::kCounted) parts.total += line.total;
  }
  return parts;
}

PartsList RentedParts(const Plan& p, const PlanConstraints& c, const Catalog& cat) {
  PartsList parts;
  const CloudOffer* offer = cat.FindOffer(p.procurement_id);
  if (offer == nullptr || p.units <= 0) return parts;
  const double hours = BilledHours(*offer, p.wall_hours);
  const double per_unit_hour = p.per_gpu_hour * p.layout.gpus / p.units;
  parts.lines.push_back(Line(p.procurement, p.units * hours, offer->gpus == 1 ? "gpu_hour" : "instance_hour",
                             per_unit_hour, offer->price_date));
  const StorageTier* s3 = cat.FindStorage("s3-standard");
  const double per_tb_month = s3 != nullptr ? Convert(cat, s3->cloud_usd_per_tb_month, "USD", c.currency) : 0;
  if (p.storage_cost > 0 && per_tb_month > 0) {
    parts.lines.push_back(Line(MakeMessage("parts.object_storage", {TextArg("name", s3->name)}),
                               p.storage_cost / per_tb_month, "tb_month", per_tb_month, s3->price_date));
  }
  for (const PartLine& line : parts.lines) parts.total += line.total;
  return parts;
}

}  // namespace

PartsList PlanParts(const Plan& plan, const Scenario& scenario, const Estimate& estimate,
                    const PlanConstraints& constraints, const Catalog& catalog) {
  return plan.own ? OwnedParts(plan, scenario, estimate, constraints, catalog)
                  : RentedParts(plan, constraints, catalog);
}

}  // namespace engine
