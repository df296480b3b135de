// A libFuzzer custom mutator shared by the text targets: one time in kEdgeOneIn it
// replaces a number in the input (a JSON number, a link value, or a NaN/Infinity
// spelling an earlier mutation left) by an edge value: subnormals, -0.0, int32/int64/
// 2^53 boundaries, overflow to infinity, NaN and Infinity spellings (FixedEdges), or, when
// the key before the number is a contract field, that field's own limits ± 1 ulp
// (LimitEdges; the limits are read from the parsers, fuzz_contract.h). Otherwise, or when
// the input holds no number, it is libFuzzer's own LLVMFuzzerMutate.
//
// Include from exactly one file per target. Only the libFuzzer build (preset `fuzz`)
// defines TRAINSIZER_LIBFUZZER; the replay build (preset `sanitize`, GCC) has no
// LLVMFuzzerMutate and leaves the mutator out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_contract.h"

namespace fuzz {

inline constexpr unsigned kEdgeOneIn = 4;

struct Span {
  size_t begin, end;
};

// Values that read as a number: [-+]digits[.digits][e[-+]digits], ".5", or the words
// nan/inf/infinity in any case (so that a NaN put in can become a number again), standing
// where a value stands: after ':', '[', ',', '=' or a space, before ',', ']', '}', '&' or
// a space. Digits inside ids ("llama-3-8b") and keys are left to LLVMFuzzerMutate.
inline std::vector<Span> FindNumbers(std::string_view s) {
  std::vector<Span> out;
  const auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  const auto alpha = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); };
  const auto opens = [](char ch) { return std::string_view(":[,= \t\r\n").find(ch) != std::string_view::npos; };
  const auto closes = [](char ch) { return std::string_view(",]}& \t\r\n").find(ch) != std::string_view::npos; };
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && !opens(s[i - 1])) continue;
    size_t j = i;
    if (s[j] == '-' || s[j] == '+') ++j;
    if (j < s.size() && (digit(s[j]) || (s[j] == '.' && j + 1 < s.size() && digit(s[j + 1])))) {
      while (j < s.size() && (digit(s[j]) || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
                              ((s[j] == '-' || s[j] == '+') && (s[j - 1] == 'e' || s[j - 1] == 'E')))) {
        ++j;
      }
    } else {
      while (j < s.size() && alpha(s[j])) ++j;
      std::string word(s.substr(i, j - i));
      for (char& ch : word) ch = static_cast<char>(ch | 0x20);
      if (word != "nan" && word != "inf" && word != "infinity" && word != "-nan" && word != "-inf" &&
          word != "-infinity" && word != "+inf" && word != "+infinity") {
        continue;
      }
    }
    if (j == i || (j < s.size() && !closes(s[j]))) continue;
    out.push_back({i, j});
    i = j - 1;
  }
  return out;
}

// The field a number belongs to: "key": N in JSON, key=N in a link (m.key -> model.key).
inline std::string KeyBefore(std::string_view s, size_t at) {
  size_t i = at;
  while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\n' || s[i - 1] == '\t' || s[i - 1] == '\r')) --i;
  if (i == 0) return "";
  if (s[i - 1] == '=') {
    const size_t end = i - 1;
    size_t start = end;
    while (start > 0 && s[start - 1] != '&' && s[start - 1] != '#' && s[start - 1] != '?') --start;
    std::string key(s.substr(start, end - start));
    if (key.starts_with("m.")) key = "model." + key.substr(2);
    return key;
  }
  if (s[i - 1] != ':') return "";
  --i;
  while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\n' || s[i - 1] == '\t' || s[i - 1] == '\r')) --i;
  if (i == 0 || s[i - 1] != '"') return "";
  const size_t end = i - 1;
  const size_t start = s.rfind('"', end == 0 ? 0 : end - 1);
  if (start == std::string_view::npos || start >= end) return "";
  return std::string(s.substr(start + 1, end - start - 1));
}

// Replaces one number of data[0, size) by an edge value; 0 when there is none or the
// result would not fit in max_size.
inline size_t MutateNumber(uint8_t* data, size_t size, size_t max_size, std::minstd_rand& rng) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<Span> numbers = FindNumbers(text);
  if (numbers.empty()) return 0;
  const Span at = numbers[rng() % numbers.size()];
  std::vector<std::string> own;
  const Contract& contract = TheContract();
  if (const auto it = contract.limits.find(KeyBefore(text, at.begin)); it != contract.limits.end()) {
    own = LimitEdges(it->second);
  }
  const std::vector<std::string>& fixed = FixedEdges();
  const std::string& value = !own.empty() && rng() % 2 == 0 ? own[rng() % own.size()] : fixed[rng() % fixed.size()];
  const size_t length = at.end - at.begin;
  const size_t new_size = size - length + value.size();
  if (new_size > max_size) return 0;
  std::memmove(data + at.begin + value.size(), data + at.end, size - at.end);
  std::memcpy(data + at.begin, value.data(), value.size());
  return new_size;
}

}  // namespace fuzz

#ifdef TRAINSIZER_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % fuzz::kEdgeOneIn == 0) {
    if (const size_t n = fuzz::MutateNumber(data, size, max_size, rng); n > 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
