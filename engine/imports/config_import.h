// Imports the configs a team already has into a scenario: LLaMA-Factory and axolotl YAML,
// Hugging Face TrainingArguments / TRL (JSON, YAML or the flags of a torchrun or accelerate
// line), DeepSpeed JSON, torchtune recipes, Megatron-LM / NeMo arguments, verl and OpenRLHF
// launch lines, and a model's config.json. Several files read as one run (a LLaMA-Factory
// YAML with the DeepSpeed JSON it names). The import is honest: it lists every key it used
// and for which fields, every key it did not use and why, and every setting it had to
// assume; a value it cannot read is an error with the file, line and column.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/imports/config_text.h"
#include "engine/message.h"
#include "engine/result.h"

namespace engine::imports {

enum class ConfigTool {
  kAuto,
  kLlamaFactory,
  kAxolotl,
  kTrl,
  kDeepSpeed,
  kTorchtune,
  kMegatron,
  kVerl,
  kOpenRlhf,
  kSwift,     // ms-swift's swift sft / swift pt
  kHfConfig,  // a model's config.json
};
inline constexpr std::array<std::string_view, 11> kConfigToolNames = {
    "auto", "llamafactory", "axolotl", "trl", "deepspeed", "torchtune", "megatron", "verl", "openrlhf", "swift", "hf_config"};

// A key the import read, and the scenario fields it gave.
struct UsedKey {
  std::string file, key, value;
  int line = 0, column = 0;
  contract::Json fields = contract::Json::object();
};

// A key the import did not use, and why.
struct IgnoredKey {
  std::string file, key, value;
  int line = 0, column = 0;
  engine::Message why;
};

// A scenario field the configs do not give, and the value used instead.
struct Assumption {
  std::string field;
  contract::Json value;
  engine::Message why;
};

struct DetectedFile {
  std::string file;
  ConfigTool tool = ConfigTool::kAuto;
};

struct ConfigImport {
  contract::Json scenario = contract::Json::object();  // the fields the configs give (and what they imply)
  std::vector<DetectedFile> files;
  std::vector<UsedKey> used;
  std::vector<IgnoredKey> ignored;
  std::vector<Assumption> assumed;
};

// Reads `files` as one run. `from` names the tool of every file it cannot tell apart
// (a DeepSpeed JSON and a config.json are always recognised); kAuto detects each.
// `base` is the scenario the import lands on (the page's current one; {} = the defaults):
// fields the configs do not give keep its values, listed under `assumed`, and the merged
// scenario must validate. Errors name the file, line and column of the key at fault.
engine::Result<ConfigImport> ImportConfigs(const std::vector<ConfigFile>& files, ConfigTool from,
                                           const contract::Json& base, const engine::Catalog& catalog);

// {"scenario", "files": [{"file", "tool"}], "used": [{"file", "line", "column", "key",
// "value", "fields"}], "ignored": [{..., "why", "code", "args"}], "assumed": [{"field",
// "value", "why", "code", "args"}]}.
contract::Json ConfigImportToJson(const ConfigImport& result);

}  // namespace engine::imports
