// Catalog prose (engine/local_text.h) in the page's language.
#pragma once

#include <string>

#include "engine/local_text.h"
#include "i18n.h"

namespace ui {

inline const std::string& Local(const engine::LocalText& text) {
  return Language() == Lang::kZh && !text.zh.empty() ? text.zh : text.en;
}

}  // namespace ui
