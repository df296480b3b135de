// The planner's answer on the page: the labelled picks and the Pareto front of wall time
// against cost, each row adoptable with one click, and why other GPUs were rejected.
#include <cmath>
#include <cstdio>
#include <string>

#include "app.h"
#include "format.h"
#include "widgets.h"

namespace ui {
namespace {

std::string LayoutText(const engine::Plan& p) {
  const engine::Parallelism& l = p.layout;
  char buf[160];
  std::snprintf(buf, sizeof buf, "TP%d PP%d DP%d, ZeRO-%d%s%s, mb %d", l.tp, l.pp, l.DataParallel(), l.zero,
                p.activation_checkpointing == engine::Recompute::kFull ? ", recompute" : "",
                l.offload != engine::Offload::kNone ? ", CPU offload" : "", p.micro_batch);
  return buf;
}

// One table of plans; returns the plan clicked, if any.
const engine::Plan* PlanTable(const char* id, const std::vector<engine::Plan>& plans, const AppState& state,
                              const std::string& currency, bool show_labels) {
  const float scale = state.dpi_scale;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  const engine::Plan* chosen = nullptr;
  if (!ImGui::BeginTable(id, 6, flags)) return nullptr;
  ImGui::TableSetupColumn(show_labels ? "Pick" : "GPU", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("GPUs", ImGuiTableColumnFlags_WidthFixed, 60 * scale);
  ImGui::TableSetupColumn("Layout", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 85 * scale);
  ImGui::TableSetupColumn(("Cost (" + currency + ")").c_str(), ImGuiTableColumnFlags_WidthFixed, 110 * scale);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 60 * scale);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < plans.size(); ++i) {
    const engine::Plan& p = plans[i];
    const engine::GpuSpec* gpu = state.catalog->FindGpu(p.gpu_id);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (show_labels) {
      std::string labels;
      for (const std::string& l : p.labels) labels += (labels.empty() ? "" : ", ") + l;
      ImGui::PushStyleColor(ImGuiCol_Text, kOkColor);
      ImGui::TextWrapped("%s", labels.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::TextWrapped("%s", gpu ? gpu->name.c_str() : p.gpu_id.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, kMutedTextColor);
    ImGui::TextWrapped("%s", p.procurement.c_str());
    ImGui::PopStyleColor();
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%d", p.layout.gpus);
    ImGui::TableSetColumnIndex(2);
    ImGui::TextWrapped("%s", LayoutText(p).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(HoursText(p.wall_hours).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(WithThousands(std::llround(p.cost)).c_str());
    if (p.own) {
      // Owning: the job's amortized share, and the cash it takes to buy the servers.
      ImGui::PushStyleColor(ImGuiCol_Text, kMutedTextColor);
      ImGui::TextWrapped("buy %s", WithThousands(std::llround(p.capex)).c_str());
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("The job's share of owning (depreciation, colocation, maintenance at %.0f%% utilization, "
                          "plus power); buying the servers costs %s up front. Owning beats renting above %.0f%% "
                          "utilization.",
                          state.goal.own_utilization * 100, WithThousands(std::llround(p.capex)).c_str(),
                          p.break_even_utilization * 100);
      }
    }
    ImGui::TableSetColumnIndex(5);
    ImGui::PushID(int(i));
    if (ImGui::SmallButton("Use")) chosen = &p;
    ImGui::PopID();
  }
  ImGui::EndTable();
  return chosen;
}

}  // namespace

void DrawPlanSection(AppState& state, const Fonts& fonts) {
  Heading("Hardware plans", fonts);
  if (!state.plan.ok()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kMutedTextColor);
    ImGui::TextWrapped("No plan: %s %s.", state.plan.error().field.c_str(), state.plan.error().message.c_str());
    ImGui::PopStyleColor();
    return;
  }
  const engine::PlanResult& r = state.plan.value();
  const std::string& currency = state.goal.currency;
  ImGui::PushStyleColor(ImGuiCol_Text, kMutedTextColor);
  ImGui::TextWrapped("%s layouts searched across %zu GPU types for %s tokens. Click Use to make a plan current.",
                     WithThousands(r.candidates).c_str(), state.catalog->gpus.size(),
                     WithThousands(std::llround(r.tokens)).c_str());
  ImGui::PopStyleColor();
  const engine::Plan* chosen = nullptr;
  if (!r.picks.empty()) {
    chosen = PlanTable("picks", r.picks, state, currency, true);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
    ImGui::TextWrapped("Nothing meets the deadline and budget; the nearest plans are below.");
    ImGui::PopStyleColor();
  }
  if (ImGui::CollapsingHeader("All trade-offs (Pareto front of time and cost)")) {
    if (const engine::Plan* p = PlanTable("pareto", r.plans, state, currency, false)) chosen = p;
  }
  if (ImGui::CollapsingHeader("Why other GPUs were rejected")) {
    for (const engine::Rejection& x : r.rejected) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", x.reason.c_str());
    }
  }
  if (chosen != nullptr) AdoptPlan(state, *chosen);
}

}  // namespace ui
