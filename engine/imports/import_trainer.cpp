// Hugging Face Trainer and TRL arguments, as a JSON/YAML file (TrainingArguments.to_json,
// TRL's --config YAML), the flags of a torchrun / accelerate line, or the keyword arguments
// of a TRL script (SFTConfig, DPOConfig, GRPOConfig, LoraConfig). TRL's names:
// trl/trainer/{sft,dpo,grpo}_config.py and trl/trainer/model_config.py (ModelConfig).
#include "engine/imports/import_reader.h"

namespace engine::imports {

namespace {

// The trainer a script runs: its name (grpo.py, dpo.py), or the config class it builds.
std::string TrainerMethod(const ConfigDocument& doc) {
  for (const char* m : {"grpo", "rloo", "ppo", "dpo", "orpo", "kto", "cpo"}) {
    std::string upper(m);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (doc.RunsProgram(m) || doc.RunsProgram(upper + "Config") || doc.RunsProgram(upper + "Trainer")) {
      if (std::string(m) == "rloo") return "grpo";
      if (std::string(m) == "cpo") return "simpo";
      return m;
    }
  }
  if (doc.Has("num_generations")) return "grpo";
  if (doc.Has("max_prompt_length") || doc.Has("precompute_ref_log_probs")) return "dpo";
  return "";
}

void ReadPeft(Reader& reader, const std::string& post) {
  const Setting* use_peft = reader.Take("use_peft");
  const Setting* rank = reader.TakeAny({"lora_r", "peft_config.r"});
  const Setting* four_bit = reader.Take("load_in_4bit");
  const Setting* eight_bit = reader.Take("load_in_8bit");
  const bool peft = (use_peft && reader.Bool(*use_peft).value_or(false)) || rank != nullptr;
  const bool qlora = four_bit && reader.Bool(*four_bit).value_or(false);
  const std::string update = peft ? (qlora ? "qlora" : "lora") : "full";
  const Setting& from = use_peft ? *use_peft : rank ? *rank : four_bit ? *four_bit : DefaultSetting("use_peft", "false");
  if (!post.empty()) {
    reader.Set("method", post, from);
    reader.Set("policy_update", update, from);
  } else if (use_peft || rank || four_bit) {
    reader.Set("method", update, from);
  }
  if (four_bit) reader.Used(*four_bit);
  if (eight_bit && reader.Bool(*eight_bit).value_or(false)) {
    reader.Ignore(*eight_bit, engine::MakeMessage("import.ignored.eight_bit_base"));
  } else if (eight_bit) {
    reader.Used(*eight_bit);
  }
  if (rank) {
    if (auto v = reader.Int(*rank, 1, 65536)) reader.Set("lora_rank", *v, *rank);
  }
  if (const Setting* s = reader.TakeAny({"lora_target_modules", "peft_config.target_modules"})) ReadLoraTargets(reader, *s);
  if (const Setting* s = reader.TakeAny({"lora_dropout", "peft_config.lora_dropout"})) {
    if (auto v = reader.Number(*s, 0, 0.99)) reader.Set("lora_dropout", *v, *s);
  }
  if (const Setting* s = reader.TakeAny({"lora_modules_to_save", "peft_config.modules_to_save"})) {
    ReadModulesToSave(reader, *s);
  }
  reader.IgnoreKeys({"bnb_4bit_quant_type", "use_bnb_nested_quant", "bnb_4bit_compute_dtype", "peft_config.lora_alpha",
                     "lora_alpha", "peft_config.task_type", "peft_config.bias", "lora_task_type", "use_rslora",
                     "use_dora", "lora_bias"},
                    "import.ignored.quantization_detail");
}

// GRPO and PPO: TRL's generation settings (GRPOConfig) as the post-training fields.
void ReadRollout(Reader& reader) {
  if (const Setting* s = reader.Take("num_generations")) {
    if (auto v = reader.Int(*s, 1, 4096)) reader.Set("group_size", *v, *s);
  }
  if (const Setting* s = reader.TakeAny({"max_completion_length", "response_length"})) {  // GRPO, PPO
    if (auto v = reader.Int(*s, 1, 1000000)) {
      reader.Set("max_response_len", *v, *s);
      if (!reader.Field("response_len")) {
        reader.Assume("response_len", nullptr, engine::MakeMessage("import.assumed.response_len"));
      }
    }
  }
  if (const Setting* s = reader.Take("max_prompt_length")) {
    if (auto v = reader.Int(*s, 1, 1000000)) reader.Set("prompt_len", *v, *s);
  }
  if (const Setting* s = reader.TakeAny({"num_iterations", "num_ppo_epochs"})) {
    if (auto v = reader.Int(*s, 1, 100)) reader.Set("ppo_epochs", *v, *s);
  }
  if (const Setting* s = reader.Take("beta")) {
    if (auto v = reader.Number(*s, 0, 1e6)) {
      if (*v == 0) reader.Set("reference", "none", *s);
      else reader.Used(*s);
    }
  }
  if (const Setting* s = reader.Take("vllm_mode")) reader.Set("placement", s->value == "server" ? "separate" : "colocated", *s);
  if (const Setting* s = reader.Take("vllm_gpu_memory_utilization")) {
    if (auto v = reader.Number(*s, 0.01, 1)) reader.Set("gpu_memory_utilization", *v, *s);
  }
  if (const Setting* s = reader.Take("vllm_tensor_parallel_size")) {
    if (auto v = reader.Int(*s, 1, 64)) reader.Set("rollout_tp", *v, *s);
  }
  if (const Setting* s = reader.Take("use_vllm")) reader.Used(*s);
  reader.IgnoreKeys({"generation_batch_size", "steps_per_generation", "temperature", "epsilon", "epsilon_high",
                     "scale_rewards", "mask_truncated_completions", "vllm_server_host", "vllm_server_port",
                     "log_completions", "reward_weights", "reward_funcs", "train_dataset", "args", "importance_sampling_level"},
                    "import.ignored.hyperparameter");
}

}  // namespace

void ReadTrainerArguments(Reader& reader) {
  ConfigDocument& doc = reader.doc();
  const std::string post = TrainerMethod(doc);
  const bool trl = !post.empty() || doc.Has("use_peft") || doc.Has("max_length") || doc.Has("max_seq_length") ||
                   doc.RunsProgram("trl") || doc.RunsProgram("sft");
  const char* framework = trl ? "trl" : "hf-trainer";
  reader.state().result.scenario["framework"] = framework;
  reader.Assume("framework", framework,
                engine::MakeMessage("import.assumed.framework", {engine::TextArg("tool", trl ? "TRL" : "Hugging Face Trainer")}));
  if (const Setting* s = reader.TakeAny({"model_name_or_path", "model", "model_id"})) reader.SetModelFromName(*s);
  ReadPeft(reader, post);
  if (const Setting* s = reader.TakeAny({"max_length", "max_seq_length"})) {
    if (auto v = reader.Int(*s, 1, 1 << 24)) {
      if (post.empty()) {
        reader.Set("seq_len", *v, *s);
      } else if (post != "grpo" && post != "ppo") {
        // DPO-family max_length bounds prompt plus answer; with max_prompt_length the answer is the rest.
        const Setting* prompt = doc.Find("max_prompt_length");
        const std::optional<long> prompt_len = prompt ? reader.Int(*prompt, 1, *v) : std::optional<long>(*v / 2);
        if (prompt_len) reader.Set("response_len", std::max(1L, *v - *prompt_len), *s);
        if (!prompt) reader.Set("prompt_len", std::max(1L, *v / 2), *s);
      } else {
        reader.Used(*s);
      }
    }
  }
  if (!post.empty()) ReadRollout(reader);
  if (const Setting* s = reader.TakeAny({"attn_implementation", "attention_implementation"})) {
    reader.Set("flash_attention", s->value != "eager", *s);
  }
  if (const Setting* s = reader.TakeAny({"use_liger_kernel", "use_liger", "use_liger_loss"})) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("cross_entropy", "chunked", *s);
    else reader.Used(*s);
  }
  if (const Setting* s = reader.Take("precompute_ref_log_probs")) {
    if (auto v = reader.Bool(*s); v && *v) reader.Set("reference", "precomputed", *s);
    else reader.Used(*s);
  }
  reader.IgnoreKeys({"packing", "padding_free", "completion_only_loss", "assistant_only_loss"}, "import.ignored.packing");
  ReadTrainingArguments(reader);
}

}  // namespace engine::imports
