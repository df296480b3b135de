#include "text_wrap.h"

#include <algorithm>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8

namespace ui {
namespace {

// One UTF-8 character: its bytes and its code point.
struct Char {
  size_t begin = 0, end = 0;
  char32_t code = 0;
};

// Split by ImGui's own decoder, so lines break where ImGui draws character boundaries
// (a broken sequence is one replacement character, as drawn).
std::vector<Char> Decode(std::string_view text) {
  std::vector<Char> out;
  const char* end = text.data() + text.size();
  for (size_t i = 0; i < text.size();) {
    unsigned int code = 0;
    // A NUL byte consumes nothing in ImTextCharFromUtf8: step over it.
    const size_t taken = std::max(1, ImTextCharFromUtf8(&code, text.data() + i, end));
    out.push_back({i, i + taken, static_cast<char32_t>(code)});
    i += taken;
  }
  return out;
}

// CJK ideographs, symbols and punctuation, kana, Hangul and full-width forms: text in
// which a line may break between any two characters (UAX #14 classes ID, OP, CL).
bool IsCjk(char32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x20000 && c <= 0x2FFFF);
}

// Characters a line must not start with (closing punctuation) or end with (opening).
bool NoBreakBefore(char32_t c) {
  switch (c) {
    case U'，': case U'。': case U'、': case U'；': case U'：': case U'？': case U'！': case U'）':
    case U'」': case U'』': case U'】': case U'》': case U'〉': case U'…': case U'％':
    case U')': case U',': case U'.': case U';': case U':': case U'%': case U'!': case U'?':
      return true;
    default:
      return false;
  }
}
bool NoBreakAfter(char32_t c) {
  switch (c) {
    case U'（': case U'「': case U'『': case U'【': case U'《': case U'〈': case U'(':
      return true;
    default:
      return false;
  }
}

bool IsSpace(char32_t c) { return c == ' ' || c == '\t'; }

// Whether a line may break between a and b (neither a space).
bool MayBreakBetween(char32_t a, char32_t b) {
  if (!IsCjk(a) && !IsCjk(b)) return false;
  return !NoBreakBefore(b) && !NoBreakAfter(a);
}

}  // namespace

std::string WrapText(std::string_view text, float width, const std::function<float(std::string_view)>& measure) {
  const std::vector<Char> chars = Decode(text);
  const auto piece = [&](size_t from, size_t to) {  // chars [from, to) as text
    return from >= to ? std::string_view() : text.substr(chars[from].begin, chars[to - 1].end - chars[from].begin);
  };
  std::string out;
  out.reserve(text.size() + 16);
  size_t start = 0;
  while (start < chars.size()) {
    // The last place the line may end (break_end, exclusive) and the next begin.
    size_t break_end = 0, break_next = 0, space_run = 0;
    size_t i = start;
    bool overflow = false;
    float line_width = 0;  // of chars [start, i]: widths add up, so each is measured once
    for (; i < chars.size() && chars[i].code != '\n'; ++i) {
      if (i > start) {
        const char32_t prev = chars[i - 1].code, c = chars[i].code;
        if (IsSpace(c) && !IsSpace(prev)) space_run = i;
        if (!IsSpace(c) && IsSpace(prev) && space_run > start) break_end = space_run, break_next = i;
        if (!IsSpace(c) && !IsSpace(prev) && MayBreakBetween(prev, c)) break_end = break_next = i;
      }
      line_width += measure(piece(i, i + 1));
      if (i > start && line_width > width) {
        overflow = true;
        break;
      }
    }
    if (!overflow) {
      out += piece(start, i);
      if (i == chars.size()) break;
      out += '\n';  // the text's own line break; the next line keeps its indentation
      start = i + 1;
      continue;
    }
    size_t end = i, next = i;  // no break place: cut the run that is wider than a line
    if (IsSpace(chars[i].code) && space_run > start) {
      end = space_run, next = i;
    } else if (break_end > start) {
      end = break_end, next = break_next;
    }
    out += piece(start, end);
    start = next;
    while (start < chars.size() && IsSpace(chars[start].code)) ++start;  // a wrapped line starts with a word
    if (start < chars.size()) out += '\n';
  }
  return out;
}

}  // namespace ui
