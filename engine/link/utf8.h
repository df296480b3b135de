// Well-formed UTF-8, for text that arrives as raw bytes (a link's %-escapes, an exception's
// message) and must be shown or written as JSON, both of which need valid UTF-8.
#pragma once

#include <cstddef>
#include <string_view>

namespace engine::link {

// The length (1-4) of the well-formed UTF-8 sequence starting at text[at], or 0 when none
// does there. Well-formed as RFC 3629 says: no overlong form, no surrogate, ≤ U+10FFFF.
inline size_t Utf8SequenceLength(std::string_view text, size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const size_t extra = lead < 0x80 ? 0 : (lead & 0xE0) == 0xC0 ? 1 : (lead & 0xF0) == 0xE0 ? 2 : (lead & 0xF8) == 0xF0 ? 3 : 4;
  if (extra == 4 || at + extra >= text.size()) return 0;
  unsigned code = extra == 0 ? lead : lead & (0x3Fu >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3Fu);
  }
  constexpr unsigned kSmallestOfLength[] = {0, 0x80, 0x800, 0x10000};  // below: an overlong form
  if (code < kSmallestOfLength[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return extra + 1;
}

inline bool IsUtf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const size_t length = Utf8SequenceLength(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

}  // namespace engine::link
