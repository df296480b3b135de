// The UI fonts compiled into the page (Inter Regular and SemiBold, subset at build time
// by wasm/CMakeLists.txt). Same embedding as the catalog.
#pragma once

#include <span>

#include "catalog/embedded_files.h"

namespace ui {

using catalog::EmbeddedFile;

// [0] Inter-Regular subset, [1] Inter-SemiBold subset, [2] WenQuanYi Micro Hei subset,
// [3] the characters that subset holds (UTF-8 text), for the glyph ranges.
std::span<const EmbeddedFile> EmbeddedFonts();

}  // namespace ui
