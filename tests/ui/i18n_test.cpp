// The 简体中文 page is complete: every string the UI draws through T()/L() and every
// sentence the engine says (warnings, checklist, bill of materials, planner rejections)
// has a translation, and every character of the translations is in the embedded font.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/codec/catalog_loader.h"
#include "engine/estimate.h"
#include "engine/planner.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "wasm/ui/i18n.h"
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

TEST(I18n, EveryUiStringIsTranslated) {
  const std::set<std::string> strings = UiStrings();
  EXPECT_GT(strings.size(), 20u) << "the source scan found too few T()/L() strings";
  for (const std::string& s : strings) EXPECT_TRUE(ui::HasTranslation(s)) << "no 简体中文 for: \"" << s << "\"";
}

// Engine sentences from a sweep of scenarios that together reach every message: methods,
// precisions, GPUs of every stack, layouts across nodes, too-large models, long contexts.
std::vector<std::string> EngineSentences() {
  const engine::Catalog& catalog = catalog::Embedded().value();
  std::vector<std::string> out;
  auto collect = [&](const engine::Estimate& e) {
    for (const engine::Warning& w : e.warnings) out.push_back(w.message);
    for (const engine::CheckItem& c : e.checklist) {
      out.push_back(c.topic);
      out.push_back(c.answer);
    }
    for (const engine::BomLine& line : e.server.lines) {
      out.push_back(line.item);
      out.push_back(line.why);
    }
  };
  const char* presets[] = {"llama-3-8b", "llama-3-70b", "mixtral-8x7b", "deepseek-v3"};
  const char* gpus[] = {"h100-sxm-80gb", "rtx-4090-24gb", "mi300x-192gb", "ascend-910b-64gb", "tpu-v5p-95gb", "gaudi3-128gb", "h20-96gb"};
  const engine::Method methods[] = {engine::Method::kPretrain, engine::Method::kFull, engine::Method::kLora,
                                    engine::Method::kQlora, engine::Method::kFreeze};
  for (const char* preset_id : presets) {
    const engine::ModelPreset* preset = catalog.FindModel(preset_id);
    if (preset == nullptr) continue;
    for (const char* gpu : gpus) {
      if (catalog.FindGpu(gpu) == nullptr) continue;
      for (engine::Method method : methods) {
        for (int gpus_n : {1, 16}) {
          engine::Scenario s;
          s.model = preset->spec;
          s.gpu_id = gpu;
          s.training.method = method;
          s.training.tokens = 1e9;
          s.training.seq_len = gpus_n == 1 ? 4096 : 65536;
          s.training.flash_attention = gpus_n == 1;
          s.training.precision = gpus_n == 1 ? engine::Precision::kBf16 : engine::Precision::kFp16;
          s.training.auto_restart = gpus_n == 1;
          s.parallel.gpus = gpus_n;
          s.parallel.zero = gpus_n == 1 ? 0 : 3;
          auto e = engine::RunEstimate(s, catalog);
          if (e.ok()) collect(e.value());
        }
      }
    }
    engine::Scenario s;
    s.model = preset->spec;
    s.training.tokens = 1e10;
    engine::PlanConstraints goal;
    goal.deadline_days = 1;
    goal.budget = 1000;
    goal.max_gpus = 64;
    auto plan = engine::RunPlan(s, goal, catalog);
    if (plan.ok()) {
      for (const engine::Rejection& r : plan.value().rejected) out.push_back(r.reason);
    }
  }
  return out;
}

TEST(I18n, EveryEngineSentenceIsTranslated) {
  std::set<std::string> missing;
  for (const std::string& sentence : EngineSentences()) {
    if (!ui::CoversMessage(sentence)) missing.insert(sentence);
  }
  for (const std::string& m : missing) ADD_FAILURE() << "no 简体中文 pattern covers: \"" << m << "\"";
}

TEST(I18n, TranslatesPatternsWithTheirNumbers) {
  ui::SetLanguage(ui::Lang::kZh);
  EXPECT_STREQ(ui::T("Dark theme"), "深色主题");
  EXPECT_EQ(std::string(ui::L("Dark theme")), "深色主题###Dark theme");
  ui::SetLanguage(ui::Lang::kEn);
  EXPECT_STREQ(ui::T("Dark theme"), "Dark theme");
  EXPECT_EQ(std::string(ui::L("Dark theme##x")), "Dark theme###Dark theme##x");
}

// Every character of every translation has a glyph in the page's fonts (Inter + the
// WenQuanYi subset built from the characters the sources use), so no tofu boxes.
TEST(I18n, EmbeddedFontsCoverEveryTranslatedCharacter) {
  ImGui::CreateContext();
  const ui::Fonts fonts = ui::LoadFontsAndStyle(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  std::set<unsigned> missing;
  for (const std::string& text : ui::AllTranslations()) {
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
