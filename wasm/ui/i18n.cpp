#include "i18n.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <unordered_map>

#include "catalog/codec/json_fields.h"
#include "format.h"
#include "translations.h"

namespace ui {
namespace {

// An engine sentence pattern: the literal pieces between its {} slots, and the
// translation split the same way with the slot each gap takes.
struct Pattern {
  std::vector<std::string> english;  // slots + 1 pieces
  std::vector<std::string> chinese;  // gaps + 1 pieces
  std::vector<int> slot_order;       // for each Chinese gap, the English slot it shows
  std::string source;                // the English pattern, for messages
};

struct Table {
  std::unordered_map<std::string, std::string> messages;  // message id -> 中文 template (engine/message.h)
  std::unordered_map<std::string, std::string> strings;  // English -> 中文 (UI strings, exact sentences)
  size_t longest_string = 0;                              // the longest English key of `strings`
  std::vector<Pattern> patterns;
  std::vector<std::string> problems;
};

// "a {} b {1} c" -> pieces {"a ", " b ", " c"} and slots {-1 (next), 1}.
void SplitSlots(const std::string& text, std::vector<std::string>* pieces, std::vector<int>* slots) {
  pieces->assign(1, "");
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      const size_t close = text.find('}', i);
      if (close != std::string::npos) {
        int slot = -1;
        const std::string_view inside(text.data() + i + 1, close - i - 1);
        if (inside.empty() || std::from_chars(inside.data(), inside.data() + inside.size(), slot).ec == std::errc()) {
          slots->push_back(inside.empty() ? -1 : slot);
          pieces->push_back("");
          i = close;
          continue;
        }
      }
    }
    pieces->back().push_back(text[i]);
  }
}

// Reads one translation file into the table; later files add to earlier ones.
void LoadFile(const EmbeddedFile& file, Table& t) {
  const catalog::Json doc = catalog::Json::parse(file.text, nullptr, false);
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
  if (!doc.contains("patterns") || !doc["patterns"].is_object()) return;
  for (const auto& [en, zh] : doc["patterns"].items()) {
    if (!zh.is_string()) continue;
    Pattern p;
    p.source = en;
    std::vector<int> english_slots;
    SplitSlots(en, &p.english, &english_slots);
    SplitSlots(zh.get<std::string>(), &p.chinese, &p.slot_order);
    const int slots = int(p.english.size()) - 1;
    int next = 0;
    for (int& slot : p.slot_order) {
      if (slot < 0) slot = next++;
      if (slot >= slots) t.problems.push_back("pattern '" + en + "': translation uses slot " + std::to_string(slot));
    }
    if (slots > 0 && std::all_of(p.english.begin(), p.english.end(), [](const std::string& s) { return s.empty(); })) {
      t.problems.push_back("pattern '" + en + "' has no text besides {}: it would match anything");
    }
    if (slots == 0) {
      t.strings[en] = zh.get<std::string>();
    } else {
      t.patterns.push_back(std::move(p));
    }
  }
}

// zh.json holds the engine's sentences, zh-ui.json the page's own strings. Patterns are
// tried in the order of their English text, except that a pattern goes before a shorter
// one it extends: "{}: {}. Check the model's licence for your use." before "{}:" (which
// would take the name and leave the rest to other sentences), "must be between {} and {},
// got {}" before one ending in "and {}", whose last {} would swallow ", got 0".
Table LoadTable() {
  Table t;
  for (const EmbeddedFile& file : EmbeddedTranslations()) LoadFile(file, t);
  for (const auto& [english, chinese] : t.strings) t.longest_string = std::max(t.longest_string, english.size());
  std::stable_sort(t.patterns.begin(), t.patterns.end(), [](const Pattern& a, const Pattern& b) {
    return a.source + '\xff' < b.source + '\xff';  // no UTF-8 text has the byte 0xff
  });
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

// Matching state for one text: the positions from which the rest of it is known not to
// match. Without them a text with many places a sentence could start ("a: b: c: ... z",
// each "x:" a "{}:") would take time exponential in their number.
struct MatchMemo {
  std::vector<char> failed;
};

bool MatchSentences(const std::string& text, size_t pos, std::string* out, MatchMemo& memo, int depth);

// The sentences after a sentence that ends at `end`: none (the end of the text), or a
// space and more. Appends their Chinese to *tail.
bool MatchRest(const std::string& text, size_t end, std::string* tail, MatchMemo& memo, int depth) {
  if (end == text.size()) return true;
  return text[end] == ' ' && MatchSentences(text, end + 1, tail, memo, depth + 1);
}

// Matches sentences of `text` from `pos` to the end against the table: exact strings
// and patterns, each followed by the end or a space and the next sentence. Appends the
// Chinese to *out; false (with *out unchanged) when some sentence is not covered.
bool MatchFrom(const std::string& text, size_t pos, std::string* out, MatchMemo& memo, int depth) {
  const Table& t = GetTable();
  std::string tail;
  // Exact sentences: try every sentence end (a space) from here, up to the longest.
  for (size_t end = text.find(' ', pos);; end = text.find(' ', end + 1)) {
    const size_t stop = end == std::string::npos ? text.size() : end;
    if (stop - pos > t.longest_string) break;
    const auto it = t.strings.find(text.substr(pos, stop - pos));
    if (it != t.strings.end() && MatchRest(text, stop, &tail, memo, depth)) {
      *out += it->second + tail;
      return true;
    }
    if (end == std::string::npos) break;
  }
  for (const Pattern& p : t.patterns) {
    if (text.compare(pos, p.english[0].size(), p.english[0]) != 0) continue;
    // Depth-first over where each later literal piece occurs; the Chinese is put
    // together only once the rest of the text matches. Whether pieces from `piece` on
    // match from `at` depends on nothing else, and a piece that fails from `at` fails
    // from any later place too (it sees fewer occurrences): failed_from keeps the first.
    std::vector<std::string_view> captures;
    std::vector<size_t> failed_from(p.english.size(), std::string::npos);
    std::function<bool(size_t, size_t)> match = [&](size_t piece, size_t at) -> bool {
      if (piece == p.english.size()) {
        if (!MatchRest(text, at, &tail, memo, depth)) return false;
        *out += p.chinese[0];
        for (size_t gap = 0; gap < p.slot_order.size(); ++gap) {
          const std::string_view value = captures[size_t(p.slot_order[gap])];
          const std::string* word = Lookup(value);  // "full", "bf16", a checklist topic...
          *out += (word != nullptr ? std::string_view(*word) : value);
          *out += p.chinese[gap + 1];
        }
        *out += tail;
        return true;
      }
      const std::string& literal = p.english[piece];
      if (at >= failed_from[piece]) return false;
      if (literal.empty() && piece + 1 == p.english.size()) {
        // A trailing {} ("must be between {} and {}, got {}") runs to the end, or to a
        // space where the following sentences match; the shortest such run wins.
        for (size_t end = text.find(' ', at + 1);; end = text.find(' ', end + 1)) {
          const size_t stop = end == std::string::npos ? text.size() : end;
          if (stop > at) {
            captures.push_back(std::string_view(text).substr(at, stop - at));
            if (match(piece + 1, stop)) return true;
            captures.pop_back();
          }
          if (end == std::string::npos) break;
        }
        failed_from[piece] = std::min(failed_from[piece], at);
        return false;
      }
      for (size_t found = text.find(literal, at); found != std::string::npos; found = text.find(literal, found + 1)) {
        captures.push_back(std::string_view(text).substr(at, found - at));
        if (match(piece + 1, found + literal.size())) return true;
        captures.pop_back();
        if (literal.empty()) return false;  // {}{}: the first {} takes nothing
      }
      failed_from[piece] = std::min(failed_from[piece], at);
      return false;
    };
    if (match(1, pos + p.english[0].size())) return true;
  }
  return false;
}

// A position that failed once fails again, whatever path reaches it (the one exception,
// a text of more than 64 sentences, is cut by the depth limit that guards the stack).
bool MatchSentences(const std::string& text, size_t pos, std::string* out, MatchMemo& memo, int depth) {
  if (pos == text.size()) return true;
  if (depth > 64 || memo.failed[pos]) return false;
  if (MatchFrom(text, pos, out, memo, depth)) return true;
  memo.failed[pos] = 1;
  return false;
}

// The whole of `text`, sentence by sentence.
bool MatchText(const std::string& text, std::string* out) {
  MatchMemo memo{std::vector<char>(text.size() + 1, 0)};
  return MatchSentences(text, 0, out, memo, 0);
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

// Longer than any sentence the engine writes (the longest, a list of every catalog id, is
// under 1,500 bytes): such a text echoes a long input, and matching it could take a frame
// or more, so it stays in English.
constexpr size_t kMaxTranslatedBytes = 4096;

const std::string& TranslateMessage(const std::string& english) {
  if (g_lang == Lang::kEn || english.size() > kMaxTranslatedBytes) return english;
  static std::unordered_map<std::string, std::string> cache;
  return Cached(cache, english, [&] {
    std::string zh;
    return MatchText(english, &zh) ? zh : english;
  });
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

std::string MessageText(const engine::Message& message) {
  if (message.id.empty()) return TranslateMessage(message.english);  // not yet a template
  return MessageText(message.id, message.args);
}

std::string WarningText(const engine::Warning& warning) {
  if (warning.template_id.empty()) return TranslateMessage(warning.message);  // not yet a template
  return MessageText(warning.template_id, warning.args);
}

std::string ErrorText(const engine::InputError& error) { return MessageText(engine::ErrorMessage(error)); }

const std::string* ChineseTemplate(std::string_view id) {
  const auto it = GetTable().messages.find(std::string(id));
  return it == GetTable().messages.end() ? nullptr : &it->second;
}

bool HasTranslation(std::string_view english) { return Lookup(english) != nullptr; }

bool CoversMessage(const std::string& english) {
  std::string zh;
  return english.empty() || MatchText(english, &zh);
}

std::vector<std::string> AllTranslations() {
  std::vector<std::string> all;
  for (const auto& [en, zh] : GetTable().strings) all.push_back(zh);
  for (const auto& [id, zh] : GetTable().messages) all.push_back(zh);
  for (const Pattern& p : GetTable().patterns) {
    for (const std::string& piece : p.chinese) all.push_back(piece);
  }
  return all;
}

std::vector<std::string> TableProblems() { return GetTable().problems; }

}  // namespace ui
