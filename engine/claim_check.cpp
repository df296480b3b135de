#include "claim_check.h"

#include <cmath>

#include "format.h"
#include "scenario.h"
#include "units.h"

namespace engine {

double BestPublishedMfu(const GpuSpec& gpu) {
  if (gpu.architecture == GpuArchitecture::kAmpere) return 0.65;
  if (gpu.architecture == GpuArchitecture::kHopper || gpu.architecture == GpuArchitecture::kBlackwell ||
      gpu.architecture == GpuArchitecture::kBlackwellUltra) {
    return 0.50;
  }
  return 0.60;
}

ClaimCheck CheckClaim(const Scenario& s, const GpuSpec& gpu, const Throughput& th, bool fits) {
  const Claim& claim = s.training.claim;
  ClaimCheck c;
  c.present = claim.tokens_per_s > 0 || claim.wall_hours > 0;
  if (!c.present) return c;
  c.predicted_tokens_per_s = th.tokens_per_s;
  const double tokens = TrainingTokens(s.training);
  if (claim.tokens_per_s > 0) {
    c.implied_tokens_per_s = claim.tokens_per_s;
  } else if (tokens > 0) {
    c.implied_tokens_per_s = tokens / (claim.wall_hours * kSecondsPerHour);
  } else {
    c.verdict = ClaimVerdict::kIncomplete;
    c.message = MakeMessage("claim.incomplete", {NumberArg("tokens_per_s", th.tokens_per_s),
                                                 NumberArg("wall_hours", claim.wall_hours),
                                                 NumberArg("tokens", th.tokens_per_s * claim.wall_hours * kSecondsPerHour)});
    return c;
  }
  c.implied_mfu = c.implied_tokens_per_s * th.flops_per_token.model / (double(s.parallel.gpus) * gpu.bf16_flops);
  const double ratio = c.implied_tokens_per_s / th.tokens_per_s;
  std::vector<MessageArg> args = {NumberArg("mfu_percent", c.implied_mfu * 100)};
  if (c.implied_mfu > 1.0) {
    c.verdict = ClaimVerdict::kImpossible;
  } else if (c.implied_mfu > BestPublishedMfu(gpu)) {
    c.verdict = ClaimVerdict::kImplausible;
    args.push_back(NumberArg("best_mfu_percent", BestPublishedMfu(gpu) * 100));
  } else if (ratio > 1.25) {
    c.verdict = ClaimVerdict::kOptimistic;
    args.push_back(NumberArg("ratio", ratio));
  } else if (ratio < 0.6) {
    c.verdict = ClaimVerdict::kConservative;
    args.push_back(NumberArg("speedup", 1 / ratio));
  } else {
    c.verdict = ClaimVerdict::kPlausible;
    args.push_back(NumberArg("difference_percent", std::abs(ratio - 1) * 100));
  }
  // Each verdict has its own message: claim.<verdict>.
  c.message = MakeMessage("claim." + std::string(EnumName(kClaimVerdictNames, c.verdict)), std::move(args));
  if (!fits) c.message = MakeMessage("claim.does_not_fit", {MessageArgOf("message", std::move(c.message))});
  return c;
}

}  // namespace engine
