// Loads and validates the catalog (GPUs, model presets) from JSON files into engine
// types. The same rules run at build time (catalog_check), at start-up, and on user
// overlays; an error names the file, the entry and the field.
#pragma once

#include <span>
#include <string>

#include "embedded_files.h"
#include "engine/catalog.h"
#include "engine/result.h"

namespace catalog {

// Parses and validates every file; the first problem comes back as an InputError whose
// field reads "gpus.json: gpus[3] (h100-sxm-80gb): memory_gib".
engine::Result<engine::Catalog> LoadFiles(std::span<const EmbeddedFile> files);

// The embedded catalog, parsed once. It was validated at build time, so a failure here
// is a build bug; it is still reported as an error, never a crash.
const engine::Result<engine::Catalog>& Embedded();

// All embedded files as one JSON document {"gpus": {...}, "models": {...}} for
// `trainsizer catalog` and the JS API.
std::string EmbeddedCatalogJson();

}  // namespace catalog
