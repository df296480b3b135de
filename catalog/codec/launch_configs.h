// Ready-to-run launch configs for a scenario: a DeepSpeed JSON config, a torchrun command
// with PyTorch FSDP through the Hugging Face Trainer, a LLaMA-Factory YAML and Megatron-LM
// arguments. The numbers come from engine/launch_plan.h; what a tool cannot express is
// listed as notes (and as comments in the shell and YAML texts) instead of being dropped.
#pragma once

#include <string>
#include <string_view>

#include "engine/launch_plan.h"
#include "engine/scenario.h"
#include "json_fields.h"

namespace catalog {

// Each takes a validated scenario (engine::ValidateScenario). `hf_repo` is the preset's
// Hugging Face id, or "" for a custom model (a placeholder path is written instead).
std::string DeepSpeedConfig(const engine::Scenario& scenario);
std::string TorchrunCommand(const engine::Scenario& scenario, std::string_view hf_repo);
std::string LlamaFactoryYaml(const engine::Scenario& scenario, std::string_view hf_repo);
std::string MegatronCommand(const engine::Scenario& scenario);

// The four texts under their tool names, "notes": [{"tool", "note"}] and "plan": the launch
// numbers (nodes, procs_per_node, data_parallel, micro_batch, global_batch,
// grad_accum_steps, train_steps).
Json LaunchConfigsToJson(const engine::Scenario& scenario, std::string_view hf_repo);

}  // namespace catalog
