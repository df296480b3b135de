// Post-training's roles and step (engine/post_training.h, docs/model.md §12), against hand
// counts: parameter totals from the models' config.json, bytes per value from the formats.
#include "engine/post_training.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "engine/time_model.h"
#include "test_models.h"

namespace engine {
namespace {

// Meta's model card: Llama 3 8B has 8,030,261,248 parameters.
constexpr double kLlama3_8BParams = 8'030'261'248.0;

Scenario PostTraining8Gpus(PostTraining kind) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.post.kind = kind;
  s.training.post.group_size = GroupSize(s.training.post);
  s.training.post.reward = kind == PostTraining::kPpo ? RewardKind::kModel : RewardKind::kRule;
  s.parallel.gpus = 8;
  s.parallel.zero = 3;
  return s;
}

// H100 SXM datasheet (NVIDIA, 2023): 80 GB, 3.35 TB/s, 989 TFLOPS dense BF16, NVLink 900 GB/s.
GpuSpec H100() {
  GpuSpec g;
  g.id = "h100";
  g.memory_bytes = 80e9;
  g.memory_bandwidth_bytes_per_s = 3.35e12;
  g.bf16_flops = 989e12;
  g.scale_up_bytes_per_s = 900e9;
  g.architecture = GpuArchitecture::kHopper;
  return g;
}

FabricSpec Ndr() {
  FabricSpec f;
  f.id = "ib-ndr";
  f.port_bytes_per_s = 50e9;
  f.busbw_fraction = 0.8;
  f.default_node_bytes_per_s = 400e9;
  return f;
}

std::set<std::string> RoleNames(const MemoryBreakdown& m) {
  std::set<std::string> names;
  for (const RoleMemory& r : m.post.roles) names.insert(std::string(r.role));
  return names;
}

double RoleBytes(const MemoryBreakdown& m, std::string_view role) {
  for (const RoleMemory& r : m.post.roles) {
    if (r.role == role) return r.per_gpu_bytes;
  }
  return -1;
}

TEST(PostTraining, EachMethodListsItsRoles) {
  const auto roles = [](PostTraining kind) {
    const Scenario s = PostTraining8Gpus(kind);
    return RoleNames(EstimateMemory(s, CountParams(s.model), false, ShippedCalibration(), 80e9));
  };
  EXPECT_EQ(roles(PostTraining::kDpo), (std::set<std::string>{"policy", "reference"}));
  EXPECT_EQ(roles(PostTraining::kPpo), (std::set<std::string>{"policy", "reference", "critic", "reward", "rollout"}));
  EXPECT_EQ(roles(PostTraining::kGrpo), (std::set<std::string>{"policy", "reference", "rollout"}));
}

// DPO's frozen reference is a bf16 copy sharded as the policy's weights under ZeRO-3:
// 8,030,261,248 × 2 B / 8 GPUs = 2,007,565,312 B on each GPU, all of it added to the need.
TEST(PostTraining, DposReferenceAddsItsWeights) {
  Scenario s = PostTraining8Gpus(PostTraining::kDpo);
  const ParamCounts c = CountParams(s.model);
  ASSERT_DOUBLE_EQ(c.total, kLlama3_8BParams);
  const MemoryBreakdown with = EstimateMemory(s, c);
  EXPECT_DOUBLE_EQ(RoleBytes(with, "reference"), 2'007'565'312.0);
  s.training.post.reference = ReferenceKind::kNone;
  const MemoryBreakdown without = EstimateMemory(s, c);
  EXPECT_DOUBLE_EQ(with.GpuBytes() - without.GpuBytes(), 2'007'565'312.0);
}

// A LoRA policy's reference is its base with the adapters switched off: no second copy.
TEST(PostTraining, ALoraPolicysReferenceCostsNoMemory) {
  Scenario s = PostTraining8Gpus(PostTraining::kDpo);
  s.training.method = Method::kLora;
  EXPECT_DOUBLE_EQ(RoleBytes(EstimateMemory(s, CountParams(s.model)), "reference"), 0);
}

// Both answers of a pair go through the model together: the update trains 2 × 128 pairs
// of 1,024 + 1,024 tokens.
TEST(PostTraining, DpoTrainsBothAnswersOfEachPair) {
  const Scenario s = PostTraining8Gpus(PostTraining::kDpo);
  const Scenario u = PolicyUpdateScenario(s);
  EXPECT_EQ(u.training.seq_len, 2048);
  EXPECT_EQ(u.training.micro_batch, 2);
  EXPECT_EQ(u.training.global_batch, 256);
}

// 8 prompts × 4 answers on 8 GPUs at TP 1: 4 answers per engine, all decoded at once, each
// holding 1,024 + 1,024 tokens × 131,072 B (Llama 3 8B, bf16 keys and values) = 256 MiB.
TEST(PostTraining, TheRolloutCacheHoldsTheAnswersInFlight) {
  Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
  s.training.post.prompts_per_step = 8;
  s.training.post.group_size = 4;
  const MemoryBreakdown m = EstimateMemory(s, CountParams(s.model), false, ShippedCalibration(), 80e9);
  EXPECT_EQ(m.post.rollout.tp, 1);
  EXPECT_DOUBLE_EQ(m.post.rollout.batch, 4);
  EXPECT_DOUBLE_EQ(m.post.rollout.kv_bytes, 4 * 256.0 * 1024 * 1024);
  // bf16 weights on each GPU: 8,030,261,248 × 2 B.
  EXPECT_DOUBLE_EQ(m.post.rollout.weight_bytes, 2 * kLlama3_8BParams);
}

TEST(PostTraining, GrposGenerationGrowsWithResponseLengthAndGroupSize) {
  const auto generation_s = [](int response_len, int group_size) {
    Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
    s.training.post.response_len = response_len;
    s.training.post.group_size = group_size;
    return EstimateThroughput(s, CountParams(s.model), H100(), Ndr(), false).post.generation_s;
  };
  EXPECT_GT(generation_s(2048, 8), generation_s(1024, 8));
  EXPECT_GT(generation_s(1024, 16), generation_s(1024, 8));
  EXPECT_GT(generation_s(1024, 8), 0);
}

// The step is the sum of its phases, and the throughput counts the update's tokens over it.
TEST(PostTraining, TheStepIsItsPhasesInTurn) {
  const Scenario s = PostTraining8Gpus(PostTraining::kPpo);
  const Throughput t = EstimateThroughput(s, CountParams(s.model), H100(), Ndr(), false);
  const PostTrainingStep& p = t.post;
  EXPECT_GT(p.critic_update_s, 0);
  EXPECT_NEAR(p.total_s, p.generation_s + p.forward_s + p.policy_update_s + p.critic_update_s + p.weight_sync_s, 1e-9);
  EXPECT_DOUBLE_EQ(t.step_time_s, p.total_s);
  // 128 prompts × 1 answer × 2,048 tokens per step.
  EXPECT_DOUBLE_EQ(t.tokens_per_step, 128.0 * 2048);
  EXPECT_NEAR(t.tokens_per_s * t.step_time_s, t.tokens_per_step, 1e-6);
  const StepBreakdown& b = t.breakdown;
  EXPECT_NEAR(b.compute_s + b.tp_comm_s + b.dp_comm_s + b.pp_bubble_s + b.other_s + b.rollout_s, t.step_time_s, 1e-6);
}

// Two passes of the update over each rollout batch: twice the update's time, and the
// step's parts still add up to it.
TEST(PostTraining, EachUpdatePassAddsTheUpdatesTime) {
  Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
  const Throughput one = EstimateThroughput(s, CountParams(s.model), H100(), Ndr(), false);
  s.training.post.ppo_epochs = 2;
  const Throughput two = EstimateThroughput(s, CountParams(s.model), H100(), Ndr(), false);
  EXPECT_NEAR(two.post.policy_update_s, 2 * one.post.policy_update_s, 1e-9);
  const StepBreakdown& b = two.breakdown;
  EXPECT_NEAR(b.compute_s + b.tp_comm_s + b.dp_comm_s + b.pp_bubble_s + b.other_s + b.rollout_s, two.step_time_s, 1e-6);
}

// Co-located, training states that leave while the engine generates let it have the GPU.
TEST(PostTraining, OffloadingTrainingWhileGeneratingNeedsLessMemory) {
  Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
  s.training.post.gpu_memory_utilization = 0.5;
  const ParamCounts c = CountParams(s.model);
  const double leaves = EstimateMemory(s, c, false, ShippedCalibration(), 80e9).GpuBytes();
  s.training.post.offload_while_generating = false;
  const double stays = EstimateMemory(s, c, false, ShippedCalibration(), 80e9).GpuBytes();
  EXPECT_LT(leaves, stays);
}

// On its own GPUs the engine holds only itself and the CUDA context; training GPUs hold
// no engine.
TEST(PostTraining, SeparatePlacementSplitsThePools) {
  Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
  s.training.post.placement = Placement::kSeparate;
  s.training.post.rollout_gpus = 2;
  EXPECT_EQ(TrainingGpus(s), 6);
  const MemoryBreakdown m = EstimateMemory(s, CountParams(s.model), false, ShippedCalibration(), 80e9);
  const double context = m.OutsideAllocatorBytes();
  EXPECT_DOUBLE_EQ(m.post.rollout_gpu_bytes, m.post.rollout.bytes + context);
  EXPECT_DOUBLE_EQ(m.GpuBytes(), std::max(m.post.training_gpu_bytes, m.post.rollout_gpu_bytes));
}

// 1,000 prompts × 2 epochs × 8 answers × (1,024 + 1,024) tokens.
TEST(PostTraining, ARunsTokensArePromptsTimesEpochsTimesAnswers) {
  Scenario s = PostTraining8Gpus(PostTraining::kGrpo);
  s.training.post.prompts = 1000;
  s.training.epochs = 2;
  EXPECT_DOUBLE_EQ(TrainingTokens(s.training), 1000.0 * 2 * 8 * 2048);
}

}  // namespace
}  // namespace engine
