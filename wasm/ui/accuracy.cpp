#include "accuracy.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "engine/scenario_fields.h"
#include "engine/validation/validation_cases.h"
#include "i18n.h"

namespace ui {
namespace {

// The validation set's name for the training's method: the post-training method, else
// the update kind.
std::string MethodKey(const engine::Training& t) {
  if (t.post.kind != engine::PostTraining::kNone) return std::string(engine::EnumName(engine::kPostTrainingNames, t.post.kind));
  return std::string(engine::EnumName(engine::kMethodNames, t.method));
}

// How a sentence names the runs of a method ("7 published full fine-tuning runs").
const char* MethodRuns(const engine::Training& t) {
  switch (t.post.kind) {
    case engine::PostTraining::kNone: break;
    case engine::PostTraining::kDpo: return "DPO";
    case engine::PostTraining::kOrpo: return "ORPO";
    case engine::PostTraining::kSimpo: return "SimPO";
    case engine::PostTraining::kKto: return "KTO";
    case engine::PostTraining::kPpo: return "PPO";
    case engine::PostTraining::kGrpo: return "GRPO";
  }
  switch (t.method) {
    case engine::Method::kPretrain: return T("pre-training");
    case engine::Method::kFull: return T("full fine-tuning");
    case engine::Method::kFreeze: return T("freeze-tuning");
    case engine::Method::kLora: return T("LoRA");
    case engine::Method::kQlora: return T("QLoRA");
  }
  return "";
}

// The framework as its users call it: the form's label (a product name, the same in
// every language).
const char* FrameworkName(engine::Framework framework) {
  const engine::ScenarioField* field = engine::FindScenarioField("framework");
  return field->choice_labels[static_cast<size_t>(framework)];
}

// Which runs a note quotes: the closest subset with at least this many.
constexpr int kMinRuns = 3;
enum class Subset { kVisionLanguage, kMethodAndFramework, kMethod, kAll };

// The stats a note quotes: runs of the same method and framework when there are a few,
// else of the same method, else every run of the metric; each run predicted with its
// source left out of the calibration (what to expect on a run the engine has not seen,
// docs/model.md §6.10).
const engine::validation::ErrorStats& Basis(AccuracyMetric metric, const engine::Training& training,
                                            engine::Framework framework, Subset* subset) {
  const engine::validation::ValidationSummary& summary = engine::validation::EmbeddedValidationSummary();
  const bool memory = metric == AccuracyMetric::kMemory;
  const std::string method_name = MethodKey(training);
  const std::string framework_name(engine::EnumName(engine::kFrameworkNames, framework));
  const auto& by_method = memory ? summary.memory_loso_by_method : summary.throughput_loso_by_method;
  // A vision-language run with images or video is closest to the others like it, whatever
  // their method: the tower and the media tokens are what sets them apart.
  if (training.media.HasMedia()) {
    const auto it = by_method.find(engine::validation::kVisionLanguageSubset);
    if (it != by_method.end() && it->second.cases >= kMinRuns) {
      *subset = Subset::kVisionLanguage;
      return it->second;
    }
  }
  const auto& pairs =
      memory ? summary.memory_loso_by_method_framework : summary.throughput_loso_by_method_framework;
  if (const auto it = pairs.find(method_name + "/" + framework_name); it != pairs.end() && it->second.cases >= kMinRuns) {
    *subset = Subset::kMethodAndFramework;
    return it->second;
  }
  if (const auto it = by_method.find(method_name); it != by_method.end() && it->second.cases >= kMinRuns) {
    *subset = Subset::kMethod;
    return it->second;
  }
  *subset = Subset::kAll;
  return memory ? summary.memory_loso : summary.throughput_loso;
}

}  // namespace

std::string AccuracyNote(AccuracyMetric metric, const engine::Training& training, engine::Framework framework) {
  Subset subset = Subset::kAll;
  const engine::validation::ErrorStats& basis = Basis(metric, training, framework, &subset);
  const int cases = basis.cases;
  if (cases == 0) return "";
  const double median_percent = basis.median_abs_error * 100;
  const bool memory = metric == AccuracyMetric::kMemory;
  char text[320];
  switch (subset) {
    case Subset::kAll:
      std::snprintf(text, sizeof text,
                    memory ? T("Memory predictions were typically within ±%.0f%% of %d published runs, each predicted without its source in the calibration (median error).")
                           : T("Speed predictions were typically within ±%.0f%% of %d published runs, each predicted without its source in the calibration (median error)."),
                    median_percent, cases);
      break;
    case Subset::kMethod:
      std::snprintf(text, sizeof text,
                    memory ? T("Memory predictions were typically within ±%.0f%% of %d published %s runs like this one, each predicted without its source in the calibration (median error).")
                           : T("Speed predictions were typically within ±%.0f%% of %d published %s runs like this one, each predicted without its source in the calibration (median error)."),
                    median_percent, cases, MethodRuns(training));
      break;
    case Subset::kVisionLanguage:
      std::snprintf(text, sizeof text,
                    memory ? T("Memory predictions were typically within ±%.0f%% of %d published vision-language runs with images or video, each predicted without its source in the calibration (median error).")
                           : T("Speed predictions were typically within ±%.0f%% of %d published vision-language runs with images or video, each predicted without its source in the calibration (median error)."),
                    median_percent, cases);
      break;
    case Subset::kMethodAndFramework:
      std::snprintf(text, sizeof text,
                    memory ? T("Memory predictions were typically within ±%.0f%% of %d published %s runs on %s like this one, each predicted without its source in the calibration (median error).")
                           : T("Speed predictions were typically within ±%.0f%% of %d published %s runs on %s like this one, each predicted without its source in the calibration (median error)."),
                    median_percent, cases, MethodRuns(training), FrameworkName(framework));
      break;
  }
  return text;
}

SpeedRange PredictedSpeedRange(double predicted_tokens_per_s, const engine::Training& training,
                               engine::Framework framework) {
  Subset subset = Subset::kAll;
  const engine::validation::ErrorStats& basis = Basis(AccuracyMetric::kThroughput, training, framework, &subset);
  SpeedRange range{predicted_tokens_per_s, predicted_tokens_per_s, 0, basis.cases};
  if (basis.cases == 0) return range;
  range.median_error = basis.median_abs_error;
  range.low_tokens_per_s = predicted_tokens_per_s * std::max(0.0, 1 - basis.median_abs_error);
  range.high_tokens_per_s = predicted_tokens_per_s * (1 + basis.median_abs_error);
  return range;
}

}  // namespace ui
