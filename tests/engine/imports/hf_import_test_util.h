// What the config.json import tests share: importing a text, and finding a warning by code.
#pragma once

#include <string>

#include "engine/imports/hf_config.h"

namespace engine::imports {

inline engine::Result<HfImport> Import(const std::string& text) { return ImportHfConfig(contract::Json::parse(text)); }

inline const engine::Warning* FindWarning(const HfImport& imported, const std::string& code) {
  for (const engine::Warning& w : imported.warnings) {
    if (w.code == code) return &w;
  }
  return nullptr;
}

}  // namespace engine::imports
