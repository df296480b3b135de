// The shared JSON entry point and the CLI over it: identical output, error JSON naming
// the field, exit codes.
#include "engine/service/api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_loader.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

namespace {

using nlohmann::json;

json Estimate(const std::string& scenario) {
  const engine::service::Response r = engine::service::Session().Estimate(scenario);
  return json::parse(r.json);
}

TEST(Api, EstimatesAPresetWithEveryMemoryTerm) {
  const json r = Estimate(R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3})");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  for (const char* key : {"per_gpu_gib", "capacity_gib", "fits", "headroom_gib", "weights_gib", "gradients_gib",
                          "optimizer_gib", "activations_gib", "logits_gib", "overhead_gib", "cpu_ram_gib"}) {
    EXPECT_TRUE(r["memory"].contains(key)) << key;
  }
  EXPECT_EQ(r["params"]["total"], 8030261248.0);
  // ZeRO-3 over 8 GPUs: 16 B × 8.03e9 / 8 = 16.06 GB = 14.96 GiB of model states.
  const double states = r["memory"]["weights_gib"].get<double>() + r["memory"]["gradients_gib"].get<double>() +
                        r["memory"]["optimizer_gib"].get<double>();
  EXPECT_NEAR(states, 8030261248.0 * 16 / 8 / (1 << 30), 0.001);
  EXPECT_TRUE(r["memory"]["fits"].get<bool>());
  EXPECT_FALSE(r["memory"]["explain"]["weights"]["source"].get<std::string>().empty());
}

// Issue 20's contract: every role's memory per GPU, and the step split into generation and
// training; PPO lists a critic, GRPO none.
TEST(Api, PostTrainingReturnsEveryRolesMemoryAndTheStepSplit) {
  for (const char* method : {"dpo", "ppo", "grpo"}) {
    const json r = Estimate(std::string(R"({"model":"qwen2.5-7b","gpus":8,"zero":3,"method":")") + method + "\"}");
    ASSERT_TRUE(r.contains("rl")) << r.dump();
    std::set<std::string> roles;
    for (const json& role : r["rl"]["roles"]) {
      roles.insert(role["role"].get<std::string>());
      EXPECT_GE(role["per_gpu_gib"].get<double>(), 0) << method;
    }
    EXPECT_TRUE(roles.count("policy") && roles.count("reference")) << method;
    EXPECT_EQ(roles.count("critic"), std::string(method) == "ppo" ? 1u : 0u) << method;
    EXPECT_TRUE(r["rl"]["step_breakdown_s"].contains("generation")) << method;
    EXPECT_GT(r["rl"]["step_breakdown_s"]["training"].get<double>(), 0) << method;
  }
  EXPECT_FALSE(Estimate(R"({"model":"qwen2.5-7b"})").contains("rl"));
}

TEST(Api, SeventyBillionFullFineTuneDoesNotFitOneH100) {
  const json r = Estimate(R"({"model":"llama-3-70b","gpu":"h100-sxm-80gb"})");
  EXPECT_FALSE(r["memory"]["fits"].get<bool>());
}

TEST(Api, BadInputNamesTheField) {
  struct Case {
    const char* scenario;
    const char* field;
  };
  const Case cases[] = {
      {R"({"model":"llama-3-8b","tp":3})", "tp"},
      {R"({"model":"llama-3-8b","seq_len":-1})", "seq_len"},
      {R"({"model":"llama-3-8b","seq_len":1.5})", "seq_len"},
      {R"({"model":"llama-3-8b","gpu":"gtx-480"})", "gpu"},
      {R"({"model":"no-such-model"})", "model"},
      {R"({"model":{"params_b":1e9}})", "model.params_b"},
      {R"({"model":{"layers":32,"hidden":4000,"heads":3,"ffn":100,"vocab":10}})", "model.heads"},
      {R"({"model":"llama-3-8b","method":"dpo-v2"})", "method"},
      {R"({"model":"llama-3-8b","method":"grpo","policy_update":"freeze"})", "policy_update"},
      {R"({"model":"llama-3-8b","method":"ppo","critic_model":"no-such-model"})", "critic_model"},
      {R"({"model":"llama-3-8b","micro_bach":2})", "micro_bach"},
      {R"({"model":"llama-3-8b","gpus":3,"tp":2})", "gpus"},
      {R"({"model":"llama-3-8b","flash_attention":"yes"})", "flash_attention"},
      {R"({"method":"full"})", "model"},
      {R"([1,2,3])", "scenario"},
      {R"({"model":"llama-3-8b",)", "scenario"},
      {"", "scenario"},
  };
  for (const Case& c : cases) {
    const engine::service::Response r = engine::service::Session().Estimate(c.scenario);
    EXPECT_FALSE(r.ok) << c.scenario;
    const json j = json::parse(r.json);
    EXPECT_EQ(j["error"]["field"], c.field) << c.scenario << " -> " << r.json;
    EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
  }
}

TEST(Api, RefusesInputOverOneMebibyte) {
  std::string big = R"({"model":"llama-3-8b","pad":")" + std::string(2 << 20, 'x') + "\"}";
  const json j = json::parse(engine::service::Session().Estimate(big).json);
  EXPECT_EQ(j["error"]["field"], "scenario");
}

TEST(Api, EveryPresetEstimatesWithoutError) {
  const json cat = json::parse(engine::service::Session().CatalogJson());
  for (const json& m : cat["models"]["models"]) {
    const std::string scenario = R"({"model":")" + m["id"].get<std::string>() + R"(","gpus":8,"zero":3})";
    const engine::service::Response r = engine::service::Session().Estimate(scenario);
    EXPECT_TRUE(r.ok) << scenario << " -> " << r.json;
  }
}

// --- the CLI binary ---------------------------------------------------------------------

struct CliRun {
  int exit_code;
  std::string out;
};

CliRun RunCli(const std::string& args, const std::string& stdin_text = "") {
  // One input file per test: ctest runs tests in parallel processes.
  const std::string input = ::testing::TempDir() + "cli_input_" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
  std::ofstream(input) << stdin_text;
  const std::string cmd = std::string(TRAINSIZER_CLI) + " " + args + " < " + input + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

TEST(Cli, EstimatePrintsTheSameJsonAsTheApi) {
  const std::string scenario = R"({"model":"qwen2.5-7b","method":"qlora","gpu":"rtx-4090-24gb"})";
  const CliRun run = RunCli("estimate -", scenario);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, engine::service::Session().Estimate(scenario).json + "\n");
}

TEST(Cli, BadInputExitsTwoWithErrorJson) {
  const CliRun run = RunCli("estimate -", R"({"model":"llama-3-8b","zero":7})");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(json::parse(run.out)["error"]["field"], "zero");
}

TEST(Cli, MissingFileExitsTwo) {
  const CliRun run = RunCli("estimate /nonexistent/scenario.json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(json::parse(run.out)["error"]["field"], "input");
}

TEST(Cli, CatalogAndHelp) {
  const CliRun cat = RunCli("catalog");
  EXPECT_EQ(cat.exit_code, 0);
  EXPECT_GE(json::parse(cat.out)["gpus"]["gpus"].size(), 7u);
  EXPECT_EQ(RunCli("--help").exit_code, 0);
  EXPECT_EQ(RunCli("frobnicate").exit_code, 2);
}

// Issue 17: a scenario that does not fit lists what would make it fit, and each option's
// changes, applied over the scenario as a user would (JSON merge), give an estimate that
// fits with the memory and speed the option states. The seed's first scenario (Llama 3 8B
// LoRA on one RTX 4090) needs 38 GiB of the card's 24.
TEST(Api, FitOptionsAppliedToTheScenarioFitAsStated) {
  for (const char* text : {R"({"model":"llama-3-8b","method":"lora","gpu":"rtx-4090-24gb"})",
                           R"({"model":"llama-3-8b","method":"lora","gpu":"rtx-4090-24gb","seq_len":2048,"micro_batch":4})",
                           R"({"model":"llama-3-70b","method":"full","gpu":"h100-sxm-80gb","gpus":8})",
                           R"({"model":"qwen2.5-7b","method":"full","gpu":"a100-sxm-40gb","gpus":2,"zero":1})"}) {
    const json scenario = json::parse(text);
    const json r = Estimate(text);
    ASSERT_FALSE(r["memory"]["fits"].get<bool>()) << text;
    ASSERT_FALSE(r["fit_options"].empty()) << text;
    double last_slowdown = 0;
    bool job_changed = false;
    for (const json& option : r["fit_options"]) {
      json changed = scenario;
      changed.update(option["changes"]);
      const json again = Estimate(changed.dump());
      ASSERT_FALSE(again.contains("error")) << changed.dump() << again.dump();
      EXPECT_TRUE(again["memory"]["fits"].get<bool>()) << changed.dump();
      EXPECT_NEAR(again["memory"]["per_gpu_gib"].get<double>(), option["per_gpu_gib"].get<double>(),
                  0.01 * option["per_gpu_gib"].get<double>())
          << changed.dump();
      EXPECT_NEAR(again["throughput"]["tokens_per_s_per_gpu"].get<double>(),
                  option["tokens_per_s_per_gpu"].get<double>(), 0.01 * option["tokens_per_s_per_gpu"].get<double>())
          << changed.dump();
      // Ranked by slowdown, the options that keep the job before those that change it.
      const bool changes_job = option["changes_the_job"].get<bool>();
      if (changes_job && !job_changed) last_slowdown = 0;
      EXPECT_TRUE(changes_job || !job_changed) << r["fit_options"].dump();
      EXPECT_GE(option["slowdown"].get<double>(), last_slowdown) << r["fit_options"].dump();
      last_slowdown = option["slowdown"].get<double>();
      job_changed = changes_job;
    }
  }
}

// A scenario that fits has no fit options.
TEST(Api, AScenarioThatFitsHasNoFitOptions) {
  const json r = Estimate(R"({"model":"llama-3-8b","method":"qlora","gpu":"rtx-4090-24gb","activation_checkpointing":"full"})");
  ASSERT_TRUE(r["memory"]["fits"].get<bool>()) << r["memory"].dump();
  EXPECT_TRUE(r["fit_options"].empty());
}

// Issue 17's first user: a 70B full fine-tune of 2B tokens within a week and $40k. Every
// pick rents no more GPUs than its offer gives one buyer (the catalog's capacity_gpus).
TEST(Api, PlanPicksStayWithinTheOffersCapacity) {
  const engine::service::Response r = engine::service::Session().Plan(
      R"({"model":"llama-3-70b","method":"full","tokens":2e9,"deadline_days":7,"budget":40000,"global_batch":256})");
  const json plan = json::parse(r.json);
  ASSERT_FALSE(plan.contains("error")) << r.json.substr(0, 300);
  ASSERT_FALSE(plan["picks"].empty());
  for (const json& p : plan["picks"]) {
    // Start-up and tear-down are their own line, and part of the wall time.
    EXPECT_GT(p["startup"]["total_hours"].get<double>(), 0) << p.dump();
    EXPECT_GT(p["wall_hours"].get<double>(), p["startup"]["total_hours"].get<double>());
    if (p["capacity_gpus"].is_null()) continue;  // owned
    EXPECT_LE(p["gpus"].get<int>(), p["capacity_gpus"].get<int>()) << p.dump();
  }
}

// An estimate on more GPUs than any offer rents one buyer says the cluster needs sales.
TEST(Api, AnEstimateBeyondEveryOffersCapacitySaysItNeedsSales) {
  const json r = Estimate(R"({"model":"llama-3-70b","method":"pretrain","gpus":4096,"tp":8,"pp":4,"gpu":"h100-sxm-80gb","tokens":1e12})");
  ASSERT_FALSE(r.contains("error")) << r.dump().substr(0, 300);
  bool said = false;
  for (const json& w : r["warnings"]) said |= w["code"] == "rent_needs_sales";
  EXPECT_TRUE(said) << r["warnings"].dump();
}

// Issue 17's tailored proposal: `plan --format proposal` prints the recommended plan and an
// alternative, each with its time split out (start-up), what a node must provide, the risks
// and the checklist answered for it.
TEST(Api, PlanProposalHasTheRecommendedPlanAndAnAlternative) {
  const engine::service::Response r = engine::service::Session().Export(
      R"({"model":"llama-3-70b","method":"lora","tokens":1e9,"deadline_days":7,"purchase":"cloud"})",
      "plan", "proposal");
  ASSERT_TRUE(r.ok) << r.json.substr(0, 300);
  for (const char* part : {"# Training proposal: Llama 3 70B", "## Recommended: ", "## Alternative: ",
                           "start-up and tear-down", "**What each rented node must provide (nodes: ", "**Risks**",
                           "**Pre-order checklist**", "## GPUs left out"}) {
    EXPECT_NE(r.json.find(part), std::string::npos) << part << "\n" << r.json.substr(0, 2000);
  }
  const CliRun cli = RunCli("plan - --format proposal",
                            R"({"model":"llama-3-8b","method":"lora","tokens":1e9,"deadline_days":3})");
  EXPECT_EQ(cli.exit_code, 0);
  EXPECT_NE(cli.out.find("## Recommended"), std::string::npos) << cli.out.substr(0, 500);
}

// Issue 18's "the estimate and the plan disagree": without a global batch both take the
// method's (128 sequences for a fine-tune), so the estimate of a plan's own layout, with
// the batch left out, runs as fast as the plan says.
TEST(Api, AnEstimateOfAPlansLayoutAgreesWithThePlan) {
  const json plan = json::parse(engine::service::Session().Plan(
      R"({"model":"llama-3-70b","method":"full","tokens":2e9,"gpu":"h100-sxm-80gb","min_gpus":8,"max_gpus":8,)"
      R"("keep":["gpu"]})").json);
  ASSERT_FALSE(plan.contains("error")) << plan.dump().substr(0, 300);
  ASSERT_FALSE(plan["pareto"].empty());
  const json& p = plan["pareto"][0];
  EXPECT_EQ(plan["global_batch"], 128);
  json scenario = {{"model", "llama-3-70b"}, {"method", "full"}, {"tokens", 2e9}, {"gpu", "h100-sxm-80gb"},
                   {"gpus", p["gpus"]}};
  for (const char* key : {"tp", "pp", "cp", "zero", "micro_batch", "activation_checkpointing", "offload",
                          "sequence_parallel"}) {
    scenario[key] = p["layout"][key];
  }
  const json e = Estimate(scenario.dump());
  ASSERT_FALSE(e.contains("error")) << e.dump().substr(0, 300) << scenario.dump();
  EXPECT_EQ(e["throughput"]["global_batch"], 128);
  EXPECT_TRUE(e["throughput"]["global_batch_default"].get<bool>());
  EXPECT_NEAR(e["throughput"]["tokens_per_s"].get<double>(), p["tokens_per_s"].get<double>(),
              0.01 * p["tokens_per_s"].get<double>())
      << scenario.dump();
}

// Issue 18: "Region: Anywhere" in USD does not rent from Chinese clouds, which rent only to
// accounts with Chinese real-name verification; priced in CNY, or with region cn, it does.
TEST(Api, AnywhereInDollarsLeavesOutChinasClouds) {
  const std::string lora = R"("model":"llama-3-8b","method":"lora","gpu":"rtx-4090-24gb","micro_batch":1,)"
                           R"("activation_checkpointing":"full","tokens":1e8)";
  const json usd = Estimate("{" + lora + R"(,"currency":"USD"})");
  const json cny = Estimate("{" + lora + R"(,"currency":"CNY"})");
  ASSERT_TRUE(usd["costs"]["rent"].is_object()) << usd.dump().substr(0, 300);
  ASSERT_TRUE(cny["costs"]["rent"].is_object());
  const engine::Catalog& cat = catalog::Embedded().value();
  const auto market = [&](const json& r) { return cat.FindOffer(r["costs"]["rent"]["offer"].get<std::string>())->market; };
  EXPECT_NE(market(usd), engine::Market::kCn);
  EXPECT_EQ(market(cny), engine::Market::kCn);  // the cheapest 4090 rental is a Chinese cloud's
  const json plan = json::parse(engine::service::Session().Plan("{" + lora + R"(,"currency":"USD"})").json);
  for (const json& p : plan["pareto"]) {
    if (p["purchase"] != "cloud") continue;
    const engine::CloudOffer* offer = cat.FindOffer(p["procurement_id"].get<std::string>());
    ASSERT_NE(offer, nullptr) << p["procurement_id"];
    EXPECT_NE(offer->market, engine::Market::kCn) << offer->id;
  }
}

}  // namespace
