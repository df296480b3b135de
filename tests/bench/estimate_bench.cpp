// How fast one full estimate runs (parse scenario → engine → result JSON), natively.
// The page re-estimates on every edit, so this must stay far below a frame (16 ms).
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog_loader.h"
#include "engine/estimate.h"
#include "engine/service/api.h"

namespace {

void BM_EstimateJson(benchmark::State& state) {
  const std::string scenario = R"({"model":"llama-3-70b","method":"full","gpus":64,"tp":8,"pp":2,"zero":1})";
  for (auto _ : state) benchmark::DoNotOptimize(engine::service::Session().Estimate(scenario));
}
BENCHMARK(BM_EstimateJson);

void BM_EngineOnly(benchmark::State& state) {
  const engine::Catalog& catalog = catalog::Embedded().value();
  engine::Scenario s;
  s.model = catalog.FindModel("llama-3-70b")->spec;
  s.parallel.gpus = 64, s.parallel.tp = 8, s.parallel.pp = 2;
  for (auto _ : state) benchmark::DoNotOptimize(engine::RunEstimate(s, catalog));
}
BENCHMARK(BM_EngineOnly);

}  // namespace

namespace {

// The default full search (all catalog accelerators, 1-4096 GPUs, all layouts) for a
// 70B full fine-tune with a deadline and budget; reports layouts evaluated per second.
void BM_PlanFullSearch(benchmark::State& state) {
  const std::string scenario =
      R"({"model":"llama-3-70b","method":"full","tokens":2e9,"deadline_days":7,"budget":40000})";
  long long candidates = 0;
  for (auto _ : state) {
    const engine::service::Response r = engine::service::Session().Plan(scenario);
    benchmark::DoNotOptimize(r);
    candidates += nlohmann::json::parse(r.json)["candidates_evaluated"].get<long long>();
  }
  state.counters["candidates_per_s"] = benchmark::Counter(double(candidates), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PlanFullSearch)->Unit(benchmark::kMillisecond);

}  // namespace
