// Line breaking of the page's wrapped text (wasm/ui/text_wrap.h), with every character one
// unit wide so the expected lines can be written out by hand.
#include "wasm/ui/text_wrap.h"

#include <gtest/gtest.h>

#include <string>

namespace {

// Width of a piece of text in characters (code points), as a monospaced font would draw it.
float Chars(std::string_view text) {
  float n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

std::string Wrap(std::string_view text, float width) { return ui::WrapText(text, width, Chars); }

TEST(TextWrap, BreaksAtSpacesAndDropsThem) {
  EXPECT_EQ(Wrap("aaa bbb ccc", 7), "aaa bbb\nccc");
  EXPECT_EQ(Wrap("aaa bbb ccc", 8), "aaa bbb\nccc");
  EXPECT_EQ(Wrap("aaa   bbb", 4), "aaa\nbbb");
  EXPECT_EQ(Wrap("short", 40), "short");
}

// ImGui's own wrap breaks after '.' and ','; numbers and instance names stay whole here.
TEST(TextWrap, KeepsNumbersAndIdsWhole) {
  EXPECT_EQ(Wrap("fragmentation (1.94 GiB)", 17), "fragmentation\n(1.94 GiB)");
  EXPECT_EQ(Wrap("AWS p6-b200.48xlarge, on-demand", 22), "AWS p6-b200.48xlarge,\non-demand");
  EXPECT_EQ(Wrap("searched 14,094 layouts", 14), "searched\n14,094 layouts");
}

TEST(TextWrap, CutsARunWiderThanALine) {
  EXPECT_EQ(Wrap("abcdefghij", 4), "abcd\nefgh\nij");
  EXPECT_EQ(Wrap("x abcdefghij", 4), "x\nabcd\nefgh\nij");
}

TEST(TextWrap, BreaksBetweenChineseCharactersButNotAroundTheirPunctuation) {
  EXPECT_EQ(Wrap("显存预测与实测值", 4), "显存预测\n与实测值");
  // No line starts with '，' or ends with '（'.
  EXPECT_EQ(Wrap("一二三，四五", 3), "一二\n三，四\n五");
  EXPECT_EQ(Wrap("一二（三四）", 3), "一二\n（三\n四）");
  // Latin runs inside Chinese stay whole: "1.94" and "GiB" are not cut.
  EXPECT_EQ(Wrap("显存碎片（1.94 GiB）", 10), "显存碎片（1.94\nGiB）");
  EXPECT_EQ(Wrap("显存碎片（1.94 GiB）", 7), "显存碎片\n（1.94\nGiB）");
  EXPECT_EQ(Wrap("共搜索 14,094 种并行布局", 10), "共搜索 14,094\n种并行布局");
  EXPECT_EQ(Wrap("共搜索 14,094 种并行布局", 8), "共搜索\n14,094 种\n并行布局");
}

TEST(TextWrap, KeepsTheTextsOwnLineBreaks) {
  EXPECT_EQ(Wrap("a\n  b", 10), "a\n  b");
  EXPECT_EQ(Wrap("aaa bbb\nccc", 4), "aaa\nbbb\nccc");
}

// Degenerate widths and broken UTF-8 end, one character a line at worst.
TEST(TextWrap, EndsOnAnyInput) {
  EXPECT_EQ(Wrap("abc", 0), "a\nb\nc");
  EXPECT_EQ(Wrap("", 10), "");
  EXPECT_EQ(Wrap("   ", 1), " ");
  EXPECT_EQ(Wrap("ab   ", 2), "ab");
  const std::string broken = "ab\xE4\xB8 cd\xFF\xFE";
  EXPECT_FALSE(Wrap(broken, 2).empty());
}

}  // namespace
