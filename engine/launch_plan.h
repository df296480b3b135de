// What a training launcher needs from a scenario: process counts per node, the
// data-parallel degree, gradient accumulation, the number of optimizer steps, and the
// settings a given tool cannot express. engine/exports/launch_configs.h turns this into
// DeepSpeed, torchrun/FSDP, LLaMA-Factory and Megatron-LM text.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "message.h"
#include "scenario.h"

namespace engine {

// verl and OpenRLHF run post-training (engine/exports/rl_launch.h); TRL post-training or a
// vision-language model's supervised fine-tuning.
enum class LaunchTool { kDeepSpeed, kTorchrun, kLlamaFactory, kSwift, kMegatron, kVerl, kOpenRlhf, kTrl };
inline constexpr std::array<std::string_view, 8> kLaunchToolNames = {
    "deepspeed", "torchrun", "llamafactory", "swift", "megatron", "verl", "openrlhf", "trl"};

struct LaunchPlan {
  int gpus = 1;
  int nodes = 1;
  int procs_per_node = 1;     // torchrun --nproc_per_node; nodes × procs_per_node == gpus unless uneven
  bool uneven_nodes = false;  // gpus cannot be split evenly over the nodes
  int data_parallel = 1;      // gpus / (tp × pp × cp)
  int micro_batch = 1;        // sequences per GPU per forward/backward
  int global_batch = 1;       // sequences per optimizer step
  int requested_global_batch = 1;  // the scenario's; a data-parallel-only tool may round it (PlanLaunch(s, tool))
  int grad_accum_steps = 1;   // global_batch / (micro_batch × data_parallel)
  int seq_len = 0;
  double tokens = 0;          // training tokens; 0 = not given
  long long train_steps = 0;  // ⌈tokens / (global_batch × seq_len)⌉; 0 when tokens are not given
};

// The launch numbers of a validated scenario (engine::ValidateScenario first) in the
// scenario's own layout: data parallel = gpus / (tp × pp × cp), as Megatron-LM runs it.
LaunchPlan PlanLaunch(const Scenario& scenario);

// Whether `tool` runs data parallelism only: DeepSpeed's config without its pipeline engine
// or model-parallel code, torchrun with the Trainer's FSDP flags, and LLaMA-Factory start
// every GPU as a data-parallel rank whatever tp, pp and cp the scenario has; so does
// ms-swift's `swift sft` (its Megatron-SWIFT is another command).
bool DataParallelOnly(LaunchTool tool);

// The launch numbers as `tool` actually runs them. For a data-parallel-only tool the
// data-parallel degree is every GPU, so micro_batch × grad_accum_steps × gpus = global_batch
// holds for the processes it starts (Hugging Face's DeepSpeed integration refuses a config
// where it does not); a global batch that is no multiple of micro_batch × gpus becomes the
// nearest one that is (at least one), and requested_global_batch keeps the scenario's.
LaunchPlan PlanLaunch(const Scenario& scenario, LaunchTool tool);

// The scenario's settings `tool` cannot express, and the nearest setting used instead,
// one message each ("not expressible: cp = 2 ..."), so nothing is dropped silently.
std::vector<Message> LaunchNotes(const Scenario& scenario, LaunchTool tool);

}  // namespace engine
