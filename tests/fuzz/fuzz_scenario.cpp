// libFuzzer target: scenario JSON text → engine::service::Session::Estimate and, for requests that read, the
// plan, with fuzz_check.h's strict checks on both: a clean error naming a field, or a
// result with only finite numbers, integers inside int64 and no "inf"/"nan" in its text.
// Numbers are mutated towards edge values by fuzz_mutator.h.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/service/api.h"
#include "fuzz_check.h"
#include "fuzz_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const engine::service::Session session;  // the embedded catalog
  const auto& cat = session.catalog_or_error();
  if (!cat.ok()) __builtin_trap();  // the embedded catalog is validated at build time
  // The planner searches every GPU and layout (~10 ms natively), so only for requests
  // that read (CheckEstimateAndPlan returns before it for the rest).
  fuzz::CheckEstimateAndPlan(text, session, fuzz::Input(text), /*plan=*/true);
  return 0;
}
