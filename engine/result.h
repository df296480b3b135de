// Result<T>: a value or an input error that names the offending field.
// Expected outcomes (bad input, "does not fit") are data, never exceptions: the same
// engine runs in WebAssembly where a stray throw would abort the runtime.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "message.h"

namespace engine {

// An input the engine refuses. `field` is a dotted path into the scenario
// ("parallel.tp", "model.hidden"); `message` says what is allowed, in English, rendered
// from template `code` with `args` (engine/message.h) so the page can say it in its own
// language. Made by MakeInputError: every error has its template.
struct InputError {
  std::string field;
  std::string message;
  std::string code;
  std::vector<MessageArg> args;
};

// An input error naming `field`, rendered from template `code` with `args`.
inline InputError MakeInputError(std::string field, std::string code, std::vector<MessageArg> args = {}) {
  InputError e;
  e.message = RenderEnglish(code, args);
  e.field = std::move(field);
  e.code = std::move(code);
  e.args = std::move(args);
  return e;
}

// The error's sentence as a message (for a notice that quotes it: "gpus: <message>"). An
// error made from a bare sentence gives a message without an id, shown as its English.
inline Message ErrorMessage(const InputError& error) { return Message{error.code, error.args, error.message}; }

// Something the user should know about an otherwise valid input or result: a stable code
// and typed arguments; `message` is the English text of its template (message.h).
struct Warning {
  std::string code;  // stable identifier, e.g. "tp_across_nodes"
  std::string message;
  std::vector<MessageArg> args;
  std::string template_id;  // the message template: the code, or code.variant
};

// A warning rendered from template `template_id` (default: the code) with `args`.
inline Warning MakeWarning(std::string code, std::vector<MessageArg> args, std::string template_id = "") {
  if (template_id.empty()) template_id = code;
  std::string message = RenderEnglish(template_id, args);
  return Warning{std::move(code), std::move(message), std::move(args), std::move(template_id)};
}

// A value the user typed, quoted back in a message: whole when short, else its first 64
// bytes (cut between characters) and "…", so a pasted megabyte is not echoed whole.
inline std::string QuotedInput(std::string_view text) {
  constexpr size_t kMaxQuotedBytes = 64;
  if (text.size() <= kMaxQuotedBytes) return std::string(text);
  size_t cut = kMaxQuotedBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return std::string(text.substr(0, cut)) + "…";
}

template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}             // NOLINT: implicit by design
  Result(InputError error) : state_(std::move(error)) {}    // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  const T& value() const { return std::get<T>(state_); }
  T& value() { return std::get<T>(state_); }
  const InputError& error() const { return std::get<InputError>(state_); }

 private:
  std::variant<T, InputError> state_;
};

}  // namespace engine
