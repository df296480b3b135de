#include "app.h"

#include <algorithm>
#include <string>

#include "engine/version.h"

namespace ui {
namespace {

void DrawHeader(AppState& state, const Fonts& fonts) {
  ImGui::PushFont(fonts.title);
  ImGui::TextUnformatted("TrainSizer");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::AlignTextToFramePadding();
  const std::string subtitle = "GPU memory, hardware and cost for training and fine-tuning LLMs  ·  catalog " +
                               state.catalog->date + "  ·  v" + engine::kEngineVersion;
  ImGui::TextWrapped("%s", subtitle.c_str());
  ImGui::PopStyleColor();
  // Theme toggle, top right.
  const char* toggle = state.dark ? "Light theme" : "Dark theme";
  const float width = ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2;
  // Beside the title on wide pages; on narrow ones under it, so it never covers the text.
  if (ImGui::GetWindowContentRegionMax().x > 760 * state.dpi_scale) {
    ImGui::SameLine(std::max(ImGui::GetWindowContentRegionMax().x - width, 0.0f));
  }
  if (ImGui::SmallButton(toggle)) {
    state.dark = !state.dark;
    ApplyTheme(state.dark, state.dpi_scale);
  }
}

// The seed's scenarios as one-click examples.
void DrawExamples(AppState& state) {
  const engine::Example* current = nullptr;
  for (const engine::Example& x : state.catalog->examples) {
    if (x.id == state.example_id) current = &x;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Examples:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 460 * state.dpi_scale));
  if (ImGui::BeginCombo("##examples", current ? current->title.c_str() : "Load one of the seed's scenarios")) {
    for (const engine::Example& x : state.catalog->examples) {
      if (ImGui::Selectable(x.title.c_str(), current == &x)) LoadExample(state, x);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextWrapped("%s", x.description.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndCombo();
  }
  if (current != nullptr) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    ImGui::TextWrapped("%s", current->description.c_str());
    ImGui::PopStyleColor();
  }
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
  DrawExamples(state);
  const float scale = state.dpi_scale;
  const bool wide = ImGui::GetContentRegionAvail().x >= 820 * scale;
  if (wide) {
    const float input_width = 390 * scale;
    ImGui::BeginChild("inputs", ImVec2(input_width, 0), true);
    DrawInputPanel(state, fonts);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results", ImVec2(0, 0), true);
    DrawResultsSummary(state, fonts);
    DrawResultsDetails(state, fonts);
    ImGui::EndChild();
  } else {
    // Narrow (phone, 400 px embed): the answer first, then the inputs, then the details.
    DrawResultsSummary(state, fonts);
    DrawInputPanel(state, fonts);
    ImGui::Spacing();
    DrawResultsDetails(state, fonts);
  }
  ImGui::End();
}

}  // namespace ui
