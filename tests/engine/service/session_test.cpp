// engine::service::Session: each session holds its own catalog (no process-wide state), and the
// estimate's costs (engine::EstimateCosts) follow the goal's currency and utilization.
#include <gtest/gtest.h>

#include <string>

#include "engine/contract/json_fields.h"
#include "engine/service/api.h"

namespace {

using engine::contract::Json;

constexpr const char* kScenario = R"({"model":"llama-3-8b","method":"full","gpus":8,"zero":3,"tokens":1e9)";

Json Costs(const engine::service::Session& session, const std::string& extra = "") {
  const engine::service::Response r = session.Estimate(std::string(kScenario) + extra + "}");
  EXPECT_TRUE(r.ok) << r.json;
  return Json::parse(r.json)["costs"];
}

// A PUE of 3 triples the power bill of owned servers, in the session that set it only.
TEST(Session, AnOverlayActsOnItsOwnSessionOnly) {
  const std::string overlay = R"({"facility":[{"id":"pue-typical","name":"x","unit":"ratio","value":3,)"
                              R"("source":"s","source_date":"2026"}]})";
  engine::service::Session with_overlay, without;
  const double built_in = Costs(without)["own"]["power_per_hour"].get<double>();
  ASSERT_TRUE(with_overlay.SetCatalogOverlay(overlay).ok);
  EXPECT_GT(Costs(with_overlay)["own"]["power_per_hour"].get<double>(), 2 * built_in);
  EXPECT_EQ(Costs(without)["own"]["power_per_hour"].get<double>(), built_in);
  EXPECT_NE(with_overlay.CatalogJson(), without.CatalogJson());
  ASSERT_TRUE(with_overlay.SetCatalogOverlay("").ok);
  EXPECT_EQ(Costs(with_overlay)["own"]["power_per_hour"].get<double>(), built_in);
}

// The job is priced for its wall time with failures plus start-up and tear-down; owning
// at the goal's utilization costs fixed ÷ utilization + power per hour (the planner's rule).
TEST(EstimateCosts, PriceTheJobAtTheGoalsUtilization) {
  const engine::service::Session session;
  const Json reply = Json::parse(session.Estimate(std::string(kScenario) + R"(,"own_utilization":0.5})").json);
  const Json& costs = reply["costs"];
  EXPECT_NEAR(costs["hours"].get<double>(),
              reply["reliability"]["wall_hours_with_failures"].get<double>() +
                  reply["startup"]["total_hours"].get<double>(),
              0.01);
  EXPECT_EQ(costs["own_utilization"], 0.5);
  const Json& own = costs["own"];
  const double share = own["fixed_per_hour"].get<double>() / 0.5 + own["power_per_hour"].get<double>();
  EXPECT_NEAR(own["share_per_hour"].get<double>(), share, 1e-3);
  EXPECT_NEAR(own["share"].get<double>(), share * costs["hours"].get<double>(), 1.0);
  ASSERT_TRUE(costs["rent"].is_object());
  EXPECT_GE(costs["rent"]["billed_hours"].get<double>(), costs["hours"].get<double>());
  EXPECT_GT(costs["storage"]["cost"].get<double>(), 0);
}

// Another currency converts every amount; the series starts from the purchase price.
TEST(EstimateCosts, FollowTheGoalsCurrency) {
  const engine::service::Session session;
  const Json usd = Costs(session), eur = Costs(session, R"(,"currency":"EUR")");
  EXPECT_EQ(eur["currency"], "EUR");
  EXPECT_EQ(eur["rent"]["offer"], usd["rent"]["offer"]);
  EXPECT_NE(eur["rent"]["total"], usd["rent"]["total"]);
  const Json& series = eur["rent_vs_buy"];
  ASSERT_TRUE(series.is_object());
  EXPECT_EQ(series["rent"].size(), 49u);
  EXPECT_EQ(series["rent"][0], 0.0);
  EXPECT_EQ(series["own"][0], eur["own"]["capex"]);
}

}  // namespace
