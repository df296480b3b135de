#include "scenario.h"

#include <algorithm>

namespace engine {

int MicroBatchesPerStep(const Training& t, const Parallelism& p) {
  const int per_pass = t.micro_batch * std::max(1, p.DataParallel());
  if (t.global_batch > 0) return std::max(1, t.global_batch / per_pass);
  return p.pp > 1 ? 4 * p.pp : 1;
}

int GlobalBatch(const Training& t, const Parallelism& p) {
  return t.global_batch > 0 ? t.global_batch : MicroBatchesPerStep(t, p) * t.micro_batch * std::max(1, p.DataParallel());
}

double RecomputedShare(const Training& t, int layers) {
  if (t.activation_checkpointing != Recompute::kFull) return 0;
  if (t.recompute_layers <= 0 || layers <= 0) return 1;
  return std::min(1.0, double(t.recompute_layers) / layers);
}

double TrainingTokens(const Training& t) { return t.tokens > 0 ? t.tokens : t.dataset_tokens * t.epochs; }

}  // namespace engine
