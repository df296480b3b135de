// Checks a claimed throughput or wall time against physics: the MFU it implies, whether
// that exceeds the hardware's dense peak or the best published runs, and how it compares
// with this engine's own prediction.
#pragma once

#include <string>

#include "hardware.h"
#include "scenario.h"
#include "time_model.h"

namespace engine {

struct ClaimCheck {
  bool present = false;
  double implied_tokens_per_s = 0;
  double implied_mfu = 0;
  double predicted_tokens_per_s = 0;
  std::string verdict;  // "impossible" | "implausible" | "optimistic" | "plausible" | "conservative" | "incomplete"
  std::string message;
};

// The highest MFU published for dense training on the chip generation: A100 64%
// (llm-foundry MPT-7B), 56% (Korthikanti et al. 2022, 1T); H100 47-48% (Megatron-Core
// weak scaling), 43% (Llama 3 405B). Beyond these a claim is implausible.
double BestPublishedMfu(const GpuSpec& gpu);

ClaimCheck CheckClaim(const Scenario& scenario, const GpuSpec& gpu, const Throughput& predicted, bool fits);

}  // namespace engine
