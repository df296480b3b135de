// A vision-language fine-tune through the JSON contract: the presets' official counts,
// the sequence split, the errors for media a model cannot take, and the planner and launch
// configs on a VLM (issue 22's checks).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "engine/service/api.h"

namespace {

using nlohmann::json;

json Estimate(const std::string& scenario) {
  return json::parse(engine::service::Session().Estimate(scenario).json);
}

TEST(VisionApi, PresetsHaveTheirOfficialCounts) {
  // Model cards (2025-01): Qwen2.5-VL-7B-Instruct 8.29B, -72B-Instruct 73.4B parameters.
  for (const auto& [preset, official] : {std::pair{"qwen2.5-vl-7b", 8.29e9}, std::pair{"qwen2.5-vl-72b", 73.4e9}}) {
    const json r = Estimate(std::string(R"({"model":")") + preset + R"(","method":"lora","gpus":8,"zero":3})");
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_NEAR(r["params"]["total"].get<double>() / official, 1.0, 0.01) << preset;
    EXPECT_GT(r["vision"]["tower_params"].get<double>(), 6e8) << preset;
  }
}

TEST(VisionApi, TheSequenceShowsItsTextAndMediaParts) {
  const json r = Estimate(
      R"({"model":"qwen2.5-vl-7b","images_per_sample":1,"image_resolution":[1024,1024],"seq_len":500,"method":"lora"})");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& q = r["sequence"];
  // 1036 × 1036 px after the resize: 37 × 37 merged patches + <|vision_start|>, <|vision_end|>.
  EXPECT_EQ(q["media_tokens"], 1369 + 2);
  EXPECT_EQ(q["marker_tokens"], 2);
  EXPECT_EQ(q["text_tokens"], 500);
  EXPECT_EQ(q["total_tokens"], 500 + 1371);
  EXPECT_EQ(q["image"]["resized"], json::array({1036, 1036}));
  EXPECT_TRUE(q["within_context"].get<bool>());
  // A text model's sequence is its text.
  const json text = Estimate(R"({"model":"llama-3-8b","seq_len":2048})");
  EXPECT_EQ(text["sequence"]["media_tokens"], 0);
  EXPECT_EQ(text["sequence"]["total_tokens"], 2048);
  EXPECT_FALSE(text.contains("vision"));
}

double PerGpuGib(const std::string& fields) {
  const json r = Estimate(R"({"model":"qwen2.5-vl-7b","method":"full","gpus":8,"zero":3,"seq_len":512,)" + fields +
                          "}");
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r["memory"]["per_gpu_gib"].get<double>();
}

TEST(VisionApi, MemoryFollowsTheImagesAndWhatTrains) {
  const double one = PerGpuGib(R"("images_per_sample":1)");
  EXPECT_GT(PerGpuGib(R"("images_per_sample":4)"), one);
  EXPECT_GT(PerGpuGib(R"("images_per_sample":1,"image_resolution":[2048,2048])"), one);
  EXPECT_GT(PerGpuGib(R"("images_per_sample":1,"vision_training":"full")"), one);
}

TEST(VisionApi, MediaNeedAVisionModel) {
  const json r = Estimate(R"({"model":"llama-3-8b","images_per_sample":2})");
  ASSERT_TRUE(r.contains("error"));
  EXPECT_EQ(r["error"]["field"], "images_per_sample");
  const json frozen = Estimate(R"({"model":"qwen2.5-vl-7b","freeze_llm":true})");
  EXPECT_EQ(frozen["error"]["field"], "freeze_llm");
  const json size = Estimate(R"({"model":"qwen2.5-vl-7b","image_resolution":[1024]})");
  EXPECT_EQ(size["error"]["field"], "image_resolution");
  const json zero = Estimate(R"({"model":"qwen2.5-vl-7b","image_resolution":[0,768]})");
  EXPECT_EQ(zero["error"]["field"], "image_resolution");
  EXPECT_NE(zero["error"]["message"].get<std::string>().find("must be"), std::string::npos);
  // 1024 images of 16,384² px each pass the 10^7-token sequence the contract allows.
  const json huge =
      Estimate(R"({"model":"qwen2.5-vl-7b","images_per_sample":1024,"image_resolution":[16384,16384]})");
  EXPECT_EQ(huge["error"]["field"], "images_per_sample");
}

TEST(VisionApi, ThePlannerAndTheLaunchConfigsTakeAVisionModel) {
  const json plan = json::parse(engine::service::Session()
                                    .Plan(R"({"model":"qwen2.5-vl-7b","method":"lora","images_per_sample":2,)"
                                          R"("tokens":1e8,"gpu":"h100-sxm-80gb","max_gpus":8})")
                                    .json);
  ASSERT_FALSE(plan.contains("error")) << plan.dump().substr(0, 300);
  EXPECT_FALSE(plan["pareto"].empty());
  const json launch = json::parse(engine::service::Session()
                                      .LaunchConfigs(R"({"model":"qwen2.5-vl-7b","method":"lora","seq_len":512,)"
                                                     R"("images_per_sample":2,"image_max_pixels":1003520})")
                                      .json);
  ASSERT_FALSE(launch.contains("error")) << launch.dump().substr(0, 300);
  const std::string yaml = launch.dump();
  // 1024² images under a 1,003,520 px cap: 1036² = 1,073,296 px is over it, so
  // β = √(1024² / 1003520) = 1.0222 and each side floor(1024 / β / 28)·28 = 980 px: 35² =
  // 1,225 tokens + 2 markers; cutoff_len = 512 + 2 × 1,227 = 2,966.
  EXPECT_NE(yaml.find("cutoff_len: 2966"), std::string::npos);
  EXPECT_NE(yaml.find("freeze_vision_tower: true"), std::string::npos);
  EXPECT_NE(yaml.find("image_max_pixels: 1003520"), std::string::npos);
}

}  // namespace
