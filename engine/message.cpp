#include "message.h"

#include <cstdlib>
#include <unordered_map>
#include <utility>

#include "format.h"
#include "message_templates.h"

namespace engine {
namespace {

MessageArg Arg(std::string name, ArgKind kind, double number, std::string text) {
  MessageArg arg;
  arg.name = std::move(name);
  arg.kind = kind;
  arg.number = number;
  arg.text = std::move(text);
  return arg;
}

}  // namespace

MessageArg CountArg(std::string name, long long value) {
  return Arg(std::move(name), ArgKind::kCount, static_cast<double>(value), "");
}

MessageArg NumberArg(std::string name, double value) { return Arg(std::move(name), ArgKind::kNumber, value, ""); }

MessageArg ExactArg(std::string name, double value) { return Arg(std::move(name), ArgKind::kExact, value, ""); }

MessageArg BytesArg(std::string name, double bytes) { return Arg(std::move(name), ArgKind::kBytes, bytes, ""); }

MessageArg MoneyArg(std::string name, double amount, std::string currency) {
  return Arg(std::move(name), ArgKind::kMoney, amount, std::move(currency));
}

MessageArg TextArg(std::string name, std::string text) {
  return Arg(std::move(name), ArgKind::kText, 0, std::move(text));
}

MessageArg LocalTextArg(std::string name, const LocalText& text) {
  MessageArg arg = Arg(std::move(name), ArgKind::kText, 0, text.en);
  arg.text_zh = text.zh;
  return arg;
}

MessageArg MessageArgOf(std::string name, Message message) {
  MessageArg arg = Arg(std::move(name), ArgKind::kMessage, 0, "");
  arg.nested.push_back(std::move(message));
  return arg;
}

std::optional<Message> WordMessage(std::span<const EnglishWord> words, std::string_view english) {
  for (const EnglishWord& w : words) {
    if (w.english == english) return MakeMessage(w.id);
  }
  return std::nullopt;
}

Message MakeMessage(std::string id, std::vector<MessageArg> args) {
  std::string english = RenderEnglish(id, args);
  return Message{std::move(id), std::move(args), std::move(english)};
}

std::string EnglishArg(const MessageArg& arg) {
  switch (arg.kind) {
    case ArgKind::kCount: return std::to_string(static_cast<long long>(arg.number));
    case ArgKind::kNumber: return Num(arg.number);
    case ArgKind::kExact: return ExactNum(arg.number);
    case ArgKind::kBytes: return GiBText(arg.number);
    case ArgKind::kMoney: return Money(arg.number) + " " + arg.text;
    case ArgKind::kText: return arg.text;
    case ArgKind::kMessage: return arg.nested.empty() ? "" : arg.nested.front().english;
  }
  return "";
}

std::string FillTemplate(std::string_view text, const std::vector<MessageArg>& args,
                         std::string (*format)(const MessageArg&)) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('{', pos);
    const size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out += text.substr(pos, open - pos);
    const std::string_view slot = text.substr(open + 1, close - open - 1);
    const MessageArg* arg = nullptr;
    for (const MessageArg& a : args) {
      if (a.name == slot) arg = &a;
    }
    out += arg != nullptr ? format(*arg) : std::string(text.substr(open, close - open + 1));
    pos = close + 1;
  }
  out += text.substr(pos);
  return out;
}

std::string_view EnglishTemplate(std::string_view id) {
  static const std::unordered_map<std::string_view, std::string_view> by_id = [] {
    std::unordered_map<std::string_view, std::string_view> m;
    for (const MessageTemplate& t : MessageTemplates()) {
      if (!m.emplace(t.id, t.english).second) std::abort();  // one id, two templates: a programming error
    }
    return m;
  }();
  const auto it = by_id.find(id);
  if (it == by_id.end()) std::abort();  // an id without a template: a programming error, caught by every test
  return it->second;
}

std::vector<std::string_view> MessageIds() {
  std::vector<std::string_view> ids;
  for (const MessageTemplate& t : MessageTemplates()) ids.push_back(t.id);
  return ids;
}

std::string RenderEnglish(std::string_view id, const std::vector<MessageArg>& args) {
  return FillTemplate(EnglishTemplate(id), args, EnglishArg);
}

}  // namespace engine
