// Fitting the engine's calibrated constants (engine/calibration.h) to published runs, and
// the honest error figure it makes possible: leave one source out. For every source in
// turn, the constants are refitted on all the other sources and that source's cases are
// predicted with the refit, as a run the engine has never seen would be (docs/model.md §6.10).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "engine/calibration.h"
#include "engine/catalog.h"
#include "engine/model_spec.h"
#include "engine/scenario.h"

namespace engine::validation {

struct ValidationCase;

// A published case's inputs, parsed once, predicted under any calibration.
struct CaseInputs {
  Scenario scenario;
  ParamCounts params;
  const GpuSpec* gpu = nullptr;
  const FabricSpec* fabric = nullptr;
};

// The figure the case's source measured (its metric), as the engine predicts it under
// `calibration`.
double PredictFigure(const ValidationCase& c, const CaseInputs& inputs, const Calibration& calibration);

// A case the fit may use: its record and its parsed inputs.
struct FitCase {
  const ValidationCase* record = nullptr;
  const CaseInputs* inputs = nullptr;
};

// The calibration that best predicts the asserted, measured (not threshold) cases whose
// source is not `left_out` ("" = every source): each constant in turn minimises the sum
// of |log(predicted / measured)| over the cases it moves, within its physical bounds,
// starting from the priors. A constant no case moves keeps its prior.
Calibration FitCalibration(std::span<const FitCase> cases, std::string_view left_out);

// The fitted constants by name ("gemm.hopper", "launch_overhead_fraction", ...) with
// their values, for `trainsizer calibrate` and the test that the shipped values are the fit.
struct FittedValue {
  std::string name;
  double prior = 0, fitted = 0;
  int cases = 0;  // cases that moved it (0: kept at its prior)
};
std::vector<FittedValue> DescribeFit(std::span<const FitCase> cases, const Calibration& fitted);

}  // namespace engine::validation
