#include "engine/exports/rl_launch.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/exports/launch_text.h"
#include "engine/exports/trl_vision_sft.h"
#include "engine/format.h"
#include "engine/memory_model.h"
#include "engine/post_training.h"

namespace engine::exports {
namespace {

// The numbers each tool is given, worked out from the scenario and its estimate.
struct RlSizes {
  int gpus = 1, nodes = 1, gpus_per_node = 1;
  int training_gpus = 1, rollout_gpus = 0;
  int rollout_tp = 1, rollout_instances = 1;
  double utilization = 0.6;  // the rollout engine's share of each of its GPUs
  bool utilization_known = false;
  int group = 1, prompts = 1, sequences = 1;
  int micro_batch = 1;  // update sequences (pairs for the DPO family) per GPU per pass
  int accumulation = 1;  // micro_batch × training GPUs × accumulation = one step's sequences
  int prompt_len = 0, longest = 0;
  bool reference = false, reward_model = false, critic = false, colocated = true;
  bool offload_states = false;  // training states leave the GPUs while generating, or always
  bool offload_optimizer = false;  // the optimizer lives in host memory throughout (CPU Adam)
  bool pairs = false;  // sequences count preference pairs (DPO, ORPO, SimPO)
  bool preference = false;
};

RlSizes SizesOf(const Scenario& s, double gpu_memory_bytes) {
  const PostTrainingSetup& post = s.training.post;
  const MemoryBreakdown m = EstimateMemory(s, CountParams(s.model), /*explain=*/false, ShippedCalibration(), gpu_memory_bytes);
  RlSizes z;
  z.gpus = s.parallel.gpus;
  z.gpus_per_node = std::min(s.parallel.gpus_per_node, s.parallel.gpus);
  z.nodes = s.parallel.Nodes();
  z.training_gpus = TrainingGpus(s);
  z.rollout_gpus = RolloutGpus(s);
  z.rollout_tp = m.post.rollout.tp;
  z.rollout_instances = m.post.rollout.instances;
  if (post.gpu_memory_utilization > 0) {
    z.utilization = post.gpu_memory_utilization;
    z.utilization_known = true;
  } else if (m.post.rollout.utilization > 0) {
    // What the step needs, rounded up to a twentieth as people write it.
    z.utilization = std::clamp(std::ceil(m.post.rollout.utilization * 20) / 20, 0.1, 0.95);
    z.utilization_known = true;
  }
  z.group = GroupSize(post);
  z.prompts = post.prompts_per_step;
  z.pairs = TrainsOnPairs(post.kind);
  z.preference = IsPreference(post.kind);
  z.sequences = static_cast<int>(std::min(SequencesPerStep(post) / (z.pairs ? 2 : 1), 1e9));
  z.micro_batch = s.training.micro_batch;
  z.accumulation = std::max(1, static_cast<int>(std::lround(double(z.sequences) / (double(z.micro_batch) * z.training_gpus))));
  z.prompt_len = post.prompt_len;
  z.longest = Generates(post.kind) ? post.LongestResponse() : post.response_len;
  z.reference = RunsReferenceForward(s);
  z.reward_model = HoldsRewardModel(s);
  z.critic = post.kind == PostTraining::kPpo;
  z.colocated = post.placement == Placement::kColocated;
  z.offload_states = s.parallel.offload == Offload::kOptimizerAndParams ||
                     (Generates(post.kind) && z.colocated && post.offload_while_generating);
  z.offload_optimizer = s.parallel.offload != Offload::kNone;
  return z;
}


// "cmd \\\n  arg \\\n  arg\n": one argument a line.
std::string Command(const std::string& head, const std::vector<std::string>& args) {
  std::string out = head;
  for (const std::string& a : args) out += " \\\n  " + a;
  return out + "\n";
}

std::string SizesLine(const RlSizes& z) {
  const std::string per_step =
      z.preference ? std::to_string(z.sequences) + (z.pairs ? " preference pairs" : " labelled answers") + " per step"
                   : std::to_string(z.prompts) + " prompts x " + std::to_string(z.group) + " answer(s) = " +
                         std::to_string(z.sequences) + " sequences per step";
  return per_step + "; update micro-batch " + std::to_string(z.micro_batch) +
         " per GPU x " + std::to_string(z.training_gpus) + " GPUs x " + std::to_string(z.accumulation) +
         " accumulation steps";
}

}  // namespace

std::string VerlCommand(const Scenario& s, std::string_view hf_repo, double gpu_memory_bytes) {
  const PostTrainingSetup& post = s.training.post;
  if (!Generates(post.kind)) {
    return Comment({"verl trains with rollouts: PPO and GRPO (and RLOO, DAPO, Dr. GRPO through its options).",
                      "For this scenario's method, use the TRL or OpenRLHF config."});
  }
  const RlSizes z = SizesOf(s, gpu_memory_bytes);
  std::vector<std::string> header = {
      "verl main_ppo, FSDP workers with vLLM rollouts (docs: Config Explanation, ppo_trainer.yaml).",
      std::to_string(z.gpus) + " GPUs (" + std::to_string(z.nodes) + " node(s) x " + std::to_string(z.gpus_per_node) +
          "); " + SizesLine(z) + ".",
      "Rollout: " + std::to_string(z.rollout_instances) + " vLLM instance(s) at tensor parallel " +
          std::to_string(z.rollout_tp) + ", " + Num(z.utilization) + " of each GPU (TrainSizer's estimate)."};
  if (!z.colocated) header.push_back("verl co-locates rollout and training (hybrid engine); separate GPUs are OpenRLHF's.");
  std::vector<std::string> args = {
      std::string("algorithm.adv_estimator=") + (post.kind == PostTraining::kGrpo ? "grpo" : "gae"),
      "data.train_files=REPLACE_WITH_TRAIN_PARQUET",
      "data.train_batch_size=" + std::to_string(z.prompts),
      "data.max_prompt_length=" + std::to_string(z.prompt_len),
      "data.max_response_length=" + std::to_string(z.longest),
      "actor_rollout_ref.model.path=" + ModelPath(hf_repo),
      "actor_rollout_ref.model.enable_gradient_checkpointing=" +
          Bool(s.training.activation_checkpointing != Recompute::kNone)};
  if (post.rollout_oversample > 1) {
    // DAPO's dynamic sampling (verl recipe/dapo): generate more prompts, keep the informative groups.
    args.push_back("data.gen_batch_size=" + std::to_string(static_cast<long long>(std::ceil(z.prompts * post.rollout_oversample))));
    args.push_back("algorithm.filter_groups.enable=True");
  }
  if (TrainsAdapters(s.training.method)) {
    args.push_back("actor_rollout_ref.model.lora_rank=" + std::to_string(s.training.lora_rank));
    args.push_back("actor_rollout_ref.model.lora_alpha=" + std::to_string(2 * s.training.lora_rank));
    args.push_back("actor_rollout_ref.model.target_modules=all-linear");
  }
  args.insert(args.end(), {
      "actor_rollout_ref.actor.ppo_mini_batch_size=" + std::to_string(z.prompts),
      "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=" + std::to_string(z.micro_batch),
      "actor_rollout_ref.actor.ppo_epochs=" + std::to_string(post.ppo_epochs),
      "actor_rollout_ref.actor.use_kl_loss=" + Bool(z.reference && post.kind == PostTraining::kGrpo),
      "actor_rollout_ref.actor.fsdp_config.param_offload=" + Bool(z.offload_states),
      "actor_rollout_ref.actor.fsdp_config.optimizer_offload=" + Bool(z.offload_states || z.offload_optimizer),
      "actor_rollout_ref.rollout.name=vllm",
      "actor_rollout_ref.rollout.n=" + std::to_string(z.group),
      "actor_rollout_ref.rollout.tensor_model_parallel_size=" + std::to_string(z.rollout_tp),
      "actor_rollout_ref.rollout.gpu_memory_utilization=" + Num(z.utilization),
      "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=" + std::to_string(2 * z.micro_batch),
      "actor_rollout_ref.ref.fsdp_config.param_offload=" + Bool(z.offload_states)});
  if (z.critic) {
    args.push_back("critic.model.path=" + (post.critic_model_id.empty() ? ModelPath(hf_repo) : "REPLACE_WITH_CRITIC_PATH"));
    args.push_back("critic.ppo_micro_batch_size_per_gpu=" + std::to_string(z.micro_batch));
    args.push_back("critic.model.fsdp_config.param_offload=" + Bool(z.offload_states));
  }
  if (z.reward_model) {
    args.push_back("reward_model.enable=True");
    args.push_back("reward_model.model.path=" +
                   (post.reward_model_id.empty() ? ModelPath(hf_repo) : std::string("REPLACE_WITH_REWARD_MODEL_PATH")));
  }
  args.insert(args.end(), {"trainer.n_gpus_per_node=" + std::to_string(z.gpus_per_node),
                           "trainer.nnodes=" + std::to_string(z.nodes),
                           "trainer.total_epochs=" + Num(std::max(1.0, std::ceil(s.training.epochs)))});
  std::string out = Comment(header);
  if (!z.utilization_known) out += "# the GPU's memory is unknown: gpu_memory_utilization is the tools' example value\n";
  return out + Command("python3 -m verl.trainer.main_ppo", args);
}

std::string OpenRlhfCommand(const Scenario& s, std::string_view hf_repo, double gpu_memory_bytes) {
  const PostTrainingSetup& post = s.training.post;
  const RlSizes z = SizesOf(s, gpu_memory_bytes);
  const std::string zero = "--zero_stage " + std::to_string(std::max(0, std::min(3, s.parallel.zero)));
  std::vector<std::string> common = {zero, "--bf16"};
  if (s.training.activation_checkpointing != Recompute::kNone) common.push_back("--gradient_checkpointing");
  if (TrainsAdapters(s.training.method)) common.push_back("--lora_rank " + std::to_string(s.training.lora_rank) + " --target_modules all-linear");
  if (s.training.method == Method::kQlora) common.push_back("--load_in_4bit");
  if (post.kind == PostTraining::kNone || post.kind == PostTraining::kOrpo || post.kind == PostTraining::kSimpo) {
    return Comment({"OpenRLHF trains DPO, KTO, PPO and GRPO (and REINFORCE++, RLOO); for this scenario's method, use "
                      "the TRL config."});
  }
  if (IsPreference(post.kind)) {
    const bool kto = post.kind == PostTraining::kKto;
    std::vector<std::string> args = {"--pretrain " + ModelPath(hf_repo), "--dataset REPLACE_WITH_DATASET",
                                     "--train_batch_size " + std::to_string(z.sequences),
                                     "--micro_train_batch_size " + std::to_string(z.micro_batch),
                                     "--max_len " + std::to_string(post.prompt_len + post.response_len),
                                     "--max_epochs " + Num(std::max(1.0, std::ceil(s.training.epochs))),
                                     "--beta 0.1", "--learning_rate 5e-7"};
    if (z.offload_optimizer) args.push_back("--adam_offload");
    args.insert(args.end(), common.begin(), common.end());
    return Comment({std::string("OpenRLHF ") + (kto ? "KTO" : "DPO") + " on " + std::to_string(z.gpus) +
                          " GPUs; " + std::to_string(z.sequences) + (kto ? " answers" : " pairs") + " per step = " +
                          std::to_string(z.micro_batch) + " per GPU x " + std::to_string(z.training_gpus) + " x " +
                          std::to_string(z.accumulation) + " accumulation steps.",
                      "--beta and --learning_rate are placeholders: tune them."}) +
           Command(std::string("deepspeed --module openrlhf.cli.") + (kto ? "train_kto" : "train_dpo"), args);
  }
  const int actor_nodes = std::max(1, (z.training_gpus + z.gpus_per_node - 1) / z.gpus_per_node);
  const int actor_per_node = std::min(z.gpus_per_node, z.training_gpus);
  std::vector<std::string> args = {
      "--ref_num_nodes " + std::to_string(actor_nodes) + " --ref_num_gpus_per_node " + std::to_string(actor_per_node),
      "--actor_num_nodes " + std::to_string(actor_nodes) + " --actor_num_gpus_per_node " + std::to_string(actor_per_node),
      "--vllm_num_engines " + std::to_string(z.rollout_instances) + " --vllm_tensor_parallel_size " +
          std::to_string(z.rollout_tp),
      "--vllm_gpu_memory_utilization " + Num(z.utilization)};
  if (z.critic) {
    args.push_back("--critic_num_nodes " + std::to_string(actor_nodes) + " --critic_num_gpus_per_node " +
                   std::to_string(actor_per_node));
  }
  if (z.reward_model) {
    args.push_back("--reward_num_nodes " + std::to_string(actor_nodes) + " --reward_num_gpus_per_node " +
                   std::to_string(actor_per_node));
  }
  if (z.colocated) {
    args.push_back("--colocate_all_models --vllm_enable_sleep");
    if (z.offload_states) args.push_back("--deepspeed_enable_sleep");
  } else {
    args.push_back("--colocate_actor_ref");
  }
  args.insert(args.end(), {
      "--pretrain " + ModelPath(hf_repo),
      std::string("--advantage_estimator ") + (post.kind == PostTraining::kGrpo ? "group_norm" : "gae"),
      "--n_samples_per_prompt " + std::to_string(z.group),
      "--rollout_batch_size " + std::to_string(z.prompts),
      "--micro_rollout_batch_size " + std::to_string(2 * z.micro_batch),
      "--train_batch_size " + std::to_string(z.sequences),
      "--micro_train_batch_size " + std::to_string(z.micro_batch),
      "--prompt_max_len " + std::to_string(z.prompt_len),
      "--generate_max_len " + std::to_string(z.longest),
      "--max_epochs " + std::to_string(post.ppo_epochs),
      "--num_episodes " + Num(std::max(1.0, std::ceil(s.training.epochs))),
      "--prompt_data REPLACE_WITH_PROMPTS --input_key prompt"});
  if (z.critic) args.push_back("--critic_pretrain " + (post.critic_model_id.empty() ? ModelPath(hf_repo) : "REPLACE_WITH_CRITIC_PATH"));
  if (z.reward_model) {
    args.push_back("--reward_pretrain " +
                   (post.reward_model_id.empty() ? ModelPath(hf_repo) : std::string("REPLACE_WITH_REWARD_MODEL_PATH")));
  } else {
    args.push_back("--remote_rm_url REPLACE_WITH_VERIFIER");
  }
  args.push_back(z.reference ? "--init_kl_coef 0.001" : "--init_kl_coef 0");
  if (z.offload_optimizer) args.push_back("--adam_offload");
  args.insert(args.end(), common.begin(), common.end());
  std::string out = Comment(
      {"OpenRLHF train_ppo_ray (Ray + vLLM + DeepSpeed): start Ray on every node first (ray start --head ...).",
       std::to_string(z.gpus) + " GPUs; " + SizesLine(z) + ".",
       z.colocated ? "Every role co-located on the same GPUs, taking turns (--colocate_all_models)."
                   : "vLLM on " + std::to_string(z.rollout_gpus) + " GPUs of its own; actor and reference share the other " +
                         std::to_string(z.training_gpus) + "."});
  // The note stays out of the continued lines: a comment there would swallow the backslash.
  if (!z.reward_model) out += "# --remote_rm_url: the rule or verifier that scores the answers\n";
  if (!z.utilization_known) out += "# the GPU's memory is unknown: --vllm_gpu_memory_utilization is an example value\n";
  return out + Command("ray job submit --address=http://127.0.0.1:8265 -- python3 -m openrlhf.cli.train_ppo_ray", args);
}

std::string TrlScript(const Scenario& s, std::string_view hf_repo, double gpu_memory_bytes) {
  const PostTrainingSetup& post = s.training.post;
  if (post.kind == PostTraining::kNone) {
    if (s.model.vision.present()) return TrlVisionSftScript(s, hf_repo);
    return Comment({"TRL's post-training trainers (DPO, ORPO, SimPO via CPO, KTO, PPO, GRPO): choose one of those "
                      "methods; for supervised fine-tuning see the torchrun config (TRL SFTTrainer)."});
  }
  const RlSizes z = SizesOf(s, gpu_memory_bytes);
  struct TrainerNames {
    const char* config;
    const char* trainer;
  };
  TrainerNames names{"GRPOConfig", "GRPOTrainer"};
  switch (post.kind) {
    case PostTraining::kDpo: names = {"DPOConfig", "DPOTrainer"}; break;
    case PostTraining::kOrpo: names = {"ORPOConfig", "ORPOTrainer"}; break;
    case PostTraining::kSimpo: names = {"CPOConfig", "CPOTrainer"}; break;
    case PostTraining::kKto: names = {"KTOConfig", "KTOTrainer"}; break;
    case PostTraining::kPpo: names = {"PPOConfig", "PPOTrainer"}; break;
    case PostTraining::kGrpo:
    case PostTraining::kNone: break;
  }
  std::vector<std::string> fields = {"output_dir=\"saves/" + s.model.id + "-" + std::string(EnumName(kPostTrainingNames, post.kind)) + "\"",
                                     "per_device_train_batch_size=" + std::to_string(z.micro_batch),
                                     "gradient_accumulation_steps=" + std::to_string(z.accumulation),
                                     "num_train_epochs=" + Num(s.training.epochs),
                                     "gradient_checkpointing=" + Bool(s.training.activation_checkpointing != Recompute::kNone),
                                     "bf16=True"};
  if (IsPreference(post.kind)) {
    fields.push_back("max_length=" + std::to_string(post.prompt_len + post.response_len));
    fields.push_back("max_prompt_length=" + std::to_string(post.prompt_len));
    if (post.kind == PostTraining::kSimpo) fields.push_back("loss_type=\"simpo\", cpo_alpha=0.0");
    if (post.kind == PostTraining::kDpo && post.reference == ReferenceKind::kPrecomputed) {
      fields.push_back("precompute_ref_log_probs=True");
    }
  } else if (post.kind == PostTraining::kGrpo) {
    fields.insert(fields.end(), {"num_generations=" + std::to_string(z.group),
                                 "max_prompt_length=" + std::to_string(z.prompt_len),
                                 "max_completion_length=" + std::to_string(z.longest),
                                 "num_iterations=" + std::to_string(post.ppo_epochs),
                                 std::string("beta=") + (z.reference ? "0.04" : "0.0"), "use_vllm=True",
                                 std::string("vllm_mode=\"") + (z.colocated ? "colocate" : "server") + "\"",
                                 "vllm_gpu_memory_utilization=" + Num(z.utilization),
                                 "vllm_tensor_parallel_size=" + std::to_string(z.rollout_tp)});
  } else {
    fields.insert(fields.end(), {"num_ppo_epochs=" + std::to_string(post.ppo_epochs),
                                 "response_length=" + std::to_string(z.longest)});
  }
  std::string out = Comment({std::string("TRL ") + names.trainer + ": accelerate launch --num_processes " +
                                   std::to_string(z.training_gpus) +
                                   (s.parallel.zero >= 1 ? " --config_file deepspeed_zero" + std::to_string(s.parallel.zero) + ".yaml" : "") +
                                   " train.py",
                               SizesLine(z) + "."});
  if (!z.colocated && post.kind == PostTraining::kGrpo) {
    out += "# server mode: first `trl vllm-serve --model " + ModelPath(hf_repo) + " --tensor-parallel-size " +
           std::to_string(z.rollout_tp) + "` on the " + std::to_string(z.rollout_gpus) + " rollout GPU(s)\n";
  }
  out += std::string("from trl import ") + names.config + ", " + names.trainer + "\n";
  if (TrainsAdapters(s.training.method)) out += "from peft import LoraConfig\n";
  out += "\nconfig = " + std::string(names.config) + "(\n";
  for (const std::string& f : fields) out += "    " + f + ",\n";
  out += ")\n";
  std::string model_args = "model=\"" + ModelPath(hf_repo) + "\", args=config, train_dataset=REPLACE_WITH_DATASET";
  if (post.kind == PostTraining::kPpo) {
    // TRL examples/scripts/ppo/ppo.py: the trainer takes the four models themselves.
    model_args = "args=config, processing_class=tokenizer, model=policy, ref_model=ref_policy, "
                 "reward_model=reward_model, value_model=value_model, train_dataset=REPLACE_WITH_DATASET";
  }
  if (post.kind == PostTraining::kGrpo) model_args += ", reward_funcs=[REPLACE_WITH_REWARD_FUNCTION]";
  if (TrainsAdapters(s.training.method)) {
    model_args += ", peft_config=LoraConfig(r=" + std::to_string(s.training.lora_rank) + ", target_modules=\"all-linear\")";
  }
  return out + "trainer = " + names.trainer + "(" + model_args + ")\ntrainer.train()\n";
}

}  // namespace engine::exports
