// verl and OpenRLHF imports (engine/imports/import_verl.cpp, import_openrlhf.cpp): the
// launch lines TrainSizer writes (engine/exports/rl_launch.cpp through
// Session::LaunchConfigs) read back to the post-training fields of the scenario they came
// from; hand-written lines with defaults left out; a value that is not a number.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"

namespace engine::imports {
namespace {

using nlohmann::json;

const engine::service::Session& TheSession() {
  static const engine::service::Session session;
  return session;
}

// The launch text `tool` ("verl", "openrlhf") for `scenario`.
std::string Launch(const json& scenario, const char* tool) {
  const engine::service::Response r = TheSession().LaunchConfigs(scenario.dump());
  EXPECT_TRUE(r.ok) << r.json;
  return json::parse(r.json).at(tool).get<std::string>();
}

engine::Result<ConfigImport> Import(const std::string& name, const std::string& text, ConfigTool from = ConfigTool::kAuto) {
  return ImportConfigs({{name, text}}, from, json::object(), TheSession().catalog());
}

// The import of `tool`'s line for `scenario`; fails the test when it does not import.
json RoundTrip(const json& scenario, const char* tool) {
  const std::string text = Launch(scenario, tool);
  const auto r = Import(std::string(tool) + ".sh", text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message) << "\n" << text;
  if (!r.ok()) return json::object();
  EXPECT_EQ(r.value().files.at(0).tool, std::string(tool) == "verl" ? ConfigTool::kVerl : ConfigTool::kOpenRlhf);
  return r.value().scenario;
}

// The post-training fields both tools carry, as the scenario gives them.
void ExpectSameFields(const json& scenario, const json& imported, const char* tool) {
  SCOPED_TRACE(tool);
  for (const char* field : {"method", "policy_update", "group_size", "prompts_per_step", "max_response_len",
                            "prompt_len", "gpus", "rollout_tp"}) {
    ASSERT_TRUE(imported.contains(field)) << field << " missing from " << imported.dump();
    EXPECT_EQ(imported[field], scenario[field]) << field;
  }
  EXPECT_EQ(imported["model"], scenario["model"]);
}

const json kGrpoLora = {{"model", "qwen2.5-7b"}, {"method", "grpo"},          {"gpus", 8},
                        {"group_size", 8},       {"prompts_per_step", 64},    {"max_response_len", 2048},
                        {"response_len", 1024},  {"policy_update", "lora"},   {"prompt_len", 512},
                        {"rollout_tp", 2}};

// [SECTION] round trips

TEST(ImportRl, VerlGrpoLoraRoundTrips) {
  const json back = RoundTrip(kGrpoLora, "verl");
  ExpectSameFields(kGrpoLora, back, "verl");
  EXPECT_EQ(back["lora_rank"], 16);
  EXPECT_EQ(back["lora_targets"], "all-linear");
  EXPECT_EQ(back["gpus_per_node"], 8);
  EXPECT_EQ(back["placement"], "colocated");
  EXPECT_EQ(back["reference"], "model");  // GRPO's KL loss: use_kl_loss=True
  EXPECT_EQ(back["reward"], "rule");
  EXPECT_EQ(back["framework"], "fsdp");
  EXPECT_FALSE(back.contains("rollout_oversample"));
}

TEST(ImportRl, OpenRlhfGrpoLoraRoundTrips) {
  const json back = RoundTrip(kGrpoLora, "openrlhf");
  ExpectSameFields(kGrpoLora, back, "openrlhf");
  EXPECT_EQ(back["lora_rank"], 16);
  EXPECT_EQ(back["placement"], "colocated");
  EXPECT_EQ(back["reference"], "model");  // --init_kl_coef 0.001
  EXPECT_EQ(back["reward"], "rule");      // --remote_rm_url
  EXPECT_EQ(back["framework"], "deepspeed");
  EXPECT_EQ(back["precision"], "bf16");
}

// PPO on two nodes: a critic, a reward model, no adapters.
TEST(ImportRl, PpoOnTwoNodesRoundTrips) {
  const json ppo = {{"model", "qwen2.5-7b"}, {"method", "ppo"},        {"gpus", 16},
                    {"gpus_per_node", 8},    {"group_size", 1},        {"prompts_per_step", 256},
                    {"prompt_len", 1024},    {"max_response_len", 1024}, {"response_len", 512},
                    {"policy_update", "full"}, {"rollout_tp", 4},      {"zero", 3},
                    {"activation_checkpointing", "full"}};
  for (const char* tool : {"verl", "openrlhf"}) {
    const json back = RoundTrip(ppo, tool);
    ExpectSameFields(ppo, back, tool);
    EXPECT_EQ(back["gpus_per_node"], 8) << tool;
    EXPECT_EQ(back["reward"], "model") << tool;
    EXPECT_EQ(back["reward_model"], "") << tool;  // the policy's architecture
    EXPECT_EQ(back["critic_model"], "") << tool;
    EXPECT_EQ(back["activation_checkpointing"], "full") << tool;
    EXPECT_EQ(back["zero"], 3) << tool;
    EXPECT_NE(back.value("reference", "model"), "none") << tool;
  }
}

// Separate placement: OpenRLHF gives the rollout engines GPUs of their own; verl always
// co-locates (its line says so), so only the GPU count comes back there.
TEST(ImportRl, SeparatePlacementRoundTripsThroughOpenRlhf) {
  const json separate = {{"model", "qwen2.5-7b"}, {"method", "grpo"},        {"gpus", 16},
                         {"group_size", 16},      {"prompts_per_step", 32},  {"max_response_len", 4096},
                         {"response_len", 2048},  {"policy_update", "full"}, {"prompt_len", 1024},
                         {"rollout_tp", 2},       {"placement", "separate"}, {"rollout_gpus", 8}};
  const json back = RoundTrip(separate, "openrlhf");
  ExpectSameFields(separate, back, "openrlhf");
  EXPECT_EQ(back["placement"], "separate");
  EXPECT_EQ(back["rollout_gpus"], 8);

  const json verl = RoundTrip(separate, "verl");
  ExpectSameFields(separate, verl, "verl");
  EXPECT_EQ(verl["placement"], "colocated");
}

// DAPO: dynamic sampling generates 3x the prompts trained (data.gen_batch_size), no
// reference model; offloading while generating off.
TEST(ImportRl, DapoOversampleAndNoReferenceRoundTrip) {
  json dapo = kGrpoLora;
  dapo["rollout_oversample"] = 3;
  dapo["reference"] = "none";
  dapo["offload_while_generating"] = false;
  const json verl = RoundTrip(dapo, "verl");
  ExpectSameFields(dapo, verl, "verl");
  EXPECT_DOUBLE_EQ(verl["rollout_oversample"].get<double>(), 3.0);
  EXPECT_EQ(verl["reference"], "none");
  EXPECT_EQ(verl["offload_while_generating"], false);

  const json openrlhf = RoundTrip(dapo, "openrlhf");
  ExpectSameFields(dapo, openrlhf, "openrlhf");
  EXPECT_EQ(openrlhf["reference"], "none");  // --init_kl_coef 0
  EXPECT_EQ(openrlhf["offload_while_generating"], false);
}

TEST(ImportRl, OffloadWhileGeneratingRoundTrips) {
  json on = kGrpoLora;
  on["offload_while_generating"] = true;
  for (const char* tool : {"verl", "openrlhf"}) {
    EXPECT_EQ(RoundTrip(on, tool)["offload_while_generating"], true) << tool;
  }
}

// [SECTION] the OpenRLHF command stays one command

// A comment inside the continued lines would swallow the backslash and end the command.
TEST(ImportRl, OpenRlhfCommandHasNoCommentInsideIt) {
  const json dpo = {{"model", "qwen2.5-7b"}, {"method", "dpo"}, {"gpus", 8}, {"policy_update", "lora"}};
  for (const json& scenario : {kGrpoLora, json{{"model", "qwen2.5-7b"}, {"method", "ppo"}, {"gpus", 8}}, dpo}) {
    const std::string text = Launch(scenario, "openrlhf");
    std::istringstream lines(text);
    std::string line;
    bool in_command = false;
    int continued = 0;
    while (std::getline(lines, line)) {
      if (line.rfind("#", 0) != 0) in_command = true;  // the header's comments end
      if (!in_command) continue;
      EXPECT_EQ(line.find('#'), std::string::npos) << line;
      if (line.size() >= 2 && line.compare(line.size() - 2, 2, " \\") == 0) ++continued;
      else break;
    }
    EXPECT_GT(continued, 8);
    EXPECT_EQ(std::getline(lines, line) ? line : "", "") << "text after the command's last line";
  }
}

// OpenRLHF's DPO line names the method by its script (auto-detection reads a deepspeed
// line as TRL's, so the tool is given).
TEST(ImportRl, OpenRlhfDpoReadsBack) {
  const json dpo = {{"model", "qwen2.5-7b"}, {"method", "dpo"},          {"gpus", 8},          {"prompts_per_step", 64},
                    {"prompt_len", 512},     {"response_len", 512},      {"policy_update", "qlora"}};
  const auto r = Import("dpo.sh", Launch(dpo, "openrlhf"), ConfigTool::kOpenRlhf);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const json& f = r.value().scenario;
  EXPECT_EQ(f["method"], "dpo");
  EXPECT_EQ(f["policy_update"], "qlora");
  EXPECT_EQ(f["prompts_per_step"], 64);
  EXPECT_EQ(f["prompt_len"], 512);  // --max_len 1024, half each
  EXPECT_EQ(f["response_len"], 512);
}

// [SECTION] hand-written lines

// A verl quickstart line: no algorithm.adv_estimator is verl's gae (PPO), no lora_rank a
// full update, and a Hydra list of LoRA modules.
TEST(ImportRl, VerlDefaultsAreSaid) {
  const std::string text =
      "PYTHONUNBUFFERED=1 python3 -m verl.trainer.main_ppo \\\n"
      "  data.train_files=$HOME/data/gsm8k/train.parquet \\\n"
      "  data.train_batch_size=256 data.max_prompt_length=512 data.max_response_length=256 \\\n"
      "  actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\\n"
      "  actor_rollout_ref.actor.optim.lr=1e-6 \\\n"
      "  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \\\n"
      "  critic.model.path=Qwen/Qwen2.5-7B-Instruct critic.optim.lr=1e-5 \\\n"
      "  trainer.logger=['console'] trainer.n_gpus_per_node=4 trainer.nnodes=1\n";
  const auto r = Import("ppo.sh", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const json& f = r.value().scenario;
  EXPECT_EQ(f["method"], "ppo");
  EXPECT_EQ(f["policy_update"], "full");
  EXPECT_EQ(f["gpus"], 4);
  EXPECT_EQ(f["prompts_per_step"], 256);
  EXPECT_EQ(f["activation_checkpointing"], "full");  // ppo_trainer.yaml's default
  EXPECT_EQ(f["critic_model"], "");
  bool said = false;
  for (const Assumption& a : r.value().assumed) said = said || (a.field == "method" && a.why.id == "import.assumed.tool_default");
  EXPECT_TRUE(said);
  for (const IgnoredKey& i : r.value().ignored) {
    EXPECT_NE(i.why.id, "import.ignored.unknown") << i.key;
  }
}

TEST(ImportRl, OpenRlhfReinforceWithRewardModel) {
  const std::string text =
      "ray job submit --address=http://127.0.0.1:8265 -- python3 -m openrlhf.cli.train_ppo_ray \\\n"
      "  --actor_num_nodes 1 --actor_num_gpus_per_node 4 --ref_num_nodes 1 --ref_num_gpus_per_node 4 \\\n"
      "  --vllm_num_engines 2 --vllm_tensor_parallel_size 2 \\\n"
      "  --pretrain meta-llama/Llama-3.1-8B-Instruct --reward_pretrain OpenRLHF/Llama-3-8b-rm-mixture \\\n"
      "  --advantage_estimator reinforce --n_samples_per_prompt 4 --rollout_batch_size 128 \\\n"
      "  --train_batch_size 128 --micro_train_batch_size 2 --prompt_max_len 1024 --generate_max_len 1024 \\\n"
      "  --zero_stage 3 --bf16 --actor_learning_rate 5e-7 --init_kl_coef 0.01 --gradient_checkpointing\n";
  const auto r = Import("reinforce.sh", text);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const json& f = r.value().scenario;
  EXPECT_EQ(f["method"], "grpo");
  EXPECT_EQ(f["placement"], "separate");
  EXPECT_EQ(f["rollout_gpus"], 4);
  EXPECT_EQ(f["gpus"], 8);
  EXPECT_EQ(f["reward"], "model");
  EXPECT_EQ(f["reference"], "model");
  EXPECT_EQ(f["zero"], 3);
  bool mini_batch = false;
  for (const IgnoredKey& i : r.value().ignored) mini_batch = mini_batch || i.key == "train_batch_size";
  EXPECT_TRUE(mini_batch) << "128 sequences of 512 a step: several optimizer steps";
}

// [SECTION] errors

TEST(ImportRl, BadVerlValueNamesItsLine) {
  std::string text = Launch(kGrpoLora, "verl");
  const std::string key = "actor_rollout_ref.rollout.n=8";
  ASSERT_NE(text.find(key), std::string::npos);
  text.replace(text.find(key), key.size(), "actor_rollout_ref.rollout.n=abc");
  const auto r = Import("verl.sh", text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("actor_rollout_ref.rollout.n"), std::string::npos) << r.error().message;
}

TEST(ImportRl, BadOpenRlhfValueNamesItsLine) {
  std::string text = Launch(kGrpoLora, "openrlhf");
  const std::string key = "--n_samples_per_prompt 8";
  ASSERT_NE(text.find(key), std::string::npos);
  text.replace(text.find(key), key.size(), "--n_samples_per_prompt many");
  const auto r = Import("openrlhf.sh", text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace engine::imports
