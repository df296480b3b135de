// Predicted vs measured for published runs (catalog/validation/memory_cases.json and
// throughput_cases.json, each case with its source, quote and conversion notes), run by
// the same code as `trainsizer validate` (engine/validation/validation_cases.h). Prints the
// whole table, and asserts the cases whose setup the scenario contract can express
// within their stated tolerance; the others are reported with the reason they are not
// asserted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/service/api.h"
#include "engine/validation/validation_cases.h"

namespace engine::validation {
namespace {

std::vector<ValidationCase> CasesOf(ValidationKind kind) {
  std::vector<ValidationCase> out;
  for (const ValidationCase& c : RunValidationCases()) {
    if (c.kind == kind) out.push_back(c);
  }
  return out;
}

TEST(Validation, MemoryMatchesPublishedRuns) {
  const std::vector<ValidationCase> cases = CasesOf(ValidationKind::kMemory);
  int asserted = 0;
  for (const ValidationCase& c : cases) {
    ASSERT_TRUE(c.error.empty()) << c.id << ": " << c.error;
    if (!c.asserted) continue;
    ++asserted;
    if (c.IsThreshold()) {
      EXPECT_LE(c.predicted, c.measured) << c.id;
    } else {
      EXPECT_TRUE(std::fabs(c.RelativeError()) <= c.tolerance)
          << c.id << ": predicted " << c.predicted << " vs " << c.measured;
    }
  }
  std::printf("\n%s(GiB per GPU; %d cases asserted of %zu)\n", ValidationReport(cases, "table").c_str(), asserted,
              cases.size());
  EXPECT_GE(asserted, 10);
}

}  // namespace
}  // namespace engine::validation

namespace engine::validation {
namespace {

// The per-GPU peaks worked out by hand in the project's physics reference (model.md
// §9.4, 80 GB H100, seq 4096, b = 1, BF16 AdamW), in GB (10^9 B). Those sums are
// approximate ("≈"); the 70B FSDP row adds the layer and embedding gather buffers as if
// live at once, which is an upper bound. Tolerance 20%.
TEST(Validation, WorkedExamplesOfTheModelReference) {
  const struct {
    const char* scenario;
    double expected_gb;
  } cases[] = {
      {R"({"model":"llama-3-8b","gpus":8,"zero":3})", 48},
      {R"({"model":"llama-3-8b","gpus":8,"zero":3,"activation_checkpointing":"full"})", 30},
      {R"({"model":"llama-3-70b","gpus":64,"zero":3,"activation_checkpointing":"full"})", 47},
      {R"({"model":"llama-3-8b","method":"lora"})", 42},
      {R"({"model":"llama-3-8b","method":"lora","activation_checkpointing":"full"})", 24},
      {R"({"model":"llama-3-8b","method":"qlora","activation_checkpointing":"full"})", 12.5},
      {R"({"model":"llama-3-70b","method":"qlora","activation_checkpointing":"full"})", 59},
      {R"({"model":"llama-3-70b","gpus":512,"tp":8,"pp":4,"virtual_pipeline":5,"sequence_parallel":true,
          "zero":1,"framework":"megatron","global_batch":1024})", 33},
  };
  for (const auto& c : cases) {
    const contract::Json r = contract::Json::parse(service::Session().Estimate(c.scenario).json);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    const double predicted_gb = r["memory"]["per_gpu_gib"].get<double>() * 1.073741824;
    EXPECT_NEAR(predicted_gb / c.expected_gb, 1.0, 0.20) << c.scenario << " predicted " << predicted_gb;
  }
}

}  // namespace
}  // namespace engine::validation

namespace engine::validation {
namespace {

TEST(Validation, ThroughputMatchesPublishedRuns) {
  const std::vector<ValidationCase> cases = CasesOf(ValidationKind::kThroughput);
  int asserted = 0;
  for (const ValidationCase& c : cases) {
    ASSERT_TRUE(c.error.empty()) << c.id << ": " << c.error;
    if (!c.asserted) continue;
    ++asserted;
    EXPECT_TRUE(std::fabs(c.RelativeError()) <= c.tolerance)
        << c.id << ": predicted " << c.predicted << " vs measured " << c.measured;
  }
  std::printf("\n%s", ValidationReport(cases, "table").c_str());
  EXPECT_GE(asserted, 15);
}

// The cases not skipped in a source file (the embedded copy must hold the same).
size_t RunnableCasesOnDisk(const char* name) {
  std::ifstream file(std::string(TRAINSIZER_SOURCE_DIR) + "/catalog/validation/" + name);
  std::stringstream text;
  text << file.rdbuf();
  const contract::Json doc = contract::Json::parse(text.str());
  size_t n = 0;
  for (const contract::Json& c : doc["cases"]) n += c["skip"].is_null();
  return n;
}

// Every published case is run (the embedded files match the sources), and the summary
// the page reads agrees with the cases: counts add up, medians lie below the worst.
TEST(Validation, SummaryCountsEveryCase) {
  const std::vector<ValidationCase> cases = RunValidationCases();
  EXPECT_EQ(CasesOf(ValidationKind::kMemory).size(), RunnableCasesOnDisk("memory_cases.json"));
  EXPECT_EQ(CasesOf(ValidationKind::kThroughput).size(),
            RunnableCasesOnDisk("throughput_cases.json") + RunnableCasesOnDisk("post_training_cases.json"));
  EXPECT_GE(cases.size(), 60u);
  const contract::Json summary = contract::Json::parse(service::ValidationSummaryJson());
  const contract::Json& memory = summary["memory"];
  const contract::Json& throughput = summary["throughput"];
  EXPECT_EQ(memory["cases"].get<int>() + summary["fits_under"]["cases"].get<int>() + throughput["cases"].get<int>(),
            static_cast<int>(cases.size()));
  for (const contract::Json* kind : {&memory, &throughput}) {
    EXPECT_LE((*kind)["median_abs_error"].get<double>(), (*kind)["worst_abs_error"].get<double>());
    EXPECT_LE((*kind)["asserted_only"]["worst_abs_error"].get<double>(), (*kind)["worst_abs_error"].get<double>());
    int by_method = 0;
    for (const auto& [method, stats] : (*kind)["by_method"].items()) {
      if (method != kVisionLanguageSubset) by_method += stats["cases"].get<int>();  // it overlaps the methods
    }
    EXPECT_EQ(by_method, (*kind)["cases"].get<int>());
  }
  EXPECT_EQ(summary["within_tolerance"], summary["asserted"]);
}

// Issue 16: the figures to quote are those of runs the engine has not seen. Every case is
// also predicted by the calibration fitted without its source; the summary carries those
// errors next to the in-sample ones, over the same cases.
TEST(Validation, LeaveOneSourceOutCoversEveryMeasuredCase) {
  const contract::Json summary = contract::Json::parse(service::ValidationSummaryJson());
  int cases = summary["fits_under"]["cases"].get<int>();
  for (const char* kind : {"memory", "throughput"}) {
    const contract::Json& in_sample = summary[kind];
    const contract::Json& loso = in_sample["leave_one_source_out"];
    EXPECT_EQ(loso["cases"], in_sample["cases"]) << kind;
    EXPECT_EQ(loso["sources"], in_sample["sources"]) << kind;
    EXPECT_LE(loso["median_abs_error"].get<double>(), loso["worst_abs_error"].get<double>()) << kind;
    EXPECT_LE(loso["within_20_percent"].get<double>(), loso["within_25_percent"].get<double>()) << kind;
    int by_method = 0;
    for (const auto& [method, stats] : loso["by_method"].items()) {
      if (method != kVisionLanguageSubset) by_method += stats["cases"].get<int>();  // it overlaps the methods
    }
    EXPECT_EQ(by_method, loso["cases"].get<int>()) << kind;
    cases += in_sample["cases"].get<int>();
  }
  EXPECT_GE(cases, 80) << "issue 16 asks for at least 80 published cases";
  EXPECT_GE(summary["throughput"]["sources"].get<int>(), 20);
}

// A ratchet on the figures a user is told to expect (the README's accuracy table, the
// page's notes): they may improve, not regress. Lower the bounds as the model improves;
// issue 16's targets on the team's held-out runs are a throughput median of 10% with 80%
// within ±25%, and a memory median of 6% with 85% within ±20%.
TEST(Validation, LeftOutErrorsDoNotRegress) {
  const contract::Json summary = contract::Json::parse(service::ValidationSummaryJson());
  const contract::Json& throughput = summary["throughput"]["leave_one_source_out"];
  const contract::Json& memory = summary["memory"]["leave_one_source_out"];
  EXPECT_LE(throughput["median_abs_error"].get<double>(), 0.145);
  EXPECT_GE(throughput["within_25_percent"].get<double>(), 0.66);
  EXPECT_LE(memory["median_abs_error"].get<double>(), 0.09);
  EXPECT_GE(memory["within_20_percent"].get<double>(), 0.73);
}

// The shipped constants are the fit on every published run (engine/calibration.cpp), not
// hand-tuned values: refitting reproduces them. After adding cases, paste the output of
// `trainsizer calibrate` into calibration.cpp.
TEST(Validation, ShippedCalibrationIsTheFitOnEverySource) {
  const contract::Json fit = CalibrationFitJson();
  EXPECT_GE(fit.size(), 4u) << fit.dump();
  for (const auto& [name, value] : fit.items()) {
    EXPECT_NEAR(value["shipped"].get<double>(), value["fitted"].get<double>(), 1e-3)
        << name << ": engine/calibration.cpp ships " << value["shipped"] << ", the fit gives " << value["fitted"];
  }
}

// `trainsizer validate --format json` prints the same summary as the API.
TEST(Validation, CliPrintsTheSameSummary) {
  std::FILE* pipe = popen("'" TRAINSIZER_CLI "' validate --format json", "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0);
  const contract::Json report = contract::Json::parse(out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << out.substr(0, 300);
  EXPECT_EQ(report["summary"], contract::Json::parse(service::ValidationSummaryJson()));
  EXPECT_EQ(report["cases"].size(), RunValidationCases().size());
}

}  // namespace
}  // namespace engine::validation
