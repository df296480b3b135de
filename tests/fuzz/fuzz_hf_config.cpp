// libFuzzer target: a pasted Hugging Face config.json → JSON parse → engine::imports::ImportHfConfig,
// then, for configs it accepts, the parameter count of the imported architecture.
// Numbers are mutated towards edge values by fuzz_mutator.h.
#include <cstddef>
#include <cstdint>

#include "engine/imports/hf_config.h"
#include "engine/model_spec.h"
#include "fuzz_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const engine::contract::Json config = engine::contract::Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) return 0;
  const auto imported = engine::imports::ImportHfConfig(config);
  if (imported.ok() && !engine::ValidateModel(imported.value().spec, "model.")) {
    (void)engine::CountParams(imported.value().spec);
  }
  return 0;
}
