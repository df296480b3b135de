// The UI's translation tables compiled into the page (wasm/ui/i18n/*.json, embedded by
// wasm/ui/CMakeLists.txt like the catalog).
#pragma once

#include <span>

#include "catalog/embedded_files.h"

namespace ui {

using catalog::EmbeddedFile;

// Every wasm/ui/i18n/*.json: {"strings": {English UI string: 中文}} (zh-ui.json) or
// {"messages": {message id: 中文 template}} (zh-messages*.json).
std::span<const EmbeddedFile> EmbeddedTranslations();

}  // namespace ui
