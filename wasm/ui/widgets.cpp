#include "widgets.h"

#include "i18n.h"
#include "misc/cpp/imgui_stdlib.h"

namespace ui {

void Heading(const char* text, const Fonts& fonts, bool underline) {
  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
  if (underline) ImGui::Separator();
}

bool TextEditor(const char* id, std::string& text, float height) {
  return ImGui::InputTextMultiline(id, &text, ImVec2(-FLT_MIN, height));
}

void FormulaTooltip(const char* formula, const char* source) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
  ImGui::TextWrapped("%s", formula);
  if (source != nullptr && source[0] != 0) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    ImGui::TextWrapped("%s %s", T("Source:"), source);
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void MutedText(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void MarkAnchor(AppState& state, const std::string& name) {
  const ImVec2 min = ImGui::GetItemRectMin();
  const ImVec2 size = ImGui::GetItemRectSize();
  const float css = state.dpi_scale > 0 ? state.dpi_scale : 1.0f;
  state.anchors[name] = {min.x / css, min.y / css, size.x / css, size.y / css};
}

}  // namespace ui
