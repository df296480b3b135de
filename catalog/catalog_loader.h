// Loads and validates the catalog (GPUs, model presets, fabrics, cloud offers, servers,
// network gear, storage, facility figures, currency rates) from JSON files into engine
// types. The same rules run at build time (tools/catalog_check.cpp), at start-up, and on a
// user's overlay; an error names the file, the entry and the field.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "catalog/embedded_files.h"
#include "engine/catalog.h"
#include "engine/result.h"

namespace catalog {

// Parses and validates every file; the first problem comes back as an InputError whose
// field reads "gpus.json: gpus[3] (h100-sxm-80gb): memory_gib".
engine::Result<engine::Catalog> LoadFiles(std::span<const EmbeddedFile> files);

// The embedded catalog, parsed once. It was validated at build time, so a failure here
// is a build bug; it is still reported as an error, never a crash.
const engine::Result<engine::Catalog>& Embedded();

// Merges a user's overlay (same shape as the catalog files: any of "gpus", "offers",
// "servers", ... arrays) into `base`: an entry with a known id replaces it, a new id is
// added. Validated with the same rules; on error `base` is untouched and the error names
// "<name>: <array>[i] (<id>): <field>".
engine::Result<engine::Catalog> ApplyOverlay(const engine::Catalog& base, std::string_view overlay_json,
                                             const std::string& name);

// All embedded files as one JSON document {"gpus": {...}, "models": {...}, ...}.
std::string EmbeddedCatalogJson();

}  // namespace catalog
