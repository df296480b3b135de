// Post-training launch configs (engine/exports/rl_launch.h through Session::LaunchConfigs):
// the sizes each tool is given agree with the scenario, worked out by hand below.
#include "engine/service/api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>

namespace {

using nlohmann::json;

json Launch(const std::string& scenario) {
  const engine::service::Response r = engine::service::Session().LaunchConfigs(scenario);
  EXPECT_TRUE(r.ok) << r.json;
  return json::parse(r.json);
}

// verl's "key=value" arguments, one a line.
std::map<std::string, std::string> Overrides(const std::string& command) {
  std::map<std::string, std::string> out;
  std::istringstream in(command);
  std::string token;
  while (in >> token) {
    const size_t eq = token.find('=');
    if (eq != std::string::npos && token.find('.') < eq) out[token.substr(0, eq)] = token.substr(eq + 1);
  }
  return out;
}

// A Python keyword argument's value in the TRL script ("" when absent).
std::string Keyword(const std::string& script, const std::string& key) {
  const size_t at = script.find("    " + key + "=");
  if (at == std::string::npos) return "";
  const size_t start = at + 5 + key.size();
  return script.substr(start, script.find(',', start) - start);
}

constexpr const char* kGrpo =
    R"({"model":"qwen2.5-7b","method":"grpo","gpus":8,"zero":3,"prompt_len":512,"response_len":2048,)"
    R"("max_response_len":4096,"prompts_per_step":64,"group_size":16,"rollout_tp":2})";

// GRPO: 64 prompts × 16 answers; the engine at TP 2 on 8 GPUs is 4 instances.
TEST(RlLaunch, VerlGetsTheRolloutAndBatchSizes) {
  const auto v = Overrides(Launch(kGrpo)["verl"].get<std::string>());
  EXPECT_EQ(v.at("algorithm.adv_estimator"), "grpo");
  EXPECT_EQ(v.at("data.train_batch_size"), "64");
  EXPECT_EQ(v.at("data.max_response_length"), "4096");
  EXPECT_EQ(v.at("actor_rollout_ref.rollout.n"), "16");
  EXPECT_EQ(v.at("actor_rollout_ref.rollout.tensor_model_parallel_size"), "2");
  const double share = std::stod(v.at("actor_rollout_ref.rollout.gpu_memory_utilization"));
  EXPECT_GT(share, 0.05);
  EXPECT_LT(share, 0.96);
  EXPECT_EQ(v.at("trainer.n_gpus_per_node"), "8");
}

// 64 × 16 = 1,024 sequences per step = 1 per GPU × 8 GPUs × 128 accumulation steps.
TEST(RlLaunch, TrlsBatchArithmeticCoversOneStep) {
  const std::string trl = Launch(kGrpo)["trl"].get<std::string>();
  EXPECT_NE(trl.find("GRPOTrainer"), std::string::npos);
  EXPECT_EQ(Keyword(trl, "num_generations"), "16");
  EXPECT_EQ(Keyword(trl, "per_device_train_batch_size"), "1");
  EXPECT_EQ(Keyword(trl, "gradient_accumulation_steps"), "128");
  EXPECT_EQ(Keyword(trl, "vllm_tensor_parallel_size"), "2");
}

TEST(RlLaunch, PpoBringsItsCriticAndDpoItsTrainer) {
  const std::string openrlhf =
      Launch(R"({"model":"qwen2.5-7b","method":"ppo","gpus":8,"zero":3})")["openrlhf"].get<std::string>();
  EXPECT_NE(openrlhf.find("--critic_pretrain"), std::string::npos);
  EXPECT_NE(openrlhf.find("--advantage_estimator gae"), std::string::npos);
  const json dpo = Launch(R"({"model":"qwen2.5-7b","method":"dpo","gpus":8,"zero":3,"prompts_per_step":64})");
  EXPECT_NE(dpo["trl"].get<std::string>().find("DPOTrainer"), std::string::npos);
  // 64 pairs = 1 per GPU × 8 GPUs × 8 accumulation steps.
  EXPECT_EQ(Keyword(dpo["trl"].get<std::string>(), "gradient_accumulation_steps"), "8");
  EXPECT_NE(dpo["openrlhf"].get<std::string>().find("openrlhf.cli.train_dpo"), std::string::npos);
  // verl has no offline DPO: its text says so rather than giving a wrong config.
  EXPECT_EQ(dpo["verl"].get<std::string>().find("main_ppo"), std::string::npos);
}

}  // namespace
