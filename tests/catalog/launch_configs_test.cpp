// Launch configs (api::LaunchConfigs, `trainsizer launch`): the batch arithmetic of every
// tool agrees with the scenario, and what a tool cannot express comes back as a note.
// Expected numbers are worked out by hand in the comments.
#include "catalog/codec/api.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

json Launch(const std::string& scenario) {
  const api::Response r = api::LaunchConfigs(scenario);
  json j = json::parse(r.json);
  EXPECT_EQ(r.ok, !j.contains("error")) << r.json;
  return j;
}

// The argument after `flag` in a shell command ("" when absent); line continuations are
// whitespace.
std::string FlagValue(const std::string& command, const std::string& flag) {
  std::istringstream in(command);
  std::string token, previous;
  while (in >> token) {
    if (previous == flag) return token;
    previous = token;
  }
  return "";
}

bool HasFlag(const std::string& command, const std::string& flag) {
  std::istringstream in(command);
  std::string token;
  while (in >> token) {
    if (token == flag) return true;
  }
  return false;
}

int IntFlag(const std::string& command, const std::string& flag) {
  const std::string value = FlagValue(command, flag);
  EXPECT_FALSE(value.empty()) << flag << " missing in\n" << command;
  return value.empty() ? -1 : std::stoi(value);
}

// Top-level `key: value` pairs of the YAML (comments stripped). Its full syntax is checked
// with PyYAML by tests/catalog/check_yaml.py.
std::map<std::string, std::string> YamlPairs(const std::string& yaml) {
  std::map<std::string, std::string> out;
  std::istringstream in(yaml);
  std::string line;
  while (std::getline(in, line)) {
    if (const size_t hash = line.find(" #"); hash != std::string::npos) line.resize(hash);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(": ");
    if (colon != std::string::npos) out[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return out;
}

bool HasNote(const json& configs, const std::string& tool, const std::string& words) {
  for (const json& n : configs["notes"]) {
    if (n["tool"] == tool && n["note"].get<std::string>().find(words) != std::string::npos) return true;
  }
  return false;
}

TEST(LaunchConfigs, LoraOnOneGpu) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"lora","micro_batch":4,"global_batch":16,
                            "seq_len":2048,"tokens":1e8})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  // One GPU: DP 1, so 16 / (4 × 1) = 4 accumulation steps; ⌈1e8 / (16 × 2048)⌉ = ⌈3051.8⌉ = 3052 steps.
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["train_batch_size"], 16);
  EXPECT_EQ(ds["train_micro_batch_size_per_gpu"], 4);
  EXPECT_EQ(ds["gradient_accumulation_steps"], 4);
  EXPECT_EQ(ds["zero_optimization"]["stage"], 0);
  EXPECT_EQ(ds["gradient_clipping"], 1.0);
  EXPECT_TRUE(ds["bf16"]["enabled"].get<bool>());
  EXPECT_EQ(ds["optimizer"]["type"], "AdamW");

  const std::string torchrun = c["torchrun"];
  EXPECT_EQ(IntFlag(torchrun, "--nnodes") * IntFlag(torchrun, "--nproc_per_node"), 1);
  EXPECT_EQ(IntFlag(torchrun, "--max_steps"), 3052);
  EXPECT_EQ(FlagValue(torchrun, "--lora_r"), "16");
  EXPECT_FALSE(HasFlag(torchrun, "--fsdp")) << "one GPU needs no sharding";

  const auto yaml = YamlPairs(c["llamafactory"]);
  EXPECT_EQ(yaml.at("model_name_or_path"), "meta-llama/Meta-Llama-3-8B");
  EXPECT_EQ(yaml.at("stage"), "sft");
  EXPECT_EQ(yaml.at("finetuning_type"), "lora");
  EXPECT_EQ(yaml.at("lora_rank"), "16");
  EXPECT_EQ(yaml.at("lora_target"), "all");
  EXPECT_EQ(std::stoi(yaml.at("per_device_train_batch_size")) * std::stoi(yaml.at("gradient_accumulation_steps")), 16);
  EXPECT_EQ(yaml.at("cutoff_len"), "2048");
  EXPECT_EQ(yaml.at("max_steps"), "3052");
  EXPECT_EQ(yaml.count("deepspeed"), 0u) << "zero 0 needs no DeepSpeed config";
  EXPECT_EQ(yaml.at("disable_gradient_checkpointing"), "true");
  EXPECT_TRUE(HasNote(c, "megatron", "method lora"));
}

TEST(LaunchConfigs, SeventyBillionFullFineTuneZero3On16Gpus) {
  const json c = Launch(R"({"model":"llama-3-70b","method":"full","gpus":16,"zero":3,"micro_batch":1,
                            "global_batch":256,"activation_checkpointing":"full","tokens":1e9})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  // 16 GPUs, no model parallelism: DP 16; 256 / (1 × 16) = 16 accumulation steps;
  // two nodes of 8; ⌈1e9 / (256 × 4096)⌉ = ⌈953.7⌉ = 954 steps.
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["zero_optimization"]["stage"], 3);
  EXPECT_EQ(ds["gradient_accumulation_steps"], 16);
  EXPECT_EQ(ds["train_batch_size"].get<int>(),
            ds["train_micro_batch_size_per_gpu"].get<int>() * ds["gradient_accumulation_steps"].get<int>() * 16);
  EXPECT_EQ(ds["train_batch_size"], 256);
  EXPECT_TRUE(ds["zero_optimization"]["overlap_comm"].get<bool>());
  EXPECT_TRUE(ds["zero_optimization"]["contiguous_gradients"].get<bool>());
  EXPECT_FALSE(ds["zero_optimization"].contains("offload_optimizer"));
  EXPECT_TRUE(ds.contains("activation_checkpointing"));

  const std::string torchrun = c["torchrun"];
  EXPECT_EQ(IntFlag(torchrun, "--nnodes"), 2);
  EXPECT_EQ(IntFlag(torchrun, "--nproc_per_node"), 8);
  EXPECT_EQ(FlagValue(torchrun, "--rdzv_backend"), "c10d");
  EXPECT_EQ(FlagValue(torchrun, "--rdzv_endpoint"), "$MASTER_ADDR:29500");
  EXPECT_EQ(IntFlag(torchrun, "--max-restarts"), 3);
  EXPECT_EQ(FlagValue(torchrun, "--fsdp"), "\"full_shard");
  EXPECT_TRUE(HasFlag(torchrun, "--gradient_checkpointing"));
  EXPECT_EQ(IntFlag(torchrun, "--gradient_accumulation_steps"), 16);

  const auto yaml = YamlPairs(c["llamafactory"]);
  EXPECT_EQ(yaml.at("finetuning_type"), "full");
  EXPECT_EQ(yaml.at("deepspeed"), "ds_config.json");
  EXPECT_EQ(std::stoi(yaml.at("per_device_train_batch_size")) * std::stoi(yaml.at("gradient_accumulation_steps")) * 16,
            256);

  const std::string megatron = c["megatron"];
  EXPECT_EQ(IntFlag(megatron, "--num-layers"), 80);
  EXPECT_EQ(IntFlag(megatron, "--hidden-size"), 8192);
  EXPECT_EQ(IntFlag(megatron, "--num-query-groups"), 8);
  EXPECT_EQ(IntFlag(megatron, "--global-batch-size"), 256);
  EXPECT_EQ(IntFlag(megatron, "--train-iters"), 954);
  EXPECT_EQ(FlagValue(megatron, "--recompute-granularity"), "full");
  EXPECT_EQ(FlagValue(megatron, "--recompute-method"), "uniform");
  EXPECT_TRUE(HasNote(c, "megatron", "zero 3")) << c["notes"].dump();
}

TEST(LaunchConfigs, MegatronTp8Pp4Cp2On512Gpus) {
  const json c = Launch(R"({"model":"llama-3-70b","method":"pretrain","framework":"megatron","gpus":512,
                            "tp":8,"pp":4,"cp":2,"virtual_pipeline":5,"sequence_parallel":true,"zero":1,
                            "micro_batch":1,"global_batch":1024,"seq_len":8192,"tokens":1e12,
                            "activation_checkpointing":"selective","precision":"fp8"})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  // DP = 512 / (8 × 4 × 2) = 8; 1024 / (1 × 8) = 128 micro-batches per step;
  // 80 layers / (4 stages × 5 chunks) = 4 layers per virtual stage; 64 nodes × 8 GPUs.
  const std::string m = c["megatron"];
  const int tp = IntFlag(m, "--tensor-model-parallel-size"), pp = IntFlag(m, "--pipeline-model-parallel-size"),
            cp = IntFlag(m, "--context-parallel-size");
  EXPECT_EQ(tp, 8);
  EXPECT_EQ(pp, 4);
  EXPECT_EQ(cp, 2);
  EXPECT_EQ(tp * pp * cp * 8, 512);
  EXPECT_EQ(IntFlag(m, "--global-batch-size") % (IntFlag(m, "--micro-batch-size") * 8), 0);
  EXPECT_EQ(IntFlag(m, "--global-batch-size") / (IntFlag(m, "--micro-batch-size") * 8), 128);
  EXPECT_EQ(IntFlag(m, "--num-layers-per-virtual-pipeline-stage"), 4);
  EXPECT_EQ(IntFlag(m, "--seq-length"), 8192);
  EXPECT_TRUE(HasFlag(m, "--sequence-parallel"));
  EXPECT_TRUE(HasFlag(m, "--use-distributed-optimizer"));
  EXPECT_TRUE(HasFlag(m, "--use-flash-attn"));
  EXPECT_EQ(FlagValue(m, "--fp8-format"), "hybrid");
  EXPECT_EQ(FlagValue(m, "--recompute-granularity"), "selective");
  EXPECT_EQ(IntFlag(m, "--nnodes") * IntFlag(m, "--nproc_per_node"), 512);

  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["train_batch_size"].get<int>(),
            ds["train_micro_batch_size_per_gpu"].get<int>() * ds["gradient_accumulation_steps"].get<int>() * 8);
  EXPECT_EQ(ds["train_batch_size"], 1024);
  EXPECT_EQ(ds["zero_optimization"]["stage"], 1);
  EXPECT_TRUE(HasNote(c, "deepspeed", "not expressible: cp = 2"));
  EXPECT_TRUE(HasNote(c, "deepspeed", "not expressible: fp8"));
  EXPECT_TRUE(HasNote(c, "llamafactory", "no TP/PP"));
  EXPECT_TRUE(HasNote(c, "torchrun", "tp = 8, pp = 4, cp = 2"));
  EXPECT_TRUE(HasNote(c, "torchrun", "selective"));

  const auto yaml = YamlPairs(c["llamafactory"]);
  EXPECT_EQ(yaml.at("stage"), "pt");
  EXPECT_EQ(std::stoi(yaml.at("per_device_train_batch_size")) * std::stoi(yaml.at("gradient_accumulation_steps")) * 8,
            1024);
  EXPECT_EQ(c["plan"]["data_parallel"], 8);
  EXPECT_EQ(c["plan"]["nodes"], 64);
}

TEST(LaunchConfigs, QloraOnTwoConsumerGpus) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"qlora","gpu":"rtx-4090-24gb","gpus":2,"micro_batch":2,
                            "global_batch":32,"lora_rank":64,"lora_targets":"attention","seq_len":2048})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  // DP 2: 32 / (2 × 2) = 8 accumulation steps; no tokens, so epochs instead of steps.
  const auto yaml = YamlPairs(c["llamafactory"]);
  EXPECT_EQ(yaml.at("quantization_bit"), "4");
  EXPECT_EQ(yaml.at("lora_rank"), "64");
  EXPECT_EQ(yaml.at("lora_target"), "q_proj,k_proj,v_proj,o_proj");
  EXPECT_EQ(yaml.at("gradient_accumulation_steps"), "8");
  EXPECT_EQ(std::stoi(yaml.at("per_device_train_batch_size")) * 8 * 2, 32);
  EXPECT_EQ(yaml.count("max_steps"), 0u);
  EXPECT_EQ(yaml.at("num_train_epochs"), "1");

  const std::string torchrun = c["torchrun"];
  EXPECT_EQ(IntFlag(torchrun, "--nnodes") * IntFlag(torchrun, "--nproc_per_node"), 2);
  EXPECT_TRUE(HasFlag(torchrun, "--load_in_4bit"));
  EXPECT_TRUE(HasFlag(torchrun, "--use_peft"));
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["train_batch_size"], 32);
  EXPECT_EQ(ds["gradient_accumulation_steps"], 8);
  EXPECT_TRUE(HasNote(c, "llamafactory", "Llama-style module names"));
}

TEST(LaunchConfigs, OffloadAndFp16Sections) {
  const json c = Launch(R"({"model":"llama-3-8b","gpus":8,"zero":3,"offload":"optimizer+params","precision":"fp16",
                            "optimizer":"adamw-8bit"})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  const json& zero = ds["zero_optimization"];
  EXPECT_EQ(zero["offload_optimizer"]["device"], "cpu");
  EXPECT_TRUE(zero["offload_optimizer"]["pin_memory"].get<bool>());
  EXPECT_EQ(zero["offload_param"]["device"], "cpu");
  EXPECT_EQ(ds["fp16"]["loss_scale"], 0) << "0 = dynamic loss scaling";
  EXPECT_FALSE(ds.contains("bf16"));
  EXPECT_FALSE(ds.contains("optimizer"));
  EXPECT_TRUE(ds["zero_allow_untested_optimizer"].get<bool>());
  EXPECT_TRUE(HasNote(c, "deepspeed", "adamw-8bit"));
  EXPECT_EQ(FlagValue(c["torchrun"], "--optim"), "adamw_bnb_8bit");
  EXPECT_TRUE(HasFlag(c["torchrun"], "--fp16"));
  EXPECT_NE(c["torchrun"].get<std::string>().find("full_shard auto_wrap offload"), std::string::npos);
}

TEST(LaunchConfigs, BadScenarioGivesTheEstimateError) {
  for (const char* scenario : {R"({"model":"llama-3-8b","tp":3})", R"({"model":"llama-3-8b","gpus":8,
                               "global_batch":12})", R"({"method":"full"})", "not json"}) {
    const api::Response launch = api::LaunchConfigs(scenario);
    const api::Response estimate = api::Estimate(scenario);
    EXPECT_FALSE(launch.ok) << scenario;
    EXPECT_EQ(launch.json, estimate.json) << scenario;
  }
}

#ifdef TRAINSIZER_CLI
int RunCli(const std::string& args, const std::string& scenario, std::string* out) {
  const std::string input = ::testing::TempDir() + "launch_scenario.json";
  FILE* f = std::fopen(input.c_str(), "w");
  std::fputs(scenario.c_str(), f);
  std::fclose(f);
  const std::string cmd = std::string(TRAINSIZER_CLI) + " " + args + " < " + input + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out->append(buf, n);
  const int status = pclose(pipe);
  return WEXITSTATUS(status);
}

TEST(LaunchCli, PrintsOneToolAloneAndRefusesUnknownTools) {
  const std::string scenario = R"({"model":"llama-3-8b","gpus":16,"zero":3,"global_batch":64})";
  std::string ds_text, all_text, bad_text;
  EXPECT_EQ(RunCli("launch - --tool deepspeed", scenario, &ds_text), 0);
  // 64 / (1 × 16) = 4 accumulation steps.
  EXPECT_EQ(json::parse(ds_text)["gradient_accumulation_steps"], 4);
  EXPECT_EQ(RunCli("launch -", scenario, &all_text), 0);
  for (const char* header : {"==> ds_config.json", "==> torchrun.sh", "==> llamafactory.yaml", "==> megatron.sh"}) {
    EXPECT_NE(all_text.find(header), std::string::npos) << header;
  }
  EXPECT_EQ(RunCli("launch - --tool slurm", scenario, &bad_text), 2);
  EXPECT_NE(bad_text.find("--tool"), std::string::npos);
}
#endif

}  // namespace
