// Error bars from the validation set: how close the engine came on published runs like
// the one on screen ("memory: typically within ±3%, 7 published full fine-tunes").
#pragma once

#include <string>

#include "engine/scenario.h"

namespace ui {

enum class AccuracyMetric { kMemory, kThroughput };

// One sentence for the page, in the current language, quoting the published runs closest
// to the scenario (same method and framework, else same method, else all) as predicted
// with their source left out of the calibration; empty if no run backs it.
std::string AccuracyNote(AccuracyMetric metric, const engine::Training& training, engine::Framework framework);

// A predicted throughput with the error bar AccuracyNote quotes for speed: the prediction
// times 1 ∓ the median error of the same published runs (each predicted with its source
// left out). `cases` 0: no run backs it, and low = high = the prediction.
struct SpeedRange {
  double low_tokens_per_s = 0;
  double high_tokens_per_s = 0;
  double median_error = 0;  // relative: 0.15 = ±15%
  int cases = 0;
};
SpeedRange PredictedSpeedRange(double predicted_tokens_per_s, const engine::Training& training,
                               engine::Framework framework);

}  // namespace ui
