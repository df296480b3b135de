// axolotl and torchtune imports (engine/imports/import_axolotl.cpp, import_torchtune.cpp):
// configs modelled on axolotl's examples/llama-3/qlora.yml and torchtune's
// recipes/configs/llama3_1/8B_lora.yaml, 70B_full.yaml and 8B_qlora_single_device.yaml, with
// variants for FSDP, DPO and GRPO. Expected values are read off the YAML written here, by hand.
#include <gtest/gtest.h>

#include <string>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"

namespace {

using engine::contract::Json;
using engine::imports::ConfigImport;
using engine::imports::ConfigTool;

const engine::Catalog& ToolsCatalog() {
  static const engine::service::Session session;
  return session.catalog();
}

engine::Result<ConfigImport> ImportOne(const std::string& name, const std::string& text) {
  return engine::imports::ImportConfigs({{name, text}}, ConfigTool::kAuto, Json::object(), ToolsCatalog());
}

// The code of why `key` was ignored, or "" when it was not.
std::string IgnoredCode(const ConfigImport& r, const std::string& key) {
  for (const auto& i : r.ignored) {
    if (i.key == key) return i.why.id;
  }
  return "";
}

// The code of the assumption about `field`, or "".
std::string AssumedCode(const ConfigImport& r, const std::string& field) {
  for (const auto& a : r.assumed) {
    if (a.field == field) return a.why.id;
  }
  return "";
}

std::string Error(const engine::Result<ConfigImport>& r) { return r.ok() ? "" : r.error().field + ": " + r.error().message; }

// [SECTION] axolotl

// examples/llama-3/qlora.yml, with one key axolotl does not have.
constexpr const char* kAxolotlQlora = R"(base_model: NousResearch/Meta-Llama-3-8B
model_type: AutoModelForCausalLM
tokenizer_type: AutoTokenizer

load_in_8bit: false
load_in_4bit: true
strict: false

datasets:
  - path: aaditya/alpaca_subset_1
    type: alpaca
dataset_prepared_path:
val_set_size: 0
output_dir: ./outputs/qlora-out

adapter: qlora
lora_model_dir:

sequence_len: 4096
sample_packing: true
pad_to_sequence_len: true

lora_r: 32
lora_alpha: 16
lora_dropout: 0.05
lora_target_modules:
lora_target_linear: true
lora_fan_in_fan_out:

wandb_project:
wandb_entity:
wandb_watch:
wandb_name:
wandb_log_model:

gradient_accumulation_steps: 4
micro_batch_size: 2
num_epochs: 4
optimizer: paged_adamw_32bit
lr_scheduler: cosine
learning_rate: 0.0002

train_on_inputs: false
group_by_length: false
bf16: auto
fp16:
tf32: false

gradient_checkpointing: true
early_stopping_patience:
resume_from_checkpoint:
local_rank:
logging_steps: 1
xformers_attention:
flash_attention: true

warmup_steps: 10
evals_per_epoch: 4
eval_table_size:
saves_per_epoch: 1
debug:
deepspeed:
weight_decay: 0.0
fsdp:
fsdp_config:
special_tokens:
  pad_token: "<|end_of_text|>"
my_future_option: 7
)";

TEST(AxolotlImport, QloraExampleGivesTheScenario) {
  auto r = ImportOne("qlora.yml", kAxolotlQlora);
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  ASSERT_EQ(r.value().files.size(), 1u);
  EXPECT_EQ(r.value().files[0].tool, ConfigTool::kAxolotl);
  EXPECT_EQ(s["framework"], "axolotl");
  EXPECT_EQ(s["model"], "llama-3-8b");  // NousResearch/Meta-Llama-3-8B: the architecture of the preset
  EXPECT_EQ(s["method"], "qlora");
  EXPECT_EQ(s["lora_rank"], 32);
  EXPECT_EQ(s["lora_targets"], "all-linear");
  EXPECT_DOUBLE_EQ(s["lora_dropout"].get<double>(), 0.05);
  EXPECT_EQ(s["seq_len"], 4096);
  EXPECT_EQ(s["micro_batch"], 2);
  EXPECT_EQ(s["global_batch"], 8);  // 2 × 4 accumulation × 1 GPU
  EXPECT_DOUBLE_EQ(s["epochs"].get<double>(), 4);
  EXPECT_EQ(s["activation_checkpointing"], "full");
  EXPECT_EQ(s["flash_attention"], true);
  EXPECT_EQ(s["precision"], "bf16");
  EXPECT_EQ(s["optimizer"], "adamw");  // paged_adamw_32bit
  EXPECT_FALSE(s.contains("zero"));    // deepspeed: and fsdp: are empty
  EXPECT_FALSE(s.contains("sharding"));
  EXPECT_EQ(AssumedCode(r.value(), "precision"), "import.assumed.bf16_auto");
  EXPECT_EQ(AssumedCode(r.value(), "model"), "import.assumed.model_variant");
  EXPECT_EQ(IgnoredCode(r.value(), "my_future_option"), "import.ignored.unknown");
  EXPECT_EQ(IgnoredCode(r.value(), "sample_packing"), "import.ignored.packing");
  EXPECT_EQ(IgnoredCode(r.value(), "learning_rate"), "import.ignored.hyperparameter");
  EXPECT_EQ(IgnoredCode(r.value(), "datasets.0.path"), "import.ignored.io");
  EXPECT_EQ(IgnoredCode(r.value(), "special_tokens.pad_token"), "import.ignored.io");
  EXPECT_EQ(IgnoredCode(r.value(), "tf32"), "import.ignored.tf32");
  EXPECT_EQ(IgnoredCode(r.value(), "deepspeed"), "import.ignored.empty");
  EXPECT_EQ(IgnoredCode(r.value(), "wandb_project"), "import.ignored.io");
}

TEST(AxolotlImport, MalformedRankNamesTheLine) {
  std::string text = kAxolotlQlora;
  text.replace(text.find("lora_r: 32"), 10, "lora_r: eight");
  auto r = ImportOne("qlora.yml", text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("lora_r"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("line 23"), std::string::npos) << r.error().message;
}

TEST(AxolotlImport, UnknownAdapterFails) {
  auto r = ImportOne("x.yml", "base_model: meta-llama/Llama-3.1-8B\nadapter: prefix-tuning\nsequence_len: 2048\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 2"), std::string::npos) << r.error().message;
}

// LoRA on an 8-bit base, FSDP1 with parameter offload (examples/llama-3/qlora-fsdp-70b.yaml's
// fsdp section), checkpoints offloaded, Liger's fused linear cross-entropy, max_steps.
constexpr const char* kAxolotlFsdp = R"(base_model: meta-llama/Llama-3.1-8B
load_in_8bit: true
adapter: lora
lora_r: 16
lora_target_modules:
  - q_proj
  - v_proj
sequence_len: 2048
micro_batch_size: 1
gradient_accumulation_steps: 8
max_steps: 100
bf16: true
fp16: false
gradient_checkpointing: offload
plugins:
  - axolotl.integrations.liger.LigerPlugin
liger_rope: true
liger_rms_norm: true
liger_glu_activation: true
liger_fused_linear_cross_entropy: true
fsdp:
  - full_shard
  - auto_wrap
fsdp_config:
  fsdp_limit_all_gathers: true
  fsdp_sync_module_states: true
  fsdp_offload_params: true
  fsdp_use_orig_params: false
  fsdp_cpu_ram_efficient_loading: true
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer
  fsdp_state_dict_type: FULL_STATE_DICT
  fsdp_sharding_strategy: FULL_SHARD
)";

TEST(AxolotlImport, FsdpOffloadAndLiger) {
  auto r = ImportOne("lora-fsdp.yml", kAxolotlFsdp);
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["model"], "llama-3.1-8b");
  EXPECT_EQ(s["method"], "lora");  // a frozen 8-bit base is sized as 16-bit
  EXPECT_EQ(IgnoredCode(r.value(), "load_in_8bit"), "import.ignored.eight_bit_base");
  EXPECT_EQ(s["lora_rank"], 16);
  EXPECT_EQ(s["lora_targets"], "qv");
  EXPECT_EQ(s["zero"], 3);
  EXPECT_EQ(s["sharding"], "fsdp");
  EXPECT_EQ(s["offload"], "optimizer+params");
  EXPECT_EQ(s["activation_checkpointing"], "full");
  EXPECT_EQ(s["activation_offload"], true);
  EXPECT_EQ(s["cross_entropy"], "chunked");
  EXPECT_EQ(s["kernels"], "fused");
  EXPECT_EQ(s["precision"], "bf16");
  EXPECT_EQ(s["global_batch"], 8);                                   // 1 × 8 × 1 GPU
  EXPECT_DOUBLE_EQ(s["tokens"].get<double>(), 100.0 * 8 * 2048);    // max_steps × global_batch × sequence_len
  EXPECT_EQ(IgnoredCode(r.value(), "fsdp_config.fsdp_state_dict_type"), "import.ignored.fsdp_config");
}

// The FSDP2 form: fsdp_version 2, reshard_after_forward false keeps the gathered weights.
TEST(AxolotlImport, Fsdp2WithoutReshardIsZero2) {
  auto r = ImportOne("fft.yml", R"(base_model: Qwen/Qwen2.5-7B
sequence_len: 8192
micro_batch_size: 1
gradient_accumulation_steps: 2
num_epochs: 1
bf16: true
fsdp_version: 2
fsdp_config:
  offload_params: false
  auto_wrap_policy: TRANSFORMER_BASED_WRAP
  transformer_layer_cls_to_wrap: Qwen2DecoderLayer
  reshard_after_forward: false
  activation_checkpointing: true
cut_cross_entropy: true
plugins:
  - axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["model"], "qwen2.5-7b");
  EXPECT_EQ(s["method"], "full");  // no adapter
  EXPECT_EQ(AssumedCode(r.value(), "method"), "import.assumed.axolotl_full");
  EXPECT_EQ(s["zero"], 2);
  EXPECT_EQ(s["sharding"], "fsdp");
  EXPECT_FALSE(s.contains("offload"));
  EXPECT_EQ(s["activation_checkpointing"], "full");
  EXPECT_EQ(s["cross_entropy"], "chunked");
  EXPECT_EQ(s["seq_len"], 8192);
}

TEST(AxolotlImport, DeepSpeedFileIsNamed) {
  auto r = ImportOne("ds.yml", R"(base_model: meta-llama/Llama-3.1-8B
sequence_len: 4096
micro_batch_size: 2
gradient_accumulation_steps: 4
deepspeed: deepspeed_configs/zero3_bf16.json
bf16: true
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  EXPECT_EQ(r.value().scenario["sharding"], "deepspeed");
  EXPECT_FALSE(r.value().scenario.contains("zero"));
  EXPECT_EQ(AssumedCode(r.value(), "zero"), "import.assumed.deepspeed_file");
}

TEST(AxolotlImport, DpoSplitsTheSequence) {
  auto r = ImportOne("dpo.yml", R"(base_model: Qwen/Qwen2.5-7B-Instruct
rl: ipo
adapter: lora
lora_r: 64
lora_target_linear: true
sequence_len: 2048
max_prompt_len: 512
micro_batch_size: 2
gradient_accumulation_steps: 4
rl_beta: 0.1
datasets:
  - path: Intel/orca_dpo_pairs
    type: chatml.intel
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["method"], "dpo");  // IPO is DPO with another loss
  EXPECT_EQ(s["policy_update"], "lora");
  EXPECT_EQ(s["model"], "qwen2.5-7b");
  EXPECT_EQ(s["prompt_len"], 512);
  EXPECT_EQ(s["response_len"], 1536);  // 2048 - 512
  EXPECT_EQ(s["prompts_per_step"], 8);  // 2 pairs × 4 × 1 GPU
  EXPECT_FALSE(s.contains("seq_len"));
}

TEST(AxolotlImport, GrpoReadsTheTrlSection) {
  auto r = ImportOne("grpo.yml", R"(base_model: Qwen/Qwen2.5-1.5B-Instruct
rl: grpo
adapter: qlora
load_in_4bit: true
lora_r: 16
lora_target_linear: true
sequence_len: 1024
max_prompt_len: 256
micro_batch_size: 8
gradient_accumulation_steps: 2
trl:
  beta: 0.0
  use_vllm: true
  vllm_mode: colocate
  num_generations: 8
  max_completion_length: 768
  reward_funcs:
    - rewards.accuracy_reward
vllm:
  host: 0.0.0.0
  port: 8000
  gpu_memory_utilization: 0.4
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["method"], "grpo");
  EXPECT_EQ(s["policy_update"], "qlora");
  EXPECT_EQ(s["model"], "qwen2.5-1.5b");
  EXPECT_EQ(s["group_size"], 8);
  EXPECT_EQ(s["max_response_len"], 768);
  EXPECT_EQ(s["prompt_len"], 256);
  EXPECT_EQ(s["reference"], "none");  // beta 0: no KL term
  EXPECT_EQ(s["placement"], "colocated");
  EXPECT_DOUBLE_EQ(s["gpu_memory_utilization"].get<double>(), 0.4);
  EXPECT_EQ(s["prompts_per_step"], 2);  // 8 × 2 × 1 GPU answers / 8 per group
  EXPECT_EQ(IgnoredCode(r.value(), "vllm.host"), "import.ignored.rollout_server");
  EXPECT_EQ(IgnoredCode(r.value(), "trl.reward_funcs"), "import.ignored.hyperparameter");
}

// [SECTION] torchtune

// recipes/configs/llama3_1/8B_lora.yaml, with one key torchtune does not have.
constexpr const char* kTorchtuneLora = R"(output_dir: /tmp/torchtune/llama3_1_8B/lora

# Model Arguments
model:
  _component_: torchtune.models.llama3_1.lora_llama3_1_8b
  lora_attn_modules: ['q_proj', 'v_proj', 'output_proj']
  apply_lora_to_mlp: True
  apply_lora_to_output: False
  lora_rank: 8
  lora_alpha: 16
  lora_dropout: 0.0

# Tokenizer
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model
  max_seq_len: 4096

checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/Meta-Llama-3.1-8B-Instruct/
  checkpoint_files: [
    model-00001-of-00004.safetensors,
    model-00002-of-00004.safetensors,
    model-00003-of-00004.safetensors,
    model-00004-of-00004.safetensors
  ]
  recipe_checkpoint: null
  output_dir: ${output_dir}
  model_type: LLAMA3
resume_from_checkpoint: False
save_adapter_weights_only: False

# Dataset and Sampler
dataset:
  _component_: torchtune.datasets.alpaca_cleaned_dataset
  packed: False
seed: null
shuffle: True
batch_size: 2

# Optimizer and Scheduler
optimizer:
  _component_: torch.optim.AdamW
  fused: True
  weight_decay: 0.01
  lr: 3e-4
lr_scheduler:
  _component_: torchtune.training.lr_schedulers.get_cosine_schedule_with_warmup
  num_warmup_steps: 100

loss:
  _component_: torchtune.modules.loss.LinearCrossEntropyLoss

# Training
epochs: 1
max_steps_per_epoch: null
gradient_accumulation_steps: 8
clip_grad_norm: null
compile: False

# Logging
metric_logger:
  _component_: torchtune.training.metric_logging.DiskLogger
  log_dir: ${output_dir}/logs
log_every_n_steps: 1
log_peak_memory_stats: True
log_level: INFO

# Environment
device: cuda
dtype: bf16

# Activations Memory
enable_activation_checkpointing: False
enable_activation_offloading: False
my_future_option: 7

# Profiler (disabled)
profiler:
  _component_: torchtune.training.setup_torch_profiler
  enabled: False
  output_dir: ${output_dir}/profiling_outputs
  cpu: True
  cuda: True
  profile_memory: False
  with_stack: False
  record_shapes: True
  with_flops: False
  wait_steps: 5
  warmup_steps: 3
  active_steps: 2
  num_cycles: 1
)";

TEST(TorchtuneImport, LoraRecipeGivesTheScenario) {
  auto r = ImportOne("8B_lora.yaml", kTorchtuneLora);
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  ASSERT_EQ(r.value().files.size(), 1u);
  EXPECT_EQ(r.value().files[0].tool, ConfigTool::kTorchtune);
  EXPECT_EQ(s["framework"], "torchtune");
  EXPECT_EQ(s["model"], "llama-3.1-8b");
  EXPECT_EQ(s["method"], "lora");
  EXPECT_EQ(s["lora_rank"], 8);
  EXPECT_EQ(s["lora_targets"], "all-linear");  // apply_lora_to_mlp
  EXPECT_EQ(AssumedCode(r.value(), "lora_targets"), "import.assumed.lora_targets");  // k_proj has none
  EXPECT_DOUBLE_EQ(s["lora_dropout"].get<double>(), 0.0);
  EXPECT_EQ(s["seq_len"], 4096);
  EXPECT_EQ(s["micro_batch"], 2);
  EXPECT_EQ(s["global_batch"], 16);  // 2 × 8 accumulation × 1 GPU
  EXPECT_DOUBLE_EQ(s["epochs"].get<double>(), 1);
  EXPECT_EQ(s["optimizer"], "adamw");
  EXPECT_EQ(s["fused_optimizer"], true);
  EXPECT_EQ(s["cross_entropy"], "chunked");
  EXPECT_EQ(s["precision"], "bf16-pure");  // torchtune trains in bf16 without an fp32 master copy
  EXPECT_EQ(s["activation_checkpointing"], "none");
  EXPECT_EQ(s["activation_offload"], false);
  EXPECT_FALSE(s.contains("zero"));  // a distributed recipe, but nothing says how it shards
  EXPECT_FALSE(s.contains("kernels"));  // compile: False
  EXPECT_EQ(IgnoredCode(r.value(), "my_future_option"), "import.ignored.unknown");
  EXPECT_EQ(IgnoredCode(r.value(), "dataset.packed"), "import.ignored.packing");
  EXPECT_EQ(IgnoredCode(r.value(), "checkpointer.checkpoint_files"), "import.ignored.io");
  EXPECT_EQ(IgnoredCode(r.value(), "optimizer.lr"), "import.ignored.hyperparameter");
  EXPECT_EQ(IgnoredCode(r.value(), "max_steps_per_epoch"), "import.ignored.empty");
  EXPECT_EQ(IgnoredCode(r.value(), "model.lora_alpha"), "import.ignored.hyperparameter");
}

TEST(TorchtuneImport, MalformedValueNamesTheLine) {
  std::string text = kTorchtuneLora;
  text.replace(text.find("lora_rank: 8"), 12, "lora_rank: eight");
  auto r = ImportOne("8B_lora.yaml", text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 9"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("model.lora_rank"), std::string::npos) << r.error().message;
}

// recipes/configs/llama3_1/70B_full.yaml: FSDP2 with CPU offload.
TEST(TorchtuneImport, FullRecipeWithCpuOffload) {
  auto r = ImportOne("70B_full.yaml", R"(output_dir: /tmp/torchtune/llama3_1_70B/full
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/Meta-Llama-3.1-70B-Instruct/original/tokenizer.model
  max_seq_len: 2048
dataset:
  _component_: torchtune.datasets.alpaca_dataset
  packed: False
seed: null
shuffle: True
model:
  _component_: torchtune.models.llama3_1.llama3_1_70b
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/Meta-Llama-3.1-70B-Instruct/
  recipe_checkpoint: null
  output_dir: ${output_dir}
  model_type: LLAMA3
resume_from_checkpoint: False
batch_size: 2
epochs: 1
optimizer:
  _component_: torch.optim.AdamW
  lr: 2e-5
  fused: True
loss:
  _component_: torchtune.modules.loss.LinearCrossEntropyLoss
max_steps_per_epoch: 50
clip_grad_norm: null
compile: False
gradient_accumulation_steps: 1
optimizer_in_bwd: False
device: cuda
enable_activation_checkpointing: True
enable_activation_offloading: False
custom_sharded_layers: ['tok_embeddings', 'output']
fsdp_cpu_offload: True
dtype: bf16
metric_logger:
  _component_: torchtune.training.metric_logging.DiskLogger
  log_dir: ${output_dir}/logs
log_every_n_steps: 1
log_peak_memory_stats: True
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["model"], "llama-3.1-70b");
  EXPECT_EQ(s["method"], "full");
  EXPECT_EQ(s["zero"], 3);
  EXPECT_EQ(s["offload"], "optimizer+params");
  EXPECT_EQ(s["optimizer_in_backward"], false);
  EXPECT_EQ(s["activation_checkpointing"], "full");
  EXPECT_EQ(s["seq_len"], 2048);
  EXPECT_EQ(s["global_batch"], 2);
  EXPECT_DOUBLE_EQ(s["tokens"].get<double>(), 50.0 * 2 * 2048);  // 50 steps × 1 epoch × 2 × 2048
  EXPECT_EQ(IgnoredCode(r.value(), "custom_sharded_layers"), "import.ignored.fsdp_config");
}

// recipes/configs/llama3_1/8B_qlora_single_device.yaml, compiled, checkpoints offloaded.
TEST(TorchtuneImport, QloraSingleDevice) {
  auto r = ImportOne("8B_qlora_single_device.yaml", R"(model:
  _component_: torchtune.models.llama3_1.qlora_llama3_1_8b
  lora_attn_modules: ['q_proj', 'k_proj', 'v_proj', 'output_proj']
  apply_lora_to_mlp: True
  apply_lora_to_output: False
  lora_rank: 8
  lora_alpha: 16
  lora_dropout: 0.0
tokenizer:
  _component_: torchtune.models.llama3.llama3_tokenizer
  path: /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model
  max_seq_len: 8192
batch_size: 4
epochs: 2
gradient_accumulation_steps: 4
optimizer:
  _component_: bitsandbytes.optim.PagedAdamW8bit
  lr: 3e-4
loss:
  _component_: torchtune.modules.loss.CEWithChunkedOutputLoss
compile: True
device: cuda
dtype: bf16
enable_activation_checkpointing: True
enable_activation_offloading: True
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["method"], "qlora");
  EXPECT_EQ(s["model"], "llama-3.1-8b");
  EXPECT_EQ(s["lora_targets"], "all-linear");
  EXPECT_EQ(AssumedCode(r.value(), "lora_targets"), "");  // every attention projection and the MLP
  EXPECT_EQ(s["optimizer"], "adamw-8bit");
  EXPECT_EQ(s["kernels"], "fused");
  EXPECT_EQ(s["activation_offload"], true);
  EXPECT_EQ(s["seq_len"], 8192);
  EXPECT_EQ(s["global_batch"], 16);
  EXPECT_DOUBLE_EQ(s["epochs"].get<double>(), 2);
  EXPECT_FALSE(s.contains("zero"));
}

TEST(TorchtuneImport, QwenBuilderAndQueryValueAdapters) {
  auto r = ImportOne("qwen.yaml", R"(model:
  _component_: torchtune.models.qwen2_5.lora_qwen2_5_7b_instruct
  lora_attn_modules: ['q_proj', 'v_proj']
  apply_lora_to_mlp: False
  lora_rank: 16
tokenizer:
  _component_: torchtune.models.qwen2_5.qwen2_5_tokenizer
  max_seq_len: 1024
batch_size: 4
dtype: fp32
loss:
  _component_: torch.nn.CrossEntropyLoss
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["model"], "qwen2.5-7b");
  EXPECT_EQ(s["method"], "lora");
  EXPECT_EQ(s["lora_targets"], "qv");
  EXPECT_EQ(s["precision"], "fp32");
  EXPECT_EQ(s["cross_entropy"], "eager");
}

TEST(TorchtuneImport, UnknownBuilderKeepsTheModel) {
  auto r = ImportOne("2B_full.yaml", R"(model:
  _component_: torchtune.models.gemma.gemma_2b
tokenizer:
  _component_: torchtune.models.gemma.gemma_tokenizer
batch_size: 2
)");
  ASSERT_TRUE(r.ok()) << Error(r);
  EXPECT_FALSE(r.value().scenario.contains("model"));
  EXPECT_EQ(r.value().scenario["method"], "full");
  EXPECT_EQ(AssumedCode(r.value(), "model"), "import.assumed.model_unknown");
}

}  // namespace
