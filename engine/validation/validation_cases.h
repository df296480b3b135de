// Published training runs (catalog/validation/memory_cases.json and throughput_cases.json,
// embedded like the catalog) run through the estimate the CLI and the page use: predicted
// vs measured per case, and the error summary that `trainsizer validate` prints and the
// page can quote ("published runs like this one were within ±X%").
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/contract/json_fields.h"

namespace engine::validation {

enum class ValidationKind { kMemory, kThroughput };

// One published measurement next to our prediction for the same setup.
// The subset of the by-method tables that gathers the vision-language runs with media,
// whatever their method: the runs closest to a VLM scenario.
inline constexpr const char* kVisionLanguageSubset = "vision-language";

struct ValidationCase {
  std::string id, title;
  // The publication the case comes from ("arxiv:2104.04473", "pytorch/torchtune"): cases of
  // one source share its setup and its way of measuring, so accuracy on new runs is
  // estimated by leaving a whole source out.
  std::string source;
  ValidationKind kind = ValidationKind::kMemory;
  // memory: peak_allocated | peak_reserved | model_states (GiB per GPU) | fits_under (the
  // card it fit on, GiB); throughput: tokens_per_s_per_gpu | mfu (fraction) |
  // model_tflops_per_gpu | hardware_tflops_per_gpu.
  std::string metric;
  // How a published FLOP figure (model_tflops_per_gpu, mfu, hardware_tflops_per_gpu) counts
  // core attention: in full, as PaLM App. B and the engine do, or causal (half), as
  // Megatron-LM's num_floating_point_operations has since 2025. Case field
  // "attention_flops": "full" (default) | "causal".
  bool causal_attention_flops = false;
  std::string method;     // the scenario's method: pretrain | full | freeze | lora | qlora
  std::string framework;  // the scenario's framework: fsdp | deepspeed | megatron
  bool media = false;     // a vision-language run with images or video (the kVisionLanguageSubset)
  double measured = 0, predicted = 0;
  // Predicted by the calibration fitted on every other source (calibration_fit.h): what a
  // user should expect on a run the engine has never seen.
  double loso_predicted = 0;
  double tolerance = 0;  // relative |error| considered fair for the case; 0 for fits_under
  bool asserted = true;  // validation_test.cpp holds the case to its tolerance
  std::string not_asserted_reason;
  std::string error;  // "field: message" when the estimate refused the scenario (a bug)

  // fits_under is a threshold (the run fit on that card), not a measured amount.
  bool IsThreshold() const { return metric == "fits_under"; }
  double RelativeError() const { return predicted / measured - 1; }
  double LosoRelativeError() const { return loso_predicted / measured - 1; }
  // Within tolerance; for a threshold, predicted ≤ measured.
  bool Ok() const;
};

// Every case that is not skipped, memory then throughput, in file order, each predicted
// with the shipped calibration and with the one fitted without its source.
std::vector<ValidationCase> RunValidationCases();

// The calibration fitted on every case: {"gemm.hopper": {"prior", "fitted", "shipped", "cases"}, ...}
// for each constant some case moves (`trainsizer calibrate`; engine/calibration.cpp ships it).
contract::Json CalibrationFitJson();

struct ErrorStats {
  int cases = 0;
  int sources = 0;              // publications the cases come from
  double median_abs_error = 0;  // relative: 0.08 = 8%
  double worst_abs_error = 0;
  double within_20_percent = 0;  // share of the cases with |error| ≤ 20%
  double within_25_percent = 0;
};

// Error statistics over the cases with a measured amount (thresholds are counted apart),
// for memory and throughput, per method, and over the asserted cases alone (those whose
// setup the scenario contract can express; the others say why in their files).
struct ValidationSummary {
  ErrorStats memory, throughput;
  // Every case predicted with the constants fitted on the other sources: the figures to
  // quote for runs the engine has not seen (in total and per method).
  ErrorStats memory_loso, throughput_loso;
  std::map<std::string, ErrorStats> memory_loso_by_method, throughput_loso_by_method;
  // The same per framework, and per "method/framework" ("lora/deepspeed"): the page
  // quotes the closest subset with enough runs.
  std::map<std::string, ErrorStats> memory_loso_by_framework, throughput_loso_by_framework;
  std::map<std::string, ErrorStats> memory_loso_by_method_framework, throughput_loso_by_method_framework;
  ErrorStats memory_asserted, throughput_asserted;
  std::map<std::string, ErrorStats> memory_by_method, throughput_by_method;
  int fits_under_cases = 0, fits_under_held = 0;
  int asserted = 0, within_tolerance = 0;
};

ValidationSummary SummarizeValidation(const std::vector<ValidationCase>& cases);

// The summary of every embedded case against the embedded catalog, computed on first use
// and immutable after: the page quotes it next to its figures, the CLI and JS API as JSON.
const ValidationSummary& EmbeddedValidationSummary();

// {"memory": {cases, sources, median_abs_error, worst_abs_error, within_20_percent,
// within_25_percent, asserted_only: {...}, by_method: {...}, leave_one_source_out: {...,
// by_method: {...}, by_framework: {...}, by_method_framework: {...}}}, "throughput": {...},
// "fits_under": {cases, held}, "asserted",
// "within_tolerance"}.
contract::Json ValidationSummaryToJson(const ValidationSummary& summary);

// The report as `format`: table (plain text), markdown or json (cases and summary).
std::string ValidationReport(const std::vector<ValidationCase>& cases, std::string_view format);

}  // namespace engine::validation
