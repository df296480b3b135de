// libFuzzer target: pasted training configs (YAML, JSON, command lines, TRL scripts; several
// joined by "---" lines) → engine::imports::ImportConfigs over the default scenario; an
// accepted import is written as JSON and its scenario estimated, as the page's Apply does.
// Refusals must carry a field and a message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/imports/config_import.h"
#include "engine/service/api.h"
#include "fuzz_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const engine::service::Session session;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto files = engine::imports::SplitConfigText(text, "fuzz");
  const engine::contract::Json base = {{"model", "llama-3.1-8b"}};
  const auto imported = engine::imports::ImportConfigs(files, engine::imports::ConfigTool::kAuto, base, session.catalog());
  if (!imported.ok()) {
    if (imported.error().field.empty() || imported.error().message.empty()) {
      std::fprintf(stderr, "import refused without a field or message\n");
      std::abort();
    }
    return 0;
  }
  const engine::contract::Json out = engine::imports::ConfigImportToJson(imported.value());
  (void)out.dump(-1, ' ', false, engine::contract::Json::error_handler_t::replace);
  engine::contract::Json merged = base;
  for (const auto& [field, value] : imported.value().scenario.items()) merged[field] = value;
  (void)session.Estimate(merged.dump(-1, ' ', false, engine::contract::Json::error_handler_t::replace));
  return 0;
}
