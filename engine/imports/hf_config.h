// Reads a Hugging Face config.json (the "model": {"hf_config": {...}} form of a scenario)
// into a ModelSpec. Supported model_type values: llama, mistral, mixtral, qwen2,
// qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3_text, phi3, deepseek_v2, deepseek_v3,
// gpt_neox, falcon, and the language model of a vision-language config (LLaVA, Gemma 3,
// Mllama, InternVL: `text_config`; Qwen2-VL/2.5-VL: text keys at the top level), whose
// vision_config fills ModelSpec::vision (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, LLaVA, LLaVA-NeXT,
// LLaVA-OneVision, InternVL, Gemma 3, Mllama, Pixtral, Mistral 3; other families from generic
// keys, with a warning). Keys that could change the size but are not mapped are named in a
// warning; errors name the config.json key (e.g. model.hf_config.vision_config.depth).
#pragma once

#include <string>
#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/model_spec.h"
#include "engine/result.h"
#include "engine/scenario.h"

namespace engine::imports {

// The config.json's quantization_config: how the checkpoint's weights are stored.
struct HfQuantization {
  bool present = false;
  std::string method;  // quant_method: "gptq", "awq", "bitsandbytes", "fp8", ... ("unknown" when not given)
  int bits = 0;        // bits per quantized weight; 0 = not stated
  int group_size = 0;  // weights sharing one scale (GPTQ/AWQ); -1 = one per output column; 0 = not stated
  double bytes_per_weight = 0;  // stored bytes per linear weight with its scales; 0 = unknown (bits not stated)
};

struct HfImport {
  engine::ModelSpec spec;
  std::vector<engine::Warning> warnings;
  HfQuantization quantization;
};

engine::Result<HfImport> ImportHfConfig(const contract::Json& config);

// The object that holds the language model's keys: `text_config` (or InternVL's
// `llm_config`) when it is an object, else the config itself (Qwen2-VL keeps its text keys at
// the top level). RoPE settings and sizing keys are read from it.
const contract::Json& HfTextConfig(const contract::Json& config);

// The training methods a quantized checkpoint allows: the Hugging Face Trainer refuses to
// train a quantized model without adapters ("You cannot perform fine-tuning on purely
// quantized models", transformers Trainer.__init__), so only lora and qlora pass; the
// error names `method`. nullopt when the checkpoint is not quantized or the method fits.
std::optional<engine::InputError> CheckQuantizedCheckpointMethod(const HfQuantization& quantization,
                                                                 engine::Method method);

// Accepted RoPE values (see hf_config.cpp for why), checked at import and relied on by
// engine/exports/launch_configs.cpp.
inline constexpr double kMinRopeTheta = 100;
inline constexpr double kMaxRopeTheta = 1e11;
inline constexpr double kMinRopeScalingFactor = 1;
inline constexpr double kMaxRopeScalingFactor = 1024;

}  // namespace engine::imports
