// The first thing a person reads: five cards with the verdict, the hardware, the wall time,
// the cost of renting it, and the utilization.
#include <cmath>
#include <cstdio>
#include <string>

#include "app.h"
#include "engine/cost_model.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

struct Card {
  std::string label, value, detail;
  ImU32 color;
};

std::string RentText(const AppState& state, const engine::Estimate& e, std::string* detail) {
  const engine::Scenario& s = state.inputs.scenario;
  const double hours = e.time.tokens > 0 ? e.reliability.wall_hours_with_failures : 1.0;
  const auto options = engine::CloudOptions(*state.catalog, s.gpu_id, s.parallel.gpus, hours, state.goal.currency, {});
  const engine::CloudCost* on_demand = engine::CheapestOnDemand(options);
  if (on_demand == nullptr) {
    *detail = T("no catalog offer for this GPU and count");
    return "–";
  }
  *detail = Printf(e.time.tokens > 0 ? T("%s, on-demand") : T("%s, per hour on-demand"),
                   on_demand->offer->provider_name.c_str());
  return WithThousands(std::llround(on_demand->total)) + " " + state.goal.currency;
}

}  // namespace

void DrawSummaryCards(const AppState& state, const engine::Estimate& e, const Fonts& fonts) {
  const engine::Parallelism& p = state.inputs.scenario.parallel;
  const Palette& c = Colors();
  std::string rent_detail;
  const std::string rent = RentText(state, e, &rent_detail);
  const Card cards[] = {
      {T("Memory per GPU"), GibText(e.need_bytes),
       e.fits ? Printf(T("fits %s"), GibText(e.capacity_bytes).c_str()) : T("does not fit"), e.fits ? c.ok : c.bad},
      {T("Hardware"), Printf(p.gpus == 1 ? T("%d GPU") : T("%d GPUs"), p.gpus),
       Printf(p.Nodes() == 1 ? T("%d node") : T("%d nodes"), p.Nodes()), c.muted},
      {T("Wall time"), e.time.tokens > 0 ? HoursText(e.reliability.wall_hours_with_failures) : "–",
       e.time.tokens > 0 ? T("with failures and checkpoints") : T("give tokens for time"), c.muted},
      {T("Rent it"), rent, rent_detail, c.muted},
      {T("Utilization"), std::to_string(std::lround(e.throughput.mfu * 100)) + "% MFU",
       Printf(T("%s tok/s per GPU"), WithThousands(std::llround(e.throughput.tokens_per_s_per_gpu)).c_str()), c.muted},
  };
  const int columns = ImGui::GetContentRegionAvail().x > 700 * state.dpi_scale ? 5 : 2;
  if (!ImGui::BeginTable("cards", columns, ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersInnerV |
                                               ImGuiTableFlags_SizingStretchSame)) {
    return;
  }
  for (const Card& card : cards) {
    ImGui::TableNextColumn();
    MutedText(card.label.c_str());
    ImGui::PushFont(fonts.title);
    ImGui::TextUnformatted(card.value.c_str());
    ImGui::PopFont();
    ImGui::PushStyleColor(ImGuiCol_Text, card.color);
    WrappedText(card.detail.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

}  // namespace ui
