// The page in English or 简体中文. Every string the UI draws goes through T() (text) or
// L() (a widget label, whose ImGui ID stays the English text so switching language keeps
// open sections open), from wasm/ui/i18n/zh-ui.json. Everything the engine says comes as a
// template id with typed arguments (engine/message.h), rendered from
// wasm/ui/i18n/zh-messages*.json; catalog prose carries its own Chinese
// (engine/local_text.h). Nothing is translated by matching English sentences.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/result.h"

namespace ui {

enum class Lang { kEn, kZh };

void SetLanguage(Lang lang);
Lang Language();
// "en" / "zh" (for links); the language a browser's navigator.language asks for.
const char* LanguageCode(Lang lang);
Lang LanguageFromCode(std::string_view code);

// `english` in the current language (itself when there is no translation). The pointer
// stays valid for the program's life.
const char* T(const char* english);
// The same in a given language (the fonts are built for Chinese whatever the page shows).
const char* Translate(Lang lang, const char* english);

// A widget label in the current language with a language-independent ID: "Label" and
// "Label##id" become "标签###Label" and "标签###Label##id".
const char* L(const char* english);

// An engine message (engine/message.h) in the page's language: the template of `id` in
// that language, its arguments formatted for the page.
std::string MessageText(std::string_view id, const std::vector<engine::MessageArg>& args);
std::string MessageText(const engine::Message& message);
// A warning in the page's language, from its template.
std::string WarningText(const engine::Warning& warning);
// An input error's message (not its field) in the page's language, from its template.
std::string ErrorText(const engine::InputError& error);

// For tests: the 简体中文 template of message `id`, or nullptr when it has none.
const std::string* ChineseTemplate(std::string_view id);
// For tests: whether the Chinese table has the UI string `english`.
bool HasTranslation(std::string_view english);
// Every translated (Chinese) string in the table, for the glyph-coverage test.
std::vector<std::string> AllTranslations();
// Problems in the table files themselves (not JSON, a leftover "patterns" table), for tests.
std::vector<std::string> TableProblems();

}  // namespace ui
