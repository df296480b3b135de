// The planner's answer on the page: the labelled picks and the Pareto front of wall time
// against cost, each row adoptable with one click, and why other GPUs were rejected.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "chart.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

std::string LayoutText(const engine::Plan& p) {
  const engine::Parallelism& l = p.layout;
  const bool recompute = p.activation_checkpointing == engine::Recompute::kFull;
  const bool offload = l.offload != engine::Offload::kNone;
  // Whole formats, one per combination, so that a translation can word each one.
  const char* format = recompute && offload ? T("TP%d PP%d DP%d, ZeRO-%d, recompute, CPU offload, mb %d")
                       : recompute          ? T("TP%d PP%d DP%d, ZeRO-%d, recompute, mb %d")
                       : offload            ? T("TP%d PP%d DP%d, ZeRO-%d, CPU offload, mb %d")
                                            : T("TP%d PP%d DP%d, ZeRO-%d, mb %d");
  return Printf(format, l.tp, l.pp, l.DataParallel(), l.zero, p.micro_batch);
}

// "a, b, c" in the current language's list punctuation.
std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out = out.empty() ? item : Printf(T("%s, %s"), out.c_str(), item.c_str());
  return out;
}

// One table of plans; returns the plan clicked, if any.
const engine::Plan* PlanTable(const char* id, const std::vector<engine::Plan>& plans, const AppState& state,
                              const std::string& currency, bool show_labels) {
  const float scale = state.dpi_scale;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_Sortable;
  const engine::Plan* chosen = nullptr;
  if (!ImGui::BeginTable(id, 6, flags)) return nullptr;
  ImGui::TableSetupColumn(show_labels ? L("Pick") : L("GPU"), ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn(L("GPUs"), ImGuiTableColumnFlags_WidthFixed, 60 * scale);
  ImGui::TableSetupColumn(L("Layout"), ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_NoSort, 1.6f);
  ImGui::TableSetupColumn(L("Time"), ImGuiTableColumnFlags_WidthFixed, 85 * scale);
  const std::string cost_label = Printf(T("Cost (%s)"), currency.c_str()) + "###cost";
  ImGui::TableSetupColumn(cost_label.c_str(), ImGuiTableColumnFlags_WidthFixed, 110 * scale);
  ImGui::TableSetupColumn("##use", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoSort, 60 * scale);
  ImGui::TableHeadersRow();
  // Rows in the order the user clicked a header into (the planner's order until then).
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs != nullptr && specs->SpecsCount > 0) {
    const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
    auto key = [&](const engine::Plan& p) -> double {
      switch (spec.ColumnIndex) {
        case 1: return p.layout.gpus;
        case 3: return p.wall_hours;
        case 4: return p.cost;
        default: return 0;
      }
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const bool less = spec.ColumnIndex == 0 ? plans[a].gpu_id < plans[b].gpu_id : key(plans[a]) < key(plans[b]);
      const bool greater = spec.ColumnIndex == 0 ? plans[b].gpu_id < plans[a].gpu_id : key(plans[b]) < key(plans[a]);
      return spec.SortDirection == ImGuiSortDirection_Descending ? greater : less;
    });
  }
  for (size_t i : order) {
    const engine::Plan& p = plans[i];
    const engine::GpuSpec* gpu = state.catalog->FindGpu(p.gpu_id);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (show_labels) {
      std::vector<std::string> labels;  // the planner's: "fastest within the budget", ...
      for (const std::string& l : p.labels) labels.push_back(TranslateMessage(l));
      ImGui::PushStyleColor(ImGuiCol_Text, Colors().ok);
      WrappedText(JoinList(labels).c_str());
      ImGui::PopStyleColor();
    }
    WrappedText(gpu ? gpu->name.c_str() : p.gpu_id.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(TranslateMessage(p.procurement).c_str());
    ImGui::PopStyleColor();
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%d", p.layout.gpus);
    ImGui::TableSetColumnIndex(2);
    WrappedText(LayoutText(p).c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(HoursText(p.wall_hours).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(WithThousands(std::llround(p.cost)).c_str());
    if (p.own) {
      // Owning: the job's amortized share, and the cash it takes to buy the servers.
      ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
      WrappedText(Printf(T("buy %s"), WithThousands(std::llround(p.capex)).c_str()).c_str());
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(T("The job's share of owning (depreciation, colocation, maintenance at %.0f%% utilization, "
                            "plus power); buying the servers costs %s up front. Owning beats renting above %.0f%% "
                            "utilization."),
                          state.goal.own_utilization * 100, WithThousands(std::llround(p.capex)).c_str(),
                          p.break_even_utilization * 100);
      }
    }
    ImGui::TableSetColumnIndex(5);
    ImGui::PushID(int(i));
    if (ImGui::SmallButton(L("Use"))) chosen = &p;
    ImGui::PopID();
  }
  ImGui::EndTable();
  return chosen;
}

// Time against cost of every plan on the front (log scales), the picks ringed, the
// deadline and budget as lines; hover reads a point out, click makes it current.
const engine::Plan* DrawScatter(const engine::PlanResult& r, const AppState& state) {
  if (r.plans.empty()) return nullptr;
  double t_lo = 1e300, t_hi = 0, c_lo = 1e300, c_hi = 0;
  for (const engine::Plan& p : r.plans) {
    t_lo = std::min(t_lo, p.wall_hours), t_hi = std::max(t_hi, p.wall_hours);
    c_lo = std::min(c_lo, std::max(p.cost, 1.0)), c_hi = std::max(c_hi, std::max(p.cost, 1.0));
  }
  Axis x{t_lo / 1.5, t_hi * 1.5, true, HoursTick, T("wall time (log scale)")};
  const std::string y_title = Printf(T("cost, %s"), state.goal.currency.c_str());
  Axis y{c_lo / 1.5, c_hi * 1.5, true, MoneyTick, y_title.c_str()};
  const float scale = state.dpi_scale;
  Chart chart("scatter", x, y, 260 * scale, scale);
  ImDrawList* d = chart.Draw();
  if (state.goal.deadline_days > 0 && state.goal.deadline_days * 24 < x.max) {
    const ImVec2 a = chart.At(state.goal.deadline_days * 24, y.min), b = chart.At(state.goal.deadline_days * 24, y.max);
    d->AddLine(a, b, Colors().bad, 1.5f * scale);
  }
  if (state.goal.budget > 0 && state.goal.budget < y.max) {
    const ImVec2 a = chart.At(x.min, state.goal.budget), b = chart.At(x.max, state.goal.budget);
    d->AddLine(a, b, Colors().bad, 1.5f * scale);
  }
  const engine::Plan* hovered = nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const engine::Plan& p : r.plans) {
    const ImVec2 at = chart.At(p.wall_hours, std::max(p.cost, 1.0));
    d->AddCircleFilled(at, 4.5f * scale, p.own ? TermColor(1) : TermColor(0));
    const float dx = mouse.x - at.x, dy = mouse.y - at.y;
    if (dx * dx + dy * dy < 64 * scale * scale) hovered = &p;
  }
  for (const engine::Plan& pick : r.picks) {
    d->AddCircle(chart.At(pick.wall_hours, std::max(pick.cost, 1.0)), 9 * scale, Colors().ok, 0, 2.5f * scale);
  }
  MutedText(T("Blue: rent; orange: buy (amortized). Green rings: the top picks. Red lines: deadline and budget."));
  if (hovered == nullptr || !chart.Contains(mouse)) return nullptr;
  ImGui::SetTooltip("%d × %s\n%s, %s %s\n%s\n%s", hovered->layout.gpus, hovered->gpu_id.c_str(),
                    HoursText(hovered->wall_hours).c_str(), WithThousands(std::llround(hovered->cost)).c_str(),
                    state.goal.currency.c_str(), TranslateMessage(hovered->procurement).c_str(), T("click to use"));
  return ImGui::IsMouseClicked(ImGuiMouseButton_Left) ? hovered : nullptr;
}

}  // namespace

void DrawPlanSection(AppState& state, const Fonts& fonts) {
  Heading(T("Hardware plans"), fonts);
  if (!state.plan.ok()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(Printf(T("No plan: %s %s."), state.plan.error().field.c_str(),
                       TranslateMessage(state.plan.error().message).c_str()).c_str());
    ImGui::PopStyleColor();
    return;
  }
  const engine::PlanResult& r = state.plan.value();
  const std::string& currency = state.goal.currency;
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  WrappedText(Printf(T("%s layouts searched across %zu GPU types for %s tokens. Click Use to make a plan current."),
                     WithThousands(r.candidates).c_str(), state.catalog->gpus.size(),
                     WithThousands(std::llround(r.tokens)).c_str()).c_str());
  ImGui::PopStyleColor();
  const engine::Plan* chosen = nullptr;
  if (!r.picks.empty()) {
    chosen = PlanTable("picks", r.picks, state, currency, true);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
    WrappedText(T("Nothing meets the deadline and budget; the nearest plans are below."));
    ImGui::PopStyleColor();
  }
  if (const engine::Plan* p = DrawScatter(r, state)) chosen = p;
  if (ImGui::CollapsingHeader(L("All trade-offs (Pareto front of time and cost)"))) {
    if (const engine::Plan* p = PlanTable("pareto", r.plans, state, currency, false)) chosen = p;
  }
  if (ImGui::CollapsingHeader(L("Why other GPUs were rejected"))) {
    for (const engine::Rejection& x : r.rejected) {
      ImGui::Bullet();
      WrappedText(TranslateMessage(x.reason).c_str());
    }
  }
  if (chosen != nullptr) AdoptPlan(state, *chosen);
}

}  // namespace ui
