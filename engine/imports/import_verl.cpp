// verl (volcengine/verl): the Hydra overrides of `python3 -m verl.trainer.main_ppo` (or the
// same keys as a ppo_trainer.yaml), as engine/exports/rl_launch.cpp (VerlCommand) writes
// them. Keys: verl/trainer/config/ppo_trainer.yaml and the docs' "Config Explanation";
// DAPO's data.gen_batch_size: recipe/dapo. verl's actor, critic and reference are FSDP
// workers and its hybrid engine runs the vLLM rollouts on the same GPUs.
#include <cmath>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// A key the config leaves out: verl's default `value` for `field`, said so.
void AssumeDefault(Reader& reader, const char* field, const contract::Json& value, const char* key, const char* shown) {
  reader.state().result.scenario[field] = value;
  reader.Assume(field, value,
                engine::MakeMessage("import.assumed.tool_default", {engine::TextArg("key", key), engine::TextArg("tool", "verl"),
                                                                    engine::TextArg("value", shown)}));
}

// algorithm.adv_estimator: gae trains a critic (PPO); the others compare the answers of a
// group (verl/trainer/ppo/core_algos.py AdvantageEstimator).
std::string EstimatorMethod(Reader& reader, const Setting* s) {
  if (s == nullptr) {
    AssumeDefault(reader, "method", "ppo", "algorithm.adv_estimator", "gae (PPO with a critic)");
    return "ppo";
  }
  if (s->value == "gae") {
    reader.Set("method", "ppo", *s);
    return "ppo";
  }
  static constexpr std::string_view kGroup[] = {"grpo", "rloo", "rloo_vectorized", "reinforce_plus_plus",
                                               "reinforce_plus_plus_baseline", "remax", "opo", "grpo_passk", "gpg",
                                               "drgrpo", "grpo_vectorized"};
  reader.Set("method", "grpo", *s);
  bool known = false;
  for (std::string_view name : kGroup) known = known || s->value == name;
  if (!known) {
    reader.Assume("method", "grpo", engine::MakeMessage("import.assumed.rl_estimator", {engine::TextArg("name", s->value)}));
  }
  return "grpo";
}

void ReadBatches(Reader& reader) {
  std::optional<long> prompts;
  if (const Setting* s = reader.Take("data.train_batch_size")) {
    prompts = reader.Int(*s, 1, 10000000);
    if (prompts) reader.Set("prompts_per_step", *prompts, *s);
  }
  if (const Setting* s = reader.Take("data.gen_batch_size")) {
    // DAPO's dynamic sampling generates gen_batch_size prompts for each train_batch_size kept.
    if (!prompts) {
      reader.Ignore(*s, engine::MakeMessage("import.ignored.gen_batch_without_train_batch"));
    } else if (auto v = reader.Int(*s, *prompts, *prompts * 100)) {
      reader.Set("rollout_oversample", static_cast<double>(*v) / static_cast<double>(*prompts), *s);
    }
  }
  if (const Setting* s = reader.Take("algorithm.filter_groups.enable")) reader.Used(*s);
  reader.IgnorePrefix("algorithm.filter_groups", "import.ignored.hyperparameter");
  if (const Setting* s = reader.Take("data.max_prompt_length")) {
    if (auto v = reader.Int(*s, 1, 1000000)) reader.Set("prompt_len", *v, *s);
  }
  if (const Setting* s = reader.Take("data.max_response_length")) {
    if (auto v = reader.Int(*s, 1, 1000000)) {
      reader.Set("max_response_len", *v, *s);
      if (!reader.Field("response_len")) {
        reader.Assume("response_len", nullptr, engine::MakeMessage("import.assumed.response_len"));
      }
    }
  }
  // The optimizer-step batch within a rollout batch: several steps per update when smaller.
  for (const char* key : {"actor_rollout_ref.actor.ppo_mini_batch_size", "critic.ppo_mini_batch_size"}) {
    if (const Setting* s = reader.Take(key)) {
      if (prompts && s->value == std::to_string(*prompts)) reader.Used(*s);
      else reader.Ignore(*s, engine::MakeMessage("import.ignored.rl_mini_batch"));
    }
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = reader.Take("critic.ppo_micro_batch_size_per_gpu")) {
    if (reader.Int(*s, 1, 1 << 20)) reader.Used(*s);
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.actor.ppo_epochs")) {
    if (auto v = reader.Int(*s, 1, 100)) reader.Set("ppo_epochs", *v, *s);
  }
  if (const Setting* s = reader.Take("critic.ppo_epochs")) reader.Used(*s);
  reader.IgnoreKeys({"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
                     "actor_rollout_ref.rollout.log_prob_micro_batch_size",
                     "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
                     "actor_rollout_ref.ref.log_prob_micro_batch_size", "critic.forward_micro_batch_size_per_gpu",
                     "critic.forward_micro_batch_size", "reward_model.micro_batch_size_per_gpu",
                     "reward_model.micro_batch_size", "actor_rollout_ref.actor.ppo_micro_batch_size",
                     "critic.ppo_micro_batch_size"},
                    "import.ignored.log_prob_batch");
}

void ReadPolicy(Reader& reader) {
  const Setting* rank = reader.Take("actor_rollout_ref.model.lora_rank");
  std::optional<long> r;
  if (rank) r = reader.Int(*rank, 0, 65536);
  if (rank && !r) return;
  if (r && *r > 0) {
    reader.Set("policy_update", "lora", *rank);
    reader.Set("lora_rank", *r, *rank);
  } else if (rank) {
    reader.Set("policy_update", "full", *rank);
  } else {
    AssumeDefault(reader, "policy_update", "full", "actor_rollout_ref.model.lora_rank", "0 (every weight trains)");
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.model.target_modules")) {
    if (r && *r > 0) ReadLoraTargets(reader, *s);
    else reader.Used(*s);
  }
  reader.IgnoreKeys({"actor_rollout_ref.model.lora_alpha", "actor_rollout_ref.model.use_dora"},
                    "import.ignored.quantization_detail");
  // verl turns gradient checkpointing on (trainer/config/model/hf_model.yaml).
  if (const Setting* s = reader.Take("actor_rollout_ref.model.enable_gradient_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_checkpointing", *v ? "full" : "none", *s);
  } else {
    AssumeDefault(reader, "activation_checkpointing", "full", "actor_rollout_ref.model.enable_gradient_checkpointing", "True");
  }
  if (const Setting* s = reader.Take("critic.model.enable_gradient_checkpointing")) reader.Used(*s);
  if (const Setting* s = reader.Take("actor_rollout_ref.model.enable_activation_offload")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_offload", *v, *s);
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.model.use_liger")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("cross_entropy", "chunked", *s);
    else reader.Used(*s);
  }
  reader.IgnoreKeys({"actor_rollout_ref.model.use_remove_padding", "critic.model.use_remove_padding"},
                    "import.ignored.packing");
}

// The frozen reference: verl loads it for a KL loss (GRPO's use_kl_loss) or a KL penalty in
// the reward (algorithm.use_kl_in_reward); both are off in ppo_trainer.yaml.
void ReadReference(Reader& reader, const std::string& method) {
  const Setting* loss = reader.Take("actor_rollout_ref.actor.use_kl_loss");
  const Setting* in_reward = reader.Take("algorithm.use_kl_in_reward");
  const std::optional<bool> loss_on = loss ? reader.Bool(*loss) : std::optional<bool>(false);
  const std::optional<bool> reward_on = in_reward ? reader.Bool(*in_reward) : std::optional<bool>(false);
  if (!loss_on || !reward_on) return;
  if (*loss_on || *reward_on) {
    reader.Set("reference", "model", *loss_on ? *loss : *in_reward);
    if (loss && in_reward) reader.Used(*loss_on ? *in_reward : *loss);
  } else if (method == "ppo" && !in_reward) {
    // TrainSizer's own verl line for PPO writes no use_kl_in_reward: PPO's reference stays.
    if (loss) reader.Used(*loss);
    reader.Assume("reference", "model", engine::MakeMessage("import.assumed.verl_ppo_reference"));
  } else if (loss || in_reward) {
    reader.Set("reference", "none", loss ? *loss : *in_reward);
    if (loss && in_reward) reader.Used(*in_reward);
  } else {
    AssumeDefault(reader, "reference", "none", "actor_rollout_ref.actor.use_kl_loss", "False (no reference model)");
  }
}

void ReadRollout(Reader& reader) {
  // verl's hybrid engine: the rollouts run on the training GPUs, which take turns.
  reader.state().result.scenario["placement"] = "colocated";
  reader.Assume("placement", "colocated", engine::MakeMessage("import.assumed.verl_colocated"));
  if (const Setting* s = reader.Take("actor_rollout_ref.rollout.n")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("group_size", *v, *s);
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.rollout.tensor_model_parallel_size")) {
    if (auto v = reader.Int(*s, 1, 64)) reader.Set("rollout_tp", *v, *s);
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.rollout.gpu_memory_utilization")) {
    if (auto v = reader.Number(*s, 0, 1)) reader.Set("gpu_memory_utilization", *v, *s);
  }
  if (const Setting* s = reader.Take("actor_rollout_ref.rollout.name")) reader.Used(*s);
  // The training states leave the GPUs while vLLM generates (FSDP param and optimizer offload).
  const Setting* params = reader.Take("actor_rollout_ref.actor.fsdp_config.param_offload");
  const Setting* optimizer = reader.Take("actor_rollout_ref.actor.fsdp_config.optimizer_offload");
  const std::optional<bool> p = params ? reader.Bool(*params) : std::optional<bool>(false);
  const std::optional<bool> o = optimizer ? reader.Bool(*optimizer) : std::optional<bool>(false);
  if (!p || !o) return;
  if (params) {
    reader.Set("offload_while_generating", *p, *params);
  } else if (optimizer) {
    reader.Set("offload_while_generating", *o, *optimizer);
  } else {
    AssumeDefault(reader, "offload_while_generating", false, "actor_rollout_ref.actor.fsdp_config.param_offload", "False");
  }
  // Optimizer states on the host all the time (the scenario's offload), not only while generating.
  if (params && optimizer) {
    if (*p == *o) reader.Used(*optimizer);
    else if (*o) reader.Set("offload", "optimizer", *optimizer);
    else reader.Ignore(*optimizer, engine::MakeMessage("import.ignored.verl_optimizer_offload"));
  }
  for (const char* key : {"actor_rollout_ref.ref.fsdp_config.param_offload", "critic.model.fsdp_config.param_offload",
                          "critic.model.fsdp_config.optimizer_offload", "reward_model.model.fsdp_config.param_offload"}) {
    if (const Setting* s = reader.Take(key)) {
      if (reader.Bool(*s)) reader.Used(*s);
    }
  }
  reader.IgnoreKeys({"actor_rollout_ref.rollout.temperature", "actor_rollout_ref.rollout.top_p",
                     "actor_rollout_ref.rollout.top_k", "actor_rollout_ref.rollout.do_sample",
                     "actor_rollout_ref.rollout.ignore_eos"},
                    "import.ignored.hyperparameter");
  reader.IgnorePrefix("actor_rollout_ref.rollout.val_kwargs", "import.ignored.io");
}

void ReadRoles(Reader& reader, const std::string& method, const Setting* policy) {
  if (const Setting* s = reader.Take("critic.model.path")) {
    if (method == "ppo") SetRoleModel(reader, "critic_model", "critic", *s, policy);
    else reader.Ignore(*s, engine::MakeMessage("import.ignored.critic_without_gae"));
  }
  const Setting* enable = reader.Take("reward_model.enable");
  const Setting* path = reader.Take("reward_model.model.path");
  const std::optional<bool> on = enable ? reader.Bool(*enable) : std::optional<bool>(false);
  if (!on) return;
  if (*on) {
    reader.Set("reward", "model", *enable);
    if (path) SetRoleModel(reader, "reward_model", "reward model", *path, policy);
  } else {
    if (enable) reader.Set("reward", "rule", *enable);
    else AssumeDefault(reader, "reward", "rule", "reward_model.enable", "False (a reward function)");
    if (path) reader.Ignore(*path, engine::MakeMessage("import.ignored.reward_model_disabled"));
  }
  if (const Setting* s = reader.Take("reward_model.reward_manager")) reader.Used(*s);
  reader.IgnorePrefix("custom_reward_function", "import.ignored.io");
  reader.IgnoreKeys({"reward_model.model.input_tokenizer", "critic.model.tokenizer_path"}, "import.ignored.io");
}

void ReadTrainer(Reader& reader) {
  const Setting* nodes = reader.Take("trainer.nnodes");
  const Setting* per_node = reader.Take("trainer.n_gpus_per_node");
  const std::optional<long> n = nodes ? reader.Int(*nodes, 1, kMaxGpus) : std::optional<long>(1);
  if (per_node) {
    const std::optional<long> p = reader.Int(*per_node, 1, kMaxGpus);
    if (n && p) {
      reader.Set("gpus_per_node", *p, *per_node);
      reader.Set("gpus", static_cast<long long>(*n) * *p, *per_node);
      if (nodes) reader.Set("gpus", static_cast<long long>(*n) * *p, *nodes);
    }
  } else if (nodes) {
    reader.Ignore(*nodes, engine::MakeMessage("import.ignored.nodes_without_gpus"));
  }
  if (const Setting* s = reader.Take("trainer.total_epochs")) {
    if (auto v = reader.Number(*s, 0.001, 1e6)) reader.Set("epochs", *v, *s);
  }
  reader.IgnoreKeys({"trainer.project_name", "trainer.experiment_name", "trainer.logger", "trainer.save_freq",
                     "trainer.test_freq", "trainer.default_local_dir", "trainer.default_hdfs_dir",
                     "trainer.val_before_train", "trainer.resume_mode", "trainer.resume_from_path",
                     "trainer.log_val_generations", "trainer.max_actor_ckpt_to_keep", "trainer.max_critic_ckpt_to_keep",
                     "trainer.del_local_ckpt_after_load", "trainer.validation_data_dir", "trainer.rollout_data_dir"},
                    "import.ignored.io");
  reader.IgnoreKeys({"trainer.critic_warmup", "trainer.balance_batch"}, "import.ignored.hyperparameter");
}

}  // namespace

void ReadVerl(Reader& reader) {
  // FSDP workers, sharded across every GPU of the job (FULL_SHARD, fsdp_size -1).
  const Setting* strategy = reader.Take("actor_rollout_ref.actor.strategy");
  const bool megatron = strategy && strategy->value == "megatron";
  const char* framework = megatron ? "megatron" : "fsdp";
  reader.state().result.scenario["framework"] = framework;
  reader.Assume("framework", framework,
                engine::MakeMessage(megatron ? "import.assumed.verl_megatron" : "import.assumed.verl_fsdp"));
  if (!megatron) {
    reader.state().result.scenario["zero"] = 3;
    reader.Assume("zero", 3, engine::MakeMessage("import.assumed.verl_fsdp"));
  }
  if (strategy) reader.Used(*strategy);
  reader.IgnoreKeys({"critic.strategy"}, "import.ignored.fsdp_config");

  const std::string method = EstimatorMethod(reader, reader.Take("algorithm.adv_estimator"));
  const Setting* policy = reader.Take("actor_rollout_ref.model.path");
  if (policy) reader.SetModelFromName(*policy);
  ReadPolicy(reader);
  if (reader.failed()) return;
  ReadBatches(reader);
  if (reader.failed()) return;
  ReadReference(reader, method);
  ReadRollout(reader);
  ReadRoles(reader, method, policy);
  ReadTrainer(reader);
  if (reader.failed()) return;

  for (const char* prefix : {"actor_rollout_ref.actor.fsdp_config", "actor_rollout_ref.ref.fsdp_config",
                             "critic.model.fsdp_config", "reward_model.model.fsdp_config"}) {
    reader.IgnorePrefix(prefix, "import.ignored.fsdp_config");
  }
  reader.IgnorePrefix("actor_rollout_ref.actor.optim", "import.ignored.hyperparameter");
  reader.IgnorePrefix("critic.optim", "import.ignored.hyperparameter");
  reader.IgnorePrefix("algorithm.kl_ctrl", "import.ignored.hyperparameter");
  reader.IgnorePrefix("actor_rollout_ref.actor.policy_loss", "import.ignored.hyperparameter");
  reader.IgnoreKeys({"actor_rollout_ref.actor.clip_ratio", "actor_rollout_ref.actor.clip_ratio_low",
                     "actor_rollout_ref.actor.clip_ratio_high", "actor_rollout_ref.actor.clip_ratio_c",
                     "actor_rollout_ref.actor.entropy_coeff", "actor_rollout_ref.actor.kl_loss_coef",
                     "actor_rollout_ref.actor.kl_loss_type", "actor_rollout_ref.actor.loss_agg_mode",
                     "actor_rollout_ref.actor.grad_clip", "actor_rollout_ref.actor.shuffle", "critic.cliprange_value",
                     "critic.grad_clip", "algorithm.gamma", "algorithm.lam", "algorithm.norm_adv_by_std_in_grpo",
                     "algorithm.kl_penalty", "data.seed"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"data.train_files", "data.val_files", "data.prompt_key", "data.reward_fn_key", "data.image_key",
                     "data.filter_overlong_prompts", "data.filter_overlong_prompts_workers", "data.truncation",
                     "data.shuffle", "data.return_raw_chat", "data.return_raw_input_ids", "data.val_batch_size",
                     "data.dataloader_num_workers", "data.tokenizer", "data.trust_remote_code",
                     "actor_rollout_ref.model.trust_remote_code", "actor_rollout_ref.model.use_shm",
                     "actor_rollout_ref.model.external_lib", "actor_rollout_ref.actor.checkpoint.contents",
                     "critic.checkpoint.contents"},
                    "import.ignored.io");
  reader.IgnorePrefix("data.custom_cls", "import.ignored.io");
}

}  // namespace engine::imports
