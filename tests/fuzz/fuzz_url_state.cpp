// libFuzzer target: a link's fragment → engine::link::DecodeUrlState. Decoding never fails, so
// the document it returns must always be a JSON object that parses as a scenario (with a
// model filled in) or names the field that does not; encoding it again must not crash.
// The decoded scenario is then estimated, and planned when the link carries a planner
// field, under fuzz_check.h's strict checks; numbers are mutated by fuzz_mutator.h.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "engine/contract/plan_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/link/url_state.h"
#include "engine/planner.h"
#include "engine/service/api.h"
#include "fuzz_check.h"
#include "fuzz_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view fragment(reinterpret_cast<const char*>(data), size);
  const engine::service::Session session;  // the embedded catalog
  const auto& cat = session.catalog_or_error();
  if (!cat.ok()) __builtin_trap();
  const engine::link::UrlState state = engine::link::DecodeUrlState(fragment, cat.value());
  if (!state.scenario.is_object()) fuzz::Fail("DecodeUrlState returned a scenario that is not an object");
  // Each notice is a message: its template filled with its arguments.
  for (const engine::Message& notice : state.ignored) {
    if (notice.id.empty() || engine::RenderEnglish(notice.id, notice.args) != notice.english) {
      fuzz::Fail("a link notice that is not its template " + notice.id + " filled: " + notice.english);
    }
  }
  engine::contract::Json doc = state.scenario;
  if (!doc.contains("model")) doc["model"] = "llama-3-8b";
  (void)engine::contract::ScenarioFromJson(doc, cat.value());
  (void)engine::link::EncodeUrlState(state.scenario, state.view);
  // A link is one scenario: estimate it always, and plan it when it asks for a plan (a
  // planner field, by the constraint names, is in it) and, since a plan costs ~10 ms
  // natively (and several times that under ASan) while decoding costs microseconds, for
  // one link in 8 by a hash of its text (the same link always plans or never does).
  // fuzz_scenario plans every request that reads.
  static const engine::contract::Json kPlannerFields = engine::contract::ConstraintsToJson(engine::PlanConstraints{});
  bool plan = std::hash<std::string_view>{}(fragment) % 8 == 0;
  bool asks = false;
  for (const auto& [key, value] : kPlannerFields.items()) asks = asks || doc.contains(key);
  plan = plan && asks;
  fuzz::Input input(fragment);
  input.AddStrings(doc);
  fuzz::CheckEstimateAndPlan(fuzz::Dump(doc), session, input, plan);
  return 0;
}
