// The framework a scenario names sets the defaults of the fields it leaves out, and the
// names people give the stacks are read as the stacks.
#include <gtest/gtest.h>

#include "catalog/catalog_loader.h"
#include "engine/contract/scenario_json.h"
#include "engine/scenario_check.h"

namespace {

using engine::contract::Json;

engine::Scenario Read(Json doc) {
  doc["model"] = "llama-3-8b";
  auto s = engine::contract::ScenarioFromJson(doc, catalog::Embedded().value());
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().field + ": " + s.error().message);
  return s.ok() ? s.value() : engine::Scenario{};
}

TEST(FrameworkJson, OtherNamesAreTheSameStack) {
  EXPECT_EQ(Read({{"framework", "fsdp2"}}).parallel.framework, engine::Framework::kFsdp);
  EXPECT_EQ(Read({{"framework", "megatron-lm"}}).parallel.framework, engine::Framework::kMegatron);
  EXPECT_EQ(Read({{"framework", "megatron-bridge"}}).parallel.framework, engine::Framework::kNemo);
  EXPECT_EQ(Read({{"framework", "jax"}}).parallel.framework, engine::Framework::kMaxtext);
  EXPECT_EQ(Read({{"framework", "transformers"}}).parallel.framework, engine::Framework::kHfTrainer);
  // Written back under the stack's own name.
  EXPECT_EQ(engine::contract::ScenarioToJson(Read({{"framework", "fsdp2"}}))["framework"], "fsdp");
}

// NeMo's and Megatron-Bridge's recipes overlap tensor-parallel traffic; Megatron-LM's
// --tp-comm-overlap is off unless given; a scenario's own value wins over both.
TEST(FrameworkJson, TensorParallelOverlapFollowsTheStack) {
  EXPECT_TRUE(Read({{"framework", "nemo"}, {"tp", 4}}).parallel.tp_comm_overlap);
  EXPECT_FALSE(Read({{"framework", "megatron"}, {"tp", 4}}).parallel.tp_comm_overlap);
  EXPECT_FALSE(Read({{"framework", "nemo"}, {"tp", 4}, {"tp_comm_overlap", false}}).parallel.tp_comm_overlap);
  EXPECT_TRUE(Read({{"framework", "megatron"}, {"tp", 4}, {"tp_comm_overlap", true}}).parallel.tp_comm_overlap);
}

TEST(FrameworkJson, UnknownFrameworkNamesTheChoices) {
  Json doc = {{"model", "llama-3-8b"}, {"framework", "keras"}};
  auto s = engine::contract::ScenarioFromJson(doc, catalog::Embedded().value());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().field, "framework");
  EXPECT_NE(s.error().message.find("torchtitan"), std::string::npos) << s.error().message;
}

// Hugging Face modules run eager kernels and upcast the logits; LLaMA-Factory checkpoints
// by default; Unsloth offloads its checkpoints; a field the document gives is kept,
// wherever it sits relative to `framework`.
TEST(FrameworkJson, LeftOutFieldsFollowTheStack) {
  const engine::Scenario hf = Read({{"framework", "hf-trainer"}});
  EXPECT_EQ(hf.training.kernels, engine::Kernels::kEager);
  EXPECT_EQ(hf.training.cross_entropy, engine::CrossEntropy::kEager);
  EXPECT_EQ(Read({{"framework", "llama-factory"}}).training.activation_checkpointing, engine::Recompute::kFull);
  EXPECT_TRUE(Read({{"framework", "unsloth"}}).training.activation_offload);
  EXPECT_EQ(Read({{"framework", "torchtune"}}).training.cross_entropy, engine::CrossEntropy::kChunked);
  EXPECT_EQ(Read({{"kernels", "fused"}, {"framework", "hf-trainer"}}).training.kernels, engine::Kernels::kFused);
  EXPECT_EQ(Read({}).training.kernels, engine::Kernels::kFused);
}

TEST(FrameworkJson, MegatronRefusesZero3ButMegatronFsdpTakesIt) {
  Json doc = {{"model", "llama-3-8b"}, {"framework", "megatron"}, {"zero", 3}, {"gpus", 8}};
  const engine::Catalog& cat = catalog::Embedded().value();
  auto s = engine::contract::ScenarioFromJson(doc, cat);
  ASSERT_TRUE(s.ok());
  const auto e = engine::ValidateScenario(s.value(), cat);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->field, "zero");
  EXPECT_NE(e->message.find("megatron-fsdp"), std::string::npos) << e->message;
  doc["framework"] = "megatron-fsdp";
  EXPECT_FALSE(engine::ValidateScenario(engine::contract::ScenarioFromJson(doc, cat).value(), cat).has_value());
}

}  // namespace

namespace {

// A preset with fields changed: DeepSeek-V3 as pre-trained, with its MTP module.
TEST(ModelJson, PresetWithChangedFields) {
  const engine::Catalog& cat = catalog::Embedded().value();
  Json doc = {{"model", {{"preset", "deepseek-v3"}, {"mtp_layers", 1}}}};
  auto s = engine::contract::ScenarioFromJson(doc, cat);
  ASSERT_TRUE(s.ok()) << s.error().field << ": " << s.error().message;
  EXPECT_EQ(s.value().model.mtp_layers, 1);
  EXPECT_EQ(s.value().model.layers, 61);
  EXPECT_EQ(s.value().model.name, "DeepSeek-V3");
  // Written back as the whole architecture, which reads back the same.
  const Json written = engine::contract::ScenarioToJson(s.value());
  auto again = engine::contract::ScenarioFromJson(written, cat);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(engine::contract::ScenarioToJson(again.value()), written);

  doc["model"]["preset"] = "deepseek-v9";
  EXPECT_EQ(engine::contract::ScenarioFromJson(doc, cat).error().field, "model.preset");
  doc["model"] = {{"preset", "deepseek-v3"}, {"mtp", 1}};
  EXPECT_EQ(engine::contract::ScenarioFromJson(doc, cat).error().field, "model.mtp");
}

}  // namespace
