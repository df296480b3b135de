// Rent vs buy for the current GPU type and count over 48 months, renting the cheapest
// catalog offer vs buying the cheapest catalog servers (the estimate's
// engine::EstimateCosts): owning net of the servers' resale value (the accounting of the
// Own-it card, so the two agree) and the cash it takes, with a legend, the month the cash
// breaks even, and a hover read-out of the totals by month.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app.h"
#include "chart.h"
#include "engine/cost_model.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

ImU32 RentColor() { return TermColor(0); }
ImU32 OwnColor() { return TermColor(1); }
ImU32 CashColor() { return TermColor(2); }

// A coloured square the height of a line of text, with the cursor left after it.
void Swatch(ImU32 color, float scale) {
  const float box = ImGui::GetTextLineHeight() * 0.7f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + box * 0.25f), ImVec2(p.x + box, p.y + box * 1.25f),
                                            color, 2 * scale);
  ImGui::Dummy(ImVec2(box, box));
  ImGui::SameLine();
}

// A legend entry: swatch and text, after the previous entry on the same line when both
// fit (else on a line of its own, the text wrapping beside the swatch).
void LegendItem(ImU32 color, const std::string& text, bool first, float scale) {
  const float width = ImGui::GetTextLineHeight() * 0.7f + ImGui::GetStyle().ItemSpacing.x +
                      ImGui::CalcTextSize(text.c_str()).x;
  if (!first) {
    ImGui::SameLine(0, 16 * scale);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
  }
  Swatch(color, scale);
  WrappedText(text.c_str());
}

// What the chart's parts share: the two series, their currency and the DPI scale.
struct RentBuyView {
  const engine::RentVsBuy& series;
  const std::string& currency;
  float scale;
};

void DrawSeries(const Chart& chart, const std::vector<double>& values, const std::vector<double>& months, ImU32 color,
                float scale) {
  for (size_t i = 1; i < months.size(); ++i) {
    chart.Draw()->AddLine(chart.At(months[i - 1], values[i - 1]), chart.At(months[i], values[i]), color, 2.5f * scale);
  }
}

// The break-even line with its month written beside it, inside the plot.
void DrawBreakEven(const Chart& chart, const RentBuyView& v, double top) {
  if (!v.series.breaks_even) return;
  const double m = v.series.break_even_month;
  const ImVec2 low = chart.At(m, 0), high = chart.At(m, top);
  chart.Draw()->AddLine(low, high, Colors().ok, 1.5f * v.scale);
  const std::string label = Printf(T("break-even: %d mo"), int(std::lround(m)));
  const ImVec2 size = ImGui::CalcTextSize(label.c_str());
  const float pad = 4 * v.scale;
  const bool left = high.x + pad + size.x > chart.Max().x;  // no room on the right
  const ImVec2 at(left ? high.x - pad - size.x : high.x + pad, high.y + pad);
  chart.Draw()->AddRectFilled(ImVec2(at.x - 2 * v.scale, at.y), ImVec2(at.x + size.x + 2 * v.scale, at.y + size.y),
                              Colors().chart_bg);
  chart.Draw()->AddText(at, Colors().ok, label.c_str());
}

// Under the mouse: a guide at the nearest month, a dot on each line, and the two totals.
void DrawHoverReadout(const Chart& chart, const RentBuyView& v) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!ImGui::IsWindowHovered() || !chart.Contains(mouse)) return;
  const double fraction = (mouse.x - chart.Min().x) / std::max(1.0f, chart.Max().x - chart.Min().x);
  const long month = std::lround(fraction * engine::kRentVsBuyHorizonMonths);
  const size_t i = size_t(std::clamp(month, 0L, long(v.series.months.size()) - 1));
  const double rent = v.series.rent[i], own = v.series.own_net[i], cash = v.series.own[i];
  const ImVec2 top = chart.At(v.series.months[i], 0);
  chart.Draw()->AddLine(ImVec2(top.x, chart.Min().y), ImVec2(top.x, chart.Max().y), Colors().chart_frame, v.scale);
  chart.Draw()->AddCircleFilled(chart.At(v.series.months[i], rent), 4.5f * v.scale, RentColor());
  chart.Draw()->AddCircleFilled(chart.At(v.series.months[i], own), 4.5f * v.scale, OwnColor());
  chart.Draw()->AddCircleFilled(chart.At(v.series.months[i], cash), 3.5f * v.scale, CashColor());
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(Printf(T("After %d months"), int(i)).c_str());
  Swatch(RentColor(), v.scale);
  ImGui::TextUnformatted(Printf(T("Rent: %s"), MoneyText(rent, v.currency).c_str()).c_str());
  Swatch(OwnColor(), v.scale);
  ImGui::TextUnformatted(Printf(T("Own, net of resale value: %s"), MoneyText(own, v.currency).c_str()).c_str());
  Swatch(CashColor(), v.scale);
  ImGui::TextUnformatted(Printf(T("Own, cash paid: %s"), MoneyText(cash, v.currency).c_str()).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  ImGui::TextUnformatted((own < rent ? Printf(T("owning is %s cheaper"), MoneyText(rent - own, v.currency).c_str())
                                     : Printf(T("renting is %s cheaper"), MoneyText(own - rent, v.currency).c_str()))
                             .c_str());
  ImGui::PopStyleColor();
  ImGui::EndTooltip();
}

void DrawChart(const RentBuyView& v) {
  const double top = std::max({v.series.rent.back(), v.series.own.back(), v.series.own_net.back()}) * 1.05;
  // The catalog check keeps every figure finite (catalog_entries.cpp kRanges); an axis to
  // infinity would have no ticks to draw.
  if (!std::isfinite(top) || top <= 0) return;
  const std::string y_title = Printf(T("cumulative cost, %s"), v.currency.c_str());
  const auto month_tick = [](double m) { return Printf(T("%d mo"), int(std::lround(m))); };
  const auto money_tick = [&currency = v.currency](double amount) { return MoneyTickText(amount, currency); };
  Axis x{0, engine::kRentVsBuyHorizonMonths, false, month_tick, T("months of use")};
  Axis y{0, top, false, money_tick, y_title.c_str()};
  const Chart chart("rentbuy", x, y, 220 * v.scale, v.scale);
  DrawSeries(chart, v.series.rent, v.series.months, RentColor(), v.scale);
  DrawSeries(chart, v.series.own, v.series.months, CashColor(), v.scale * 0.6f);
  DrawSeries(chart, v.series.own_net, v.series.months, OwnColor(), v.scale);
  DrawBreakEven(chart, v, top);
  DrawHoverReadout(chart, v);
}

}  // namespace

void DrawRentBuySection(const AppState& state, const engine::Estimate& e, const Fonts& fonts) {
  Heading(T("Rent or buy these GPUs"), fonts);
  const engine::EstimateCosts& costs = e.costs;
  if (!costs.rent_vs_buy) {
    MutedText(T("The catalog needs both a cloud offer and a server for this GPU to compare renting with buying."));
    return;
  }
  const std::string& currency = costs.basis.currency;
  const engine::CloudCost* on_demand = &*costs.hourly_rent;
  const engine::OwnCost& own = *costs.own;
  const double utilization = costs.basis.own_utilization;
  const engine::RentVsBuy& series = *costs.rent_vs_buy;
  const float scale = state.dpi_scale;
  DrawChart({series, currency, scale});
  LegendItem(RentColor(),
             Printf(T("Rent %s %s at %s"), on_demand->offer->provider_name.c_str(), on_demand->offer->instance.c_str(),
                    MoneyPerHourText(on_demand->price_per_hour, currency).c_str()),
             true, scale);
  LegendItem(OwnColor(),
             Printf(T("Own %s, net of its resale value"), MessageText(engine::OwnPurchase(own)).c_str()), false,
             scale);
  const std::string cash_label =
      own.share < 1 ? Printf(T("Cash paid, this job's share: %s up front (the server costs %s), then running costs"),
                             MoneyText(own.capex, currency).c_str(), MoneyText(own.whole_capex, currency).c_str())
                    : Printf(T("Cash paid: %s up front, then running costs"), MoneyText(own.capex, currency).c_str());
  LegendItem(CashColor(), cash_label, false, scale);
  if (series.breaks_even) LegendItem(Colors().ok, T("Cash break-even"), false, scale);
  // The lines' first month: the same comparison as the cards' rent and share of owning.
  const double rent_month = series.rent[1], own_month = series.own_net[1];
  const std::string net = Printf(own_month < rent_month ? T("Net of resale value, owning costs %s a month against "
                                                            "renting's %s: owning is cheaper.")
                                                        : T("Net of resale value, owning costs %s a month against "
                                                            "renting's %s: renting is cheaper."),
                                 MoneyText(own_month, currency).c_str(), MoneyText(rent_month, currency).c_str());
  const std::string cash = series.breaks_even
                               ? Printf(T("In cash, buying pays for itself after %d months (green line)."),
                                        int(std::lround(series.break_even_month)))
                               : std::string(T("In cash alone (before selling the servers), renting stays cheaper "
                                               "for 4 years."));
  MutedText(Printf(T("Both used %d%% of the time; owned servers also pay colocation and maintenance when idle. %s %s"),
                   int(std::lround(utilization * 100)), net.c_str(), cash.c_str()).c_str());
}

}  // namespace ui
