// The questions to settle before ordering hardware (the seed's checklist: sequence length,
// quantization, framework, data preprocessing and I/O, fault tolerance, compliance and
// export controls), each answered for this scenario and layout.
#pragma once

#include <string>
#include <vector>

#include <array>
#include <string_view>

#include "hardware.h"
#include "message.h"
#include "scenario.h"

namespace engine {

enum class CheckStatus { kOk, kAttention, kProblem };
inline constexpr std::array<std::string_view, 3> kCheckStatusNames = {"ok", "attention", "problem"};

struct CheckItem {
  Message topic;         // "Sequence length", ... (checklist.<topic>.topic)
  CheckStatus status = CheckStatus::kOk;
  Message answer;        // what this plan implies, with numbers: a first sentence and any added to it
};

struct Estimate;  // estimate.h, which holds the checklist it produces

std::vector<CheckItem> PreOrderChecklist(const Scenario& scenario, const Estimate& estimate, const GpuSpec& gpu);

}  // namespace engine
