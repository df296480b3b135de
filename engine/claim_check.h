// Checks a claimed throughput or wall time against physics: the MFU it implies, whether
// that exceeds the hardware's dense peak or the best published runs, and how it compares
// with this engine's own prediction.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "hardware.h"
#include "message.h"
#include "scenario.h"
#include "time_model.h"

namespace engine {

// What a claim amounts to, from beyond the hardware to slower than predicted, or
// "incomplete" when a wall time comes without the tokens to check it against.
enum class ClaimVerdict { kImpossible, kImplausible, kOptimistic, kPlausible, kConservative, kIncomplete };
inline constexpr std::array<std::string_view, 6> kClaimVerdictNames = {
    "impossible", "implausible", "optimistic", "plausible", "conservative", "incomplete"};

// Which claim a check is about. A scenario may state several; the first that can be
// checked is: a throughput, else a wall time with tokens to run, else an MFU, else a wall
// time alone (incomplete).
enum class ClaimKind { kNone, kThroughput, kWallTime, kMfu };
inline constexpr std::array<std::string_view, 4> kClaimKindNames = {"none", "tokens_per_s", "wall_hours", "mfu"};

struct ClaimCheck {
  bool present = false;
  ClaimKind checked = ClaimKind::kNone;
  double implied_tokens_per_s = 0;
  double implied_mfu = 0;
  double predicted_tokens_per_s = 0;
  ClaimVerdict verdict = ClaimVerdict::kIncomplete;
  Message message;  // claim.<verdict>, wrapped in claim.does_not_fit when the layout does not fit
};

// The highest MFU published for dense training on the chip generation: A100 64%
// (llm-foundry MPT-7B), 56% (Korthikanti et al. 2022, 1T); H100 47-48% (Megatron-Core
// weak scaling), 43% (Llama 3 405B). Beyond these a claim is implausible.
double BestPublishedMfu(const GpuSpec& gpu);

// The claim `CheckClaim` checks for `scenario` (kNone without one).
ClaimKind CheckedClaim(const Scenario& scenario);

// The claim of `scenario` against physics and against `predicted`, this engine's
// throughput for the same setup. The implied MFU is model FLOPs per token × implied
// tokens/s over GPUs × dense bf16 peak (a claimed MFU is its own); the message names the
// verdict with the implied and the predicted MFU and throughput.
ClaimCheck CheckClaim(const Scenario& scenario, const GpuSpec& gpu, const Throughput& predicted, bool fits);

}  // namespace engine
