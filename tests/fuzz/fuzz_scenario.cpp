// libFuzzer target: scenario JSON text → catalog::ParseScenario, then the whole estimate
// (api::Estimate) and, for scenarios that parse, the plan (api::Plan). Any bytes must
// come back as a result or a clean {"error": ...}.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/codec/api.h"
#include "catalog/codec/scenario_json.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto& cat = api::CurrentCatalog();
  if (!cat.ok()) __builtin_trap();  // the embedded catalog is validated at build time
  const auto scenario = catalog::ParseScenario(text, cat.value());
  const api::Response estimate = api::Estimate(text);
  fuzz::CheckResponse(estimate);
  // Parsing is the first step of Estimate: a scenario it refuses can never estimate.
  if (!scenario.ok() && estimate.ok) __builtin_trap();
  // The planner searches every GPU and layout (~10 ms natively), so only for scenarios
  // that parse; the rest would spend the run on JSON syntax errors.
  if (scenario.ok()) fuzz::CheckResponse(api::Plan(text));
  return 0;
}
