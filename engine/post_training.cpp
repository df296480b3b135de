#include "post_training.h"

#include <algorithm>
#include <cmath>

#include "efficiency.h"
#include "kv_cache.h"
#include "vision.h"

namespace engine {
namespace {

// [SECTION] the rollout engine's settings, as verl runs vLLM and SGLang
//
// verl's ppo_trainer.yaml (docs "Config Explanation", 2025): actor_rollout_ref.rollout
// max_num_seqs 1024 answers decoded at once at most, max_num_batched_tokens 8192 tokens
// per forward pass (prefill chunks); the engine serves bf16 weights and a bf16 KV cache.
constexpr double kMaxNumSeqs = 1024;
constexpr double kMaxBatchedTokens = 8192;
constexpr double kServingBytes = 2;
// With no capacity to size against, tensor parallel grows until one instance's weights
// take at most this share of the GPU, leaving the rest for the KV cache (verl's examples:
// Qwen2.5-7B at TP 1 and 32B at TP 4 on 80 GB, gpu_memory_utilization 0.4-0.6).
constexpr double kRolloutWeightShare = 0.4;
constexpr double kAssumedGpuBytes = 80e9;

// Each decode step also pays a fixed cost outside the GPU's memory traffic: the engine's
// scheduler, sampling and the launch of the step's CUDA graph, on the CPU. vLLM V1 (2025)
// overlaps most of it with the GPU; 4 ms is the order of its per-step host time at
// rollout batch sizes (an assumption: the validation runs cannot tell it apart from the
// bandwidth share, Calibration::decode_bandwidth_share, which they fit).
constexpr double kDecodeStepOverheadS = 0.004;
// Each tensor-parallel decode step all-reduces twice per layer (Megatron-style
// attention and MLP): small messages paced by latency over NVLink, ~10 µs each (NCCL
// tests' small-message all-reduce latency on 8×H100, 2023).
constexpr double kTpAllReduceLatencyS = 10e-6;
// Prefill runs large GEMMs at about half the bf16 peak (chunked prefill of 8192 tokens).
constexpr double kPrefillGemmShare = 0.5;

double RoleParamsOr(const ModelSpec& role, const ParamCounts& policy, bool active) {
  if (role.layers <= 0) return active ? policy.active : policy.total;
  const ParamCounts c = CountParams(role);
  return active ? c.active : c.total;
}

// A frozen copy held as the policy's weights are laid out: split by tensor and pipeline
// parallelism, and over the data-parallel ranks under ZeRO-3 / FSDP full sharding.
double FrozenCopyBytes(const Scenario& update, double params) {
  const Parallelism& p = update.parallel;
  double bytes = params * kServingBytes / (p.tp * p.pp);
  if (p.zero >= 3) bytes /= std::max(1, p.DataParallel());
  return bytes;
}

int ChosenRolloutTp(const Scenario& s, double weight_bytes, double gpu_memory_bytes, int rollout_gpus) {
  if (s.training.post.rollout_tp > 0) return std::min(s.training.post.rollout_tp, rollout_gpus);
  const double gpu_bytes = gpu_memory_bytes > 0 ? gpu_memory_bytes : kAssumedGpuBytes;
  const int largest = std::max(1, std::min(rollout_gpus, s.parallel.gpus_per_node));
  int tp = 1;
  while (tp * 2 <= largest && rollout_gpus % (tp * 2) == 0 && weight_bytes / tp > kRolloutWeightShare * gpu_bytes) {
    tp *= 2;
  }
  return tp;
}

// Bytes of KV cache one answer at `tokens` holds on one GPU of an instance: heads split
// over tensor parallelism (replicated past kv_heads); MLA's latent is whole on every rank.
double KvBytesPerGpu(const ModelSpec& m, double tokens, int tp) {
  const int split = m.attention == AttentionKind::kMla ? 1 : std::max(1, std::min(tp, m.kv_heads));
  return KvCacheBytes(m, tokens, kServingBytes) / split;
}

// Activations of one prefill chunk and the fp32 sampling logits of a decode batch.
double RolloutReserveBytes(const ModelSpec& m, double batch, int tp) {
  const double ffn = m.IsMoe() ? double(m.moe.moe_ffn) * m.moe.experts_per_token : m.ffn;
  const double chunk = kMaxBatchedTokens * (4.0 * m.hidden + 2.0 * ffn) * kServingBytes;
  return (chunk + batch * m.vocab * 4.0) / tp;
}

RolloutSizing SizeRollout(const Scenario& s, const ParamCounts& params, double gpu_memory_bytes, double free_bytes) {
  const PostTrainingSetup& post = s.training.post;
  RolloutSizing r;
  const int gpus = RolloutGpus(s);
  const double weights_total = params.total * kServingBytes;
  r.tp = ChosenRolloutTp(s, weights_total, gpu_memory_bytes, gpus);
  r.instances = std::max(1, gpus / r.tp);
  r.sequences = std::ceil(SequencesPerStep(post) * post.rollout_oversample / r.instances);
  r.weight_bytes = weights_total / r.tp;
  const double full_len = double(post.prompt_len) + post.response_len;
  const double kv_per_answer = KvBytesPerGpu(s.model, full_len, r.tp);
  const double wanted = std::max(1.0, std::min(r.sequences, kMaxNumSeqs));
  const auto need = [&](double batch) {
    return r.weight_bytes + batch * kv_per_answer + RolloutReserveBytes(s.model, batch, r.tp);
  };
  double room = need(wanted);
  if (post.gpu_memory_utilization > 0 && gpu_memory_bytes > 0) {
    room = post.gpu_memory_utilization * gpu_memory_bytes;
  } else if (gpu_memory_bytes > 0) {
    room = std::min(room, free_bytes);  // "auto": what the step needs, within what training leaves
  }
  // The batch the room holds: the KV cache's share after weights and the reserve (which
  // grows with the batch's logits), at least one answer.
  const double per_answer = kv_per_answer + s.model.vocab * 4.0 / r.tp;
  const double fixed = r.weight_bytes + RolloutReserveBytes(s.model, 0, r.tp);
  r.batch = std::clamp(std::floor((room - fixed) / per_answer), 1.0, wanted);
  r.kv_bytes = r.batch * kv_per_answer;
  r.reserve_bytes = RolloutReserveBytes(s.model, r.batch, r.tp);
  r.bytes = std::max(room, need(r.batch));
  r.waves = std::ceil(r.sequences / r.batch);
  r.utilization = gpu_memory_bytes > 0 ? r.bytes / gpu_memory_bytes : 0;
  return r;
}

// Decode time of one rollout instance (model.md §12.3). Each decode step reads the
// weights once for the whole batch, and each answer's KV cache and GEMM work once per
// token it generates. Continuous batching refills the slots of finished answers, so the
// steps are the earlier waves at the mean length plus the last wave, which runs until its
// longest answer ends with the batch thinning out: the per-step costs (weights,
// tensor-parallel all-reduces, the engine's own) run for those steps, the per-token costs
// for every generated token.
double DecodeSeconds(const Scenario& s, const ParamCounts& params, const GpuSpec& gpu, const RolloutSizing& r,
                     const Calibration& calibration) {
  const ModelSpec& m = s.model;
  const PostTrainingSetup& post = s.training.post;
  // A MoE step reads the experts its batch routes to: all of them once batch × top-k
  // covers the experts, which a rollout batch does.
  double weights_read = params.total;
  if (m.IsMoe()) {
    const double touched = std::min(1.0, r.batch * m.moe.experts_per_token / std::max(1, m.moe.experts));
    weights_read = params.total - params.expert * (1 - touched);
  }
  const double bandwidth = gpu.memory_bandwidth_bytes_per_s * calibration.decode_bandwidth_share;
  const double steps = (r.waves - 1) * post.response_len + post.LongestResponse();
  const double per_step_s = weights_read * kServingBytes / r.tp / bandwidth +
                            (r.tp > 1 ? 2.0 * m.layers * kTpAllReduceLatencyS : 0) + kDecodeStepOverheadS;
  const double tokens = r.sequences * post.response_len;
  const double mean_context = post.prompt_len + post.response_len / 2.0;
  const double kv_s = tokens * KvBytesPerGpu(m, mean_context, r.tp) / bandwidth;
  // GEMMs bound the step instead when the batch is large: 2 FLOPs per active parameter
  // and token, at the prefill's share of the peak.
  const double compute_s = tokens * 2.0 * params.active / (r.tp * gpu.bf16_flops * kPrefillGemmShare);
  return std::max(steps * per_step_s + kv_s, compute_s + steps * kDecodeStepOverheadS);
}

}  // namespace

std::optional<InputError> ResolveRoleModels(Scenario& s, const Catalog& catalog) {
  PostTrainingSetup& post = s.training.post;
  const std::pair<const char*, std::pair<const std::string*, ModelSpec*>> roles[] = {
      {"critic_model", {&post.critic_model_id, &post.critic_model}},
      {"reward_model", {&post.reward_model_id, &post.reward_model}}};
  for (const auto& [field, role] : roles) {
    const auto& [id, spec] = role;
    *spec = ModelSpec{};
    if (id->empty()) continue;
    const ModelPreset* preset = catalog.FindModel(*id);
    if (preset == nullptr) {
      return MakeInputError(field, "input.unknown_preset",
                            {TextArg("id", QuotedInput(*id)), CountArg("presets", static_cast<long long>(catalog.models.size()))});
    }
    *spec = preset->spec;
  }
  return std::nullopt;
}

int GroupSize(const PostTrainingSetup& post) {
  if (post.group_size > 0) return post.group_size;
  return post.kind == PostTraining::kGrpo ? 8 : 1;
}

double SequencesPerStep(const PostTrainingSetup& post) {
  return double(post.prompts_per_step) * GroupSize(post) * (TrainsOnPairs(post.kind) ? 2 : 1);
}

int RolloutGpus(const Scenario& s) {
  const PostTrainingSetup& post = s.training.post;
  if (!Generates(post.kind)) return 0;
  if (post.placement == Placement::kColocated) return s.parallel.gpus;
  if (post.rollout_gpus > 0) return post.rollout_gpus;
  return std::max(1, s.parallel.gpus / 2);
}

int TrainingGpus(const Scenario& s) {
  const PostTrainingSetup& post = s.training.post;
  if (!Generates(post.kind) || post.placement == Placement::kColocated) return s.parallel.gpus;
  return std::max(1, s.parallel.gpus - RolloutGpus(s));
}

bool RunsReferenceForward(const Scenario& s) {
  const PostTraining k = s.training.post.kind;
  const bool uses = k == PostTraining::kDpo || k == PostTraining::kKto || Generates(k);
  return uses && s.training.post.reference == ReferenceKind::kModel;
}

bool HoldsReferenceModel(const Scenario& s) { return RunsReferenceForward(s) && !TrainsAdapters(s.training.method); }

bool HoldsRewardModel(const Scenario& s) {
  return Generates(s.training.post.kind) && s.training.post.reward == RewardKind::kModel;
}

const ModelSpec& CriticModel(const Scenario& s) {
  const ModelSpec& critic = s.training.post.critic_model;
  return critic.layers > 0 ? critic : s.model;
}

Scenario UpdateScenario(const Scenario& s) {
  return s.training.post.kind != PostTraining::kNone ? PolicyUpdateScenario(s) : s;
}

Scenario TrainedScenario(const Scenario& s) { return LanguageModelScenario(UpdateScenario(s)); }

Scenario PolicyUpdateScenario(const Scenario& s) {
  Scenario u = s;
  const PostTrainingSetup& post = s.training.post;
  u.training.post = PostTrainingSetup{};
  u.training.seq_len = post.prompt_len + post.response_len;
  if (TrainsOnPairs(post.kind)) u.training.micro_batch *= 2;
  u.training.global_batch = static_cast<int>(std::min(SequencesPerStep(post), 1e8));
  u.parallel.gpus = TrainingGpus(s);
  u.parallel.gpus_per_node = std::min(u.parallel.gpus_per_node, u.parallel.gpus);
  return u;
}

PostTrainingMemory EstimatePostTrainingMemory(const Scenario& s, const ParamCounts& params,
                                              const MemoryBreakdown& policy, double gpu_memory_bytes,
                                              const Calibration& calibration) {
  const PostTrainingSetup& post = s.training.post;
  const Scenario update = PolicyUpdateScenario(s);
  PostTrainingMemory out;
  const double policy_transient = policy.gradients.bytes + policy.activations.bytes + policy.logits.bytes;
  const double policy_resident = policy.GpuBytes() - policy_transient;
  out.roles.push_back({"policy", policy.GpuBytes(), true, RolePool::kTraining});

  double resident = 0;  // other roles' states kept through the step
  double transient = 0;  // the largest phase peak beside the policy's own update
  if (RunsReferenceForward(s)) {
    const double bytes = HoldsReferenceModel(s) ? FrozenCopyBytes(update, params.total) : 0;
    resident += bytes;
    out.roles.push_back({"reference", bytes, false, RolePool::kTraining});
  }
  if (post.kind == PostTraining::kPpo) {
    Scenario critic = update;
    critic.model = CriticModel(s);
    const MemoryBreakdown c = EstimateMemory(critic, CountParams(critic.model), /*explain=*/false, calibration);
    // A value head in place of the LM head: no logits.
    const double critic_transient = c.gradients.bytes + c.activations.bytes;
    resident += c.weights.bytes + c.optimizer.bytes;
    transient = std::max(transient, critic_transient);
    out.roles.push_back({"critic", c.weights.bytes + c.optimizer.bytes + critic_transient, true, RolePool::kTraining});
  }
  if (HoldsRewardModel(s)) {
    const double bytes = FrozenCopyBytes(update, RoleParamsOr(post.reward_model, params, false));
    resident += bytes;
    out.roles.push_back({"reward", bytes, false, RolePool::kTraining});
  }
  const bool colocated = post.placement == Placement::kColocated;
  const double training_base = policy_resident + resident;
  const double context = policy.OutsideAllocatorBytes();  // the CUDA context and NCCL buffers
  double generating_bytes = 0;  // a shared GPU's peak while the engine generates, when training states leave
  if (Generates(post.kind)) {
    const bool states_leave = colocated && post.offload_while_generating;
    const double free_bytes = colocated && !states_leave ? gpu_memory_bytes - training_base : gpu_memory_bytes - context;
    out.rollout = SizeRollout(s, params, gpu_memory_bytes, free_bytes);
    out.roles.push_back({"rollout", out.rollout.bytes, false, colocated ? RolePool::kShared : RolePool::kRollout});
    if (colocated) {
      // While training runs, the sleeping engine keeps its weights in host memory (vLLM
      // sleep level 1, which verl, OpenRLHF and NeMo RL use when co-located); while it
      // generates, the training states wait there instead, or stay beside it.
      out.added_cpu_bytes = out.rollout.weight_bytes;
      if (states_leave) {
        out.added_cpu_bytes += training_base - context;
        generating_bytes = context + out.rollout.bytes;
      } else {
        transient = std::max(transient, out.rollout.bytes);
      }
    } else {
      out.rollout_gpu_bytes = out.rollout.bytes + context;
    }
  }
  if (colocated) {
    for (RoleMemory& r : out.roles) r.pool = RolePool::kShared;
  }
  out.offloaded_state_bytes = generating_bytes > 0 ? training_base - context : 0;
  out.training_gpu_bytes = std::max(training_base + std::max(policy_transient, transient), generating_bytes);
  out.added_bytes = out.training_gpu_bytes - policy.GpuBytes() + std::max(0.0, out.rollout_gpu_bytes - out.training_gpu_bytes);
  return out;
}

PostTrainingStep EstimatePostTrainingStep(const Scenario& s, const ParamCounts& params, const GpuSpec& gpu,
                                          const FabricSpec& fabric, const PostTrainingMemory& memory,
                                          double update_step_s, double update_model_flops_per_s,
                                          double critic_update_step_s, const Calibration& calibration) {
  const PostTrainingSetup& post = s.training.post;
  PostTrainingStep t;
  t.prompts = post.prompts_per_step;
  t.sequences = SequencesPerStep(post);
  const double tokens = t.sequences * (double(post.prompt_len) + post.response_len);
  const int passes = Generates(post.kind) ? post.ppo_epochs : 1;
  t.policy_update_s = passes * update_step_s;
  t.critic_update_s = post.kind == PostTraining::kPpo ? passes * critic_update_step_s : 0;
  // Forward passes run at the update's model-FLOP rate: a forward is a third of a
  // forward + backward (2 of the 6 FLOPs per parameter and token).
  double forward_params = 0;
  if (RunsReferenceForward(s)) forward_params += params.active;
  if (Generates(post.kind)) forward_params += params.active;  // old log-probs (verl, OpenRLHF)
  if (HoldsRewardModel(s)) forward_params += RoleParamsOr(post.reward_model, params, true);
  if (post.kind == PostTraining::kPpo) forward_params += RoleParamsOr(post.critic_model, params, true);
  if (update_model_flops_per_s > 0) t.forward_s = 2.0 * forward_params * tokens / update_model_flops_per_s;
  if (Generates(post.kind)) {
    const RolloutSizing& r = memory.rollout;
    t.generated_tokens = t.sequences * post.rollout_oversample * post.response_len;
    const double decode_s = DecodeSeconds(s, params, gpu, r, calibration);
    // A prompt is prefilled once for its whole group (vLLM's n samples share it).
    const double prompt_tokens =
        std::ceil(double(post.prompts_per_step) * post.rollout_oversample / r.instances) * post.prompt_len;
    t.prefill_s = 2.0 * params.active * prompt_tokens / (r.tp * gpu.bf16_flops * kPrefillGemmShare);
    t.generation_s = decode_s + t.prefill_s;
    // New weights into the engine: co-located, the engine wakes (its weights back over
    // PCIe) and takes the resharded weights over the scale-up link; on its own GPUs, the
    // weights are broadcast over the network.
    if (post.placement == Placement::kColocated) {
      // Training states that leave for generation go to host memory and come back.
      t.weight_sync_s = (r.weight_bytes + 2 * memory.offloaded_state_bytes) / gpu.pcie_bytes_per_s +
                        r.weight_bytes / std::max(1.0, gpu.scale_up_bytes_per_s / 2);
    } else {
      const double node_bytes =
          s.parallel.node_gbps > 0 ? s.parallel.node_gbps * 1e9 / 8 : fabric.default_node_bytes_per_s;
      t.weight_sync_s = params.total * kServingBytes / std::max(1.0, node_bytes);
    }
  }
  t.total_s = t.generation_s + t.forward_s + t.policy_update_s + t.critic_update_s + t.weight_sync_s;
  return t;
}

}  // namespace engine
