#include "reliability.h"

#include <algorithm>
#include <cmath>

#include "units.h"

namespace engine {
namespace {

// Bytes per parameter of a resumable checkpoint (model.md §7.1): the model weights in
// their training dtype + the fp32 master copy + the optimizer moments; bf16 mixed AdamW:
// 2 + 4 + 8 = 14 B. Gradients are not saved. LoRA saves only the adapters and their state.
double CheckpointBytesPerParam(const Training& t) {
  double moments = 8;
  if (t.optimizer == Optimizer::kAdamW8bit) moments = 2;
  if (t.optimizer == Optimizer::kSgd) moments = 4;
  if (t.optimizer == Optimizer::kAdafactor) moments = 0.1;
  switch (t.precision) {
    case Precision::kFp32: return 4 + moments;
    case Precision::kBf16Pure: return 2 + (t.optimizer == Optimizer::kAdamW8bit ? moments : moments / 2);
    default: return 2 + 4 + moments;
  }
}

// Daly (2006), FGCS 22(3): τ = sqrt(2δM)·[1 + (1/3)·sqrt(δ/2M) + (1/9)·(δ/2M)] − δ for
// δ < 2M, else M. First-order Young (1974): sqrt(2δM).
double DalyInterval(double delta_h, double mtbf_h) {
  if (delta_h >= 2 * mtbf_h) return mtbf_h;
  const double x = delta_h / (2 * mtbf_h);
  return std::sqrt(2 * delta_h * mtbf_h) * (1 + std::sqrt(x) / 3 + x / 9) - delta_h;
}

// Data drives per node: DGX A100/H100/H200 carry 8 NVMe data drives in RAID-0 (NVIDIA
// DGX datasheets). A storage NIC per node: 400 Gb/s = 50 GB/s (DGX H100: 2× 400 Gb/s
// for storage) caps what one node can push to shared storage [A]. Object storage
// without a published per-bucket rate: ~1.25 GB/s (10 Gb/s) per node [A].
constexpr int kDataDrivesPerNode = 8;
constexpr double kStorageNicBytesPerS = 50e9;
constexpr double kObjectStoreBytesPerSPerNode = 1.25e9;

}  // namespace

StorageSpec DefaultStorage(int nodes) {
  // Local NVMe RAID (~4 GB/s sustained) on one node; a parallel file system at ~10 GB/s per
  // node, capped at 100 GB/s for a mid-size appliance cluster [A].
  if (nodes <= 1) return {4e9, 0};
  return {10e9, 100e9};
}

StorageSpec StorageFor(const StorageTier& t, int nodes, int gpus_per_node, double checkpoint_bytes) {
  const double write = t.write_gb_per_s * 1e9;
  if (write <= 0) return {kObjectStoreBytesPerSPerNode, 0};
  if (t.scope == "per drive") return {write * kDataDrivesPerNode, 0};
  if (t.scope == "per node" || t.scope == "per client node") return {write, 0};
  if (t.scope == "per GPU") return {write * gpus_per_node, 0};
  if (t.scope == "per TiB provisioned") {
    // Provisioned for three checkpoints (at least the 1.2 TiB minimum FSx size).
    const double tib = std::max(1.2, 3 * checkpoint_bytes / double(1ull << 40));
    return {kStorageNicBytesPerS, write * tib};
  }
  (void)nodes;
  return {kStorageNicBytesPerS, write};  // appliance, SSU or whole-cluster figures: aggregate
}

double CheckpointBytes(const Scenario& s, const ParamCounts& c) {
  const Training& t = s.training;
  const bool adapters = TrainsAdapters(t.method);
  const double saved_params = adapters ? TrainableParams(s.model, c, t) : c.total;
  return saved_params * (adapters ? 12.0 : CheckpointBytesPerParam(t));
}

Reliability EstimateReliability(const Scenario& s, const ParamCounts& c, const TrainingTime& time,
                                const StorageSpec& storage) {
  const Training& t = s.training;
  const Parallelism& p = s.parallel;
  Reliability r;
  r.checkpoint_bytes = CheckpointBytes(s, c);
  r.export_bytes = ExportBytes(c);
  double bandwidth = storage.write_bytes_per_s_per_node * p.Nodes();
  if (storage.aggregate_write_bytes_per_s > 0) bandwidth = std::min(bandwidth, storage.aggregate_write_bytes_per_s);
  r.checkpoint_write_s = bandwidth > 0 ? r.checkpoint_bytes / bandwidth : 0;
  r.job_mtbf_hours = 1.0 / (kFailuresPerGpuHour * p.gpus);
  const double delta_h = r.checkpoint_write_s / kSecondsPerHour;
  r.interval_hours = DalyInterval(std::max(delta_h, 1e-6), r.job_mtbf_hours);
  // Waste (model.md §7.2): checkpoint stalls δ/τ, plus per failure half an interval of
  // lost work and the restart time R.
  const double restart_h = (t.auto_restart ? t.restart_minutes : t.manual_restart_hours * 60) / 60.0;
  const double waste = delta_h / r.interval_hours + (r.interval_hours / 2 + restart_h) / r.job_mtbf_hours;
  r.ettr = std::clamp(1 - waste, 0.05, 1.0);
  r.wall_hours_with_failures = time.wall_hours / r.ettr;
  r.expected_interruptions = r.wall_hours_with_failures * p.gpus * kFailuresPerGpuHour;
  return r;
}

}  // namespace engine
