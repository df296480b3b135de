// ms-swift imports (engine/imports/import_swift.cpp): the commands TrainSizer writes
// (engine/exports/swift_launch.cpp) read back to the fields of the scenario they came from;
// a hand-written command with ms-swift's defaults left out; values it cannot read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"

namespace engine::imports {
namespace {

using nlohmann::json;

const engine::service::Session& TheSession() {
  static const engine::service::Session session;
  return session;
}

engine::Result<ConfigImport> Import(const std::string& text) {
  return ImportConfigs({{"swift.sh", text}}, ConfigTool::kAuto, json::object(), TheSession().catalog());
}

json RoundTrip(const json& scenario) {
  const engine::service::Response r = TheSession().LaunchConfigs(scenario.dump());
  EXPECT_TRUE(r.ok) << r.json;
  const std::string text = json::parse(r.json).at("swift").get<std::string>();
  const auto imported = Import(text);
  EXPECT_TRUE(imported.ok()) << (imported.ok() ? "" : imported.error().message) << "\n" << text;
  if (!imported.ok()) return json::object();
  EXPECT_EQ(imported.value().files.at(0).tool, ConfigTool::kSwift);
  return imported.value().scenario;
}

void ExpectSame(const json& scenario, const json& imported, std::initializer_list<const char*> fields) {
  for (const char* field : fields) {
    ASSERT_TRUE(imported.contains(field)) << field << " missing from " << imported.dump();
    EXPECT_EQ(imported[field], scenario[field]) << field;
  }
}

TEST(SwiftImport, ItsOwnVisionCommandReadsBack) {
  const json lora = {{"model", "qwen2.5-vl-7b"}, {"method", "lora"},       {"lora_rank", 16},
                     {"gpus", 16},               {"gpus_per_node", 8},     {"zero", 2},
                     {"micro_batch", 2},         {"global_batch", 64},     {"vision_training", "lora"},
                     {"projector_training", false}, {"freeze_llm", false}, {"image_max_pixels", 1003520.0},
                     {"images_per_sample", 2},   {"seq_len", 512}};
  const json back = RoundTrip(lora);
  ExpectSame(lora, back, {"model", "method", "lora_rank", "gpus", "gpus_per_node", "zero", "micro_batch", "global_batch",
                          "vision_training", "projector_training", "freeze_llm", "image_max_pixels"});
  // max_length is the trained sequence: 512 text + 2 × 1,227 image tokens (vision_api_test).
  EXPECT_EQ(back["seq_len"], 2966);

  json full = lora;
  full["method"] = "full";
  full["vision_training"] = "full";
  full["projector_training"] = true;
  full["zero"] = 3;
  full["offload"] = "optimizer+params";
  ExpectSame(full, RoundTrip(full), {"method", "vision_training", "projector_training", "zero", "offload"});

  json tower = lora;  // a tower in full beside LoRA: --tuner_type lora_llm
  tower["vision_training"] = "full";
  ExpectSame(tower, RoundTrip(tower), {"method", "vision_training"});
}

TEST(SwiftImport, QwenThreeVlTokenCapsAreSizedInPixels) {
  const json qwen3 = {{"model", "qwen3-vl-8b"}, {"method", "qlora"}, {"images_per_sample", 1}, {"seq_len", 256},
                      {"image_max_pixels", 1048576.0}};
  const json back = RoundTrip(qwen3);
  // 1,048,576 px = 1,024 tokens of 32 × 32 px, and back.
  ExpectSame(qwen3, back, {"method", "image_max_pixels"});
}

TEST(SwiftImport, PostTrainingRunsAsSwiftRlhf) {
  // GRPO: 8 answers per prompt of at most 1,024 tokens; max_length 512 + 1,024 leaves the prompt.
  const json grpo = {{"model", "qwen2.5-7b"}, {"method", "grpo"}, {"policy_update", "lora"}, {"gpus", 8},
                     {"group_size", 8},       {"prompt_len", 512}, {"max_response_len", 1024}, {"prompts_per_step", 64}};
  ExpectSame(grpo, RoundTrip(grpo), {"method", "policy_update", "group_size", "prompt_len", "max_response_len",
                                     "prompts_per_step", "gpus"});
  // DPO: a pair's per-device batch counts pairs; 64 pairs = 2 per GPU × 8 GPUs × 4 steps.
  const json dpo = {{"model", "qwen2.5-7b"}, {"method", "dpo"}, {"policy_update", "full"}, {"gpus", 8}, {"zero", 3},
                    {"micro_batch", 2},       {"prompts_per_step", 64}};
  ExpectSame(dpo, RoundTrip(dpo), {"method", "policy_update", "micro_batch", "prompts_per_step", "zero"});
}

TEST(SwiftImport, AHandWrittenCommandWithItsDefaults) {
  const auto r = Import(
      "CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nNPROC_PER_NODE=4 \\\nMAX_PIXELS=602112 \\\nswift sft \\\n"
      "  --model Qwen/Qwen2.5-VL-7B-Instruct --dataset AI-ModelScope/LaTeX_OCR#20000 \\\n"
      "  --torch_dtype bfloat16 --per_device_train_batch_size 1 --gradient_accumulation_steps 16 \\\n"
      "  --max_length 2048 --freeze_aligner false --deepspeed zero3_offload\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const json& s = r.value().scenario;
  EXPECT_EQ(s["method"], "lora");  // ms-swift's default tuner, listed as assumed
  EXPECT_EQ(s["gpus"], 4);
  EXPECT_EQ(s["global_batch"], 64);  // 1 × 16 × 4 GPUs
  EXPECT_EQ(s["precision"], "bf16");
  EXPECT_EQ(s["zero"], 3);
  EXPECT_EQ(s["offload"], "optimizer+params");
  EXPECT_EQ(s["image_max_pixels"], 602112.0);
  EXPECT_EQ(s["projector_training"], true);  // adapters on the aligner, sized as trained in full
  bool media_length_assumed = false;
  for (const Assumption& a : r.value().assumed) media_length_assumed |= a.why.id == "import.assumed.swift_media_length";
  EXPECT_TRUE(media_length_assumed);
}

TEST(SwiftImport, ValuesItCannotReadNameTheirPlace) {
  const auto tuner = Import("swift sft --model Qwen/Qwen2.5-7B-Instruct --tuner_type adalora\n");
  ASSERT_FALSE(tuner.ok());
  EXPECT_NE(tuner.error().message.find("lora, lora_llm, full"), std::string::npos) << tuner.error().message;
  const auto procs = Import("NPROC_PER_NODE=eight swift sft --model Qwen/Qwen2.5-7B-Instruct\n");
  ASSERT_FALSE(procs.ok());
  EXPECT_NE(procs.error().message.find("NPROC_PER_NODE"), std::string::npos) << procs.error().message;
}

}  // namespace
}  // namespace engine::imports
