// Launch configs for post-training (docs/model.md §12): a verl command (PPO, GRPO), an
// OpenRLHF command (DPO, PPO, GRPO) and a TRL script (DPO, ORPO, KTO, PPO, GRPO), with the
// sizes the estimate works out: the rollout engine's tensor parallel and memory share,
// answers per prompt, prompts per step, micro-batches and the offload switches. A scenario
// the tool cannot run says so in the text instead of a wrong config.
#pragma once

#include <string>
#include <string_view>

#include "engine/scenario.h"

namespace engine::exports {

// `gpu_memory_bytes`: the scenario's GPU's memory, which the rollout engine's share is of
// (0 = unknown: the share is left at the scenario's, or 0.6, the tools' own example value).
std::string VerlCommand(const Scenario& scenario, std::string_view hf_repo, double gpu_memory_bytes);
std::string OpenRlhfCommand(const Scenario& scenario, std::string_view hf_repo, double gpu_memory_bytes);
std::string TrlScript(const Scenario& scenario, std::string_view hf_repo, double gpu_memory_bytes);

}  // namespace engine::exports
