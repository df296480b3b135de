// What post-training adds to an estimate: each role's memory, the rollout engine's
// layout and the step's phases (post_training.h computes them; docs/model.md §12).
#pragma once

#include <string_view>
#include <vector>

namespace engine {

// How the rollout engine is laid out and what it keeps on each of its GPUs.
struct RolloutSizing {
  int tp = 1;                    // tensor parallel of one engine instance
  int instances = 1;             // engine instances over the rollout GPUs
  double sequences = 0;          // answers one instance generates per step
  double batch = 0;              // answers decoded at once (the KV cache's room, max_num_seqs)
  double waves = 0;              // rounds of `batch` to generate `sequences`
  double weight_bytes = 0;       // per GPU, serving precision
  double kv_bytes = 0;           // per GPU, the cache for `batch` answers at full length
  double reserve_bytes = 0;      // per GPU, activations and sampling logits of a decode step
  double bytes = 0;              // per GPU: what the engine holds (its reservation)
  double utilization = 0;        // bytes / the GPU's memory (vLLM gpu_memory_utilization)
};

// One role's memory on each GPU it occupies.
enum class RolePool { kShared, kTraining, kRollout };
struct RoleMemory {
  std::string_view role;  // policy, reference, critic, reward, rollout
  double per_gpu_bytes = 0;
  bool trained = false;
  RolePool pool = RolePool::kShared;
};

// The roles' memory and what they add to the policy's own breakdown (`policy` =
// EstimateMemory of PolicyUpdateScenario): roles beside the policy stay resident through
// the step; the phase peaks (the rollout engine's reservation while generating, the
// policy's or critic's gradients and activations while updating) take turns on shared GPUs.
struct PostTrainingMemory {
  std::vector<RoleMemory> roles;
  RolloutSizing rollout;
  double added_bytes = 0;        // per GPU, beyond the policy's breakdown: the `roles` term
  double added_cpu_bytes = 0;    // per GPU, host RAM (the sleeping engine's weights)
  double training_gpu_bytes = 0;  // per training GPU, all phases
  double offloaded_state_bytes = 0;  // per GPU, training states moved to host memory while generating
  double rollout_gpu_bytes = 0;   // per rollout GPU (separate placement), else 0
};

// A post-training step's time, phase by phase, in seconds.
struct PostTrainingStep {
  double generation_s = 0;      // rollout: prefill + decode
  double prefill_s = 0;         // part of generation_s
  double forward_s = 0;         // reference, reward, critic values and old log-probs
  double policy_update_s = 0;   // ppo_epochs passes of the policy's update
  double critic_update_s = 0;
  double weight_sync_s = 0;     // new weights into the rollout engine
  double total_s = 0;
  double prompts = 0;           // per step
  double sequences = 0;
  double generated_tokens = 0;  // answers' tokens per step
  double GenerationShare() const { return total_s > 0 ? generation_s / total_s : 0; }
  double TrainingS() const { return policy_update_s + critic_update_s; }
};

}  // namespace engine
