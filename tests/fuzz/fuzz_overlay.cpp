// libFuzzer target: a user's catalog overlay → engine::service::Session::SetCatalogOverlay (parse,
// validate, merge), an estimate against the merged catalog, then SetCatalogOverlay("")
// to check that the embedded catalog comes back. Each input gets a fresh session. Responses pass fuzz_check.h's strict
// checks; numbers are mutated towards edge values by fuzz_mutator.h.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/service/api.h"
#include "fuzz_check.h"
#include "fuzz_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Empty text means "remove the overlay", which the reset below covers.
  if (text.empty()) return 0;
  const fuzz::Input input(text);
  engine::service::Session session;
  const engine::service::Response set = session.SetCatalogOverlay(text);
  fuzz::CheckResponse(set, input, "overlay");
  if (set.ok) {
    // The merged catalog must carry an estimate and a (small) plan: the planner reads
    // every GPU, offer, server and rate an overlay can add or replace. (CatalogJson
    // is left out: it re-parses the whole embedded catalog and would take most of a run.)
    // Walked before they are written (fuzz_check.h), so a NaN the overlay's figures
    // cause is seen rather than written as null.
    const auto& merged = session.catalog_or_error();
    if (!merged.ok()) fuzz::Fail("an overlay was accepted but the catalog in force is an error");
    fuzz::CheckEstimateAndPlan(R"({"model":"llama-3-8b","method":"lora"})", session, input, /*plan=*/false);
    fuzz::CheckEstimateAndPlan(R"({"model":"llama-3-8b","method":"lora","tokens":1e8,"max_gpus":8,)"
                               R"("purchase":"both","budget":{"amount":5000,"currency":"EUR"}})",
                               session, input, /*plan=*/true);
  }
  if (!session.SetCatalogOverlay("").ok) fuzz::Fail("the embedded catalog did not come back");
  return 0;
}
