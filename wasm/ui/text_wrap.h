// Line breaking for the page's wrapped text, in place of ImGui's word wrap, which breaks
// after any '.' or ',' (so "1.94 GiB" and "p6-b200.48xlarge" split in two) and treats a
// run of Chinese as one long word cut at whatever character reaches the edge.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace ui {

// `text` with '\n' inserted where lines break so that none is wider than `width`, as
// `measure` reports the width of a piece of text (widths must add up, as ImGui's do: it
// has no kerning). Lines break at spaces (which are dropped) and between Chinese
// characters, never before closing or after opening CJK punctuation, and never inside a
// run of other characters unless that run alone is wider than a line. Existing '\n' are
// kept.
std::string WrapText(std::string_view text, float width, const std::function<float(std::string_view)>& measure);

}  // namespace ui
