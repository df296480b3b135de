// The planner's answer on the page: the labelled picks and the Pareto front of wall time
// against cost, each row adoptable with one click, and why other GPUs were rejected.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "chart.h"
#include "engine/cost_model.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {

std::string PlanLayoutText(const engine::Plan& p) {
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

namespace {

// "a, b, c" in the current language's list punctuation.
std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out = out.empty() ? item : Printf(T("%s, %s"), out.c_str(), item.c_str());
  return out;
}

enum PlanColumn {
  kRankColumn, kPickColumn, kGpusColumn, kLayoutColumn, kTimeColumn, kCostColumn, kUseColumn, kPlanColumns
};

// Row order: the column the user sorted by, or the planner's ranking ("#", the default sort).
std::vector<size_t> SortedOrder(const std::vector<engine::Plan>& plans) {
  std::vector<size_t> order(plans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs == nullptr || specs->SpecsCount == 0) return order;
  const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
  auto key = [&](size_t i) -> double {
    switch (spec.ColumnIndex) {
      case kGpusColumn: return plans[i].layout.gpus;
      case kTimeColumn: return plans[i].wall_hours;
      case kCostColumn: return plans[i].cost;
      default: return double(i);
    }
  };
  auto less = [&](size_t a, size_t b) {
    return spec.ColumnIndex == kPickColumn ? plans[a].gpu_id < plans[b].gpu_id : key(a) < key(b);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return spec.SortDirection == ImGuiSortDirection_Descending ? less(b, a) : less(a, b);
  });
  return order;
}

// The planner's labels (picks only), the GPU and where it comes from.
void PlanIdentity(const engine::Plan& p, const AppState& state, bool show_labels) {
  if (show_labels) {
    std::vector<std::string> labels;  // the planner's: "fastest within the budget", ...
    for (engine::PickLabel l : p.labels) labels.push_back(MessageText(engine::kPickLabelIds[size_t(l)], {}));
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().ok);
    WrappedText(JoinList(labels).c_str());
    ImGui::PopStyleColor();
  }
  const engine::GpuSpec* gpu = state.catalog->FindGpu(p.gpu_id);
  WrappedText(gpu ? gpu->name.c_str() : p.gpu_id.c_str());
  MutedText(MessageText(p.procurement).c_str());
}

// A rented plan's terms: how one buyer gets the offer's GPUs and how many, the wait and
// the minimum term (catalog capacity, model.md §8.1).
void RentLine(const engine::Plan& p) {
  MutedText(MessageText(engine::CapacityMessage(p)).c_str());
  if (p.real_name_verification) MutedText(MessageText(engine::MakeMessage("plan.real_name_verification")).c_str());
}

// What to check before trusting a plan's price: a low-confidence figure, or one seen more
// than a year before the catalog (or undated).
void PriceCaveats(const engine::Plan& p) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().warn);
  if (p.price_uncertain) WrappedText(MessageText(engine::MakeMessage("plan.price_uncertain")).c_str());
  if (p.price_stale) {
    WrappedText(MessageText(p.price_date.empty() ? engine::MakeMessage("plan.price_undated")
                                                 : engine::MakeMessage("plan.price_stale",
                                                                       {engine::TextArg("date", p.price_date)}))
                    .c_str());
  }
  ImGui::PopStyleColor();
}

// An owned plan: the cash to buy the servers under its cost (the job's amortized share).
void OwnLine(const engine::Plan& p, const AppState& state) {
  const std::string& currency = state.goal.currency;
  MutedText(p.whole_capex > p.capex ? Printf(T("buy %s (this job's share %s)"), MoneyText(p.whole_capex, currency).c_str(),
                                            MoneyText(p.capex, currency).c_str()).c_str()
                                    : Printf(T("buy %s"), MoneyText(p.capex, currency).c_str()).c_str());
  if (!ImGui::IsItemHovered()) return;
  // A break-even above 100% utilization, or none (renting stays cheaper, or no rental
  // was priced), has no utilization to name: the tooltip then gives the rule alone.
  if (!engine::HasRentalToCompare(p.break_even_months) || p.break_even_utilization > 1) {
    ImGui::SetTooltip("%s", T("A job's share of owning = fixed cost per hour / utilization + power per used hour."));
    return;
  }
  ImGui::SetTooltip(T("The job's share of owning (depreciation, colocation, maintenance at %.0f%% utilization, "
                      "plus power); buying the servers costs %s up front. Owning beats renting above %.0f%% "
                      "utilization."),
                    state.goal.own_utilization * 100, MoneyText(p.capex, state.goal.currency).c_str(),
                    p.break_even_utilization * 100);
}

void BuyLine(const engine::Plan& p, const AppState& state) {
  if (p.own) {
    OwnLine(p, state);
  } else {
    RentLine(p);
  }
  PriceCaveats(p);
}

// One plan as a table row; true when its Use button was clicked.
bool PlanRow(const engine::Plan& p, size_t rank, const AppState& state, bool show_labels) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(kRankColumn);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(Colors().muted), "%zu", rank + 1);
  ImGui::TableSetColumnIndex(kPickColumn);
  PlanIdentity(p, state, show_labels);
  ImGui::TableSetColumnIndex(kGpusColumn);
  ImGui::Text("%d", p.layout.gpus);
  ImGui::TableSetColumnIndex(kLayoutColumn);
  WrappedText(PlanLayoutText(p).c_str());
  ImGui::TableSetColumnIndex(kTimeColumn);
  ImGui::TextUnformatted(HoursText(p.wall_hours).c_str());
  ImGui::TableSetColumnIndex(kCostColumn);
  ImGui::TextUnformatted(WithThousands(p.cost).c_str());
  BuyLine(p, state);
  ImGui::TableSetColumnIndex(kUseColumn);
  return ImGui::SmallButton(L("Use"));
}

// One plan as a block of lines, for a region too narrow for the table's columns; true
// when its Use button was clicked.
bool PlanBlock(const engine::Plan& p, const AppState& state, const std::string& currency, bool show_labels) {
  PlanIdentity(p, state, show_labels);
  WrappedText(PlanLayoutText(p).c_str());
  const std::string gpus = Printf(p.layout.gpus == 1 ? T("%d GPU") : T("%d GPUs"), p.layout.gpus);
  WrappedText(Printf("%s · %s · %s %s", gpus.c_str(), HoursText(p.wall_hours).c_str(),
                     WithThousands(p.cost).c_str(), currency.c_str()).c_str());
  BuyLine(p, state);
  return ImGui::SmallButton(L("Use"));
}

// The plans stacked one under another in the planner's order; returns the plan clicked.
const engine::Plan* PlanBlocks(const char* id, const std::vector<engine::Plan>& plans, const AppState& state,
                               const std::string& currency, bool show_labels) {
  const engine::Plan* chosen = nullptr;
  ImGui::PushID(id);
  ImGui::Separator();
  for (size_t i = 0; i < plans.size(); ++i) {
    ImGui::PushID(int(i));
    if (PlanBlock(plans[i], state, currency, show_labels)) chosen = &plans[i];
    ImGui::PopID();
    ImGui::Separator();
  }
  ImGui::PopID();
  return chosen;
}

// One table of plans (blocks when the region is narrow); returns the plan clicked, if any.
const engine::Plan* PlanTable(const char* id, const std::vector<engine::Plan>& plans, const AppState& state,
                              const std::string& currency, bool show_labels) {
  const float scale = state.dpi_scale;
  if (TooNarrowForColumns(scale)) return PlanBlocks(id, plans, state, currency, show_labels);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_Sortable;
  if (!ImGui::BeginTable(id, kPlanColumns, flags)) return nullptr;
  // "#" is the planner's ranking, the order rows start in; a click on it restores it.
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_DefaultSort, 28 * scale);
  ImGui::TableSetupColumn(show_labels ? L("Pick") : L("GPU"), ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn(L("GPUs"), ImGuiTableColumnFlags_WidthFixed, 60 * scale);
  ImGui::TableSetupColumn(L("Layout"), ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_NoSort, 1.6f);
  ImGui::TableSetupColumn(L("Time"), ImGuiTableColumnFlags_WidthFixed, 85 * scale);
  const std::string cost_label = Printf(T("Cost (%s)"), currency.c_str()) + "###cost";
  ImGui::TableSetupColumn(cost_label.c_str(), ImGuiTableColumnFlags_WidthFixed, 110 * scale);
  ImGui::TableSetupColumn("##use", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoSort, 60 * scale);
  TableHeadersRowFitted();
  const engine::Plan* chosen = nullptr;
  for (size_t i : SortedOrder(plans)) {
    ImGui::PushID(int(i));
    if (PlanRow(plans[i], i, state, show_labels)) chosen = &plans[i];
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
                    HoursText(hovered->wall_hours).c_str(), WithThousands(hovered->cost).c_str(),
                    state.goal.currency.c_str(), MessageText(hovered->procurement).c_str(), T("click to use"));
  return ImGui::IsMouseClicked(ImGuiMouseButton_Left) ? hovered : nullptr;
}

// Why a GPU has no plan, in the page's language.
std::string RejectionText(const engine::Rejection& x) { return MessageText(x.reason); }

}  // namespace

void DrawPlanSection(AppState& state, const Fonts& fonts) {
  Heading(T("Hardware plans"), fonts);
  if (state.plan_search) {
    // The previous answer stays below while the new search runs over a few frames.
    MutedText(Printf(T("Planning for the new inputs: %d of %zu GPU types searched..."),
                     state.plan_search->GpusSearched(), state.catalog->gpus.size()).c_str());
    if (!state.plan.ok()) return;  // the last inputs' complaint no longer applies
  }
  if (!state.plan.ok()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
    WrappedText(Printf(T("No plan: %s %s."), state.plan.error().field.c_str(),
                       ErrorText(state.plan.error()).c_str()).c_str());
    ImGui::PopStyleColor();
    return;
  }
  const engine::PlanResult& r = state.plan.value();
  const std::string& currency = state.goal.currency;
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  WrappedText(Printf(T("%s layouts searched across %zu GPU types for %s tokens. Click Use to make a plan current."),
                     WithThousands(r.candidates).c_str(), state.catalog->gpus.size(),
                     WithThousands(r.tokens).c_str()).c_str());
  ImGui::PopStyleColor();
  const engine::Plan* chosen = nullptr;
  if (!r.picks.empty()) {
    chosen = PlanTable("picks", r.picks, state, currency, true);
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
    WrappedText(T("Nothing meets the deadline and budget; the nearest plans are below."));
    ImGui::PopStyleColor();
  }
  if (state.host.show_printable && (!r.picks.empty() || !r.plans.empty())) {
    // The seed's closing offer: the recommended plan and an alternative on one printable page.
    if (ImGui::Button(L("Proposal: print or save as PDF"))) ShowProposal(state);
    MarkAnchor(state, "proposal");
  }
  if (const engine::Plan* p = DrawScatter(r, state)) chosen = p;
  if (ImGui::CollapsingHeader(L("All trade-offs (Pareto front of time and cost)"))) {
    if (const engine::Plan* p = PlanTable("pareto", r.plans, state, currency, false)) chosen = p;
  }
  if (ImGui::CollapsingHeader(L("Why other GPUs were rejected"))) {
    for (const engine::Rejection& x : r.rejected) {
      ImGui::Bullet();
      WrappedText(RejectionText(x).c_str());
    }
  }
  if (chosen != nullptr) AdoptPlan(state, *chosen);
}

}  // namespace ui
