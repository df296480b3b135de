// Start-up and tear-down against hand derivations from the figures cited in
// engine/startup.cpp (model.md §7.4).
#include "engine/startup.h"

#include <gtest/gtest.h>

#include "engine/model_spec.h"
#include "test_models.h"

namespace engine {
namespace {

// Llama 3 8B LoRA on one cloud GPU, 1e8 tokens. Node: a one-GPU instance, 4 min = 240 s.
// Image: 15 s + 20 GB / 0.15 GB/s = 148.3 s. Weights: 8,030,261,248 × 2 B = 16.06 GB, at
// 0.5 GB/s to download (32.1 s) and 15/48 GB/s to load (51.4 s). Data: 1e8 tokens × 4 B
// (a 128,256-token vocabulary needs 32-bit ids) / 1 GB/s = 0.4 s. One GPU: no NCCL.
TEST(Startup, OneGpuFineTuneByHand) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kLora;
  s.training.tokens = 1e8;
  const StartupTeardown t = EstimateStartup(s, CountParams(s.model), Provisioning::kCloudInstance, 0);
  EXPECT_DOUBLE_EQ(t.provision_s, 240);
  EXPECT_NEAR(t.environment_s, 148.33, 0.01);
  const double bytes = 8030261248.0 * 2;
  EXPECT_NEAR(t.weights_s, bytes / 0.5e9 + bytes / (15e9 / 48), 0.01);
  EXPECT_NEAR(t.dataset_s, 0.4, 1e-9);
  EXPECT_EQ(t.nccl_s, 0);
  EXPECT_NEAR(t.StartupSeconds(), 240 + 148.33 + 83.51 + 0.4, 0.05);
}

// Pre-training on 4,096 GPUs (512 nodes): no starting weights; the slowest of 512 nodes
// starts 9 doublings × 60 s after the 15-minute node; NCCL 10 s + 0.015 s × 4,096 = 71.4 s.
// On owned servers nothing is provisioned.
TEST(Startup, PretrainingAtScaleByHand) {
  Scenario s;
  s.model = testing::Llama3_70B();
  s.training.method = Method::kPretrain;
  s.training.tokens = 1e9;
  s.parallel.gpus = 4096;
  s.parallel.gpus_per_node = 8;
  const StartupTeardown t = EstimateStartup(s, CountParams(s.model), Provisioning::kCloudInstance, 0);
  EXPECT_EQ(t.weights_s, 0);
  EXPECT_DOUBLE_EQ(t.provision_s, 900 + 9 * 60);
  EXPECT_NEAR(t.nccl_s, 71.44, 1e-9);
  EXPECT_EQ(EstimateStartup(s, CountParams(s.model), Provisioning::kOwned, 0).provision_s, 0);
}

// Evaluation: 1% of 1e9 tokens is 1e7 held-out tokens, forward only. A full fine-tune
// without recomputation does 3 forward passes' worth of FLOPs per training token (2N + 4N),
// so at 1,000 training tokens/s it evaluates 3,000 tokens/s: 3,333 s. With full
// recomputation training does nearly 4 passes' worth per token (the LM head outside the
// checkpointed layers is not recomputed): a little over 2,500 s. eval_share 0: none.
TEST(Startup, EvaluationIsForwardPassesAtTheTrainingRate) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kFull;
  s.training.tokens = 1e9;
  const ParamCounts params = CountParams(s.model);
  EXPECT_NEAR(EstimateStartup(s, params, Provisioning::kOwned, 1000).eval_s, 1e7 / 3000, 1e-6);
  s.training.activation_checkpointing = Recompute::kFull;
  const double recomputed = EstimateStartup(s, params, Provisioning::kOwned, 1000).eval_s;
  EXPECT_GT(recomputed, 2500);
  EXPECT_LT(recomputed, 2600);
  s.training.eval_share = 0;
  EXPECT_EQ(EstimateStartup(s, params, Provisioning::kOwned, 1000).eval_s, 0);
}

}  // namespace
}  // namespace engine
