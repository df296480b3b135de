#include "widgets.h"

namespace ui {

void Heading(const char* text, const Fonts& fonts, bool underline) {
  ImGui::Spacing();
  ImGui::PushFont(fonts.heading);
  ImGui::TextUnformatted(text);
  ImGui::PopFont();
  if (underline) ImGui::Separator();
}

void MutedText(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

}  // namespace ui
