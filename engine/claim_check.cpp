#include "claim_check.h"

#include <cmath>

#include "format.h"

namespace engine {

double BestPublishedMfu(const GpuSpec& gpu) {
  if (gpu.architecture == GpuArchitecture::kAmpere) return 0.65;
  if (gpu.architecture == GpuArchitecture::kHopper || gpu.architecture == GpuArchitecture::kBlackwell) return 0.50;
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
    c.implied_tokens_per_s = tokens / (claim.wall_hours * 3600);
  } else {
    c.verdict = "incomplete";
    c.message = "A wall-time claim needs tokens (or dataset_tokens × epochs); at the predicted " +
                Num(th.tokens_per_s) + " tokens/s, " + Num(claim.wall_hours) + " h allows " +
                Num(th.tokens_per_s * claim.wall_hours * 3600) + " tokens.";
    return c;
  }
  c.implied_mfu = c.implied_tokens_per_s * th.flops_per_token.model / (double(s.parallel.gpus) * gpu.bf16_flops);
  const double ratio = c.implied_tokens_per_s / th.tokens_per_s;
  if (c.implied_mfu > 1.0) {
    c.verdict = "impossible";
    c.message = "The claim needs " + Num(c.implied_mfu * 100) + "% of the GPUs' dense bf16 peak: more than the "
                "hardware can compute.";
  } else if (c.implied_mfu > BestPublishedMfu(gpu)) {
    c.verdict = "implausible";
    c.message = "The claim needs " + Num(c.implied_mfu * 100) + "% MFU; the best published runs on this GPU "
                "generation reach about " + Num(BestPublishedMfu(gpu) * 100) + "%.";
  } else if (ratio > 1.25) {
    c.verdict = "optimistic";
    c.message = "Possible in principle (" + Num(c.implied_mfu * 100) + "% MFU) but " + Num(ratio) +
                "× faster than predicted here.";
  } else if (ratio < 0.6) {
    c.verdict = "conservative";
    c.message = "Needs only " + Num(c.implied_mfu * 100) + "% MFU; this setup should do it " + Num(1 / ratio) +
                "× faster.";
  } else {
    c.verdict = "plausible";
    c.message = "Needs " + Num(c.implied_mfu * 100) + "% MFU, within " + Num(std::abs(ratio - 1) * 100) +
                "% of the prediction.";
  }
  if (!fits) c.message += " Also, the model states do not fit this layout's GPU memory as configured.";
  return c;
}

}  // namespace engine
