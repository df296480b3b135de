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

ClaimKind CheckedClaim(const Scenario& s) {
  const Claim& claim = s.training.claim;
  if (claim.tokens_per_s > 0) return ClaimKind::kThroughput;
  if (claim.wall_hours > 0 && TrainingTokens(s.training) > 0) return ClaimKind::kWallTime;
  if (claim.mfu > 0) return ClaimKind::kMfu;
  if (claim.wall_hours > 0) return ClaimKind::kWallTime;  // without tokens: incomplete
  return ClaimKind::kNone;
}

namespace {

// The throughput the checked claim comes to: a claimed throughput as it is; a claimed
// wall time over the tokens; a claimed MFU as MFU × GPUs × dense bf16 peak / model FLOPs
// per token (the inverse of the MFU below). 0 for a wall time without tokens.
double ImpliedTokensPerS(const Scenario& s, ClaimKind kind, const GpuSpec& gpu, const Throughput& th) {
  const Claim& claim = s.training.claim;
  const double tokens = TrainingTokens(s.training);
  switch (kind) {
    case ClaimKind::kThroughput: return claim.tokens_per_s;
    case ClaimKind::kWallTime: return tokens > 0 ? tokens / (claim.wall_hours * kSecondsPerHour) : 0;
    case ClaimKind::kMfu: return claim.mfu * double(s.parallel.gpus) * gpu.bf16_flops / th.flops_per_token.model;
    case ClaimKind::kNone: return 0;
  }
  return 0;
}

// Where a claim stands: beyond the hardware's dense peak, beyond the best published
// runs, well above or below this engine's prediction, or near it.
ClaimVerdict Verdict(double implied_mfu, double ratio, const GpuSpec& gpu) {
  if (implied_mfu > 1.0) return ClaimVerdict::kImpossible;
  if (implied_mfu > BestPublishedMfu(gpu)) return ClaimVerdict::kImplausible;
  if (ratio > 1.25) return ClaimVerdict::kOptimistic;
  if (ratio < 0.6) return ClaimVerdict::kConservative;
  return ClaimVerdict::kPlausible;
}

Message IncompleteMessage(const Claim& claim, const Throughput& th) {
  return MakeMessage("claim.incomplete", {NumberArg("tokens_per_s", th.tokens_per_s),
                                          NumberArg("wall_hours", claim.wall_hours),
                                          NumberArg("tokens", th.tokens_per_s * claim.wall_hours * kSecondsPerHour)});
}

}  // namespace

ClaimCheck CheckClaim(const Scenario& s, const GpuSpec& gpu, const Throughput& th, bool fits) {
  const Claim& claim = s.training.claim;
  ClaimCheck c;
  c.checked = CheckedClaim(s);
  c.present = c.checked != ClaimKind::kNone;
  if (!c.present) return c;
  c.predicted_tokens_per_s = th.tokens_per_s;
  c.implied_tokens_per_s = ImpliedTokensPerS(s, c.checked, gpu, th);
  if (c.implied_tokens_per_s <= 0) {
    c.message = IncompleteMessage(claim, th);
    return c;
  }
  // A claimed MFU is its own implied MFU (the formula above, inverted, up to rounding).
  c.implied_mfu = c.checked == ClaimKind::kMfu
                      ? claim.mfu
                      : c.implied_tokens_per_s * th.flops_per_token.model / (double(s.parallel.gpus) * gpu.bf16_flops);
  const double ratio = c.implied_tokens_per_s / th.tokens_per_s;
  c.verdict = Verdict(c.implied_mfu, ratio, gpu);
  std::vector<MessageArg> args = {NumberArg("mfu_percent", c.implied_mfu * 100)};
  switch (c.verdict) {
    case ClaimVerdict::kImplausible: args.push_back(NumberArg("best_mfu_percent", BestPublishedMfu(gpu) * 100)); break;
    case ClaimVerdict::kOptimistic: args.push_back(NumberArg("ratio", ratio)); break;
    case ClaimVerdict::kConservative: args.push_back(NumberArg("speedup", 1 / ratio)); break;
    case ClaimVerdict::kPlausible: args.push_back(NumberArg("difference_percent", std::abs(ratio - 1) * 100)); break;
    case ClaimVerdict::kImpossible:
    case ClaimVerdict::kIncomplete: break;
  }
  // Every verdict also says what this engine predicts for the same setup.
  args.push_back(NumberArg("predicted_tokens_per_s", th.tokens_per_s));
  args.push_back(NumberArg("predicted_mfu_percent", th.mfu * 100));
  // Each verdict has its own message: claim.<verdict>.
  c.message = MakeMessage("claim." + std::string(EnumName(kClaimVerdictNames, c.verdict)), std::move(args));
  if (!fits) c.message = MakeMessage("claim.does_not_fit", {MessageArgOf("message", std::move(c.message))});
  return c;
}

}  // namespace engine
