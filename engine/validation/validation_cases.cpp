#include "engine/validation/validation_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "catalog/catalog_loader.h"
#include "catalog/embedded_files.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/estimate.h"
#include "engine/validation/calibration_fit.h"

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

// The case's inputs against the embedded catalog (a user's overlay must not move published
// runs), or why the engine refuses them as "field: message" (a bug: every case is a valid
// scenario). The full estimate runs once, so a case also passes every check a user's does.
std::string PrepareCase(const contract::Json& scenario, CaseInputs* inputs) {
  const auto& catalog = catalog::Embedded();
  if (!catalog.ok()) return catalog.error().field + ": " + catalog.error().message;
  const auto s = contract::ScenarioFromJson(scenario, catalog.value());
  if (!s.ok()) return s.error().field + ": " + s.error().message;
  const auto estimate = engine::RunEstimate(s.value(), catalog.value());
  if (!estimate.ok()) return estimate.error().field + ": " + estimate.error().message;
  inputs->scenario = s.value();
  inputs->params = estimate.value().params;
  inputs->gpu = catalog.value().FindGpu(s.value().gpu_id);
  inputs->fabric = catalog.value().FindFabric(s.value().parallel.network);
  return "";
}

ValidationCase CaseFrom(const contract::Json& c, ValidationKind kind, CaseInputs* inputs) {
  ValidationCase v;
  v.id = c.value("id", "");
  v.title = c.value("title", "");
  v.source = c.value("source_id", "");
  v.kind = kind;
  const contract::Json& scenario = c["scenario"];
  v.method = scenario.value("method", "full");
  v.framework = scenario.value("framework", "fsdp");
  v.metric = kind == ValidationKind::kMemory ? c.value("metric", "") : c.value("primary_metric", "");
  v.measured = kind == ValidationKind::kMemory ? c["measured_gib"].get<double>() : c["measured"][v.metric].get<double>();
  v.tolerance = c["tolerance"].is_number() ? c["tolerance"].get<double>() : 0;
  v.causal_attention_flops = c.value("attention_flops", "full") == "causal";
  v.asserted = c.value("asserted", true);
  v.not_asserted_reason = c.value("not_asserted_reason", "");
  v.error = PrepareCase(scenario, inputs);
  v.media = v.error.empty() && inputs->scenario.training.media.HasMedia();
  if (v.error.empty()) v.predicted = PredictFigure(v, *inputs, ShippedCalibration());
  return v;
}

// The cases paired with their inputs, as the fit takes them.
std::vector<FitCase> FitCasesOf(const std::vector<ValidationCase>& cases, const std::vector<CaseInputs>& inputs) {
  std::vector<FitCase> out;
  for (size_t i = 0; i < cases.size(); ++i) out.push_back({&cases[i], &inputs[i]});
  return out;
}

// Each case predicted by the calibration fitted without its source.
void PredictLeavingOneSourceOut(std::vector<ValidationCase>& cases, const std::vector<CaseInputs>& inputs) {
  const std::vector<FitCase> fit_cases = FitCasesOf(cases, inputs);
  std::map<std::string, Calibration> by_source;
  for (const ValidationCase& c : cases) {
    if (!c.error.empty()) continue;
    if (!by_source.contains(c.source)) by_source.emplace(c.source, FitCalibration(fit_cases, c.source));
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].error.empty()) cases[i].loso_predicted = PredictFigure(cases[i], inputs[i], by_source[cases[i].source]);
  }
}

}  // namespace

bool ValidationCase::Ok() const {
  if (!error.empty()) return false;
  if (IsThreshold()) return predicted <= measured;
  return std::fabs(RelativeError()) <= tolerance;
}

namespace {

// Every case that is not skipped, with its parsed inputs (same order).
std::vector<ValidationCase> LoadCases(std::vector<CaseInputs>& inputs) {
  std::vector<ValidationCase> out;
  const std::pair<const char*, ValidationKind> files[] = {{"memory_cases.json", ValidationKind::kMemory},
                                                          {"throughput_cases.json", ValidationKind::kThroughput},
                                                          {"post_training_cases.json", ValidationKind::kThroughput}};
  for (const auto& [name, file_kind] : files) {
    for (const contract::Json& c : CasesFile(name)) {
      if (c.contains("skip") && !c["skip"].is_null()) continue;
      // A post-training case says which it is: a memory or a time figure.
      const ValidationKind kind = c.value("kind", "") == "memory" ? ValidationKind::kMemory : file_kind;
      inputs.emplace_back();
      out.push_back(CaseFrom(c, kind, &inputs.back()));
    }
  }
  return out;
}

}  // namespace

std::vector<ValidationCase> RunValidationCases() {
  std::vector<CaseInputs> inputs;
  std::vector<ValidationCase> cases = LoadCases(inputs);
  PredictLeavingOneSourceOut(cases, inputs);
  return cases;
}

contract::Json CalibrationFitJson() {
  std::vector<CaseInputs> inputs;
  const std::vector<ValidationCase> cases = LoadCases(inputs);
  const std::vector<FitCase> fit_cases = FitCasesOf(cases, inputs);
  const std::vector<FittedValue> fitted = DescribeFit(fit_cases, FitCalibration(fit_cases, ""));
  const std::vector<FittedValue> shipped = DescribeFit(fit_cases, ShippedCalibration());
  contract::Json out = contract::Json::object();
  for (size_t i = 0; i < fitted.size(); ++i) {
    const FittedValue& v = fitted[i];
    if (v.cases == 0) continue;
    out[v.name] = {{"prior", v.prior},
                   {"fitted", std::round(v.fitted * 1e4) / 1e4},
                   {"shipped", shipped[i].fitted},
                   {"cases", v.cases}};
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// [SECTION] the summary

namespace {

// One case's error and the source it comes from.
struct CaseError {
  double abs_error = 0;
  std::string source;
};

ErrorStats Stats(const std::vector<CaseError>& errors) {
  ErrorStats s;
  s.cases = static_cast<int>(errors.size());
  if (errors.empty()) return s;
  std::vector<double> abs_errors;
  std::set<std::string> sources;
  for (const CaseError& e : errors) {
    abs_errors.push_back(e.abs_error);
    sources.insert(e.source);
    s.within_20_percent += e.abs_error <= 0.20;
    s.within_25_percent += e.abs_error <= 0.25;
  }
  s.sources = static_cast<int>(sources.size());
  s.within_20_percent /= s.cases;
  s.within_25_percent /= s.cases;
  std::sort(abs_errors.begin(), abs_errors.end());
  const size_t n = abs_errors.size();
  s.median_abs_error = n % 2 ? abs_errors[n / 2] : (abs_errors[n / 2 - 1] + abs_errors[n / 2]) / 2;
  s.worst_abs_error = abs_errors.back();
  return s;
}

contract::Json StatsJson(const ErrorStats& s) {
  const auto round = [](double v) { return std::round(v * 1e4) / 1e4; };
  return {{"cases", s.cases},
          {"sources", s.sources},
          {"median_abs_error", round(s.median_abs_error)},
          {"worst_abs_error", round(s.worst_abs_error)},
          {"within_20_percent", round(s.within_20_percent)},
          {"within_25_percent", round(s.within_25_percent)}};
}

}  // namespace

ValidationSummary SummarizeValidation(const std::vector<ValidationCase>& cases) {
  ValidationSummary summary;
  // Per kind (memory, throughput): every case, the asserted ones, by method, and the same
  // left out of the fit.
  struct Errors {
    std::vector<CaseError> all, asserted, loso;
    std::map<std::string, std::vector<CaseError>> by_method, loso_by_method, loso_by_framework,
        loso_by_method_framework;
  } memory, throughput;
  for (const ValidationCase& c : cases) {
    summary.asserted += c.asserted;
    summary.within_tolerance += c.asserted && c.Ok();
    if (!c.error.empty()) continue;
    if (c.IsThreshold()) {
      ++summary.fits_under_cases;
      summary.fits_under_held += c.Ok();
      continue;
    }
    Errors& e = c.kind == ValidationKind::kMemory ? memory : throughput;
    const CaseError in_sample{std::fabs(c.RelativeError()), c.source};
    const CaseError left_out{std::fabs(c.LosoRelativeError()), c.source};
    e.all.push_back(in_sample);
    if (c.asserted) e.asserted.push_back(in_sample);
    e.by_method[c.method].push_back(in_sample);
    e.loso.push_back(left_out);
    e.loso_by_method[c.method].push_back(left_out);
    if (c.media) {
      e.by_method[kVisionLanguageSubset].push_back(in_sample);
      e.loso_by_method[kVisionLanguageSubset].push_back(left_out);
    }
    // A framework's band is what its training steps reach; a post-training step (its own
    // method's band) would blur it with generation and other roles' time.
    const bool post_training = engine::EnumFromName<engine::PostTraining>(engine::kPostTrainingNames, c.method).has_value();
    if (!post_training) e.loso_by_framework[c.framework].push_back(left_out);
    e.loso_by_method_framework[c.method + "/" + c.framework].push_back(left_out);
  }
  summary.memory = Stats(memory.all);
  summary.throughput = Stats(throughput.all);
  summary.memory_asserted = Stats(memory.asserted);
  summary.throughput_asserted = Stats(throughput.asserted);
  summary.memory_loso = Stats(memory.loso);
  summary.throughput_loso = Stats(throughput.loso);
  for (const auto& [method, errors] : memory.by_method) summary.memory_by_method[method] = Stats(errors);
  for (const auto& [method, errors] : throughput.by_method) summary.throughput_by_method[method] = Stats(errors);
  for (const auto& [method, errors] : memory.loso_by_method) summary.memory_loso_by_method[method] = Stats(errors);
  for (const auto& [method, errors] : throughput.loso_by_method) {
    summary.throughput_loso_by_method[method] = Stats(errors);
  }
  const auto stats_of = [](const std::map<std::string, std::vector<CaseError>>& groups) {
    std::map<std::string, ErrorStats> out;
    for (const auto& [key, errors] : groups) out[key] = Stats(errors);
    return out;
  };
  summary.memory_loso_by_framework = stats_of(memory.loso_by_framework);
  summary.throughput_loso_by_framework = stats_of(throughput.loso_by_framework);
  summary.memory_loso_by_method_framework = stats_of(memory.loso_by_method_framework);
  summary.throughput_loso_by_method_framework = stats_of(throughput.loso_by_method_framework);
  return summary;
}

const ValidationSummary& EmbeddedValidationSummary() {
  static const ValidationSummary summary = SummarizeValidation(RunValidationCases());
  return summary;
}

contract::Json ValidationSummaryToJson(const ValidationSummary& s) {
  auto grouped = [](const std::map<std::string, ErrorStats>& stats) {
    contract::Json j = contract::Json::object();
    for (const auto& [method, e] : stats) j[method] = StatsJson(e);
    return j;
  };
  struct Kind {
    const ErrorStats &all, &asserted;
    const std::map<std::string, ErrorStats>& methods;
    const ErrorStats& loso;
    const std::map<std::string, ErrorStats>&loso_methods, &loso_frameworks, &loso_method_frameworks;
  };
  auto kind = [&](const Kind& k) {
    contract::Json j = StatsJson(k.all);
    j["asserted_only"] = StatsJson(k.asserted);
    j["by_method"] = grouped(k.methods);
    j["leave_one_source_out"] = StatsJson(k.loso);
    j["leave_one_source_out"]["by_method"] = grouped(k.loso_methods);
    j["leave_one_source_out"]["by_framework"] = grouped(k.loso_frameworks);
    j["leave_one_source_out"]["by_method_framework"] = grouped(k.loso_method_frameworks);
    return j;
  };
  return {{"memory", kind({s.memory, s.memory_asserted, s.memory_by_method, s.memory_loso, s.memory_loso_by_method,
                           s.memory_loso_by_framework, s.memory_loso_by_method_framework})},
          {"throughput", kind({s.throughput, s.throughput_asserted, s.throughput_by_method, s.throughput_loso,
                               s.throughput_loso_by_method, s.throughput_loso_by_framework,
                               s.throughput_loso_by_method_framework})},
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

std::string LeftOutText(const ValidationCase& c) {
  if (!c.error.empty() || c.IsThreshold()) return "—";
  return Printf("%+.0f%%", c.LosoRelativeError() * 100);
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

// One row of the summary table: a metric's errors over a subset of the cases, in sample
// and with each source left out of the fit (none for the asserted subset: leaving out is
// about cases the fit has not seen, asserted or not).
struct SummaryRow {
  const char* metric;
  std::string subset;
  ErrorStats in_sample;
  std::optional<ErrorStats> left_out;
};

// The summary's rows, as both reports show them: all cases, each method's, and the
// asserted ones; subsets without cases are left out.
std::vector<SummaryRow> SummaryRows(const ValidationSummary& s) {
  std::vector<SummaryRow> rows;
  auto kind = [&](const char* metric, const ErrorStats& all, const ErrorStats& loso,
                  const std::map<std::string, ErrorStats>& by_method,
                  const std::map<std::string, ErrorStats>& loso_by_method, const ErrorStats& asserted) {
    if (all.cases == 0) return;
    rows.push_back({metric, "all", all, loso});
    for (const auto& [method, e] : by_method) rows.push_back({metric, method, e, loso_by_method.at(method)});
    rows.push_back({metric, "asserted", asserted, std::nullopt});
  };
  kind("memory", s.memory, s.memory_loso, s.memory_by_method, s.memory_loso_by_method, s.memory_asserted);
  kind("throughput", s.throughput, s.throughput_loso, s.throughput_by_method, s.throughput_loso_by_method,
       s.throughput_asserted);
  return rows;
}

// The summary row's cells: cases, sources, median and worst in sample; median, within
// ±20% and ±25%, worst left out ("—" for the asserted subset).
std::vector<std::string> SummaryCells(const SummaryRow& r) {
  std::vector<std::string> cells = {r.metric, r.subset, std::to_string(r.in_sample.cases),
                                    std::to_string(r.in_sample.sources), Percent(r.in_sample.median_abs_error),
                                    Percent(r.in_sample.worst_abs_error)};
  if (r.left_out) {
    for (double v : {r.left_out->median_abs_error, r.left_out->within_20_percent, r.left_out->within_25_percent,
                     r.left_out->worst_abs_error}) {
      cells.push_back(Percent(v));
    }
  } else {
    cells.insert(cells.end(), 4, "—");
  }
  return cells;
}

constexpr const char* kSummaryHeads[] = {"metric",        "subset",          "cases",
                                         "sources",       "median",          "worst",
                                         "left-out median", "left-out ≤20%", "left-out ≤25%",
                                         "left-out worst"};

std::string TextReport(const std::vector<ValidationCase>& cases, const ValidationSummary& s) {
  std::string out;
  char line[512];
  for (const Section& section : kSections) {
    if (!HasKind(cases, section.kind)) continue;
    out += std::string(section.title) + "\n";
    std::snprintf(line, sizeof line, "%-28s %-8s %-24s %10s %10s %7s %8s %9s  %s\n", "case", "method", "metric",
                  "measured", "predicted", "error", "left-out", "tolerance", "verdict");
    out += line;
    for (const ValidationCase& c : cases) {
      if (c.kind != section.kind) continue;
      const std::string verdict =
          Verdict(c) + (c.asserted ? "" : "  [not asserted: " + c.not_asserted_reason + "]");
      std::snprintf(line, sizeof line, "%-28s %-8s %-24s %10s %10s %7s %8s %9s  ", c.id.c_str(), c.method.c_str(),
                    c.metric.c_str(), Figure(c, c.measured).c_str(), Figure(c, c.predicted).c_str(),
                    ErrorText(c).c_str(), LeftOutText(c).c_str(), ToleranceText(c).c_str());
      out += line + verdict + "\n";
    }
    out += "\n";
  }
  out += "Summary (|predicted / measured − 1|; left-out: each source predicted by the calibration fitted "
         "without it, what to expect on new runs)\n";
  auto text_row = [&](const std::vector<std::string>& cells) {
    std::snprintf(line, sizeof line, "%-11s %-9s %6s %8s %7s %7s %16s %14s %14s %15s\n", cells[0].c_str(),
                  cells[1].c_str(), cells[2].c_str(), cells[3].c_str(), cells[4].c_str(), cells[5].c_str(),
                  cells[6].c_str(), cells[7].c_str(), cells[8].c_str(), cells[9].c_str());
    out += line;
  };
  text_row(std::vector<std::string>(std::begin(kSummaryHeads), std::end(kSummaryHeads)));
  for (const SummaryRow& r : SummaryRows(s)) text_row(SummaryCells(r));
  if (s.fits_under_cases > 0) {
    std::snprintf(line, sizeof line, "fits_under: the run fit on that card in %d of %d cases\n", s.fits_under_held,
                  s.fits_under_cases);
    out += line;
  }
  std::snprintf(line, sizeof line, "asserted cases within their tolerance: %d of %d\n", s.within_tolerance, s.asserted);
  return out + line;
}

std::string MarkdownReport(const std::vector<ValidationCase>& cases, const ValidationSummary& s) {
  std::string out = "|";
  for (const char* head : kSummaryHeads) out += " " + std::string(head) + " |";
  out += "\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const SummaryRow& r : SummaryRows(s)) {
    out += "|";
    for (const std::string& cell : SummaryCells(r)) out += " " + cell + " |";
    out += "\n";
  }
  out += "\nError = predicted / measured − 1; median, worst and the shares within ±20% and ±25% are of "
         "|error|. Left out: every case predicted by the calibrated constants fitted on all the other sources "
         "(docs/model.md §6.10). Memory `fits_under` cases (the run fit on that card) are thresholds, "
         "not errors: " + std::to_string(s.fits_under_held) + " of " + std::to_string(s.fits_under_cases) +
         " held. Asserted cases within their tolerance: " + std::to_string(s.within_tolerance) + " of " +
         std::to_string(s.asserted) + ".\n";
  for (const Section& section : kSections) {
    if (!HasKind(cases, section.kind)) continue;
    out += "\n" + std::string(section.title) +
           ":\n\n| case | method | metric | measured | predicted | error | left-out | tolerance | verdict |\n"
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
    std::string reasons;
    for (const ValidationCase& c : cases) {
      if (c.kind != section.kind) continue;
      out += "| " + c.id + " | " + c.method + " | " + c.metric + " | " + Figure(c, c.measured) + " | " +
             Figure(c, c.predicted) + " | " + ErrorText(c) + " | " + LeftOutText(c) + " | " + ToleranceText(c) +
             " | " + Verdict(c) +
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
            {"source", c.source},
            {"predicted", std::round(c.predicted * 1e4) / 1e4},
            {"left_out_predicted", std::round(c.loso_predicted * 1e4) / 1e4},
            {"error", c.IsThreshold() || !c.error.empty() ? contract::Json(nullptr) : contract::Json(std::round(c.RelativeError() * 1e4) / 1e4)},
            {"left_out_error", c.IsThreshold() || !c.error.empty()
                                   ? contract::Json(nullptr)
                                   : contract::Json(std::round(c.LosoRelativeError() * 1e4) / 1e4)},
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
