// Look of the page: fonts at the device pixel ratio, a light theme, and the palette the
// memory terms are drawn in. Dark mode and a toggle come with the full page work.
#pragma once

#include "imgui.h"

namespace ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* heading = nullptr;
  ImFont* title = nullptr;
};

// Rebuilds the font atlas and style sizes for `scale` device pixels per CSS pixel.
Fonts LoadFontsAndStyle(float scale);

// Colours for the memory terms, in breakdown order (weights ... overhead).
ImU32 TermColor(int index);

inline constexpr ImU32 kOkColor = IM_COL32(22, 128, 61, 255);
inline constexpr ImU32 kBadColor = IM_COL32(190, 38, 38, 255);
inline constexpr ImU32 kMutedTextColor = IM_COL32(100, 108, 120, 255);

}  // namespace ui
