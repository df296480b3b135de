// Config imports (engine/imports/config_import.h): the issue's LLaMA-Factory LoRA YAML with
// its ZeRO-3 JSON, a torchrun + TRL line, the Trainer-family launch configs TrainSizer
// writes read back, and errors with the line and column. Expected values are read off the
// configs written here, by hand.
#include <gtest/gtest.h>

#include <string>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"

namespace {

using engine::contract::Json;
using engine::imports::ConfigFile;
using engine::imports::ConfigImport;
using engine::imports::ConfigTool;
using engine::imports::ImportConfigs;

const engine::Catalog& Cat() {
  static const engine::service::Session session;
  return session.catalog();
}

engine::Result<ConfigImport> Import(std::vector<ConfigFile> files, const Json& base = Json::object()) {
  return ImportConfigs(files, ConfigTool::kAuto, base, Cat());
}

// LLaMA-Factory's examples/train_lora/llama3_lora_sft_ds3.yaml, as the issue gives it.
constexpr const char* kLlamaFactoryLora = R"(### model
model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
trust_remote_code: true

### method
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 8
lora_target: all
deepspeed: examples/deepspeed/ds_z3_config.json

### dataset
dataset: identity,alpaca_en_demo
template: llama3
cutoff_len: 2048
max_samples: 1000

### output
output_dir: saves/llama3-8b/lora/sft
logging_steps: 10

### train
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
bf16: true
some_future_key: 3
)";

// LLaMA-Factory's examples/deepspeed/ds_z3_config.json.
constexpr const char* kZero3 = R"({
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "gradient_clipping": "auto",
  "zero_allow_untested_optimizer": true,
  "fp16": {"enabled": "auto", "loss_scale": 0},
  "bf16": {"enabled": "auto"},
  "zero_optimization": {
    "stage": 3,
    "overlap_comm": false,
    "contiguous_gradients": true,
    "stage3_gather_16bit_weights_on_model_save": true
  }
})";

TEST(ConfigImport, LlamaFactoryLoraWithZero3Json) {
  auto r = Import({{"llama3_lora_sft_ds3.yaml", kLlamaFactoryLora}, {"ds_z3_config.json", kZero3}},
                  Json{{"gpus", 8}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["method"], "lora");
  EXPECT_EQ(s["lora_rank"], 8);
  EXPECT_EQ(s["seq_len"], 2048);
  EXPECT_EQ(s["micro_batch"], 2);
  EXPECT_EQ(s["zero"], 3);
  EXPECT_EQ(s["sharding"], "deepspeed");
  EXPECT_EQ(s["precision"], "bf16");
  EXPECT_EQ(s["lora_targets"], "all-linear");
  EXPECT_EQ(s["model"], "llama-3-8b");  // the Instruct model has the base's architecture
  EXPECT_EQ(s["framework"], "llama-factory");
  EXPECT_EQ(s["global_batch"], 2 * 8 * 8);  // micro-batch x accumulation x 8 GPUs from the base
  // 1000 samples of at most 2048 tokens.
  EXPECT_DOUBLE_EQ(s["dataset_tokens"].get<double>(), 1000.0 * 2048);
  bool learning_rate = false, unknown = false, stage3_gather = false;
  for (const auto& i : r.value().ignored) {
    if (i.key == "learning_rate") learning_rate = i.why.id == "import.ignored.hyperparameter";
    if (i.key == "some_future_key") unknown = i.why.id == "import.ignored.unknown" && i.line == 29;
    if (i.key == "zero_optimization.stage3_gather_16bit_weights_on_model_save") stage3_gather = true;
  }
  EXPECT_TRUE(learning_rate);
  EXPECT_TRUE(unknown) << "a key the import cannot interpret is named with its line";
  EXPECT_TRUE(stage3_gather);
  // The stage came from the JSON, at its line.
  bool stage_used = false;
  for (const auto& u : r.value().used) stage_used |= u.file == "ds_z3_config.json" && u.key == "zero_optimization.stage" && u.line == 10;
  EXPECT_TRUE(stage_used);
}

// LLaMA-Factory's examples/train_lora/qwen2_5vl_lora_sft.yaml with the vision tower and
// projector unfrozen and the processor's caps set, as a team tuning OCR would have it.
TEST(ConfigImport, LlamaFactoryVisionSwitches) {
  auto r = Import({{"qwen2_5vl_lora_sft.yaml", "model_name_or_path: Qwen/Qwen2.5-VL-7B-Instruct\n"
                                               "image_max_pixels: 262144\nvideo_max_pixels: 16384\n"
                                               "image_min_pixels: 1024\nstage: sft\nfinetuning_type: lora\n"
                                               "freeze_vision_tower: false\nfreeze_multi_modal_projector: false\n"
                                               "freeze_language_model: false\ncutoff_len: 2048\n"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Json& s = r.value().scenario;
  EXPECT_EQ(s["model"], "qwen2.5-vl-7b");
  EXPECT_EQ(s["vision_training"], "lora");  // finetuning_type lora reaches the unfrozen tower
  EXPECT_EQ(s["projector_training"], true);
  EXPECT_EQ(s["freeze_llm"], false);
  EXPECT_EQ(s["image_max_pixels"], 262144);
  EXPECT_EQ(s["video_max_pixels"], 16384);
  bool min_pixels = false;
  for (const auto& i : r.value().ignored) min_pixels |= i.key == "image_min_pixels" && i.why.id == "import.ignored.media_detail";
  EXPECT_TRUE(min_pixels);
}

TEST(ConfigImport, WithoutTheDeepSpeedFileTheStageIsAnAssumption) {
  auto r = Import({{"train.yaml", kLlamaFactoryLora}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r.value().scenario.contains("zero"));
  bool named = false, gpus = false;
  for (const auto& a : r.value().assumed) {
    named |= a.field == "zero" && a.why.english.find("ds_z3_config.json") != std::string::npos;
    gpus |= a.field == "gpus" && a.value == 1;
  }
  EXPECT_TRUE(named);
  EXPECT_TRUE(gpus);
  EXPECT_EQ(r.value().scenario["global_batch"], 16);  // 2 x 8 on the one GPU assumed
}

TEST(ConfigImport, TorchrunWithTrlFlagsGivesTheLayout) {
  const char* line = R"(torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d \
  trl/scripts/sft.py \
  --model_name_or_path Qwen/Qwen2.5-7B-Instruct \
  --max_length 4096 \
  --per_device_train_batch_size 4 \
  --gradient_accumulation_steps 2 \
  --max_steps 1000 \
  --learning_rate 2.0e-4 \
  --gradient_checkpointing \
  --bf16 \
  --fsdp "full_shard auto_wrap" \
  --use_peft --lora_r 32 --lora_target_modules q_proj v_proj
)";
  auto r = Import({{"run.sh", line}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Json& s = r.value().scenario;
  EXPECT_EQ(r.value().files[0].tool, ConfigTool::kTrl);
  EXPECT_EQ(s["gpus"], 16);
  EXPECT_EQ(s["gpus_per_node"], 8);
  EXPECT_EQ(s["zero"], 3);
  EXPECT_EQ(s["sharding"], "fsdp");
  EXPECT_EQ(s["method"], "lora");
  EXPECT_EQ(s["lora_rank"], 32);
  EXPECT_EQ(s["lora_targets"], "qv");
  EXPECT_EQ(s["seq_len"], 4096);
  EXPECT_EQ(s["micro_batch"], 4);
  EXPECT_EQ(s["global_batch"], 4 * 2 * 16);
  EXPECT_EQ(s["activation_checkpointing"], "full");
  EXPECT_EQ(s["model"], "qwen2.5-7b");
  EXPECT_DOUBLE_EQ(s["tokens"].get<double>(), 1000.0 * 128 * 4096);
}

// Every Trainer-family launch config TrainSizer writes reads back to the fields it expresses.
class LaunchRoundTrip : public ::testing::Test {
 protected:
  Json configs;
  Json scenario = {{"model", "llama-3.1-8b"}, {"method", "qlora"},   {"gpus", 16},
                   {"gpus_per_node", 8},      {"lora_rank", 64},     {"lora_targets", "attention"},
                   {"seq_len", 8192},         {"micro_batch", 2},    {"global_batch", 256},
                   {"zero", 3},               {"precision", "bf16"}, {"activation_checkpointing", "full"},
                   {"optimizer", "adamw-8bit"}};
  void SetUp() override {
    const engine::service::Response launch = engine::service::Session().LaunchConfigs(scenario.dump());
    ASSERT_TRUE(launch.ok) << launch.json;
    configs = Json::parse(launch.json);
  }
  void ExpectSame(const Json& imported, std::initializer_list<const char*> fields) {
    for (const char* f : fields) EXPECT_EQ(imported[f], scenario[f]) << f;
  }
};

TEST_F(LaunchRoundTrip, DeepSpeed) {
  auto r = Import({{"ds_config.json", configs["deepspeed"].get<std::string>()}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ExpectSame(r.value().scenario, {"zero", "precision", "micro_batch", "global_batch", "gpus"});
}

TEST_F(LaunchRoundTrip, Torchrun) {
  auto r = Import({{"torchrun.sh", configs["torchrun"].get<std::string>()}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ExpectSame(r.value().scenario, {"model", "method", "gpus", "gpus_per_node", "lora_rank", "lora_targets", "seq_len",
                                  "micro_batch", "global_batch", "zero", "precision", "activation_checkpointing",
                                  "optimizer"});
}

TEST_F(LaunchRoundTrip, LlamaFactoryWithItsDeepSpeedJson) {
  auto r = Import({{"llamafactory.yaml", configs["llamafactory"].get<std::string>()},
                   {"ds_config.json", configs["deepspeed"].get<std::string>()}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ExpectSame(r.value().scenario, {"model", "method", "lora_rank", "lora_targets", "seq_len", "micro_batch",
                                  "global_batch", "zero", "precision", "activation_checkpointing", "optimizer", "gpus"});
}

TEST(ConfigImport, TrlGrpoScriptReadsBack) {
  const Json scenario = {{"model", "qwen2.5-7b"},        {"method", "grpo"},        {"policy_update", "lora"},
                         {"gpus", 8},                    {"group_size", 8},         {"prompts_per_step", 64},
                         {"max_response_len", 2048},     {"prompt_len", 1024},      {"lora_rank", 16}};
  const engine::service::Response launch = engine::service::Session().LaunchConfigs(scenario.dump());
  ASSERT_TRUE(launch.ok) << launch.json;
  auto r = Import({{"train_trl.py", Json::parse(launch.json)["trl"].get<std::string>()}}, Json{{"gpus", 8}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Json& s = r.value().scenario;
  for (const char* f : {"model", "method", "policy_update", "group_size", "prompts_per_step", "max_response_len",
                        "prompt_len", "lora_rank"}) {
    EXPECT_EQ(s[f], scenario[f]) << f;
  }
}

// [SECTION] Bad files: the file, line and column.

std::string ErrorOf(const char* name, const char* text) {
  auto r = Import({{name, text}});
  return r.ok() ? "" : r.error().message;
}

TEST(ConfigImport, MalformedYamlNamesLineAndColumn) {
  const std::string message = ErrorOf("bad.yaml", "stage: sft\nlora_rank: [8\ncutoff_len: 2048\n");
  EXPECT_NE(message.find("bad.yaml line"), std::string::npos) << message;
  EXPECT_NE(message.find("column"), std::string::npos) << message;
}

TEST(ConfigImport, MalformedJsonNamesLineAndColumn) {
  const std::string message = ErrorOf("ds.json", "{\n  \"zero_optimization\": {\"stage\": 3,,}\n}");
  EXPECT_NE(message.find("ds.json line 2"), std::string::npos) << message;
}

TEST(ConfigImport, AValueOfTheWrongKindNamesItsKeyAndPlace) {
  const std::string message = ErrorOf("train.yaml", "finetuning_type: lora\nlora_rank: eight\n");
  EXPECT_EQ(message, "train.yaml line 2, column 12: lora_rank must be an integer, got eight");
}

TEST(ConfigImport, AnOutOfRangeFieldNamesTheKeyThatGaveIt) {
  const std::string message = ErrorOf("train.yaml", "finetuning_type: full\nper_device_train_batch_size: 0\n");
  EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  EXPECT_NE(message.find("per_device_train_batch_size"), std::string::npos) << message;
}

TEST(ConfigImport, RepeatedKeysUnclosedQuotesAndEmptyTextAreRefused) {
  EXPECT_NE(ErrorOf("a.yaml", "lora_rank: 8\nlora_rank: 16\n").find("line 2"), std::string::npos);
  EXPECT_NE(ErrorOf("a.sh", "torchrun train.py --fsdp \"full_shard\n").find("line 1, column 26"), std::string::npos);
  EXPECT_NE(ErrorOf("a.yaml", "  \n").find("empty"), std::string::npos);
  EXPECT_NE(ErrorOf("a.yaml", "- just\n- a list\n").find("not a config"), std::string::npos);
}

TEST(ConfigImport, AnUnknownModelAsksForItsConfigJson) {
  auto r = Import({{"t.yaml", "model_name_or_path: acme/SecretModel-13B\nfinetuning_type: full\n"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r.value().scenario.contains("model"));
  bool asked = false;
  for (const auto& a : r.value().assumed) asked |= a.field == "model" && a.why.id == "import.assumed.model_unknown";
  EXPECT_TRUE(asked);
}

TEST(ConfigImport, PastedTextSplitsAtDashLinesKeepingLineNumbers) {
  const auto files = engine::imports::SplitConfigText("a: 1\n---\nb: x: y\n", "pasted");
  ASSERT_EQ(files.size(), 2u);
  auto r = Import(files);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("line 3"), std::string::npos) << r.error().message;
}

}  // namespace

// [SECTION] Hostile text: bounded work and memory, a message instead.

namespace {

TEST(ConfigImportHostile, AYamlAliasBombIsRefused) {
  std::string text = "a: &a " + std::string(200000, 'x') + "\nb: [";
  for (int i = 0; i < 100; ++i) text += std::string(i ? "," : "") + "*a";
  text += "]\n";
  const std::string message = ErrorOf("bomb.yaml", text.c_str());
  EXPECT_NE(message.find("expands past"), std::string::npos) << message;
}

TEST(ConfigImportHostile, DoublingShellVariablesAreRefused) {
  std::string text = "A=xxxxxxxxxxxxxxxx\n";
  for (int i = 0; i < 40; ++i) text += "A=$A$A\n";
  text += "torchrun --nproc_per_node 8 train.py --lr $A\n";
  const std::string message = ErrorOf("run.sh", text.c_str());
  EXPECT_NE(message.find("expands past"), std::string::npos) << message;
}

TEST(ConfigImportHostile, DeeplyNestedLayerPatternsAndCallsAreRefused) {
  const std::string nested =
      "pretrain_gpt.py --num-layers 4 --hidden-size 64 --num-attention-heads 4 --ffn-hidden-size 128 --vocab-size 1000 "
      "--num-experts 4 --moe-router-topk 2 --moe-ffn-hidden-size 64 --moe-layer-freq \"" + std::string(5000, '(') +
      "[1]" + std::string(5000, ')') + "\"\n";
  EXPECT_FALSE(ErrorOf("m.sh", nested.c_str()).empty());
  std::string calls = "from trl import SFTConfig\nc = SFTConfig(";
  for (int i = 0; i < 5000; ++i) calls += "a=(";
  EXPECT_FALSE(ErrorOf("t.py", calls.c_str()).empty());
}

TEST(ConfigImport, AYamlFileMayStartWithItsDocumentMarker) {
  auto r = Import({{"t.yaml", "---\nfinetuning_type: lora\nlora_rank: 4\n"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().scenario["lora_rank"], 4);
}

TEST(ConfigImport, TheLastOfARepeatedFlagCounts) {
  auto r = Import({{"run.sh", "torchrun --nproc_per_node 8 train.py --max_length 1024 --max_length 4096\n"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().scenario["seq_len"], 4096);
  bool listed = false;
  for (const auto& i : r.value().ignored) listed |= i.key == "max_length" && i.why.id == "import.ignored.overridden";
  EXPECT_TRUE(listed);
}

}  // namespace
