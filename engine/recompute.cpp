#include "recompute.h"

#include <string>

#include "format.h"
#include "framework_profile.h"

namespace engine {

SelectiveParts SelectiveOf(const Scenario& s) {
  SelectiveParts r;
  const Training& t = s.training;
  if (t.activation_checkpointing != Recompute::kSelective) return r;
  if (t.recompute_modules.empty()) {
    if (ProfileOf(s.parallel.framework).selective == SelectiveKind::kEveryOtherMatmul) {
      r.every_other_matmul = true;
    } else {
      r.core_attn = true;  // Megatron's default recompute_modules = ["core_attn"]
    }
    return r;
  }
  for (const std::string& name : t.recompute_modules) {
    r.core_attn |= name == "core_attn";
    r.mlp |= name == "mlp";
    r.moe |= name == "moe";
    r.moe_act |= name == "moe_act";
    r.layernorm |= name == "layernorm";
    r.mla_up_proj |= name == "mla_up_proj";
    r.shared_experts |= name == "shared_experts";
  }
  return r;
}

std::optional<InputError> CheckRecomputeModules(const Training& t) {
  for (const std::string& name : t.recompute_modules) {
    if (!EnumFromName<int>(kRecomputeModuleNames, name)) {
      return MakeInputError("recompute_modules", "input.not_one_of",
                            {TextArg("allowed", CommaList(kRecomputeModuleNames)), TextArg("got", QuotedInput(name))});
    }
  }
  return std::nullopt;
}

}  // namespace engine
