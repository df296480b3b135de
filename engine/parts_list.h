// A plan's purchase or rental item by item, each with its catalog price and that price's
// date: the proposal's "parts and prices" (model.md §8.4). An owned cluster's counted lines
// add up to the plan's purchase price as the cost model prices it (servers, the network and
// storage allowance of a multi-node cluster, installation: cost_model.cpp OwnOptions), with
// the switches, transceivers and shared storage the allowance stands for itemized under it;
// a rental's add up to the plan's cost (instance-hours and object storage).
#pragma once

#include <string>
#include <vector>

#include "catalog.h"
#include "estimate.h"
#include "message.h"
#include "planner.h"
#include "scenario.h"

namespace engine {

enum class PartRole {
  kCounted,   // part of the total
  kWithin,    // itemized inside the allowance line above it (not added again)
  kIncluded,  // shipped in the server, inside its price
};

struct PartLine {
  Message item;            // a catalog name in a sentence: "NVIDIA Quantum-2 QM9700 ... switch"
  double quantity = 0;
  Message unit;            // "servers", "switches", "GPU-hours", ...
  double unit_price = 0;   // in the plan's currency; 0 = not in the catalog: ask for a quote
  double total = 0;        // quantity × unit price (an allowance: its amount)
  std::string price_date;  // when the catalog's price was seen
  PartRole role = PartRole::kCounted;
};

struct PartsList {
  std::vector<PartLine> lines;
  double total = 0;          // of the counted lines: the plan's purchase price, or its rental cost
  double allowance = 0;      // owned clusters: the network and storage allowance
  double itemized_within = 0;  // the switches and transceivers priced within it, to compare with it
};

// `scenario` is the plan's own (its layout adopted) and `estimate` its estimate, whose bill
// of materials gives the shared storage's size.
PartsList PlanParts(const Plan& plan, const Scenario& scenario, const Estimate& estimate,
                    const PlanConstraints& constraints, const Catalog& catalog);

}  // namespace engine
