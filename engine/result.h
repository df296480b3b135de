// Result<T>: a value or an input error that names the offending field.
// Expected outcomes (bad input, "does not fit") are data, never exceptions: the same
// engine runs in WebAssembly where a stray throw would abort the runtime.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace engine {

// An input the engine refuses. `field` is a dotted path into the scenario
// ("parallel.tp", "model.hidden"); `message` says what is allowed.
struct InputError {
  std::string field;
  std::string message;
};

// Something the user should know about an otherwise valid input or result.
struct Warning {
  std::string code;  // stable identifier, e.g. "tp_across_nodes"
  std::string message;
};

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
