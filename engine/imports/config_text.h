// A training tool's config as the importers read it: every key with its value and where
// it stands (file, line, column), whatever the format. YAML and JSON go through yaml-cpp
// (JSON is YAML's flow style); a command line or a launch script (torchrun, deepspeed,
// accelerate, python, bash arrays of flags, Hydra overrides) through a small shell
// tokenizer that resolves the script's own NAME=value variables.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/result.h"

namespace engine::imports {

// One file (or pasted text) to import; `name` is what messages call it.
struct ConfigFile {
  std::string name;
  std::string text;
};

// One key of a config, flattened. Nested mappings join with "." ("zero_optimization.stage");
// a list of scalars is one value, its items joined with ","; a flag without a value reads
// "true". Command-line flags drop their leading dashes ("tensor-model-parallel-size").
struct Setting {
  std::string key;
  std::string value;
  bool is_list = false;
  bool is_null = false;  // YAML null / ~ / an empty value
  int line = 0;          // 1-based, 0 = not known
  int column = 0;
  std::string scope;     // command lines: the program or script the flag follows ("torchrun", "train.py")
  bool taken = false;    // read by an importer (used or ignored with a reason)
};

enum class DocumentKind { kMapping, kCommandLine };

struct ConfigDocument {
  std::string name;
  DocumentKind kind = DocumentKind::kMapping;
  std::vector<std::string> programs;  // command lines: the programs and scripts in order ("torchrun", "train.py")
  std::vector<Setting> settings;
  // Command lines: NAME=value before a command (or after export), the environment a
  // launcher such as ms-swift reads (NPROC_PER_NODE, MAX_PIXELS); not settings unless a
  // tool's reader takes them as such.
  std::vector<Setting> assignments;
  contract::Json json;                // mappings: the document as JSON (a config.json is read whole)

  // The first setting with `key`, or nullptr.
  Setting* Find(std::string_view key);
  const Setting* Find(std::string_view key) const;
  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  bool RunsProgram(std::string_view name_part) const;  // a program or script whose name contains name_part
};

// The largest config text read (a training config is a few KiB).
inline constexpr size_t kMaxConfigBytes = 1 << 20;
// The most keys one document may flatten to, and the most bytes its values may expand to
// (YAML aliases and shell variables repeat text without writing it).
inline constexpr size_t kMaxConfigSettings = 20000;
inline constexpr size_t kMaxExpandedBytes = 4 * kMaxConfigBytes;
// The most files one pasted text splits into (each part keeps its lines' numbers).
inline constexpr size_t kMaxConfigFiles = 16;

// Reads one file: a command line when its first word is a launcher or it is made of
// --flags, else YAML/JSON. Errors name the file with the line and column.
engine::Result<ConfigDocument> ReadConfigText(const ConfigFile& file);

// Splits pasted text holding several files at lines that are exactly "---" (how the page's
// import box and a multi-file drop join them), into at most kMaxConfigFiles parts; a YAML
// file's own leading "---" gives an empty first part, which is dropped. Each part starts
// with as many newlines as lines came before it, so errors give the pasted text's lines.
std::vector<ConfigFile> SplitConfigText(std::string_view text, std::string_view name);

}  // namespace engine::imports
