#include "widgets.h"

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

void MutedText(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

}  // namespace ui
