// An ms-swift launch command (`swift sft`, `swift pt`, `swift rlhf` for post-training;
// ms-swift >= 4.0): the Trainer's batch
// and optimizer settings, LoRA or full tuning, the DeepSpeed preset, and for a
// vision-language model the parts it freezes (--freeze_vit, --freeze_aligner, --freeze_llm)
// and the processor's pixel caps (MAX_PIXELS), with --max_length the trained sequence,
// text and media together.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/message.h"
#include "engine/scenario.h"

namespace engine::exports {

// `scenario` as given (its media, not yet folded into the sequence); validated.
std::string SwiftCommand(const Scenario& scenario, std::string_view hf_repo);

// What ms-swift's switches cannot say of a vision-language model's trained parts, one
// message each (the rest of its notes are engine::LaunchNotes').
std::vector<Message> SwiftVisionNotes(const Scenario& scenario);

}  // namespace engine::exports
