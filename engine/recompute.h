// Selective activation recomputation as the frameworks run it: which parts of a layer
// are dropped after forward and rebuilt in backward (memory_model.cpp drops their bytes,
// flops.cpp adds their forward again).
#pragma once

#include <optional>

#include "result.h"
#include "scenario.h"

namespace engine {

struct SelectiveParts {
  // Megatron-LM --recompute-modules (Megatron-Core transformer_config.py recompute_modules)
  bool core_attn = false;       // attention core (QKᵀ, softmax, ·V) from the kept q, k, v
  bool mlp = false;             // the dense MLP from its input
  bool moe = false;             // the whole MoE block from its input
  bool moe_act = false;         // the experts' activation function (SwiGLU output)
  bool layernorm = false;       // both norms' outputs (the QKV and fc1 inputs)
  bool mla_up_proj = false;     // MLA's up-projected q, k, v from the compressed latents
  bool shared_experts = false;  // the shared experts from their input
  // torchtitan's per-op policy: every other matmul output and the attention output are
  // kept, everything else rebuilt (torchtitan parallelize.py _custom_policy, _save_list).
  bool every_other_matmul = false;
};

// What this scenario's recomputation rebuilds: nothing unless activation_checkpointing is
// "selective"; then recompute_modules, or the framework's selective default.
SelectiveParts SelectiveOf(const Scenario& s);

// The first recompute_modules entry that is not a module name, as an input error.
std::optional<InputError> CheckRecomputeModules(const Training& t);

}  // namespace engine
