// Launch configs (engine::service::Session::LaunchConfigs, `trainsizer launch`): the batch arithmetic of every
// tool holds for the processes it starts (data-parallel-only tools: every GPU a rank), and
// what a tool cannot express comes back as a note.
// Expected numbers are worked out by hand in the comments.
#include "engine/service/api.h"
#include "tests/engine/exports/cli_runner.h"
#include "tests/engine/exports/shell_flags.h"

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
  const engine::service::Response r = engine::service::Session().LaunchConfigs(scenario);
  json j = json::parse(r.json);
  EXPECT_EQ(r.ok, !j.contains("error")) << r.json;
  return j;
}

using engine::test::FlagValue;
using engine::test::HasFlag;

int IntFlag(const std::string& command, const std::string& flag) {
  const std::string value = FlagValue(command, flag);
  EXPECT_FALSE(value.empty()) << flag << " missing in\n" << command;
  return value.empty() ? -1 : std::stoi(value);
}

// Top-level `key: value` pairs of the YAML (comments stripped). Its full syntax is checked
// with PyYAML by tests/engine/exports/check_yaml.py.
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
  EXPECT_EQ(FlagValue(m, "--attention-backend"), "fused");  // Megatron-LM runs cuDNN attention
  EXPECT_EQ(FlagValue(m, "--fp8-format"), "hybrid");
  EXPECT_EQ(FlagValue(m, "--recompute-granularity"), "selective");
  EXPECT_EQ(IntFlag(m, "--nnodes") * IntFlag(m, "--nproc_per_node"), 512);

  // The data-parallel-only tools start 512 ranks: 1024 / (1 × 512) = 2 accumulation steps.
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["train_batch_size"].get<int>(),
            ds["train_micro_batch_size_per_gpu"].get<int>() * ds["gradient_accumulation_steps"].get<int>() * 512);
  EXPECT_EQ(ds["train_batch_size"], 1024);
  EXPECT_EQ(ds["gradient_accumulation_steps"], 2);
  EXPECT_EQ(ds["zero_optimization"]["stage"], 1);
  EXPECT_TRUE(HasNote(c, "deepspeed", "not expressible: cp = 2"));
  EXPECT_TRUE(HasNote(c, "deepspeed", "not expressible: fp8"));
  EXPECT_TRUE(HasNote(c, "llamafactory", "no TP/PP"));
  EXPECT_TRUE(HasNote(c, "torchrun", "tp = 8, pp = 4, cp = 2"));
  EXPECT_TRUE(HasNote(c, "torchrun", "selective"));

  const auto yaml = YamlPairs(c["llamafactory"]);
  EXPECT_EQ(yaml.at("stage"), "pt");
  EXPECT_EQ(std::stoi(yaml.at("per_device_train_batch_size")) * std::stoi(yaml.at("gradient_accumulation_steps")) * 512,
            1024);
  EXPECT_EQ(c["plan"]["data_parallel"], 8);
  EXPECT_EQ(c["plan"]["nodes"], 64);
}

// Megatron's recompute modules and activation offload as its arguments: 32 layers over
// 2 stages = 16 per stage, of which all but the last are offloaded (15).
TEST(LaunchConfigs, MegatronRecomputeModulesAndActivationOffload) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"pretrain","framework":"megatron","gpus":8,"pp":2,
                            "activation_checkpointing":"selective","recompute_modules":["mlp","layernorm"],
                            "activation_offload":true,"tokens":1e9})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  const std::string m = c["megatron"];
  EXPECT_NE(m.find("--recompute-granularity selective --recompute-modules mlp layernorm"), std::string::npos) << m;
  EXPECT_TRUE(HasFlag(m, "--cpu-offloading"));
  EXPECT_EQ(IntFlag(m, "--cpu-offloading-num-layers"), 15);
  EXPECT_TRUE(HasNote(c, "torchrun", "activation offload"));
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
  EXPECT_EQ(yaml.count("additional_target"), 0u);
  EXPECT_EQ(torchrun.find("--lora_modules_to_save"), std::string::npos);
}

// LLaMA-Factory through FSDP: no deepspeed entry, and a note on the Accelerate launch.
TEST(LaunchConfigs, LlamaFactoryThroughFsdpNamesNoDeepSpeedFile) {
  const json ds = Launch(R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3,"framework":"llama-factory"})");
  EXPECT_EQ(YamlPairs(ds["llamafactory"]).count("deepspeed"), 1u);
  const json c = Launch(R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3,"framework":"llama-factory",
                            "sharding":"fsdp"})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  EXPECT_EQ(YamlPairs(c["llamafactory"]).count("deepspeed"), 0u);
  EXPECT_TRUE(HasNote(c, "llamafactory", "accelerate launch"));
}

// Embeddings and head trained beside the adapters: LLaMA-Factory's additional_target
// (comma-separated module names) and TRL ModelConfig's lora_modules_to_save (nargs +).
TEST(LaunchConfigs, LoraWithTrainedEmbeddingsAndHead) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"lora","gpu":"h100-sxm-80gb","gpus":1,
                            "lora_modules_to_save":"embeddings+head"})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  EXPECT_EQ(YamlPairs(c["llamafactory"]).at("additional_target"), "embed_tokens,lm_head");
  const std::string torchrun = c["torchrun"];
  EXPECT_NE(torchrun.find("--lora_modules_to_save embed_tokens lm_head"), std::string::npos) << torchrun;
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

// The batch identities every config must satisfy for the processes its tool starts.
// `gpus`, the layout and `global` are the scenario's; the data-parallel degrees are worked
// out here: DeepSpeed (its config, without model-parallel code), torchrun/FSDP and
// LLaMA-Factory are data parallel only, so every GPU is a rank; Megatron-LM runs the layout,
// DP = gpus / (tp × pp × cp). `dp_only_global` is the global batch the data-parallel-only
// tools run (the scenario's, unless it is no multiple of micro × gpus).
struct Layout {
  int gpus, tp, pp, cp, global, dp_only_global;
};

void ExpectBatchIdentities(const json& c, const Layout& l) {
  ASSERT_FALSE(c.contains("error")) << c.dump();
  const int megatron_dp = l.gpus / (l.tp * l.pp * l.cp);

  const json ds = json::parse(c["deepspeed"].get<std::string>());  // must parse as JSON
  const int ds_micro = ds["train_micro_batch_size_per_gpu"], ds_accum = ds["gradient_accumulation_steps"];
  // Hugging Face's DeepSpeed integration: micro × accumulation × world size = train_batch_size.
  EXPECT_EQ(ds_micro * ds_accum * l.gpus, ds["train_batch_size"].get<int>()) << "deepspeed";
  EXPECT_EQ(ds["train_batch_size"].get<int>(), l.dp_only_global);

  const std::string torchrun = c["torchrun"];
  EXPECT_EQ(IntFlag(torchrun, "--nnodes") * IntFlag(torchrun, "--nproc_per_node"), l.gpus);
  EXPECT_EQ(IntFlag(torchrun, "--per_device_train_batch_size") * IntFlag(torchrun, "--gradient_accumulation_steps") *
                l.gpus,
            l.dp_only_global)
      << "torchrun";

  const auto yaml = YamlPairs(c["llamafactory"]);
  const int yaml_micro = std::stoi(yaml.at("per_device_train_batch_size"));
  const int yaml_accum = std::stoi(yaml.at("gradient_accumulation_steps"));
  EXPECT_EQ(yaml_micro * yaml_accum * l.gpus, l.dp_only_global) << "llamafactory";
  // The YAML's Trainer arguments and the ds_config.json it names must agree, or the
  // integration refuses the run.
  EXPECT_EQ(yaml_micro, ds_micro);
  EXPECT_EQ(yaml_accum, ds_accum);

  const std::string m = c["megatron"];
  const int tp = IntFlag(m, "--tensor-model-parallel-size"), pp = IntFlag(m, "--pipeline-model-parallel-size"),
            cp = IntFlag(m, "--context-parallel-size");
  EXPECT_EQ(tp, l.tp);
  EXPECT_EQ(pp, l.pp);
  EXPECT_EQ(cp, l.cp);
  EXPECT_EQ(tp * pp * cp * megatron_dp, l.gpus) << "megatron: TP·PP·CP·DP = GPUs";
  EXPECT_EQ(IntFlag(m, "--nnodes") * IntFlag(m, "--nproc_per_node"), l.gpus);
  EXPECT_EQ(IntFlag(m, "--global-batch-size"), l.global);
  EXPECT_EQ(l.global % (IntFlag(m, "--micro-batch-size") * megatron_dp), 0) << "megatron";
  EXPECT_EQ(c["plan"]["data_parallel"], megatron_dp);
  EXPECT_EQ(c["plan"]["micro_batch"].get<int>() * c["plan"]["grad_accum_steps"].get<int>() * megatron_dp, l.global);
}

TEST(LaunchConfigs, BatchIdentitiesQloraOnOneGpu) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"qlora","gpu":"rtx-4090-24gb","tokens":1e8,
                            "global_batch":16,"micro_batch":2})");
  // One GPU: every degree is 1; 16 / (2 × 1) = 8 accumulation steps in every tool.
  ExpectBatchIdentities(c, {1, 1, 1, 1, 16, 16});
  EXPECT_EQ(IntFlag(c["torchrun"], "--gradient_accumulation_steps"), 8);
  EXPECT_EQ(IntFlag(c["megatron"], "--global-batch-size") / IntFlag(c["megatron"], "--micro-batch-size"), 8);
}

TEST(LaunchConfigs, BatchIdentitiesEightBFullZero3OffloadOnEightGpus) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3,"framework":"deepspeed",
                            "offload":"optimizer+params","micro_batch":2,"global_batch":64,
                            "activation_checkpointing":"full","tokens":5e8})");
  // DP 8 everywhere: 64 / (2 × 8) = 4 accumulation steps; ⌈5e8 / (64 × 4096)⌉ = ⌈1907.3⌉ = 1908 steps.
  ExpectBatchIdentities(c, {8, 1, 1, 1, 64, 64});
  const json ds = json::parse(c["deepspeed"].get<std::string>());
  EXPECT_EQ(ds["gradient_accumulation_steps"], 4);
  EXPECT_EQ(ds["zero_optimization"]["offload_param"]["device"], "cpu");
  EXPECT_EQ(IntFlag(c["torchrun"], "--max_steps"), 1908);
  EXPECT_EQ(YamlPairs(c["llamafactory"]).at("max_steps"), "1908");
  EXPECT_FALSE(HasNote(c, "torchrun", "data-parallel ranks, not the plan's")) << "no model parallelism to drop";
}

TEST(LaunchConfigs, BatchIdentitiesSeventyBOn64GpusTp8Pp2) {
  const json c = Launch(R"({"model":"llama-3-70b","method":"full","gpus":64,"tp":8,"pp":2,"sequence_parallel":true,
                            "framework":"megatron","zero":1,"micro_batch":1,"global_batch":512,
                            "activation_checkpointing":"full","tokens":2e9,"seq_len":8192})");
  // Megatron-LM: DP = 64 / (8 × 2) = 4, 512 / (1 × 4) = 128 micro-batches per step.
  // The data-parallel-only tools start 64 ranks: 512 / (1 × 64) = 8 accumulation steps,
  // not 128 (which would make 64 × 128 = 8192 sequences a step). 512 is a multiple of 64.
  // ⌈2e9 / (512 × 8192)⌉ = ⌈476.8⌉ = 477 steps for all.
  ExpectBatchIdentities(c, {64, 8, 2, 1, 512, 512});
  EXPECT_EQ(IntFlag(c["torchrun"], "--gradient_accumulation_steps"), 8);
  EXPECT_EQ(YamlPairs(c["llamafactory"]).at("gradient_accumulation_steps"), "8");
  EXPECT_EQ(json::parse(c["deepspeed"].get<std::string>())["gradient_accumulation_steps"], 8);
  EXPECT_EQ(IntFlag(c["torchrun"], "--max_steps"), 477);
  EXPECT_EQ(IntFlag(c["megatron"], "--train-iters"), 477);
  EXPECT_EQ(c["plan"]["grad_accum_steps"], 128);
  for (const char* tool : {"deepspeed", "torchrun", "llamafactory"}) {
    EXPECT_TRUE(HasNote(c, tool, "runs all 64 GPUs as data-parallel ranks, not the plan's 4")) << tool;
    EXPECT_TRUE(HasNote(c, tool, "memory per GPU")) << tool;
  }
  EXPECT_TRUE(HasNote(c, "deepspeed", "set train_batch_size to 512 and gradient_accumulation_steps to 128"));
  EXPECT_FALSE(HasNote(c, "megatron", "data-parallel ranks, not the plan's"));
}

TEST(LaunchConfigs, DataParallelOnlyToolsRoundAGlobalBatchTheyCannotSplit) {
  // DP 4 for the layout: 80 / (1 × 4) = 20 is fine for Megatron-LM. 64 data-parallel ranks
  // cannot split 80: the nearest multiple of 1 × 64 is 64 (80 / 64 = 1.25 → 1 step).
  const json c = Launch(R"({"model":"llama-3-70b","gpus":64,"tp":8,"pp":2,"zero":1,"global_batch":80})");
  ExpectBatchIdentities(c, {64, 8, 2, 1, 80, 64});
  for (const char* tool : {"deepspeed", "torchrun", "llamafactory"}) {
    EXPECT_TRUE(HasNote(c, tool, "global_batch = 80 is not a multiple of micro-batch 1 × 64 data-parallel ranks: "
                                 "this config uses 64"))
        << tool << c["notes"].dump();
  }
  // Without a global batch a fine-tune runs the method's 128 sequences: 32 micro-batches on
  // each of Megatron's 4 DP ranks, and 2 on each of the 64 ranks of the others.
  const json d = Launch(R"({"model":"llama-3-70b","gpus":64,"tp":8,"pp":2,"zero":1})");
  ExpectBatchIdentities(d, {64, 8, 2, 1, 128, 128});
}

TEST(LaunchConfigs, TorchrunPassesTheSequenceLengthToTrl) {
  const json c = Launch(R"({"model":"llama-3-8b","method":"lora","seq_len":2048})");
  EXPECT_EQ(IntFlag(c["torchrun"], "--max_length"), 2048);
}

TEST(LaunchConfigs, MegatronDescribesTheLlamaArchitecture) {
  const json c = Launch(R"({"model":"llama-3-70b","gpus":16,"tp":8,"zero":1})");
  const std::string m = c["megatron"];
  EXPECT_EQ(FlagValue(m, "--position-embedding-type"), "rope");
  EXPECT_EQ(FlagValue(m, "--normalization"), "RMSNorm");
  EXPECT_TRUE(HasFlag(m, "--swiglu"));
  EXPECT_TRUE(HasFlag(m, "--untie-embeddings-and-output-weights"));
  EXPECT_TRUE(HasFlag(m, "--disable-bias-linear"));
  EXPECT_TRUE(HasFlag(m, "--group-query-attention"));
  EXPECT_EQ(IntFlag(m, "--num-query-groups"), 8);  // Llama 3 70B: 64 heads, 8 KV heads
  // Megatron-LM's defaults are 0.1; Llama trains without dropout.
  EXPECT_EQ(FlagValue(m, "--attention-dropout"), "0");
  EXPECT_EQ(FlagValue(m, "--hidden-dropout"), "0");
  // A preset carries no RoPE base: a placeholder that fails loudly, and a note.
  EXPECT_EQ(FlagValue(m, "--rotary-base"), "REPLACE_WITH_ROPE_THETA");
  EXPECT_TRUE(HasNote(c, "megatron", "500000 for Llama 3"));
  EXPECT_NE(m.find("# Notes:"), std::string::npos);
  EXPECT_NE(m.find("REPLACE_WITH_ROPE_THETA placeholder"), std::string::npos) << "the note is in the script too";
}

TEST(LaunchConfigs, MegatronTakesTheRopeBaseFromAConfigJson) {
  // meta-llama/Llama-3.1-8B config.json (token ids left out): rope_theta 500000, llama3 scaling ×8.
  const json c = Launch(R"({"model":{"hf_config":{"architectures":["LlamaForCausalLM"],"attention_bias":false,
    "attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"initializer_range":0.02,
    "intermediate_size":14336,"max_position_embeddings":131072,"mlp_bias":false,"model_type":"llama",
    "num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"pretraining_tp":1,
    "rms_norm_eps":1e-05,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,
    "original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,
    "tie_word_embeddings":false,"torch_dtype":"bfloat16","use_cache":true,"vocab_size":128256}},
    "gpus":8,"tp":8,"zero":1})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  const std::string m = c["megatron"];
  EXPECT_EQ(IntFlag(m, "--rotary-base"), 500000);
  EXPECT_TRUE(HasFlag(m, "--use-rope-scaling"));
  EXPECT_EQ(FlagValue(m, "--rope-scaling-factor"), "8");
  EXPECT_FALSE(HasNote(c, "megatron", "RoPE base"));
}

// A scenario whose model is a Llama 3 8B config.json (meta-llama/Meta-Llama-3-8B sizing keys)
// with `config_keys` added, and `scenario_keys` beside the model.
std::string Llama3Config(const std::string& config_keys, const std::string& scenario_keys = "") {
  return R"({"model":{"hf_config":{"model_type":"llama","hidden_size":4096,"intermediate_size":14336,
    "num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256)" +
         config_keys + "}}" + scenario_keys + "}";
}

// Each note comes with its message (engine/contract/message_json.h): a program reads the
// code and arguments, the page renders them in its language.
TEST(LaunchConfigs, NotesCarryTheirMessageCodeAndArgs) {
  const json c = Launch(R"({"model":"llama-3-8b","gpus":16,"tp":2,"pp":2,"cp":2,"zero":1,"tokens":1e9})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  bool cp_note = false;
  for (const json& n : c["notes"]) {
    EXPECT_TRUE(n["code"].is_string() && n["args"].is_object()) << n.dump();
    if (n["tool"] == "deepspeed" && n["code"] == "launch.deepspeed.cp") {
      cp_note = true;
      EXPECT_EQ(n["args"]["cp"], 2) << n.dump();
      EXPECT_EQ(n["note"].get<std::string>().rfind("not expressible: cp = 2; ", 0), 0u) << n.dump();
    }
  }
  EXPECT_TRUE(cp_note) << c["notes"].dump();
}

TEST(LaunchConfigs, MegatronRopeNumbersKeepEveryDigit) {
  // Megatron-LM's --rotary-base is an int: a fractional base is rounded (1234567.8 → 1234568)
  // and said so; the scaling factor is a float and is written as given (12.345, not 12.3).
  const json c = Launch(Llama3Config(R"(,"rope_theta":1234567.8,"rope_scaling":{"rope_type":"llama3",
    "factor":12.345,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192})",
                                     R"(,"gpus":8,"tp":8)"));
  ASSERT_FALSE(c.contains("error")) << c.dump();
  const std::string m = c["megatron"];
  EXPECT_EQ(FlagValue(m, "--rotary-base"), "1234568");
  EXPECT_TRUE(HasNote(c, "megatron", "rope_theta 1234567.8 is not a whole number")) << c["notes"].dump();
  EXPECT_EQ(FlagValue(m, "--rope-scaling-factor"), "12.345");
  // gradientai/Llama-3-8B-Instruct-Gradient-1048k's base, the largest published: all 10 digits.
  const json g = Launch(Llama3Config(R"(,"rope_theta":3580165449.0)"));
  ASSERT_FALSE(g.contains("error")) << g.dump();
  EXPECT_EQ(FlagValue(g["megatron"], "--rotary-base"), "3580165449");
  EXPECT_FALSE(HasNote(g, "megatron", "whole number"));
}

TEST(LaunchConfigs, AbsurdRopeValuesAreRefusedNotWritten) {
  // rope_theta 0.4 used to become --rotary-base 0, and a factor of 1e308 was written verbatim.
  for (const auto& [extra, field] : std::vector<std::pair<std::string, std::string>>{
           {R"(,"rope_theta":0.4)", "model.hf_config.rope_theta"},
           {R"(,"rope_theta":500000,"rope_scaling":{"rope_type":"llama3","factor":1e308})",
            "model.hf_config.rope_scaling.factor"}}) {
    const json c = Launch(Llama3Config(extra));
    ASSERT_TRUE(c.contains("error")) << extra;
    EXPECT_EQ(c["error"]["field"], field) << extra;
  }
}

TEST(LaunchConfigs, MegatronTakesTheRopeBaseFromATextConfig) {
  // A LLaVA-style wrapper: the language model's rope_theta sits in text_config.
  const json c = Launch(R"({"model":{"hf_config":{"model_type":"llava","text_config":{"model_type":"llama",
    "hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,
    "num_key_value_heads":32,"vocab_size":32064,"rope_theta":10000.0}}}})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  EXPECT_EQ(FlagValue(c["megatron"], "--rotary-base"), "10000");
}

TEST(LaunchConfigs, MegatronNotesATpThatDoesNotDivideTheKvHeads) {
  // Llama 3 8B: 32 query heads, 8 KV heads. Megatron-core divides the query groups by tp
  // (divide(num_query_groups, tp) in megatron/core/transformer/attention.py): 8 / 32 fails.
  const json c = Launch(R"({"model":"llama-3-8b","gpus":32,"tp":32})");
  ASSERT_FALSE(c.contains("error")) << c.dump();
  EXPECT_TRUE(HasNote(c, "megatron", "tp = 32 does not divide the 8 KV heads")) << c["notes"].dump();
  EXPECT_NE(c["megatron"].get<std::string>().find("does not divide the 8 KV heads"), std::string::npos)
      << "the note is in the script too";
  const json ok = Launch(R"({"model":"llama-3-8b","gpus":8,"tp":8})");
  EXPECT_FALSE(HasNote(ok, "megatron", "KV heads"));
}

TEST(LaunchConfigs, BadScenarioGivesTheEstimateError) {
  for (const char* scenario : {R"({"model":"llama-3-8b","tp":3})", R"({"model":"llama-3-8b","gpus":8,
                               "global_batch":12})", R"({"method":"full"})", "not json"}) {
    const engine::service::Response launch = engine::service::Session().LaunchConfigs(scenario);
    const engine::service::Response estimate = engine::service::Session().Estimate(scenario);
    EXPECT_FALSE(launch.ok) << scenario;
    EXPECT_EQ(launch.json, estimate.json) << scenario;
  }
}

#ifdef TRAINSIZER_CLI
using engine::testing_cli::RunCli;

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
