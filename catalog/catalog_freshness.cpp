#include "catalog/catalog_freshness.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/dates.h"

namespace catalog {
namespace {

// A money unit names a price ("USD/kWh", "EUR/kWh", "USD per GPU"); other units are
// datasheet or survey figures (PUE, years, fractions).
bool IsMoneyUnit(const std::string& unit) {
  for (std::string_view code : {"USD", "EUR", "CNY"}) {
    if (unit.find(code) != std::string::npos) return true;
  }
  return false;
}

// The fields of an entry that date a price, and what each prices. A datasheet's date is
// not among them: a 2022 datasheet stays true, a 2024 price does not.
std::vector<std::pair<std::string, engine::contract::Json>> PriceDates(const std::string& section,
                                                                       const engine::contract::Json& e) {
  std::vector<std::pair<std::string, engine::contract::Json>> dates;
  if (e.contains("price_date")) dates.push_back({"price_date", e["price_date"]});
  if (section == "rates" && e.contains("date")) dates.push_back({"date", e["date"]});
  // A GPU's street price, when the catalog has one.
  if (e.contains("price") && e["price"].is_object()) {
    const engine::contract::Json& price = e["price"];
    const bool priced = std::any_of(price.begin(), price.end(), [](const engine::contract::Json& v) { return v.is_number(); });
    if (priced) dates.push_back({"price.date", price.value("date", engine::contract::Json())});
  }
  // Facility prices (electricity, colocation) and storage prices carry one source date.
  const bool money_figure = section == "facility" && IsMoneyUnit(e.value("unit", std::string()));
  const bool storage_price = section == "storage" && !e.contains("price_date") &&
                             ((e.contains("price_usd_per_tb") && e["price_usd_per_tb"].is_number()) ||
                              (e.contains("cloud_usd_per_tb_month") && e["cloud_usd_per_tb_month"].is_number()));
  if ((money_figure || storage_price) && e.contains("source_date")) dates.push_back({"source_date", e["source_date"]});
  return dates;
}

}  // namespace

engine::contract::Json StaleFigures(std::span<const EmbeddedFile> files, int older_than_days, long today) {
  engine::contract::Json stale = engine::contract::Json::array();
  for (const EmbeddedFile& f : files) {
    const engine::contract::Json doc = engine::contract::Json::parse(f.text.begin(), f.text.end(), nullptr, false);
    if (!doc.is_object()) continue;
    for (const auto& [section, entries] : doc.items()) {
      if (!entries.is_array()) continue;
      for (const engine::contract::Json& e : entries) {
        if (!e.is_object()) continue;
        const std::string id = e.value("id", e.value("currency", std::string("?")));
        for (const auto& [field, value] : PriceDates(section, e)) {
          const std::string date = value.is_string() ? value.get<std::string>() : "";
          const long day = engine::NewestDay(date);
          const long age = day < 0 ? -1 : today - day;
          if (day >= 0 && age <= older_than_days) continue;
          stale.push_back({{"file", f.name}, {"entry", section + "/" + id}, {"field", field},
                           {"date", date.empty() ? "(none)" : date}, {"age_days", age}});
        }
      }
    }
  }
  return engine::contract::Json{{"older_than_days", older_than_days}, {"count", stale.size()}, {"stale", stale}};
}

}  // namespace catalog
