#include "bill_of_materials.h"

#include <algorithm>
#include <cmath>

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

// Line `name` (its templates bom.<name>.item and bom.<name>.why, or bom.<name>.why.<variant>)
// of `quantity` in `unit` (template unit.<unit>).
BomLine Line(const std::string& name, double quantity, const std::string& unit, std::vector<MessageArg> why_args,
             const std::string& why_variant = "") {
  return {MakeMessage("bom." + name + ".item"), quantity, MakeMessage("unit." + unit),
          MakeMessage("bom." + name + ".why" + (why_variant.empty() ? "" : "." + why_variant), std::move(why_args))};
}

}  // namespace

BillOfMaterials BuildBillOfMaterials(const Scenario& s, const GpuSpec& gpu, const FabricSpec& fabric,
                                     const MemoryBreakdown& memory, const Reliability& rel) {
  const Parallelism& p = s.parallel;
  const int per_node = std::min(p.gpus, p.gpus_per_node);
  BillOfMaterials b;
  b.nodes = p.Nodes();
  b.lines.push_back(Line("gpu_nodes", b.nodes, b.nodes == 1 ? "node" : "nodes",
                         {NumberArg("gpus", p.gpus), TextArg("gpu", gpu.name), NumberArg("per_node", per_node)}));
  const int cores = per_node * (kCoresPerGpu + (p.offload != Offload::kNone ? kOffloadCoresPerGpu : 0));
  std::vector<MessageArg> cores_why = {NumberArg("cores_per_gpu", kCoresPerGpu)};
  if (p.offload != Offload::kNone) cores_why.push_back(NumberArg("offload_cores_per_gpu", kOffloadCoresPerGpu));
  b.lines.push_back(Line("cpu_cores", cores, "cores", cores_why, p.offload != Offload::kNone ? "offload" : ""));
  const double staging = rel.checkpoint_bytes / b.nodes;
  b.ram_needed_bytes = kRamPerNodeBytes + per_node * (kRamPerGpuBytes + memory.cpu_ram.bytes) + staging;
  b.ram_rule_of_thumb_bytes = 2.0 * per_node * gpu.memory_bytes;
  std::vector<MessageArg> ram_why = {BytesArg("staging_bytes", staging),
                                     BytesArg("rule_of_thumb_bytes", b.ram_rule_of_thumb_bytes)};
  if (memory.cpu_ram.bytes > 0) ram_why.push_back(BytesArg("offloaded_bytes", memory.cpu_ram.bytes * per_node));
  b.lines.push_back(Line("host_ram", b.ram_needed_bytes / kGiB, "gib", ram_why, memory.cpu_ram.bytes > 0 ? "offload" : ""));
  const double dataset_bytes = TrainingTokens(s.training) / std::max(1.0, s.training.epochs) *
                               TokenBytes(s.model);
  const double nvme = dataset_bytes + kCheckpointsKept * rel.checkpoint_bytes / b.nodes;
  b.lines.push_back(Line("local_nvme", nvme / 1e12, "tb",
                         {NumberArg("dataset_tb", dataset_bytes / 1e12), NumberArg("bytes_per_token", TokenBytes(s.model)),
                          NumberArg("checkpoints", kCheckpointsKept)}));
  if (b.nodes > 1) {
    b.lines.push_back(Line("shared_storage", (dataset_bytes + kCheckpointsKept * rel.checkpoint_bytes) / 1e12, "tb",
                           {NumberArg("checkpoints", kCheckpointsKept),
                            NumberArg("checkpoint_tb", rel.checkpoint_bytes / 1e12),
                            NumberArg("write_s", rel.checkpoint_write_s)}));
    const double node_gbps = p.node_gbps > 0 ? p.node_gbps : fabric.default_node_bytes_per_s * 8 / 1e9;
    b.lines.push_back(Line("network", node_gbps, "gbit_s_per_node",
                           {LocalTextArg("fabric", fabric.name), NumberArg("nics", per_node)}));
  }
  b.node_power_w = per_node * gpu.tdp_w * kNodePowerPerGpuWatt;
  b.total_power_w = b.node_power_w * b.nodes;
  if (gpu.tdp_w <= 0) {
    b.lines.push_back(Line("power", 0, "kw", {TextArg("gpu", gpu.name)}, "unknown"));
    return b;
  }
  b.lines.push_back(Line("power", b.total_power_w / 1000, "kw",
                         {NumberArg("nodes", b.nodes), NumberArg("node_kw", b.node_power_w / 1000),
                          NumberArg("power_factor", kNodePowerPerGpuWatt)},
                         b.nodes == 1 ? "one_node" : ""));
  return b;
}

}  // namespace engine
