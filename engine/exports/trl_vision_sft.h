// A TRL script for supervised fine-tuning of a vision-language model: the processor with
// the pixel caps the estimate sized, the parts it trains (tower, projector, language model;
// in full or with LoRA adapters, as estimated), and SFTTrainer's batch settings. TRL's
// Trainer flags have no switch per part, so the script sets them.
#pragma once

#include <string>
#include <string_view>

#include "engine/scenario.h"

namespace engine::exports {

// `scenario` as given (its media, not yet folded into the sequence); validated, with a
// vision tower and no post-training method.
std::string TrlVisionSftScript(const Scenario& scenario, std::string_view hf_repo);

}  // namespace engine::exports
