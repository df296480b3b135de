// What a post-training run is: preference tuning of the DPO family, or reinforcement
// learning with rollouts (PPO, GRPO), and the roles beside the trained policy. Part of
// the scenario (Training::post); post_training.h holds the physics (docs/model.md §12).
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "model_spec.h"

namespace engine {

// kNone: supervised training as the method says. DPO (Rafailov et al. 2023) and KTO
// (Ethayarajh et al. 2024) compare the policy with a frozen reference; ORPO (Hong et al.
// 2024) and SimPO (Meng et al. 2024) need none. PPO (Ouyang et al. 2022) trains a critic
// beside the policy; GRPO (Shao et al. 2024, DeepSeekMath §4) drops the critic and
// compares `group_size` answers to each prompt, as its RLOO, DAPO and Dr. GRPO relatives do.
enum class PostTraining { kNone, kDpo, kOrpo, kSimpo, kKto, kPpo, kGrpo };
inline constexpr std::array<std::string_view, 7> kPostTrainingNames = {"none", "dpo",  "orpo", "simpo",
                                                                       "kto",  "ppo", "grpo"};
// The frozen reference: a model held on the GPUs, none (ORPO, SimPO, DAPO), or log-probs
// computed once before training (TRL precompute_ref_log_probs).
enum class ReferenceKind { kModel, kNone, kPrecomputed };
inline constexpr std::array<std::string_view, 3> kReferenceNames = {"model", "none", "precomputed"};
// The reward: a reward model's forward pass, or a rule / verifier function on the CPU.
enum class RewardKind { kModel, kRule };
inline constexpr std::array<std::string_view, 2> kRewardNames = {"model", "rule"};
// Where the rollout engine (vLLM, SGLang) runs: on the training GPUs, taking turns with
// training (verl's hybrid engine, OpenRLHF --colocate_all_models, TRL vllm_mode="colocate"),
// or on its own GPUs (OpenRLHF's default, TRL vllm_mode="server").
enum class Placement { kColocated, kSeparate };
inline constexpr std::array<std::string_view, 2> kPlacementNames = {"colocated", "separate"};

inline bool Generates(PostTraining p) { return p == PostTraining::kPpo || p == PostTraining::kGrpo; }
inline bool IsPreference(PostTraining p) {
  return p == PostTraining::kDpo || p == PostTraining::kOrpo || p == PostTraining::kSimpo || p == PostTraining::kKto;
}
// DPO, ORPO and SimPO train on pairs: the chosen and the rejected answer go through the
// model together (TRL's concatenated_forward). KTO trains on single labelled answers.
inline bool TrainsOnPairs(PostTraining p) {
  return p == PostTraining::kDpo || p == PostTraining::kOrpo || p == PostTraining::kSimpo;
}

struct PostTrainingSetup {
  PostTraining kind = PostTraining::kNone;
  int prompt_len = 1024;    // tokens of a prompt
  int response_len = 1024;  // tokens of an answer: generated (RL, the mean) or in the data (DPO)
  // RL: the longest answer a rollout lets run (verl data.max_response_length, vLLM
  // max_tokens); the decode steps run until it ends. 0 = response_len (all equal).
  int max_response_len = 0;
  int LongestResponse() const { return std::max(response_len, max_response_len); }
  // Answers sampled per prompt: GRPO's group (TRL num_generations, verl rollout.n); 1 for
  // PPO and the preference methods. 0 = the method's.
  int group_size = 0;
  // Prompts (preference pairs, for the DPO family) per rollout and update step: verl
  // data.train_batch_size, OpenRLHF --rollout_batch_size.
  int prompts_per_step = 128;
  double prompts = 0;  // prompts (or pairs) in the dataset; × epochs gives the run; 0 = not given
  int ppo_epochs = 1;  // passes of the update over each rollout batch (verl ppo_epochs)
  // Prompts generated per prompt trained: DAPO's dynamic sampling drops groups whose
  // answers all score the same and generates more to fill the batch (its recipe samples
  // 3× the training batch: data.gen_batch_size = train_prompt_bsz × 3, verl recipe/dapo).
  double rollout_oversample = 1;
  ReferenceKind reference = ReferenceKind::kModel;
  RewardKind reward = RewardKind::kRule;
  Placement placement = Placement::kColocated;
  // Co-located: the training roles' states leave the GPUs while the engine generates
  // (NeMo RL's co-located default, OpenRLHF --deepspeed_enable_sleep, verl's param and
  // optimizer offload), so generation gets nearly the whole GPU, at the cost of moving
  // them over PCIe twice a step.
  bool offload_while_generating = true;
  int rollout_gpus = 0;   // separate placement: GPUs of the rollout engine; 0 = half the job's
  int rollout_tp = 0;     // tensor parallel of each rollout engine instance; 0 = the fewest that fit
  // The share of each rollout GPU the engine reserves (vLLM gpu_memory_utilization): its
  // weights, activations and the KV cache in what is left. 0 = what the step needs.
  double gpu_memory_utilization = 0;
  // Critic and reward models other than the policy's (catalog preset ids; "" = the
  // policy's architecture, as OpenRLHF and verl initialise them), resolved into specs.
  std::string critic_model_id;
  std::string reward_model_id;
  ModelSpec critic_model;  // layers == 0: the policy's
  ModelSpec reward_model;
};

}  // namespace engine
