#include "i18n.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "engine/contract/json_fields.h"
#include "format.h"
#include "translations.h"

namespace ui {
namespace {

struct Table {
  std::unordered_map<std::string, std::string> messages;  // message id -> 中文 template (engine/message.h)
  std::unordered_map<std::string, std::string> strings;  // English -> 中文 (UI strings, exact sentences)
  std::vector<std::string> problems;
};

// Reads one translation file into the table; later files add to earlier ones.
void LoadFile(const EmbeddedFile& file, Table& t) {
  const engine::contract::Json doc = engine::contract::Json::parse(file.text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    t.problems.push_back(std::string(file.name) + " is not valid JSON");
    return;
  }
  if (doc.contains("messages") && doc["messages"].is_object()) {
    for (const auto& [id, zh] : doc["messages"].items()) {
      if (zh.is_string()) t.messages[id] = zh.get<std::string>();
    }
  }
  if (doc.contains("strings") && doc["strings"].is_object()) {
    for (const auto& [en, zh] : doc["strings"].items()) {
      if (zh.is_string()) t.strings[en] = zh.get<std::string>();
    }
  }
  // Engine sentences are messages with ids (engine/message.h); a table of English
  // sentences to match is a mistake.
  if (doc.contains("patterns")) t.problems.push_back(std::string(file.name) + " has \"patterns\": use message templates");
}

// zh-ui.json holds the page's own strings, zh-messages*.json the engine's templates by id.
Table LoadTable() {
  Table t;
  for (const EmbeddedFile& file : EmbeddedTranslations()) LoadFile(file, t);
  return t;
}

const Table& GetTable() {
  static const Table table = LoadTable();
  return table;
}

Lang g_lang = Lang::kEn;

// Looks `english` up, or returns nullptr.
const std::string* Lookup(std::string_view english) {
  const Table& t = GetTable();
  const auto it = t.strings.find(std::string(english));
  return it == t.strings.end() ? nullptr : &it->second;
}

// Caches keyed by the English text: the page asks for the same strings every frame.
template <class Make>
const std::string& Cached(std::unordered_map<std::string, std::string>& cache, const std::string& key, Make make) {
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() > 8192) cache.clear();  // bounded: numbers in messages change
  return cache.emplace(key, make()).first->second;
}

}  // namespace

void SetLanguage(Lang lang) { g_lang = lang; }
Lang Language() { return g_lang; }
const char* LanguageCode(Lang lang) { return lang == Lang::kZh ? "zh" : "en"; }
Lang LanguageFromCode(std::string_view code) { return code.starts_with("zh") ? Lang::kZh : Lang::kEn; }

const char* T(const char* english) { return Translate(g_lang, english); }

const char* Translate(Lang lang, const char* english) {
  if (lang == Lang::kEn) return english;
  const std::string* zh = Lookup(english);
  return zh != nullptr ? zh->c_str() : english;
}

const char* L(const char* english) {
  static std::unordered_map<std::string, std::string> cache;
  const char* hashes = std::strstr(english, "##");
  const std::string visible = hashes != nullptr ? std::string(english, size_t(hashes - english)) : english;
  const std::string key = std::string(english) + (g_lang == Lang::kZh ? "\x01zh" : "");
  return Cached(cache, key, [&] {
    const std::string* zh = g_lang == Lang::kZh ? Lookup(visible) : nullptr;
    const std::string shown = zh != nullptr ? *zh : visible;
    return shown + "###" + english;  // the ID is the English label in every language
  }).c_str();
}

// An argument as the page shows it. The same forms as the English text for now; this is
// where a locale's number formatting goes.
std::string PageArg(const engine::MessageArg& arg) {
  if (arg.kind == engine::ArgKind::kMessage) return arg.nested.empty() ? "" : MessageText(arg.nested.front());
  if (arg.kind == engine::ArgKind::kMoney) return MoneyText(arg.number, arg.text);
  if (arg.kind == engine::ArgKind::kText && g_lang == Lang::kZh && !arg.text_zh.empty()) return arg.text_zh;
  return engine::EnglishArg(arg);
}

std::string MessageText(std::string_view id, const std::vector<engine::MessageArg>& args) {
  if (g_lang == Lang::kZh) {
    const auto it = GetTable().messages.find(std::string(id));
    if (it != GetTable().messages.end()) return engine::FillTemplate(it->second, args, PageArg);
  }
  return engine::FillTemplate(engine::EnglishTemplate(id), args, PageArg);
}

// A message without an id is a sentence the engine made without a template: shown as it is.
std::string MessageText(const engine::Message& message) {
  if (message.id.empty()) return message.english;
  return MessageText(message.id, message.args);
}

std::string WarningText(const engine::Warning& warning) {
  if (warning.template_id.empty()) return warning.message;
  return MessageText(warning.template_id, warning.args);
}

std::string ErrorText(const engine::InputError& error) { return MessageText(engine::ErrorMessage(error)); }

const std::string* ChineseTemplate(std::string_view id) {
  const auto it = GetTable().messages.find(std::string(id));
  return it == GetTable().messages.end() ? nullptr : &it->second;
}

bool HasTranslation(std::string_view english) { return Lookup(english) != nullptr; }

std::vector<std::string> AllTranslations() {
  std::vector<std::string> all;
  for (const auto& [en, zh] : GetTable().strings) all.push_back(zh);
  for (const auto& [id, zh] : GetTable().messages) all.push_back(zh);
  return all;
}

std::vector<std::string> TableProblems() { return GetTable().problems; }

}  // namespace ui
