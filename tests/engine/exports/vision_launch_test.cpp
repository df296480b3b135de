// Launch configs of a vision-language fine-tune (docs/model.md §14): the ms-swift command
// and the TRL script carry what the estimate freezes and trains, the processor's pixel caps
// and a sequence length of text and media tokens together; what ms-swift's switches cannot
// say comes back as a note. Expected numbers are worked out by hand in the comments.
#include "engine/service/api.h"
#include "tests/engine/exports/shell_flags.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using nlohmann::json;

json Launch(const json& scenario) {
  const engine::service::Response r = engine::service::Session().LaunchConfigs(scenario.dump());
  json j = json::parse(r.json);
  EXPECT_TRUE(r.ok) << r.json.substr(0, 400);
  return j;
}

using engine::test::FlagValue;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool HasNote(const json& launch, const std::string& tool, const std::string& code) {
  for (const json& n : launch["notes"]) {
    if (n["tool"] == tool && n["code"] == code) return true;
  }
  return false;
}

// Qwen2.5-VL-7B, LoRA on the language model, two 1024 × 1024 images per sample under a
// 1,003,520 px cap: 1036² = 1,073,296 px is over the cap, so β = √(1024² / 1,003,520) =
// 1.0222 and each side floor(1024 / β / 28)·28 = 980 px: 35² = 1,225 tokens + 2 markers;
// 512 text + 2 × 1,227 = 2,966 tokens per sample.
json DocumentsLora() {
  return {{"model", "qwen2.5-vl-7b"}, {"method", "lora"},         {"lora_rank", 16},
          {"seq_len", 512},           {"images_per_sample", 2},   {"image_resolution", {1024, 1024}},
          {"image_max_pixels", 1003520}, {"gpus", 8},             {"zero", 2},
          {"micro_batch", 2},         {"global_batch", 64},       {"gpu", "h100-sxm-80gb"}};
}

TEST(SwiftLaunch, CarriesTheFrozenPartsPixelCapAndMediaLength) {
  const std::string swift = Launch(DocumentsLora())["swift"].get<std::string>();
  EXPECT_TRUE(Contains(swift, "swift sft")) << swift;
  EXPECT_EQ(FlagValue(swift, "--max_length"), "2966");
  EXPECT_TRUE(Contains(swift, "MAX_PIXELS=1003520 \\\n"));
  EXPECT_TRUE(Contains(swift, "NPROC_PER_NODE=8 \\\n"));
  EXPECT_TRUE(Contains(swift, "CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \\\n"));
  EXPECT_EQ(FlagValue(swift, "--tuner_type"), "lora");
  EXPECT_EQ(FlagValue(swift, "--freeze_vit"), "true");  // the tower frozen (the default)
  EXPECT_EQ(FlagValue(swift, "--freeze_aligner"), "true");
  EXPECT_EQ(FlagValue(swift, "--freeze_llm"), "false");
  // 64 = 2 per GPU × 8 GPUs × 4 accumulation steps.
  EXPECT_EQ(FlagValue(swift, "--per_device_train_batch_size"), "2");
  EXPECT_EQ(FlagValue(swift, "--gradient_accumulation_steps"), "4");
  EXPECT_EQ(FlagValue(swift, "--deepspeed"), "zero2");
  EXPECT_EQ(FlagValue(swift, "--lora_rank"), "16");
}

TEST(SwiftLaunch, TrainedPartsMapOntoItsSwitches) {
  json s = DocumentsLora();
  s["vision_training"] = "lora";  // adapters on the tower: LoRA with the ViT unfrozen
  std::string swift = Launch(s)["swift"].get<std::string>();
  EXPECT_EQ(FlagValue(swift, "--tuner_type"), "lora");
  EXPECT_EQ(FlagValue(swift, "--freeze_vit"), "false");

  s["vision_training"] = "full";  // the tower in full beside LoRA: lora_llm
  s["projector_training"] = true;
  swift = Launch(s)["swift"].get<std::string>();
  EXPECT_EQ(FlagValue(swift, "--tuner_type"), "lora_llm");
  EXPECT_EQ(FlagValue(swift, "--freeze_vit"), "false");
  EXPECT_EQ(FlagValue(swift, "--freeze_aligner"), "false");

  s["vision_training"] = "lora";  // a LoRA tower and a projector in full: not both expressible
  const json launch = Launch(s);
  EXPECT_TRUE(HasNote(launch, "swift", "launch.swift.projector_lora"));
  EXPECT_EQ(FlagValue(launch["swift"].get<std::string>(), "--freeze_aligner"), "false");

  json full = DocumentsLora();
  full["method"] = "full";
  full["vision_training"] = "lora";
  full["freeze_llm"] = true;
  const json full_launch = Launch(full);
  EXPECT_TRUE(HasNote(full_launch, "swift", "launch.swift.vision_training"));
  EXPECT_EQ(FlagValue(full_launch["swift"].get<std::string>(), "--tuner_type"), "full");
  EXPECT_EQ(FlagValue(full_launch["swift"].get<std::string>(), "--freeze_llm"), "true");
}

TEST(SwiftLaunch, Qwen3VlCountsTokensNotPixels) {
  // Qwen3-VL's processor caps at 16,777,216 px = 16,384 tokens of 32 × 32 px (patch 16,
  // merge 2), ms-swift's IMAGE_MAX_TOKEN_NUM default.
  json s = {{"model", "qwen3-vl-8b"}, {"method", "lora"}, {"seq_len", 256}, {"images_per_sample", 1}};
  const std::string swift = Launch(s)["swift"].get<std::string>();
  EXPECT_TRUE(Contains(swift, "IMAGE_MAX_TOKEN_NUM=16384 \\\n")) << swift;
  EXPECT_FALSE(Contains(swift, "MAX_PIXELS="));
}

TEST(SwiftLaunch, TextModelsAndModelParallelLayouts) {
  // A text model: no vision switches; ZeRO-3 with offload is zero3_offload; pretraining is swift pt.
  json s = {{"model", "llama-3-8b"}, {"method", "pretrain"}, {"gpus", 16}, {"zero", 3},
            {"offload", "optimizer"}, {"micro_batch", 1},    {"global_batch", 64}};
  std::string swift = Launch(s)["swift"].get<std::string>();
  EXPECT_TRUE(Contains(swift, "swift pt")) << swift;
  EXPECT_FALSE(Contains(swift, "--freeze_vit"));
  EXPECT_EQ(FlagValue(swift, "--deepspeed"), "zero3_offload");
  // 16 GPUs over 2 nodes of 8: 64 / (1 × 16) = 4 accumulation steps.
  EXPECT_TRUE(Contains(swift, "NNODES=2 \\\n"));
  EXPECT_EQ(FlagValue(swift, "--gradient_accumulation_steps"), "4");

  // TP 2 is not swift sft's: a note, and every GPU a data-parallel rank (64 / (1 × 8) = 8).
  json tp = {{"model", "llama-3-8b"}, {"method", "full"}, {"gpus", 8}, {"tp", 2}, {"micro_batch", 1}, {"global_batch", 64}};
  const json launch = Launch(tp);
  EXPECT_TRUE(HasNote(launch, "swift", "launch.swift.model_parallel"));
  EXPECT_EQ(FlagValue(launch["swift"].get<std::string>(), "--gradient_accumulation_steps"), "8");
}

TEST(TrlVisionScript, LoadsTheProcessorAndTrainsTheEstimatesParts) {
  const json launch = Launch(DocumentsLora());
  const std::string trl = launch["trl"].get<std::string>();
  EXPECT_TRUE(Contains(trl, "AutoProcessor.from_pretrained(MODEL, max_pixels=1003520")) << trl;
  EXPECT_TRUE(Contains(trl, "AutoModelForImageTextToText"));
  EXPECT_TRUE(Contains(trl, "SFTTrainer("));
  // LoRA on the language model only: PEFT's all-linear would reach the tower too.
  EXPECT_TRUE(Contains(trl, "part(name) in {\"language\"}"));
  EXPECT_TRUE(Contains(trl, "max_length=None"));
  EXPECT_TRUE(Contains(trl, "2966 tokens per sample (512 text + 2454 media)"));
  EXPECT_TRUE(Contains(trl, "gradient_accumulation_steps=4,"));
  // The torchrun command points at this script instead of describing one.
  EXPECT_TRUE(HasNote(launch, "torchrun", "launch.torchrun.vision"));

  json full = DocumentsLora();
  full["method"] = "full";
  full["projector_training"] = true;
  const std::string full_trl = Launch(full)["trl"].get<std::string>();
  EXPECT_TRUE(Contains(full_trl, "param.requires_grad_(part(name) in {\"language\", \"projector\"})")) << full_trl;
  EXPECT_TRUE(Contains(full_trl, "torch_dtype=torch.float32"));  // mixed precision's fp32 master copy
}

TEST(TrlVisionScript, TextFineTuningStillPointsAtTheTorchrunCommand) {
  const std::string trl = Launch({{"model", "llama-3-8b"}, {"method", "lora"}})["trl"].get<std::string>();
  EXPECT_FALSE(Contains(trl, "SFTTrainer("));
  EXPECT_TRUE(Contains(trl, "torchrun"));
}

}  // namespace
