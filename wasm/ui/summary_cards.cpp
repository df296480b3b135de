// The first thing a person reads: five cards with the verdict, the hardware, the wall time,
// the cost of renting it, and the utilization.
#include <cmath>
#include <string>

#include "app.h"
#include "engine/cost_model.h"
#include "format.h"
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
    *detail = "no catalog offer for this GPU and count";
    return "–";
  }
  *detail = on_demand->offer->provider_name + (e.time.tokens > 0 ? ", on-demand" : ", per hour on-demand");
  return WithThousands(std::llround(on_demand->total)) + " " + state.goal.currency;
}

}  // namespace

void DrawSummaryCards(const AppState& state, const engine::Estimate& e, const Fonts& fonts) {
  const engine::Parallelism& p = state.inputs.scenario.parallel;
  const Palette& c = Colors();
  std::string rent_detail;
  const std::string rent = RentText(state, e, &rent_detail);
  const Card cards[] = {
      {"Memory per GPU", GibText(e.need_bytes), e.fits ? "fits " + GibText(e.capacity_bytes) : "does not fit",
       e.fits ? c.ok : c.bad},
      {"Hardware", std::to_string(p.gpus) + " GPU" + (p.gpus == 1 ? "" : "s"),
       std::to_string(p.Nodes()) + (p.Nodes() == 1 ? " node" : " nodes"), c.muted},
      {"Wall time", e.time.tokens > 0 ? HoursText(e.reliability.wall_hours_with_failures) : "–",
       e.time.tokens > 0 ? "with failures and checkpoints" : "give tokens for time", c.muted},
      {"Rent it", rent, rent_detail, c.muted},
      {"Utilization", std::to_string(std::lround(e.throughput.mfu * 100)) + "% MFU",
       WithThousands(std::llround(e.throughput.tokens_per_s_per_gpu)) + " tok/s per GPU", c.muted},
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
    ImGui::TextWrapped("%s", card.detail.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

}  // namespace ui
