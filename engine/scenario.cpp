#include "scenario.h"

#include "post_training.h"

#include <algorithm>
#include <cmath>

namespace engine {

// Pre-training: 4M tokens a step, the global batch of Llama 2 (Touvron et al. 2023, §2.2)
// and the first stage of Llama 3's (Llama 3 Herd of Models, 2024, §3.4.1). Fine-tuning: 128
// sequences, Stanford Alpaca's batch (tatsu-lab/stanford_alpaca README, 2023), between
// Llama 2-Chat's SFT batch of 64 and the 256+ of large SFT runs.
int MethodGlobalBatch(const Training& t) {
  if (t.method == Method::kPretrain) return std::max(1, int(std::lround(4.0 * (1 << 20) / std::max(1, t.seq_len))));
  return 128;
}

long long DefaultGlobalBatch(const Training& t, const Parallelism& p) {
  const long long per_pass = std::max(1LL, static_cast<long long>(t.micro_batch) * std::max(1, p.DataParallel()));
  if (t.optimizer_in_backward) return per_pass;
  return (MethodGlobalBatch(t) + per_pass - 1) / per_pass * per_pass;
}

int MicroBatchesPerStep(const Training& t, const Parallelism& p) {
  const long long per_pass = std::max(1LL, static_cast<long long>(t.micro_batch) * std::max(1, p.DataParallel()));
  return static_cast<int>(std::max(1LL, GlobalBatch(t, p) / per_pass));
}

int GlobalBatch(const Training& t, const Parallelism& p) {
  return t.global_batch > 0 ? t.global_batch : static_cast<int>(std::min<long long>(DefaultGlobalBatch(t, p), 1 << 30));
}

double RecomputedShare(const Training& t, int layers) {
  if (t.activation_checkpointing != Recompute::kFull) return 0;
  if (t.recompute_layers <= 0 || layers <= 0) return 1;
  return std::min(1.0, double(t.recompute_layers) / layers);
}

double TrainingTokens(const Training& t) {
  if (t.tokens > 0) return t.tokens;
  if (t.post.kind != PostTraining::kNone) {
    const double per_prompt = SequencesPerStep(t.post) / std::max(1, t.post.prompts_per_step);
    return t.post.prompts * t.epochs * per_prompt * (double(t.post.prompt_len) + t.post.response_len);
  }
  return t.dataset_tokens * t.epochs;
}

}  // namespace engine
