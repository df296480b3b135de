// libFuzzer target: a link's fragment → catalog::DecodeUrlState. Decoding never fails, so
// the document it returns must always parse as a scenario (with a model filled in) or
// name the field that does not; and encoding it again must not crash either.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/codec/api.h"
#include "catalog/codec/scenario_json.h"
#include "catalog/codec/url_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view fragment(reinterpret_cast<const char*>(data), size);
  const auto& cat = api::CurrentCatalog();
  if (!cat.ok()) __builtin_trap();
  const catalog::UrlState state = catalog::DecodeUrlState(fragment, cat.value());
  if (!state.scenario.is_object()) __builtin_trap();
  catalog::Json doc = state.scenario;
  if (!doc.contains("model")) doc["model"] = "llama-3-8b";
  (void)catalog::ScenarioFromJson(doc, cat.value());
  (void)catalog::EncodeUrlState(state.scenario, state.view);
  return 0;
}
