#include "engine/link/url_state.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "catalog/catalog_loader.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/planner.h"
#include "engine/service/api.h"

namespace {

const engine::Catalog& Cat() { return catalog::Embedded().value(); }

// The scenario and goal of `doc` read and written back as the page holds them; a field
// the readers refuse fails the test, naming the field.
void WrittenBack(const engine::contract::Json& doc, engine::contract::Json* out) {
  auto scenario = engine::contract::ScenarioFromJson(doc, Cat());
  ASSERT_TRUE(scenario.ok()) << scenario.error().field << ": " << scenario.error().message;
  auto goal = engine::contract::ConstraintsFromJson(doc);
  ASSERT_TRUE(goal.ok()) << goal.error().field;
  *out = engine::contract::ScenarioToJson(scenario.value());
  out->update(engine::contract::ConstraintsToJson(goal.value()));
}

bool Mentions(const std::vector<engine::Message>& ignored, const std::string& key) {
  for (const engine::Message& notice : ignored) {
    if (notice.english.starts_with(key + ":")) return true;
  }
  return false;
}

TEST(UrlState, EmptyFragmentIsDefaults) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("", Cat());
  EXPECT_TRUE(s.scenario.empty());
  EXPECT_TRUE(s.ignored.empty());
  EXPECT_TRUE(engine::link::DecodeUrlState("#", Cat()).ignored.empty());
}

TEST(UrlState, ReadsTheBriefsExampleLink) {
  const engine::link::UrlState s = engine::link::DecodeUrlState(
      "#v=1&model=llama-3-70b&method=full&seq_len=4096&tokens=2e9&gpu=h100-sxm-80gb&gpus=16&zero=3"
      "&deadline_days=7&budget=40000&allowed_gpus=h100-sxm-80gb,h200-sxm-141gb&allow_spot=true&lang=zh",
      Cat());
  EXPECT_TRUE(s.ignored.empty()) << s.ignored.front().english;
  EXPECT_EQ(s.scenario["model"], "llama-3-70b");
  EXPECT_EQ(s.scenario["seq_len"], 4096);
  EXPECT_EQ(s.scenario["tokens"].get<double>(), 2e9);
  EXPECT_EQ(s.scenario["gpus"], 16);
  EXPECT_EQ(s.scenario["allowed_gpus"].size(), 2u);
  EXPECT_EQ(s.scenario["allow_spot"], true);
  EXPECT_EQ(s.view.at("lang"), "zh");
  auto scenario = engine::contract::ScenarioFromJson(s.scenario, Cat());
  ASSERT_TRUE(scenario.ok()) << scenario.error().field;
  EXPECT_EQ(scenario.value().parallel.zero, 3);
}

TEST(UrlState, EveryFieldRoundTrips) {
  // A scenario far from every default, with a custom MoE architecture and constraints.
  engine::contract::Json doc = {{"model",
                        {{"layers", 24}, {"hidden", 2048}, {"heads", 16}, {"kv_heads", 4}, {"ffn", 5632},
                         {"vocab", 32000}, {"experts", 8}, {"experts_per_token", 2}, {"moe_ffn", 1408},
                         {"tied_embeddings", true}, {"mlp", "swiglu"}}},
                       {"method", "lora"},
                       {"lora_rank", 64},
                       {"lora_targets", "attention"},
                       {"precision", "fp16"},
                       {"optimizer", "adamw-8bit"},
                       {"seq_len", 8192},
                       {"micro_batch", 2},
                       {"global_batch", 64},
                       {"tokens", 3.5e8},
                       {"activation_checkpointing", "full"},
                       {"flash_attention", false},
                       {"gpu", "a100-sxm-80gb"},
                       {"gpus", 8},
                       {"tp", 2},
                       {"zero", 2},
                       {"framework", "deepspeed"},
                       {"offload", "optimizer"},
                       {"deadline_days", 2.5},
                       {"budget", 1234.5},
                       {"currency", "EUR"},
                       {"objective", "cost"},
                       {"purchase", "cloud"},
                       {"region", "eu"},
                       {"max_gpus", 32},
                       {"claim", {{"tokens_per_s", 50000}, {"wall_hours", 30}, {"mfu", 0.4}}},
                       {"auto_restart", false},
                       {"restart_minutes", 30}};
  engine::contract::Json full;
  ASSERT_NO_FATAL_FAILURE(WrittenBack(doc, &full));

  const std::string link = engine::link::EncodeUrlState(full, {{"lang", "zh"}, {"theme", "dark"}});
  const engine::link::UrlState back = engine::link::DecodeUrlState("#" + link, Cat());
  EXPECT_TRUE(back.ignored.empty()) << back.ignored.front().english;
  engine::contract::Json full_back;
  ASSERT_NO_FATAL_FAILURE(WrittenBack(back.scenario, &full_back));
  EXPECT_EQ(full_back, full) << link;
  EXPECT_EQ(back.view.at("theme"), "dark");
  // Compact: defaults are not written.
  EXPECT_EQ(link.find("lora_dropout"), std::string::npos);
  EXPECT_LT(link.size(), 800u) << link;
}

// The writers (ScenarioToJson, ConstraintsToJson) are where links learn their keys: a field
// the reader accepts but the writers leave out would be refused in a link as "not a
// TrainSizer setting", and no round trip would notice. So every accepted field must be
// written, and nothing the reader refuses.
TEST(UrlState, WritersCoverEveryFieldTheReaderAccepts) {
  engine::contract::Json written = engine::contract::ScenarioToJson(engine::Scenario{});
  written.update(engine::contract::ConstraintsToJson(engine::PlanConstraints{}));
  engine::Scenario post;  // post-training's fields are written for a post-training run
  post.training.post.kind = engine::PostTraining::kPpo;
  written.update(engine::contract::ScenarioToJson(post));
  engine::Scenario vision;  // and the media fields for a vision-language model with video
  vision.model.vision.layers = 1;
  vision.training.media.video_seconds = 10;
  written.update(engine::contract::ScenarioToJson(vision));
  for (const std::string& key : engine::contract::ScenarioFieldNames()) {
    EXPECT_TRUE(written.contains(key)) << "ScenarioToJson/ConstraintsToJson do not write " << key;
  }
  for (const auto& [key, value] : written.items()) {
    EXPECT_TRUE(engine::contract::ScenarioFieldNames().count(key)) << "written but not read: " << key;
  }
  ASSERT_TRUE(written["claim"].is_object());
  for (const std::string& key : engine::contract::ClaimFieldNames()) {
    if (key == "wall_days") continue;  // an alias, read as wall_hours × 24
    EXPECT_TRUE(written["claim"].contains(key)) << "claim." << key;
  }
  // And a link knows each of them (the m.* architecture fields have their own test).
  for (const auto& [key, value] : written.items()) {
    if (key == "model") continue;
    const std::string link_key = value.is_object() ? key + "." + value.begin().key() : key;
    const engine::link::UrlState s = engine::link::DecodeUrlState(link_key + "=1", Cat());
    for (const engine::Message& notice : s.ignored) EXPECT_NE(notice.id, "input.link.unknown_key") << notice.english;
  }
}

// Every field the reader accepts, each away from its default, through a link and back.
// Two documents, because some settings exclude others (optimizer_in_backward needs no
// accumulation; a pipeline and an MoE layout each bring their own constraints).
TEST(UrlState, EveryAcceptedFieldRoundTripsAwayFromItsDefault) {
  const engine::contract::Json first = {
      {"model", "llama-3-8b"}, {"method", "freeze"}, {"freeze_trainable_layers", 4}, {"lora_rank", 8},
      {"lora_targets", "qv"}, {"lora_dropout", 0.05}, {"kernels", "eager"}, {"precision", "bf16-pure"},
      {"optimizer", "adafactor"}, {"seq_len", 2048}, {"micro_batch", 4}, {"global_batch", 8},
      {"tokens", 0}, {"dataset_tokens", 1e9}, {"epochs", 2}, {"mfu", 0.35},
      {"claim", {{"tokens_per_s", 80000}, {"wall_hours", 12}, {"mfu", 0.55}}}, {"auto_restart", false}, {"restart_minutes", 5},
      {"activation_checkpointing", "full"}, {"recompute_layers", 8}, {"flash_attention", false},
      {"cross_entropy", "chunked"}, {"eval_share", 0.05}, {"optimizer_in_backward", true}, {"gpu", "a100-sxm-80gb"}, {"gpu_power_w", 300},
      {"storage", "lustre-ssu"}, {"gpus", 8}, {"gpus_per_node", 4}, {"tp", 2}, {"pp", 2}, {"cp", 1},
      {"virtual_pipeline", 2}, {"first_stage_layers", 15}, {"last_stage_layers", 17}, {"sequence_parallel", true}, {"tp_comm_overlap", true}, {"zero", 1},
      {"framework", "megatron"}, {"network", "ib-hdr"}, {"node_gbps", 800}, {"offload", "optimizer"},
      {"deadline_days", 4}, {"budget", 900}, {"currency", "CNY"}, {"objective", "time"}, {"purchase", "own"},
      {"allowed_gpus", {"a100-sxm-80gb"}}, {"allowed_providers", {"aws"}}, {"region", "cn"}, {"min_gpus", 8}, {"max_gpus", 16}, {"keep", {"tp", "zero"}},
      {"allow_spot", true}, {"own_utilization", 0.6}, {"memory_margin", 0.1}};
  const engine::contract::Json second = {
      {"model", "mixtral-8x7b"}, {"gpus", 16}, {"ep", 2}, {"etp", 1}, {"cp", 2}, {"zero", 3}, {"method", "lora"},
      {"tokens", 1e9}, {"activation_checkpointing", "selective"}, {"recompute_modules", {"moe_act", "layernorm"}},
      {"activation_offload", true}, {"lora_modules_to_save", "embeddings+head"},
      {"framework", "trl"}, {"sharding", "fsdp"}, {"fused_optimizer", false}, {"attention_backend", "cudnn"}};
  const engine::contract::Json third = {{"model", "llama-2-7b"}, {"method", "qlora"}, {"qlora_legacy_bnb", true}, {"qlora_fp32_norms", true}};
  const engine::contract::Json fourth = {{"model", "llama-3-8b"}, {"method", "pretrain"}, {"gpu", "b200-180gb"}, {"precision", "nvfp4"}, {"bf16_layers", 4}};
  const engine::contract::Json fifth = {
      {"model", "qwen2.5-7b"}, {"method", "ppo"}, {"policy_update", "lora"}, {"gpus", 8}, {"prompt_len", 512},
      {"response_len", 700}, {"max_response_len", 2048}, {"group_size", 4}, {"prompts_per_step", 64},
      {"prompts", 5000}, {"ppo_epochs", 2}, {"reference", "precomputed"}, {"reward", "model"},
      {"critic_model", "qwen2.5-0.5b"}, {"reward_model", "qwen2.5-0.5b"}, {"placement", "separate"},
      {"rollout_gpus", 4}, {"rollout_tp", 2}, {"gpu_memory_utilization", 0.7}, {"offload_while_generating", false},
      {"rollout_oversample", 3}};
  // (Parsed from text: GCC 12 warns about nested initializer lists of sizes.)
  const engine::contract::Json sixth = engine::contract::Json::parse(R"({
      "model": "qwen2.5-vl-7b", "images_per_sample": 3, "image_resolution": [1920, 1080],
      "image_max_pixels": 1003520, "video_seconds": 30, "video_fps": 1, "video_resolution": [1280, 720],
      "video_max_pixels": 200704, "vision_training": "lora", "projector_training": true, "freeze_llm": true,
      "vision_recompute": "none"})");
  engine::contract::Json defaults = engine::contract::ScenarioToJson(engine::Scenario{});
  defaults.update(engine::contract::ConstraintsToJson(engine::PlanConstraints{}));
  engine::Scenario vision;  // the media fields' defaults, written for a vision-language model with video
  vision.model.vision.layers = 1;
  vision.training.media.video_seconds = 10;
  const engine::contract::Json vision_fields = engine::contract::ScenarioToJson(vision);
  for (auto it = vision_fields.begin(); it != vision_fields.end(); ++it) {
    if (!defaults.contains(it.key())) defaults[it.key()] = it.value();
  }
  defaults["video_seconds"] = 0;
  std::set<std::string> away;  // accepted fields set away from their default by a document
  for (const engine::contract::Json& doc : {first, second, third, fourth, fifth, sixth}) {
    engine::contract::Json full;
    ASSERT_NO_FATAL_FAILURE(WrittenBack(doc, &full));
    for (const auto& [key, value] : full.items()) {
      if (key != "model" && value != defaults[key]) away.insert(key);
    }
    const std::string link = engine::link::EncodeUrlState(full, {});
    const engine::link::UrlState back = engine::link::DecodeUrlState(link, Cat());
    EXPECT_TRUE(back.ignored.empty()) << back.ignored.front().english << "\n" << link;
    engine::contract::Json full_back;
    ASSERT_NO_FATAL_FAILURE(WrittenBack(back.scenario, &full_back));
    EXPECT_EQ(full_back, full) << link;
  }
  for (const std::string& key : engine::contract::ScenarioFieldNames()) {
    if (key == "model") continue;  // has its own tests
    EXPECT_TRUE(away.count(key)) << key << " is never set away from its default here, so no link carries it";
  }
}

TEST(UrlState, NumbersAreWrittenShort) {
  const std::string link = engine::link::EncodeUrlState(
      {{"tokens", 2e9}, {"budget", 40000}, {"deadline_days", 2.5}, {"mfu", 1.5e-7}}, {});
  EXPECT_NE(link.find("tokens=2e9"), std::string::npos) << link;
  EXPECT_NE(link.find("budget=40000"), std::string::npos) << link;
  EXPECT_NE(link.find("deadline_days=2.5"), std::string::npos) << link;
  EXPECT_NE(link.find("mfu=1.5e-7"), std::string::npos) << link;
}

TEST(UrlState, ParamsBModelRoundTrips) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("v=1&params_b=13.5&method=qlora", Cat());
  EXPECT_TRUE(s.ignored.empty());
  EXPECT_EQ(s.scenario["model"]["params_b"].get<double>(), 13.5);
  EXPECT_NE(engine::link::EncodeUrlState(s.scenario, {}).find("params_b=13.5"), std::string::npos);
}

TEST(UrlState, BrokenParametersAreNamedAndTheRestApplies) {
  const engine::link::UrlState s = engine::link::DecodeUrlState(
      "v=1&model=llama-3-8b&seq_len=abc&method=sideways&colour=blue&gpus=16&tp=3&lang=fr&budget=-5"
      "&micro_batch=%ZZ&novalue&flash_attention=maybe&zero=3",
      Cat());
  EXPECT_TRUE(Mentions(s.ignored, "seq_len"));
  EXPECT_TRUE(Mentions(s.ignored, "method"));
  EXPECT_TRUE(Mentions(s.ignored, "colour"));
  EXPECT_TRUE(Mentions(s.ignored, "tp"));  // 3 does not divide Llama-3-8B's 32 heads
  EXPECT_TRUE(Mentions(s.ignored, "lang"));
  EXPECT_TRUE(Mentions(s.ignored, "budget"));
  EXPECT_TRUE(Mentions(s.ignored, "micro_batch=%ZZ"));
  EXPECT_TRUE(Mentions(s.ignored, "novalue"));
  EXPECT_TRUE(Mentions(s.ignored, "flash_attention"));
  EXPECT_EQ(s.scenario["gpus"], 16);
  EXPECT_EQ(s.scenario["zero"], 3);
  EXPECT_FALSE(s.scenario.contains("tp"));
  EXPECT_TRUE(engine::contract::ScenarioFromJson(s.scenario, Cat()).ok());
}

TEST(UrlState, UnknownPresetAndGpuAreDropped) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("model=gpt-9&gpu=h999&seq_len=2048", Cat());
  EXPECT_TRUE(Mentions(s.ignored, "model"));
  EXPECT_TRUE(Mentions(s.ignored, "gpu"));
  EXPECT_EQ(s.scenario["seq_len"], 2048);
}

TEST(UrlState, BrokenCustomArchitectureFallsBackToThePagesModel) {
  // 4096 is not divisible by 7 heads, so the architecture as a whole is refused.
  const engine::link::UrlState s =
      engine::link::DecodeUrlState("m.layers=32&m.hidden=4096&m.heads=7&m.ffn=11008&m.vocab=32000&seq_len=1024", Cat());
  EXPECT_FALSE(s.ignored.empty());
  EXPECT_FALSE(s.scenario.contains("model"));
  EXPECT_EQ(s.scenario["seq_len"], 1024);
}

// Each refused value is dropped in turn, however many there are; the rest still applies.
TEST(UrlState, ThreeRefusedValuesAreAllDropped) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("v=1&gpus=0&method=sft&model=gpt-9&seq_len=2048", Cat());
  EXPECT_TRUE(Mentions(s.ignored, "gpus"));
  EXPECT_TRUE(Mentions(s.ignored, "method"));
  EXPECT_TRUE(Mentions(s.ignored, "model"));
  EXPECT_EQ(s.scenario["seq_len"], 2048);
  EXPECT_FALSE(s.scenario.contains("gpus"));
  engine::contract::Json doc = s.scenario;
  doc["model"] = "llama-3-8b";
  EXPECT_TRUE(engine::contract::ScenarioFromJson(doc, Cat()).ok());
}

// The planner's goal is checked against the catalog too: an unknown currency or GPU in
// allowed_gpus is named in the notice, not left for the plan panel to refuse.
TEST(UrlState, GoalValuesTheCatalogLacksAreDropped) {
  const engine::link::UrlState s =
      engine::link::DecodeUrlState("v=1&model=llama-3-8b&currency=XYZ&allowed_gpus=abacus&budget=5000", Cat());
  EXPECT_TRUE(Mentions(s.ignored, "currency"));
  EXPECT_TRUE(Mentions(s.ignored, "allowed_gpus"));
  EXPECT_FALSE(s.scenario.contains("currency"));
  EXPECT_FALSE(s.scenario.contains("allowed_gpus"));
  EXPECT_EQ(s.scenario["budget"], 5000);
}

// A refused field of a custom architecture is one notice naming it, not a second
// "model: is required" for the architecture it leaves incomplete.
TEST(UrlState, RefusedArchitectureIsOneNotice) {
  const engine::link::UrlState s =
      engine::link::DecodeUrlState("m.layers=32&m.hidden=4096&m.heads=7&m.ffn=11008&m.vocab=32000", Cat());
  ASSERT_EQ(s.ignored.size(), 1u) << s.ignored.front().english << " / " << s.ignored.back().english;
  EXPECT_TRUE(s.ignored[0].english.starts_with("m.heads:")) << s.ignored[0].english;
  EXPECT_FALSE(s.scenario.contains("model"));
}

TEST(UrlState, NewerOrBrokenVersionIsNoticedAndReadAsCurrent) {
  EXPECT_TRUE(Mentions(engine::link::DecodeUrlState("v=7&seq_len=2048", Cat()).ignored, "v"));
  EXPECT_TRUE(Mentions(engine::link::DecodeUrlState("v=x&seq_len=2048", Cat()).ignored, "v"));
  EXPECT_EQ(engine::link::DecodeUrlState("v=7&seq_len=2048", Cat()).scenario["seq_len"], 2048);
}

TEST(UrlState, OversizedLinksAreRefusedWhole) {
  const std::string huge(engine::link::kMaxUrlStateBytes + 1, 'a');
  const engine::link::UrlState s = engine::link::DecodeUrlState(huge, Cat());
  EXPECT_TRUE(Mentions(s.ignored, "link"));
  std::string many = "v=1";
  for (int i = 0; i < 500; ++i) many += "&seq_len=" + std::to_string(1024 + i);
  EXPECT_TRUE(Mentions(engine::link::DecodeUrlState(many, Cat()).ignored, "link"));
}

TEST(UrlState, NonFiniteAndHugeNumbersAreRefused) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("seq_len=nan&gpus=inf&tokens=1e999&micro_batch=1e300", Cat());
  for (const char* key : {"seq_len", "gpus", "tokens", "micro_batch"}) EXPECT_TRUE(Mentions(s.ignored, key)) << key;
  EXPECT_TRUE(s.scenario.empty());
}

// Found by an outside run: m.* fields beside a named model vanished without a notice, and
// a 1-GPU job's gpus_per_node 8 was left out of its link (8 is the usual default, but a
// 1-GPU job's is 1), so the link read back another node size.
TEST(UrlStateOutside, ArchitectureFieldsBesideANamedModelAreNamed) {
  const engine::link::UrlState s = engine::link::DecodeUrlState("#v=1&model=llama-3-8b&m.layers=3&m.hidden=5", Cat());
  ASSERT_EQ(s.ignored.size(), 2u);
  EXPECT_TRUE(s.ignored[0].english.starts_with("m.hidden: ignored")) << s.ignored[0].english;
  EXPECT_EQ(s.scenario["model"], "llama-3-8b");
}

TEST(UrlStateOutside, NodeSizeOfOneGpuJobRoundTrips) {
  const engine::contract::Json doc = {{"model", "llama-3-8b"}, {"gpus_per_node", 8}, {"tokens", 1e9}};
  const std::string link = engine::link::EncodeUrlState(doc, {});
  EXPECT_NE(link.find("gpus_per_node=8"), std::string::npos) << link;
  const engine::contract::Json sixteen = {{"model", "llama-3-8b"}, {"gpus", 16}, {"gpus_per_node", 8}};
  EXPECT_EQ(engine::link::EncodeUrlState(sixteen, {}).find("gpus_per_node"), std::string::npos);
}

}  // namespace
