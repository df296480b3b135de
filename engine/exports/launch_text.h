// Pieces every launch config's text is made of (launch_configs.cpp, rl_launch.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/launch_plan.h"

namespace engine::exports {

// Shell, YAML and Python comment lines: "# line\n" each.
inline std::string Comment(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "# " + line + "\n";
  return out;
}

// A flag's value: Python's True/False by default, or the words a tool wants ("true", "false").
inline std::string Bool(bool on, const char* yes = "True", const char* no = "False") { return on ? yes : no; }

// The model to load: the preset's Hugging Face id, or a placeholder for a custom model.
inline std::string ModelPath(std::string_view hf_repo) {
  return hf_repo.empty() ? "REPLACE_WITH_MODEL_PATH" : std::string(hf_repo);
}

// "8 GPUs, data parallel 8, global batch 64 = 2 x 8 x 4 accumulation steps": the batch
// arithmetic of the processes a data-parallel launcher starts.
inline std::string BatchSentence(const LaunchPlan& plan) {
  return std::to_string(plan.gpus) + " GPUs, data parallel " + std::to_string(plan.data_parallel) + ", global batch " +
         std::to_string(plan.global_batch) + " = " + std::to_string(plan.micro_batch) + " x " +
         std::to_string(plan.data_parallel) + " x " + std::to_string(plan.grad_accum_steps) + " accumulation steps";
}

}  // namespace engine::exports
