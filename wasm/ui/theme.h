// Look of the page: fonts at the device pixel ratio, light and dark themes, and the
// palette the page draws with (status colours, chart frames, the memory terms).
#pragma once

#include "imgui.h"

namespace ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* heading = nullptr;
  ImFont* title = nullptr;
};

// Rebuilds the font atlas and style sizes for `scale` device pixels per CSS pixel.
Fonts LoadFontsAndStyle(float scale, bool dark = false);

// Switches between the light and dark themes (keeps the fonts).
void ApplyTheme(bool dark, float scale);
bool DarkTheme();

// Colours for the memory terms, in breakdown order (weights ... overhead).
ImU32 TermColor(int index);

// Colours that depend on the theme.
struct Palette {
  ImU32 ok, bad, warn, muted, chart_bg, chart_frame, chart_grid, clear, notice_bg;
};
const Palette& Colors();

}  // namespace ui
