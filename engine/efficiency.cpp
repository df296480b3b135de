#include "efficiency.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace engine {
namespace {

struct ArchDefaults {
  GpuArchitecture architecture;
  double gemm, attention;
  const char* basis_id;  // its template (messages_explain.cpp): "efficiency.basis.<architecture>"
};

// Large-GEMM and FlashAttention efficiencies per generation [A, calibrated]:
// - ampere: cuBLAS bf16 GEMMs reach ~80-85% of A100's 312 TFLOPS; FlashAttention-2
//   reaches 50-73% of peak forward, less backward (Dao 2023); llm-foundry MPT-7B 64% MFU.
// - hopper: training-shaped GEMMs reach ~65-70% of H100's 989 TFLOPS (the chip throttles
//   under sustained tensor load); FlashAttention-2 ~35% (FA3 paper, Shah et al. 2024);
//   end to end Llama 3 405B 43% MFU, llm-foundry MPT-7B 46% on 8 GPUs.
// - ada/volta/turing: consumer and older parts run near their (FP32-accumulate) rate.
// - cdna2/cdna3: hipBLASLt reaches ~55-60% of MI250X/MI300X peak in public benchmarks.
// - others: conservative defaults until measured runs exist.
constexpr ArchDefaults kArch[] = {
    {GpuArchitecture::kVolta, 0.80, 0.30, "efficiency.basis.volta"},
    {GpuArchitecture::kTuring, 0.65, 0.30, "efficiency.basis.turing"},
    {GpuArchitecture::kAmpere, 0.80, 0.50, "efficiency.basis.ampere"},
    {GpuArchitecture::kAda, 0.85, 0.45, "efficiency.basis.ada"},
    {GpuArchitecture::kHopper, 0.66, 0.35, "efficiency.basis.hopper"},
    {GpuArchitecture::kBlackwell, 0.70, 0.45, "efficiency.basis.blackwell"},
    {GpuArchitecture::kCdna2, 0.60, 0.35, "efficiency.basis.cdna2"},
    {GpuArchitecture::kCdna3, 0.55, 0.35, "efficiency.basis.cdna3"},
    {GpuArchitecture::kDavinci, 0.60, 0.35, "efficiency.basis.davinci"},
    {GpuArchitecture::kGaudi, 0.70, 0.40, "efficiency.basis.gaudi"},
    {GpuArchitecture::kTpu, 0.75, 0.50, "efficiency.basis.tpu"},
};

}  // namespace

double PeakFlops(const GpuSpec& gpu, Precision p) {
  switch (p) {
    // Mixed-precision training accumulates fp16 GEMMs in fp32 (cuBLAS under PyTorch
    // autocast), so its peak is the FP32-accumulate 16-bit rate the catalog's bf16 field
    // holds. GeForce cards list a doubled FP16-accumulate rate (fp16_flops: RTX 4090 330.3
    // vs 165.2 TFLOPS, NVIDIA Ada whitepaper appendix, 2022) that training never runs at.
    case Precision::kFp16: return gpu.bf16_flops;
    case Precision::kFp32: return gpu.tf32_flops > 0 ? gpu.tf32_flops : gpu.bf16_flops / 2;
    case Precision::kFp8: return gpu.fp8_flops > 0 ? gpu.fp8_flops : gpu.bf16_flops;
    case Precision::kBf16:
    case Precision::kBf16Pure: return gpu.bf16_flops;
  }
  return gpu.bf16_flops;
}

Efficiency BaseEfficiency(const GpuSpec& gpu, const Training& t) {
  // The basis texts are rendered once: the planner asks for the efficiency of every layout.
  static const Message kUnknownBasis = MakeMessage("efficiency.basis.unknown");
  static const std::vector<Message> kBases = [] {
    std::vector<Message> v;
    for (const ArchDefaults& a : kArch) v.push_back(MakeMessage(a.basis_id));
    return v;
  }();
  Efficiency e{0.60, 0.35, 0.80, kUnknownBasis};
  for (size_t i = 0; i < std::size(kArch); ++i) {
    if (gpu.architecture == kArch[i].architecture) e = {kArch[i].gemm, kArch[i].attention, 0.80, kBases[i]};
  }
  // A figure the user measured on their own cluster replaces the calibrated one.
  if (gpu.gemm_efficiency > 0 || gpu.attention_efficiency > 0 || gpu.memory_efficiency > 0) {
    if (gpu.gemm_efficiency > 0) e.gemm = gpu.gemm_efficiency;
    if (gpu.attention_efficiency > 0) e.attention = gpu.attention_efficiency;
    if (gpu.memory_efficiency > 0) e.memory = gpu.memory_efficiency;
    e.basis = MakeMessage("efficiency.basis.user",
                          {TextArg("gpu", gpu.name), TextArg("architecture", std::string(EnumName(kArchitectureNames, gpu.architecture)))});
  }
  // FP8 GEMMs reach a lower share of their doubled peak, and the casts cost memory
  // traffic: torchtitan measured 1.28× end-to-end over bf16 on Llama 3.1 8B (8,532 vs
  // 6,667 tok/s/GPU), Transformer Engine reports 1.3-1.5×.
  if (t.precision == Precision::kFp8) e.gemm *= 0.73;
  if (!t.flash_attention) e.attention = std::min(e.attention, 0.20);  // s² scores through HBM
  return e;
}

double GemmSizeFactor(double per_rank_width) { return per_rank_width / (per_rank_width + 256.0); }

}  // namespace engine
