// Issue 14, an outside test's findings on catalog overlays: every number must be within a
// physical range for its unit (one table, catalog_entries.cpp kRanges), an overlay is
// parsed by the scenario parser's rules (no NUL byte, no key twice), entries must agree
// with themselves, the base currency has no rate, and plan JSON says "never" explicitly.
// Every expected message and range below is written from the table's rows by hand.
#include <gtest/gtest.h>

#include <string>

#include "catalog/catalog_loader.h"
#include "engine/contract/plan_json.h"
#include "engine/service/api.h"

namespace engine::service {
namespace {

const engine::Catalog& Base() { return catalog::Embedded().value(); }

// "field: message" of the overlay's error, or "" when it is accepted.
std::string OverlayError(std::string_view overlay) {
  auto merged = catalog::ApplyOverlay(Base(), overlay, "overlay");
  return merged.ok() ? "" : merged.error().field + ": " + merged.error().message;
}

std::string Facility(const std::string& id, const std::string& unit, const std::string& value) {
  return R"({"facility":[{"id":")" + id + R"(","name":"edited","unit":")" + unit + R"(","value":)" + value +
         R"(,"source":"our finance team","source_date":"2026-11"}]})";
}

std::string Offer(const std::string& fields) {
  return R"({"offers":[{"id":"acme-8x","provider":"acme","provider_name":"Acme","instance":"8xH100",
    "gpu":"h100-sxm-80gb","billing":"instance","currency":"USD","region":"us","price_date":"2026-11",
    "confidence":"quote","source":"our quote",)" +
         fields + "}]}";
}

std::string Rate(const std::string& code, const std::string& per_usd) {
  return R"({"rates":[{"currency":")" + code + R"(","per_usd":)" + per_usd +
         R"(,"date":"2026-11-01","source":"our bank"}]})";
}

// The finding: depreciation 0 divided by zero (inf days, $--9,223,...), and PUE 0 passed.
TEST(OverlayRanges, FacilityFiguresAreCheckedForTheirUnit) {
  EXPECT_EQ(OverlayError(Facility("depreciation-years", "years", "0")),
            "overlay: facility[0] (depreciation-years): value: must be between 1 and 15, got 0");
  EXPECT_EQ(OverlayError(Facility("depreciation-years", "years", "16")),
            "overlay: facility[0] (depreciation-years): value: must be between 1 and 15, got 16");
  EXPECT_EQ(OverlayError(Facility("depreciation-years", "years", "1")), "");
  EXPECT_EQ(OverlayError(Facility("pue-typical", "ratio", "0")),
            "overlay: facility[0] (pue-typical): value: must be between 1 and 3, got 0");
  EXPECT_EQ(OverlayError(Facility("pue-typical", "ratio", "1.0")), "");
  EXPECT_EQ(OverlayError(Facility("electricity-us", "USD/kWh", "81")),  // cents for dollars
            "overlay: facility[0] (electricity-us): value: must be between 0.01 and 1, got 81");
  EXPECT_EQ(OverlayError(Facility("sustained-power-fraction", "fraction of max power", "1.5")),
            "overlay: facility[0] (sustained-power-fraction): value: must be between 0.1 and 1, got 1.5");
  EXPECT_EQ(OverlayError(Facility("colocation-us", "USD/kW-month", "1e9")),
            "overlay: facility[0] (colocation-us): value: must be between 10 and 2000, got 1e9");
  EXPECT_EQ(OverlayError(Facility("depreciation-years", "years", "null")), "");  // unknown: the default applies
}

// The owned plan vanished when resale > 1 (negative depreciation): refused at the check.
TEST(OverlayRanges, ResaleIsAShareBelowOne) {
  EXPECT_EQ(OverlayError(Facility("resale-fraction-5y", "fraction of purchase price", "1.2")),
            "overlay: facility[0] (resale-fraction-5y): value: must be between 0 and 0.95, got 1.2");
  EXPECT_EQ(OverlayError(Facility("resale-fraction-3y", "fraction of purchase price", "1")),
            "overlay: facility[0] (resale-fraction-3y): value: must be between 0 and 0.95, got 1");
  EXPECT_EQ(OverlayError(Facility("resale-fraction-5y", "fraction of purchase price", "-0.1")),
            "overlay: facility[0] (resale-fraction-5y): value: must be between 0 and 0.95, got -0.1");
  EXPECT_EQ(OverlayError(Facility("resale-fraction-5y", "fraction of purchase price", "0")), "");
}

// A figure the engine reads must carry the unit it is read in; a new figure needs a known unit.
TEST(OverlayRanges, FacilityUnitsMustBeKnown) {
  EXPECT_EQ(OverlayError(Facility("depreciation-years", "months", "48")),
            "overlay: facility[0] (depreciation-years): unit: must be one of years, got 'months'");
  const std::string error = OverlayError(Facility("my-figure", "furlongs", "3"));
  EXPECT_TRUE(error.starts_with("overlay: facility[0] (my-figure): unit: must be one of ratio, USD/kWh")) << error;
  EXPECT_EQ(OverlayError(Facility("electricity-nordic", "EUR/kWh", "0.06")), "");
}

// A Chinese sibling of catalog prose (<field>_zh) is a string like its English field; a
// number, an object or null there is refused naming the key, never shown.
TEST(OverlayRanges, ChineseProseMustBeText) {
  for (const std::string bad : {"7", "{\"text\": \"名\"}", "null", "[\"名\"]"}) {
    const std::string error = OverlayError(
        R"({"facility":[{"id":"my-rack","name":"Rack","name_zh":)" + bad +
        R"(,"unit":"ratio","value":1.5,"source":"ours","source_date":"2026-11"}]})");
    EXPECT_TRUE(error.starts_with("overlay: facility[0] (my-rack): name_zh: ")) << bad << " -> " << error;
  }
  EXPECT_EQ(OverlayError(R"({"facility":[{"id":"my-rack","name":"Rack","name_zh":"机柜","unit":"ratio",
    "value":1.5,"source":"ours","source_date":"2026-11"}]})"), "");
}

// With the extreme figures still allowed, owning is priced, not lost: 1-year depreciation,
// resale 0.95, PUE 3 all at once leave owned plans with a finite cost.
TEST(OverlayRanges, ExtremeButAllowedFiguresStillPlanOwnership) {
  const std::string overlay = R"({"facility":[
    {"id":"depreciation-years","name":"x","unit":"years","value":1,"source":"s","source_date":"2026"},
    {"id":"resale-fraction-3y","name":"x","unit":"fraction of purchase price","value":0.95,"source":"s","source_date":"2026"},
    {"id":"pue-typical","name":"x","unit":"ratio","value":3,"source":"s","source_date":"2026"}]})";
  service::Session session;
  ASSERT_TRUE(session.SetCatalogOverlay(overlay).ok);
  const service::Response r = session.Plan(R"({"model":"llama-3-8b","method":"lora","tokens":1e8,"purchase":"own"})");
  ASSERT_TRUE(r.ok) << r.json;
  const contract::Json plan = contract::Json::parse(r.json);
  ASSERT_FALSE(plan["pareto"].empty());
  for (const contract::Json& p : plan["pareto"]) {
    EXPECT_EQ(p["purchase"], "own");
    EXPECT_TRUE(p["cost"].is_number()) << p.dump();
    EXPECT_GT(p["cost"].get<double>(), 0);
  }
}

TEST(OverlayRanges, GpuSpecsArePhysical) {
  const std::string gpu = R"({"gpus":[{"id":"x-1","name":"X","vendor":"V","memory_gb":80,"memory_gib":MEM,
    "memory_bandwidth_tb_per_s":BW,"architecture":"ampere","bf16_dense_tflops":300,"fp16_dense_tflops":300,
    "scale_up_gb_per_s":600,"scale_up_domain_gpus":8,"scale_up_link":"NVLink","tdp_w":TDP,"software":"cuda",
    "source":"datasheet","source_date":"2024"}]})";
  auto with = [&](const char* mem, const char* bw, const char* tdp) {
    std::string s = gpu;
    s.replace(s.find("MEM"), 3, mem);
    s.replace(s.find("BW"), 2, bw);
    s.replace(s.find("TDP"), 3, tdp);
    return OverlayError(s);
  };
  EXPECT_EQ(with("79.6", "2", "400"), "");
  // A GiB is larger than a GB: 80 GB cannot hold 200 GiB, and under half is a unit mix-up.
  EXPECT_EQ(with("200", "2", "400"),
            "overlay: gpus[0] (x-1): memory_gib: must be between 40 and 80 (half of memory_gb to memory_gb), got 200");
  EXPECT_EQ(with("79.6", "2000", "400"),  // GB/s for TB/s
            "overlay: gpus[0] (x-1): memory_bandwidth_tb_per_s: must be between 0.05 and 100, got 2000");
  EXPECT_EQ(with("79.6", "2", "0.7"),  // kW for W
            "overlay: gpus[0] (x-1): tdp_w: must be between 10 and 5000, got 0.7");
}

// The finding: an offer of 576 GPUs per node with max_gpus 1 passed.
TEST(OverlayConsistency, OfferGpusFitItsNode) {
  const std::string prices =
      R"("on_demand_per_hour":24,"spot_per_hour":null,"reserved_1yr_per_hour":null,"reserved_3yr_per_hour":null)";
  EXPECT_EQ(OverlayError(Offer(R"("gpus":576,"max_gpus":1,)" + prices)),
            "overlay: offers[0] (acme-8x): gpus: must be between 1 and max_gpus (1), got 576");
  EXPECT_EQ(OverlayError(Offer(R"("gpus":8,"max_gpus":8,)" + prices)), "");
  EXPECT_EQ(OverlayError(Offer(R"("gpus":16,)" + prices)), "");  // no max_gpus: the node holds the unit
}

// Prices per GPU-hour in USD within 0.01 .. 500, so an 8-GPU instance within 0.08 .. 4000.
TEST(OverlayConsistency, OfferPricesArePerGpuHourPlausibleAndDiscountsAreCheaper) {
  auto offer = [](const std::string& od, const std::string& spot, const std::string& r1, const std::string& r3) {
    return OverlayError(Offer(R"("gpus":8,"max_gpus":8,"on_demand_per_hour":)" + od + R"(,"spot_per_hour":)" + spot +
                              R"(,"reserved_1yr_per_hour":)" + r1 + R"(,"reserved_3yr_per_hour":)" + r3));
  };
  EXPECT_EQ(offer("24", "12", "18", "14"), "");
  EXPECT_EQ(offer("1e9", "null", "null", "null"),
            "overlay: offers[0] (acme-8x): on_demand_per_hour: must be between 0.08 and 4000, got 1e9");
  EXPECT_EQ(offer("0.01", "null", "null", "null"),
            "overlay: offers[0] (acme-8x): on_demand_per_hour: must be between 0.08 and 4000, got 0.01");
  EXPECT_EQ(offer("24", "30", "null", "null"),
            "overlay: offers[0] (acme-8x): spot_per_hour: must be at most on_demand_per_hour (24), got 30");
  EXPECT_EQ(offer("24", "null", "25", "null"),
            "overlay: offers[0] (acme-8x): reserved_1yr_per_hour: must be at most on_demand_per_hour (24), got 25");
  EXPECT_EQ(offer("24", "null", "18", "19"),
            "overlay: offers[0] (acme-8x): reserved_3yr_per_hour: must be at most reserved_1yr_per_hour (18), got 19");
}

TEST(OverlayConsistency, UsedServersCostNoMoreThanNew) {
  const std::string server = R"({"servers":[{"id":"my-hgx","name":"HGX","gpu":"h100-sxm-80gb","form":"hgx","gpus":8,
    "power_kw":10.2,"price_usd_new":300000,"price_usd_used":USED,"price_date":"2026-11","source":"quote",
    "source_date":"2026-11"}]})";
  std::string used = server;
  used.replace(used.find("USED"), 4, "400000");
  EXPECT_EQ(OverlayError(used), "overlay: servers[0] (my-hgx): price_usd_used: must be at most price_usd_new (300000), got 400000");
  std::string fine = server;
  fine.replace(fine.find("USED"), 4, "200000");
  EXPECT_EQ(OverlayError(fine), "");
}

// Rates are units per US dollar: a USD row would be ignored (USD is 1 by definition).
TEST(OverlayRates, BaseCurrencyAndImplausibleRatesAreRefused) {
  EXPECT_EQ(OverlayError(Rate("USD", "1")),
            "overlay: rates[0] (USD): currency: must not be USD: rates are per US dollar, the base currency "
            "(1 USD = 1 USD)");
  EXPECT_EQ(OverlayError(Rate("cny", "7")),
            "overlay: rates[0] (cny): currency: must be a three-letter ISO 4217 code like CNY, got 'cny'");
  EXPECT_EQ(OverlayError(Rate("EUR", "85")), "overlay: rates[0] (EUR): per_usd: must be between 0.5 and 1.5, got 85");
  EXPECT_EQ(OverlayError(Rate("CNY", "0.14")),  // USD per CNY, the wrong way round
            "overlay: rates[0] (CNY): per_usd: must be between 5 and 10, got 0.14");
  EXPECT_EQ(OverlayError(Rate("CNY", "7.1")), "");
  EXPECT_EQ(OverlayError(Rate("GBP", "0.79")), "");
}

// The scenario parser's rules: text after a NUL is not ignored, and a key given twice is
// an error naming it, not a silent last-wins.
TEST(OverlayParsing, NulByteAndRepeatedKeysAreRefused) {
  const std::string rate = Rate("CNY", "7.1");
  EXPECT_EQ(OverlayError(rate), "");
  const std::string with_nul = rate + std::string(1, '\0') + R"({"rates":[]})";
  EXPECT_EQ(OverlayError(with_nul),
            "overlay: is not valid JSON: a NUL byte at offset " + std::to_string(rate.size()));
  EXPECT_EQ(OverlayError(R"({"rates":[{"currency":"CNY","per_usd":7.1,"per_usd":710,"date":"2026-11-01","source":"x"}]})"),
            "overlay: rates[0].per_usd: appears twice in one object; give it once");
  EXPECT_EQ(OverlayError(R"({"rates":[],"rates":[]})"), "overlay: rates: appears twice in one object; give it once");
  EXPECT_EQ(OverlayError(R"({"gpus":[{"id":"x","price":{"new_usd_low":1,"new_usd_low":2}}]})"),
            "overlay: gpus[0].price.new_usd_low: appears twice in one object; give it once");
  // A catalog file is held to the same rules (the embedded ones pass: Catalog.EmbeddedFilesValidate).
  const catalog::EmbeddedFile files[] = {{"currencies.json", R"({"compiled":"2026-01-01","compiled":"2026-02-01"})"}};
  auto loaded = catalog::LoadFiles(files);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().field, "currencies.json: compiled");
}

// "never" is explicit in plan JSON: breaks_even false and break_even_months null, not 0.
// Under purchase "own" no rental is priced, so there is nothing to compare: both null.
TEST(PlanJsonBreakEven, NeverAndNotComparedAreNullNotZero) {
  const service::Response own = service::Session().Plan(R"({"model":"llama-3-8b","method":"lora","tokens":1e8,"purchase":"own"})");
  ASSERT_TRUE(own.ok) << own.json;
  const contract::Json owned = contract::Json::parse(own.json);  // kept alive: a range-for over a temporary's member dangles
  for (const contract::Json& p : owned["pareto"]) {
    EXPECT_TRUE(p["breaks_even"].is_null()) << p.dump();
    EXPECT_TRUE(p["break_even_months"].is_null()) << p.dump();
    EXPECT_TRUE(p["break_even_utilization"].is_null()) << p.dump();
  }
  const service::Response both = service::Session().Plan(R"({"model":"llama-3-8b","method":"lora","tokens":1e8,"purchase":"both"})");
  ASSERT_TRUE(both.ok) << both.json;
  const contract::Json plan = contract::Json::parse(both.json);
  for (const char* list : {"pareto", "picks"}) {
    for (const contract::Json& p : plan[list]) {
      ASSERT_TRUE(p.contains("breaks_even")) << p.dump();
      if (p["purchase"] == "cloud" || p["breaks_even"].is_null()) {
        EXPECT_TRUE(p["break_even_months"].is_null()) << p.dump();
      } else if (p["breaks_even"].get<bool>()) {
        EXPECT_GT(p["break_even_months"].get<double>(), 0) << p.dump();
      } else {
        EXPECT_TRUE(p["break_even_months"].is_null()) << p.dump();
      }
    }
  }
}

// The finding: the Markdown cost column printed -9223372036854775808 (llround of 9.3e18).
TEST(PlanMarkdownMoney, HugeCostsKeepTheirValue) {
  const contract::Json pick = {{"gpu_name", "X"},  {"gpus", 8}, {"layout", {{"tp", 1}, {"pp", 1}, {"dp", 8}, {"zero", 3}}},
                     {"memory_per_gpu_gib", 10.0}, {"wall_days", 1.0}, {"cost", 9.3e18}, {"procurement", "p"},
                     {"labels", contract::Json::array({"cheapest"})}};
  const contract::Json plan = {{"currency", "USD"}, {"tokens", 1e9}, {"objective", "cost"}, {"candidates_evaluated", 1},
                     {"picks", contract::Json::array({pick})}, {"pareto", contract::Json::array({pick})}, {"rejected", contract::Json::array()}};
  const std::string md = contract::PlanMarkdown(plan);
  EXPECT_NE(md.find("| 9.3e18 |"), std::string::npos) << md;
  EXPECT_EQ(md.find("9223372036854775808"), std::string::npos) << md;
}

}  // namespace
}  // namespace engine::service
