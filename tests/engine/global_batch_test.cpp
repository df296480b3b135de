// The global batch without one in the scenario (scenario.h MethodGlobalBatch,
// DefaultGlobalBatch; model.md §6.1), worked out by hand.
#include <gtest/gtest.h>

#include "engine/scenario.h"

namespace engine {
namespace {

Training Method(engine::Method m, int seq_len, int micro_batch) {
  Training t;
  t.method = m;
  t.seq_len = seq_len;
  t.micro_batch = micro_batch;
  return t;
}

Parallelism DataParallel(int dp) {
  Parallelism p;
  p.gpus = dp;
  p.gpus_per_node = 8;
  return p;
}

// Pre-training at 4,096 tokens: 4 × 2^20 / 4,096 = 1,024 sequences; on 8 ranks of
// micro-batch 2 that is 64 micro-batches each.
TEST(GlobalBatch, PretrainingTakesFourMillionTokens) {
  const Training t = Method(engine::Method::kPretrain, 4096, 2);
  EXPECT_EQ(MethodGlobalBatch(t), 1024);
  EXPECT_EQ(GlobalBatch(t, DataParallel(8)), 1024);
  EXPECT_EQ(MicroBatchesPerStep(t, DataParallel(8)), 64);
  // At 8,192 tokens: 512 sequences.
  EXPECT_EQ(MethodGlobalBatch(Method(engine::Method::kPretrain, 8192, 1)), 512);
}

// Fine-tuning: 128 sequences, rounded up to whole micro-batches on every rank: on 3 ranks
// 129 (43 each); on 256 ranks 256 (one each).
TEST(GlobalBatch, FineTuningTakes128SequencesInWholeMicroBatches) {
  for (engine::Method m : {engine::Method::kFull, engine::Method::kLora, engine::Method::kQlora}) {
    const Training t = Method(m, 2048, 1);
    EXPECT_EQ(GlobalBatch(t, DataParallel(1)), 128);
    EXPECT_EQ(GlobalBatch(t, DataParallel(3)), 129);
    EXPECT_EQ(MicroBatchesPerStep(t, DataParallel(3)), 43);
    EXPECT_EQ(GlobalBatch(t, DataParallel(256)), 256);
  }
}

// The scenario's batch wins; the optimizer inside backward cannot accumulate (one pass).
TEST(GlobalBatch, TheScenarioAndTheFusedOptimizerDecide) {
  Training t = Method(engine::Method::kLora, 2048, 4);
  t.global_batch = 32;
  EXPECT_EQ(GlobalBatch(t, DataParallel(2)), 32);
  EXPECT_EQ(MicroBatchesPerStep(t, DataParallel(2)), 4);
  t.global_batch = 0;
  t.optimizer_in_backward = true;
  EXPECT_EQ(GlobalBatch(t, DataParallel(2)), 8);
}

}  // namespace
}  // namespace engine
