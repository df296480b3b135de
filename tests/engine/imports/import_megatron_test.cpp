// Megatron-LM arguments and NeMo 1.x YAML imported as a scenario (engine/imports/import_megatron.cpp):
// a launch script written by hand in the style of Megatron-LM's examples/gpt3, the round trip
// through `trainsizer launch --tool megatron` (engine/exports/launch_configs.cpp MegatronCommand),
// a NeMo megatron_gpt_config.yaml, and values that are not numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"

namespace engine::imports {
namespace {

using contract::Json;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Imported {
  engine::Result<ConfigImport> result;
  Json json;  // ConfigImportToJson, when it worked
};

Imported Import(const std::string& name, const std::string& text, const Json& base = Json::object()) {
  engine::service::Session session;
  engine::Result<ConfigImport> r = ImportConfigs({{name, text}}, ConfigTool::kAuto, base, session.catalog());
  Json json = r.ok() ? ConfigImportToJson(r.value()) : Json();
  return {std::move(r), std::move(json)};
}

// The entry of `list` ("used", "ignored") for `key`, or null.
Json Entry(const Json& imported, const char* list, const std::string& key) {
  for (const Json& e : imported[list]) {
    if (e["key"] == key) return e;
  }
  return nullptr;
}

Json Assumed(const Json& imported, const std::string& field) {
  for (const Json& e : imported["assumed"]) {
    if (e["field"] == field) return e;
  }
  return nullptr;
}

// [SECTION] 1. a launch script written by hand

// examples/gpt3/train_gpt3_175b_distributed.sh of Megatron-LM, on 16 nodes: bash arrays of
// flags expanded into the torchrun line, variables, comments after flags.
constexpr const char* kGpt3Script = R"(#!/bin/bash

# Runs the "175B" parameter model

export CUDA_DEVICE_MAX_CONNECTIONS=1

GPUS_PER_NODE=8
# Change for multinode config
MASTER_ADDR=localhost
MASTER_PORT=6000
NUM_NODES=16
NODE_RANK=0
WORLD_SIZE=$(($GPUS_PER_NODE*$NUM_NODES))

CHECKPOINT_PATH=$1 #<Specify path>
TENSORBOARD_LOGS_PATH=$2 #<Specify path>
VOCAB_FILE=$3 #<Specify path to file>/gpt2-vocab.json
MERGE_FILE=$4 #<Specify path to file>/gpt2-merges.txt
DATA_PATH=$5 #<Specify path and file prefix>_text_document

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr $MASTER_ADDR
    --master_port $MASTER_PORT
)

GPT_MODEL_ARGS=(
    --num-layers 96
    --hidden-size 12288
    --num-attention-heads 96
    --seq-length 2048
    --max-position-embeddings 2048
    --attention-backend auto # Can use (flash/fused/unfused/local)
)

TRAINING_ARGS=(
    --micro-batch-size 1
    --global-batch-size 1536
    --rampup-batch-size 16 16 5859375
    --train-iters 500000
    --weight-decay 0.1
    --adam-beta1 0.9
    --adam-beta2 0.95
    --init-method-std 0.006
    --clip-grad 1.0
    --fp16
    --lr 6.0e-5
    --lr-decay-style cosine
    --min-lr 6.0e-6
    --lr-warmup-fraction .001
    --lr-decay-iters 430000
)

MODEL_PARALLEL_ARGS=(
	--tensor-model-parallel-size 8
	--pipeline-model-parallel-size 16
)

DATA_ARGS=(
    --data-path $DATA_PATH
    --vocab-file $VOCAB_FILE
    --merge-file $MERGE_FILE
    --split 949,50,1
)

EVAL_AND_LOGGING_ARGS=(
    --log-interval 100
    --save-interval 10000
    --eval-interval 1000
    --save $CHECKPOINT_PATH
    --load $CHECKPOINT_PATH
    --eval-iters 10
    --tensorboard-dir $TENSORBOARD_LOGS_PATH
)

torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${GPT_MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${MODEL_PARALLEL_ARGS[@]} \
    ${DATA_ARGS[@]} \
    ${EVAL_AND_LOGGING_ARGS[@]}
)";

TEST(ImportMegatron, Gpt3ScriptWithBashArrays) {
  const Imported r = Import("train_gpt3_175b_distributed.sh", kGpt3Script);
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  const Json& s = r.json["scenario"];
  EXPECT_EQ(r.json["files"][0]["tool"], "megatron");
  EXPECT_EQ(s["framework"], "megatron");
  EXPECT_EQ(s["gpus"], 128);  // 16 nodes x 8
  EXPECT_EQ(s["gpus_per_node"], 8);
  EXPECT_EQ(s["tp"], 8);
  EXPECT_EQ(s["pp"], 16);
  EXPECT_EQ(s["micro_batch"], 1);
  EXPECT_EQ(s["global_batch"], 1536);
  EXPECT_EQ(s["seq_len"], 2048);
  EXPECT_EQ(s["precision"], "fp16");
  EXPECT_EQ(s["zero"], 0);  // no --use-distributed-optimizer
  EXPECT_EQ(s["activation_checkpointing"], "none");
  // 500000 iterations x 1536 sequences x 2048 tokens.
  EXPECT_DOUBLE_EQ(s["tokens"].get<double>(), 500000.0 * 1536 * 2048);
  // The flags with Megatron-LM's defaults (4h GELU MLP, LayerNorm, biases, tied learned
  // positions) are the catalog's GPT-3 175B.
  EXPECT_EQ(s["model"], "gpt-3-175b");
  EXPECT_EQ(Assumed(r.json, "model")["code"], "import.assumed.model_architecture");

  EXPECT_EQ(Entry(r.json, "ignored", "lr")["code"], "import.ignored.hyperparameter");
  EXPECT_EQ(Entry(r.json, "ignored", "rampup-batch-size")["code"], "import.ignored.hyperparameter");
  EXPECT_EQ(Entry(r.json, "ignored", "data-path")["code"], "import.ignored.io");
  EXPECT_EQ(Entry(r.json, "ignored", "tensorboard-dir")["code"], "import.ignored.io");
  EXPECT_EQ(Entry(r.json, "ignored", "master_addr")["code"], "import.ignored.launcher");
  for (const Json& e : r.json["ignored"]) {
    EXPECT_NE(e["code"], "import.ignored.unknown") << e.dump();
  }
  // Where a key stands: line and column in the script.
  const Json tp = Entry(r.json, "used", "tensor-model-parallel-size");
  ASSERT_FALSE(tp.is_null());
  EXPECT_EQ(tp["column"], 2);  // after a tab
  EXPECT_GT(tp["line"].get<int>(), 50);
}

// [SECTION] 2. round trip through the exporter

struct RoundTrip {
  const char* name;
  const char* scenario;
};

class MegatronRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

// Every field the scenario gives comes back from its Megatron-LM command, but for those the
// command does not carry or carries as something else.
TEST_P(MegatronRoundTrip, LaunchTextImportsBack) {
  const Json scenario = Json::parse(GetParam().scenario);
  engine::service::Session session;
  const engine::service::Response launch = session.LaunchConfigs(scenario.dump());
  ASSERT_TRUE(launch.ok) << launch.json;
  const std::string text = Json::parse(launch.json)["megatron"];
  Json base = {{"gpus", scenario["gpus"]}};
  if (scenario.contains("gpu")) base["gpu"] = scenario["gpu"];
  const engine::Result<ConfigImport> r = ImportConfigs({{"megatron.sh", text}}, ConfigTool::kAuto, base, session.catalog());
  ASSERT_TRUE(r.ok()) << r.error().message << "\n" << text;
  const Json imported = ConfigImportToJson(r.value());
  const Json& s = imported["scenario"];
  for (const auto& [key, value] : scenario.items()) {
    // Not in the command: the GPU, and the vocabulary of an architecture (no --vocab-size).
    if (key == "tokens" || key == "gpu") continue;
    ASSERT_TRUE(s.contains(key)) << key << "\n" << text;
    if (key == "model" && value.is_object()) {
      ASSERT_TRUE(s[key].is_object()) << s[key].dump();
      for (const auto& [field, v] : value.items()) {
        if (field == "vocab") continue;
        EXPECT_EQ(s[key][field], v) << "model." << field << "\n" << text;
      }
    } else {
      EXPECT_EQ(s[key], value) << key << "\n" << text;
    }
  }
  // Tokens: whole steps of global_batch x seq_len sequences.
  if (scenario.contains("tokens")) {
    const double tokens = scenario["tokens"].get<double>();
    EXPECT_NEAR(s["tokens"].get<double>(), tokens, 0.01 * tokens);
  }
  for (const Json& e : imported["ignored"]) {
    EXPECT_NE(e["code"], "import.ignored.unknown") << e.dump() << "\n" << text;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, MegatronRoundTrip,
    ::testing::Values(
        RoundTrip{"Llama70bFp8Selective",
                  R"({"model":"llama-3.1-70b","gpus":64,"tp":8,"pp":4,"micro_batch":1,"global_batch":512,
                      "seq_len":8192,"precision":"fp8","activation_checkpointing":"selective","tokens":1e12})"},
        RoundTrip{"MixtralExpertsBlockRecompute",
                  R"({"model":"mixtral-8x7b","framework":"megatron","gpus":64,"tp":2,"pp":4,"virtual_pipeline":2,
                      "ep":8,"etp":1,"zero":1,"sequence_parallel":true,"micro_batch":2,"global_batch":256,
                      "seq_len":4096,"precision":"bf16","activation_checkpointing":"full","recompute_layers":8,
                      "tokens":1e11})"},
        RoundTrip{"Qwen3MoeNvfp4Bf16LayersOffload",
                  R"({"model":"qwen3-30b-a3b","framework":"megatron","gpu":"b200-180gb","gpus":16,"tp":1,"pp":2,"cp":2,"ep":4,
                      "micro_batch":1,"global_batch":64,"seq_len":16384,"precision":"nvfp4","bf16_layers":4,
                      "activation_checkpointing":"selective","recompute_modules":["core_attn","mlp"],
                      "activation_offload":true,"flash_attention":true,"attention_backend":"flash-attn"})"},
        RoundTrip{"DeepSeekV3DenseLayersFirst",
                  R"({"model":"deepseek-v3","framework":"megatron","gpu":"b200-180gb","gpus":256,"tp":8,"pp":1,"ep":32,
                      "micro_batch":1,"global_batch":1024,"seq_len":4096,"precision":"mxfp8",
                      "activation_checkpointing":"full","recompute_layers":0})"},
        RoundTrip{"CustomArchitectureUnevenStages",
                  R"({"model":{"layers":30,"hidden":2048,"heads":16,"kv_heads":4,"ffn":5632,"vocab":50000,
                      "mlp":"swiglu","norm":"rmsnorm","tied_embeddings":true,"qkv_bias":true,"max_context":4096},
                      "framework":"megatron","gpus":8,"pp":4,"first_stage_layers":6,"last_stage_layers":6,
                      "micro_batch":4,"global_batch":64,"seq_len":4096,"precision":"bf16",
                      "flash_attention":false,"optimizer":"sgd"})"}),
    [](const ::testing::TestParamInfo<RoundTrip>& info) { return std::string(info.param.name); });

// The command carries no --vocab-size: an architecture comes back with 32000, said so.
TEST(ImportMegatron, RoundTripOfAnArchitectureAssumesTheVocabulary) {
  engine::service::Session session;
  const Json scenario = Json::parse(R"({"model":{"layers":24,"hidden":2048,"heads":16,"ffn":8192,"vocab":50000,
    "mlp":"gelu","norm":"layernorm","linear_bias":true,"learned_positions":2048,"max_context":2048},
    "gpus":8,"seq_len":2048,"precision":"bf16"})");
  const std::string text = Json::parse(session.LaunchConfigs(scenario.dump()).json)["megatron"];
  const Imported r = Import("megatron.sh", text, {{"gpus", 8}});
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  const Json& m = r.json["scenario"]["model"];
  EXPECT_EQ(m["name"], "Megatron-LM model");
  EXPECT_EQ(m["layers"], 24);
  EXPECT_EQ(m["ffn"], 8192);
  EXPECT_EQ(m["mlp"], "gelu");
  EXPECT_EQ(m["norm"], "layernorm");
  EXPECT_EQ(m["linear_bias"], true);
  EXPECT_EQ(m["learned_positions"], 2048);
  EXPECT_EQ(m["vocab"], 32000);
  EXPECT_EQ(Assumed(r.json, "model.vocab")["code"], "import.assumed.vocab");
}

TEST(ImportMegatron, RoundTripNamesThePresetItMatched) {
  engine::service::Session session;
  const Json scenario = Json::parse(R"({"model":"llama-3.1-70b","gpus":64,"tp":8,"pp":4,"micro_batch":1,
    "global_batch":512,"seq_len":8192,"precision":"fp8","activation_checkpointing":"selective"})");
  const std::string text = Json::parse(session.LaunchConfigs(scenario.dump()).json)["megatron"];
  const Imported r = Import("megatron.sh", text, {{"gpus", 64}});
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  EXPECT_EQ(Assumed(r.json, "model")["code"], "import.assumed.model_architecture");
  EXPECT_EQ(Entry(r.json, "used", "num-layers")["fields"]["model"], "llama-3.1-70b");
  EXPECT_FALSE(Entry(r.json, "used", "hidden-size").is_null());
  EXPECT_EQ(Entry(r.json, "ignored", "rotary-base")["code"], "import.ignored.rope");
  EXPECT_EQ(Entry(r.json, "used", "train-iters")["fields"].contains("tokens"), true);
}

TEST(ImportMegatron, VocabSizeChoosesAmongPresetsOfOneShape) {
  // Llama 2 70B and Llama 3 70B have the same layers; the vocabulary tells them apart.
  const std::string flags =
      "pretrain_gpt.py --num-layers 80 --hidden-size 8192 --num-attention-heads 64 --ffn-hidden-size 28672 "
      "--group-query-attention --num-query-groups 8 --swiglu --normalization RMSNorm --position-embedding-type rope "
      "--untie-embeddings-and-output-weights --disable-bias-linear --seq-length 4096 --max-position-embeddings 4096 ";
  const Imported llama2 = Import("a.sh", flags + "--vocab-size 32000");
  ASSERT_TRUE(llama2.result.ok()) << llama2.result.error().message;
  EXPECT_EQ(llama2.json["scenario"]["model"], "llama-2-70b");
  // A vocabulary no preset of the shape has: the preset with it changed.
  const Imported other = Import("b.sh", flags + "--vocab-size 65536");
  ASSERT_TRUE(other.result.ok()) << other.result.error().message;
  EXPECT_EQ(other.json["scenario"]["model"], (Json{{"preset", "llama-2-70b"}, {"vocab", 65536}}));
  EXPECT_EQ(Assumed(other.json, "model")["code"], "import.assumed.model_architecture_changed");
  // Without --group-query-attention, Megatron-LM gives every head its own keys: no preset.
  std::string mha = flags;
  mha.replace(mha.find("--group-query-attention "), 24, "");
  const Imported custom = Import("c.sh", mha);
  ASSERT_TRUE(custom.result.ok()) << custom.result.error().message;
  EXPECT_EQ(custom.json["scenario"]["model"]["kv_heads"], 64);
  EXPECT_EQ(custom.json["scenario"]["model"]["vocab"], 32000);
  EXPECT_EQ(Entry(custom.json, "ignored", "num-query-groups")["code"], "import.ignored.query_groups_without_gqa");
  EXPECT_EQ(Assumed(custom.json, "model.vocab")["code"], "import.assumed.vocab");
}

TEST(ImportMegatron, InterleavedExpertLayersAreCountedAndSaidSo) {
  const Imported r = Import(
      "moe.sh",
      "pretrain_gpt.py --num-layers 8 --hidden-size 1024 --num-attention-heads 8 --swiglu --num-experts 16 "
      "--moe-router-topk 2 --moe-ffn-hidden-size 512 --moe-layer-freq 2 --vocab-size 32000");
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  EXPECT_EQ(r.json["scenario"]["model"]["dense_layers"], 4);
  EXPECT_EQ(Assumed(r.json, "model.dense_layers")["code"], "import.assumed.moe_layer_pattern");
  // (4 x 1024 x 2/3) rounded down to a multiple of 64: Megatron-LM's SwiGLU width.
  EXPECT_EQ(r.json["scenario"]["model"]["ffn"], 2688);
}

// DeepSeek-V3 as Megatron-LM's MoE examples write it: MLA ranks, the layer pattern in
// parentheses, multi-token prediction (the preset leaves MTP out: the preset with it added).
TEST(ImportMegatron, DeepSeekV3FlagsAreThePresetWithMtp) {
  const Imported r = Import("deepseek.sh", R"sh(MODEL_ARGS=(
  --num-layers 61 --hidden-size 7168 --ffn-hidden-size 18432 --num-attention-heads 128 --kv-channels 128
  --multi-latent-attention --q-lora-rank 1536 --kv-lora-rank 512 --qk-head-dim 128 --qk-pos-emb-head-dim 64 --v-head-dim 128
  --num-experts 256 --moe-router-topk 8 --moe-ffn-hidden-size 2048 --moe-shared-expert-intermediate-size 2048
  --moe-layer-freq "([0]*3+[1]*58)" --mtp-num-layers 1 --swiglu --normalization RMSNorm
  --untie-embeddings-and-output-weights --disable-bias-linear --position-embedding-type rope --vocab-size 129280
  --seq-length 4096 --max-position-embeddings 163840 --moe-grouped-gemm --moe-token-dispatcher-type alltoall
)
torchrun --nproc_per_node 8 --nnodes 64 pretrain_gpt.py ${MODEL_ARGS[@]} --tensor-model-parallel-size 1 \
  --pipeline-model-parallel-size 16 --expert-model-parallel-size 64 --bf16 --micro-batch-size 1 \
  --global-batch-size 8192 --use-distributed-optimizer --recompute-granularity full --recompute-method block \
  --recompute-num-layers 2 --decoder-first-pipeline-num-layers 3 --decoder-last-pipeline-num-layers 2
)sh");
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  const Json& s = r.json["scenario"];
  EXPECT_EQ(s["model"], (Json{{"preset", "deepseek-v3"}, {"mtp_layers", 1}}));
  EXPECT_EQ(Assumed(r.json, "model")["code"], "import.assumed.model_architecture_changed");
  EXPECT_EQ(s["gpus"], 512);
  EXPECT_EQ(s["ep"], 64);
  EXPECT_EQ(s["zero"], 1);
  EXPECT_EQ(s["first_stage_layers"], 3);
  EXPECT_EQ(s["last_stage_layers"], 2);
  EXPECT_EQ(s["recompute_layers"], 32);  // block: 2 layers of each of 16 stages
  EXPECT_EQ(Entry(r.json, "ignored", "moe-grouped-gemm")["code"], "import.ignored.megatron_tuning");
  // Without --multi-latent-attention the ranks are not read, and the flags are no preset.
  const Imported mha = Import("mha.sh",
                              "pretrain_gpt.py --num-layers 4 --hidden-size 256 --num-attention-heads 4 "
                              "--kv-lora-rank 512 --vocab-size 1000");
  ASSERT_TRUE(mha.result.ok()) << mha.result.error().message;
  EXPECT_EQ(Entry(mha.json, "ignored", "kv-lora-rank")["code"], "import.ignored.only_with");
  EXPECT_FALSE(mha.json["scenario"]["model"].contains("attention"));
}

// [SECTION] 3. NeMo 1.x

TEST(ImportMegatron, NemoYaml) {
  constexpr const char* kNemo = R"(name: megatron_gpt
trainer:
  devices: 8
  num_nodes: 4
  accelerator: gpu
  precision: bf16-mixed
  max_steps: 1000
  log_every_n_steps: 10
exp_manager:
  explicit_log_dir: null
model:
  micro_batch_size: 2
  global_batch_size: 256
  tensor_model_parallel_size: 4
  pipeline_model_parallel_size: 2
  virtual_pipeline_model_parallel_size: null
  encoder_seq_length: 4096
  max_position_embeddings: 4096
  num_layers: 32
  hidden_size: 4096
  ffn_hidden_size: 14336
  num_attention_heads: 32
  num_query_groups: 8
  activation: fast-swiglu
  normalization: rmsnorm
  position_embedding_type: rope
  bias: false
  share_embeddings_and_output_weights: false
  sequence_parallel: true
  activations_checkpoint_granularity: selective
  hidden_dropout: 0.0
  optim:
    name: distributed_fused_adam
    lr: 3e-4
  tokenizer:
    library: huggingface
)";
  const Imported r = Import("megatron_gpt_config.yaml", kNemo);
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  const Json& s = r.json["scenario"];
  EXPECT_EQ(r.json["files"][0]["tool"], "megatron");
  EXPECT_EQ(s["framework"], "nemo");
  EXPECT_EQ(s["gpus"], 32);
  EXPECT_EQ(s["gpus_per_node"], 8);
  EXPECT_EQ(s["tp"], 4);
  EXPECT_EQ(s["pp"], 2);
  EXPECT_EQ(s["micro_batch"], 2);
  EXPECT_EQ(s["global_batch"], 256);
  EXPECT_EQ(s["seq_len"], 4096);
  EXPECT_EQ(s["precision"], "bf16");
  EXPECT_EQ(s["sequence_parallel"], true);
  EXPECT_EQ(s["activation_checkpointing"], "selective");
  EXPECT_EQ(s["zero"], 1);
  EXPECT_FALSE(s.contains("virtual_pipeline"));
  // Llama 3 8B's shapes with a 4096 context (Mistral 7B has its own 32000 vocabulary).
  EXPECT_TRUE(s["model"] == "llama-3-8b" || s["model"] == "llama-3.1-8b") << s["model"].dump();
  EXPECT_DOUBLE_EQ(s["tokens"].get<double>(), 1000.0 * 256 * 4096);
  EXPECT_EQ(Entry(r.json, "ignored", "model.optim.lr")["code"], "import.ignored.hyperparameter");
  EXPECT_EQ(Entry(r.json, "ignored", "model.tokenizer.library")["code"], "import.ignored.io");
}

// The same keys as Hydra overrides on NeMo's pretraining script.
TEST(ImportMegatron, NemoOverridesOnTheCommandLine) {
  const Imported r = Import("nemo.sh", R"(python examples/nlp/language_modeling/megatron_gpt_pretraining.py \
  trainer.devices=8 trainer.num_nodes=2 trainer.precision=16-mixed trainer.max_steps=100 \
  model.micro_batch_size=1 model.global_batch_size=128 model.tensor_model_parallel_size=2 \
  model.encoder_seq_length=2048 model.num_layers=24 model.hidden_size=2048 model.num_attention_heads=16 \
  model.ffn_hidden_size=8192 model.optim.name=fused_adam model.optim.lr=2e-4
)");
  ASSERT_TRUE(r.result.ok()) << r.result.error().message;
  const Json& s = r.json["scenario"];
  EXPECT_EQ(s["framework"], "nemo");
  EXPECT_EQ(s["gpus"], 16);
  EXPECT_EQ(s["tp"], 2);
  EXPECT_EQ(s["precision"], "fp16");
  EXPECT_EQ(s["zero"], 0);  // fused_adam: no distributed optimizer
  EXPECT_EQ(s["model"]["mlp"], "gelu");
  const Imported bad = Import("nemo.sh", "python megatron_gpt_pretraining.py trainer.devices=8 trainer.precision=fp12");
  ASSERT_FALSE(bad.result.ok());
  EXPECT_TRUE(Contains(bad.result.error().message, "column")) << bad.result.error().message;
}

// [SECTION] 4. values that are not numbers

TEST(ImportMegatron, NotAnIntegerNamesLineAndColumn) {
  const Imported r = Import("bad.sh",
                            "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n"
                            "  --micro-batch-size 1 \\\n"
                            "  --tensor-model-parallel-size eight\n");
  ASSERT_FALSE(r.result.ok());
  const std::string& message = r.result.error().message;
  EXPECT_TRUE(Contains(message, "line 3")) << message;
  EXPECT_TRUE(Contains(message, "column 3")) << message;
  EXPECT_TRUE(Contains(message, "tensor-model-parallel-size")) << message;
  EXPECT_TRUE(Contains(message, "eight")) << message;
}

TEST(ImportMegatron, BadChoicesAndPatternsAreErrors) {
  for (const char* text : {"pretrain_gpt.py --num-layers 4 --hidden-size 256 --num-attention-heads 4 --num-experts 4 "
                           "--moe-layer-freq '[0]*x'",
                           "pretrain_gpt.py --micro-batch-size 1 --recompute-granularity most",
                           "pretrain_gpt.py --micro-batch-size 1 --attention-backend quick",
                           "pretrain_gpt.py --num-layers 4.5 --hidden-size 256 --num-attention-heads 4"}) {
    const Imported r = Import("bad.sh", text);
    ASSERT_FALSE(r.result.ok()) << text;
    EXPECT_TRUE(Contains(r.result.error().message, "line 1")) << r.result.error().message;
    EXPECT_TRUE(Contains(r.result.error().message, "column")) << r.result.error().message;
  }
}

}  // namespace
}  // namespace engine::imports
