#include "efficiency.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace engine {
namespace {

// What each generation's calibrated efficiencies rest on (messages_explain.cpp:
// "efficiency.basis.<architecture>"); the values are in calibration.cpp.
constexpr struct {
  GpuArchitecture architecture;
  const char* basis_id;
} kBasis[] = {
    {GpuArchitecture::kVolta, "efficiency.basis.volta"},       {GpuArchitecture::kTuring, "efficiency.basis.turing"},
    {GpuArchitecture::kAmpere, "efficiency.basis.ampere"},     {GpuArchitecture::kAda, "efficiency.basis.ada"},
    {GpuArchitecture::kHopper, "efficiency.basis.hopper"},     {GpuArchitecture::kBlackwell, "efficiency.basis.blackwell"},
    {GpuArchitecture::kBlackwellUltra, "efficiency.basis.blackwell-ultra"},
    {GpuArchitecture::kCdna2, "efficiency.basis.cdna2"},       {GpuArchitecture::kCdna3, "efficiency.basis.cdna3"},
    {GpuArchitecture::kDavinci, "efficiency.basis.davinci"},   {GpuArchitecture::kGaudi, "efficiency.basis.gaudi"},
    {GpuArchitecture::kTpu, "efficiency.basis.tpu"},
};

// See BaseEfficiency.
constexpr double kCudnnAttentionOnHopper = 1.5;

}  // namespace

double PeakFlops(const GpuSpec& gpu, Precision p) {
  switch (p) {
    // Mixed-precision training accumulates fp16 GEMMs in fp32 (cuBLAS under PyTorch
    // autocast), so its peak is the FP32-accumulate 16-bit rate the catalog's bf16 field
    // holds. GeForce cards list a doubled FP16-accumulate rate (fp16_flops: RTX 4090 330.3
    // vs 165.2 TFLOPS, NVIDIA Ada whitepaper appendix, 2022) that training never runs at.
    case Precision::kFp16: return gpu.bf16_flops;
    case Precision::kFp32: return gpu.tf32_flops > 0 ? gpu.tf32_flops : gpu.bf16_flops / 2;
    case Precision::kFp8:
    case Precision::kMxfp8: return gpu.fp8_flops > 0 ? gpu.fp8_flops : gpu.bf16_flops;
    case Precision::kNvfp4: return gpu.fp4_flops > 0 ? gpu.fp4_flops : gpu.bf16_flops;
    case Precision::kBf16:
    case Precision::kBf16Pure: return gpu.bf16_flops;
  }
  return gpu.bf16_flops;
}

Efficiency BaseEfficiency(const GpuSpec& gpu, const Training& t, const Calibration& calibration) {
  // The basis texts are rendered once: the planner asks for the efficiency of every layout.
  static const Message kUnknownBasis = MakeMessage("efficiency.basis.unknown");
  static const std::vector<Message> kBases = [] {
    std::vector<Message> v;
    for (const auto& b : kBasis) v.push_back(MakeMessage(b.basis_id));
    return v;
  }();
  Efficiency e{calibration.Gemm(gpu.architecture), calibration.Attention(gpu.architecture), 0.80, kUnknownBasis};
  // The attention priors are flash-attn's (FlashAttention-2). On Hopper cuDNN's fused
  // attention runs training shapes' forward + backward 1.38-1.60x as fast (Transformer
  // Engine docs, examples/attention/attention.ipynb, H100 benchmark: causal 2048 1.597x,
  // GQA causal 8192 1.588x; "20-50% advantages on Hopper"); elsewhere no published
  // difference the engine relies on (on Ampere flash-attn is the faster one, and TE picks it).
  if (t.attention_backend == AttentionBackend::kCudnn && gpu.architecture == GpuArchitecture::kHopper) {
    e.attention *= kCudnnAttentionOnHopper;
  }
  for (size_t i = 0; i < std::size(kBasis); ++i) {
    if (gpu.architecture == kBasis[i].architecture) e.basis = kBases[i];
  }
  // A figure the user measured on their own cluster replaces the calibrated one.
  if (gpu.gemm_efficiency > 0 || gpu.attention_efficiency > 0 || gpu.memory_efficiency > 0) {
    if (gpu.gemm_efficiency > 0) e.gemm = gpu.gemm_efficiency;
    if (gpu.attention_efficiency > 0) e.attention = gpu.attention_efficiency;
    if (gpu.memory_efficiency > 0) e.memory = gpu.memory_efficiency;
    e.basis = MakeMessage("efficiency.basis.user",
                          {TextArg("gpu", gpu.name), TextArg("architecture", std::string(EnumName(kArchitectureNames, gpu.architecture)))});
  }
  e.gemm_bf16 = e.gemm;
  // FP8 GEMMs reach a lower share of their doubled peak, and the casts cost memory
  // traffic (calibration.cpp).
  if (t.precision == Precision::kFp8) e.gemm *= calibration.fp8_gemm_factor;
  if (t.precision == Precision::kMxfp8) e.gemm *= calibration.mxfp8_gemm_factor;
  if (t.precision == Precision::kNvfp4) e.gemm *= calibration.nvfp4_gemm_factor;
  // Without FlashAttention QKᵀ and ·V run as batched GEMMs over head_dim (memory-bound);
  // the softmax and dropout between them are time_model.cpp's score traffic.
  if (!t.flash_attention) e.attention = std::min(e.attention, 0.20);
  return e;
}

double GemmSizeFactor(double per_rank_width) { return per_rank_width / (per_rank_width + 256.0); }

// The shape factor of a layer's weight GEMMs on one tensor-parallel rank: each GEMM gets
// GemmSizeFactor of its narrower side, weighted by its FLOPs (time adds as FLOPs / rate).
// Tensor parallelism narrows one side of each: the fused QKV output (q + 2·kv)/t, the
// output projection's input q/t, the MLP's f/t (Megatron ColumnParallel/RowParallel
// linears), and the vocabulary of the LM head V/t. A 15B model at TP 8 (h 6144, f 24576)
// keeps 3,072-wide MLP GEMMs, which are two thirds of its FLOPs.
double DenseGemmShapeFactor(const ModelSpec& m, int tp) {
  const double h = m.hidden, q = m.QueryWidth(), kv = m.KvWidth();
  const int moe_layers = m.MoeLayers();
  // The dense MLP width averaged over the layers: shared experts on MoE layers.
  const double mlp_f = (double(m.layers - moe_layers) * m.ffn + moe_layers * m.moe.SharedWidth()) / std::max(1, m.layers);
  const double mlp_matrices = m.mlp == MlpKind::kGated ? 3 : 2;
  const struct {
    double flops, narrow;
  } gemms[] = {
      {h * (q + 2 * kv), std::min(h, (q + 2 * kv) / tp)},
      {q * h, std::min(q / tp, h)},
      {mlp_matrices * h * mlp_f, std::min(h, mlp_f / tp)},
      {h * double(m.vocab) / std::max(1, m.layers), std::min(h, double(m.vocab) / tp)},
  };
  double flops = 0, time = 0;
  for (const auto& g : gemms) {
    if (g.flops <= 0 || g.narrow <= 0) continue;
    flops += g.flops;
    time += g.flops / GemmSizeFactor(g.narrow);
  }
  return time > 0 ? flops / time : GemmSizeFactor(h / tp);
}

}  // namespace engine
