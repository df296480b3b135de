#include "message.h"

#include <cstdlib>
#include <utility>

#include "format.h"
#include "message_templates.h"

namespace engine {

MessageArg CountArg(std::string name, long long value) {
  return {std::move(name), ArgKind::kCount, static_cast<double>(value), ""};
}

MessageArg NumberArg(std::string name, double value) { return {std::move(name), ArgKind::kNumber, value, ""}; }

MessageArg BytesArg(std::string name, double bytes) { return {std::move(name), ArgKind::kBytes, bytes, ""}; }

MessageArg TextArg(std::string name, std::string text) {
  return {std::move(name), ArgKind::kText, 0, std::move(text)};
}

std::string EnglishArg(const MessageArg& arg) {
  switch (arg.kind) {
    case ArgKind::kCount: return std::to_string(static_cast<long long>(arg.number));
    case ArgKind::kNumber: return Num(arg.number);
    case ArgKind::kBytes: return GiBText(arg.number);
    case ArgKind::kText: return arg.text;
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
  for (const MessageTemplate& t : MessageTemplates()) {
    if (t.id == id) return t.english;
  }
  std::abort();  // an id without a template: a programming error, caught by every test
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
