// Post-training's physics (docs/model.md §12): the memory of every role beside the trained
// policy (frozen reference, critic, reward model, rollout engine) and the step split into
// generation, forward passes, updates and weight synchronisation. EstimateMemory and
// EstimateThroughput call these for a scenario whose training.post.kind is not kNone, so
// the estimate and the planner size post-training like any other run.
#pragma once

#include <optional>

#include "calibration.h"
#include "catalog.h"
#include "hardware.h"
#include "memory_model.h"
#include "scenario.h"

namespace engine {

// Looks up the critic's and the reward model's preset ids into their specs ("" = the
// policy's); an unknown id is an error naming the field.
std::optional<InputError> ResolveRoleModels(Scenario& s, const Catalog& catalog);

// The method's answers per prompt: the scenario's group_size, else 8 for GRPO (TRL
// GRPOConfig num_generations, 2025) and 1 for the rest.
int GroupSize(const PostTrainingSetup& post);

// Sequences one step trains on: prompts × group_size, both answers of each preference pair.
double SequencesPerStep(const PostTrainingSetup& post);

// The GPUs that train (all, unless the rollout engine has its own) and that generate.
int TrainingGpus(const Scenario& s);
int RolloutGpus(const Scenario& s);

// Whether the method holds the frozen reference on the GPUs: DPO, KTO, PPO and GRPO with
// reference "model", when the policy trains all its weights. A LoRA or QLoRA policy's
// reference is its own base with the adapters switched off (TRL, verl, OpenRLHF), which
// costs no memory but still a forward pass.
bool HoldsReferenceModel(const Scenario& s);
bool RunsReferenceForward(const Scenario& s);

// PPO or GRPO scoring with a reward model's forward pass (not a rule on the CPU).
bool HoldsRewardModel(const Scenario& s);

// PPO's critic: its own preset, else the policy's architecture.
const ModelSpec& CriticModel(const Scenario& s);

// The policy's own update as a plain training scenario: sequences of prompt_len +
// response_len, both answers of a pair in one micro-batch, a global batch of one step's
// sequences, on the training GPUs. Memory and time of the update are this scenario's.
Scenario PolicyUpdateScenario(const Scenario& s);

// Post-training's policy update, else `s` itself (media left as they are).
Scenario UpdateScenario(const Scenario& s);

// The scenario whose sequences are trained: post-training's policy update, else `s`, with
// a vision-language model's media tokens folded into its sequences. What the checks, the
// checklist and the training tools' launch configs speak of.
Scenario TrainedScenario(const Scenario& s);

// `gpu_memory_bytes` = the GPU's capacity (0 = unknown: the rollout engine takes what the
// step needs).
PostTrainingMemory EstimatePostTrainingMemory(const Scenario& s, const ParamCounts& params,
                                              const MemoryBreakdown& policy, double gpu_memory_bytes,
                                              const Calibration& calibration);

// `update_step_s` and `update_flops_per_s`: the policy update's step time and model FLOP
// rate from the plain training model (EstimateThroughput of PolicyUpdateScenario).
PostTrainingStep EstimatePostTrainingStep(const Scenario& s, const ParamCounts& params, const GpuSpec& gpu,
                                          const FabricSpec& fabric, const PostTrainingMemory& memory,
                                          double update_step_s, double update_model_flops_per_s,
                                          double critic_update_step_s, const Calibration& calibration);

}  // namespace engine
