// Rent vs buy for the current GPU type and count: cumulative cash over 48 months, renting
// the cheapest catalog offer vs buying the cheapest catalog servers, break-even marked.
#include <algorithm>
#include <cmath>
#include <string>

#include "app.h"
#include "chart.h"
#include "engine/cost_model.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {

void DrawRentBuySection(const AppState& state, const Fonts& fonts) {
  Heading(T("Rent or buy these GPUs"), fonts);
  const engine::Scenario& s = state.inputs.scenario;
  const int gpus = s.parallel.gpus;
  const std::string& currency = state.goal.currency;
  const auto rent = engine::CloudOptions(*state.catalog, s.gpu_id, gpus, 1.0, currency, {});
  const engine::CloudCost* on_demand = engine::CheapestOnDemand(rent);
  const double cloud_gpu_hour = on_demand == nullptr ? 0 : on_demand->price_per_hour / gpus;
  const auto own = engine::OwnOptions(*state.catalog, engine::AssumptionsFromCatalog(*state.catalog), s.gpu_id, gpus,
                                      1.0, currency, cloud_gpu_hour);
  if (on_demand == nullptr || own.empty()) {
    MutedText(T("The catalog needs both a cloud offer and a server for this GPU to compare renting with buying."));
    return;
  }
  const double utilization = state.goal.own_utilization;
  const engine::RentVsBuy series = engine::RentVsBuySeries(on_demand->price_per_hour, own[0], utilization, 48);
  const double top = std::max(series.rent.back(), series.own.back()) * 1.05;
  const std::string y_title = Printf(T("cumulative cost, %s"), currency.c_str());
  const auto month_tick = [](double m) { return Printf(T("%d mo"), int(std::lround(m))); };
  Axis x{0, 48, false, month_tick, T("months of use")};
  Axis y{0, top, false, MoneyTick, y_title.c_str()};
  const float scale = state.dpi_scale;
  Chart chart("rentbuy", x, y, 220 * scale, scale);
  for (size_t i = 1; i < series.months.size(); ++i) {
    chart.Draw()->AddLine(chart.At(series.months[i - 1], series.rent[i - 1]), chart.At(series.months[i], series.rent[i]),
                          TermColor(0), 2.5f * scale);
    chart.Draw()->AddLine(chart.At(series.months[i - 1], series.own[i - 1]), chart.At(series.months[i], series.own[i]),
                          TermColor(1), 2.5f * scale);
  }
  if (series.break_even_month > 0) {
    const double m = series.break_even_month;
    chart.Draw()->AddLine(chart.At(m, 0), chart.At(m, top), Colors().ok, 1.5f * scale);
  }
  const std::string& server = own[0].server->name;
  const std::string compared =
      Printf(T("Blue: rent %s %s at %s %s/h; orange: buy %d× %s for %s %s, used %d%% of the time."),
             on_demand->offer->provider_name.c_str(), on_demand->offer->instance.c_str(),
             WithThousands(std::llround(on_demand->price_per_hour)).c_str(), currency.c_str(), own[0].servers,
             (own[0].used ? Printf(T("%s (used)"), server.c_str()) : server).c_str(),
             WithThousands(std::llround(own[0].capex)).c_str(), currency.c_str(), int(std::lround(utilization * 100)));
  const std::string verdict = series.break_even_month > 0
                                  ? Printf(T("Buying pays off after %d months (green line)."),
                                           int(std::lround(series.break_even_month)))
                                  : std::string(T("Renting stays cheaper for 4 years at this utilization."));
  MutedText(Printf(T("%s %s"), compared.c_str(), verdict.c_str()).c_str());  // two sentences
}

}  // namespace ui
