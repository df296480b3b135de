#include "widgets.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "format.h"
#include "i18n.h"
#include "imgui_internal.h"  // CalcWrapWidthForPos, the window's text wrap position
#include "misc/cpp/imgui_stdlib.h"
#include "text_wrap.h"

namespace ui {

void Heading(const char* text, const Fonts& fonts, bool underline) {
  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
  if (underline) ImGui::Separator();
}

namespace {

// Takes the pending drop if it landed where the last item (the box `box_id`) shows.
bool TakeDrop(AppState& state, ImGuiID box_id, std::string& text) {
  if (!state.dropped) return false;
  ImRect shown(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  shown.ClipWith(ImGui::GetCurrentWindow()->ClipRect);  // a box half scrolled away takes drops on its visible part
  if (!shown.Contains(ImVec2(state.dropped->x, state.dropped->y))) return false;
  // While it is being edited the box works on its own copy of the text and would not show
  // the new one: it lets go, as when clicking elsewhere.
  if (ImGui::GetActiveID() == box_id) ImGui::ClearActiveID();
  text = std::move(state.dropped->text);
  state.dropped.reset();
  return true;
}

}  // namespace

bool DocumentBox(AppState& state, const char* id, std::string& text, float height) {
  const ImGuiID box_id = ImGui::GetID(id);  // the id InputTextMultiline gives itself
  const bool typed = ImGui::InputTextMultiline(id, &text, ImVec2(-FLT_MIN, height));
  std::string name(id);
  name.erase(0, name.find_first_not_of('#'));
  MarkAnchor(state, "document:" + name);
  return TakeDrop(state, box_id, text) || typed;
}

void FormulaTooltip(const char* formula, const char* source) {
  ImGui::BeginTooltip();
  // 34 em reads well; on a phone or a 400 px embed the tooltip must fit the screen too.
  const float screen_room = ImGui::GetIO().DisplaySize.x - 4 * ImGui::GetStyle().WindowPadding.x;
  ImGui::PushTextWrapPos(std::max(ImGui::GetFontSize() * 8, std::min(ImGui::GetFontSize() * 34, screen_room)));
  WrappedText(formula);
  if (source != nullptr && source[0] != 0) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(Printf("%s %s", T("Source:"), source).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void WrappedText(const char* text) {
  // The width ImGui::TextWrapped would wrap at: the pushed wrap position, else the
  // content region's right edge.
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float wrap_pos_x = window->DC.TextWrapPos < 0.0f ? 0.0f : window->DC.TextWrapPos;
  const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos_x);
  // ImFont::CalcTextSizeA, not ImGui::CalcTextSize: the latter rounds each width up, so
  // the widths of a line's characters would not add up to the line's.
  const ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const std::string lines = WrapText(text, width, [font, size](std::string_view piece) {
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
  });
  ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
}

void MutedText(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  WrappedText(text);
  ImGui::PopStyleColor();
}

bool TooNarrowForColumns(float dpi_scale) {
  // Below this a row of label, numbers and a reason leaves the text column a few
  // characters wide, and wrapped text turns into one character per line.
  constexpr float kMinTableWidth = 620;
  return ImGui::GetContentRegionAvail().x < kMinTableWidth * dpi_scale;
}

const char* FittingLabel(const char* long_label, const char* short_label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float arrow = ImGui::GetFontSize() + style.FramePadding.x * 4;  // as ImGui::TreeNodeBehavior
  const float room = ImGui::GetContentRegionAvail().x - arrow;
  return ImGui::CalcTextSize(long_label).x <= room ? long_label : short_label;
}

void MarkAnchor(AppState& state, const std::string& name) {
  const ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 size = ImGui::GetItemRectSize();
  const float css = state.dpi_scale > 0 ? state.dpi_scale : 1.0f;
  state.anchors[name] = {min.x / css, min.y / css, size.x / css, size.y / css};
}

namespace {

// A label as ImGui shows it: the text before its "##" ID part.
std::string_view VisiblePart(std::string_view label) { return label.substr(0, label.find("##")); }

}  // namespace

std::string FittedLabel(const std::string& text, float room) {
  // A label's ID part ("###...") stays as it is; only the visible part is shortened.
  const std::string visible(VisiblePart(text));
  const std::string id = text.substr(visible.size());
  if (ImGui::CalcTextSize(visible.c_str()).x <= room || !(visible.ends_with(")") || visible.ends_with("）"))) {
    return text;
  }
  size_t detail = visible.rfind(" (");
  const size_t wide = visible.rfind("（");
  if (wide != std::string::npos && (detail == std::string::npos || wide > detail)) detail = wide;
  return detail != std::string::npos && detail > 0 ? visible.substr(0, detail) + id : text;
}

bool BeginComboShowingAll(const char* id, const char* preview, int flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2 * style.FramePadding.x;
  const bool open = ImGui::BeginCombo(id, FittedLabel(preview, room).c_str(), flags);
  if (!open && ImGui::CalcTextSize(preview, nullptr, true).x > room && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", preview);
  }
  return open;
}

void TableHeadersRowFitted() {
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int column = 0; column < ImGui::TableGetColumnCount(); ++column) {
    if (!ImGui::TableSetColumnIndex(column)) continue;
    const char* name = ImGui::TableGetColumnName(column);
    const std::string shown = FittedLabel(name, ImGui::GetContentRegionAvail().x);
    ImGui::PushID(column);
    ImGui::TableHeader(shown.c_str());
    if (shown != name && ImGui::IsItemHovered()) {
      const std::string_view visible = VisiblePart(name);
      ImGui::SetTooltip("%.*s", int(visible.size()), visible.data());
    }
    ImGui::PopID();
  }
}

}  // namespace ui
