// Checkpoints and failures: checkpoint size by recipe, its write time, the optimal
// checkpoint interval (Young 1974 / Daly 2006), expected interruptions from published
// failure rates, and the goodput (effective training time ratio) they leave.
#pragma once

#include "catalog.h"
#include "memory_model.h"
#include "scenario.h"
#include "time_model.h"

namespace engine {

struct Reliability {
  double checkpoint_bytes = 0;      // resumable: weights + fp32 master + optimizer state
  double export_bytes = 0;          // weights only, in bf16 (what gets published)
  double checkpoint_write_s = 0;    // blocking write at the storage's bandwidth
  double job_mtbf_hours = 0;        // mean time between interruptions of the whole job
  double interval_hours = 0;        // optimal checkpoint interval (Daly)
  double expected_interruptions = 0;
  double ettr = 1;                  // effective training time ratio (goodput share)
  double wall_hours_with_failures = 0;
};

// Storage the checkpoints are written to.
struct StorageSpec {
  double write_bytes_per_s_per_node = 0;
  double aggregate_write_bytes_per_s = 0;  // cap for the whole job (0 = no cap)
};

// Llama 3 (Grattafiori et al. 2024 §3.3.4, Table 5): 419 unexpected interruptions in 54
// days on 16,384 H100s → 419 / (16,384 × 1,296 h) = 1.97e-5 per GPU-hour.
inline constexpr double kFailuresPerGpuHour = 419.0 / (16384.0 * 1296.0);

// Bytes of a resumable checkpoint: weights + fp32 master + optimizer state (LoRA: the
// adapters and their state only).
double CheckpointBytes(const Scenario& scenario, const ParamCounts& params);

// Bytes of the weights alone in bf16: the exported model, or the base a fine-tune loads.
inline double ExportBytes(const ParamCounts& params) { return params.total * 2; }

// How fast checkpoints reach a catalog storage tier from `nodes` nodes of
// `gpus_per_node` GPUs, given what its write figure is per (its scope).
StorageSpec StorageFor(const StorageTier& tier, int nodes, int gpus_per_node, double checkpoint_bytes);

// Without a named tier: a single node writes to local NVMe, several to a parallel file system.
StorageSpec DefaultStorage(int nodes);

Reliability EstimateReliability(const Scenario& scenario, const ParamCounts& params, const TrainingTime& time,
                                const StorageSpec& storage);

}  // namespace engine
