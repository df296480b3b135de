// libFuzzer target: a user's catalog overlay → api::SetCatalogOverlay (parse, validate,
// merge), an estimate against the merged catalog, then SetCatalogOverlay("") so that
// every input starts from the embedded catalog.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/codec/api.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Empty text means "remove the overlay", which the reset below covers.
  if (text.empty()) return 0;
  const api::Response set = api::SetCatalogOverlay(text);
  fuzz::CheckResponse(set);
  if (set.ok) {
    // The merged catalog must carry an estimate and a (small) plan: the planner reads
    // every GPU, offer, server and rate an overlay can add or replace. (api::CatalogJson
    // is left out: it re-parses the whole embedded catalog and would take most of a run.)
    fuzz::CheckResponse(api::Estimate(R"({"model":"llama-3-8b","method":"lora"})"));
    fuzz::CheckResponse(api::Plan(R"({"model":"llama-3-8b","method":"lora","tokens":1e8,"max_gpus":8,)"
                                  R"("purchase":"both","budget":{"amount":5000,"currency":"EUR"}})"));
  }
  if (!api::SetCatalogOverlay("").ok) __builtin_trap();
  return 0;
}
