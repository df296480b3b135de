// Runs the whole page on Dear ImGui's null backend (no window, no GPU) for many frames
// while scripted edits change every kind of input, and fails on any ImGui assertion
// (mismatched Begin/End or Push/Pop, bad IDs, ...).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/service/api.h"
#include "catalog/catalog_loader.h"
#include "engine/planner.h"
#include "imgui.h"
#include "wasm/ui/app.h"
#include "wasm/ui/i18n.h"

namespace ui_test {

std::vector<std::string>& Failures() {
  static std::vector<std::string> failures;
  return failures;
}

void RecordImGuiAssert(const char* expression, const char* file, int line) {
  Failures().push_back(std::string(file) + ":" + std::to_string(line) + ": " + expression);
}

namespace {

class UiSmoke : public ::testing::Test {
 protected:
  void SetUp() override {
    Failures().clear();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60;
    fonts_ = ui::LoadFontsAndStyle(1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer backend would upload
    state_ = ui::MakeInitialState(session_);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame: recompute if an input changed, draw the page, render to draw lists.
  void Frame(ImVec2 mouse = ImVec2(-1, -1), bool click = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = mouse;
    io.MouseDown[0] = click;
    ImGui::NewFrame();
    ui::RecomputeIfDirty(state_);
    ui::AdvancePlan(state_, 0.001);  // a small share: the plan takes several frames
    ui::DrawApp(state_, fonts_);
    ImGui::Render();
  }

  ui::Fonts fonts_;
  engine::service::Session session_;  // outlives state_, which computes with its catalog
  ui::AppState state_;
};

// The planner runs a little each frame; the page keeps drawing and ends with the plans
// one RunPlan call gives.
TEST_F(UiSmoke, PlanSpreadOverFramesEndsWithRunPlansAnswer) {
  Frame();
  ASSERT_TRUE(state_.plan_search.has_value()) << "the first frame starts the planner";
  int frames = 1;
  for (; state_.plan_search && frames < 1000; ++frames) Frame();
  ASSERT_FALSE(state_.plan_search.has_value());
  ASSERT_TRUE(state_.plan.ok()) << state_.plan.error().message;
  auto whole = engine::RunPlan(state_.inputs.scenario, state_.goal, *state_.catalog);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(state_.plan.value().candidates, whole.value().candidates);
  ASSERT_FALSE(whole.value().picks.empty());
  EXPECT_EQ(state_.plan.value().picks.front().cost, whole.value().picks.front().cost);
  // The exports and the CLI plan the page's document: they must find the page's picks,
  // not only plans on the GPU the inputs name.
  const engine::service::Response exported = session_.Plan(ui::ScenarioDocument(state_).dump());
  ASSERT_TRUE(exported.ok) << exported.json;
  const engine::contract::Json picks = engine::contract::Json::parse(exported.json)["picks"];
  ASSERT_EQ(picks.size(), state_.plan.value().picks.size());
  for (size_t i = 0; i < picks.size(); ++i) {
    EXPECT_EQ(picks[i]["gpu"], state_.plan.value().picks[i].gpu_id) << "pick " << i;
  }
}

TEST_F(UiSmoke, ManyFramesWithScriptedEditsFireNoImGuiAsserts) {
  for (int i = 0; i < 5; ++i) Frame();
  // Every example, then edits that exercise each panel: errors shown in place, methods,
  // pipelines, offload, planner goals, narrow and high-DPI windows.
  for (const engine::Example& x : state_.catalog->examples) {
    ui::LoadExample(state_, x);
    for (int i = 0; i < 3; ++i) Frame();
  }
  engine::Scenario& s = state_.inputs.scenario;
  s.parallel.tp = 3;  // invalid: must divide heads; the page shows the error and keeps the last result
  state_.dirty = true;
  Frame();
  EXPECT_FALSE(state_.result.ok());
  s.parallel.tp = 8;
  s.parallel.gpus = 16;
  s.parallel.pp = 2;
  s.training.method = engine::Method::kQlora;
  s.parallel.offload = engine::Offload::kOptimizer;
  s.parallel.zero = 1;
  state_.goal.purchase = engine::Purchase::kOwn;
  state_.goal.budget = 0;
  state_.dirty = true;
  for (int i = 0; i < 3; ++i) Frame();
  EXPECT_TRUE(state_.result.ok()) << state_.result.error().field << ": " << state_.result.error().message;
  // A pasted config.json becomes editable architecture fields.
  state_.inputs.hf_config_text = R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
    "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "num_local_experts": 8,
    "num_experts_per_tok": 2, "vocab_size": 32000})";
  ui::ImportPastedConfig(state_);
  for (int i = 0; i < 3; ++i) Frame();
  EXPECT_EQ(state_.inputs.model_source, ui::ModelSource::kArchitecture);
  ASSERT_TRUE(state_.last_good.has_value());
  EXPECT_NEAR(state_.last_good->params.total / 1e9, 46.7, 0.05);  // Mixtral 8x7B: 46.7B
  // Tokens from dataset × epochs.
  s.training.tokens = 0;
  s.training.dataset_tokens = 5e8;
  s.training.epochs = 3;
  state_.dirty = true;
  Frame();
  ASSERT_TRUE(state_.last_good.has_value());
  EXPECT_DOUBLE_EQ(state_.last_good->time.tokens, 1.5e9);
  state_.inputs.model_source = ui::ModelSource::kParamCount;
  state_.inputs.params_b = 175;
  state_.dirty = true;
  ImGui::GetIO().DisplaySize = ImVec2(420, 900);  // narrow layout
  for (int i = 0; i < 3; ++i) Frame();
  // Sweep the mouse over the page, clicking, to open combos, tooltips and buttons.
  for (int y = 20; y < 900; y += 37) {
    for (int x = 10; x < 420; x += 53) {
      Frame(ImVec2(float(x), float(y)), true);
      Frame(ImVec2(float(x), float(y)), false);
    }
  }
  EXPECT_TRUE(Failures().empty()) << Failures().front();
}

// A window tall enough to show every section at once, clicked all over (opening the
// collapsed ones: exports, launch configs, assumptions), in Chinese, with edited figures.
TEST_F(UiSmoke, EverySectionOpenInChineseWithEditedAssumptions) {
  ui::SetLanguage(ui::Lang::kZh);
  ImGui::GetIO().DisplaySize = ImVec2(1280, 9000);
  for (int i = 0; i < 3; ++i) Frame();
  for (int pass = 0; pass < 2; ++pass) {
    for (int y = 10; y < 9000; y += 23) {
      Frame(ImVec2(40, float(y)), true);
      Frame(ImVec2(40, float(y)), false);
      Frame(ImVec2(500, float(y)), false);  // hover: tooltips
    }
  }
  ui::EditAssumption(state_, "facility", "pue-typical", "value", 1.2);
  ui::EditAssumption(state_, "offers", "aws-p5-48xlarge", "on_demand_per_hour", 30.0);
  const double tokens_per_s = state_.result.value().throughput.tokens_per_s;
  ui::EditAssumption(state_, "gpus", "h100-sxm-80gb", "gemm_efficiency", 0.33);  // half Hopper's 0.66
  for (int i = 0; i < 3; ++i) Frame();
  EXPECT_EQ(state_.catalog->FindFacility("pue-typical")->value, 1.2);
  EXPECT_EQ(state_.catalog->FindGpu("h100-sxm-80gb")->gemm_efficiency, 0.33);
  ASSERT_TRUE(state_.result.ok());
  EXPECT_LT(state_.result.value().throughput.tokens_per_s, 0.75 * tokens_per_s) << "slower GEMMs, slower training";
  ui::ResetAssumptions(state_);
  Frame();
  EXPECT_EQ(state_.catalog->FindFacility("pue-typical")->value, 1.4);
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_TRUE(Failures().empty()) << Failures().front();
}

// The link written for the inputs, read into a fresh page, gives the same inputs.
TEST_F(UiSmoke, LinkRoundTripsEveryInput) {
  engine::Scenario& s = state_.inputs.scenario;
  state_.inputs.preset_id = "llama-3-70b";
  s.training.method = engine::Method::kLora;
  s.training.lora_rank = 64;
  s.training.seq_len = 8192;
  s.training.tokens = 2e9;
  s.parallel.gpus = 16;
  s.parallel.tp = 4;
  s.parallel.zero = 1;
  state_.goal.deadline_days = 7;
  state_.goal.budget = 40000;
  state_.goal.currency = "EUR";
  state_.dirty = true;
  Frame();
  ASSERT_TRUE(state_.result.ok()) << state_.result.error().field << ": " << state_.result.error().message;
  const std::string link = state_.link_fragment;
  ui::AppState fresh = ui::MakeInitialState(session_);
  ui::ApplyLink(fresh, "#" + link);
  EXPECT_TRUE(fresh.link_notice.empty()) << fresh.link_notice.front().english;
  ui::RecomputeIfDirty(fresh);
  EXPECT_EQ(fresh.link_fragment, link);
  EXPECT_EQ(ui::ScenarioDocument(fresh), ui::ScenarioDocument(state_));
  // A corrupted link keeps what it can and names the rest.
  ui::ApplyLink(fresh, "#v=1&seq_len=oops&gpus=32&warp=9");
  EXPECT_EQ(fresh.link_notice.size(), 2u);
  EXPECT_EQ(fresh.inputs.scenario.parallel.gpus, 32);
}

// The 中文 page starts in China's market: CNY from Chinese clouds, the budget converted at
// the ECB cross rate of 2026-10-06 (7.5554 CNY / 1.1269 USD per EUR = 6.7046: $40,000 =
// ¥268,184, shown rounded);
// back in English it returns to USD anywhere. A goal set otherwise is left alone.
TEST_F(UiSmoke, ChineseStartsInChinasMarket) {
  ui::SetLanguage(ui::Lang::kZh);
  ui::FollowLanguageMarket(state_);
  EXPECT_EQ(state_.goal.currency, "CNY");
  EXPECT_EQ(state_.goal.region, "cn");
  EXPECT_EQ(state_.goal.budget, 268000);
  ui::SetLanguage(ui::Lang::kEn);
  ui::FollowLanguageMarket(state_);
  EXPECT_EQ(state_.goal.currency, "USD");
  EXPECT_EQ(state_.goal.region, "");
  state_.goal.currency = "EUR";
  ui::SetLanguage(ui::Lang::kZh);
  ui::FollowLanguageMarket(state_);
  EXPECT_EQ(state_.goal.currency, "EUR");
  ui::SetLanguage(ui::Lang::kEn);
}

// A scenario that does not fit shows no time or price of its own: once the planner is
// done, the top line and the cards give the best plan's, labelled as such.
TEST_F(UiSmoke, ScenarioThatDoesNotFitShowsTheBestPlan) {
  state_.inputs.preset_id = "llama-3-70b";  // 70B full fine-tune: 16 B × 70.6e9 / 8 = 141 GB a GPU
  state_.dirty = true;
  std::string text;
  for (int i = 0; i < 400 && (state_.plan_search || state_.dirty); ++i) Frame();
  ASSERT_TRUE(state_.result.ok());
  ASSERT_FALSE(state_.result.value().fits);
  ASSERT_TRUE(state_.plan.ok());
  ASSERT_FALSE(state_.plan.value().plans.empty());
  ImGui::NewFrame();
  ui::DrawApp(state_, fonts_, &text);
  ImGui::Render();
  EXPECT_NE(text.find("It does not fit on 8× NVIDIA H100"), std::string::npos) << text;
  EXPECT_NE(text.find("plan that fits:"), std::string::npos) << text.substr(0, 600);
  EXPECT_NE(text.find("Best plan: wall time"), std::string::npos);
  EXPECT_EQ(text.find("Rent it"), std::string::npos);  // no price for the job that cannot run
  EXPECT_TRUE(Failures().empty()) << Failures().front();
}

// The claim verdict draws for every verdict the examples give and for a claimed MFU, in
// both languages, without an ImGui assertion (the results panel places it).
TEST_F(UiSmoke, ClaimVerdictDrawsForEveryClaim) {
  std::vector<engine::ClaimVerdict> verdicts;
  auto draw = [&] {
    ui::RecomputeIfDirty(state_);
    ASSERT_TRUE(state_.result.ok()) << state_.result.error().field << ": " << state_.result.error().message;
    ASSERT_TRUE(state_.result.value().claim.present);
    verdicts.push_back(state_.result.value().claim.verdict);
    for (ui::Lang lang : {ui::Lang::kEn, ui::Lang::kZh}) {
      ui::SetLanguage(lang);
      ImGui::NewFrame();
      ImGui::Begin("claim");
      ui::DrawClaimVerdict(state_, state_.result.value());
      ImGui::End();
      ImGui::Render();
    }
    ui::SetLanguage(ui::Lang::kEn);
  };
  for (const engine::Example& x : state_.catalog->examples) {
    ui::LoadExample(state_, x);
    if (state_.inputs.scenario.training.claim.wall_hours > 0 || state_.inputs.scenario.training.claim.tokens_per_s > 0) {
      draw();
    }
  }
  state_.inputs.scenario.training.claim = {};
  state_.inputs.scenario.training.claim.mfu = 1.5;
  state_.dirty = true;
  draw();
  EXPECT_EQ(verdicts.back(), engine::ClaimVerdict::kImpossible);
  EXPECT_GE(verdicts.size(), 4u);
  EXPECT_TRUE(Failures().empty()) << Failures().front();
}

}  // namespace
}  // namespace ui_test
