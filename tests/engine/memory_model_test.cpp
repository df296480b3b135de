// Memory terms against hand derivations (ZeRO paper, QLoRA paper, model.md §9 worked
// examples). Each expected value is computed in the comment from published numbers.
#include "engine/memory_model.h"

#include <gtest/gtest.h>

#include "engine/flops.h"
#include "engine/framework_profile.h"
#include "engine/units.h"
#include "test_models.h"

namespace engine {
namespace {

Scenario Base(const ModelSpec& m) {
  Scenario s;
  s.model = m;
  s.training.seq_len = 4096;
  s.training.micro_batch = 1;
  return s;
}

double States(const MemoryBreakdown& b) { return b.weights.bytes + b.gradients.bytes + b.optimizer.bytes; }

// ZeRO paper (Rajbhandari et al. 2020, arXiv:1910.02054) Figure 1: Ψ = 7.5B, N_d = 64, K = 12 →
// baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB.
TEST(MemoryModel, ZeroStagesMatchZeroPaperFigure1) {
  ModelSpec m = testing::Llama3_8B();
  Scenario s = Base(m);
  s.parallel.gpus = 64;
  const ParamCounts c = CountParams(m);
  const double scale = 7.5e9 / c.total;  // evaluate the per-parameter ratios at Ψ = 7.5B
  const double expected_gb[] = {120.0, 31.4, 16.6, 1.9};
  for (int zero = 0; zero <= 3; ++zero) {
    s.parallel.zero = zero;
    const MemoryBreakdown b = EstimateMemory(s, c);
    EXPECT_NEAR(States(b) * scale / kGB, expected_gb[zero], 0.1) << "ZeRO-" << zero;
  }
}

// Llama-3-8B bf16 weights: 8,030,261,248 × 2 B = 16.06 GB (model.md §9.2).
// Issue 18: PyTorch FSDP on one rank runs NO_SHARD, so ZeRO-3 kept on one GPU gathers
// nothing and needs what ZeRO 0 needs (LoRA on a 4090 no longer misses by the buffers).
// DeepSpeed's stage 3 still fetches each partitioned unit into a separate buffer.
TEST(MemoryModel, FsdpOnOneGpuGathersNothing) {
  Scenario s = Base(testing::Llama3_8B());
  s.training.method = Method::kLora;
  s.parallel.zero = 0;
  const double plain = EstimateMemory(s, CountParams(s.model), false).GpuBytes();
  s.parallel.zero = 3;
  const MemoryBreakdown fsdp = EstimateMemory(s, CountParams(s.model), false);
  EXPECT_EQ(fsdp.overhead_parts.gathered_bytes, 0);
  EXPECT_DOUBLE_EQ(fsdp.GpuBytes(), plain);
  s.parallel.framework = Framework::kDeepSpeed;
  EXPECT_GT(EstimateMemory(s, CountParams(s.model), false).overhead_parts.gathered_bytes, 0);
}

TEST(MemoryModel, FullFineTuneOneGpuHoldsSixteenBytesPerParam) {
  const Scenario s = Base(testing::Llama3_8B());
  const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(b.weights.bytes, 8'030'261'248.0 * 2);
  EXPECT_DOUBLE_EQ(b.gradients.bytes, 8'030'261'248.0 * 2);
  EXPECT_DOUBLE_EQ(b.optimizer.bytes, 8'030'261'248.0 * 12);
}

// QLoRA base for Llama-3-8B (model.md §9.2): 6.979B linear params × 0.516 B = 3.60 GB,
// embeddings + head + norms 1.05B × 2 B = 2.10 GB, total 5.70 GB.
TEST(MemoryModel, QloraBaseWeightsMatchWorkedExample) {
  Scenario s = Base(testing::Llama3_8B());
  s.training.method = Method::kQlora;
  const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
  const double adapters_bytes = b.trainable_params * 4;  // fp32 adapters
  EXPECT_NEAR((b.weights.bytes - adapters_bytes) / kGB, 5.70, 0.01);
}

// PEFT's prepare_model_for_kbit_training (the bare HF Trainer's QLoRA scripts) casts the
// 16-bit weights that are not 4-bit to fp32; TRL casts embeddings and head back to bf16.
// Llama-3-8B by hand: embeddings and head 2 × 128256 × 4096 = 1,050,673,152, norms
// 65 × 4096 = 266,240: 1,050,939,392 weights, 2 B more each = 2,101,878,784 B.
TEST(MemoryModel, QloraUnderTheBareTrainerHoldsUnquantizedWeightsInFp32) {
  Scenario s = Base(testing::Llama3_8B());
  s.training.method = Method::kQlora;
  s.parallel.framework = Framework::kHfTrainer;
  const double trainer = EstimateMemory(s, CountParams(s.model)).weights.bytes;
  s.parallel.framework = Framework::kTrl;
  const double trl = EstimateMemory(s, CountParams(s.model)).weights.bytes;
  EXPECT_NEAR(trainer - trl, 2101878784.0, 1.0);
}

// Llama-3-8B stored as a 4-bit, group-128 GPTQ checkpoint (0.51953125 B per linear
// weight: 4/8 + (2 + 4/8)/128), under LoRA and under QLoRA. By hand: linear weights
// 32 × (2·4096² + 2·4096·1024 + 3·4096·14336) = 6,979,321,856 × 0.51953125 B =
// 3,625,975,808 B; embeddings, head and norms 1,050,939,392 × 2 B = 2,101,878,784 B;
// frozen base 5,727,854,592 B.
TEST(MemoryModel, GptqCheckpointBaseWeightsAreSizedAsStored) {
  for (Method method : {Method::kLora, Method::kQlora}) {
    Scenario s = Base(testing::Llama3_8B());
    s.model.stored_weight_bytes = 0.51953125;
    s.training.method = method;
    const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
    const double adapters_bytes = b.trainable_params * 4;  // fp32 adapters
    EXPECT_NEAR(b.weights.bytes - adapters_bytes, 5'727'854'592.0, 1.0);
  }
}

// LoRA r = 16 on all 7 linear layers of Llama-3-8B: per layer
// 16·[(4096+4096) + 2·(4096+1024) + (4096+4096) + 2·(4096+14336) + (14336+4096)] = 1,310,720;
// × 32 layers = 41,943,040 (model.md §9.2: 0.52% of N). Llama-3-70B: 207,093,760.
TEST(MemoryModel, LoraAllLinearTrainableParams) {
  Training t;
  t.method = Method::kLora;
  t.lora_rank = 16;
  const ModelSpec m8 = testing::Llama3_8B(), m70 = testing::Llama3_70B();
  EXPECT_DOUBLE_EQ(TrainableParams(m8, CountParams(m8), t), 41'943'040.0);
  EXPECT_DOUBLE_EQ(TrainableParams(m70, CountParams(m70), t), 207'093'760.0);
}

// LoRA r = 32 on all linear layers of Llama-3-8B is 83,886,080 adapter parameters (twice
// the r = 16 count above). PEFT modules_to_save = [embed_tokens, lm_head] adds a trained
// copy of each 128,256 × 4,096 table: 2 · 525,336,576 = 1,050,673,152 more, 1,134,559,232
// in all. Under fp32 AdamW each costs 4 (weight) + 4 (gradient) + 8 (moments) B, and the
// frozen originals stay; a trained head copy adds its weight gradient, 2·V·h FLOPs a token.
TEST(MemoryModel, LoraWithTrainedEmbeddingAndHeadCopies) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kLora;
  s.training.lora_rank = 32;
  s.training.precision = Precision::kFp32;
  const ParamCounts c = CountParams(s.model);
  const MemoryBreakdown plain = EstimateMemory(s, c);
  const FlopsPerToken plain_flops = TrainingFlopsPerToken(s, c);
  EXPECT_DOUBLE_EQ(TrainableParams(s.model, c, s.training), 83'886'080.0);
  s.training.lora_modules_to_save = SavedModules::kEmbeddingsAndHead;
  EXPECT_DOUBLE_EQ(TrainableParams(s.model, c, s.training), 1'134'559'232.0);
  const MemoryBreakdown saved = EstimateMemory(s, c);
  const auto states = [](const MemoryBreakdown& b) { return b.weights.bytes + b.gradients.bytes + b.optimizer.bytes; };
  EXPECT_NEAR(states(saved) - states(plain), 1'050'673'152.0 * 16, 1.0);
  EXPECT_NEAR(TrainingFlopsPerToken(s, c).model - plain_flops.model, 2.0 * 525'336'576, 1.0);
  // Only the embedding copy: a lookup, no GEMM.
  s.training.lora_modules_to_save = SavedModules::kEmbeddings;
  EXPECT_NEAR(TrainingFlopsPerToken(s, c).model, plain_flops.model, 1.0);
}

// Activations for Llama-3-8B, s = 4096, b = 1, FlashAttention, no parallelism, derived
// tensor by tensor (model.md §3.3): sbh·(12 + 4g + 6f/h) = 34·sbh per layer with
// g = 8/32, f/h = 3.5, plus FlashAttention's fp32 log-sum-exp 4·b·heads·s.
TEST(MemoryModel, ActivationsPerLayerAreThirtyFourSbh) {
  const Scenario s = Base(testing::Llama3_8B());
  const double sbh = 4096.0 * 4096.0;
  const double per_layer = 34 * sbh + 4.0 * 32 * 4096;
  const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(b.activations.bytes, 32 * per_layer);
}

// Full recomputation keeps each layer's 2·sbh input plus one layer's working set, of
// which that layer's input is one of the kept ones (not counted twice).
TEST(MemoryModel, FullRecomputeKeepsLayerInputsAndOneWorkingLayer) {
  Scenario s = Base(testing::Llama3_8B());
  s.training.activation_checkpointing = Recompute::kFull;
  const double sbh = 4096.0 * 4096.0;
  const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(b.activations.bytes, 32 * 2 * sbh + (34 * sbh + 4.0 * 32 * 4096 - 2 * sbh));
}

// Stage layer counts by hand. Llama 3 405B: 126 layers on 16 stages with one layer less on
// the first and the last (Llama 3 report §3.3.2): 7, then 112 / 14 = 8 on each other, 7.
// Two and four on the ends leave 120 over 14 stages: the fullest gets ceil(120/14) = 9.
// Even split of 61 layers (DeepSeek-V3) over 8 stages: ceil(61/8) = 8; five on the last
// leaves 56 over 7: 8.
TEST(MemoryModel, PipelineStagesShareTheLayersAsGiven) {
  Parallelism p;
  p.pp = 16, p.first_stage_layers = 7, p.last_stage_layers = 7;
  EXPECT_EQ(StageLayersOf(p, 126).first, 7);
  EXPECT_EQ(StageLayersOf(p, 126).middle, 8);
  EXPECT_EQ(StageLayersOf(p, 126).last, 7);
  p.first_stage_layers = 2, p.last_stage_layers = 4;
  EXPECT_EQ(StageLayersOf(p, 126).Fullest(), 9);
  EXPECT_DOUBLE_EQ(StageLayerShare(p, 126), 9.0 / 126);
  p.pp = 8, p.first_stage_layers = 0, p.last_stage_layers = 0;
  EXPECT_EQ(StageLayersOf(p, 61).Fullest(), 8);
  p.last_stage_layers = 5;
  EXPECT_EQ(StageLayersOf(p, 61).first, 8);
  EXPECT_EQ(StageLayersOf(p, 61).last, 5);
}

// 1F1B: the first stage holds p micro-batches' activations, the second p − 1. Llama 3 8B
// (32 layers) LoRA on 4 stages, 16 micro-batches, no recomputation: evenly, the first
// stage peaks with 8 layers × 4 in flight = 32 layers' activations. With 5 layers on the
// first stage, the others take ceil(27/3) = 9, and the second stage peaks with 9 × 3 = 27
// (the first holds 5 × 4 = 20; the last 9 × 1 and the logits, 4096 × 128,256 × 6 B =
// 3.1 GB, less than the second's extra 18 layers' 9.6 GB).
TEST(MemoryModel, AFirstStageWithFewerLayersMovesThePeakToTheSecond) {
  Scenario s = Base(testing::Llama3_8B());
  s.training.method = Method::kLora;
  s.parallel.gpus = 4, s.parallel.pp = 4;
  s.training.global_batch = 16;
  const double even = EstimateMemory(s, CountParams(s.model)).activations.bytes;
  s.parallel.first_stage_layers = 5;
  EXPECT_DOUBLE_EQ(EstimateMemory(s, CountParams(s.model)).activations.bytes / even, 27.0 / 32);
}

// Tensor + sequence parallelism divides every activation by t (Korthikanti Eq. 4).
TEST(MemoryModel, SequenceParallelDividesActivationsByTp) {
  Scenario one = Base(testing::Llama3_70B());
  Scenario tp8 = one;
  tp8.parallel.gpus = 8, tp8.parallel.tp = 8, tp8.parallel.sequence_parallel = true;
  const ParamCounts c = CountParams(one.model);
  EXPECT_NEAR(EstimateMemory(tp8, c).activations.bytes * 8, EstimateMemory(one, c).activations.bytes, 1.0);
}

// Without FlashAttention the 5·a·s²·b score terms appear (Korthikanti Eq. 1).
TEST(MemoryModel, NoFlashAttentionAddsScoreMatrices) {
  Scenario fa = Base(testing::Llama3_8B());
  Scenario eager = fa;
  eager.training.flash_attention = false;
  const ParamCounts c = CountParams(fa.model);
  const double extra = EstimateMemory(eager, c).activations.bytes - EstimateMemory(fa, c).activations.bytes;
  EXPECT_DOUBLE_EQ(extra, 32 * 5.0 * 32 * 4096.0 * 4096.0);
}

// Logits: s·b·V elements × 6 B = 4096 × 128,256 × 6 = 3.15 GB.
TEST(MemoryModel, LogitsScaleWithVocabulary) {
  const Scenario s = Base(testing::Llama3_8B());
  EXPECT_DOUBLE_EQ(EstimateMemory(s, CountParams(s.model)).logits.bytes, 4096.0 * 128256 * 6);
}

TEST(MemoryModel, OptimizerOffloadMovesStateToHostRam) {
  Scenario s = Base(testing::Llama3_8B());
  s.parallel.offload = Offload::kOptimizer;
  const MemoryBreakdown b = EstimateMemory(s, CountParams(s.model));
  EXPECT_EQ(b.optimizer.bytes, 0);
  EXPECT_EQ(b.gradients.bytes, 0);
  // (2 + 12) B × N moved, × 1.5 DeepSpeed buffer factor.
  EXPECT_DOUBLE_EQ(b.cpu_ram.bytes, 8'030'261'248.0 * 14 * 1.5);
}

// QLoRA on bitsandbytes <= 0.43.1 keeps each 4-bit layer's input: Llama-3-8B, one
// sequence of 1,024 tokens, no recomputation: per token and layer the attention input
// (4,096), the output projection's input (4,096), the MLP input (4,096) and the down
// projection's input (14,336) at 2 B = 53,248 B; × 1,024 tokens × 32 layers =
// 1,744,830,464 B more than on bitsandbytes 0.43.3.
TEST(MemoryModel, LegacyBitsandbytesKeepsEachQuantizedLayersInput) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kQlora;
  s.training.seq_len = 1024;
  const ParamCounts c = CountParams(s.model);
  const double fixed = EstimateMemory(s, c).activations.bytes;
  s.training.qlora_legacy_bnb = true;
  EXPECT_NEAR(EstimateMemory(s, c).activations.bytes - fixed, 1'744'830'464.0, 1.0);
}

// QLoRA with fp32 norms keeps fp32 hidden states: Llama-3-8B, one sequence of 1,024
// tokens, full recomputation. Each of the 32 kept layer inputs grows from 2 to 4 B per
// element, 1,024 × 4,096 × 2 = 8,388,608 B more each; the rebuilt layer's working set is
// counted less its (now larger) input, 8,388,608 B less: 31 × 8,388,608 = 260,046,848 B.
TEST(MemoryModel, Fp32NormsUnderQloraKeepFp32LayerInputs) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kQlora;
  s.training.seq_len = 1024;
  s.training.activation_checkpointing = Recompute::kFull;
  const ParamCounts c = CountParams(s.model);
  const double bf16 = EstimateMemory(s, c).activations.bytes;
  s.training.qlora_fp32_norms = true;
  EXPECT_NEAR(EstimateMemory(s, c).activations.bytes - bf16, 260'046'848.0, 1.0);
  // By default only the stacks that prepare the model with PEFT keep fp32 norms, and not
  // when ZeRO-3 / FSDP shards the 4-bit weights (the preparation is skipped then).
  s.parallel.framework = Framework::kTrl;
  EXPECT_TRUE(DefaultQloraFp32Norms(s));
  s.parallel.zero = 3;
  EXPECT_FALSE(DefaultQloraFp32Norms(s));
  s.parallel.zero = 0;
  s.parallel.framework = Framework::kLlamaFactory;
  EXPECT_FALSE(DefaultQloraFp32Norms(s));
}

// Llama-3-8B full fine-tuning in bf16 on 8 GPUs at ZeRO-3. Every stack gathers two units
// of the largest of a layer (218,112,000) and the embedding table (128,256 × 4,096 =
// 525,336,576) at 2 B plus one unit's fp32 gradient: 525,336,576 × 8 = 4,202,692,608 B.
// Under plain FSDP the root unit (embeddings + head, 1,050,673,152 parameters) stays
// gathered through backward: + 2,101,346,304 B; torchtitan keeps only [norm, output]
// gathered: + 1,050,673,152 B; DeepSpeed ZeRO-3 keeps nothing extra.
TEST(MemoryModel, FsdpRootUnitStaysGatheredThroughBackward) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.parallel.gpus = 8;
  s.parallel.zero = 3;
  const ParamCounts c = CountParams(s.model);
  const auto gathered = [&](Framework f) {
    s.parallel.framework = f;
    return EstimateMemory(s, c).overhead_parts.gathered_bytes;
  };
  EXPECT_DOUBLE_EQ(gathered(Framework::kDeepSpeed), 4'202'692'608.0);
  EXPECT_DOUBLE_EQ(gathered(Framework::kFsdp), 4'202'692'608.0 + 2'101'346'304.0);
  EXPECT_DOUBLE_EQ(gathered(Framework::kTorchtitan), 4'202'692'608.0 + 1'050'673'152.0);
  // The Hugging Face Trainer shards through DeepSpeed unless told FSDP; through FSDP,
  // Accelerate wraps each decoder layer and the root keeps both tables.
  EXPECT_DOUBLE_EQ(gathered(Framework::kHfTrainer), 4'202'692'608.0);
  s.parallel.sharding = Sharding::kFsdp;
  EXPECT_DOUBLE_EQ(gathered(Framework::kHfTrainer), 4'202'692'608.0 + 2'101'346'304.0);
}

// What ZeRO-3 / FSDP gathers for the frozen weights of Llama-3-8B (8,030,261,248
// parameters). LoRA: all of them in bf16, 16,060,522,496 B. QLoRA: the 32 layers' linear
// weights, 32 × (4096 × 6144 + 4096 × 4096 + 3 × 4096 × 14336) = 6,979,321,856, in NF4 with
// double-quantized scales ((4 + 8/64 + 32/(64·256)) / 8 B each), the other 1,050,939,392
// (embeddings, head, norms) in bf16. Full fine-tuning freezes nothing.
TEST(MemoryModel, FrozenWeightsAreGatheredAtTheirStoredWidth) {
  Scenario s;
  s.model = testing::Llama3_8B();
  const ParamCounts c = CountParams(s.model);
  s.training.method = Method::kLora;
  EXPECT_DOUBLE_EQ(FrozenWeightBytesOnGpu(s, c), 16'060'522'496.0);
  s.training.method = Method::kQlora;
  const double nf4 = (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
  EXPECT_NEAR(FrozenWeightBytesOnGpu(s, c), 6'979'321'856.0 * nf4 + 1'050'939'392.0 * 2, 1.0);
  s.training.method = Method::kFull;
  EXPECT_DOUBLE_EQ(FrozenWeightBytesOnGpu(s, c), 0.0);
}

// Invariants.
TEST(MemoryModel, MoreGpusUnderZero3NeverIncreaseMemory) {
  Scenario s = Base(testing::Llama3_70B());
  s.parallel.zero = 3;
  const ParamCounts c = CountParams(s.model);
  double previous = 1e300;
  for (int gpus : {1, 2, 4, 8, 16, 64, 256}) {
    s.parallel.gpus = gpus;
    const double now = EstimateMemory(s, c).GpuBytes();
    EXPECT_LE(now, previous) << gpus;
    previous = now;
  }
}

TEST(MemoryModel, LongerSequencesNeverReduceActivations) {
  Scenario s = Base(testing::Llama3_8B());
  const ParamCounts c = CountParams(s.model);
  double previous = 0;
  for (int seq : {512, 1024, 4096, 8192, 32768}) {
    s.training.seq_len = seq;
    const double now = EstimateMemory(s, c).activations.bytes;
    EXPECT_GE(now, previous) << seq;
    previous = now;
  }
}

TEST(MemoryModel, PipelineFirstStageHoldsAllLayersWorthOfActivations) {
  // 1F1B with m ≥ p: the first stage stores p micro-batches of L/p layers = L layers' worth.
  Scenario one = Base(testing::Llama3_70B());
  Scenario pp4 = one;
  pp4.parallel.gpus = 4, pp4.parallel.pp = 4;
  pp4.training.global_batch = 16;
  const ParamCounts c = CountParams(one.model);
  const MemoryBreakdown b = EstimateMemory(pp4, c);
  EXPECT_DOUBLE_EQ(b.activations.bytes, EstimateMemory(one, c).activations.bytes);
  EXPECT_EQ(b.logits.bytes, 0);  // the first stage is the busiest; logits live on the last
}

// Megatron-LM dist_optimizer.md: bf16 params + fp32 main grads = 18 B/param unsharded;
// the distributed optimizer shards only the 12 B of fp32 master + moments: 6 + 12/d.
TEST(MemoryModel, MegatronDistributedOptimizerIsSixPlusTwelveOverD) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.parallel.gpus = 8;
  s.parallel.framework = Framework::kMegatron;
  const ParamCounts c = CountParams(s.model);
  EXPECT_DOUBLE_EQ(States(EstimateMemory(s, c)) / c.total, 18.0);
  s.parallel.zero = 1;
  EXPECT_DOUBLE_EQ(States(EstimateMemory(s, c)) / c.total, 6.0 + 12.0 / 8);
}

// DeepSpeed estimate_zero2_model_states_mem_needs: 2Ψ + 18Ψ/N on the GPU.
TEST(MemoryModel, DeepSpeedZero2MatchesItsOwnEstimator) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.parallel.gpus = 8;
  s.parallel.zero = 2;
  s.parallel.framework = Framework::kDeepSpeed;
  const ParamCounts c = CountParams(s.model);
  EXPECT_DOUBLE_EQ(States(EstimateMemory(s, c)) / c.total, 2.0 + 18.0 / 8);
}

// torchtune/LitGPT "bf16-true": bf16 weights, bf16 grads, AdamW moments in bf16 = 8 B.
TEST(MemoryModel, PureBf16HasNoMasterCopy) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.precision = Precision::kBf16Pure;
  const ParamCounts c = CountParams(s.model);
  EXPECT_DOUBLE_EQ(States(EstimateMemory(s, c)) / c.total, 8.0);
}

}  // namespace
}  // namespace engine

namespace engine {
namespace {

// Expert optimizer state is sharded over the expert-data-parallel group (dp/ep), not dp:
// Mixtral on 16 GPUs with ep = 8 and ZeRO-1 keeps expert states 16/8 = 2 ways sharded.
TEST(MemoryModel, ExpertStatesShardOverExpertDataParallelGroup) {
  Scenario s;
  s.model = testing::Mixtral8x7B();
  s.parallel.gpus = 16, s.parallel.ep = 8, s.parallel.zero = 1;
  const ParamCounts c = CountParams(s.model);
  const double dense = c.total - c.expert;
  const double local_expert = c.expert / 8;
  // optimizer (12 B) = dense/16 ways + local experts/2 ways.
  const double expected = 12 * (dense / 16 + local_expert / 2);
  EXPECT_NEAR(EstimateMemory(s, c).optimizer.bytes / expected, 1.0, 1e-9);
}

// FP8 stores GEMM inputs in one byte: per layer the QKV, output-projection, gate/up and
// down inputs shrink by s·b·(2h + h_q + f) bytes (Llama-3-8B: 2·4096 + 4096 + 14336).
TEST(MemoryModel, Fp8HalvesGemmInputActivations) {
  Scenario bf16;
  bf16.model = testing::Llama3_8B();
  Scenario fp8 = bf16;
  fp8.training.precision = Precision::kFp8;
  const ParamCounts c = CountParams(bf16.model);
  const double saved = EstimateMemory(bf16, c).activations.bytes - EstimateMemory(fp8, c).activations.bytes;
  EXPECT_DOUBLE_EQ(saved, 32 * 4096.0 * (2 * 4096 + 4096 + 14336));
}

}  // namespace
}  // namespace engine
