#include "app.h"

#include <string>

#include "engine/version.h"

namespace ui {
namespace {

void DrawHeader(const AppState& state, const Fonts& fonts) {
  ImGui::PushFont(fonts.title);
  ImGui::TextUnformatted("TrainSizer");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, kMutedTextColor);
  ImGui::AlignTextToFramePadding();
  const std::string subtitle = "GPU memory, hardware and cost for training and fine-tuning LLMs  ·  catalog " +
                               state.catalog->date + "  ·  v" + engine::kEngineVersion;
  ImGui::TextWrapped("%s", subtitle.c_str());
  ImGui::PopStyleColor();
  ImGui::Spacing();
}

}  // namespace

void DrawApp(AppState& state, const Fonts& fonts) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("TrainSizer", nullptr, flags);
  DrawHeader(state, fonts);
  const float scale = state.dpi_scale;
  const bool wide = ImGui::GetContentRegionAvail().x >= 820 * scale;
  if (wide) {
    const float input_width = 390 * scale;
    ImGui::BeginChild("inputs", ImVec2(input_width, 0), true);
    DrawInputPanel(state, fonts);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results", ImVec2(0, 0), true);
    DrawResultsPanel(state, fonts);
    ImGui::EndChild();
  } else {
    DrawInputPanel(state, fonts);
    ImGui::Spacing();
    DrawResultsPanel(state, fonts);
  }
  ImGui::End();
}

}  // namespace ui
