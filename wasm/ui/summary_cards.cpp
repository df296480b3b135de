// The first thing a person reads: six cards with the verdict, the hardware, the wall time,
// the cost of renting it and of owning it, and the utilization. Hovering a card shows how
// its figure is computed, with this plan's numbers, and where the formula or figure
// comes from (as the memory table and the speed facts do).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  std::string formula, source;  // the hover card; every text already in the page's language
};

// A built-in catalog entry's source text ("" for an entry only the user's overlay has):
// `field`, or "source" with its date in brackets.
std::string CatalogSource(const char* section, const std::string& key, const char* field = "source") {
  const engine::contract::Json entry = BuiltInEntry(section, key);
  if (!entry.is_object() || !entry.contains(field) || !entry[field].is_string()) return "";
  const std::string text = entry[field].get<std::string>();
  const bool dated = std::string_view(field) == "source" && entry.contains("source_date") &&
                     entry["source_date"].is_string();
  return dated ? text + " (" + entry["source_date"].get<std::string>() + ")" : text;
}

// The per-GPU need as its terms, labelled as in the memory table: "Weights 1.9 GiB + ...".
std::string TermSum(const engine::MemoryBreakdown& m) {
  const std::pair<const char*, double> terms[] = {
      {T("Weights"), m.weights.bytes},          {T("Gradients"), m.gradients.bytes},
      {T("Optimizer states"), m.optimizer.bytes}, {T("Activations"), m.activations.bytes},
      {T("Logits"), m.logits.bytes},            {T("Overheads"), m.overhead.bytes}};
  std::string sum;
  for (const auto& [label, bytes] : terms) {
    if (bytes <= 0) continue;
    sum += (sum.empty() ? "" : " + ") + std::string(label) + " " + GibText(bytes);
  }
  return sum;
}

Card MemoryCard(const AppState& state, const engine::Estimate& e, const engine::GpuSpec& gpu) {
  const Palette& c = Colors();
  Card card{T("Memory per GPU"), GibText(e.need_bytes),
            e.fits ? Printf(T("fits %s"), GibText(e.capacity_bytes).c_str()) : T("does not fit"), e.fits ? c.ok : c.bad,
            "", ""};
  card.formula = Printf(T("need = %s = %s per GPU; the %s holds %s"), TermSum(e.memory).c_str(),
                        GibText(e.need_bytes).c_str(), gpu.name.c_str(), GibText(e.capacity_bytes).c_str());
  const std::string capacity = CatalogSource("gpus", state.inputs.scenario.gpu_id, "memory_gib_source");
  card.source = Printf(T("docs/model.md §2–4, each term's paper in the memory table; capacity: %s"),
                       capacity.empty() ? T("catalog") : capacity.c_str());
  return card;
}

Card HardwareCard(const AppState& state, const engine::GpuSpec& gpu) {
  const engine::Parallelism& p = state.inputs.scenario.parallel;
  Card card{T("Hardware"), Printf(p.gpus == 1 ? T("%d GPU") : T("%d GPUs"), p.gpus),
            Printf(p.Nodes() == 1 ? T("%d node") : T("%d nodes"), p.Nodes()), Colors().muted, "", ""};
  card.formula = Printf(T("GPUs = tensor parallel %d × pipeline parallel %d × context parallel %d × data parallel %d "
                          "= %d; nodes = %d GPUs / %d per node, rounded up = %d."),
                        p.tp, p.pp, p.cp, p.DataParallel(), p.gpus, p.gpus, p.gpus_per_node, p.Nodes()) +
                 "\n" +
                 Printf(T("%s: %s memory, %s dense BF16 peak."), gpu.name.c_str(), GibText(gpu.memory_bytes).c_str(),
                        FlopsRateText(gpu.bf16_flops).c_str());
  card.source = CatalogSource("gpus", gpu.id);
  return card;
}

Card WallTimeCard(const engine::Estimate& e) {
  const engine::TrainingTime& time = e.time;
  const engine::Reliability& r = e.reliability;
  if (time.tokens <= 0) {
    return {T("Wall time"), "–", T("give tokens for time"), Colors().muted,
            T("Enter the tokens to train on to see wall time, GPU-hours and expected interruptions."), ""};
  }
  Card card{T("Wall time"), HoursText(r.wall_hours_with_failures), T("with failures and checkpoints"), Colors().muted,
            "", ""};
  card.formula =
      Printf(T("wall time = steps × step time / goodput = %s × %s / %.1f%% = %s, where steps = %s tokens / %s tokens "
               "per step."),
             WithThousands(time.steps).c_str(), SecondsText(e.throughput.step_time_s).c_str(),
             r.ettr * 100, HoursText(r.wall_hours_with_failures).c_str(),
             ParamsText(time.tokens).c_str(), WithThousands(e.throughput.tokens_per_step).c_str()) +
      "\n" +
      Printf(T("Goodput leaves room for a checkpoint every %s and %s expected interruptions."),
             HoursText(r.interval_hours).c_str(), QuantityText(r.expected_interruptions).c_str());
  card.source = T("Grattafiori et al. 2024 (Llama 3) §3.3.4: 419 interruptions in 54 days on 16,384 "
                  "H100s = 1.97e-5 per GPU-hour; Daly 2006 for the checkpoint interval.");
  return card;
}

Card RentCard(const engine::Estimate& e) {
  const std::string& currency = e.costs.basis.currency;
  const std::optional<engine::CloudCost>& rent = e.costs.rent;
  if (!rent) return {T("Rent it"), "–", T("no catalog offer for this GPU and count"), Colors().muted, "", ""};
  const engine::CloudOffer& offer = *rent->offer;
  const bool job = e.time.tokens > 0;
  const bool min_term = job && offer.min_term_hours > e.costs.hours;
  Card card{T("Rent it"), MoneyText(job ? rent->total : rent->price_per_hour, currency),
            min_term ? Printf(T("%s, billed at least %s"), offer.provider_name.c_str(),
                              HoursText(offer.min_term_hours).c_str())
                     : Printf(job ? T("%s, on-demand") : T("%s, per hour on-demand"), offer.provider_name.c_str()),
            min_term ? Colors().warn : Colors().muted, "", ""};
  card.formula = Printf(T("%d × %s %s at %s each, on-demand, price of %s."), rent->units,
                        offer.provider_name.c_str(), offer.instance.c_str(),
                        MoneyPerHourText(rent->price_per_hour / rent->units, currency).c_str(),
                        offer.price_date.empty() ? T("unknown date") : offer.price_date.c_str());
  if (job) {
    card.formula = Printf(T("cost = billed hours × price per hour = %s h × %s = %s"),
                          QuantityText(rent->billed_hours).c_str(),
                          MoneyPerHourText(rent->price_per_hour, currency).c_str(),
                          MoneyText(rent->total, currency).c_str()) +
                   "\n" + card.formula + "\n" +
                   T("Without object storage for data and checkpoints (the plans table adds it).");
  }
  card.source = CatalogSource("offers", offer.id);
  return card;
}

// How the ownership figures are made up, after the job's share.
std::string OwnBreakdown(const engine::OwnCost& o, const engine::OwnershipAssumptions& a, const std::string& currency) {
  return Printf(T("Fixed: depreciation to %d%% resale over %s years, colocation and maintenance. Buying %s costs "
                  "%s up front (with installation, and network and storage for several servers)."),
                int(std::lround(a.resale_fraction * 100)), QuantityText(a.depreciation_years).c_str(),
                MessageText(engine::OwnPurchase(o)).c_str(), MoneyText(o.capex, currency).c_str());
}

// The job's share of owning (engine::OwnSharePerHour, the planner's rule) for its hours.
Card OwnCard(const engine::Estimate& e, const engine::GpuSpec& gpu) {
  const engine::EstimateCosts& costs = e.costs;
  const std::string& currency = costs.basis.currency;
  if (!costs.own) {
    const bool restricted = !engine::BuyableIn(gpu, costs.basis.region);
    return {T("Own it"), "–",
            restricted ? T("export-restricted: a team in China cannot buy it") : T("no catalog server for this GPU"),
            Colors().muted, "", ""};
  }
  const engine::OwnCost& o = *costs.own;
  const double u = costs.basis.own_utilization, hours = costs.hours;
  const std::string total = MoneyText(costs.own_share, currency);
  // The value is drawn in the title font, which has no Chinese for "/h": the hourly case
  // says "per hour" in the detail line, as the rent card does.
  const std::string capex = MoneyText(o.capex, currency);
  std::string detail = Printf(e.time.tokens > 0 ? T("buy %s") : T("per hour; buy %s"),
                              MoneyText(o.whole_capex, currency).c_str());
  if (o.share < 1) {
    detail += " " + Printf(T("(this job: %d of its %d GPUs, %s)"), o.job_gpus, o.server->gpus, capex.c_str());
  }
  Card card{T("Own it"), total, detail, Colors().muted, "", ""};
  card.formula = Printf(T("share of owning = (fixed %s ÷ %d%% utilization + power %s) × %s = %s"),
                        MoneyPerHourText(o.fixed_per_hour, currency).c_str(), int(std::lround(u * 100)),
                        MoneyPerHourText(o.power_per_hour, currency).c_str(), HoursText(hours).c_str(),
                        total.c_str()) +
                 "\n" + OwnBreakdown(o, costs.assumptions, currency);
  if (engine::HasRentalToCompare(o.break_even_months) && o.break_even_utilization <= 1) {
    card.formula += "\n" + Printf(T("Owning costs less than renting when the GPUs are busy more than %.0f%% of the "
                                     "time (the chart's net line)."),
                                   o.break_even_utilization * 100);
  }
  card.source = Printf(T("docs/model.md §8; server: %s"), CatalogSource("servers", o.server->id).c_str());
  return card;
}

Card UtilizationCard(const engine::Estimate& e, const engine::GpuSpec& gpu, int gpus) {
  const engine::Throughput& t = e.throughput;
  Card card{T("Utilization"), std::to_string(std::lround(t.mfu * 100)) + "% MFU",
            Printf(T("%s tok/s per GPU"), WithThousands(t.tokens_per_s_per_gpu).c_str()),
            Colors().muted, "", ""};
  card.formula = Printf(T("MFU = tokens/s × model FLOPs per token / (GPUs × dense bf16 peak) = %s × %s / (%d × %s) "
                          "= %.1f%%"),
                        WithThousands(t.tokens_per_s).c_str(),
                        FlopsText(t.flops_per_token.model).c_str(), gpus, FlopsRateText(gpu.bf16_flops).c_str(),
                        t.mfu * 100);
  if (t.mfu_overridden) card.formula += std::string("\n") + T("You set this MFU; the speed follows from it.");
  card.source = Printf(T("Chowdhery et al. 2022 (PaLM), Appendix B; peak: %s"),
                       CatalogSource("gpus", gpu.id).c_str());
  return card;
}

// A scenario that does not fit has no time or price: the cards after its memory card are
// the best plan's, each labelled so (placeholders while the planner searches).
std::vector<Card> BestPlanCards(const AppState& state, const engine::Plan* p) {
  const Palette& c = Colors();
  if (p == nullptr) {
    const std::string waiting = state.plan_search ? T("searching…") : state.plan.ok() ? T("no plan fits") : T("no plan");
    return {{T("Best plan"), "–", waiting, c.muted, "", ""}};
  }
  const engine::GpuSpec* gpu = state.catalog->FindGpu(p->gpu_id);
  const std::string& currency = state.goal.currency;
  const std::string gpus = Printf(p->layout.gpus == 1 ? T("%d GPU") : T("%d GPUs"), p->layout.gpus);
  std::vector<Card> cards = {
      {T("Best plan: hardware"), gpus, gpu != nullptr ? gpu->name : p->gpu_id, c.ok, PlanLayoutText(*p), ""},
      {T("Best plan: memory"), GibText(p->need_bytes), Printf(T("fits %s"), GibText(p->capacity_bytes).c_str()), c.ok,
       "", ""},
      {T("Best plan: wall time"), HoursText(p->wall_hours), T("with start-up, checkpoints and failures"), c.muted, "",
       ""},
      {T("Best plan: cost"), MoneyText(p->cost, currency), MessageText(p->procurement), c.muted, "", ""},
      {T("Best plan: utilization"), std::to_string(std::lround(p->mfu * 100)) + "% MFU",
       Printf(T("%s tok/s"), WithThousands(p->tokens_per_s).c_str()), c.muted, "", ""}};
  cards[3].formula = p->own ? Printf(T("The job's share of owning; buying costs %s up front."),
                                     MoneyText(p->whole_capex, currency).c_str())
                            : MessageText(engine::CapacityMessage(*p));
  return cards;
}

// One card in the current table cell; hovering anywhere in it shows its formula.
void DrawCard(const Card& card, const Fonts& fonts) {
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  MutedText(card.label.c_str());
  ImGui::PushFont(fonts.title);
  ImGui::TextUnformatted(card.value.c_str());
  ImGui::PopFont();
  ImGui::PushStyleColor(ImGuiCol_Text, card.color);
  WrappedText(card.detail.c_str());
  ImGui::PopStyleColor();
  const ImVec2 bottom_right(top_left.x + width, ImGui::GetCursorScreenPos().y);
  if (card.formula.empty() || !ImGui::IsWindowHovered() || !ImGui::IsMouseHoveringRect(top_left, bottom_right)) {
    return;
  }
  ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
  FormulaTooltip(card.formula.c_str(), card.source.c_str());
}

// Six across on a wide pane, three on a medium one, two on a phone.
int CardColumns(float dpi_scale) {
  const float width = ImGui::GetContentRegionAvail().x / dpi_scale;
  return width > 760 ? 6 : width > 480 ? 3 : 2;
}

}  // namespace

void DrawSummaryCards(const AppState& state, const engine::Estimate& e, const engine::Plan* best_plan,
                      const Fonts& fonts) {
  const engine::Scenario& s = state.inputs.scenario;
  const engine::GpuSpec* gpu = state.catalog->FindGpu(s.gpu_id);
  if (gpu == nullptr) return;
  std::vector<Card> cards = {MemoryCard(state, e, *gpu)};
  if (e.fits) {
    cards.insert(cards.end(), {HardwareCard(state, *gpu), WallTimeCard(e), RentCard(e), OwnCard(e, *gpu),
                               UtilizationCard(e, *gpu, s.parallel.gpus)});
  } else {
    const std::vector<Card> plan_cards = BestPlanCards(state, best_plan);
    cards.insert(cards.end(), plan_cards.begin(), plan_cards.end());
  }
  if (!ImGui::BeginTable("cards", std::min(CardColumns(state.dpi_scale), int(cards.size())),
                         ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
    return;
  }
  for (const Card& card : cards) {
    ImGui::TableNextColumn();
    DrawCard(card, fonts);
  }
  ImGui::EndTable();
}

}  // namespace ui
