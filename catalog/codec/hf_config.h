// Reads a Hugging Face config.json (the "model": {"hf_config": {...}} form of a scenario)
// into a ModelSpec. Supported model_type values: llama, mistral, mixtral, qwen2,
// qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, phi3, deepseek_v2, deepseek_v3, gpt_neox,
// falcon. Keys that could change the size but are not mapped are named in a warning.
#pragma once

#include <vector>

#include "engine/model_spec.h"
#include "engine/result.h"
#include "json_fields.h"

namespace catalog {

struct HfImport {
  engine::ModelSpec spec;
  std::vector<engine::Warning> warnings;
};

engine::Result<HfImport> ImportHfConfig(const Json& config);

}  // namespace catalog
