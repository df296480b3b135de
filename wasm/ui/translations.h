// The UI's translation tables compiled into the page (wasm/ui/i18n/*.json, embedded by
// wasm/ui/CMakeLists.txt like the catalog).
#pragma once

#include <span>

#include "catalog/embedded_files.h"

namespace ui {

using catalog::EmbeddedFile;

// Every wasm/ui/i18n/*.json: {"strings": {English: 中文}, "patterns": {English with {}: 中文 with {} or {N}}}
std::span<const EmbeddedFile> EmbeddedTranslations();

}  // namespace ui
