// Catalog prose the page shows (example titles and descriptions, export notes, seed
// corrections, facility figure names and units, why a model preset is approximate) carries
// its 简体中文 beside the English ("title" and "title_zh"), read into engine::LocalText; the
// loader refuses a "_zh" field that is not a string, naming it.
#include "catalog/catalog_loader.h"
#include "engine/imports/hf_config.h"
#include "tests/catalog/embedded_catalog.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace catalog {
namespace {

// Chinese differs from the English, or the field is a unit written the same in both.
void ExpectChinese(const engine::LocalText& text, const std::string& where) {
  if (text.en.empty()) return;
  EXPECT_FALSE(text.zh.empty()) << where << " has no Chinese sibling";
  const bool symbol = text.en.find(' ') == std::string::npos && text.en.find('/') != std::string::npos;  // "USD/kWh"
  if (!symbol) {
    EXPECT_NE(text.zh, text.en) << where << " has no Chinese sibling (\"" << text.en << "\")";
  }
}

TEST(CatalogProse, EveryShownFieldHasChinese) {
  for (const engine::Example& x : Cat().examples) {
    ExpectChinese(x.title, "examples (" + x.id + "): title");
    ExpectChinese(x.description, "examples (" + x.id + "): description");
  }
  for (const engine::GpuSpec& g : Cat().gpus) {
    ExpectChinese(g.export_note_cn, "gpus (" + g.id + "): export_control.cn.note");
    ExpectChinese(g.seed_claim, "gpus (" + g.id + "): seed_correction.claim");
    ExpectChinese(g.seed_datasheet, "gpus (" + g.id + "): seed_correction.correct");
  }
  for (const engine::ModelPreset& m : Cat().models) ExpectChinese(m.approximate, "models (" + m.spec.id + "): approximate");
  for (const engine::FabricSpec& f : Cat().fabrics) ExpectChinese(f.name, "fabrics (" + f.id + "): name");
  for (const engine::FacilityFigure& f : Cat().facility) {
    ExpectChinese(f.name, "facility (" + f.id + "): name");
    ExpectChinese(f.unit, "facility (" + f.id + "): unit");
  }
}

TEST(CatalogProse, EnglishStaysAsWritten) {
  const engine::GpuSpec* a10 = Cat().FindGpu("a10-24gb");
  ASSERT_NE(a10, nullptr);
  EXPECT_EQ(a10->seed_claim.en, "A10 has 40/80 GB and ~312 BF16 TFLOPS");
  const engine::FacilityFigure* pue = Cat().FindFacility("pue-typical");
  ASSERT_NE(pue, nullptr);
  EXPECT_EQ(pue->unit.en, "ratio");
}

// A facility overlay whose name_zh is `zh` (JSON text).
std::string FacilityOverlay(const std::string& zh) {
  return R"({"facility":[{"id":"pue-typical","name":"edited","name_zh":)" + zh +
         R"(,"unit":"ratio","value":1.3,"source":"ours","source_date":"2026"}]})";
}

TEST(CatalogProse, ChineseSiblingMustBeAString) {
  auto ok = ApplyOverlay(Cat(), FacilityOverlay("\"改过\""), "overlay");
  ASSERT_TRUE(ok.ok()) << ok.error().field << ": " << ok.error().message;
  EXPECT_EQ(ok.value().FindFacility("pue-typical")->name.zh, "改过");
  auto bad = ApplyOverlay(Cat(), FacilityOverlay("3"), "overlay");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "overlay: facility[0] (pue-typical): name_zh");
  EXPECT_EQ(bad.error().message, "must be a string (the Chinese text of name), got a number");
  EXPECT_EQ(bad.error().code, "catalog.local_text");
}

TEST(CatalogProse, WithoutChineseTheEnglishIsShown) {
  const std::string overlay = R"({"facility":[{"id":"pue-typical","name":"edited","unit":"ratio","value":1.3,)"
                              R"("source":"ours","source_date":"2026"}]})";
  auto merged = ApplyOverlay(Cat(), overlay, "overlay");
  ASSERT_TRUE(merged.ok()) << merged.error().field << ": " << merged.error().message;
  EXPECT_EQ(merged.value().FindFacility("pue-typical")->name.zh, "edited");
}

// Catalog and config.json errors carry their template (engine/messages_catalog.cpp), so
// the page says them in its own language; the English is the same sentence as before.
TEST(CatalogMessages, ErrorsCarryTheirTemplate) {
  auto bad = ApplyOverlay(Cat(), R"({"gpus": 3})", "overlay");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "catalog.not_array");
  EXPECT_EQ(bad.error().message, "must be an array");
  auto hf = engine::imports::ImportHfConfig(engine::contract::Json::parse(R"({"text_config": {"model_type": "mistral", "hidden_size": 64}})"));
  ASSERT_FALSE(hf.ok());
  EXPECT_EQ(hf.error().code, "hf_config.text_config_defaults");
  EXPECT_EQ(hf.error().message,
            "is required to size the model; a text_config written by transformers leaves out the values equal to "
            "its config class's defaults, so copy the key from the language model's own config.json");
}

}  // namespace
}  // namespace catalog
