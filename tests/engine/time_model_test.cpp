// FLOPs per token and step time against hand derivations (PaLM App. B convention,
// model.md §5 and §9.5-9.6) and physical invariants of the time model.
#include "engine/time_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/efficiency.h"
#include "engine/framework_profile.h"
#include "engine/units.h"
#include "test_models.h"

namespace engine {
namespace {

GpuSpec H100() {
  GpuSpec g;
  g.id = "h100-sxm-80gb";
  g.name = "H100";
  g.architecture = engine::GpuArchitecture::kHopper;
  g.memory_bytes = 79.6 * kGiB;
  g.memory_bandwidth_bytes_per_s = 3.35e12;
  g.bf16_flops = 989.4e12;
  g.fp8_flops = 1978.9e12;
  g.scale_up_bytes_per_s = 900e9;
  return g;
}

FabricSpec Fabric(double node_gbps, double busbw_fraction) {
  FabricSpec f;
  f.id = "test";
  f.latency_s = 5e-6;
  f.busbw_fraction = busbw_fraction;
  f.default_node_bytes_per_s = node_gbps * 1e9 / 8;
  return f;
}

Scenario Llama8B(int gpus) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.parallel.gpus = gpus;
  s.parallel.gpus_per_node = std::min(gpus, 8);
  return s;
}

// 6·N_mm + 12·L·h_q·s with N_mm = 7,504,658,432 GEMM weights (8,030,261,248 minus the
// 525,336,576-entry embedding lookup and 266,240 norm weights): 45.028e9 + 12·32·4096·4096
// = 45.028e9 + 6.442e9 = 51.47e9 (model.md §9.5: 51.47 G).
TEST(Flops, FullFineTuneModelFlopsPerToken) {
  const Scenario s = Llama8B(1);
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(f.model, 6 * 7'504'658'432.0 + 12.0 * 32 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(f.hardware, f.model);
}

// Full recompute adds one forward of the layers (not the LM head, which is not
// checkpointed): 2·(N_mm − V·h) + 4·L·h_q·s.
TEST(Flops, FullRecomputeCountsInHardwareFlopsOnly) {
  Scenario s = Llama8B(1);
  s.training.activation_checkpointing = Recompute::kFull;
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(f.model, 6 * 7'504'658'432.0 + 12.0 * 32 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(f.hardware - f.model, 2 * (7'504'658'432.0 - 128256.0 * 4096) + 4.0 * 32 * 4096 * 4096);
  // The parts a FLOP convention may count differently: the core attention of `model`
  // (12·L·h_q·s, unrecomputed; causal counts take half of it: Megatron-LM since 2025) and
  // the LM head's GEMMs (6·V·h, not recomputed).
  EXPECT_DOUBLE_EQ(f.model_attention, 12.0 * 32 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(f.head_gemm, 6.0 * 128256 * 4096);
}

// LoRA r = 16 all-linear: frozen weights skip their weight-gradient GEMM, so
// 4·N_mm + 12·L·h_q·s + 6·N_lora = 30.02e9 + 6.44e9 + 0.25e9 = 36.71e9 (model.md §9.5: 36.7 G).
TEST(Flops, LoraIsAboutFourFlopsPerParameter) {
  Scenario s = Llama8B(1);
  s.training.method = Method::kLora;
  const FlopsPerToken f = TrainingFlopsPerToken(s, CountParams(s.model));
  EXPECT_DOUBLE_EQ(f.model, 4 * 7'504'658'432.0 + 12.0 * 32 * 4096 * 4096 + 6 * 41'943'040.0);
}

// With a user MFU the step is FLOPs / (GPUs × peak × MFU): 256 × 4096 tokens ×
// 51.47e9 / (8 × 989.4e12 × 0.40) = 17.05 s, 7,689 tok/s/GPU (model.md §9.6).
TEST(Time, UserMfuGivesTheTextbookStepTime) {
  Scenario s = Llama8B(8);
  s.training.global_batch = 256;
  s.training.mfu = 0.40;
  s.training.tokens = 2e9;
  const Throughput t = EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9));
  EXPECT_NEAR(t.step_time_s, 17.05, 0.01);
  EXPECT_NEAR(t.tokens_per_s_per_gpu, 7689, 2);
  EXPECT_NEAR(t.mfu, 0.40, 1e-12);
  const TrainingTime time = EstimateTime(s, t);
  EXPECT_DOUBLE_EQ(time.steps, std::ceil(2e9 / (256.0 * 4096)));  // 1,908 steps
  EXPECT_NEAR(time.wall_hours, 1908 * t.step_time_s / 3600, 1e-9);
  EXPECT_NEAR(time.gpu_hours, time.wall_hours * 8, 1e-9);
}

// A user's measured efficiency replaces the architecture default. Llama 3 8B at s=4096 does
// 45.0 GFLOP of GEMMs and at most 6.4 GFLOP of attention per token (model.md §9.5); at
// With Hopper's calibrated GEMM efficiency (~0.7, × 4096/4352 for the width) and 0.35 for
// attention, GEMMs take ~2/3 or more of the FLOP time at 4k tokens, so halving GEMM
// efficiency stretches compute by at least 1.6 before elementwise kernels, which dilute
// it, and at most 2 (were GEMMs all of it).
TEST(Time, MeasuredGemmEfficiencyReplacesTheDefault) {
  GpuSpec measured = H100();
  const double half = ShippedCalibration().Gemm(GpuArchitecture::kHopper) / 2;
  measured.gemm_efficiency = half;
  const Efficiency e = BaseEfficiency(measured, Training{});
  EXPECT_DOUBLE_EQ(e.gemm, half);
  EXPECT_DOUBLE_EQ(e.attention, 0.35);
  EXPECT_EQ(e.basis.id, "efficiency.basis.user");
  EXPECT_NE(e.basis.english.find("your figures"), std::string::npos);
  Scenario s = Llama8B(8);
  s.parallel.zero = 3;
  s.training.global_batch = 64;
  const double base = EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.compute_s;
  const double slow = EstimateThroughput(s, CountParams(s.model), measured, Fabric(3200, 0.9)).breakdown.compute_s;
  EXPECT_GT(slow / base, 1.6);
  EXPECT_LT(slow / base, 2.0);
}

// Transformer Engine's cuDNN attention on Hopper: 1.5 times flash-attn's attention rate
// (the TE docs' H100 benchmark, 1.59x on causal training shapes, rounded down), the
// default of the Megatron stacks; on Ampere TE runs flash-attn itself, so no change.
TEST(Time, CudnnAttentionIsFasterOnHopperOnly) {
  Training flash, cudnn;
  cudnn.attention_backend = AttentionBackend::kCudnn;
  EXPECT_DOUBLE_EQ(BaseEfficiency(H100(), cudnn).attention, 1.5 * BaseEfficiency(H100(), flash).attention);
  GpuSpec a100 = H100();
  a100.architecture = GpuArchitecture::kAmpere;
  EXPECT_DOUBLE_EQ(BaseEfficiency(a100, cudnn).attention, BaseEfficiency(a100, flash).attention);
  Scenario s;
  s.parallel.framework = Framework::kMegatron;
  ApplyFrameworkDefaults(s);
  EXPECT_EQ(s.training.attention_backend, AttentionBackend::kCudnn);
}

TEST(Time, PredictedMfuIsPlausibleForDenseTraining) {
  Scenario s = Llama8B(8);
  s.parallel.zero = 3;
  s.training.global_batch = 64;
  const Throughput t = EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9));
  EXPECT_GT(t.mfu, 0.25);
  EXPECT_LT(t.mfu, 0.65);
  EXPECT_NEAR(t.step_time_s, t.breakdown.compute_s + t.breakdown.tp_comm_s + t.breakdown.dp_comm_s +
                                 t.breakdown.pp_bubble_s + t.breakdown.other_s, 1e-12);
}

// 1F1B bubble: (p − 1)/(v·m) of the micro-batch work (Narayanan et al. 2021 §2.2).
TEST(Time, PipelineBubbleFollowsOneFOneB) {
  Scenario s;
  s.model = testing::Llama3_70B();
  s.parallel.gpus = 4, s.parallel.pp = 4, s.parallel.gpus_per_node = 4;
  s.training.global_batch = 16;  // m = 16 micro-batches
  const Throughput t = EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9));
  EXPECT_NEAR(t.breakdown.pp_bubble_s / t.breakdown.compute_s, 3.0 / 16, 0.01);
  s.parallel.virtual_pipeline = 4;
  const Throughput v = EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9));
  EXPECT_NEAR(v.breakdown.pp_bubble_s / v.breakdown.compute_s, 3.0 / 64, 0.01);
}

// Invariants: a faster network never slows a plan; doubling tokens doubles time.
TEST(Time, FasterFabricNeverSlowsAPlan) {
  Scenario s;
  s.model = testing::Llama3_70B();
  s.parallel.gpus = 16, s.parallel.gpus_per_node = 8, s.parallel.zero = 3;
  s.training.global_batch = 32;
  const ParamCounts c = CountParams(s.model);
  double previous = 1e300;
  for (double gbps : {25.0 * 8, 100.0 * 8, 200.0 * 8, 400.0 * 8}) {
    const double step = EstimateThroughput(s, c, H100(), Fabric(gbps, 0.8)).step_time_s;
    EXPECT_LE(step, previous) << gbps;
    previous = step;
  }
}

TEST(Time, DoublingTokensDoublesWallTime) {
  Scenario s = Llama8B(8);
  s.training.tokens = 1e9;
  const ParamCounts c = CountParams(s.model);
  const Throughput t = EstimateThroughput(s, c, H100(), Fabric(3200, 0.9));
  const double one = EstimateTime(s, t).wall_hours;
  s.training.tokens = 2e9;
  EXPECT_NEAR(EstimateTime(s, t).wall_hours / one, 2.0, 1e-3);
}

// AdamW over Llama-3-8B's 8,030,261,248 parameters in pure bf16 on one H100 (3.35 TB/s,
// 80% of it reachable): fused, 16 B per parameter; torch's foreach AdamW, 20 tensor passes
// plus clipping's 3, at 2 B each = 46 B. The step takes 8,030,261,248 × 30 B /
// (0.8 × 3.35e12 B/s) = 89.9 ms longer.
TEST(TimeModel, ForeachAdamWMakesTwentyThreePasses) {
  Scenario s = Llama8B(1);
  s.training.precision = Precision::kBf16Pure;
  const auto other_s = [&](bool fused) {
    s.training.fused_optimizer = fused;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.other_s;
  };
  EXPECT_NEAR(other_s(false) - other_s(true), 8'030'261'248.0 * 30 / (0.8 * 3.35e12), 1e-9);
}

// Mixtral 8x7B at TP 2 with sequence parallelism and unsplit experts (etp 1): each
// layer's attention keeps its two collectives (and their two backward), while the routed
// experts take their tokens through the EP dispatch, so the tensor-parallel time is half
// that of the same model with a dense MLP (same bytes per collective: s·h·2). A shared
// expert is tensor-parallel like a dense MLP and brings the MLP's pair back.
TEST(TimeModel, RoutedExpertsHaveNoTensorParallelCollectives) {
  const auto tp_comm_s = [](const ModelSpec& m) {
    Scenario s;
    s.model = m;
    s.parallel.gpus = 2, s.parallel.gpus_per_node = 2, s.parallel.tp = 2, s.parallel.etp = 1;
    s.parallel.sequence_parallel = true;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.tp_comm_s;
  };
  ModelSpec dense = testing::Mixtral8x7B();
  dense.moe = {};
  ModelSpec shared = testing::Mixtral8x7B();
  shared.moe.shared_experts = 1;
  EXPECT_NEAR(tp_comm_s(testing::Mixtral8x7B()), tp_comm_s(dense) / 2, 1e-12);
  EXPECT_NEAR(tp_comm_s(shared), tp_comm_s(dense), 1e-12);
}

// Llama-3-8B at TP 2 on NVLink with one 8,192-token sequence: each block's backward
// collective moves s·h·2 = 67 MB, ~0.2 ms at a few hundred GB/s, while the QKV weight
// gradient alone is 2·8192·4096·6144/2 = 206 GFLOP, ~0.3 ms at ~700 TFLOPS, and the MLP's
// more. Megatron-Core hides the backward collective of each of the two blocks, so its
// tensor-parallel time is half that of a stack that waits for all four.
TEST(TimeModel, MegatronHidesTheBackwardCollectiveBehindTheWeightGradient) {
  const auto tp_comm_s = [](Framework f) {
    Scenario s = Llama8B(2);
    s.parallel.tp = 2;
    s.parallel.framework = f;
    s.training.seq_len = 8192;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.tp_comm_s;
  };
  EXPECT_NEAR(tp_comm_s(Framework::kMegatron), tp_comm_s(Framework::kFsdp) / 2, 1e-12);
}

// Each MoE layer's forward waits once on its host sync: Mixtral 8x7B on one GPU, 32 MoE
// layers, at 1 ms a sync, is 32 ms slower per micro-batch than without the sync; full
// recomputation runs every forward twice, 64 ms. XLA on a TPU compiles
// static shapes and has no sync.
TEST(TimeModel, MoeHostSyncCostsOncePerLayerForward) {
  Scenario s;
  s.model = testing::Mixtral8x7B();
  s.training.global_batch = 1;  // one micro-batch a step: the step is the micro-batch
  GpuSpec gpu = H100();
  const auto other_s = [&](double sync_s) {
    Calibration c = ShippedCalibration();
    c.moe_sync_s = sync_s;
    return EstimateThroughput(s, CountParams(s.model), gpu, Fabric(3200, 0.9), false, c).breakdown.other_s;
  };
  EXPECT_NEAR(other_s(1e-3) - other_s(0), 32e-3, 1e-12);
  s.training.activation_checkpointing = Recompute::kFull;
  EXPECT_NEAR(other_s(1e-3) - other_s(0), 64e-3, 1e-12);
  gpu.architecture = GpuArchitecture::kTpu;
  EXPECT_EQ(other_s(1e-3), other_s(0));
}

// QLoRA with fp32 norms doubles the eager elementwise traffic: Llama-3-8B, 1,024 tokens on
// one H100, (480 × 4,096 + 30 × 14,336) = 2,396,160 B per token and layer, × 32 layers ×
// 1,024 tokens = 78,517,370,880 B more at 80% of 3.35 TB/s, with the launch gaps on top.
TEST(TimeModel, Fp32NormsUnderQloraDoubleTheElementwiseTraffic) {
  Scenario s = Llama8B(1);
  s.training.method = Method::kQlora;
  s.training.seq_len = 1024;
  s.training.global_batch = 1;
  s.training.kernels = Kernels::kEager;
  const auto compute_s = [&](bool fp32) {
    s.training.qlora_fp32_norms = fp32;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.compute_s;
  };
  const double expected = 78'517'370'880.0 / (0.8 * 3.35e12) * (1 + ShippedCalibration().launch_overhead_fraction);
  EXPECT_NEAR(compute_s(true) - compute_s(false), expected, 1e-9);
}

// QLoRA dequantizes every NF4 linear weight to bf16 for the forward and the backward GEMMs
// at a quarter of HBM bandwidth (LitGPT's measured 22-27%): Llama-3-8B's linear weights are
// 32 × (2 · 4096² + 2 · 4096 · 1024 + 3 · 4096 · 14,336) = 6,979,321,856, × 2.52 B × 2
// passes / (0.25 × 3.35e12 B/s) = 42.0 ms a micro-batch more than LoRA.
TEST(TimeModel, QloraDequantizesEveryLinearWeightTwiceAMicroBatch) {
  Scenario s = Llama8B(1);
  s.training.seq_len = 1024;
  s.training.global_batch = 1;
  const auto other_s = [&](Method method) {
    s.training.method = method;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.other_s;
  };
  EXPECT_NEAR(other_s(Method::kQlora) - other_s(Method::kLora), 6'979'321'856.0 * 2.52 * 2 / (0.25 * 3.35e12), 1e-4);
}

// Without FlashAttention the softmax and dropout kernels move every score: Llama-3-8B, one
// 1,024-token sequence on one H100 with the attention GEMMs held at 20% of peak either
// way. Per token: the masked half of the attention FLOPs comes back, 0.5 · 12·32·4096·1024
// = 805,306,368 FLOP at 0.2 · 989.4 TFLOPS, and 32 layers · 32 heads · 1,024 scores ·
// (9 + 11) B = 20,971,520 B at 80% of 3.35 TB/s; the launch gaps on top.
TEST(TimeModel, UnfusedAttentionMovesEveryScoreThroughMemory) {
  Scenario s = Llama8B(1);
  s.training.seq_len = 1024;
  s.training.micro_batch = 1;
  s.training.global_batch = 1;
  GpuSpec gpu = H100();
  gpu.attention_efficiency = 0.2;
  const auto compute_s = [&](bool flash) {
    s.training.flash_attention = flash;
    return EstimateThroughput(s, CountParams(s.model), gpu, Fabric(3200, 0.9)).breakdown.compute_s;
  };
  const double per_token_s = 805'306'368.0 / (0.2 * 989.4e12) + 20'971'520.0 / (0.8 * 3.35e12);
  const double expected = 1024 * per_token_s * (1 + ShippedCalibration().launch_overhead_fraction);
  EXPECT_NEAR(compute_s(false) - compute_s(true), expected, 1e-9);
}

// Low-precision recipes keep the LM head and the bf16_layers in BF16. An FP8 run with all
// 32 layers kept in BF16 therefore computes exactly as the BF16 run (attention and the
// elementwise kernels do not change with the GEMM format); with 16 of them kept, the
// layers' GEMMs take the mean of the two rates' inverses. Llama-3-8B full fine-tune, one
// 1,024-token sequence on one H100: the layers' GEMMs are 6 · (7,504,658,432 − 525,336,576
// head) FLOP a token; BF16 rate 989.4 TFLOPS · hopper · 4096/4352, FP8 twice the peak
// (1978.9 TFLOPS) times fp8_gemm_factor; half the layers move from the FP8 to the BF16 rate.
TEST(TimeModel, Bf16LayersAndTheHeadRunAtTheBf16Rate) {
  Scenario s = Llama8B(1);
  s.training.seq_len = 1024;
  s.training.micro_batch = 1;
  s.training.global_batch = 1;
  const auto compute_s = [&](Precision p, int bf16_layers) {
    s.training.precision = p;
    s.training.bf16_layers = bf16_layers;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.compute_s;
  };
  EXPECT_NEAR(compute_s(Precision::kFp8, 32), compute_s(Precision::kBf16, 0), 1e-12);
  const Calibration& c = ShippedCalibration();
  const double hopper = c.gemm[static_cast<size_t>(GpuArchitecture::kHopper)];
  const double shape = 4096.0 / 4352.0;
  const double bf16_rate = 989.4e12 * hopper * shape;
  const double fp8_rate = 1978.9e12 * hopper * c.fp8_gemm_factor * shape;
  const double layer_flops = 6.0 * (7'504'658'432.0 - 525'336'576.0);
  const double expected = 1024 * layer_flops * 0.5 * (1 / bf16_rate - 1 / fp8_rate) * (1 + c.launch_overhead_fraction);
  EXPECT_NEAR(compute_s(Precision::kFp8, 16) - compute_s(Precision::kFp8, 0), expected, 1e-9);
}

// Interleaving sends every micro-batch across v·p − 1 stage boundaries, half of them
// hidden: v = 2 instead of 1 adds one transfer per micro-batch (2 · t · 0.5 · m · (2 − 1)).
// Llama-3-8B, one 4,096-token sequence a micro-batch, 8 micro-batches, pp 4: a transfer is
// 4096 · 4096 · 2 = 33,554,432 B. On 32 GPUs a stage's 8 ranks fill a node (pipeline is the
// outermost mesh dimension), so it crosses the network: 3,200 Gb/s / 8 GPUs · 0.9 = 45 GB/s,
// plus 5 µs. On 16 GPUs neighbouring stages share a node: NVLink 450 GB/s · 0.8.
TEST(TimeModel, InterleavedPipelineSendsAtEveryChunk) {
  const auto other_s = [](int gpus, int v) {
    Scenario s = Llama8B(gpus);
    s.parallel.pp = 4;
    s.parallel.virtual_pipeline = v;
    s.training.global_batch = 8 * gpus / 4;
    return EstimateThroughput(s, CountParams(s.model), H100(), Fabric(3200, 0.9)).breakdown.other_s;
  };
  EXPECT_NEAR(other_s(32, 2) - other_s(32, 1), 8 * (33'554'432.0 / 45e9 + 5e-6), 1e-12);
  EXPECT_NEAR(other_s(16, 2) - other_s(16, 1), 8 * (33'554'432.0 / (450e9 * 0.8) + 5e-6), 1e-12);
}

// Each weight GEMM's shape factor g(w) = w/(w + 256) on its narrower side, averaged by
// FLOPs. Llama-3-8B unsplit: every GEMM's narrower side is h = 4096, so g = 4096/4352.
// Nemotron-4 15B shape (h 6144, 48 heads / 8 KV of 128, plain MLP f 24576, vocab 256000,
// 32 layers) at TP 8, by hand: QKV 6144·8192 FLOP-weight, narrow 1024, g = 0.8;
// output 6144², narrow 768, g = 0.75; MLP 2·6144·24576, narrow 3072, g = 12/13;
// head 6144·256000/32, narrow 6144, g = 24/25. Weights 50.33M, 37.75M, 301.99M, 49.15M
// (sum 439.22M); time 62.91M + 50.33M + 327.16M + 51.20M = 491.60M; 439.22/491.60 = 0.8935.
TEST(TimeModel, DenseGemmShapeFactorTakesEachGemmsNarrowerSide) {
  EXPECT_NEAR(DenseGemmShapeFactor(testing::Llama3_8B(), 1), 4096.0 / 4352.0, 1e-12);
  ModelSpec m;
  m.layers = 32, m.hidden = 6144, m.heads = 48, m.kv_heads = 8, m.head_dim = 128;
  m.ffn = 24576, m.vocab = 256000, m.mlp = MlpKind::kPlain;
  EXPECT_NEAR(DenseGemmShapeFactor(m, 8), 0.8935, 5e-4);
  // Splitting narrows the GEMMs, so the factor at TP 8 is below the unsplit one.
  EXPECT_LT(DenseGemmShapeFactor(m, 8), DenseGemmShapeFactor(m, 1));
}

}  // namespace
}  // namespace engine
