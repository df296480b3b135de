// Reading a launch command's flags in tests: the word after a flag, whether a flag is there.
#pragma once

#include <sstream>
#include <string>

namespace engine::test {

// The argument after `flag` in a shell command ("" when absent); line continuations are
// whitespace.
inline std::string FlagValue(const std::string& command, const std::string& flag) {
  std::istringstream in(command);
  std::string token, previous;
  while (in >> token) {
    if (previous == flag) return token;
    previous = token;
  }
  return "";
}

inline bool HasFlag(const std::string& command, const std::string& flag) {
  std::istringstream in(command);
  std::string token;
  while (in >> token) {
    if (token == flag) return true;
  }
  return false;
}

}  // namespace engine::test
