#include "engine/validation/validation_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "catalog/catalog_loader.h"
#include "catalog/embedded_files.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/estimate.h"

// [SECTION] index
// - running the cases: the embedded files, the estimate, the figure each source measured
// - the summary: median and worst |error| per kind and method
// - the report: text table, Markdown, JSON

namespace engine::validation {
namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] running the cases

contract::Json CasesFile(std::string_view name) {
  for (const catalog::EmbeddedFile& f : catalog::ValidationFiles()) {
    if (f.name == name) return contract::Json::parse(f.text.begin(), f.text.end(), nullptr, false)["cases"];
  }
  return contract::Json::array();
}

// The result JSON for a case's scenario against the embedded catalog (a user's overlay
// must not move published runs), or the error as "field: message".
std::string EstimateCase(const contract::Json& scenario, contract::Json* result) {
  const auto& catalog = catalog::Embedded();
  if (!catalog.ok()) return catalog.error().field + ": " + catalog.error().message;
  const auto s = contract::ScenarioFromJson(scenario, catalog.value());
  if (!s.ok()) return s.error().field + ": " + s.error().message;
  const auto estimate = engine::RunEstimate(s.value(), catalog.value());
  if (!estimate.ok()) return estimate.error().field + ": " + estimate.error().message;
  *result = contract::EstimateToJson(estimate.value());
  return "";
}

// The number the run's memory metric corresponds to in our result: model states, the
// allocator's allocated or reserved peak, or (fits_under) what the card must hold.
double PredictedMemory(const contract::Json& memory, const std::string& metric) {
  if (metric == "model_states") {
    return memory["weights_gib"].get<double>() + memory["gradients_gib"].get<double>() +
           memory["optimizer_gib"].get<double>();
  }
  if (metric == "peak_allocated") return memory["allocated_gib"].get<double>();
  if (metric == "peak_reserved") return memory["reserved_gib"].get<double>();
  return memory["per_gpu_gib"].get<double>();
}

// The figure the source measured, from our result: tokens/s/GPU, MFU, or TFLOP/s per GPU
// counted with model FLOPs or with hardware FLOPs (recomputation included).
double PredictedThroughput(const contract::Json& t, const std::string& metric) {
  const double tps = t["tokens_per_s_per_gpu"].get<double>();
  if (metric == "tokens_per_s_per_gpu") return tps;
  if (metric == "mfu") return t["mfu"].get<double>();
  if (metric == "model_tflops_per_gpu") return tps * t["flops_per_token"].get<double>() / 1e12;
  return tps * t["hardware_flops_per_token"].get<double>() / 1e12;
}

ValidationCase CaseFrom(const contract::Json& c, ValidationKind kind) {
  ValidationCase v;
  v.id = c.value("id", "");
  v.title = c.value("title", "");
  v.kind = kind;
  const contract::Json& scenario = c["scenario"];
  v.method = scenario.value("method", "full");
  v.metric = kind == ValidationKind::kMemory ? c.value("metric", "") : c.value("primary_metric", "");
  v.measured = kind == ValidationKind::kMemory ? c["measured_gib"].get<double>() : c["measured"][v.metric].get<double>();
  v.tolerance = c["tolerance"].is_number() ? c["tolerance"].get<double>() : 0;
  v.asserted = c.value("asserted", true);
  v.not_asserted_reason = c.value("not_asserted_reason", "");
  contract::Json result;
  v.error = EstimateCase(scenario, &result);
  if (v.error.empty()) {
    v.predicted = kind == ValidationKind::kMemory ? PredictedMemory(result["memory"], v.metric)
                                                  : PredictedThroughput(result["throughput"], v.metric);
  }
  return v;
}

}  // namespace

bool ValidationCase::Ok() const {
  if (!error.empty()) return false;
  if (IsThreshold()) return predicted <= measured;
  return std::fabs(RelativeError()) <= tolerance;
}

std::vector<ValidationCase> RunValidationCases() {
  std::vector<ValidationCase> out;
  const std::pair<const char*, ValidationKind> files[] = {{"memory_cases.json", ValidationKind::kMemory},
                                                          {"throughput_cases.json", ValidationKind::kThroughput}};
  for (const auto& [name, kind] : files) {
    for (const contract::Json& c : CasesFile(name)) {
      if (c.contains("skip") && !c["skip"].is_null()) continue;
      out.push_back(CaseFrom(c, kind));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// [SECTION] the summary

namespace {

ErrorStats Stats(std::vector<double> abs_errors) {
  ErrorStats s;
  s.cases = static_cast<int>(abs_errors.size());
  if (abs_errors.empty()) return s;
  std::sort(abs_errors.begin(), abs_errors.end());
  const size_t n = abs_errors.size();
  s.median_abs_error = n % 2 ? abs_errors[n / 2] : (abs_errors[n / 2 - 1] + abs_errors[n / 2]) / 2;
  s.worst_abs_error = abs_errors.back();
  return s;
}

contract::Json StatsJson(const ErrorStats& s) {
  const auto round = [](double v) { return std::round(v * 1e4) / 1e4; };
  return {{"cases", s.cases}, {"median_abs_error", round(s.median_abs_error)}, {"worst_abs_error", round(s.worst_abs_error)}};
}

}  // namespace

ValidationSummary SummarizeValidation(const std::vector<ValidationCase>& cases) {
  ValidationSummary summary;
  std::vector<double> memory, throughput, memory_asserted, throughput_asserted;
  std::map<std::string, std::vector<double>> memory_by, throughput_by;
  for (const ValidationCase& c : cases) {
    summary.asserted += c.asserted;
    summary.within_tolerance += c.asserted && c.Ok();
    if (!c.error.empty()) continue;
    if (c.IsThreshold()) {
      ++summary.fits_under_cases;
      summary.fits_under_held += c.Ok();
      continue;
    }
    const double e = std::fabs(c.RelativeError());
    const bool is_memory = c.kind == ValidationKind::kMemory;
    (is_memory ? memory : throughput).push_back(e);
    if (c.asserted) (is_memory ? memory_asserted : throughput_asserted).push_back(e);
    (is_memory ? memory_by : throughput_by)[c.method].push_back(e);
  }
  summary.memory = Stats(memory);
  summary.throughput = Stats(throughput);
  summary.memory_asserted = Stats(memory_asserted);
  summary.throughput_asserted = Stats(throughput_asserted);
  for (const auto& [method, errors] : memory_by) summary.memory_by_method[method] = Stats(errors);
  for (const auto& [method, errors] : throughput_by) summary.throughput_by_method[method] = Stats(errors);
  return summary;
}

const ValidationSummary& EmbeddedValidationSummary() {
  static const ValidationSummary summary = SummarizeValidation(RunValidationCases());
  return summary;
}

contract::Json ValidationSummaryToJson(const ValidationSummary& s) {
  auto kind = [](const ErrorStats& all, const ErrorStats& asserted, const std::map<std::string, ErrorStats>& by_method) {
    contract::Json j = StatsJson(all);
    j["asserted_only"] = StatsJson(asserted);
    j["by_method"] = contract::Json::object();
    for (const auto& [method, stats] : by_method) j["by_method"][method] = StatsJson(stats);
    return j;
  };
  return {{"memory", kind(s.memory, s.memory_asserted, s.memory_by_method)},
          {"throughput", kind(s.throughput, s.throughput_asserted, s.throughput_by_method)},
          {"fits_under", {{"cases", s.fits_under_cases}, {"held", s.fits_under_held}}},
          {"asserted", s.asserted},
          {"within_tolerance", s.within_tolerance}};
}

// ---------------------------------------------------------------------------------------
// [SECTION] the report

namespace {

std::string Printf(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A measured or predicted figure at the precision its metric is published with.
std::string Figure(const ValidationCase& c, double value) {
  if (c.kind == ValidationKind::kMemory) return Printf("%.2f", value);
  if (c.metric == "tokens_per_s_per_gpu") return Printf("%.0f", value);
  if (c.metric == "mfu") return Printf("%.3f", value);
  return Printf("%.1f", value);
}

std::string ErrorText(const ValidationCase& c) {
  if (!c.error.empty()) return "refused";
  return c.IsThreshold() ? "—" : Printf("%+.0f%%", c.RelativeError() * 100);
}

std::string ToleranceText(const ValidationCase& c) {
  return c.IsThreshold() ? "must fit" : "±" + Printf("%.0f%%", c.tolerance * 100);
}

std::string Verdict(const ValidationCase& c) {
  if (!c.error.empty()) return "ERROR " + c.error;
  if (c.IsThreshold()) return c.Ok() ? "ok (fits)" : "TOO HIGH";
  return c.Ok() ? "ok" : "OUT";
}

std::string Percent(double fraction) { return Printf("%.0f%%", fraction * 100); }

struct Section {
  ValidationKind kind;
  const char* title;
};
constexpr Section kSections[] = {{ValidationKind::kMemory, "Memory per GPU (GiB)"},
                                 {ValidationKind::kThroughput, "Throughput per GPU"}};

bool HasKind(const std::vector<ValidationCase>& cases, ValidationKind kind) {
  return std::any_of(cases.begin(), cases.end(), [&](const ValidationCase& c) { return c.kind == kind; });
}

// One row of the summary table: a metric's errors over a subset of the cases.
struct SummaryRow {
  const char* metric;
  std::string subset;
  ErrorStats errors;
};

// The summary's rows, as both reports show them: all cases, the asserted ones, and each
// method's; subsets without cases are left out.
std::vector<SummaryRow> SummaryRows(const ValidationSummary& s) {
  std::vector<SummaryRow> rows;
  auto add = [&](const char* metric, const std::string& subset, const ErrorStats& e) {
    if (e.cases > 0) rows.push_back({metric, subset, e});
  };
  add("memory", "all", s.memory);
  add("memory", "asserted", s.memory_asserted);
  for (const auto& [method, e] : s.memory_by_method) add("memory", method, e);
  add("throughput", "all", s.throughput);
  add("throughput", "asserted", s.throughput_asserted);
  for (const auto& [method, e] : s.throughput_by_method) add("throughput", method, e);
  return rows;
}

std::string TextReport(const std::vector<ValidationCase>& cases, const ValidationSummary& s) {
  std::string out;
  char line[512];
  for (const Section& section : kSections) {
    if (!HasKind(cases, section.kind)) continue;
    out += std::string(section.title) + "\n";
    std::snprintf(line, sizeof line, "%-28s %-8s %-24s %10s %10s %7s %9s  %s\n", "case", "method", "metric", "measured",
                  "predicted", "error", "tolerance", "verdict");
    out += line;
    for (const ValidationCase& c : cases) {
      if (c.kind != section.kind) continue;
      const std::string verdict =
          Verdict(c) + (c.asserted ? "" : "  [not asserted: " + c.not_asserted_reason + "]");
      std::snprintf(line, sizeof line, "%-28s %-8s %-24s %10s %10s %7s %9s  ", c.id.c_str(), c.method.c_str(),
                    c.metric.c_str(), Figure(c, c.measured).c_str(), Figure(c, c.predicted).c_str(),
                    ErrorText(c).c_str(), ToleranceText(c).c_str());
      out += line + verdict + "\n";
    }
    out += "\n";
  }
  out += "Summary (|predicted / measured − 1|)\n";
  std::snprintf(line, sizeof line, "%-12s %-9s %6s %8s %8s\n", "metric", "subset", "cases", "median", "worst");
  out += line;
  for (const SummaryRow& r : SummaryRows(s)) {
    std::snprintf(line, sizeof line, "%-12s %-9s %6d %8s %8s\n", r.metric, r.subset.c_str(), r.errors.cases,
                  Percent(r.errors.median_abs_error).c_str(), Percent(r.errors.worst_abs_error).c_str());
    out += line;
  }
  if (s.fits_under_cases > 0) {
    std::snprintf(line, sizeof line, "fits_under: the run fit on that card in %d of %d cases\n", s.fits_under_held,
                  s.fits_under_cases);
    out += line;
  }
  std::snprintf(line, sizeof line, "asserted cases within their tolerance: %d of %d\n", s.within_tolerance, s.asserted);
  return out + line;
}

std::string MarkdownReport(const std::vector<ValidationCase>& cases, const ValidationSummary& s) {
  std::string out = "| metric | subset | cases | median \\|error\\| | worst \\|error\\| |\n| --- | --- | ---: | ---: | ---: |\n";
  for (const SummaryRow& r : SummaryRows(s)) {
    out += "| " + std::string(r.metric) + " | " + r.subset + " | " + std::to_string(r.errors.cases) + " | " +
           Percent(r.errors.median_abs_error) + " | " + Percent(r.errors.worst_abs_error) + " |\n";
  }
  out += "\nError = predicted / measured − 1. Memory `fits_under` cases (the run fit on that card) are thresholds, "
         "not errors: " + std::to_string(s.fits_under_held) + " of " + std::to_string(s.fits_under_cases) +
         " held. Asserted cases within their tolerance: " + std::to_string(s.within_tolerance) + " of " +
         std::to_string(s.asserted) + ".\n";
  for (const Section& section : kSections) {
    if (!HasKind(cases, section.kind)) continue;
    out += "\n" + std::string(section.title) + ":\n\n| case | method | metric | measured | predicted | error | tolerance | "
                                               "verdict |\n| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n";
    std::string reasons;
    for (const ValidationCase& c : cases) {
      if (c.kind != section.kind) continue;
      out += "| " + c.id + " | " + c.method + " | " + c.metric + " | " + Figure(c, c.measured) + " | " +
             Figure(c, c.predicted) + " | " + ErrorText(c) + " | " + ToleranceText(c) + " | " + Verdict(c) +
             (c.asserted ? "" : " (not asserted)") + " |\n";
      if (!c.asserted) reasons += "- " + c.id + ": " + c.not_asserted_reason + "\n";
    }
    if (!reasons.empty()) out += "\nNot asserted:\n\n" + reasons;
  }
  return out;
}

contract::Json CaseJson(const ValidationCase& c) {
  contract::Json j = {{"id", c.id},
            {"title", c.title},
            {"kind", c.kind == ValidationKind::kMemory ? "memory" : "throughput"},
            {"method", c.method},
            {"metric", c.metric},
            {"measured", c.measured},
            {"predicted", std::round(c.predicted * 1e4) / 1e4},
            {"error", c.IsThreshold() || !c.error.empty() ? contract::Json(nullptr) : contract::Json(std::round(c.RelativeError() * 1e4) / 1e4)},
            {"tolerance", c.IsThreshold() ? contract::Json(nullptr) : contract::Json(c.tolerance)},
            {"ok", c.Ok()},
            {"asserted", c.asserted}};
  if (!c.asserted) j["not_asserted_reason"] = c.not_asserted_reason;
  if (!c.error.empty()) j["estimate_error"] = c.error;
  return j;
}

}  // namespace

std::string ValidationReport(const std::vector<ValidationCase>& cases, std::string_view format) {
  const ValidationSummary summary = SummarizeValidation(cases);
  if (format == "markdown") return MarkdownReport(cases, summary);
  if (format == "json") {
    contract::Json all = contract::Json::array();
    for (const ValidationCase& c : cases) all.push_back(CaseJson(c));
    return contract::Json{{"cases", all}, {"summary", ValidationSummaryToJson(summary)}}.dump(2) + "\n";
  }
  return TextReport(cases, summary);
}

}  // namespace engine::validation
