// Reading tests/data/bad_inputs.json, shared by the tests that send its rows somewhere:
// the CLI (tests/engine/service/bad_input_test.cpp) and the 中文 error sweep (tests/wasm/ui/i18n_test.cpp).
// tests/web/bad_input.test.mjs has the same generators in JavaScript.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "engine/contract/json_fields.h"

namespace testdata {

inline std::string ReadFileText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The whole table: {"description": ..., "rows": [...]}.
inline engine::contract::Json BadInputTable() {
  return engine::contract::Json::parse(ReadFileText(std::string(TRAINSIZER_SOURCE_DIR) + "/tests/data/bad_inputs.json"));
}

// The bytes a row sends: its text, or what its generator makes (see the file's description).
inline std::string GenerateBadInput(const engine::contract::Json& input) {
  if (input.is_string()) return input.get<std::string>();
  if (input.contains("repeat")) {
    std::string out;
    const std::string unit = input["repeat"];
    for (int i = 0; i < input["times"].get<int>(); ++i) out += unit;
    return out;
  }
  if (input.contains("nest")) return std::string(input["nest"].get<size_t>(), '[');
  if (input.contains("bytes_hex")) {
    const std::string hex = input["bytes_hex"];
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return out;
  }
  std::string out;
  for (const engine::contract::Json& part : input["concat"]) out += GenerateBadInput(part);
  return out;
}

}  // namespace testdata
