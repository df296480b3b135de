// OpenRLHF: the flags of `python3 -m openrlhf.cli.train_ppo_ray` (PPO, GRPO, REINFORCE++,
// RLOO on Ray with vLLM rollouts and DeepSpeed training) and of `deepspeed --module
// openrlhf.cli.train_dpo` / `train_kto`, as engine/exports/rl_launch.cpp (OpenRlhfCommand)
// writes them. Flags: openrlhf/cli/train_ppo_ray.py, train_dpo.py, train_kto.py.
#include <string>

#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// A flag the command leaves out: OpenRLHF's default `value` for `field`, said so.
void AssumeDefault(Reader& reader, const char* field, const contract::Json& value, const char* key, const char* shown) {
  reader.state().result.scenario[field] = value;
  reader.Assume(field, value,
                engine::MakeMessage("import.assumed.tool_default", {engine::TextArg("key", key),
                                                                    engine::TextArg("tool", "OpenRLHF"),
                                                                    engine::TextArg("value", shown)}));
}

// DPO or KTO when the command runs openrlhf.cli.train_dpo / train_kto; "" for train_ppo(_ray).
std::string PreferenceMethod(Reader& reader) {
  const ConfigDocument& doc = reader.doc();
  const Setting* module = doc.Find("module");
  const auto runs = [&](const char* name) {
    return doc.RunsProgram(name) || (module != nullptr && module->value.find(name) != std::string::npos);
  };
  if (const Setting* s = reader.Take("module")) reader.Used(*s);
  if (runs("train_dpo")) return "dpo";
  if (runs("train_kto")) return "kto";
  return "";
}

// --advantage_estimator: gae trains a critic (PPO); group_norm (GRPO), reinforce,
// reinforce_baseline (REINFORCE++), rloo and dr_grpo compare the answers of a prompt.
std::string EstimatorMethod(Reader& reader) {
  const Setting* s = reader.Take("advantage_estimator");
  if (s == nullptr) {
    AssumeDefault(reader, "method", "ppo", "--advantage_estimator", "gae (PPO with a critic)");
    return "ppo";
  }
  if (s->value == "gae") {
    reader.Set("method", "ppo", *s);
    return "ppo";
  }
  reader.Set("method", "grpo", *s);
  const std::string& v = s->value;
  if (v != "group_norm" && v != "reinforce" && v != "reinforce_baseline" && v != "rloo" && v != "dr_grpo") {
    reader.Assume("method", "grpo", engine::MakeMessage("import.assumed.rl_estimator", {engine::TextArg("name", v)}));
  }
  return "grpo";
}

// The flags every OpenRLHF trainer shares: DeepSpeed, precision, checkpointing, LoRA.
void ReadCommon(Reader& reader) {
  if (const Setting* s = reader.Take("zero_stage")) {
    if (auto v = reader.Int(*s, 0, 3)) reader.Set("zero", *v, *s);
  } else {
    AssumeDefault(reader, "zero", 2, "--zero_stage", "2");
  }
  if (const Setting* s = reader.Take("adam_offload")) {
    if (auto v = reader.Bool(*s)) reader.Set("offload", *v ? "optimizer" : "none", *s);
  }
  const Setting* bf16 = reader.Take("bf16");
  if (bf16 && reader.Bool(*bf16).value_or(false)) reader.Set("precision", "bf16", *bf16);
  else if (bf16) reader.Used(*bf16);
  if (const Setting* s = reader.Take("gradient_checkpointing")) {
    if (auto v = reader.Bool(*s)) reader.Set("activation_checkpointing", *v ? "full" : "none", *s);
  } else {
    AssumeDefault(reader, "activation_checkpointing", "none", "--gradient_checkpointing", "off");
  }
  if (const Setting* s = reader.Take("flash_attn")) {
    if (auto v = reader.Bool(*s)) reader.Set("flash_attention", *v, *s);
  }
  const Setting* rank = reader.Take("lora_rank");
  const Setting* four_bit = reader.Take("load_in_4bit");
  std::optional<long> r;
  if (rank) r = reader.Int(*rank, 0, 65536);
  if (rank && !r) return;
  const bool adapters = r && *r > 0;
  const bool qlora = adapters && four_bit && reader.Bool(*four_bit).value_or(false);
  const std::string update = adapters ? (qlora ? "qlora" : "lora") : "full";
  if (rank) {
    reader.Set("policy_update", update, *rank);
  } else {
    AssumeDefault(reader, "policy_update", "full", "--lora_rank", "0 (every weight trains)");
  }
  if (adapters) reader.Set("lora_rank", *r, *rank);
  if (four_bit) {
    if (qlora) reader.Set("policy_update", "qlora", *four_bit);
    else reader.Used(*four_bit);
  }
  if (const Setting* s = reader.Take("target_modules")) {
    if (adapters) ReadLoraTargets(reader, *s);
    else reader.Used(*s);
  }
  if (const Setting* s = reader.Take("lora_dropout")) {
    if (auto v = reader.Number(*s, 0, 0.99)) {
      if (adapters) reader.Set("lora_dropout", *v, *s);
      else reader.Used(*s);
    }
  }
  reader.IgnoreKeys({"lora_alpha"}, "import.ignored.quantization_detail");
  reader.IgnoreKeys({"packing_samples"}, "import.ignored.packing");
}

// train_dpo / train_kto: --train_batch_size pairs (answers for KTO) a step, --max_len the
// prompt and answer together.
void ReadPreference(Reader& reader) {
  if (const Setting* s = reader.Take("train_batch_size")) {
    if (auto v = reader.Int(*s, 1, 10000000)) reader.Set("prompts_per_step", *v, *s);
  }
  if (const Setting* s = reader.Take("micro_train_batch_size")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.Set("micro_batch", *v, *s);
  }
  if (const Setting* s = reader.Take("max_len")) {
    if (auto v = reader.Int(*s, 2, 2000000)) {
      reader.Set("prompt_len", *v / 2, *s);
      reader.Set("response_len", *v - *v / 2, *s);
      reader.Assume("prompt_len", *v / 2, engine::MakeMessage("import.assumed.max_len_split", {engine::CountArg("max_len", *v)}));
    }
  }
  if (const Setting* s = reader.Take("max_epochs")) {
    if (auto v = reader.Number(*s, 0.001, 1e6)) reader.Set("epochs", *v, *s);
  }
  if (const Setting* s = reader.Take("ref_offload")) reader.Used(*s);
}

// train_ppo_ray: where each role runs, the rollout and the batches.
void ReadRl(Reader& reader, const std::string& method, const Setting* policy) {
  const Setting* colocate = reader.Take("colocate_all_models");
  const bool colocated = colocate && reader.Bool(*colocate).value_or(false);
  const Setting* nodes = reader.Take("actor_num_nodes");
  const Setting* per_node = reader.Take("actor_num_gpus_per_node");
  const Setting* engines = reader.Take("vllm_num_engines");
  const Setting* tp = reader.Take("vllm_tensor_parallel_size");
  // OpenRLHF's defaults: one node of 8 GPUs per role, vLLM at tensor parallel 1.
  const std::optional<long> n = nodes ? reader.Int(*nodes, 1, kMaxGpus) : std::optional<long>(1);
  const std::optional<long> p = per_node ? reader.Int(*per_node, 1, kMaxGpus) : std::optional<long>(8);
  const std::optional<long> e = engines ? reader.Int(*engines, 0, kMaxGpus) : std::optional<long>(0);
  const std::optional<long> t = tp ? reader.Int(*tp, 1, 64) : std::optional<long>(1);
  if (!n || !p || !e || !t) return;
  if (tp) reader.Set("rollout_tp", *t, *tp);
  const long long training = static_cast<long long>(*n) * *p;
  const Setting& gpus_from = per_node ? *per_node : nodes ? *nodes : DefaultSetting("actor_num_gpus_per_node", "8");
  if (colocated) {
    reader.Set("placement", "colocated", *colocate);
    reader.Set("gpus", training, gpus_from);
    if (engines) reader.Used(*engines);
  } else if (*e > 0) {
    reader.Set("placement", "separate", *engines);
    reader.Set("rollout_gpus", static_cast<long long>(*e) * *t, *engines);
    reader.Set("gpus", training + static_cast<long long>(*e) * *t, gpus_from);
  } else {
    // Without vLLM engines the actor generates its own answers, on its own GPUs.
    reader.state().result.scenario["placement"] = "colocated";
    reader.Assume("placement", "colocated", engine::MakeMessage("import.assumed.openrlhf_no_vllm"));
    reader.Set("gpus", training, gpus_from);
    if (engines) reader.Used(*engines);
  }
  if (!per_node && reader.Field("gpus")) {
    reader.Assume("gpus", *reader.Field("gpus"),
                  engine::MakeMessage("import.assumed.tool_default", {engine::TextArg("key", "--actor_num_gpus_per_node"),
                                                                      engine::TextArg("tool", "OpenRLHF"),
                                                                      engine::TextArg("value", "8")}));
  }
  if (nodes && per_node && *n > 1) reader.Set("gpus_per_node", *p, *per_node);
  if (nodes) reader.Used(*nodes);
  for (const char* key : {"ref_num_nodes", "ref_num_gpus_per_node", "critic_num_nodes", "critic_num_gpus_per_node",
                          "reward_num_nodes", "reward_num_gpus_per_node"}) {
    if (const Setting* s = reader.Take(key)) {
      if (reader.Int(*s, 1, kMaxGpus)) reader.Used(*s);
    }
  }
  for (const char* key : {"colocate_actor_ref", "colocate_critic_reward", "vllm_enable_sleep"}) {
    if (const Setting* s = reader.Take(key)) reader.Used(*s);
  }
  // The training states sleep in host memory while vLLM generates on the same GPUs.
  if (const Setting* s = reader.Take("deepspeed_enable_sleep")) {
    if (auto v = reader.Bool(*s)) {
      if (colocated) reader.Set("offload_while_generating", *v, *s);
      else reader.Used(*s);
    }
  } else if (colocated) {
    AssumeDefault(reader, "offload_while_generating", false, "--deepspeed_enable_sleep", "off");
  }
  if (const Setting* s = reader.Take("vllm_gpu_memory_utilization")) {
    if (auto v = reader.Number(*s, 0, 1)) reader.Set("gpu_memory_utilization", *v, *s);
  }
  if (reader.failed()) return;

  std::optional<long> group, prompts;
  if (const Setting* s = reader.Take("n_samples_per_prompt")) {
    group = reader.Int(*s, 1, 4096);
    if (group) reader.Set("group_size", *group, *s);
  }
  if (const Setting* s = reader.Take("rollout_batch_size")) {
    prompts = reader.Int(*s, 1, 10000000);
    if (prompts) reader.Set("prompts_per_step", *prompts, *s);
  }
  // One optimizer step's sequences: the whole rollout, or a part of it (several steps).
  if (const Setting* s = reader.Take("train_batch_size")) {
    if (auto v = reader.Int(*s, 1, kMaxCount)) {
      if (prompts && *v == static_cast<long long>(*prompts) * group.value_or(1)) reader.Used(*s);
      else reader.Ignore(*s, engine::MakeMessage("import.ignored.rl_mini_batch"));
    }
  }
  if (const Setting* s = reader.Take("micro_train_batch_size")) {
    if (auto v = reader.Int(*s, 1, 1 << 20)) reader.Set("micro_batch", *v, *s);
  }
  reader.IgnoreKeys({"micro_rollout_batch_size"}, "import.ignored.log_prob_batch");
  if (const Setting* s = reader.Take("prompt_max_len")) {
    if (auto v = reader.Int(*s, 1, 1000000)) reader.Set("prompt_len", *v, *s);
  }
  if (const Setting* s = reader.Take("generate_max_len")) {
    if (auto v = reader.Int(*s, 1, 1000000)) {
      reader.Set("max_response_len", *v, *s);
      if (!reader.Field("response_len")) {
        reader.Assume("response_len", nullptr, engine::MakeMessage("import.assumed.response_len"));
      }
    }
  }
  if (const Setting* s = reader.Take("max_epochs")) {
    if (auto v = reader.Int(*s, 1, 100)) reader.Set("ppo_epochs", *v, *s);
  }
  if (const Setting* s = reader.Take("num_episodes")) {
    if (auto v = reader.Number(*s, 0.001, 1e6)) reader.Set("epochs", *v, *s);
  }
  if (reader.failed()) return;

  if (const Setting* s = reader.Take("critic_pretrain")) {
    if (method == "ppo") SetRoleModel(reader, "critic_model", "critic", *s, policy);
    else reader.Ignore(*s, engine::MakeMessage("import.ignored.critic_without_gae"));
  }
  const Setting* reward_model = reader.Take("reward_pretrain");
  const Setting* remote = reader.Take("remote_rm_url");
  if (reward_model) {
    reader.Set("reward", "model", *reward_model);
    SetRoleModel(reader, "reward_model", "reward model", *reward_model, policy);
    if (remote) reader.Ignore(*remote, engine::MakeMessage("import.ignored.alias", {engine::TextArg("key", "reward_pretrain")}));
  } else if (remote) {
    reader.Set("reward", "rule", *remote);
  }
  // The KL term against the reference: none at 0 (OpenRLHF's default is 0.01).
  if (const Setting* s = reader.Take("init_kl_coef")) {
    if (auto v = reader.Number(*s, 0, 1e6)) reader.Set("reference", *v == 0 ? "none" : "model", *s);
  }
  if (const Setting* s = reader.Take("use_kl_loss")) reader.Used(*s);
}

}  // namespace

void ReadOpenRlhf(Reader& reader) {
  reader.state().result.scenario["framework"] = "deepspeed";
  reader.Assume("framework", "deepspeed", engine::MakeMessage("import.assumed.openrlhf_deepspeed"));
  const Setting* policy = reader.Take("pretrain");
  if (policy) reader.SetModelFromName(*policy);
  const std::string preference = PreferenceMethod(reader);
  const std::string method = preference.empty() ? EstimatorMethod(reader) : preference;
  if (!preference.empty()) {
    // train_dpo / train_kto name the method by the script they run.
    Setting script = DefaultSetting("module", "openrlhf.cli.train_" + preference);
    if (const Setting* module = reader.doc().Find("module")) script = *module;
    reader.Set("method", preference, script);
  }
  ReadCommon(reader);
  if (reader.failed()) return;
  if (preference.empty()) ReadRl(reader, method, policy);
  else ReadPreference(reader);
  if (reader.failed()) return;

  reader.IgnoreKeys({"actor_learning_rate", "critic_learning_rate", "learning_rate", "lr_warmup_ratio", "lr_scheduler",
                     "temperature", "top_p", "gamma", "lambd", "eps_clip", "value_clip", "kl_estimator", "kl_target",
                     "l2", "seed", "max_norm", "normalize_reward", "entropy_loss_coef", "beta", "adam_betas",
                     "reward_clip_range", "freezing_actor_steps", "ptx_coef", "aux_loss_coef", "label_smoothing",
                     "ipo", "nll_loss_coef", "desirable_loss_weight", "undesirable_loss_weight", "dynamic_filtering",
                     "dynamic_filtering_reward_range", "advantages_norm", "eps_clip_low_high", "full_determinism"},
                    "import.ignored.hyperparameter");
  reader.IgnoreKeys({"prompt_data", "prompt_split", "prompt_data_probs", "input_key", "label_key", "output_key",
                     "chosen_key", "rejected_key", "apply_chat_template", "input_template", "dataset", "dataset_probs",
                     "eval_dataset", "max_samples", "pretrain_data", "save_path", "ckpt_path", "load_checkpoint",
                     "save_hf_ckpt", "disable_ds_ckpt", "max_ckpt_num", "max_ckpt_mem", "logging_steps", "eval_steps",
                     "save_steps", "use_wandb", "wandb_org", "wandb_group", "wandb_project", "wandb_run_name",
                     "use_tensorboard", "input_key_template", "eval_temperature", "eval_n_samples_per_prompt"},
                    "import.ignored.io");
}

}  // namespace engine::imports
