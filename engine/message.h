// Engine messages as data: a template id and typed arguments, so that each reader renders
// them in its own language. The CLI and the JSON `message` are English, from the templates
// in message_templates.cpp; the page renders the same id from its language's template
// (wasm/ui/i18n/zh-messages.json) and formats each argument itself. Nothing translates by
// matching English sentences.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "local_text.h"

namespace engine {

enum class ArgKind {
  kCount,    // a whole number: layers, GPUs, tokens of a sequence
  kNumber,   // a computed number, shown with three significant digits
  kExact,    // a number the user gave (or a limit it is held to), shown with every digit it needs
             // to read back as itself: 1.0000000000000002 just past a limit of 1 is not "1"
  kBytes,    // a size in bytes, shown in GiB
  kMoney,    // an amount of money in the currency `text` ("USD"), shown in whole units
  kText,     // a name, an id or the user's own text, shown as it is (never translated)
  kMessage,  // another message, rendered in the reader's language ("{reason}")
};

struct Message;

struct MessageArg {
  std::string name;  // the template's slot, with its unit where it has one ("need_bytes")
  ArgKind kind = ArgKind::kNumber;
  double number = 0;            // kCount, kNumber, kExact, kBytes, kMoney
  std::string text;             // kText; kMoney's currency code
  std::string text_zh;          // kText from catalog prose (LocalTextArg): its 简体中文, when it has one
  std::vector<Message> nested;  // kMessage: exactly one
};

// A sentence the engine says: its template id, its arguments, and its English text (the
// CLI's and the JSON's `message`), rendered once when the message is made.
struct Message {
  std::string id;
  std::vector<MessageArg> args;
  std::string english;
};

MessageArg CountArg(std::string name, long long value);
MessageArg NumberArg(std::string name, double value);
MessageArg ExactArg(std::string name, double value);
MessageArg BytesArg(std::string name, double bytes);
MessageArg MoneyArg(std::string name, double amount, std::string currency);
MessageArg TextArg(std::string name, std::string text);
// Catalog prose (an export note) in a message: the page shows the language it speaks.
MessageArg LocalTextArg(std::string name, const LocalText& text);
MessageArg MessageArgOf(std::string name, Message message);

// Message `id` with `args`, its English text rendered.
Message MakeMessage(std::string id, std::vector<MessageArg> args = {});

// A template's {name} slots filled with `args`, each formatted by `format` (so the page
// can format numbers its own way). A slot without an argument stays as written.
std::string FillTemplate(std::string_view text, const std::vector<MessageArg>& args,
                         std::string (*format)(const MessageArg&));

// An argument as the English text shows it: "32", "0.516", "1.0000000000000002",
// "23.99 GiB", "1,234 USD", the text itself, a nested message's English.
std::string EnglishArg(const MessageArg& arg);

// The English template of `id`; the program is wrong (not the input) when it has none.
std::string_view EnglishTemplate(std::string_view id);

// Every template id, for the tests that check each has a translation and each is reached.
std::vector<std::string_view> MessageIds();

// The English text of template `id` with `args`.
std::string RenderEnglish(std::string_view id, const std::vector<MessageArg>& args);

// A fixed English word or phrase the engine meets as text (a limit's unit, a piece of
// nlohmann's parse error) and the message that says it in every language.
struct EnglishWord {
  std::string_view english;
  const char* id;
};

// The message of `english` among `words`, or nullopt when none is.
std::optional<Message> WordMessage(std::span<const EnglishWord> words, std::string_view english);

}  // namespace engine
