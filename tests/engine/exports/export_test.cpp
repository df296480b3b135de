// Exports (engine::service::Session::Export, `trainsizer estimate|plan --format`): JSON that carries the
// scenario with its result (and a plan's constraints) and reads back as the same request,
// CSV that parses back with RFC 4180 rules, a Markdown report with every section, and the
// same errors as the JSON entry points.
#include "engine/exports/report.h"
#include "engine/service/api.h"
#include "tests/engine/exports/cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using Table = std::vector<std::vector<std::string>>;

// An RFC 4180 reader written independently of the writer: quoted fields may hold commas,
// doubled quotes and line breaks; records end with CRLF.
Table ParseCsv(const std::string& text) {
  Table rows(1);
  std::string field;
  bool quoted = false, row_open = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    row_open = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
      row_open = false;
      ++i;
    } else {
      field += c;
    }
  }
  if (row_open) rows.back().push_back(field);
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

std::string Export(const std::string& scenario, const std::string& what, const std::string& format) {
  const engine::service::Response r = engine::service::Session().Export(scenario, what, format);
  EXPECT_TRUE(r.ok) << r.json;
  return r.json;
}

const char* kScenario = R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3,"tokens":1e9})";

TEST(Csv, QuotesOnlyWhatNeedsQuoting) {
  EXPECT_EQ(engine::exports::CsvField("plain"), "plain");
  EXPECT_EQ(engine::exports::CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(engine::exports::CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(engine::exports::CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(engine::exports::CsvRow({"a", "b,c", ""}), "a,\"b,c\",\r\n");
}

TEST(EstimateExport, CsvRowsAreNameValueUnit) {
  const Table rows = ParseCsv(Export(kScenario, "estimate", "csv"));
  ASSERT_GT(rows.size(), 10u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "value", "unit"}));
  bool saw_params = false, saw_weights = false, saw_wall = false;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 3u);
    if (row[0] == "params_total") {
      saw_params = true;
      EXPECT_EQ(std::stod(row[1]), 8030261248.0);  // Llama 3 8B's published parameter count
      EXPECT_EQ(row[2], "parameters");
    }
    if (row[0] == "memory_weights") {
      saw_weights = true;
      // ZeRO-3 over 8 GPUs: 2 B × 8.03e9 / 8 = 2.008e9 B = 1.87 GiB of bf16 weights.
      EXPECT_NEAR(std::stod(row[1]), 8030261248.0 * 2 / 8 / (1 << 30), 0.01);
      EXPECT_EQ(row[2], "GiB");
    }
    if (row[0] == "wall_time") saw_wall = row[2] == "h";
  }
  EXPECT_TRUE(saw_params && saw_weights && saw_wall);
}

TEST(EstimateExport, WithoutTokensTheCsvHasRatesOnly) {
  const Table rows = ParseCsv(Export(R"({"model":"llama-3-8b"})", "estimate", "csv"));
  for (const auto& row : rows) EXPECT_NE(row[0], "wall_time");
}

TEST(EstimateExport, JsonCarriesTheScenarioAndTheResult) {
  const json doc = json::parse(Export(kScenario, "estimate", "json"));
  ASSERT_EQ(doc.size(), 2u) << doc.dump().substr(0, 300);
  // The result is the estimate itself, byte for byte.
  EXPECT_EQ(doc["result"].dump(), engine::service::Session().Estimate(kScenario).json);
  // The scenario as the contract writes it: every field, defaults filled in.
  const json& scenario = doc["scenario"];
  EXPECT_EQ(scenario["model"], "llama-3-8b");
  EXPECT_EQ(scenario["gpus"], 8);
  EXPECT_EQ(scenario["zero"], 3);
  EXPECT_EQ(scenario["seq_len"], 4096);  // a default, written out
  EXPECT_TRUE(scenario.contains("claim") && scenario.contains("auto_restart"));
  // It reads back as the same scenario: estimating it again gives the same result.
  EXPECT_EQ(engine::service::Session().Estimate(scenario.dump()).json, doc["result"].dump());
}

TEST(PlanExport, JsonCarriesScenarioConstraintsAndPlans) {
  const char* scenario = R"({"model":"llama-3-8b","method":"lora","tokens":2e9,"deadline_days":30,"budget":5000})";
  const json doc = json::parse(Export(scenario, "plan", "json"));
  ASSERT_EQ(doc.size(), 3u) << doc.dump().substr(0, 300);
  EXPECT_EQ(doc["result"].dump(), engine::service::Session().Plan(scenario).json);
  EXPECT_EQ(doc["scenario"]["method"], "lora");
  EXPECT_EQ(doc["constraints"]["deadline_days"].get<double>(), 30.0);
  EXPECT_EQ(doc["constraints"]["budget"].get<double>(), 5000.0);
  // Scenario and constraints together are the request: planning it again gives the same plans.
  json request = doc["scenario"];
  request.update(doc["constraints"]);
  EXPECT_EQ(engine::service::Session().Plan(request.dump()).json, doc["result"].dump());
}

TEST(EstimateExport, MarkdownReportHasEverySection) {
  // 70B full fine-tuning on one H100 does not fit: the report must say so and warn.
  const std::string md = Export(R"({"model":"llama-3-70b","tokens":1e9})", "estimate", "markdown");
  for (const char* section : {"# TrainSizer estimate: Llama 3 70B", "## Scenario", "| method | full |",
                              "## Memory per GPU", "| weights |", "| optimizer |", "**total**", "## Time",
                              "## Warnings", "does_not_fit", "**Does not fit**", "## Pre-order checklist",
                              "| Sequence length |"}) {
    EXPECT_NE(md.find(section), std::string::npos) << section << "\n" << md;
  }
  // Every table row of the checklist carries a status from the fixed vocabulary.
  EXPECT_TRUE(md.find("| ok |") != std::string::npos || md.find("| attention |") != std::string::npos ||
              md.find("| problem |") != std::string::npos);
  EXPECT_EQ(md.find("lora_rank"), std::string::npos) << "LoRA settings only for adapter methods";
}

TEST(EstimateExport, TableListsTheSameFigures) {
  const std::string table = Export(kScenario, "estimate", "table");
  EXPECT_EQ(table.rfind("name", 0), 0u);
  EXPECT_NE(table.find("memory_per_gpu"), std::string::npos);
  EXPECT_NE(table.find("GiB"), std::string::npos);
}

TEST(PlanExport, CsvHasOneRowPerPickAndParetoPlan) {
  const char* scenario = R"({"model":"llama-3-8b","method":"lora","tokens":2e9,"deadline_days":30})";
  const json plan = json::parse(engine::service::Session().Plan(scenario).json);
  ASSERT_FALSE(plan.contains("error")) << plan.dump();
  const Table rows = ParseCsv(Export(scenario, "plan", "csv"));
  ASSERT_EQ(rows.size(), 1 + plan["picks"].size() + plan["pareto"].size());
  const std::vector<std::string>& header = rows[0];
  EXPECT_EQ(header[0], "kind");
  for (const auto& row : rows) ASSERT_EQ(row.size(), header.size());
  EXPECT_EQ(rows[1][0], "pick");
  // The labels of the first pick, joined with ", ", survive the quoting.
  std::string labels;
  for (const json& l : plan["picks"][0]["labels"]) labels += (labels.empty() ? "" : ", ") + l.get<std::string>();
  EXPECT_EQ(rows[1][1], labels);
}

TEST(PlanExport, CommasAndQuotesInFieldsSurvive) {
  const json plan = {{"currency", "USD"},
                     {"picks", json::array({{{"gpu", "x"}, {"gpu_name", "Acme \"Turbo\", 80 GB"},
                                             {"labels", {"cheapest", "fastest"}}, {"gpus", 8},
                                             {"layout", {{"tp", 2}, {"offload", "none"}}}}})},
                     {"pareto", json::array()}};
  const Table rows = ParseCsv(engine::exports::PlanCsv(plan));
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[1].size(), rows[0].size());
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < rows[0].size(); ++i) {
      if (rows[0][i] == name) return rows[1][i];
    }
    ADD_FAILURE() << "no column " << name;
    return std::string();
  };
  EXPECT_EQ(column("gpu_name"), "Acme \"Turbo\", 80 GB");
  EXPECT_EQ(column("labels"), "cheapest, fastest");
  EXPECT_EQ(column("tp"), "2");
  EXPECT_EQ(column("gpus"), "8");
  EXPECT_EQ(column("pp"), "");
  EXPECT_EQ(column("currency"), "USD");
}

TEST(ExportErrors, NameTheArgumentOrTheScenarioField) {
  EXPECT_EQ(json::parse(engine::service::Session().Export(kScenario, "invoice", "csv").json)["error"]["field"], "what");
  EXPECT_EQ(json::parse(engine::service::Session().Export(kScenario, "estimate", "xml").json)["error"]["field"], "format");
  const char* bad = R"({"model":"llama-3-8b","tp":3})";
  const engine::service::Response r = engine::service::Session().Export(bad, "estimate", "markdown");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.json, engine::service::Session().Estimate(bad).json);
}

#ifdef TRAINSIZER_CLI
using engine::testing_cli::RunCli;

TEST(ExportCli, FormatsForEstimateAndPlan) {
  std::string csv, md, plan_csv, bad;
  EXPECT_EQ(RunCli("estimate - --format csv", kScenario, &csv), 0);
  EXPECT_EQ(csv, engine::service::Session().Export(kScenario, "estimate", "csv").json);
  EXPECT_EQ(RunCli("estimate - --format markdown", kScenario, &md), 0);
  EXPECT_EQ(md.rfind("# TrainSizer estimate", 0), 0u);
  EXPECT_EQ(RunCli("plan - --format csv", kScenario, &plan_csv), 0);
  EXPECT_EQ(plan_csv.rfind("kind,labels,gpu,", 0), 0u);
  EXPECT_EQ(RunCli("estimate - --format pdf", kScenario, &bad), 2);
}

// The page's JSON downloads and `--format json` are one text; without --format the CLI
// prints the result alone, as the JS API's estimate and plan return it.
TEST(ExportCli, JsonFormatIsTheExportAndTheDefaultIsTheResult) {
  for (const char* what : {"estimate", "plan"}) {
    std::string exported, result;
    EXPECT_EQ(RunCli(std::string(what) + " - --format json", kScenario, &exported), 0);
    EXPECT_EQ(exported, engine::service::Session().Export(kScenario, what, "json").json + "\n") << what;
    EXPECT_EQ(RunCli(std::string(what) + " -", kScenario, &result), 0);
    const engine::service::Response direct = std::string(what) == "plan" ? engine::service::Session().Plan(kScenario) : engine::service::Session().Estimate(kScenario);
    EXPECT_EQ(result, direct.json + "\n") << what;
  }
}
#endif

}  // namespace
