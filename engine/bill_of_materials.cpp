#include "bill_of_materials.h"

#include <algorithm>
#include <cmath>

#include "format.h"
#include "units.h"

namespace engine {
namespace {

// Data loading and tokenization: 8 cores per GPU keep dataloader workers, the training
// process and NCCL proxy threads fed (DGX H100: 112 cores for 8 GPUs = 14 per GPU; DGX
// A100: 128 for 8). CPU optimizer offload runs DeepSpeed's CPU Adam, which wants ~8 more
// cores per GPU [A].
constexpr int kCoresPerGpu = 8;
constexpr int kOffloadCoresPerGpu = 8;
// Node power: an 8-GPU HGX server draws ≈ 1.8× its GPUs' TDP (DGX H100: 10.2 kW for
// 8 × 700 W; DGX A100: 6.5 kW for 8 × 400 W, NVIDIA datasheets).
constexpr double kNodePowerPerGpuWatt = 1.8;
// Host RAM: pinned staging buffers and dataloader prefetch ≈ 32 GiB per GPU, plus 64 GiB
// for the OS and tooling [A]; asynchronous checkpointing stages the node's shard of a
// checkpoint in host memory (torch.distributed.checkpoint async_save).
constexpr double kRamPerGpuBytes = 32 * kGiB;
constexpr double kRamPerNodeBytes = 64 * kGiB;
// Checkpoints kept on local NVMe before upload / rotation [A].
constexpr int kCheckpointsKept = 3;

BomLine Line(std::string item, double quantity, std::string unit, std::string why) {
  return {std::move(item), quantity, std::move(unit), std::move(why)};
}

}  // namespace

BillOfMaterials BuildBillOfMaterials(const Scenario& s, const GpuSpec& gpu, const FabricSpec& fabric,
                                     const MemoryBreakdown& memory, const Reliability& rel) {
  const Parallelism& p = s.parallel;
  const int per_node = std::min(p.gpus, p.gpus_per_node);
  BillOfMaterials b;
  b.nodes = p.Nodes();
  b.lines.push_back(Line("GPU nodes", b.nodes, b.nodes == 1 ? "node" : "nodes",
                         Num(p.gpus) + " × " + gpu.name + " at " + Num(per_node) + " per node"));
  const int cores = per_node * (kCoresPerGpu + (p.offload != Offload::kNone ? kOffloadCoresPerGpu : 0));
  b.lines.push_back(Line("CPU cores per node", cores, "cores",
                         Num(kCoresPerGpu) + " per GPU for data loading and tokenization" +
                             (p.offload != Offload::kNone ? ", + 8 per GPU for the CPU optimizer (offload)" : "")));
  const double staging = rel.checkpoint_bytes / b.nodes;
  b.ram_needed_bytes = kRamPerNodeBytes + per_node * (kRamPerGpuBytes + memory.cpu_ram.bytes) + staging;
  b.ram_rule_of_thumb_bytes = 2.0 * per_node * gpu.memory_bytes;
  std::string ram_why = "64 GiB OS + 32 GiB pinned/dataloader per GPU + ";
  if (memory.cpu_ram.bytes > 0) ram_why += GiBText(memory.cpu_ram.bytes * per_node) + " offloaded state + ";
  ram_why += GiBText(staging) + " checkpoint staging; the rule of thumb \"2× GPU memory\" says " +
             GiBText(b.ram_rule_of_thumb_bytes);
  b.lines.push_back(Line("Host RAM per node", b.ram_needed_bytes / kGiB, "GiB", ram_why));
  const double dataset_bytes = TrainingTokens(s.training) / std::max(1.0, s.training.epochs) *
                               TokenBytes(s.model);
  const double nvme = dataset_bytes + kCheckpointsKept * rel.checkpoint_bytes / b.nodes;
  b.lines.push_back(Line("Local NVMe per node", nvme / 1e12, "TB",
                         "tokenized dataset " + Num(dataset_bytes / 1e12) + " TB (" + Num(TokenBytes(s.model)) +
                             " B/token) + " + Num(kCheckpointsKept) + " checkpoint shards"));
  if (b.nodes > 1) {
    b.lines.push_back(Line("Shared parallel file system", (dataset_bytes + kCheckpointsKept * rel.checkpoint_bytes) / 1e12,
                           "TB", "multi-node: one copy of the data and " + Num(kCheckpointsKept) +
                                     " full checkpoints of " + Num(rel.checkpoint_bytes / 1e12) + " TB; write in " +
                                     Num(rel.checkpoint_write_s) + " s"));
    const double node_gbps = p.node_gbps > 0 ? p.node_gbps : fabric.default_node_bytes_per_s * 8 / 1e9;
    b.lines.push_back(Line("Scale-out network", node_gbps, "Gbit/s per node",
                           fabric.name + ": " + Num(per_node) + " NICs (one per GPU, rail-optimized) for data- "
                           "and pipeline-parallel traffic"));
  }
  b.node_power_w = per_node * gpu.tdp_w * kNodePowerPerGpuWatt;
  b.total_power_w = b.node_power_w * b.nodes;
  if (gpu.tdp_w <= 0) {
    b.lines.push_back(Line("Power", 0, "kW", gpu.name + ": the vendor publishes no chip power; ask for the "
                                             "system's rated power"));
    return b;
  }
  b.lines.push_back(Line("Power", b.total_power_w / 1000, "kW",
                         Num(b.nodes) + (b.nodes == 1 ? " node × " : " nodes × ") + Num(b.node_power_w / 1000) + " kW (1.8× GPU TDP, as DGX "
                         "A100/H100 datasheets)"));
  return b;
}

}  // namespace engine
