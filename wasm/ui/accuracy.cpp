#include "accuracy.h"

#include <cstdio>

#include "catalog/codec/api.h"
#include "catalog/codec/json_fields.h"
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

}  // namespace

std::string AccuracyNote(AccuracyMetric metric, engine::Method method) {
  // Computed once: the summary runs every published case through the engine.
  static const catalog::Json summary = catalog::Json::parse(api::ValidationSummaryJson(), nullptr, false);
  const char* key = metric == AccuracyMetric::kMemory ? "memory" : "throughput";
  if (!summary.is_object() || !summary.contains(key)) return "";
  const catalog::Json& all = summary[key];
  const std::string method_name(engine::EnumName(engine::kMethodNames, method));
  // Runs of the same method when there are a few; otherwise every run of this metric.
  const catalog::Json* basis = &all;
  if (all.contains("by_method") && all["by_method"].contains(method_name) &&
      all["by_method"][method_name].value("cases", 0) >= 3) {
    basis = &all["by_method"][method_name];
  }
  const int cases = basis->value("cases", 0);
  if (cases == 0) return "";
  const double median_percent = basis->value("median_abs_error", 0.0) * 100;
  char text[240];
  if (basis == &all) {
    std::snprintf(text, sizeof text,
                  metric == AccuracyMetric::kMemory
                      ? T("Memory predictions were typically within ±%.0f%% of %d published runs (median error).")
                      : T("Speed predictions were typically within ±%.0f%% of %d published runs (median error)."),
                  median_percent, cases);
  } else {
    std::snprintf(text, sizeof text,
                  metric == AccuracyMetric::kMemory
                      ? T("Memory predictions were typically within ±%.0f%% of %d published %s runs like this one (median error).")
                      : T("Speed predictions were typically within ±%.0f%% of %d published %s runs like this one (median error)."),
                  median_percent, cases, MethodRuns(method));
  }
  return text;
}

}  // namespace ui
