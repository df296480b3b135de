// Pieces every launch config's text is made of (launch_configs.cpp, rl_launch.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engine::exports {

// Shell, YAML and Python comment lines: "# line\n" each.
inline std::string Comment(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += "# " + line + "\n";
  return out;
}

// The model to load: the preset's Hugging Face id, or a placeholder for a custom model.
inline std::string ModelPath(std::string_view hf_repo) {
  return hf_repo.empty() ? "REPLACE_WITH_MODEL_PATH" : std::string(hf_repo);
}

}  // namespace engine::exports
