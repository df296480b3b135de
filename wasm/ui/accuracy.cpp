#include "accuracy.h"

#include <cstdio>

#include "engine/validation/validation_cases.h"
#include "i18n.h"

namespace ui {
namespace {

// How a sentence names the runs of a method ("7 published full fine-tuning runs").
const char* MethodRuns(engine::Method method) {
  switch (method) {
    case engine::Method::kPretrain: return T("pre-training");
    case engine::Method::kFull: return T("full fine-tuning");
    case engine::Method::kFreeze: return T("freeze-tuning");
    case engine::Method::kLora: return T("LoRA");
    case engine::Method::kQlora: return T("QLoRA");
  }
  return "";
}

// The stats a note quotes: runs of the same method when there are a few, otherwise every
// run of the metric; each run predicted with its source left out of the calibration (what
// to expect on a run the engine has not seen, docs/model.md §6.10).
const engine::validation::ErrorStats& Basis(AccuracyMetric metric, engine::Method method, bool* same_method) {
  const engine::validation::ValidationSummary& summary = engine::validation::EmbeddedValidationSummary();
  const bool memory = metric == AccuracyMetric::kMemory;
  const auto& by_method = memory ? summary.memory_loso_by_method : summary.throughput_loso_by_method;
  const auto it = by_method.find(std::string(engine::EnumName(engine::kMethodNames, method)));
  *same_method = it != by_method.end() && it->second.cases >= 3;
  if (*same_method) return it->second;
  return memory ? summary.memory_loso : summary.throughput_loso;
}

}  // namespace

std::string AccuracyNote(AccuracyMetric metric, engine::Method method) {
  bool same_method = false;
  const engine::validation::ErrorStats& basis = Basis(metric, method, &same_method);
  const int cases = basis.cases;
  if (cases == 0) return "";
  const double median_percent = basis.median_abs_error * 100;
  char text[240];
  if (!same_method) {
    std::snprintf(text, sizeof text,
                  metric == AccuracyMetric::kMemory
                      ? T("Memory predictions were typically within ±%.0f%% of %d published runs, each predicted without its source in the calibration (median error).")
                      : T("Speed predictions were typically within ±%.0f%% of %d published runs, each predicted without its source in the calibration (median error)."),
                  median_percent, cases);
  } else {
    std::snprintf(text, sizeof text,
                  metric == AccuracyMetric::kMemory
                      ? T("Memory predictions were typically within ±%.0f%% of %d published %s runs like this one, each predicted without its source in the calibration (median error).")
                      : T("Speed predictions were typically within ±%.0f%% of %d published %s runs like this one, each predicted without its source in the calibration (median error)."),
                  median_percent, cases, MethodRuns(method));
  }
  return text;
}

}  // namespace ui
