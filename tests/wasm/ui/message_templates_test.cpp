// Messages as data (engine/message.h): coverage is checked by enumerating template ids,
// not by sweeping scenarios. Every id the engine has is drawn in 简体中文 from its own
// template, and that template has exactly the English template's {slots}.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "engine/message.h"
#include "wasm/ui/i18n.h"

namespace {

std::set<std::string> Slots(std::string_view text) {
  std::set<std::string> slots;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    const size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    slots.insert(std::string(text.substr(open + 1, close - open - 1)));
  }
  return slots;
}

TEST(MessageTemplates, EveryIdHasAChineseTemplate) {
  for (std::string_view id : engine::MessageIds()) {
    EXPECT_NE(ui::ChineseTemplate(id), nullptr) << "wasm/ui/i18n/zh-messages*.json has no template for " << id;
  }
}

TEST(MessageTemplates, ChineseTemplatesFillTheSameSlots) {
  for (std::string_view id : engine::MessageIds()) {
    const std::string* zh = ui::ChineseTemplate(id);
    if (zh == nullptr) continue;
    EXPECT_EQ(Slots(*zh), Slots(engine::EnglishTemplate(id))) << "message " << id << ": " << *zh;
  }
}

TEST(MessageTemplates, IdsAreUniqueAndNamed) {
  std::set<std::string_view> seen;
  for (std::string_view id : engine::MessageIds()) {
    EXPECT_FALSE(id.empty());
    EXPECT_TRUE(seen.insert(id).second) << "two templates for " << id;
  }
}

TEST(MessageTemplates, NestedMessagesAndMoneyRenderInEnglish) {
  const engine::Message inner = engine::MakeMessage("sequence_parallel_without_tp");
  engine::MessageArg nested = engine::MessageArgOf("reason", inner);
  EXPECT_EQ(engine::EnglishArg(nested), "sequence_parallel has no effect with tp = 1.");
  EXPECT_EQ(engine::EnglishArg(engine::MoneyArg("cost", 16479.4, "USD")), "16,479 USD");
}

}  // namespace
