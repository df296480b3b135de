// The 简体中文 page is complete: every string the UI draws through T()/L() has a
// translation, every engine message renders from a Chinese template (coverage by id:
// tests/wasm/ui/message_templates_test.cpp), and every character of the translations and of
// the catalog's Chinese prose is in the embedded font.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog_loader.h"
#include "engine/architecture_fields.h"
#include "engine/exports/proposal.h"
#include "engine/goal_fields.h"
#include "engine/message.h"
#include "engine/planner.h"
#include "engine/scenario_fields.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "wasm/ui/i18n.h"
#include "wasm/ui/refusal.h"
#include "wasm/ui/theme.h"

namespace {

// The string literals passed to T("...") and L("...") in the UI sources; adjacent
// literals ("a " "b") are joined as the compiler joins them, and "##id" is cut off.
std::set<std::string> UiStrings() {
  std::set<std::string> found;
  const std::regex call(R"re(\b[TL]\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\))re");
  const std::regex literal(R"re("((?:[^"\\]|\\.)*)")re");
  for (const auto& entry : std::filesystem::directory_iterator(TRAINSIZER_SOURCE_DIR "/wasm/ui")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), call), end; it != end; ++it) {
      std::string joined;
      const std::string parts = (*it)[1];
      for (std::sregex_iterator lit(parts.begin(), parts.end(), literal); lit != end; ++lit) joined += (*lit)[1];
      joined = std::regex_replace(joined, std::regex(R"(\\")"), "\"");
      if (const size_t hashes = joined.find("##"); hashes != std::string::npos) joined.resize(hashes);
      if (!joined.empty()) found.insert(joined);
    }
  }
  return found;
}

TEST(I18n, TableIsWellFormed) {
  for (const std::string& problem : ui::TableProblems()) ADD_FAILURE() << problem;
}

// Every label, tooltip and choice name of a table's fields on the form has its 简体中文;
// the count of rows drawn.
template <class Target>
int CheckFormTranslations(std::span<const engine::Field<Target>> fields) {
  int rows = 0;
  for (const engine::Field<Target>& f : fields) {
    if (f.section == engine::FormSection::kNone) continue;
    ++rows;
    EXPECT_NE(f.label, nullptr) << f.key;
    if (f.label == nullptr) continue;
    EXPECT_TRUE(ui::HasTranslation(f.label)) << "no 简体中文 for the label of " << f.key << ": \"" << f.label << "\"";
    EXPECT_TRUE(ui::HasTranslation(f.help)) << "no 简体中文 for the help of " << f.key << ": \"" << f.help << "\"";
    for (const char* choice : f.choice_labels) {
      EXPECT_TRUE(ui::HasTranslation(choice)) << "no 简体中文 for a choice of " << f.key << ": \"" << choice << "\"";
    }
    if (f.form.zero_text != nullptr) {
      EXPECT_TRUE(ui::HasTranslation(f.form.zero_text)) << f.key;
    }
  }
  return rows;
}

// The form's rows come from the field tables (scenario, architecture, goal), not from
// T("...") literals; the refusal notice is translated too.
TEST(I18n, EveryFormFieldIsTranslated) {
  EXPECT_GT(CheckFormTranslations(engine::ScenarioFields()), 30) << "the training and hardware sections";
  EXPECT_GE(CheckFormTranslations(engine::ArchitectureFields()), 11) << "the architecture form";
  EXPECT_GE(CheckFormTranslations(engine::GoalFields()), 7) << "the goal section";
  // The refusal notice is a message (input.refused, its parts nested); its hint a UI string.
  EXPECT_STRNE(ui::SafeModeHint(ui::Lang::kZh), ui::SafeModeHint(ui::Lang::kEn));
}

TEST(I18n, EveryUiStringIsTranslated) {
  const std::set<std::string> strings = UiStrings();
  EXPECT_GT(strings.size(), 20u) << "the source scan found too few T()/L() strings";
  for (const std::string& s : strings) EXPECT_TRUE(ui::HasTranslation(s)) << "no 简体中文 for: \"" << s << "\"";
}

// Every Chinese template is Chinese throughout: no English prose (four lowercase words in
// a row) outside its {slots}. Field names, units and product names are fine; a sentence is not.
TEST(I18n, ChineseTemplatesLeaveNoEnglishProse) {
  const std::regex prose(R"([a-z]+ [a-z]+ [a-z]+ [a-z]+)");
  for (std::string_view id : engine::MessageIds()) {
    const std::string* zh = ui::ChineseTemplate(id);
    if (zh == nullptr) continue;  // message_templates_test.cpp fails for it
    EXPECT_FALSE(std::regex_search(*zh, prose)) << "English in the Chinese template of " << id << ": " << *zh;
  }
}

TEST(I18n, MessagesRenderInChineseWithTheirArguments) {
  const engine::Warning w = engine::MakeWarning(
      "does_not_fit", {engine::BytesArg("need_bytes", 38.31 * 1073741824.0), engine::TextArg("gpu", "NVIDIA GeForce RTX 4090"),
                       engine::BytesArg("capacity_bytes", 23.99 * 1073741824.0)});
  EXPECT_EQ(w.message, "Needs 38.31 GiB per GPU but NVIDIA GeForce RTX 4090 has 23.99 GiB.");
  ui::SetLanguage(ui::Lang::kZh);
  const std::string zh = ui::WarningText(w);
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_NE(zh.find("38.31 GiB"), std::string::npos) << zh;
  EXPECT_NE(zh.find("23.99 GiB"), std::string::npos) << zh;
  EXPECT_EQ(zh.find("Needs"), std::string::npos) << zh;
  EXPECT_EQ(ui::WarningText(w), w.message);
}

std::string PageRenderer(std::string_view id, const std::vector<engine::MessageArg>& args) {
  return ui::MessageText(id, args);
}

// The printed proposal speaks the page's language: its headings, row names and sentences
// come from the Chinese templates, with the plan's figures in them.
TEST(I18n, ProposalPrintsInChinese) {
  const engine::Catalog& cat = catalog::Embedded().value();
  engine::Scenario s;
  s.model = cat.FindModel("llama-3-70b")->spec;
  s.training.method = engine::Method::kFull;
  s.training.tokens = 2e9;
  s.training.global_batch = 256;
  engine::PlanConstraints goal;
  goal.deadline_days = 7;  // no budget: several plans on the front, so an alternative too
  const auto plan = engine::RunPlan(s, goal, cat);
  ASSERT_TRUE(plan.ok());
  ui::SetLanguage(ui::Lang::kZh);
  const std::string zh = engine::exports::PlanProposal(s, goal, plan.value(), cat, &PageRenderer);
  ui::SetLanguage(ui::Lang::kEn);
  for (const char* part : {"# 训练方案：Llama 3 70B", "## 推荐方案：", "## 备选方案：", "启动与收尾", "**风险**",
                           "**下单前检查清单**", "## 未入选的 GPU"}) {
    EXPECT_NE(zh.find(part), std::string::npos) << part << "\n" << zh.substr(0, 1500);
  }
  for (const char* english : {"Recommended", "Alternative", "Memory per GPU", "start-up", "Risks", "full", "{"}) {
    EXPECT_EQ(zh.find(english), std::string::npos) << english;
  }
}

TEST(I18n, EmbeddedFontsCoverEveryTranslatedCharacter) {
  ImGui::CreateContext();
  const ui::Fonts fonts = ui::LoadFontsAndStyle(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  std::set<unsigned> missing;
  std::vector<std::string> texts = ui::AllTranslations();
  // The catalog's own Chinese (engine/local_text.h): examples, export notes, networks, facility figures.
  const engine::Catalog& cat = catalog::Embedded().value();
  for (const engine::Example& x : cat.examples) texts.insert(texts.end(), {x.title.zh, x.description.zh});
  for (const engine::GpuSpec& g : cat.gpus) texts.insert(texts.end(), {g.export_note_cn.zh, g.seed_claim.zh, g.seed_datasheet.zh});
  for (const engine::FabricSpec& f : cat.fabrics) texts.push_back(f.name.zh);
  for (const engine::FacilityFigure& f : cat.facility) texts.insert(texts.end(), {f.name.zh, f.unit.zh});
  for (const std::string& text : texts) {
    for (const char* p = text.c_str(); *p != 0;) {
      unsigned c = 0;
      const int n = ImTextCharFromUtf8(&c, p, nullptr);
      p += n > 0 ? n : 1;
      if (c >= 0x20 && fonts.body->FindGlyphNoFallback(ImWchar(c)) == nullptr) missing.insert(c);
    }
  }
  ImGui::DestroyContext();
  for (unsigned c : missing) ADD_FAILURE() << "no glyph for U+" << std::hex << c;
}

}  // namespace
