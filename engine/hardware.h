// Accelerator specifications as the engine sees them: capacity, peak rates and links,
// in SI units. Filled from the catalog (catalog/gpus.json) by the codec layer.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "local_text.h"

namespace engine {

enum class SoftwareStack { kCuda, kRocm, kCann, kXla, kOther };

// Chip generation, which sets the achievable-efficiency defaults (efficiency.cpp); kOther
// (a part of none of these) takes conservative defaults.
enum class GpuArchitecture {
  kVolta, kTuring, kAmpere, kAda, kHopper, kBlackwell, kBlackwellUltra, kCdna2, kCdna3, kDavinci, kGaudi, kTpu, kOther
};
// The catalog's names (gpus.json "architecture"), in enum order.
// Blackwell Ultra (B300, GB300) is its own generation: 1.5x GB200's dense FP4 rate, "2X
// attention-layer acceleration" (NVIDIA, "Inside NVIDIA Blackwell Ultra", 2025-08) and more
// power per chip; its runs sustain more of the same BF16 peak (calibration.cpp).
inline constexpr std::array<std::string_view, 13> kArchitectureNames = {
    "volta", "turing", "ampere",  "ada", "hopper", "blackwell", "blackwell-ultra",
    "cdna2", "cdna3",  "davinci", "gaudi", "tpu",   "other"};

struct GpuSpec {
  std::string id;    // stable slug, e.g. "h100-sxm-80gb"
  std::string name;  // display name
  std::string vendor;
  double memory_bytes = 0;          // usable device memory as reported by the driver
  double memory_bandwidth_bytes_per_s = 0;
  double bf16_flops = 0;            // dense BF16 tensor peak (FP32 accumulate), FLOP/s
  double fp16_flops = 0;            // dense FP16 tensor peak
  double fp8_flops = 0;             // dense FP8 peak; 0 = no FP8 support
  double fp4_flops = 0;             // dense FP4 peak; 0 = no block-scaled (MX/NVFP4) tensor cores
  double tf32_flops = 0;            // dense TF32 peak; 0 = none
  double scale_up_bytes_per_s = 0;  // per-GPU scale-up link, bidirectional total
  int scale_up_domain = 8;          // GPUs reachable over that link (2 for bridged pairs, 1 for none)
  double pcie_bytes_per_s = 32e9;   // host PCIe x16, one direction (peers beyond the domain)
  std::string scale_up_link;        // "NVLink 4", "PCIe Gen4 x16", ...
  double tdp_w = 0;
  SoftwareStack stack = SoftwareStack::kCuda;
  GpuArchitecture architecture = GpuArchitecture::kOther;
  // The user's own measured efficiencies for this part (an Assumptions edit or a catalog
  // overlay), of the bf16 dense peak and of HBM bandwidth; 0 = the architecture's default.
  double gemm_efficiency = 0, attention_efficiency = 0, memory_efficiency = 0;
  // US export controls for China (catalog export_control.cn): restricted parts cannot be
  // planned for region "cn".
  bool export_restricted_cn = false;
  LocalText export_note_cn;
  // Why the catalog has no server or offer for this part (catalog unavailable.note), when
  // it is no longer sold or rented: the planner's rejection quotes it.
  LocalText unavailable_note;
  double price_new_usd = 0;   // lowest listed new price; 0 = not known
  double price_used_usd = 0;  // lowest listed used price; 0 = not known
  // What the seed table claimed about this part and what its datasheet says, when the
  // seed was wrong (catalog seed_correction); empty when it was right.
  LocalText seed_claim, seed_datasheet;

  bool SupportsFp8() const { return fp8_flops > 0; }
  // Block-scaled MXFP8/NVFP4 GEMMs come with FP4 tensor cores (Blackwell, CDNA 4).
  bool SupportsBlockScaled() const { return fp4_flops > 0 && fp8_flops > 0; }
  // bfloat16 arithmetic arrived with Ampere (NVIDIA A100 Tensor Core GPU Architecture
  // whitepaper, 2020): Volta (V100 datasheet, 2017: FP64/FP32/FP16 tensor) and Turing (T4
  // datasheet, 2018: FP16/INT8/INT4) have none, and PyTorch/Transformers refuse bf16 there
  // ("bf16 requires Ampere or newer"; transformers is_torch_bf16_gpu_available).
  bool SupportsBf16() const {
    return architecture != GpuArchitecture::kVolta && architecture != GpuArchitecture::kTuring;
  }
  // PCIe-only cards (no NVLink-class link) top out at a PCIe x16 figure.
  bool HasFastScaleUp() const { return scale_up_bytes_per_s > 130e9; }
};

// A network fabric, inside a node (scale-up) or between nodes (scale-out).
struct FabricSpec {
  std::string id;    // "ib-ndr", "roce", "nvlink4", ...
  LocalText name;   // shown on the page, in its language
  bool scale_out = true;
  double port_bytes_per_s = 0;       // line rate per port, one direction
  double latency_s = 0;              // small-message latency per hop (alpha)
  double busbw_fraction = 0;         // achievable NCCL all-reduce bus bandwidth / line rate
  double default_node_bytes_per_s = 0;  // usual per-node bandwidth of an 8-GPU training node
};

}  // namespace engine
