// The catalog JSON files compiled into the program (generated at build time by
// cmake/embed_files.cmake from catalog/*.json): identical bytes natively and in WASM.
#pragma once

#include <span>
#include <string_view>

namespace catalog {

struct EmbeddedFile {
  std::string_view name;  // file name relative to catalog/, e.g. "gpus.json"
  std::string_view text;  // its exact bytes
};

std::span<const EmbeddedFile> EmbeddedFiles();

// The published training runs of catalog/validation/*.json (memory_cases.json,
// throughput_cases.json), embedded the same way; validation_cases.h runs them.
std::span<const EmbeddedFile> ValidationFiles();

}  // namespace catalog
