// Ready-to-run launch configs for a scenario: a DeepSpeed JSON config, a torchrun command
// with PyTorch FSDP through the Hugging Face Trainer, a LLaMA-Factory YAML, an ms-swift
// command and Megatron-LM arguments. The numbers come from engine/launch_plan.h; what a tool cannot express is
// listed as notes (and as comments in the shell and YAML texts) instead of being dropped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/launch_plan.h"
#include "engine/scenario.h"

namespace engine::exports {

// The rotary position embedding as the model's config.json gives it; the engine's model
// spec does not carry it. theta 0 = unknown (Megatron-LM then gets a placeholder and a note).
struct RopeSettings {
  double theta = 0;                // rope_theta
  double llama3_scaling = 0;       // rope_scaling.factor when rope_type is "llama3" (Llama 3.1+); 0 = none
};

// rope_theta and Llama 3 rope scaling from a Hugging Face config.json object (top level, or
// under rope_parameters as newer transformers write it); {} when absent.
RopeSettings RopeFromHfConfig(const contract::Json& hf_config);

// Each takes a validated scenario (engine::ValidateScenario). `hf_repo` is the preset's
// Hugging Face id, or "" for a custom model (a placeholder path is written instead).
// DeepSpeed, torchrun and LLaMA-Factory run data parallel only: their batch numbers come
// from engine::PlanLaunch(scenario, tool), with every GPU a data-parallel rank.
std::string DeepSpeedConfig(const engine::Scenario& scenario);
std::string TorchrunCommand(const engine::Scenario& scenario, std::string_view hf_repo);
std::string LlamaFactoryYaml(const engine::Scenario& scenario, std::string_view hf_repo);
std::string MegatronCommand(const engine::Scenario& scenario, const RopeSettings& rope);

// What `tool` cannot express of the scenario (engine::LaunchNotes) and what the model spec
// lacks for it (Megatron-LM's RoPE base), one message each: the notes of the JSON below and
// of the texts' comments.
std::vector<engine::Message> LaunchConfigNotes(const engine::Scenario& scenario, engine::LaunchTool tool,
                                               const RopeSettings& rope);

// The notes as a shell, YAML or Python text's comment lines ("# Notes:" and one line each,
// in English); "" when there are none.
std::string NotesComment(const engine::Scenario& scenario, engine::LaunchTool tool, const RopeSettings& rope = {});

// The texts under their tool names (swift: engine/exports/swift_launch.h), "notes": [{"tool",
// "note", "code", "args"}] (the note's English and its message, engine/contract/message_json.h)
// and "plan": the launch numbers of the scenario's own layout (nodes, procs_per_node,
// data_parallel, micro_batch, global_batch, grad_accum_steps, train_steps), which Megatron-LM
// runs. With post-training, "verl", "openrlhf" and "trl" (rl_launch.h) size the rollout
// engine's memory share from `gpu_memory_bytes` (the GPU's; 0 = unknown); for a
// vision-language model's fine-tuning "trl" is its SFTTrainer script (trl_vision_sft.h).
contract::Json LaunchConfigsToJson(const engine::Scenario& scenario, std::string_view hf_repo, const RopeSettings& rope,
                                   double gpu_memory_bytes = 0);

}  // namespace engine::exports
