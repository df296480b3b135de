#include "theme.h"

#include <string>

#include "fonts.h"
#include "i18n.h"

namespace ui {
namespace {

// Code points the UI draws; must stay within the subset built by wasm/CMakeLists.txt
// (UI_FONT_CHARS), or glyphs render as '?'.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 (× ·)
    0x03B4, 0x03B4,  // δ (the checkpoint-interval formula)
    0x2010, 0x2027,  // dashes, quotes, bullet, ellipsis
    0x2030, 0x2030, 0x2032, 0x2033, 0x20AC, 0x20AC,  // ‰ ′ ″ €
    0x2190, 0x2193,  // arrows
    0x2212, 0x2212, 0x221A, 0x221A, 0x221E, 0x221E, 0x2248, 0x2248, 0x2260, 0x2260, 0x2264, 0x2265,  // − √ ∞ ≈ ≠ ≤ ≥
    0x25B2, 0x25B2, 0x25BC, 0x25BC, 0x25CF, 0x25CF,  // ▲ ▼ ●
    0x2713, 0x2713, 0x2717, 0x2717,  // ✓ ✗
    0,
};

// Glyph ranges of the CJK subset, built once from the character list embedded with it.
const ImWchar* CjkRanges(const EmbeddedFile& chars) {
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    const std::string text(chars.text);
    builder.AddText(text.c_str());
    builder.BuildRanges(&ranges);
  }
  return ranges.Data;
}

// The few Chinese characters the title font draws: the summary cards' figures ("8 张 GPU",
// "3.4 天"). All of the CJK subset at 22 px would double the font atlas.
const ImWchar* TitleCjkRanges() {
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    for (const char* english : {"%d GPU", "%d GPUs", "%.1f days"}) builder.AddText(Translate(Lang::kZh, english));
    builder.BuildRanges(&ranges);
  }
  return ranges.Data;
}

// Merges the CJK glyphs (`ranges` of them) into the font just added, a little lower to share its baseline.
void MergeCjk(const EmbeddedFile& font, const EmbeddedFile& chars, float pixels, const ImWchar* ranges) {
  if (chars.text.empty()) return;
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;
  config.MergeMode = true;
  config.GlyphOffset.y = pixels * 0.05f;
  ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.text.data()), int(font.text.size()), pixels,
                                             &config, ranges);
}

ImFont* AddFont(const EmbeddedFile& file, float pixels) {
  ImFontConfig config;
  config.GlyphRanges = kGlyphRanges;
  config.FontDataOwnedByAtlas = false;  // the bytes are static program data
  config.OversampleH = 2;
  config.PixelSnapH = false;
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<char*>(file.text.data()), int(file.text.size()),
                                                    pixels, &config);
}

constexpr Palette kLight = {IM_COL32(22, 128, 61, 255),   IM_COL32(190, 38, 38, 255),  IM_COL32(160, 100, 0, 255),
                            IM_COL32(100, 108, 120, 255), IM_COL32(250, 251, 253, 255), IM_COL32(200, 204, 212, 255),
                            IM_COL32(230, 232, 236, 255), IM_COL32(246, 247, 249, 255),
                            IM_COL32(255, 244, 214, 255)};
constexpr Palette kDark = {IM_COL32(80, 200, 120, 255),   IM_COL32(240, 100, 100, 255), IM_COL32(230, 170, 60, 255),
                           IM_COL32(150, 158, 172, 255),  IM_COL32(30, 33, 40, 255),    IM_COL32(70, 76, 88, 255),
                           IM_COL32(48, 52, 62, 255),     IM_COL32(20, 22, 27, 255),
                           IM_COL32(60, 50, 25, 255)};
bool g_dark = false;  // cosmetic: which palette is in force

void DarkColors(ImGuiStyle& style) {
  ImGui::StyleColorsDark(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.08f, 0.086f, 0.106f, 1);
  c[ImGuiCol_ChildBg] = ImVec4(0.11f, 0.12f, 0.145f, 1);
  c[ImGuiCol_PopupBg] = ImVec4(0.11f, 0.12f, 0.145f, 1);
  c[ImGuiCol_Border] = ImVec4(0.24f, 0.26f, 0.30f, 1);
  c[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.16f, 0.19f, 1);
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.15f, 0.16f, 0.19f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(0.13f, 0.14f, 0.17f, 1);
  c[ImGuiCol_Text] = ImVec4(0.90f, 0.91f, 0.93f, 1);
}

void LightColors(ImGuiStyle& style) {
  ImGui::StyleColorsLight(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.965f, 0.969f, 0.976f, 1);
  c[ImGuiCol_ChildBg] = ImVec4(1, 1, 1, 1);
  c[ImGuiCol_Border] = ImVec4(0.86f, 0.87f, 0.89f, 1);
  c[ImGuiCol_FrameBg] = ImVec4(1, 1, 1, 1);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.93f, 0.95f, 1.0f, 1);
  c[ImGuiCol_Button] = ImVec4(0.91f, 0.93f, 0.97f, 1);
  c[ImGuiCol_Header] = ImVec4(0.88f, 0.91f, 0.98f, 1);
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.94f, 0.95f, 0.97f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(0.975f, 0.978f, 0.985f, 1);
  c[ImGuiCol_Text] = ImVec4(0.11f, 0.13f, 0.17f, 1);
}

void ApplyStyle(bool dark, float scale) {
  ImGuiStyle style;
  if (dark) {
    DarkColors(style);
  } else {
    LightColors(style);
  }
  style.WindowPadding = ImVec2(16, 14);
  style.FramePadding = ImVec2(8, 5);
  style.ItemSpacing = ImVec2(10, 8);
  style.CellPadding = ImVec2(8, 5);
  style.FrameRounding = 5;
  style.GrabRounding = 5;
  style.ChildRounding = 8;
  style.PopupRounding = 6;
  style.WindowRounding = 0;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.FrameBorderSize = 1;
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  g_dark = dark;
}

}  // namespace

void ApplyTheme(bool dark, float scale) { ApplyStyle(dark, scale); }
bool DarkTheme() { return g_dark; }
const Palette& Colors() { return g_dark ? kDark : kLight; }

Fonts LoadFontsAndStyle(float scale, bool dark) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const auto files = EmbeddedFonts();
  Fonts f;
  f.body = AddFont(files[0], 15.0f * scale);
  MergeCjk(files[2], files[3], 15.0f * scale, CjkRanges(files[3]));
  f.heading = AddFont(files[1], 16.0f * scale);
  MergeCjk(files[2], files[3], 16.0f * scale, CjkRanges(files[3]));
  f.title = AddFont(files[1], 22.0f * scale);
  MergeCjk(files[2], files[3], 22.0f * scale, TitleCjkRanges());
  io.Fonts->Build();
  ApplyStyle(dark, scale);
  return f;
}

ImU32 TermColor(int index) {
  // Colour-blind-safe categorical palette (Okabe & Ito 2008), one per memory term.
  static const ImU32 kPalette[] = {
      IM_COL32(0, 114, 178, 255),   // weights: blue
      IM_COL32(230, 159, 0, 255),   // gradients: orange
      IM_COL32(0, 158, 115, 255),   // optimizer: green
      IM_COL32(204, 121, 167, 255), // activations: purple-pink
      IM_COL32(86, 180, 233, 255),  // logits: sky
      IM_COL32(150, 150, 150, 255), // overhead: grey
      IM_COL32(213, 94, 0, 255),    // other roles: vermillion
      IM_COL32(240, 228, 66, 255),  // yellow
  };
  return kPalette[index % 8];
}

}  // namespace ui
