// Speed, time, reliability and the server bill of materials for the current plan.
#include <array>
#include <cstdio>
#include <string>
#include <vector>
#include <cmath>

#include "app.h"
#include "format.h"
#include "widgets.h"

namespace ui {
namespace {

// Stacked bar of where a step's time goes.
void DrawStepBar(const engine::StepBreakdown& b, double step_s, float scale) {
  const std::array<std::pair<const char*, double>, 5> parts = {{{"Compute", b.compute_s},
                                                                {"Tensor-parallel comm", b.tp_comm_s},
                                                                {"Data-parallel comm (exposed)", b.dp_comm_s},
                                                                {"Pipeline bubble", b.pp_bubble_s},
                                                                {"Optimizer, offload, other", b.other_s}}};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 22 * scale;
  float x = origin.x;
  for (size_t i = 0; i < parts.size(); ++i) {
    const float w = step_s > 0 ? float(parts[i].second / step_s) * width : 0;
    if (w <= 0) continue;
    const ImVec2 a(x, origin.y), c(x + w, origin.y + height);
    draw->AddRectFilled(a, c, TermColor(int(i == 0 ? 0 : i + 1)));
    if (ImGui::IsMouseHoveringRect(a, c)) {
      ImGui::SetTooltip("%s: %s (%.0f%%)", parts[i].first, SecondsText(parts[i].second).c_str(),
                        100 * parts[i].second / step_s);
    }
    x += w;
  }
  ImGui::Dummy(ImVec2(width, height + 4 * scale));
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].second <= 0) continue;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(TermColor(int(i == 0 ? 0 : i + 1))), "\u25CF");
    ImGui::SameLine();
    ImGui::Text("%s %s", parts[i].first, SecondsText(parts[i].second).c_str());
    if (i + 1 < parts.size()) ImGui::SameLine(0, 18 * scale);
  }
  ImGui::NewLine();
}

void DrawFacts(const char* id, const std::vector<std::pair<std::string, std::string>>& rows, float scale) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, 220 * scale);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  for (const auto& [label, value] : rows) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(label.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::TextWrapped("%s", value.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void DrawSpeedSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  const engine::Throughput& t = e.throughput;
  Heading("Speed", fonts);
  char mfu[96];
  std::snprintf(mfu, sizeof mfu, "%.1f%% MFU, %.1f%% HFU%s", t.mfu * 100, t.hfu * 100,
                t.mfu_overridden ? " (your MFU)" : "");
  DrawFacts("speed", {{"Tokens per second", WithThousands(std::llround(t.tokens_per_s)) + " (" +
                                               WithThousands(std::llround(t.tokens_per_s_per_gpu)) + " per GPU)"},
                      {"Utilization", mfu},
                      {"Step", SecondsText(t.step_time_s) + " for " + WithThousands(std::llround(t.tokens_per_step)) +
                                   " tokens"},
                      {"Model FLOPs per token", FlopsText(t.flops_per_token.model) + " (hardware " +
                                                    FlopsText(t.flops_per_token.hardware) + ")"}},
            scale);
  DrawStepBar(t.breakdown, t.step_time_s, scale);
  if (e.network_effect.empty()) {
    MutedText("One node: no traffic crosses the scale-out network.");
    return;
  }
  std::string text = "The same plan on other networks (usual bandwidth per node): ";
  for (size_t i = 0; i < e.network_effect.size(); ++i) {
    const engine::FabricSpeed& f = e.network_effect[i];
    text += (i ? ", " : "") + f.name + " " + std::to_string(std::lround(f.relative * 100)) + "%";
  }
  MutedText((text + ".").c_str());
}

void DrawTimeSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  Heading("Time, checkpoints and failures", fonts);
  const engine::TrainingTime& time = e.time;
  const engine::Reliability& r = e.reliability;
  if (time.tokens <= 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    ImGui::TextWrapped("Enter the tokens to train on to see wall time, GPU-hours and expected interruptions.");
    ImGui::PopStyleColor();
  }
  std::vector<std::pair<std::string, std::string>> rows;
  if (time.tokens > 0) {
    rows.push_back({"Wall time", HoursText(time.wall_hours) + " (" + HoursText(r.wall_hours_with_failures) +
                                     " with failures and checkpoints)"});
    rows.push_back({"GPU-hours", WithThousands(std::llround(time.gpu_hours))});
    rows.push_back({"Expected interruptions", std::to_string(std::llround(r.expected_interruptions)) +
                                                  " (job MTBF " + HoursText(r.job_mtbf_hours) + ")"});
  }
  rows.push_back({"Checkpoint", GbText(r.checkpoint_bytes) + " resumable, " + GbText(r.export_bytes) +
                                    " weights; write " + SecondsText(r.checkpoint_write_s)});
  rows.push_back({"Checkpoint every", HoursText(r.interval_hours) + " (Daly), goodput " +
                                          std::to_string(std::llround(r.ettr * 100)) + "%"});
  DrawFacts("time", rows, scale);
}

void DrawServerSection(const engine::Estimate& e, const Fonts& fonts, float scale) {
  Heading("Server bill of materials", fonts);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("bom", 3, flags)) return;
  ImGui::TableSetupColumn("Item", ImGuiTableColumnFlags_WidthFixed, 190 * scale);
  ImGui::TableSetupColumn("Amount", ImGuiTableColumnFlags_WidthFixed, 150 * scale);
  ImGui::TableSetupColumn("Why", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const engine::BomLine& l : e.server.lines) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(l.item.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%s %s", QuantityText(l.quantity).c_str(), l.unit.c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextWrapped("%s", l.why.c_str());
  }
  ImGui::EndTable();
}

}  // namespace ui
