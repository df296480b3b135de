// The page in English or 简体中文. Every string the UI draws goes through T() (text) or
// L() (a widget label, whose ImGui ID stays the English text so switching language keeps
// open sections open). Engine messages (warnings, input errors, link notices) come as
// template ids with typed arguments (engine/message.h), rendered from
// wasm/ui/i18n/zh-messages*.json; the engine sentences not yet given an id are still
// translated by the {}-patterns of wasm/ui/i18n/zh.json.
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

// Engine text not yet given a template id (checklist answers, bill-of-materials reasons,
// rejections, the catalog's own errors): one or more sentences, each matching a pattern of the table with
// {} where the engine put a number or a name. Falls back to the English text unless every
// sentence is covered.
const std::string& TranslateMessage(const std::string& english);

// An engine message (engine/message.h) in the page's language: the template of `id` in
// that language, its arguments formatted for the page. A message without an id (an input
// error's sentence not yet given one) is its English text.
std::string MessageText(std::string_view id, const std::vector<engine::MessageArg>& args);
std::string MessageText(const engine::Message& message);
// A warning in the page's language: from its template, or (a warning not yet given one)
// its English sentence matched against the patterns.
std::string WarningText(const engine::Warning& warning);
// An input error's message (not its field) in the page's language: from its template, or
// (an error not yet given one: code empty) its English message, matched against the
// patterns like a warning's.
std::string ErrorText(const engine::InputError& error);

// For tests: the 简体中文 template of message `id`, or nullptr when it has none.
const std::string* ChineseTemplate(std::string_view id);
// For tests: whether the Chinese table covers `english` (a UI string or engine message).
bool HasTranslation(std::string_view english);
bool CoversMessage(const std::string& english);
// Every translated (Chinese) string in the table, for the glyph-coverage test.
std::vector<std::string> AllTranslations();
// Problems in the table itself (a pattern whose placeholders do not match), for tests.
std::vector<std::string> TableProblems();

}  // namespace ui
