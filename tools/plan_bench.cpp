// Planner speed, for the native and the WebAssembly build alike (run the WASM one under
// Node: `node build/web/plan_bench.js`): full default searches per second and layouts
// evaluated per second. Google Benchmark covers the native build in tests/bench.
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/contract/json_fields.h"
#include "engine/service/api.h"

int main() {
  const std::string scenario = R"({"model":"llama-3-70b","method":"full","tokens":2e9,"deadline_days":7,"budget":40000})";
  engine::service::Session().Plan(scenario);  // warm-up: parses the embedded catalog
  const int runs = 20;
  long long candidates = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) {
    const engine::service::Response r = engine::service::Session().Plan(scenario);
    candidates += engine::contract::Json::parse(r.json)["candidates_evaluated"].get<long long>();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("full default plan search: %.1f ms per search, %.2f M layouts/s (%lld layouts per search)\n",
              seconds / runs * 1e3, candidates / seconds / 1e6, candidates / runs);
  return 0;
}
