// Blackwell's block-scaled formats (issue 16), checked against hand-derived values:
// the bytes each GEMM weight carries, the peak each format runs at, and where they are
// refused.
#include <gtest/gtest.h>

#include "engine/efficiency.h"
#include "engine/memory_model.h"
#include "engine/scenario_check.h"
#include "engine/units.h"
#include "test_models.h"

namespace engine {
namespace {

GpuSpec Blackwell() {
  GpuSpec g;
  g.id = "b200";
  g.name = "B200";
  g.architecture = GpuArchitecture::kBlackwell;
  g.bf16_flops = 2250e12;  // NVIDIA HGX B200 table: 4.5 PF BF16 sparse, 9 PF FP8, 18 PF FP4
  g.fp8_flops = 4500e12;
  g.fp4_flops = 9000e12;
  return g;
}

// One GPU, full fine-tune, so every parameter is trainable and unsharded: weights hold
// the bf16 copy plus two quantized orientations with their scales.
double WeightBytesPerParam(Precision p) {
  Scenario s;
  s.model = testing::Llama3_8B();
  s.training.method = Method::kFull;
  s.training.precision = p;
  const ParamCounts c = CountParams(s.model);
  return EstimateMemory(s, c).weights.bytes / c.total;
}

TEST(BlockScaled, WeightsCarryBothQuantizedOrientations) {
  // MXFP8: 2 + 2 × (1 + 1/32) = 4.0625 B; NVFP4: 2 + 2 × (0.5 + 1/16) = 3.125 B.
  EXPECT_NEAR(WeightBytesPerParam(Precision::kMxfp8), 4.0625, 1e-9);
  EXPECT_NEAR(WeightBytesPerParam(Precision::kNvfp4), 3.125, 1e-9);
  EXPECT_NEAR(WeightBytesPerParam(Precision::kFp8), 3.0, 1e-9);  // TE per-tensor: one FP8 copy
}

TEST(BlockScaled, PeaksAreTheFormatsOwn) {
  const GpuSpec g = Blackwell();
  EXPECT_DOUBLE_EQ(PeakFlops(g, Precision::kMxfp8), 4500e12);
  EXPECT_DOUBLE_EQ(PeakFlops(g, Precision::kNvfp4), 9000e12);
}

TEST(BlockScaled, RefusedOnGpusWithoutBlockScaledTensorCores) {
  GpuSpec hopper = Blackwell();
  hopper.fp4_flops = 0;  // H100: FP8 but no MX/NVFP4
  EXPECT_TRUE(Blackwell().SupportsBlockScaled());
  EXPECT_FALSE(hopper.SupportsBlockScaled());
}

}  // namespace
}  // namespace engine
