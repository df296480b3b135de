#include "app.h"

#include <algorithm>
#include <string>

#include "engine/version.h"
#include "imgui_internal.h"  // LogToBuffer, the text log
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

// Puts the next small button beside the last one when it fits, else on a new line (a
// phone's width cannot hold all four).
void SameLineIfFits(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2;
  const float right = ImGui::GetItemRectMax().x + style.ItemSpacing.x + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

// The page's own buttons: share, offline copy, language, theme. Each right-aligned group
// wraps under the title when the page is narrow.
void DrawHeaderButtons(AppState& state) {
  const HostActions& host = state.host;
  if (host.copy_text && host.page_url && ImGui::SmallButton(L("Copy link"))) {
    host.copy_text(host.page_url());
    state.copied_status = T("Link copied to the clipboard.");
  }
  if (ImGui::IsItemHovered()) {
    // Catalog edits can be large (a pasted overlay), so they stay on this page: say so
    // rather than let the reader of the link see other prices without knowing.
    const bool local_catalog = !state.assumption_edits.empty() || !state.overlay_text.empty();
    ImGui::SetTooltip("%s", local_catalog ? T("The link holds every input, but not your Assumptions edits or catalog "
                                              "overlay: whoever opens it sees the built-in catalog's prices.")
                                          : T("The link holds every input: whoever opens it sees this plan."));
  }
  if (state.embed && host.open_full_tool) {
    SameLineIfFits(L("Open the full tool"));
    if (ImGui::SmallButton(L("Open the full tool"))) host.open_full_tool();
  }
  if (!state.embed && host.download_offline_copy) {
    SameLineIfFits(L("Download offline copy"));
    if (ImGui::SmallButton(L("Download offline copy"))) host.download_offline_copy();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%s", T("One HTML file with the whole tool and catalog: open it from disk on a machine "
                                "with no network."));
    }
  }
  SameLineIfFits(Language() == Lang::kZh ? "English" : "中文");
  // Each language is named in itself, so a reader of the other one can find it.
  if (ImGui::SmallButton(Language() == Lang::kZh ? "English###lang" : "中文###lang")) {
    SetLanguage(Language() == Lang::kZh ? Lang::kEn : Lang::kZh);
    state.lang_chosen = true;
    FollowLanguageMarket(state);
    RefreshLink(state);
  }
  MarkAnchor(state, "language");
  SameLineIfFits(state.dark ? L("Light theme") : L("Dark theme"));
  if (ImGui::SmallButton(state.dark ? L("Light theme") : L("Dark theme"))) {
    state.dark = !state.dark;
    state.theme_chosen = true;
    ApplyTheme(state.dark, state.dpi_scale);
    RefreshLink(state);
  }
  MarkAnchor(state, "theme");
}

float HeaderButtonsWidth(const AppState& state) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float width = 0;
  auto add = [&](const char* label) {
    width += ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2 + style.ItemSpacing.x;
  };
  if (state.host.copy_text) add(L("Copy link"));
  if (state.embed && state.host.open_full_tool) add(L("Open the full tool"));
  if (!state.embed && state.host.download_offline_copy) add(L("Download offline copy"));
  add(Language() == Lang::kZh ? "English" : "中文");
  add(state.dark ? L("Light theme") : L("Dark theme"));
  return width - style.ItemSpacing.x;
}

void DrawHeader(AppState& state, const Fonts& fonts) {
  ImGui::PushFont(state.embed ? fonts.heading : fonts.title);
  ImGui::TextUnformatted("TrainSizer");
  ImGui::PopFont();
  const float title_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
  const float buttons = HeaderButtonsWidth(state);
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (!state.embed) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    ImGui::AlignTextToFramePadding();
    const std::string subtitle = std::string(T("GPU memory, hardware and cost for training and fine-tuning LLMs")) +
                                 "  ·  " + Printf(T("catalog %s"), state.catalog->date.c_str()) + "  ·  v" +
                                 engine::kEngineVersion;
    // Beside the title on wide pages (leaving room for the buttons); wrapped otherwise.
    const bool room = right > 760 * state.dpi_scale;
    ImGui::PushTextWrapPos(room ? right - buttons - ImGui::GetStyle().ItemSpacing.x : 0.0f);
    WrappedText(subtitle.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    if (room) ImGui::SameLine(std::max(right - buttons, 0.0f));
  } else if (right - buttons >= title_end) {
    ImGui::SameLine(right - buttons);  // beside the title when they fit, else under it
  }
  DrawHeaderButtons(state);
  if (!state.copied_status.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().ok);
    ImGui::TextUnformatted(state.copied_status.c_str());
    ImGui::PopStyleColor();
  }
}

// What a shared link asked for that could not be used: named, not silently dropped.
// An input refused after an exception (state.refusal) heads the same box.
void DrawLinkNotice(AppState& state) {
  if (state.link_notice.empty() && !state.refusal) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, Colors().notice_bg);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float wrap = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().WindowPadding.x;
  const std::string refusal = state.refusal ? RefusalText(*state.refusal) : "";
  const float refusal_lines =
      refusal.empty() ? 0.0f : 0.2f + ImGui::CalcTextSize(refusal.c_str(), nullptr, false, wrap).y / line;
  const float link_lines = state.link_notice.empty() ? 0.0f : 1.0f + float(std::min<size_t>(state.link_notice.size(), 6));
  const float height = line * (2.2f + refusal_lines + link_lines);
  ImGui::BeginChild("link_notice", ImVec2(0, height), true);
  if (!refusal.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
    WrappedText(refusal.c_str());
    ImGui::PopStyleColor();
  }
  if (!state.link_notice.empty()) {
    ImGui::TextUnformatted(T("Parts of the link were ignored (the rest applies):"));
    for (const engine::Message& notice : state.link_notice) ImGui::BulletText("%s", MessageText(notice).c_str());
  }
  if (ImGui::SmallButton(L("Dismiss"))) {
    state.link_notice.clear();
    state.refusal.reset();
  }
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

// The seed's scenarios as one-click examples.
void DrawExamples(AppState& state) {
  const engine::Example* current = nullptr;
  for (const engine::Example& x : state.catalog->examples) {
    if (x.id == state.example_id) current = &x;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(T("Examples:"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 460 * state.dpi_scale));
  // The examples' titles and descriptions are catalog prose with their Chinese beside them.
  const bool open = ImGui::BeginCombo("##examples", current ? Local(current->title).c_str()
                                                            : T("Load an example"));
  MarkAnchor(state, "examples");
  if (open) {
    for (const engine::Example& x : state.catalog->examples) {
      ImGui::PushID(x.id.c_str());
      if (ImGui::Selectable(Local(x.title).c_str(), current == &x)) LoadExample(state, x);
      MarkAnchor(state, "example:" + x.id);
      ImGui::PopID();
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        WrappedText(Local(x.description).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndCombo();
  }
  if (current != nullptr) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(Local(current->description).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
}

}  // namespace

void DrawApp(AppState& state, const Fonts& fonts, std::string* drawn_text) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("TrainSizer", nullptr, flags);
  // ImGui's text log, deep enough that every collapsing header logs as open. It must end
  // before End(): ending a top-level window stops the log and clears its buffer.
  constexpr int kOpenEverySection = 16;
  if (drawn_text != nullptr) ImGui::LogToBuffer(kOpenEverySection);
  state.anchors.clear();
  DrawHeader(state, fonts);
  DrawLinkNotice(state);
  if (!state.embed) DrawExamples(state);
  const float scale = state.dpi_scale;
  const bool wide = ImGui::GetContentRegionAvail().x >= 820 * scale;
  if (wide) {
    // Wide enough for most choices whole ("BF16 mixed (fp32 master)"); longer ones show
    // whole on hover (BeginComboShowingAll).
    const float input_width = (ImGui::GetContentRegionAvail().x >= 1200 * scale ? 440 : 390) * scale;
    ImGui::BeginChild("inputs", ImVec2(input_width, 0), true);
    DrawInputPanel(state, fonts);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results", ImVec2(0, 0), true);
    DrawResultsSummary(state, fonts);
    DrawResultsDetails(state, fonts);
    ImGui::EndChild();
  } else if (state.embed) {
    // A narrow embed is read more than edited: the answer and its details, then the inputs.
    DrawResultsSummary(state, fonts);
    DrawResultsDetails(state, fonts);
    ImGui::Spacing();
    DrawInputPanel(state, fonts);
  } else {
    // Narrow (phone): the answer first, then the inputs, then the details.
    DrawResultsSummary(state, fonts);
    DrawInputPanel(state, fonts);
    ImGui::Spacing();
    DrawResultsDetails(state, fonts);
  }
  if (drawn_text != nullptr) {
    *drawn_text = GImGui->LogBuffer.c_str();
    ImGui::LogFinish();
  }
  ImGui::End();
}

}  // namespace ui
